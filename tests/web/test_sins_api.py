"""POST /api/v1/sins/score: the rulebook's examples, every bad input the issue lists, odd JSON."""
from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

URL = "/api/v1/sins/score"
MARGHERITA = {"name": "Margherita", "reserve": {"invidia": 2, "acedia": 4, "luxuria": 3, "ira": 1}, "stones": 2}
# The example's Abyss and reserve use five sin types: a table of at least three.
BO = {"name": "Bo", "reserve": {"gula": 3, "ira": 2}, "stones": 0}
CY = {"name": "Cy", "reserve": {"luxuria": 1, "invidia": 1}, "stones": 1}
ABYSS = {"invidia": 6, "gula": 2, "acedia": 1, "ira": 1}


def post(client, body, **kw):
    return client.post(URL, data=json.dumps(body), content_type="application/json", **kw)


def test_the_rulebook_example_answers_as_the_issue_shows(client):
    resp = post(client, {"players": [{**MARGHERITA, "stones_on": ["luxuria", "acedia"]}, BO, CY], "abyss": ABYSS})
    assert resp.status_code == 200, resp.get_json()
    body = resp.get_json()
    assert body["abyss_points"] == -1 and body["most_points_wins"] is False
    assert body["players"][0] == {
        "name": "Margherita", "points": 0, "stones_on": ["acedia", "luxuria"], "cards": 10, "types": 4,
        "by_type": {"invidia": 3, "acedia": -3, "luxuria": -1, "ira": 1}, "rank": 1,
    }
    assert body["players"][1]["name"] == "Bo" and body["players"][1]["points"] == 6 + 3
    assert body["players"][2]["points"] == 1 + 3 and body["players"][2]["stones_on"] == ["luxuria"]
    assert [p["rank"] for p in body["players"]] == [1, 3, 2]
    assert body["winners"] == ["Margherita"]


def test_without_stones_on_the_best_placement_is_used_for_either_direction(client):
    low = post(client, {"players": [MARGHERITA, BO, CY], "abyss": ABYSS}).get_json()
    assert low["players"][0]["stones_on"] == ["acedia", "luxuria"] and low["players"][0]["points"] == 0
    high = post(client, {"players": [MARGHERITA, BO, CY], "abyss": {"ira": 3, "gula": 1, "acedia": 1}}).get_json()
    assert high["abyss_points"] == 8 and high["most_points_wins"] is True
    assert high["players"][0]["stones_on"] == ["invidia", "ira"] and high["players"][0]["points"] == 14
    assert high["winners"] == ["Margherita"]


def test_an_override_changes_the_result(client):
    body = post(client, {"players": [{**MARGHERITA, "stones_on": ["invidia", "ira"]}, BO, CY], "abyss": ABYSS}).get_json()
    assert body["players"][0]["points"] == 14
    assert body["winners"] == ["Cy"]


def test_players_come_back_in_input_order_with_shared_ranks(client):
    players = [{"name": "Ana", "reserve": {"ira": 3}}, {"name": "Bo", "reserve": {"gula": 3}},
               {"name": "Cy", "reserve": {"acedia": 1}}]
    body = post(client, {"players": players, "abyss": {}}).get_json()
    assert [p["name"] for p in body["players"]] == ["Ana", "Bo", "Cy"]
    assert [p["rank"] for p in body["players"]] == [2, 2, 1]
    assert body["winners"] == ["Cy"]
    players[2]["reserve"] = {"superbia": 3}
    body = post(client, {"players": players, "abyss": {}}).get_json()
    assert body["winners"] == ["Ana", "Bo", "Cy"] and body["decided_by"] == "shared"


def many(n):
    return [{"name": f"P{i}", "reserve": {}} for i in range(n)]


