"""City of Five Sails pages through the test client: full pages, htmx fragments, every action, bad input."""
from __future__ import annotations

import html
import json
import re

import pytest

from companion.games.fivesails import rules
from tests.conftest import HX
from tests.conftest import text_of as raw_text


def text_of(resp) -> str:
    return html.unescape(raw_text(resp))

NAMES = ("Ana", "Bo", "Cy")


@pytest.fixture
def table(tables):
    return tables.create("fivesails", names=NAMES)


def gs(tables, token):
    return tables.table(token).state["game"]


def started(tables, token):
    assert tables.post(token, "fivesails/start").status_code == 200
    return token


def at(tables, token):
    g = gs(tables, token)
    return g["day"] * 100 + g["step"]


def advance_to(tables, token, kind, day=None):
    """Press Next until the Day stepper shows a step of this kind (and day)."""
    for _ in range(200):
        g = gs(tables, token)
        if rules.DAY_STEPS[g["step"]].kind == kind and (day is None or g["day"] == day):
            return
        resp = tables.post(token, "fivesails/day/next", {"at": at(tables, token)}, page="day")
        assert resp.status_code == 200, text_of(resp)[:300]
    raise AssertionError(f"never reached {kind}")


# -- pages -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("slug", ["setup", "day", "duel", "players", "table"])
def test_every_page_renders_in_full_and_as_a_fragment(client, table, slug):
    full = client.get(f"/t/{table}/{slug}")
    assert full.status_code == 200 and "<html" in full.get_data(as_text=True)
    frag = client.get(f"/t/{table}/{slug}", headers=HX)
    html = frag.get_data(as_text=True)
    assert frag.status_code == 200 and "<html" not in html and 'id="live"' in html


def test_landing_page_follows_the_status(client, tables, table):
    assert "Setup for 3 players" in text_of(client.get(f"/t/{table}"))
    started(tables, table)
    assert "Beginning of the Day" in text_of(client.get(f"/t/{table}"))


def test_view_only_link_shows_no_forms(client, tables, table):
    view = tables.table(table).view_token
    html = client.get(f"/t/{view}/day").get_data(as_text=True)
    assert "<form" not in html.split('id="live"')[1].split("Recent changes")[0]
    assert tables.post(view, "fivesails/start").status_code == 403


# -- setup -----------------------------------------------------------------------------------------

def test_ticking_a_setup_step(tables, table):
    resp = tables.post(table, "fivesails/setup/tick", {"step": "oles-inn", "done": 1}, page="setup")
    assert resp.status_code == 200 and 'aria-pressed="true"' in resp.get_data(as_text=True)
    assert gs(tables, table)["setup_done"] == ["oles-inn"]
    tables.post(table, "fivesails/setup/tick", {"step": "oles-inn", "done": 0}, page="setup")
    assert gs(tables, table)["setup_done"] == []


def test_a_step_for_another_player_count_is_refused(tables, table):
    resp = tables.post(table, "fivesails/setup/tick", {"step": "gardens", "done": 1}, page="setup",
                       form_key="tick-oles-inn")
    assert resp.status_code == 422 and "not a setup step" in text_of(resp)


def test_flipping_the_city_line_changes_the_dealing_order(client, tables, table):
    tables.post(table, "fivesails/setup/line", {"what": "flip"}, page="setup")
    started(tables, table)
    advance_to(tables, table, rules.DEAL)
    text = text_of(client.get(f"/t/{table}/day"))
    order = [text.index(n) for n in ("Ole's Inn", "The Grand Bazaar", "The Forums", "The Docks")]
    assert order == sorted(order)


def test_start_only_once(tables, table):
    started(tables, table)
    resp = tables.post(table, "fivesails/start", page="setup", form_key="start")
    assert resp.status_code == 422 and "already started" in text_of(resp)


def test_adding_a_fourth_player_brings_governors_gardens(client, tables, table):
    tables.post(table, "players/add", {"name": "Di"}, page="table")
    assert "gardens" in gs(tables, table)["control"]
    assert "Add Governor's Gardens" in text_of(client.get(f"/t/{table}/setup"))


# -- the Day ---------------------------------------------------------------------------------------

def test_next_and_back(tables, table):
    started(tables, table)
    resp = tables.post(table, "fivesails/day/next", {"at": 100}, page="day")
    assert resp.status_code == 200 and "Beginning of Dawn" in text_of(resp)
    assert tables.post(table, "fivesails/day/back", {"at": 101}, page="day").status_code == 200
    assert gs(tables, table)["step"] == 0


