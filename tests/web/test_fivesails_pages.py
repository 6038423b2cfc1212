"""City of Five Sails pages through the test client: full pages, htmx fragments, every action, bad input."""
from __future__ import annotations

import html
import json
import re

import pytest

from companion.games.fivesails import rules
from companion.games.fivesails import views as vs
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
    return rules.day_position(gs(tables, token))


def hand_out(tables, token, values, **kw):
    return tables.post(token, "fivesails/initiative", {f"init-{i + 1}": v for i, v in enumerate(values)},
                       page="day", **kw)


def advance_to(tables, token, phase, day=None):
    """Finish phases (handing out Initiative at Planning) until the Day is in this phase (and day)."""
    for _ in range(40):
        g = gs(tables, token)
        if rules.current_phase(g) == phase and (day is None or g["day"] == day):
            return
        if rules.current_phase(g) == rules.PLANNING and not g.get("first_reason"):
            assert hand_out(tables, token, [10, 20, 30][:len(g["players"])]).status_code == 200
        resp = tables.post(token, "fivesails/day/next", {"at": at(tables, token)}, page="day")
        assert resp.status_code == 200, text_of(resp)[:300]
    raise AssertionError(f"never reached {phase}")


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
    page = text_of(client.get(f"/t/{table}"))
    assert "Day 1 of 5" in page and "Dawn done: go to Planning" in page


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
    advance_to(tables, table, rules.DAWN)
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

def test_one_tap_per_phase_and_jump_back_and_forth(client, tables, table):
    started(tables, table)
    resp = tables.post(table, "fivesails/day/next", {"at": 10}, page="day")
    assert resp.status_code == 200 and "Hand out the First Player token" in text_of(resp)
    assert "Planning done" not in text_of(resp)  # Initiative stops the flow
    resp = tables.post(table, "fivesails/day/jump", {"at": 11, "phase": "plunder"}, page="day")
    assert resp.status_code == 200 and rules.current_phase(gs(tables, table)) == rules.PLUNDER
    assert "Jumped to Day 1: Plunder" in text_of(resp)
    tables.undo(table)
    assert rules.current_phase(gs(tables, table)) == rules.PLANNING


def test_the_dusk_chip_refuses_to_move_past_a_victory_showing_at_plunder(client, tables, table):
    """Rulebook p. 15 Plunder 2c: Ana has 8 Renown at Plunder, an Economic Victory. Tapping "Dusk" on
    the phase bar is refused with the victory named; the Day stays at Plunder, and its button declares
    the victory."""
    started(tables, table)
    for _ in range(8):
        tables.post(table, "fivesails/renown", {"player": 1, "delta": 1})
    tables.post(table, "fivesails/day/jump", {"at": at(tables, table), "phase": "plunder"}, page="day")
    resp = tables.post(table, "fivesails/day/jump", {"at": at(tables, table), "phase": "dusk"}, page="day",
                       form_key="jump-dusk")
    assert resp.status_code == 422
    assert "An Economic Victory is showing at Plunder" in text_of(resp)
    assert rules.current_phase(gs(tables, table)) == rules.PLUNDER
    resp = tables.post(table, "fivesails/day/next", {"at": at(tables, table)}, page="day", form_key="next")
    assert tables.table(table).status == "finished" and tables.table(table).result["winners"] == ["Ana"]


def test_each_phase_page_renders_with_its_checklist(client, tables, table):
    started(tables, table)
    for phase in rules.PHASES:
        if rules.current_phase(gs(tables, table)) != phase:
            tables.post(table, "fivesails/day/jump", {"at": at(tables, table), "phase": phase}, page="day")
        html = client.get(f"/t/{table}/day").get_data(as_text=True)
        steps = len(rules.phase_steps(phase))
        assert f"The {steps} steps of" in html and 'aria-current="step"' in html


def test_a_stale_next_never_skips_a_phase(tables, table):
    started(tables, table)
    tables.post(table, "fivesails/day/next", {"at": 10}, page="day")
    resp = tables.post(table, "fivesails/day/next", {"at": 10}, page="day", form_key="next")
    assert resp.status_code == 422 and "moved on" in text_of(resp)
    assert gs(tables, table)["phase"] == rules.PLANNING


