"""POST /api/v1/fivesails/duel: the duel arithmetic as JSON, and clear errors for bad bodies."""
from __future__ import annotations

import pytest

URL = "/api/v1/fivesails/duel"
KASPAR = {"name": "Kaspar", "duel_stat": 3, "resolve": 6, "wounds": 0, "finesse": 2}
SOLINE = {"name": "Soline", "duel_stat": 2, "resolve": 5, "wounds": 0, "finesse": 3}


def body(**extra):
    return {"challenger": KASPAR, "defender": SOLINE, "technique_thrust": 0, "refused": False, "rounds": [], **extra}


def test_the_issues_example(client):
    resp = client.post(URL, json=body(rounds=[
        {"card": {"riposte": 1, "parry": 1, "thrust": 2}, "lethal": False, "gambled": False}, {"card": None}]))
    assert resp.status_code == 200
    data = resp.get_json()
    first, second = data["rounds"]
    assert (first["actor"], first["wounds_taken"], first["discarded"], first["pools_after"]) == (
        "defender", 1, 0, {"challenger": 3, "defender": 0})
    assert (second["actor"], second["wounds_taken"], second["discarded"]) == ("challenger", 2, 1)
    assert data["challenger"]["wounds"] == 2 and not data["challenger"]["destroyed"]
    assert data["defender"]["wounds"] == 1 and not data["defender"]["destroyed"]
    assert data["ended"] is True and data["next"] is None


def test_next_names_who_acts_while_the_duel_goes_on(client):
    data = client.post(URL, json=body()).get_json()
    assert data["ended"] is False and data["next"] == "defender" and data["pools"]["defender"] == 3
    data = client.post(URL, json=body(rounds=[{"card": {"thrust": 2}}])).get_json()
    assert data["next"] == "challenger"


def test_a_refusal(client):
    data = client.post(URL, json=body(refused=True, technique_thrust=2)).get_json()
    assert data["refusal"] == {"threat": 5, "cap": 3, "wounds_taken": 3, "discarded": 2, "destroyed": False}
    assert data["defender"]["wounds"] == 3 and data["ended"]


@pytest.mark.parametrize("payload, field", [
    pytest.param(body(rounds=[{"card": None}]), "rounds.0.card", id="no-card-in-the-first-round"),
    pytest.param(body(rounds=[{"card": {"parry": 3}}, {"card": {"thrust": 1}}]), "rounds.1", id="round-after-the-end"),
    pytest.param(body(defender={**SOLINE, "finesse": 0}, rounds=[{"card": {"thrust": 1}, "gambled": True}]),
                 "rounds.0.gambled", id="more-gambles-than-finesse"),
    pytest.param(body(rounds=[{"card": {"riposte": -1}}]), "rounds.0.card.riposte", id="negative-value"),
    pytest.param(body(challenger={**KASPAR, "resolve": 0}), "challenger.resolve", id="resolve-below-1"),
    pytest.param(body(refused=True, rounds=[{"card": {"thrust": 1}}]), "rounds", id="refused-with-rounds"),
    pytest.param(body(challenger="Kaspar"), "challenger", id="string-participant"),
    pytest.param(body(challenger=None), "challenger", id="null-participant"),
    pytest.param(body(defender={**SOLINE, "duel_stat": 2.5}), "defender.duel_stat", id="float"),
    pytest.param(body(defender={**SOLINE, "duel_stat": 10 ** 40}), "defender.duel_stat", id="huge-number"),
    pytest.param(body(defender={**SOLINE, "resolve": {"a": [1]}}), "defender.resolve", id="nested-junk"),
    pytest.param(body(rounds={"card": None}), "rounds", id="rounds-not-a-list"),
    pytest.param(body(rounds=[[1, 2]]), "rounds.0", id="round-not-an-object"),
    pytest.param(body(technique_thrust="lots"), "technique_thrust", id="bad-technique-thrust"),
    pytest.param(body(refused="yes please"), "refused", id="bad-flag"),
    pytest.param(body(challenger={**KASPAR, "name": "K" * 31}), "challenger.name", id="long-name"),
])
def test_bad_input_is_422_with_the_field_named(client, payload, field):
    resp = client.post(URL, json=payload)
    assert resp.status_code == 422
    errors = resp.get_json()["errors"]
    assert field in errors and all(isinstance(m, str) and m for m in errors[field])


def test_setup_and_round_errors_come_together(client):
    resp = client.post(URL, json=body(challenger={**KASPAR, "resolve": 0}, rounds="x"))
    assert set(resp.get_json()["errors"]) == {"challenger.resolve", "rounds"}


