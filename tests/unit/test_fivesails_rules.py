"""City of Five Sails: setup, the Day, Initiative, Leaders and every victory rule and tie-break."""
from __future__ import annotations

import copy
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.domain import Invalid
from companion.games.fivesails import duel as d
from companion.games.fivesails import rules as r
from companion.games.fivesails.rules import BAZAAR, DOCKS, FORUMS, GARDENS, OLES_INN


def players(n):
    return [{"id": i + 1, "name": "ABCD"[i], "colour": None} for i in range(n)]


def state(n=3, **per_player):
    """A game state; per_player maps "1".. to overrides of that player's state."""
    gs = r.new_state(players(n))
    for pid, values in per_player.items():
        gs["players"][pid].update(values)
    return gs


SEATS3 = ["1", "2", "3"]


# -- setup ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("n, expected", [
    pytest.param(2, (DOCKS, FORUMS, BAZAAR), id="two-players-core-only"),
    pytest.param(3, (DOCKS, FORUMS, BAZAAR, OLES_INN), id="three-players-add-oles-inn"),
    pytest.param(4, (DOCKS, FORUMS, BAZAAR, OLES_INN, GARDENS), id="four-players-add-gardens"),
])
def test_locations_by_player_count(n, expected):
    assert r.locations_for(n) == expected


@pytest.mark.parametrize("n, flipped, swapped, line", [
    pytest.param(2, False, False, [DOCKS, FORUMS, BAZAAR], id="2p"),
    pytest.param(2, True, False, [BAZAAR, FORUMS, DOCKS], id="2p-flipped"),
    pytest.param(3, False, False, [DOCKS, FORUMS, BAZAAR, OLES_INN], id="3p"),
    pytest.param(3, False, True, [BAZAAR, FORUMS, DOCKS, OLES_INN], id="3p-swapped"),
    pytest.param(4, False, False, [GARDENS, DOCKS, FORUMS, BAZAAR, OLES_INN], id="4p"),
    pytest.param(4, True, True, [OLES_INN, DOCKS, FORUMS, BAZAAR, GARDENS], id="4p-flipped-swapped"),
])
def test_city_line_keeps_the_forums_central_and_ancillaries_outside(n, flipped, swapped, line):
    got = r.city_line(n, flipped, swapped)
    assert got == line
    i = got.index(FORUMS)
    assert {got[i - 1], got[i + 1]} == {DOCKS, BAZAAR}
    assert set(got) - set(r.CORE) == {got[0], got[-1]} - set(r.CORE)


def test_four_players_can_place_governors_gardens_beyond_oles_inn():
    """The second reading of p. 3: both extra locations at the same end."""
    assert r.city_line(4, gardens_with_inn=True) == [DOCKS, FORUMS, BAZAAR, OLES_INN, GARDENS]
    assert r.city_line(4, flipped=True, gardens_with_inn=True) == [GARDENS, OLES_INN, BAZAAR, FORUMS, DOCKS]


@pytest.mark.parametrize("n, keys", [
    pytest.param(2, {"oles-inn", "gardens"}, id="2p-no-ancillary"),
    pytest.param(3, {"gardens"}, id="3p-no-gardens"),
    pytest.param(4, set(), id="4p-everything"),
])
def test_setup_steps_by_player_count(n, keys):
    got = {s.key for s in r.setup_steps(n)}
    assert not (got & keys)
    assert {"pool", "city-deck", "core-line", "leaders", "decks", "no-hand"} <= got


def test_sync_players_keeps_state_and_fits_the_locations():
    gs = state(3, **{"2": {"renown": 4}})
    gs["control"][OLES_INN] = "3"
    r.sync_players(gs, players(2))
    assert gs["players"]["2"]["renown"] == 4 and "3" not in gs["players"]
    assert OLES_INN not in gs["control"]
    r.sync_players(gs, players(4))
    assert set(gs["control"]) == {DOCKS, FORUMS, BAZAAR, OLES_INN, GARDENS}


# -- Initiative ----------------------------------------------------------------------------------