def test_next_before_the_game_starts_is_refused(tables, table):
    resp = tables.post(table, "fivesails/day/next", {"at": 10}, page="day", form_key="next")
    assert resp.status_code == 422


@pytest.mark.parametrize("path, data", [
    pytest.param("fivesails/day/next", {"at": "soon"}, id="next-bad-at"),
    pytest.param("fivesails/day/jump", {"at": 10, "phase": "teatime"}, id="jump-bad-phase"),
    pytest.param("fivesails/day/jump", {"at": 10, "phase": "dawn"}, id="jump-to-where-it-is"),
    pytest.param("fivesails/day/jump", {"at": 14, "phase": "dusk"}, id="jump-stale"),
])
def test_bad_step_forms_are_422(tables, table, path, data):
    started(tables, table)
    assert tables.post(table, path, data, page="day", form_key="next").status_code == 422
    assert gs(tables, table)["phase"] == rules.DAWN


def test_initiative_hands_out_the_first_player_token(tables, table):
    started(tables, table)
    advance_to(tables, table, rules.PLANNING)
    resp = hand_out(tables, table, [12, 67, 30])
    assert resp.status_code == 200
    text = text_of(resp)
    assert "Bo has the highest Initiative" in text
    assert re.search(r"Bo First Player Cy Ana", text)
    assert "Planning done: go to High Drama" in text
    assert gs(tables, table)["first_player"] == "2"


def test_handing_out_again_never_moves_the_token(tables, table):
    """The issue's Day 1: Ana 40, Bo 55, Cy 55, "Hand out" three times; then a typo fixed."""
    started(tables, table)
    advance_to(tables, table, rules.PLANNING)
    firsts = {hand_out(tables, table, [40, 55, 55]) and gs(tables, table)["first_player"] for _ in range(3)}
    assert len(firsts) == 1 and firsts <= {"2", "3"}
    # Day 2: Bo or Cy holds the token; a typo and its correction decide from that same holder.
    advance_to(tables, table, rules.PLANNING, day=2)
    holder = gs(tables, table)["first_player"]
    hand_out(tables, table, [3, 55, 55])
    after_typo = gs(tables, table)["first_player"]
    resp = hand_out(tables, table, [40, 55, 55])
    g = gs(tables, table)
    assert g["planning_holder"] == holder and g["first_player"] == after_typo
    assert g["first_player"] == {"2": "3", "3": "2"}[holder]  # left of the holder, the other tied player
    assert "passes to the left of" in text_of(resp)


def test_initiative_tie_with_no_holder_is_picked_at_random(tables, table):
    started(tables, table)
    advance_to(tables, table, rules.PLANNING)
    resp = hand_out(tables, table, [5, 5, 5])
    assert "picked" in text_of(resp) and "at random" in text_of(resp)
    assert gs(tables, table)["first_reason"] == "tie-random"


def test_missing_initiative_keeps_what_was_typed(tables, table):
    started(tables, table)
    advance_to(tables, table, rules.PLANNING)
    resp = hand_out(tables, table, [12, "", "abc"], form_key="initiative")
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
    assert resp.status_code == 200 and "Ana's Leader destroyed (3 Renown lost)" in text_of(resp)
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
    advance_to(tables, table, rules.PLUNDER)
    for _ in range(7):
        tables.post(table, "fivesails/renown", {"player": 2, "delta": 1})
    page = text_of(client.get(f"/t/{table}/day"))
    assert "Bo has 7 Renown: Economic Victory." in page and "Declare the Economic Victory" in page
    resp = tables.post(table, "fivesails/day/next", {"at": at(tables, table)}, page="day")
    t = tables.table(table)
    assert t.status == "finished" and t.result["winners"] == ["Bo"] and t.result["victory"] == "economic"
    assert "Economic Victory: Bo wins" in text_of(resp)


def test_economic_tie_means_another_day_before_the_fifth(client, tables, table):
    started(tables, table)
    advance_to(tables, table, rules.PLUNDER)
    for pid in (1, 2):
        for _ in range(8):
            tables.post(table, "fivesails/renown", {"player": pid, "delta": 1})
    assert "are tied on 8 Renown: nobody wins yet, play another Day" in text_of(client.get(f"/t/{table}/day"))
    tables.post(table, "fivesails/day/next", {"at": at(tables, table)}, page="day")
    assert tables.table(table).status == "playing"