def test_a_stale_next_never_skips_a_step(tables, table):
    started(tables, table)
    tables.post(table, "fivesails/day/next", {"at": 100}, page="day")
    resp = tables.post(table, "fivesails/day/next", {"at": 100}, page="day", form_key="next")
    assert resp.status_code == 422 and "moved on" in text_of(resp)
    assert gs(tables, table)["step"] == 1


def test_next_before_the_game_starts_is_refused(tables, table):
    resp = tables.post(table, "fivesails/day/next", {"at": 100}, page="day", form_key="next")
    assert resp.status_code == 422


def test_bad_step_form_is_422(tables, table):
    started(tables, table)
    assert tables.post(table, "fivesails/day/next", {"at": "soon"}, page="day").status_code == 422


def test_initiative_hands_out_the_first_player_token(tables, table):
    started(tables, table)
    advance_to(tables, table, rules.INITIATIVE)
    resp = tables.post(table, "fivesails/initiative", {"init-1": 12, "init-2": 67, "init-3": 30}, page="day")
    assert resp.status_code == 200
    text = text_of(resp)
    assert "Bo has the highest Initiative" in text
    assert re.search(r"Bo First Player Cy Ana", text)
    assert gs(tables, table)["first_player"] == "2"


def test_initiative_tie_passes_left_of_the_holder(tables, table):
    started(tables, table)
    advance_to(tables, table, rules.INITIATIVE)
    tables.post(table, "fivesails/initiative", {"init-1": 12, "init-2": 67, "init-3": 30}, page="day")
    resp = tables.post(table, "fivesails/initiative", {"init-1": 50, "init-2": 50, "init-3": 30}, page="day")
    assert "passes to the left, to Cy" in text_of(resp)


def test_initiative_tie_with_no_holder_is_picked_at_random(tables, table):
    started(tables, table)
    advance_to(tables, table, rules.INITIATIVE)
    resp = tables.post(table, "fivesails/initiative", {"init-1": 5, "init-2": 5, "init-3": 5}, page="day")
    assert "picked" in text_of(resp) and "at random" in text_of(resp)
    assert gs(tables, table)["first_reason"] == "tie-random"


def test_missing_initiative_keeps_what_was_typed(tables, table):
    started(tables, table)
    advance_to(tables, table, rules.INITIATIVE)
    resp = tables.post(table, "fivesails/initiative", {"init-1": 12, "init-2": "", "init-3": "abc"},
                       page="day", form_key="initiative")
    html = resp.get_data(as_text=True)
    assert resp.status_code == 422
    assert "Enter the Initiative on Bo&#39;s scheme." in html and "Enter the Initiative on Cy&#39;s scheme." in html
    assert 'value="12"' in html and 'value="abc"' in html
    assert gs(tables, table)["first_player"] is None


# -- trackers, Leaders, victories ---------------------------------------------------------------------

def test_renown_taps_add_up_and_never_go_below_zero(tables, table):
    for _ in range(2):
        assert tables.post(table, "fivesails/renown", {"player": 1, "delta": 1}, version=0).status_code == 200
    assert gs(tables, table)["players"]["1"]["renown"] == 2
    resp = tables.post(table, "fivesails/renown", {"player": 2, "delta": -1}, page="players", form_key="renown-2")
    assert resp.status_code == 422 and "below 0" in text_of(resp)
    assert tables.post(table, "fivesails/renown", {"player": 2, "delta": 5}).status_code == 422
    assert tables.post(table, "fivesails/renown", {"player": 9, "delta": 1}).status_code == 422


def test_wounds_and_influence_counters(tables, table):
    tables.post(table, "fivesails/wounds", {"player": 3, "delta": 1})
    tables.post(table, "fivesails/influence", {"player": 3, "delta": 1})
    p = gs(tables, table)["players"]["3"]
    assert (p["leader_wounds"], p["influence"]) == (1, 1)


def test_location_control_is_exclusive(tables, table):
    tables.post(table, "fivesails/control", {"location": "docks", "owner": "1"})
    tables.post(table, "fivesails/control", {"location": "docks", "owner": "2"})
    assert gs(tables, table)["control"]["docks"] == "2"
    tables.post(table, "fivesails/control", {"location": "docks", "owner": ""})
    assert gs(tables, table)["control"]["docks"] is None
    assert tables.post(table, "fivesails/control", {"location": "docks", "owner": "7"}).status_code == 422
    assert tables.post(table, "fivesails/control", {"location": "gardens", "owner": "1"}).status_code == 422
    assert tables.post(table, "fivesails/control", {"location": "moon", "owner": "1"}).status_code == 422