@pytest.mark.parametrize("initiative, holder, first, reason", [
    pytest.param({"1": 30, "2": 67, "3": 12}, None, "2", "highest", id="highest-takes-the-token"),
    pytest.param({"1": 30, "2": 67, "3": 12}, "3", "2", "highest", id="highest-takes-it-from-a-holder"),
    pytest.param({"1": 50, "2": 50, "3": 12}, "1", "2", "tie-left", id="tie-passes-left-of-the-holder"),
    pytest.param({"1": 50, "2": 50, "3": 12}, "3", "1", "tie-left", id="tie-passes-left-wrapping-round"),
    pytest.param({"1": 50, "2": 12, "3": 50}, "1", "3", "tie-left",
                 id="tie-skips-the-lower-initiative-on-the-left"),
    pytest.param({"1": 40, "2": 55, "3": 55}, "3", "2", "tie-left", id="holder-tied-comes-last"),
])
def test_determine_initiative(initiative, holder, first, reason):
    fp = r.determine_initiative(initiative, SEATS3, holder)
    assert (fp.player, fp.reason) == (first, reason)


def test_a_tie_with_no_holder_is_a_random_pick_among_the_tied():
    picks = {r.determine_initiative({"1": 5, "2": 9, "3": 9}, SEATS3, None, random.Random(seed)).player
             for seed in range(40)}
    assert picks == {"2", "3"}
    fp = r.determine_initiative({"1": 5, "2": 9, "3": 9}, SEATS3, None, random.Random(1))
    assert fp.reason == "tie-random" and fp.tied == ("2", "3")


def _planning(holder=None, **initiative):
    gs = state(3)
    gs["first_player"] = gs["planning_holder"] = holder
    gs["initiative"] = dict(initiative)
    return gs


@pytest.mark.parametrize("holder", [pytest.param(None, id="day-1-no-holder"), pytest.param("1", id="ana-holds"),
                                    pytest.param("3", id="chloe-holds")])
def test_handing_out_again_with_the_same_values_gives_the_same_player(holder):
    """The issue's table: Ana 40, Bruno 55, Chloé 55, "Hand out" tapped three times."""
    gs = _planning(holder, **{"1": 40, "2": 55, "3": 55})
    first = r.hand_out_first_player(gs, SEATS3, random.Random(7)).player
    for seed in (1, 2, 3):
        assert r.hand_out_first_player(gs, SEATS3, random.Random(seed)).player == first
    assert first in ("2", "3")


def test_correcting_a_value_decides_again_from_the_holder_at_the_start_of_planning():
    gs = _planning("1", **{"1": 3, "2": 55, "3": 55})
    assert r.hand_out_first_player(gs, SEATS3).player == "2"  # the typo: Bruno and Chloé tie, left of Ana
    gs["initiative"]["1"] = 40
    fp = r.hand_out_first_player(gs, SEATS3)
    assert (fp.player, fp.reason) == ("2", "tie-left")  # from Ana, the holder when Planning began
    assert r.hand_out_first_player(gs, SEATS3).player == "2"


def test_a_new_day_plans_from_the_token_holder_at_its_end():
    gs = _planning(None, **{"1": 10, "2": 70, "3": 20})
    gs["phase"] = r.PLANNING
    r.hand_out_first_player(gs, SEATS3)
    for _ in range(4):
        r.advance(gs, SEATS3)
    assert (gs["day"], gs["phase"], gs["planning_holder"]) == (2, r.DAWN, "2")
    gs["initiative"] = {"1": 30, "2": 30, "3": 30}
    assert r.hand_out_first_player(gs, SEATS3).player == "3"


def test_initiative_needs_everyone():
    with pytest.raises(Invalid):
        r.determine_initiative({"1": 5}, SEATS3, None)


def test_clockwise_order_starts_with_the_first_player():
    assert r.clockwise_from(["1", "2", "3", "4"], "3") == ["3", "4", "1", "2"]
    assert r.clockwise_from(SEATS3, None) == SEATS3