def test_day_five_tie_on_8_renown_is_settled_by_the_tie_breaks(client, tables, table):
    started(tables, table)
    advance_to(tables, table, rules.PLUNDER, day=5)
    for pid in (1, 2):
        for _ in range(8):
            tables.post(table, "fivesails/renown", {"player": pid, "delta": 1})
    tables.post(table, "fivesails/wounds", {"player": 1, "delta": 1})
    html = client.get(f"/t/{table}/day").get_data(as_text=True)
    page = text_of(client.get(f"/t/{table}/day"))
    assert "nobody wins yet, play another Day" not in page
    assert "this is the fifth Day, so the tie-breaks below settle it" in page
    assert "Bo wins on the Leader with the fewest wounds." in page
    assert re.search(r'<th scope="col" class="decided">Leader wounds<span class="vh"> \(decides the result\)', html)
    tables.post(table, "fivesails/day/next", {"at": at(tables, table)}, page="day")
    t = tables.table(table)
    assert t.result["winners"] == ["Bo"] and t.result["decided_by"] == "wounds"


def test_dominance_victory(tables, table):
    started(tables, table)
    advance_to(tables, table, rules.PLUNDER)
    for loc in rules.CORE:
        tables.post(table, "fivesails/control", {"location": loc, "owner": "3"}, page="day")
    tables.post(table, "fivesails/day/next", {"at": at(tables, table)}, page="day")
    t = tables.table(table)
    assert t.result["winners"] == ["Cy"] and t.result["victory"] == "dominance"


def test_dusk_leaves_locations_uncontrolled_and_a_new_day_begins(tables, table):
    started(tables, table)
    tables.post(table, "fivesails/control", {"location": "forums", "owner": "1"})
    advance_to(tables, table, rules.DAWN, day=2)
    g = gs(tables, table)
    assert g["day"] == 2 and g["phase"] == rules.DAWN and g["control"]["forums"] is None


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
    assert "Soline takes 1 wound." in text
    resp = tables.post(table, "fivesails/duel/round", {"play": "none"}, page="duel")
    text = text_of(resp)
    assert "Kaspar takes 2 wounds, capped at 2 by Restricted Hostilities; 1 excess threat is discarded." in text
    assert "The duel is over" in text
    resp = tables.post(table, "fivesails/duel/close", page="duel")
    g = gs(tables, table)
    assert g["duel"] is None and g["players"]["1"]["leader_wounds"] == 2
    assert g["players"]["2"]["leader_wounds"] == 0  # Soline was not marked as a Leader


def duel_out(tables, token, setup, rounds):
    """Start a duel, play its rounds, and close it. A round whose Leader's fall decides the game closes
    the duel itself (issue 36): the rounds after it are not played, and its answer is returned."""
    assert start_duel(tables, token, **setup).status_code == 200
    for rnd in rounds:
        resp = tables.post(token, "fivesails/duel/round", rnd, page="duel", form_key="duel-round")
        assert resp.status_code == 200, text_of(resp)[:400]
        if gs(tables, token)["duel"] is None:
            return resp
    return tables.post(token, "fivesails/duel/close", page="duel")


SOLINE_IS_BOS_LEADER = {"challenger.leader": "", "defender.leader": "1", "defender.player": "2"}


def test_wounds_add_up_over_two_duels_from_the_tracker(client, tables, table):
    """Duel 1: Soline (Bo's Leader) takes 1 wound. Duel 2: she starts from the tracker's 1 (whatever
    "Wounds already" says) and takes 2 more: the tracker shows 3."""
    started(tables, table)
    duel_out(tables, table, SOLINE_IS_BOS_LEADER, [{"riposte": 1, "parry": 1, "thrust": 2, "play": "card"},
                                                   {"play": "none"}])
    assert gs(tables, table)["players"]["2"]["leader_wounds"] == 1
    assert "Bo 1/5" in text_of(client.get(f"/t/{table}/duel"))  # the set-up form says what the tracker holds
    resp = start_duel(tables, table, **SOLINE_IS_BOS_LEADER, **{"defender.wounds": 0})
    assert gs(tables, table)["duel"]["setup"]["defender"]["wounds"] == 1
    assert "Wounds 1 / 5" in text_of(resp)
    tables.post(table, "fivesails/duel/round", {"riposte": 0, "parry": 1, "thrust": 0, "play": "card"}, page="duel")
    resp = tables.post(table, "fivesails/duel/close", page="duel")
    assert gs(tables, table)["players"]["2"]["leader_wounds"] == 3
    assert "Soline 3/5" in text_of(resp)