BAD = [
    pytest.param({"players": many(1), "abyss": {}}, "players", id="one-player"),
    pytest.param({"players": many(6), "abyss": {}}, "players", id="six-players"),
    pytest.param({"players": [], "abyss": {}}, "players", id="no-players"),
    pytest.param({"players": [{"name": "A", "reserve": {"ira": 1, "gula": 1, "acedia": 1}},
                              {"name": "B", "reserve": {"invidia": 1, "luxuria": 1}}], "abyss": {}},
                 "sin_types", id="five-types-for-two-players"),
    pytest.param({"players": [{"name": "A", "reserve": {"ira": 6}}, {"name": "B", "reserve": {"ira": 4}}],
                  "abyss": {"ira": 2}}, "cards.ira", id="twelve-ira-cards"),
    pytest.param({"players": [{"name": "A", "reserve": {"ira": 12}}, BO], "abyss": {}}, "players.0.reserve.ira",
                 id="twelve-in-one-reserve"),
    pytest.param({"players": [{"name": "A", "reserve": {"ira": -1}}, BO], "abyss": {}}, "players.0.reserve.ira",
                 id="negative-count"),
    pytest.param({"players": [{"name": "A", "reserve": {"ira": 1.5}}, BO], "abyss": {}}, "players.0.reserve.ira",
                 id="fractional-count"),
    pytest.param({"players": [{"name": "A", "reserve": {"ira": "2"}}, BO], "abyss": {}}, "players.0.reserve.ira",
                 id="string-count"),
    pytest.param({"players": [{"name": "A", "reserve": {"ira": None}}, BO], "abyss": {}}, "players.0.reserve.ira",
                 id="null-count"),
    pytest.param({"players": [{"name": "A", "reserve": {"ira": True}}, BO], "abyss": {}}, "players.0.reserve.ira",
                 id="boolean-count"),
    pytest.param({"players": [{"name": "A", "reserve": {"ira": 10 ** 30}}, BO], "abyss": {}}, "players.0.reserve.ira",
                 id="huge-count"),
    pytest.param({"players": [MARGHERITA, BO, CY], "abyss": {"invidia": -2}}, "abyss.invidia", id="negative-abyss"),
    pytest.param({"players": [{"name": "A", "reserve": {"pride": 1}}, BO], "abyss": {}}, "players.0.reserve.pride",
                 id="unknown-sin-in-reserve"),
    pytest.param({"players": [MARGHERITA, BO, CY], "abyss": {"envy": 1}}, "abyss.envy", id="unknown-sin-in-abyss"),
    pytest.param({"players": [{**MARGHERITA, "stones": 3}, {**BO, "stones": 2}, {**CY, "stones": 2}], "abyss": ABYSS}, "stones",
                 id="more-stones-than-the-supply"),
    pytest.param({"players": [{**MARGHERITA, "stones": 7}, BO, CY], "abyss": ABYSS}, "players.0.stones",
                 id="one-player-over-the-supply"),
    pytest.param({"players": [{**MARGHERITA, "stones": -1}, BO, CY], "abyss": ABYSS}, "players.0.stones",
                 id="negative-stones"),
    pytest.param({"players": [{**MARGHERITA, "stones_on": ["ira", "ira"]}, BO, CY], "abyss": ABYSS}, "players.0.stones_on",
                 id="stones-on-a-type-twice"),
    pytest.param({"players": [{**MARGHERITA, "stones_on": ["gula", "ira"]}, BO, CY], "abyss": ABYSS}, "players.0.stones_on",
                 id="stone-on-a-type-not-held"),
    pytest.param({"players": [{**MARGHERITA, "stones": 1, "stones_on": ["ira", "acedia"]}, BO, CY], "abyss": ABYSS},
                 "players.0.stones_on", id="more-types-than-stones"),
    pytest.param({"players": [{**MARGHERITA, "stones_on": ["ira"]}, BO, CY], "abyss": ABYSS}, "players.0.stones_on",
                 id="fewer-stones-than-can-be-placed"),
    pytest.param({"players": [{**MARGHERITA, "stones_on": ["wrath", "ira"]}, BO, CY], "abyss": ABYSS}, "players.0.stones_on",
                 id="stones-on-unknown-type"),
    pytest.param({"players": [{**MARGHERITA, "stones_on": "ira"}, BO, CY], "abyss": ABYSS}, "players.0.stones_on",
                 id="stones-on-not-a-list"),
    pytest.param({"players": [MARGHERITA, {**BO, "name": "margherita "}], "abyss": ABYSS}, "players.1.name",
                 id="duplicate-names"),
    pytest.param({"players": [MARGHERITA, {**BO, "name": ""}], "abyss": ABYSS}, "players.1.name", id="empty-name"),
    pytest.param({"players": [MARGHERITA, {**BO, "name": "x" * 31}], "abyss": ABYSS}, "players.1.name", id="long-name"),
    pytest.param({"players": [MARGHERITA, {**BO, "name": 7}], "abyss": ABYSS}, "players.1.name", id="number-name"),
    pytest.param({"players": [MARGHERITA, {"name": "Bo"}], "abyss": ABYSS}, "players.1.reserve", id="no-reserve"),
    pytest.param({"players": [MARGHERITA, {**BO, "reserve": [1, 2]}], "abyss": ABYSS}, "players.1.reserve",
                 id="reserve-not-an-object"),
    pytest.param({"players": [MARGHERITA, "Bo"], "abyss": ABYSS}, "players.1", id="player-not-an-object"),
    pytest.param({"players": [MARGHERITA, {**BO, "colour": "red"}], "abyss": ABYSS}, "players.1.colour",
                 id="unknown-player-field"),
    pytest.param({"players": [MARGHERITA, BO, CY]}, "abyss", id="no-abyss"),
    pytest.param({"players": [MARGHERITA, BO, CY], "abyss": None}, "abyss", id="null-abyss"),
    pytest.param({"players": [MARGHERITA, BO, CY], "abyss": ABYSS, "abbys": {}}, "abbys", id="unknown-top-field"),
    pytest.param({"players": {"a": 1}, "abyss": ABYSS}, "players", id="players-not-a-list"),
    pytest.param({"players": None, "abyss": ABYSS}, "players", id="null-players"),
]