# -- Leaders and Renown ---------------------------------------------------------------------------

@pytest.mark.parametrize("n, renown, lost", [
    pytest.param(3, 5, 3, id="3p-half-of-5-rounded-up"),
    pytest.param(4, 6, 3, id="4p-half-of-6"),
    pytest.param(3, 1, 1, id="3p-half-of-1-rounded-up"),
    pytest.param(3, 0, 0, id="3p-nothing-to-lose"),
    pytest.param(2, 5, 0, id="2p-no-renown-loss"),
])
def test_destroyed_leader_loses_half_renown_rounded_up_in_3_4_player_games(n, renown, lost):
    gs = state(n, **{"1": {"renown": renown}})
    assert r.destroy_leader(gs, 1, n) == lost
    assert gs["players"]["1"]["renown"] == renown - lost and gs["players"]["1"]["leader_destroyed"]
    assert r.restore_leader(gs, 1) == lost
    assert gs["players"]["1"]["renown"] == renown and not gs["players"]["1"]["leader_destroyed"]


def test_a_leader_cannot_be_destroyed_twice():
    gs = state(3)
    r.destroy_leader(gs, 1, 3)
    with pytest.raises(Invalid):
        r.destroy_leader(gs, 1, 3)


def test_renown_and_wounds_never_go_negative():
    gs = state(3)
    with pytest.raises(Invalid):
        r.add_renown(gs, 1, -1)
    with pytest.raises(Invalid):
        r.add_leader_wounds(gs, 1, -1)
    with pytest.raises(Invalid):
        r.add_renown(gs, 9, 1)


def test_control_is_exclusive():
    gs = state(3)
    r.set_control(gs, DOCKS, 1)
    r.set_control(gs, DOCKS, 2)
    assert r.controlled_by(gs, 1) == [] and r.controlled_by(gs, 2) == [DOCKS]
    with pytest.raises(Invalid):
        r.set_control(gs, GARDENS, 1)  # not in a 3-player game


# -- the Leader's tracker, destructions together --------------------------------------------------

def test_the_tracker_knows_resolve_and_wounds_reaching_it_destroy():
    gs = state(3, **{"1": {"renown": 5}})
    r.set_leader_resolve(gs, 1, 3)
    r.add_leader_wounds(gs, 1, 2)
    assert not r.reaches_resolve(gs, 1)
    r.add_leader_wounds(gs, 1, 1)
    assert r.reaches_resolve(gs, 1)
    gone = r.destroy_leaders(gs, ["1"], SEATS3)
    assert gone.lost == {"1": 3} and gs["players"]["1"]["renown"] == 2
    assert not r.reaches_resolve(gs, 1)  # destroyed once: no second halving
    with pytest.raises(Invalid):
        r.destroy_leaders(gs, ["1"], SEATS3)


def test_unknown_resolve_never_destroys():
    gs = state(3)
    r.add_leader_wounds(gs, 1, 9)
    assert not r.reaches_resolve(gs, 1)


def test_restoring_a_leader_brings_its_wounds_under_its_resolve():
    gs = state(3, **{"1": {"renown": 4}})
    r.set_leader_resolve(gs, 1, 3)
    r.add_leader_wounds(gs, 1, 3)
    r.destroy_leaders(gs, ["1"], SEATS3)
    assert r.restore_leader(gs, 1) == 2
    assert gs["players"]["1"]["leader_wounds"] == 2 and gs["players"]["1"]["renown"] == 4


@pytest.mark.parametrize("n, already, fallen, winner, nobody", [
    pytest.param(2, [], ["2", "1"], None, True, id="2p-both-leaders-in-one-duel-nobody-wins"),
    pytest.param(3, ["3"], ["1", "2"], None, True, id="3p-last-two-leaders-in-one-duel-nobody-wins"),
    pytest.param(3, [], ["1", "2"], "3", False, id="3p-two-fall-the-third-wins"),
    pytest.param(3, [], ["1"], None, False, id="3p-one-falls-play-on"),
])
def test_leaders_falling_together_are_all_destroyed_before_the_assassination_check(n, already, fallen, winner,
                                                                                   nobody):
    seats = [str(i + 1) for i in range(n)]
    gs = state(n, **{s: {"renown": 4} for s in seats})
    r.destroy_leaders(gs, already, seats)
    gone = r.destroy_leaders(gs, fallen, seats)
    assert all(gs["players"][p]["leader_destroyed"] for p in fallen)
    assert gone.verdict.winners == ((winner,) if winner else ())
    assert gone.nobody_left is nobody
    assert set(gone.lost.values()) == ({2} if n >= 3 else {0})