def test_a_wounded_leader_refusing_is_destroyed(tables, table):
    """A Leader with 3 wounds refuses a Combat-2 challenge with Resolve 5: 3 + 2 = 5, destroyed."""
    started(tables, table)
    for _ in range(3):
        tables.post(table, "fivesails/wounds", {"player": 2, "delta": 1})
    for _ in range(4):
        tables.post(table, "fivesails/renown", {"player": 2, "delta": 1})
    resp = start_duel(tables, table, answer="refuse", **SOLINE_IS_BOS_LEADER, **{"challenger.duel_stat": 2})
    assert "Soline is destroyed" in text_of(resp)
    resp = tables.post(table, "fivesails/duel/close", page="duel")
    p = gs(tables, table)["players"]["2"]
    assert p["leader_destroyed"] and p["leader_wounds"] == 5 and p["renown"] == 2
    assert "Bo's Leader destroyed (2 Renown lost)" in text_of(resp)


BOTH_LEADERS = {"challenger.duel_stat": 3, "challenger.resolve": 2, "challenger.player": "1", "challenger.leader": "1",
                "defender.name": "Bo's Leader", "defender.duel_stat": 3, "defender.resolve": 2,
                "defender.player": "2", "defender.leader": "1", "challenger.name": "Ana's Leader"}
# Both Leaders at Combat 3 and Resolve 2. Only the acting side takes wounds in a round (p. 25), so
# they fall one after the other. Defender first: round 1 Bo's Leader sends 1 back by Riposte and 1 by
# Thrust and takes the 2 left (destroyed); round 2 Ana's Leader takes the 2 she was sent. Challenger
# first: round 1 Bo's Leader parries 2, sends 2; round 2 Ana's Leader thrusts 2 and takes her 2
# (destroyed); round 3 Bo's Leader takes the 2.
DEFENDER_FIRST = [{"riposte": 1, "parry": 0, "thrust": 1, "play": "card"}, {"play": "none"}]
CHALLENGER_FIRST = [{"riposte": 1, "parry": 2, "thrust": 1, "play": "card"},
                    {"riposte": 0, "parry": 0, "thrust": 2, "play": "card"}, {"play": "none"}]


@pytest.mark.parametrize("names, rounds, winner, fell", [
    pytest.param(("Ana", "Bo"), DEFENDER_FIRST, "Ana", "2", id="2-players-bo-falls-first"),
    pytest.param(("Ana", "Bo"), CHALLENGER_FIRST, "Bo", "1", id="2-players-ana-falls-first"),
    pytest.param(("Ana", "Bo", "Cy"), DEFENDER_FIRST, "Ana", "2", id="3-players-cy-gone-bo-falls-first"),
    pytest.param(("Ana", "Bo", "Cy"), CHALLENGER_FIRST, "Bo", "1", id="3-players-cy-gone-ana-falls-first"),
])
def test_two_leaders_falling_in_one_duel_the_one_left_wins_at_once(tables, names, rounds, winner, fell):
    """Rulebook p. 17 "Leader Cards" (and p. 2): the only player with a Leader in play wins the
    game. The first fall of the duel leaves one Leader in play, so its player wins there and then."""
    token = tables.create("fivesails", names=names)
    started(tables, token)
    if len(names) == 3:
        assert tables.post(token, "fivesails/leader", {"player": 3, "destroyed": 1}).status_code == 200
    for pid in (1, 2):
        for _ in range(3):
            tables.post(token, "fivesails/renown", {"player": pid, "delta": 1})
    text = text_of(duel_out(tables, token, BOTH_LEADERS, rounds))
    t, g = tables.table(token), gs(tables, token)
    assert t.status == "finished" and t.result["winners"] == [winner] and t.result["victory"] == "assassination"
    assert f"Assassination Victory for {winner}" in text and "nobody wins" not in text
    assert g["players"][fell]["leader_destroyed"]
    assert not g["players"]["1" if fell == "2" else "2"]["leader_destroyed"]