@pytest.mark.parametrize("body, field", BAD)
def test_every_bad_input_is_named_by_field(client, body, field):
    resp = post(client, body)
    assert resp.status_code == 422, resp.get_data(as_text=True)
    errors = resp.get_json()["errors"]
    assert field in errors, errors
    assert all(isinstance(m, str) and m for m in errors[field])


def test_all_problems_come_back_together(client):
    body = {"players": [{"name": "", "reserve": {"ira": -1}}, {**BO, "stones": "x"}], "abyss": {"foo": 1}}
    errors = post(client, body).get_json()["errors"]
    assert {"players.0.name", "players.0.reserve.ira", "players.1.stones", "abyss.foo"} <= set(errors)


def test_messages_follow_the_language_asked_for(client):
    resp = post(client, {"players": many(1), "abyss": {}}, headers={"Accept-Language": "fr"})
    assert "joueurs" in resp.get_json()["errors"]["players"][0]


@pytest.mark.parametrize("raw, content_type, status", [
    pytest.param("not json", "application/json", 400, id="not-json"),
    pytest.param("[1, 2]", "application/json", 400, id="a-list"),
    pytest.param('"text"', "application/json", 400, id="a-string"),
    pytest.param("null", "application/json", 400, id="null"),
    pytest.param('{"players": 1}', "text/plain", 415, id="wrong-content-type"),
])
def test_bodies_that_are_not_an_object_are_refused(client, raw, content_type, status):
    resp = client.post(URL, data=raw, content_type=content_type)
    assert resp.status_code == status
    assert "errors" in resp.get_json()


def test_other_methods_get_a_json_405(client):
    resp = client.get(URL)
    assert resp.status_code == 405 and "errors" in resp.get_json()


junk = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=20,
)
sin_keys = st.sampled_from(["superbia", "avaritia", "luxuria", "invidia", "ira", "acedia", "gula", "x"])
player = st.fixed_dictionaries(
    {"name": st.text(max_size=6) | junk, "reserve": st.dictionaries(sin_keys, st.integers(-2, 13) | junk, max_size=5) | junk},
    optional={"stones": st.integers(-1, 12) | junk, "stones_on": st.lists(sin_keys, max_size=4) | junk},
)
bodies = st.fixed_dictionaries(
    {"players": st.lists(player, max_size=6) | junk},
    optional={"abyss": st.dictionaries(sin_keys, st.integers(-1, 12) | junk, max_size=5) | junk, "extra": junk},
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=bodies)
def test_no_body_ever_gives_a_500(client, body):
    resp = post(client, body)
    assert resp.status_code in (200, 422), (body, resp.get_data(as_text=True)[:300])
    data = resp.get_json()
    if resp.status_code == 200:
        assert [p["rank"] for p in data["players"]].count(1) == len(data["winners"]) >= 1
    else:
        assert data["errors"] and all(isinstance(v, list) and v for v in data["errors"].values())