# -- victory -------------------------------------------------------------------------------------

def test_assassination_the_only_leader_in_play_wins():
    gs = state(3)
    r.destroy_leader(gs, 1, 3)
    assert not r.check_assassination(gs, SEATS3).decided
    r.destroy_leader(gs, 3, 3)
    v = r.check_assassination(gs, SEATS3)
    assert v.kind == r.ASSASSINATION and v.winners == ("2",)


def test_dominance_needs_all_three_core_locations():
    gs = state(3)
    for loc in (DOCKS, FORUMS):
        r.set_control(gs, loc, 2)
    r.set_control(gs, OLES_INN, 2)
    assert not r.check_dominance(gs, SEATS3).decided
    r.set_control(gs, BAZAAR, 2)
    assert r.check_dominance(gs, SEATS3).winners == ("2",)


@pytest.mark.parametrize("renown, winners, tied, decided_by", [
    pytest.param({"1": 6, "2": 3, "3": 0}, (), (), None, id="six-is-not-enough"),
    pytest.param({"1": 7, "2": 3, "3": 0}, ("1",), (), None, id="seven-wins"),
    pytest.param({"1": 7, "2": 9, "3": 8}, ("2",), (), "renown", id="several-most-renown-wins"),
    pytest.param({"1": 9, "2": 9, "3": 8}, (), ("1", "2"), None, id="tied-play-another-day"),
])
def test_economic_victory(renown, winners, tied, decided_by):
    gs = state(3, **{k: {"renown": v} for k, v in renown.items()})
    v = r.check_economic(gs, SEATS3)
    assert (v.winners, v.tied, v.decided_by) == (winners, tied, decided_by)


def test_dominance_beats_economic_in_plunder_order():
    gs = state(3, **{"1": {"renown": 12}})
    for loc in r.CORE:
        r.set_control(gs, loc, 2)
    gs["phase"] = r.PLUNDER
    v = r.advance(gs, SEATS3)
    assert v.kind == r.DOMINANCE_WIN and v.winners == ("2",)
    assert gs["phase"] == r.PLUNDER  # a win does not move the Day


@pytest.mark.parametrize("overrides, control, winners, kind, by", [
    pytest.param({"1": {"renown": 5}, "2": {"renown": 4}}, {}, ("1",), r.FIFTH_DAY_WIN, "renown",
                 id="most-renown"),
    pytest.param({"1": {"renown": 5}, "2": {"renown": 5}}, {DOCKS: "2"}, ("2",), r.FIFTH_DAY_WIN, "locations",
                 id="then-most-locations"),
    pytest.param({"1": {"renown": 5, "influence": 6}, "2": {"renown": 5, "influence": 4}}, {}, ("1",),
                 r.FIFTH_DAY_WIN, "influence", id="then-most-influence"),
    pytest.param({"1": {"renown": 5, "leader_wounds": 3}, "2": {"renown": 5, "leader_wounds": 1}}, {}, ("2",),
                 r.FIFTH_DAY_WIN, "wounds", id="then-fewest-leader-wounds"),
    pytest.param({"1": {"renown": 5, "leader_destroyed": True}, "2": {"renown": 5, "leader_wounds": 9}}, {}, ("2",),
                 r.FIFTH_DAY_WIN, "wounds", id="destroyed-leader-ranks-last-on-wounds"),
    pytest.param({"1": {"renown": 5}, "2": {"renown": 5}}, {}, ("1", "2"), r.DRAW, "draw", id="then-a-draw"),
])
def test_fifth_day_tie_breaks(overrides, control, winners, kind, by):
    gs = state(3, **overrides)
    for loc, pid in control.items():
        r.set_control(gs, loc, pid)
    v = r.check_fifth_day(gs, SEATS3)
    assert (v.winners, v.kind, v.decided_by) == (winners, kind, by)