# Rulebook p. 2 "Assassination Victory": a player whose Leader is the last one in play wins. Rulebook p. 6:
# wounds equal to or greater than Resolve destroy the character. Both Leaders at Combat 3, Resolve 2.
# Round 1, Bo's Leader holds Ana's 3 threat:
# - "equal": Riposte 1 takes 1 out and sends it, Thrust 1 sends 1 more; Bo's Leader takes the 2 left,
#   2 wounds of Resolve 2 (equal: destroyed);
# - "greater": a card of 0 / 0 / 2 takes nothing out and sends 2; Bo's Leader takes all 3 it holds
#   (Restricted Hostilities caps at Ana's Combat 3), 3 wounds of Resolve 2 (greater: destroyed).
# Either way only Ana has a Leader in play: she wins at once, the game is decided, and the 2 threat
# waiting in her own pool is never resolved: there is no round 2.
DECIDING_ROUND = {
    "equal": ({"riposte": 1, "parry": 0, "thrust": 1, "play": "card"}, 2),
    "greater": ({"riposte": 0, "parry": 0, "thrust": 2, "play": "card"}, 3),
}


@pytest.mark.parametrize("case", list(DECIDING_ROUND))
def test_a_leaders_fall_that_decides_the_game_closes_the_duel_at_once(client, tables, case):
    """Issue 36, played from the rulebook's wording (p. 2 Assassination Victory, p. 6 wounds equal to or
    over Resolve destroy): the round that leaves one Leader in play closes the duel in the same tap; the
    duel page says the game is decided and offers no round 2, and the log line and the board name the
    fallen Leader destroyed."""
    token = tables.create("fivesails", names=("Ana", "Bo"))
    started(tables, token)
    rnd, wounds = DECIDING_ROUND[case]
    assert start_duel(tables, token, **BOTH_LEADERS).status_code == 200
    resp = tables.post(token, "fivesails/duel/round", rnd, page="duel", form_key="duel-round")
    assert resp.status_code == 200
    t, g = tables.table(token), gs(tables, token)
    assert t.status == "finished" and t.result["winners"] == ["Ana"] and t.result["victory"] == "assassination"
    assert g["duel"] is None and len(g["last_duel"]["rounds"]) == 1
    assert g["players"]["2"]["leader_destroyed"] and not g["players"]["1"]["leader_destroyed"]
    page = client.get(f"/t/{token}/duel")
    text = text_of(page)
    assert "The game is decided" in text and "no round is left to play" in text
    assert 'id="fs-round-h"' not in page.get_data(as_text=True)  # no round 2 offered
    log = (f"Duel round 1: Bo's Leader plays {rnd['riposte']} / {rnd['parry']} / {rnd['thrust']}. The game is "
           f"decided, so the duel closes: Ana's Leader 0/2, Bo's Leader {wounds}/2, destroyed. Bo's Leader "
           "destroyed (0 Renown lost): Assassination Victory for Ana")
    assert log in text
    board = page.get_data(as_text=True).split('id="fs-last-h"')[1]
    assert board.count('badge fs-bad') == 1 and "destroyed" in board
    # A round posted anyway (a stale phone) is refused: the game is over.
    again = tables.post(token, "fivesails/duel/round", {"play": "none"}, page="duel", form_key="duel-round")
    assert again.status_code == 422 and len(gs(tables, token)["last_duel"]["rounds"]) == 1
    fr = text_of(client.get(f"/t/{token}/duel", headers={"Accept-Language": "fr"}))
    assert "La partie est jouée" in fr and f"Bo's Leader {wounds}/2, détruit" in fr


