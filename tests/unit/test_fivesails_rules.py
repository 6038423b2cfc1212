"""City of Five Sails: setup, the Day, Initiative, Leaders and every victory rule and tie-break."""
from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.domain import Invalid
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
    gs["step"] = next(i for i, s in enumerate(r.DAY_STEPS) if s.kind == r.DOMINANCE)
    v = r.advance(gs, SEATS3)
    assert v.kind == r.DOMINANCE_WIN and v.winners == ("2",)


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
    assert not r.plunder_verdict(gs, SEATS3, r.FIFTH_DAY, 4).decided
    assert r.plunder_verdict(gs, SEATS3, r.FIFTH_DAY, 5).winners == ("1",)


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


def test_advancing_through_a_day_starts_the_next_at_dawn_with_locations_uncontrolled():
    gs = state(3)
    gs["first_player"] = "2"
    gs["initiative"] = {"1": 3, "2": 9, "3": 1}
    r.set_control(gs, DOCKS, 1)
    for _ in range(len(r.DAY_STEPS)):
        assert not r.advance(gs, SEATS3).decided
    assert (gs["day"], gs["step"]) == (2, 0)
    assert all(v is None for v in gs["control"].values())
    assert gs["initiative"] == {} and gs["first_player"] == "2"


def test_economic_tie_goes_on_to_another_day():
    gs = state(3, **{"1": {"renown": 9}, "2": {"renown": 9}})
    gs["step"] = next(i for i, s in enumerate(r.DAY_STEPS) if s.kind == r.ECONOMIC)
    v = r.advance(gs, SEATS3)
    assert not v.decided and v.tied == ("1", "2")
    assert r.DAY_STEPS[gs["step"]].kind == r.FIFTH_DAY


def test_day_five_plunder_always_ends_the_game():
    gs = state(3, **{"1": {"renown": 9}, "2": {"renown": 9}})
    gs["day"] = 5
    gs["step"] = next(i for i, s in enumerate(r.DAY_STEPS) if s.kind == r.FIFTH_DAY)
    v = r.advance(gs, SEATS3)
    assert v.kind == r.DRAW and v.winners == ("1", "2")


def test_there_is_no_sixth_day():
    gs = state(3)
    gs["day"], gs["step"] = 5, len(r.DAY_STEPS) - 1
    with pytest.raises(Invalid):
        r.advance(gs, SEATS3)


def test_back_stays_within_the_day():
    gs = state(3)
    gs["step"] = 3
    r.back(gs)
    assert gs["step"] == 2
    gs["step"] = 0
    with pytest.raises(Invalid):
        r.back(gs)


@given(st.lists(st.integers(0, 99), min_size=2, max_size=4), st.integers(0, 3) | st.none())
def test_the_first_player_always_has_the_highest_initiative_or_it_was_a_tie(values, holder_index):
    seats = [str(i + 1) for i in range(len(values))]
    holder = seats[holder_index] if holder_index is not None and holder_index < len(seats) else None
    fp = r.determine_initiative(dict(zip(seats, values)), seats, holder, random.Random(0))
    best = max(values)
    if values.count(best) == 1:
        assert values[seats.index(fp.player)] == best and fp.reason == "highest"
    elif holder is not None:
        assert fp.player == seats[(seats.index(holder) + 1) % len(seats)]
    else:
        assert values[seats.index(fp.player)] == best


@given(st.integers(0, 99))
def test_renown_loss_is_half_rounded_up(renown):
    lost = r.renown_loss(renown)
    assert lost * 2 in (renown, renown + 1)