def test_fifth_day_check_only_applies_on_the_fifth_day():
    gs = state(3, **{"1": {"renown": 3}})
    assert not r.plunder_verdict(gs, SEATS3, 4).decided
    assert r.plunder_verdict(gs, SEATS3, 5).winners == ("1",)


def test_result_names_winners_and_scores_renown():
    gs = state(3, **{"1": {"renown": 8}, "2": {"renown": 2}})
    res = r.result_for(gs, players(3), r.check_economic(gs, SEATS3))
    assert res["winners"] == ["A"]
    assert res["scores"] == [{"name": "A", "points": 8}, {"name": "B", "points": 2}, {"name": "C", "points": 0}]


# -- the Day -------------------------------------------------------------------------------------

def test_the_day_has_five_phases_in_order():
    phases = []
    for s in r.DAY_STEPS:
        if not phases or phases[-1] != s.phase:
            phases.append(s.phase)
    assert phases == list(r.PHASES)
    assert [s.number for s in r.DAY_STEPS if s.phase == r.PLUNDER] == ["1", "2a", "2b", "2c", "2d", "3"]


def test_one_next_per_phase_and_the_next_day_starts_at_dawn_with_locations_uncontrolled():
    gs = state(3)
    r.start_game(gs)
    gs["first_player"] = "2"
    gs["initiative"] = {"1": 3, "2": 9, "3": 1}
    r.set_control(gs, DOCKS, 1)
    seen = [r.current_phase(gs)]
    for _ in range(len(r.PHASES)):
        assert not r.advance(gs, SEATS3).decided
        seen.append(r.current_phase(gs))
    assert seen == list(r.PHASES) + [r.DAWN]
    assert gs["day"] == 2
    assert all(v is None for v in gs["control"].values())
    assert gs["initiative"] == {} and gs["first_player"] == "2" and gs["planning_holder"] == "2"


def test_a_table_saved_by_step_keeps_its_phase():
    gs = state(3)
    del gs["phase"]
    gs["step"] = next(i for i, s in enumerate(r.DAY_STEPS) if s.kind == r.ECONOMIC)
    assert r.current_phase(gs) == r.PLUNDER
    r.advance(gs, SEATS3)
    assert r.current_phase(gs) == r.DUSK and "step" not in gs


def test_economic_tie_goes_on_to_another_day():
    gs = state(3, **{"1": {"renown": 9}, "2": {"renown": 9}})
    gs["phase"] = r.PLUNDER
    assert r.check_economic(gs, SEATS3).tied == ("1", "2")
    v = r.advance(gs, SEATS3)
    assert not v.decided and gs["phase"] == r.DUSK


def test_day_five_plunder_always_ends_the_game():
    gs = state(3, **{"1": {"renown": 9}, "2": {"renown": 9}})
    gs["day"], gs["phase"] = 5, r.PLUNDER
    v = r.advance(gs, SEATS3)
    assert v.kind == r.DRAW and v.winners == ("1", "2")


def test_day_five_economic_tie_is_settled_by_the_fifth_day_check():
    """Day 5, Ana and Bo tied on 8 Renown at 2c: not "play another Day": the tie-breaks settle it."""
    gs = state(3, **{"1": {"renown": 8, "leader_wounds": 2}, "2": {"renown": 8, "leader_wounds": 1}})
    gs["day"], gs["phase"] = 5, r.PLUNDER
    assert r.check_economic(gs, SEATS3).tied == ("1", "2")
    v = r.advance(gs, SEATS3)
    assert (v.kind, v.winners, v.decided_by) == (r.FIFTH_DAY_WIN, ("2",), r.BY_WOUNDS)