def test_a_duel_that_went_past_the_deciding_fall_offers_no_round_and_closes_at_the_decision(client, tables):
    """A table saved before issue 36 can hold a duel whose first fall decided the game while the duel
    went on. Its page offers no round, only to close it; a round posted is refused; closing ends the
    game with the fall that decided it."""
    token = tables.create("fivesails", names=("Ana", "Bo"))
    started(tables, token)
    assert start_duel(tables, token, **BOTH_LEADERS).status_code == 200
    with tables.app.app_context():
        from companion.db import get_session
        from companion.models import Table
        db = get_session()
        row = db.get(Table, tables.table(token).id)
        state = json.loads(json.dumps(row.state))
        state["game"]["duel"]["rounds"] = [{"card": {"riposte": 1, "parry": 0, "thrust": 1}, "lethal": False,
                                            "gambled": False}]
        row.state = state
        db.add(row)
        db.commit()
    page = client.get(f"/t/{token}/duel")
    html_ = page.get_data(as_text=True)
    assert "The game is decided" in text_of(page) and 'id="fs-round-h"' not in html_ and "Finish the duel" in html_
    refused = tables.post(token, "fivesails/duel/round", {"play": "none"}, page="duel", form_key="duel-round")
    assert refused.status_code == 422 and "has decided the game" in text_of(refused)
    resp = tables.post(token, "fivesails/duel/close", page="duel")
    assert resp.status_code == 200
    t = tables.table(token)
    assert t.status == "finished" and t.result["winners"] == ["Ana"]
    assert "The game is decided, so the duel closes: Ana's Leader 0/2, Bo's Leader 2/2, destroyed" in text_of(resp)


def test_a_character_not_tracked_at_its_resolve_is_named_destroyed_in_the_log(tables, table):
    """p. 6: every character at or over its Resolve is destroyed, tracked or not: the log line says so."""
    started(tables, table)
    setup = {"challenger.duel_stat": 3, "challenger.resolve": 5, "challenger.name": "Kaspar",
             "defender.name": "Soline", "defender.duel_stat": 1, "defender.resolve": 2}
    text = text_of(duel_out(tables, table, setup, [{"riposte": 0, "parry": 0, "thrust": 0, "play": "card"}]))
    # Soline holds Kaspar's 3 threat, plays a card of zeros and takes all 3 (capped at Kaspar's Combat 3).
    assert "Duel over: Kaspar 0/5, Soline 3/2, destroyed" in text


def test_two_leaders_falling_in_one_duel_with_the_third_in_play_the_third_wins(tables):
    token = tables.create("fivesails", names=("Ana", "Bo", "Cy"))
    started(tables, token)
    text = text_of(duel_out(tables, token, BOTH_LEADERS, DEFENDER_FIRST))
    t = tables.table(token)
    assert t.status == "finished" and t.result["winners"] == ["Cy"] and "Assassination Victory for Cy" in text


def test_the_tracker_destroys_the_leader_at_its_resolve_and_undo_takes_it_back(client, tables, table):
    started(tables, table)
    for _ in range(5):
        tables.post(table, "fivesails/renown", {"player": 1, "delta": 1})
    resp = tables.post(table, "fivesails/resolve", {"player": 1, "resolve": 2}, page="players", form_key="resolve-1")
    assert resp.status_code == 200 and "Ana's Leader: Resolve 2" in text_of(resp)
    tables.post(table, "fivesails/wounds", {"player": 1, "delta": 1}, page="players")
    assert not gs(tables, table)["players"]["1"]["leader_destroyed"]
    resp = tables.post(table, "fivesails/wounds", {"player": 1, "delta": 1}, page="players")
    p = gs(tables, table)["players"]["1"]
    assert p["leader_destroyed"] and p["renown"] == 2 and p["renown_lost"] == 3
    html = resp.get_data(as_text=True)
    assert 'id="undo-fallen-1"' in html and "Ana's Leader was destroyed (3 Renown lost)." in text_of(resp)
    tables.undo(table)
    p = gs(tables, table)["players"]["1"]
    assert not p["leader_destroyed"] and p["renown"] == 5 and p["leader_wounds"] == 1


