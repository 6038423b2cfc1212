"""POST /api/v1/gibbon/round: one round's sins per player, and clear 4xx errors for anything odd."""
from __future__ import annotations

import json

import pytest

URL = "/api/v1/gibbon/round"


def player(name, **counts):
    base = {"low": 0, "high": 0, "cheats": 0, "hearts": 0, "accepted_hearts": 0, "wrongful_doubts": 0,
            "fattest_pile": 0, "hat": False, "braveheart": False}
    return {"name": name, **base, **counts}


# The rulebook's counting-table example as the API's input.
EXAMPLE = [
    player("P1", low=5, high=1, cheats=2, hearts=1, accepted_hearts=0, wrongful_doubts=3, fattest_pile=2),
    player("P2", low=4, hearts=1, accepted_hearts=1, wrongful_doubts=1, fattest_pile=4, braveheart=True),
    player("P3", low=3, high=1, cheats=1, hearts=2, accepted_hearts=1, wrongful_doubts=2, fattest_pile=4, hat=True),
    player("P4", low=1, hearts=1, accepted_hearts=2),
]


def post(client, body, **kw):
    return client.post(URL, json=body, **kw)


def test_the_rulebook_example_round(client):
    resp = post(client, {"players": EXAMPLE})
    assert resp.status_code == 200
    assert resp.get_json() == {"players": [
        {"name": "P1", "pride": 70, "sloth": 40, "lust": 20, "envy": 40, "wrath": 50, "gluttony": 0, "jealousy": 0,
         "total": 220, "immune": []},
        {"name": "P2", "pride": 40, "sloth": 0, "lust": 0, "envy": 0, "wrath": 0, "gluttony": 50, "jealousy": 0,
         "total": 90, "immune": ["lust", "envy"]},
        {"name": "P3", "pride": 50, "sloth": 20, "lust": 40, "envy": 20, "wrath": 0, "gluttony": 50, "jealousy": 50,
         "total": 230, "immune": []},
        {"name": "P4", "pride": 10, "sloth": 0, "lust": 20, "envy": 0, "wrath": 0, "gluttony": 0, "jealousy": 0,
         "total": 30, "immune": []},
    ]}


def test_immunity_is_told_apart_from_a_zero(client):
    # The Braveheart with no hearts at all and a player with no hearts both score 0 Lust; only the
    # Braveheart is immune, and the fields that were there before keep their values.
    resp = post(client, {"players": [player("BH", hearts=0, braveheart=True, low=1), player("Zero", low=1),
                                     player("C")]})
    bh, zero, _c = resp.get_json()["players"]
    assert bh["lust"] == zero["lust"] == 0 and bh["envy"] == zero["envy"] == 0
    assert bh["immune"] == ["lust", "envy"] and zero["immune"] == []


def test_answers_keep_the_input_order_and_missing_counts_are_zero(client):
    resp = post(client, {"players": [{"name": "Zed", "low": 1}, {"name": "Amy"}, {"name": "Moe", "hat": True}]})
    assert resp.status_code == 200
    assert [(p["name"], p["total"]) for p in resp.get_json()["players"]] == [("Zed", 10), ("Amy", 0), ("Moe", 50)]


def test_names_are_trimmed_and_escaped_by_json_not_html(client):
    resp = post(client, {"players": [{"name": "  <b>Al</b>  "}, {"name": "B"}, {"name": "C"}]})
    assert resp.get_json()["players"][0]["name"] == "<b>Al</b>"


def with_change(i, **counts):
    players = [dict(p) for p in EXAMPLE]
    players[i].update(counts)
    return {"players": players}