def test_there_is_no_sixth_day():
    gs = state(3)
    gs["day"], gs["phase"] = 5, r.DUSK
    with pytest.raises(Invalid):
        r.advance(gs, SEATS3)


def test_jump_goes_to_any_phase_of_this_day():
    gs = state(3)
    r.start_game(gs)
    r.jump(gs, r.PLUNDER)
    assert (gs["day"], r.current_phase(gs)) == (1, r.PLUNDER)
    r.jump(gs, r.DAWN)
    assert r.current_phase(gs) == r.DAWN
    with pytest.raises(Invalid):
        r.jump(gs, r.DAWN)
    with pytest.raises(Invalid):
        r.jump(gs, "teatime")


def test_dusk_lists_the_brutes_being_discarded():
    assert any("Brutes" in s.reminder for s in r.DAY_STEPS if s.phase == r.DUSK)


@given(st.lists(st.integers(0, 99), min_size=2, max_size=4), st.integers(0, 3) | st.none())
def test_the_first_player_always_has_the_highest_initiative_or_it_was_a_tie(values, holder_index):
    seats = [str(i + 1) for i in range(len(values))]
    holder = seats[holder_index] if holder_index is not None and holder_index < len(seats) else None
    fp = r.determine_initiative(dict(zip(seats, values)), seats, holder, random.Random(0))
    best = max(values)
    if values.count(best) == 1:
        assert values[seats.index(fp.player)] == best and fp.reason == "highest"
    else:
        assert values[seats.index(fp.player)] == best  # a tie never hands the token to a lower Initiative
        if holder is not None:  # the first tied seat to the holder's left, the holder last
            i = seats.index(holder)
            left = [seats[(i + k) % len(seats)] for k in range(1, len(seats) + 1)]
            assert fp.player == next(s for s in left if values[seats.index(s)] == best)


@given(st.integers(0, 99))
def test_renown_loss_is_half_rounded_up(renown):
    lost = r.renown_loss(renown)
    assert lost * 2 in (renown, renown + 1)


# -- readings: the same words in the rules pages and in the app -----------------------------------

@pytest.mark.parametrize("key", sorted(r.READINGS))
def test_every_reading_is_written_in_its_rules_page_word_for_word(key):
    from pathlib import Path
    slug, text = r.READINGS[key]
    page = Path(__file__).resolve().parents[2] / "companion/rules/content/fivesails" / f"{slug}.md"
    assert text.replace('\\"', '"') in page.read_text(encoding="utf-8")


# -- a duel onto the Leaders' trackers (pure: duel.py's arithmetic, then rules.close_duel) ---------




def _leader_duel(gs, challenger_pid, defender_pid, *, c_stat=3, c_resolve=6, f_stat=2, f_resolve=5,
                 refused=False, rounds=()):
    """A duel between two Leaders linked to their players, started from their trackers."""
    setup = d.Setup(
        d.Participant("C", c_stat, c_resolve, wounds=r.leader_wounds_for_duel(gs, challenger_pid)),
        d.Participant("F", f_stat, f_resolve, wounds=r.leader_wounds_for_duel(gs, defender_pid)),
        refused=refused)
    duel = d.resolve(setup, list(rounds))
    assert duel.ended
    def fell_at(side):
        if duel.refusal is not None:
            return 0 if side == d.DEFENDER and duel.refusal.destroyed else None
        return next((i for i, x in enumerate(duel.rounds, 1) if x.actor == side and x.destroyed), None)

    return [r.DuelWounds(str(pid), who.wounds, duel.wounds[side], who.resolve, duel.destroyed(side), fell_at(side))
            for pid, side, who in ((challenger_pid, d.CHALLENGER, setup.challenger),
                                   (defender_pid, d.DEFENDER, setup.defender))]