def test_destroying_a_leader_costs_half_the_renown_and_undo_brings_it_back(tables, table):
    for _ in range(5):
        tables.post(table, "fivesails/renown", {"player": 1, "delta": 1})
    resp = tables.post(table, "fivesails/leader", {"player": 1, "destroyed": 1}, page="players")
    assert resp.status_code == 200 and "Leader destroyed (3 Renown lost)" in text_of(resp)
    p = gs(tables, table)["players"]["1"]
    assert p["renown"] == 2 and p["leader_destroyed"]
    assert tables.undo(table).status_code == 200
    p = gs(tables, table)["players"]["1"]
    assert p["renown"] == 5 and not p["leader_destroyed"]


def test_last_leader_in_play_wins_by_assassination(tables, table):
    started(tables, table)
    tables.post(table, "fivesails/renown", {"player": 3, "delta": 1})
    tables.post(table, "fivesails/leader", {"player": 1, "destroyed": 1})
    resp = tables.post(table, "fivesails/leader", {"player": 2, "destroyed": 1}, page="players")
    t = tables.table(table)
    assert t.status == "finished"
    assert t.result["winners"] == ["Cy"] and t.result["victory"] == "assassination"
    assert {"name": "Cy", "points": 1} in t.result["scores"]
    assert "Assassination Victory: Cy wins" in text_of(resp)
    # The game is over: trackers refuse changes until Undo.
    assert tables.post(table, "fivesails/renown", {"player": 1, "delta": 1}).status_code == 422
    tables.undo(table)
    assert tables.table(table).status == "playing"


def test_economic_victory_at_plunder(client, tables, table):
    started(tables, table)
    advance_to(tables, table, rules.ECONOMIC)
    for _ in range(7):
        tables.post(table, "fivesails/renown", {"player": 2, "delta": 1})
    page = text_of(client.get(f"/t/{table}/day"))
    assert "Bo has 7 Renown: Economic Victory." in page and "Declare the Economic Victory" in page
    resp = tables.post(table, "fivesails/day/next", {"at": at(tables, table)}, page="day")
    t = tables.table(table)
    assert t.status == "finished" and t.result["winners"] == ["Bo"] and t.result["victory"] == "economic"
    assert "Economic Victory: Bo wins" in text_of(resp)


def test_economic_tie_means_another_day(client, tables, table):
    started(tables, table)
    advance_to(tables, table, rules.ECONOMIC)
    for pid in (1, 2):
        for _ in range(8):
            tables.post(table, "fivesails/renown", {"player": pid, "delta": 1})
    assert "are tied on 8 Renown" in text_of(client.get(f"/t/{table}/day"))
    tables.post(table, "fivesails/day/next", {"at": at(tables, table)}, page="day")
    assert tables.table(table).status == "playing"


def test_dominance_victory(tables, table):
    started(tables, table)
    advance_to(tables, table, rules.DOMINANCE)
    for loc in rules.CORE:
        tables.post(table, "fivesails/control", {"location": loc, "owner": "3"}, page="day")
    tables.post(table, "fivesails/day/next", {"at": at(tables, table)}, page="day")
    t = tables.table(table)
    assert t.result["winners"] == ["Cy"] and t.result["victory"] == "dominance"


def test_dusk_leaves_locations_uncontrolled_and_a_new_day_begins(tables, table):
    started(tables, table)
    tables.post(table, "fivesails/control", {"location": "forums", "owner": "1"})
    advance_to(tables, table, "plain", day=2)
    g = gs(tables, table)
    assert g["day"] == 2 and g["step"] == 0 and g["control"]["forums"] is None


# -- the duel inside a table ---------------------------------------------------------------------------

SETUP = {"challenger.name": "Kaspar", "challenger.duel_stat": 3, "challenger.resolve": 6, "challenger.wounds": 0,
         "challenger.finesse": 2, "challenger.player": "1", "challenger.leader": "1",
         "defender.name": "Soline", "defender.duel_stat": 2, "defender.resolve": 5, "defender.wounds": 0,
         "defender.finesse": 3, "defender.player": "2", "technique_thrust": 0, "answer": "accept"}


def start_duel(tables, token, **extra):
    return tables.post(token, "fivesails/duel/start", {**SETUP, **extra}, page="duel", form_key="duel-setup")