@pytest.mark.parametrize("body, field", [
    pytest.param({"players": EXAMPLE[:2]}, "players", id="two-players"),
    pytest.param({"players": EXAMPLE + [player(f"X{i}") for i in range(4)]}, "players", id="eight-players"),
    pytest.param({"players": []}, "players", id="nobody"),
    pytest.param({}, "players", id="no-players-key"),
    pytest.param({"players": "P1,P2,P3"}, "players", id="players-as-a-string"),
    pytest.param({"players": None}, "players", id="players-null"),
    pytest.param({"players": {"a": 1}}, "players", id="players-as-an-object"),
    pytest.param({"players": [1, 2, 3]}, "players.0", id="players-as-numbers"),
    pytest.param(with_change(0, low=-1), "players.0.low", id="negative-count"),
    pytest.param(with_change(1, cheats=1.5), "players.1.cheats", id="fraction"),
    pytest.param(with_change(1, cheats="2"), "players.1.cheats", id="count-as-a-string"),
    pytest.param(with_change(2, hearts=None), "players.2.hearts", id="null-count"),
    pytest.param(with_change(2, hearts=[1]), "players.2.hearts", id="list-count"),
    pytest.param(with_change(2, hearts={"deep": {"er": [1]}}), "players.2.hearts", id="nested-junk"),
    pytest.param(with_change(3, low=10**40), "players.3.low", id="huge-number"),
    pytest.param(with_change(3, low=True), "players.3.low", id="boolean-count"),
    pytest.param(with_change(3, hat="yes"), "players.3.hat", id="hat-not-a-boolean"),
    pytest.param(with_change(3, braveheart=1), "players.3.braveheart", id="braveheart-as-a-number"),
    pytest.param(with_change(0, hat=True), "players", id="two-hats"),
    pytest.param(with_change(0, braveheart=True), "players", id="two-bravehearts"),
    pytest.param(with_change(0, low=20, hearts=6, accepted_hearts=5), "players", id="too-many-hearts"),
    pytest.param({"players": [player("A", low=20), player("B", low=17), player("C")]}, "players",
                 id="more-low-cards-than-the-deck"),
    pytest.param({"players": [player("A", high=9), player("B", high=9), player("C")]}, "players",
                 id="more-high-cards-than-the-deck"),
    pytest.param(with_change(1, name="p1"), "players.1.name", id="duplicate-names"),
    pytest.param(with_change(1, name=""), "players.1.name", id="empty-name"),
    pytest.param(with_change(1, name=None), "players.1.name", id="null-name"),
    pytest.param(with_change(1, name="n" * 31), "players.1.name", id="name-too-long"),
    pytest.param(with_change(1, wrongfull_doubts=2), "players.1.wrongfull_doubts", id="misspelt-field"),
    pytest.param({"players": EXAMPLE, "round": 3}, "round", id="unknown-top-level-field"),
])
def test_bad_input_gets_422_naming_the_field(client, body, field):
    resp = post(client, body)
    assert resp.status_code == 422, resp.get_data(as_text=True)
    errors = resp.get_json()["errors"]
    assert field in errors and all(isinstance(m, str) and m for m in errors[field])


def test_too_many_hearts_says_what_the_deck_holds(client):
    errors = post(client, with_change(0, low=20, hearts=6, accepted_hearts=5)).get_json()["errors"]
    assert errors["players"] == ["19 hearts in all (face up and accepted), but the deck holds only 14 (13 hearts "
                                 "and the joker)."]


@pytest.mark.parametrize("raw, status", [
    pytest.param("[1, 2, 3]", 400, id="an-array"),
    pytest.param('"players"', 400, id="a-string"),
    pytest.param("null", 400, id="null"),
    pytest.param("{not json", 400, id="broken-json"),
    pytest.param('{"players": [' + "[" * 5000 + "]" * 5000 + "]}", 400, id="very-deep-nesting"),
    pytest.param('{"players": NaN}', 422, id="nan"),
    pytest.param('{"players": [{"name": "A", "low": 1e400}, {"name": "B"}, {"name": "C"}]}', 422, id="infinity"),
])
def test_odd_json_never_gives_a_500(client, raw, status):
    resp = client.post(URL, data=raw, content_type="application/json")
    assert resp.status_code == status
    assert "errors" in resp.get_json()


def test_the_body_must_be_json(client):
    resp = client.post(URL, data="players=3", content_type="application/x-www-form-urlencoded")
    assert resp.status_code == 415 and "errors" in resp.get_json()


def test_other_methods_are_refused_as_json(client):
    resp = client.get(URL)
    assert resp.status_code == 405 and "errors" in resp.get_json()


def test_errors_are_translated_for_a_french_client(client):
    resp = post(client, with_change(0, low=-1), headers={"Accept-Language": "fr"})
    assert resp.get_json()["errors"]["players.0.low"] == ["Au moins 0."]


def test_every_count_up_to_the_deck_limits_is_accepted(client):
    body = {"players": [player("A", low=36, high=17, cheats=20, wrongful_doubts=20, hearts=14),
                        player("B"), player("C")]}
    resp = post(client, body)
    assert resp.status_code == 200
    assert resp.get_json()["players"][0]["total"] == 360 + 340 + 400 + 280 + 50
    assert json.dumps(resp.get_json())