def test_wounds_add_up_over_two_duels():
    """The issue: Soline takes 1 wound in duel 1, starts duel 2 from her tracker's 1 and takes 2: 3."""
    gs = state(3)
    card = d.Round(d.Card(1, 1, 2))
    r.close_duel(gs, _leader_duel(gs, 1, 2, rounds=[card, d.Round(None)]), SEATS3)
    assert gs["players"]["2"]["leader_wounds"] == 1
    r.close_duel(gs, _leader_duel(gs, 1, 2, rounds=[d.Round(d.Card(0, 1, 0))]), SEATS3)
    assert gs["players"]["2"]["leader_wounds"] == 3 and gs["players"]["2"]["leader_resolve"] == 5


def test_a_leader_with_3_wounds_refusing_a_combat_2_challenge_with_resolve_5_is_destroyed():
    gs = state(3, **{"2": {"leader_wounds": 3, "renown": 4}})
    gone = r.close_duel(gs, _leader_duel(gs, 1, 2, c_stat=2, refused=True), SEATS3)
    p = gs["players"]["2"]
    assert p["leader_destroyed"] and p["leader_wounds"] == 5 and p["renown"] == 2
    assert gone.lost == {"2": 2} and not gone.verdict.decided


# Two Leaders at Combat 3 and Resolve 2 in one duel. Only the acting side takes wounds in a round
# (p. 25 "Resolve Threat"), so they fall one after the other:
# - the defender first: round 1 Bo's Leader holds 3, sends 1 back by Riposte and 1 by Thrust and takes
#   the 2 left (destroyed); round 2 Ana's Leader plays no card and takes the 2 (destroyed);
# - the challenger first: round 1 Bo's Leader sends 1 by Riposte, parries 2 and thrusts 1 (no wound);
#   round 2 Ana's Leader thrusts 2 and takes the 2 she holds (destroyed); round 3 Bo's Leader plays no
#   card and takes the 2 (destroyed).
DEFENDER_FIRST = [d.Round(d.Card(1, 0, 1)), d.Round(None)]
CHALLENGER_FIRST = [d.Round(d.Card(1, 2, 1)), d.Round(d.Card(0, 0, 2)), d.Round(None)]


@pytest.mark.parametrize("n, gone_before, rounds, winner, fell", [
    pytest.param(2, (), DEFENDER_FIRST, "1", "2", id="2-players-defender-falls-first-challenger-wins"),
    pytest.param(2, (), CHALLENGER_FIRST, "2", "1", id="2-players-challenger-falls-first-defender-wins"),
    pytest.param(3, ("3",), DEFENDER_FIRST, "1", "2", id="3-players-third-gone-defender-falls-first"),
    pytest.param(3, ("3",), CHALLENGER_FIRST, "2", "1", id="3-players-third-gone-challenger-falls-first"),
])
def test_two_leaders_falling_in_one_duel_the_first_fall_leaves_one_leader_who_wins_at_once(
        n, gone_before, rounds, winner, fell):
    """Rulebook p. 17 "Leader Cards": the only player with a Leader in play wins;
    p. 2 Assassination Victory. The first fall leaves one Leader in play: its player wins at once, and
    the second fall, later in the same duel, no longer happens."""
    seats = [str(i + 1) for i in range(n)]
    gs = state(n, **{s: {"leader_destroyed": True} for s in gone_before}, **{"1": {"renown": 4}, "2": {"renown": 4}})
    gone = r.close_duel(gs, _leader_duel(gs, 1, 2, c_stat=3, c_resolve=2, f_stat=3, f_resolve=2, rounds=rounds),
                        seats)
    assert gone.verdict.kind == r.ASSASSINATION and gone.verdict.winners == (winner,)
    assert gs["players"][fell]["leader_destroyed"] and not gs["players"][winner]["leader_destroyed"]
    assert gone.lost == {fell: 2 if n >= 3 else 0} and not gone.nobody_left
    assert gs["players"][winner]["renown"] == 4  # the winner's Leader never fell: no Renown lost