def test_a_duel_round_by_round_with_leader_wounds_applied(tables, table):
    started(tables, table)
    resp = start_duel(tables, table)
    assert resp.status_code == 200 and "3 threat goes into Soline" in text_of(resp)
    resp = tables.post(table, "fivesails/duel/round", {"riposte": 1, "parry": 1, "thrust": 2, "play": "card"},
                       page="duel")
    text = text_of(resp)
    assert "Riposte removes 1 from Soline's pool and sends 1 to Kaspar." in text
    assert "Soline takes 1 wounds." in text
    resp = tables.post(table, "fivesails/duel/round", {"play": "none"}, page="duel")
    text = text_of(resp)
    assert "Kaspar takes 2 wounds, capped at 2 by Restricted Hostilities; 1 excess threat is discarded." in text
    assert "The duel is over" in text
    resp = tables.post(table, "fivesails/duel/close", page="duel")
    g = gs(tables, table)
    assert g["duel"] is None and g["players"]["1"]["leader_wounds"] == 2
    assert g["players"]["2"]["leader_wounds"] == 0  # Soline was not marked as a Leader


def test_a_duel_that_destroys_a_leader_applies_the_renown_loss(tables, table):
    started(tables, table)
    for _ in range(3):
        tables.post(table, "fivesails/renown", {"player": 2, "delta": 1})
    start_duel(tables, table, **{"defender.leader": "1", "defender.resolve": 2, "answer": "refuse"})
    tables.post(table, "fivesails/duel/close", page="duel")
    p = gs(tables, table)["players"]["2"]
    assert p["leader_destroyed"] and p["renown"] == 1


def test_preview_changes_nothing(tables, table):
    started(tables, table)
    start_duel(tables, table)
    version = tables.version(table)
    resp = tables.post(table, "fivesails/duel/round", {"riposte": 5, "parry": 0, "thrust": 0, "play": "preview"},
                       page="duel", form_key="duel-round")
    text = text_of(resp)
    assert resp.status_code == 200 and "Preview: nothing is played yet" in text
    assert "Riposte 5 removes only 3" in text
    assert tables.version(table) == version and gs(tables, table)["duel"]["rounds"] == []
    assert 'value="5"' in resp.get_data(as_text=True)  # the card stays as typed


def test_no_card_in_the_first_round_is_refused_with_a_message(tables, table):
    started(tables, table)
    start_duel(tables, table)
    resp = tables.post(table, "fivesails/duel/round", {"play": "none"}, page="duel", form_key="duel-round")
    assert resp.status_code == 422 and "first round of the duel needs a combat card" in text_of(resp)


def test_gamble_limit_message_sits_by_the_checkbox(tables, table):
    started(tables, table)
    start_duel(tables, table, **{"defender.finesse": 0})
    resp = tables.post(table, "fivesails/duel/round", {"thrust": 1, "gambled": "1", "play": "card"}, page="duel",
                       form_key="duel-round")
    html = resp.get_data(as_text=True)
    assert resp.status_code == 422 and 'id="duel-round-gambled-err"' in html and "no gamble left" in html


def test_take_back_the_last_round(tables, table):
    started(tables, table)
    start_duel(tables, table)
    tables.post(table, "fivesails/duel/round", {"thrust": 2, "play": "card"}, page="duel")
    assert tables.post(table, "fivesails/duel/takeback", page="duel").status_code == 200
    assert gs(tables, table)["duel"]["rounds"] == []
    assert tables.post(table, "fivesails/duel/takeback", page="duel").status_code == 422


def test_bad_duel_setup_shows_messages_next_to_fields_and_keeps_the_entry(tables, table):
    started(tables, table)
    resp = start_duel(tables, table, **{"challenger.resolve": 0, "defender.duel_stat": "-3", "defender.name": "",
                                         "challenger.name": "Kaspar the Magnificent"})
    html = resp.get_data(as_text=True)
    assert resp.status_code == 422
    assert 'id="duel-setup-challenger.resolve-err"' in html and 'id="duel-setup-defender.duel_stat-err"' in html
    assert 'id="duel-setup-defender.name-err"' in html
    assert 'value="Kaspar the Magnificent"' in html
    assert gs(tables, table)["duel"] is None


def test_intervening_character_takes_the_challenge(tables, table):
    started(tables, table)
    resp = start_duel(tables, table, answer="intervene", **{"intervener.name": "Maya", "intervener.duel_stat": 3,
                                                          "intervener.resolve": 5, "intervener.wounds": 0,
                                                          "intervener.finesse": 2})
    assert "Maya intervenes" in text_of(resp)
    assert gs(tables, table)["duel"]["setup"]["defender"]["name"] == "Maya"
    resp = start_duel(tables, table, answer="intervene")
    assert resp.status_code == 422