@pytest.mark.parametrize("data, headers, status", [
    pytest.param("[1, 2]", {"Content-Type": "application/json"}, 400, id="array-body"),
    pytest.param("\"duel\"", {"Content-Type": "application/json"}, 400, id="string-body"),
    pytest.param("{not json", {"Content-Type": "application/json"}, 400, id="broken-json"),
    pytest.param("duel", {"Content-Type": "text/plain"}, 415, id="not-json"),
])
def test_unreadable_bodies_are_4xx_json(client, data, headers, status):
    resp = client.post(URL, data=data, headers=headers)
    assert resp.status_code == status and "errors" in resp.get_json()


def test_get_is_405_json(client):
    resp = client.get(URL)
    assert resp.status_code == 405 and "errors" in resp.get_json()


def test_refused_together_with_intervened_for_is_422_naming_both(client):
    resp = client.post(URL, json=body(refused=True, intervened_for="Maya"))
    assert resp.status_code == 422
    errors = resp.get_json()["errors"]
    assert set(errors) == {"refused", "intervened_for"} and "not both" in errors["refused"][0]


def test_a_challenger_with_a_dash_in_the_duel_stat_is_422(client):
    resp = client.post(URL, json=body(challenger={**KASPAR, "duel_stat": "-"}))
    assert resp.status_code == 422 and list(resp.get_json()["errors"]) == ["challenger.duel_stat"]
    # The challenged side may have a dash: it counts as 0, so it wounds nobody.
    data = client.post(URL, json=body(defender={**SOLINE, "duel_stat": "-"},
                                      rounds=[{"card": {"parry": 3, "thrust": 4}}, {"card": None}])).get_json()
    assert data["rounds"][-1]["cap"] == 0 and data["challenger"]["wounds"] == 0


# The rulebook's worked examples, as the API replays them (the same numbers go through the unit tests
# of duel.py and the calculator's page tests).
RH_EXAMPLE = {"challenger": {**KASPAR, "duel_stat": 2, "resolve": 8}, "defender": {**SOLINE, "duel_stat": 1},
              "rounds": [{"card": {"parry": 2, "thrust": 4}}, {"card": None}]}
KASPAR_SOLINE = {"challenger": {**KASPAR, "resolve": 7}, "defender": SOLINE,
                 "rounds": [{"card": {"parry": 1, "thrust": 2}}, {"card": {"riposte": 1, "thrust": 2}}]}


@pytest.mark.parametrize("payload, last, pools, wounds, ended", [
    pytest.param(RH_EXAMPLE, {"actor": "challenger", "wounds_taken": 1, "discarded": 3, "cap": 1},
                 {"challenger": 0, "defender": 0}, {"challenger": 1, "defender": 0}, True,
                 id="p27-restricted-hostilities"),
    pytest.param({**KASPAR_SOLINE, "rounds": KASPAR_SOLINE["rounds"] + [
        {"card": {"riposte": 2, "thrust": 1}, "adversary_absent": True}]},
                 {"actor": "defender", "sent_discarded": 3, "adversary_absent": True, "wounds_taken": 1},
                 {"challenger": 0, "defender": 0}, {"challenger": 1, "defender": 3}, True,
                 id="p27-kaspar-at-the-docks-soline-stays"),
    pytest.param({**KASPAR_SOLINE, "rounds": KASPAR_SOLINE["rounds"] + [{"card": {"riposte": 2, "thrust": 1}}]},
                 {"actor": "defender", "sent_discarded": 0, "adversary_absent": False, "wounds_taken": 1},
                 {"challenger": 3, "defender": 0}, {"challenger": 1, "defender": 3}, False,
                 id="p27-soline-moves-to-the-docks-first"),
])
def test_rulebook_examples(client, payload, last, pools, wounds, ended):
    resp = client.post(URL, json=payload)
    assert resp.status_code == 200, resp.get_json()
    data = resp.get_json()
    got = data["rounds"][-1]
    assert {k: got[k] for k in last} == last
    assert data["pools"] == pools
    assert {s: data[s]["wounds"] for s in ("challenger", "defender")} == wounds
    assert data["ended"] is ended


def test_adversary_absent_must_be_a_flag(client):
    resp = client.post(URL, json=body(rounds=[{"card": {"thrust": 1}, "adversary_absent": "maybe"}]))
    assert resp.status_code == 422 and "rounds.0.adversary_absent" in resp.get_json()["errors"]