@pytest.mark.parametrize("rounds, first, second", [
    pytest.param(DEFENDER_FIRST, "2", "1", id="defender-falls-first"),
    pytest.param(CHALLENGER_FIRST, "1", "2", id="challenger-falls-first"),
])
def test_two_leaders_falling_in_one_duel_with_a_third_in_play_the_third_wins(rounds, first, second):
    """Three Leaders in play: the first fall leaves two, the second leaves only the third (p. 17)."""
    gs = state(3, **{"1": {"renown": 4}, "2": {"renown": 4}})
    gone = r.close_duel(gs, _leader_duel(gs, 1, 2, c_stat=3, c_resolve=2, f_stat=3, f_resolve=2, rounds=rounds),
                        SEATS3)
    assert gone.verdict.winners == ("3",)
    assert list(gone.lost) == [first, second] and gone.lost == {"1": 2, "2": 2}


@pytest.mark.parametrize("start", [pytest.param(r.PLUNDER, id="from-plunder"),
                                   pytest.param(r.HIGH_DRAMA, id="from-before-plunder")])
def test_a_jump_never_goes_past_a_victory_plunder_would_declare(start):
    """Rulebook p. 15, Plunder 2c (and p. 2): seven Renown or more at Plunder is an Economic Victory and
    the game ends there; the phase bar's "Dusk" may not move past it silently."""
    gs = state(3, **{"1": {"renown": 8}})
    r.start_game(gs)
    r.jump(gs, start, SEATS3)
    with pytest.raises(Invalid) as err:
        r.jump(gs, r.DUSK, SEATS3)
    assert "Economic Victory" in err.value.problems[0].text() and r.current_phase(gs) == start
    r.jump(gs, r.DAWN, SEATS3) if start != r.DAWN else None  # going back to correct the counts is free
    assert r.current_phase(gs) == r.DAWN


@pytest.mark.parametrize("finesse, gambles, words", [pytest.param(1, 1, "has gambled once", id="once"),
                                                     pytest.param(2, 2, "has gambled 2 times", id="twice")])
def test_no_gamble_left_says_how_many_in_words_a_player_reads(finesse, gambles, words):
    """p. 26 "Gambling": as many gambles as Finesse. The refusal says "once", never "1 times"."""
    setup = d.Setup(d.Participant("C", 3, 6, finesse=finesse), d.Participant("F", 9, 9, finesse=9))
    duel = d.start(setup)
    for i in range(gambles * 2 + 1):  # the challenged side plays first; the challenger gambles on its rounds
        duel = d.play(duel, d.Round(d.Card(0, 0, 1), gambled=i % 2 == 1))
    with pytest.raises(Invalid) as err:
        d.play(duel, d.Round(d.Card(0, 0, 1), gambled=True))
    assert words in err.value.problems[0].text()


@pytest.mark.parametrize("n, gone_before, decided", [
    pytest.param(2, (), True, id="2-players-the-first-fall-decides"),
    pytest.param(3, ("3",), True, id="3-players-third-gone-the-first-fall-decides"),
    pytest.param(3, (), False, id="3-players-two-leaders-left-the-duel-goes-on"),
])
def test_decides_game_says_whether_the_falls_so_far_end_the_game_without_touching_the_table(n, gone_before, decided):
    """Issue 36: after round 1 of DEFENDER_FIRST Bo's Leader has fallen (2 wounds of Resolve 2, p. 6).
    With no other Leader but Ana's in play the game is decided (p. 2), so the duel stops there."""
    seats = [str(i + 1) for i in range(n)]
    gs = state(n, **{s: {"leader_destroyed": True} for s in gone_before})
    before = copy.deepcopy(gs)
    setup = d.Setup(d.Participant("Ana's Leader", 3, 2), d.Participant("Bo's Leader", 3, 2))
    duel = d.resolve(setup, DEFENDER_FIRST[:1])
    assert duel.destroyed(d.DEFENDER) and not duel.ended  # Ana still holds 2 threat
    leaders = [r.DuelWounds("1", 0, duel.wounds[d.CHALLENGER], 2, False, None),
               r.DuelWounds("2", 0, duel.wounds[d.DEFENDER], 2, True, 1)]
    assert r.decides_game(gs, leaders, seats) is decided
    assert gs == before