def test_leader_without_a_player_is_refused(tables, table):
    started(tables, table)
    resp = start_duel(tables, table, **{"challenger.player": ""})
    assert resp.status_code == 422 and "Whose Leader" in text_of(resp)


def test_one_duel_at_a_time_and_abandoning(tables, table):
    started(tables, table)
    start_duel(tables, table)
    assert start_duel(tables, table).status_code == 422
    tables.post(table, "fivesails/duel/close", page="duel")
    assert gs(tables, table)["duel"] is None


# -- the standalone calculator -----------------------------------------------------------------------

CALC = {k: v for k, v in SETUP.items() if not k.endswith((".player", ".leader"))}


def calc(client, data, htmx=False):
    headers = {"HX-Request": "true", "HX-Target": "duel-calc"} if htmx else {}
    return client.post("/fivesails/duel", data=data, headers=headers)


def state_of(resp):
    m = re.search(r'name="duel" value="([^"]*)"', resp.get_data(as_text=True))
    return m.group(1).replace("&#34;", '"').replace("&quot;", '"') if m else ""


def test_calculator_walks_a_duel_without_javascript(client):
    assert client.get("/fivesails/duel").status_code == 200
    resp = calc(client, {**CALC, "action": "start", "form_key": "calc-setup"})
    assert resp.status_code == 200 and "<html" in resp.get_data(as_text=True)
    state = state_of(resp)
    assert json.loads(state)["setup"]["challenger"]["name"] == "Kaspar"
    resp = calc(client, {"duel": state, "action": "play", "play": "preview", "riposte": 1, "parry": 1, "thrust": 2})
    assert "Preview: nothing is played yet" in text_of(resp) and json.loads(state_of(resp))["rounds"] == []
    resp = calc(client, {"duel": state, "action": "play", "play": "card", "riposte": 1, "parry": 1, "thrust": 2})
    state = state_of(resp)
    assert len(json.loads(state)["rounds"]) == 1
    resp = calc(client, {"duel": state, "action": "play", "play": "none"})
    text = text_of(resp)
    assert "The duel is over" in text and "Wounds 2 / 6" in text and "Wounds 1 / 5" in text
    resp = calc(client, {"duel": state_of(resp), "action": "takeback"})
    assert len(json.loads(state_of(resp))["rounds"]) == 1


def test_calculator_htmx_answers_with_its_own_fragment(client):
    resp = calc(client, {**CALC, "action": "start"}, htmx=True)
    html = resp.get_data(as_text=True)
    assert resp.status_code == 200 and "<html" not in html and html.lstrip().startswith('<div id="duel-calc">')


@pytest.mark.parametrize("data, expected", [
    pytest.param({**CALC, "action": "start", "challenger.resolve": "0"}, "Must be at least 1.", id="bad-setup"),
    pytest.param({"duel": "{broken", "action": "play", "play": "card"}, "could not be read", id="tampered-state"),
    pytest.param({"duel": json.dumps({"setup": {"challenger": 1}}), "action": "play"}, "could not be read",
                 id="junk-state"),
])
def test_calculator_bad_input_is_422_with_a_message(client, data, expected):
    resp = calc(client, data)
    assert resp.status_code == 422 and expected in text_of(resp)


def test_calculator_refuses_an_illegal_round_and_keeps_the_duel(client):
    state = state_of(calc(client, {**CALC, "action": "start"}))
    resp = calc(client, {"duel": state, "action": "play", "play": "none", "form_key": "calc-round"})
    assert resp.status_code == 422 and "needs a combat card" in text_of(resp)
    assert state_of(resp) == state


# -- deck check --------------------------------------------------------------------------------------

def test_deck_check(client):
    assert client.get("/fivesails/deck").status_code == 200
    resp = client.post("/fivesails/deck", data={"deck": "Leader: Kaspar\nCharacters:\nOtto\nFaction:\nTaunt x3"})
    text = text_of(resp)
    assert resp.status_code == 200 and "Approach deck has 1 characters" in text and "3 copies of Taunt" in text
    resp = client.post("/fivesails/deck", data={"deck": "   "})
    assert resp.status_code == 422 and "Paste or type a deck list." in text_of(resp)
    resp = client.post("/fivesails/deck", data={"deck": "x" * 7000})
    assert resp.status_code == 422 and 'x' * 50 in resp.get_data(as_text=True)