@pytest.mark.parametrize("value", ["0", "41", "x", ""])
def test_a_bad_resolve_is_refused_next_to_its_field(tables, table, value):
    resp = tables.post(table, "fivesails/resolve", {"player": 1, "resolve": value}, page="players",
                       form_key="resolve-1")
    assert resp.status_code == 422 and 'id="resolve-1-resolve-err"' in resp.get_data(as_text=True)
    assert gs(tables, table)["players"]["1"]["leader_resolve"] is None


def test_destroying_by_hand_asks_first(client, tables, table):
    html = client.get(f"/t/{table}/players").get_data(as_text=True)
    assert '<details class="fs-confirm">' in html and "Yes: destroy Ana's Leader" in html


def test_a_destroyed_leader_cannot_be_linked_to_a_duel(tables, table):
    started(tables, table)
    tables.post(table, "fivesails/leader", {"player": 2, "destroyed": 1})
    resp = start_duel(tables, table, **SOLINE_IS_BOS_LEADER)
    assert resp.status_code == 422 and "Bo's Leader is destroyed: it cannot duel." in text_of(resp)


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
    """Post to the calculator; without htmx a change is answered 303 to the duel's own address."""
    headers = {"HX-Request": "true", "HX-Target": "duel-calc"} if htmx else {}
    return client.post("/fivesails/duel", data=data, headers=headers, follow_redirects=not htmx)


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
    assert resp.headers["HX-Replace-Url"].startswith("/fivesails/duel?d=")


def test_calculator_keeps_the_duel_in_its_address_for_a_reload_or_a_link(client):
    resp = client.post("/fivesails/duel", data={**CALC, "action": "start"})
    assert resp.status_code == 303 and "/fivesails/duel?d=" in resp.headers["Location"]
    state = state_of(calc(client, {**CALC, "action": "start"}))
    resp = client.post("/fivesails/duel", data={"duel": state, "action": "play", "play": "card", "thrust": 2})
    link = resp.headers["Location"]
    again = client.get(link)  # a reload, or a friend opening the shared link
    assert again.status_code == 200 and "Round 2" in text_of(again) and "Kaspar" in text_of(again)
    assert len(json.loads(state_of(again))["rounds"]) == 1
    assert 'data-copy="calc-link"' in again.get_data(as_text=True)


@pytest.mark.parametrize("param", ["!!!", "e30", "x" * 9000])
def test_a_broken_duel_link_is_422_with_a_fresh_calculator(client, param):
    resp = client.get(f"/fivesails/duel?d={param}")
    assert resp.status_code == 422 and "could not be read" in text_of(resp)
    assert "Start the duel" in text_of(resp)


def test_calculator_error_summary_names_each_field(client):
    resp = calc(client, {**CALC, "action": "start", "form_key": "calc-setup", "challenger.resolve": "0",
                         "defender.name": ""})
    text = text_of(resp)
    assert resp.status_code == 422 and "2 things to fix:" in text
    assert "Challenger: Resolve: Must be at least 1." in text and "Challenged character: Name: Enter a name." in text


def test_calculator_restricted_hostilities_example(client):
    """p. 27: 1 Combat sends four threat; no card: one wound, three excess discarded, the duel is over."""
    state = state_of(calc(client, {**CALC, "action": "start", "challenger.duel_stat": 2, "challenger.resolve": 8,
                                   "defender.duel_stat": 1}))
    state = state_of(calc(client, {"duel": state, "action": "play", "play": "card", "parry": 2, "thrust": 4}))
    resp = calc(client, {"duel": state, "action": "play", "play": "none"})
    text = text_of(resp)
    assert "Kaspar takes 1 wound, capped at 1 by Restricted Hostilities; 3 excess threat is discarded." in text
    assert "The duel is over" in text


KASPAR_SOLINE = {**CALC, "challenger.duel_stat": 3, "challenger.resolve": 7, "defender.duel_stat": 2,
                 "defender.resolve": 5}


@pytest.mark.parametrize("absent, soline_wounds, kaspar_pool, over", [
    pytest.param("1", 3, 0, True, id="soline-stays-kaspar-absent"),
    pytest.param("", 3, 3, False, id="soline-moves-to-the-docks-first"),
])
def test_calculator_kaspar_and_soline_absent_adversary(client, absent, soline_wounds, kaspar_pool, over):
    """p. 27 "Moving During a Duel", with the numbers of tests/unit/test_fivesails_duel.py."""
    state = state_of(calc(client, {**KASPAR_SOLINE, "action": "start"}))
    for rnd in ({"parry": 1, "thrust": 2}, {"riposte": 1, "thrust": 2},
                {"riposte": 2, "thrust": 1, "adversary_absent": absent}):
        state = state_of(calc(client, {"duel": state, "action": "play", "play": "card", **rnd}))
    resp = client.get("/fivesails/duel?d=" + vs.encode_duel(*vs._calc_state(state)))
    text = text_of(resp)
    assert f"Wounds {soline_wounds} / 5" in text
    assert ("The duel is over" in text) is over
    if absent:
        assert "Kaspar is not at Soline's location, so the 3 threat sent there is discarded." in text
    assert json.loads(state)["rounds"][-1].get("adversary_absent", False) is bool(absent)


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


# -- readings: the app says them in the words of the rules pages ------------------------------------

def test_every_reading_is_shown_where_it_matters(client, tables, table):
    def shows(key, path):
        assert rules.reading(key) in text_of(client.get(f"/t/{table}/{path}")), key

    shows("clockwise", "setup")
    shows("destroyed-can-win", "players")
    shows("all-fall", "players")
    started(tables, table)
    shows("tracker", "duel")
    start_duel(tables, table)
    tables.post(table, "fivesails/duel/round", {"thrust": 1, "play": "card"}, page="duel")
    shows("no-card-cap", "duel")
    shows("absent", "duel")
    tables.post(table, "fivesails/duel/close", page="duel")
    advance_to(tables, table, rules.PLANNING, day=2)  # Day 1's token holder: Cy (Initiative 30)
    hand_out(tables, table, [50, 50, 50])
    shows("initiative-tie", "day")


def test_governors_gardens_can_go_beyond_oles_inn(client, tables):
    token = tables.create("fivesails", names=("Ana", "Bo", "Cy", "Di"))
    assert rules.reading("gardens") in text_of(client.get(f"/t/{token}/setup"))
    resp = tables.post(token, "fivesails/setup/line", {"what": "gardens"}, page="setup")
    assert resp.status_code == 200
    items = re.findall(r'class="fs-loc-name">([^<]+)<', resp.get_data(as_text=True))
    assert [html.unescape(i) for i in items][-2:] == ["Ole's Inn", "Governor's Gardens"]


def test_every_calculator_form_leaves_the_checks_to_the_app(client):
    """The browser's own bubble is in the phone's language, not the page's, and shows one field at a
    time: every calculator form is `novalidate`, so our message shows next to the box."""
    html = client.get("/fivesails/duel").get_data(as_text=True)
    forms = [f for f in re.findall(r"<form\b[^>]*>", html) if 'action="/fivesails/duel"' in f]
    assert forms and all("novalidate" in f for f in forms), [f for f in forms if "novalidate" not in f]


def test_a_dominance_victory_card_and_share_text_lead_with_what_decided_it(client, tables, table):
    """Rulebook p. 2 and p. 15 (Plunder 2a): controlling the three core locations wins, whatever the
    Renown. The card says so before the Renown list, and the share text names the victory, not "with 0"."""
    started(tables, table)
    for loc in ("docks", "forums", "bazaar"):
        assert tables.post(table, "fivesails/control", {"location": loc, "owner": "1"}).status_code == 200
    tables.post(table, "fivesails/renown", {"player": 2, "delta": 1})
    tables.post(table, "fivesails/day/jump", {"at": at(tables, table), "phase": "plunder"}, page="day")
    tables.post(table, "fivesails/day/next", {"at": at(tables, table)}, page="day", form_key="next")
    assert tables.table(table).status == "finished"
    text = text_of(client.get(f"/t/{table}/day"))
    head, decided, renown = (text.index("Dominance Victory: Ana wins"),
                             text.index("Decided by control of The Docks, The Forums and The Grand Bazaar"),
                             text.index("Renown at the end (it did not decide this victory)"))
    assert head < decided < renown
    assert "Ana wins (Dominance Victory)" in text and "Ana wins with 0" not in text
