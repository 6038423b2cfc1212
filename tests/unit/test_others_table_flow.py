"""The Others: 7 Sins: what a table got wrong in play (issue 18): deaths against the Hero Reserve, one
reaction per finished hero turn, changing one's mind about Voluntary Corruption, the Dark Past reminder,
whose turn is next, and the Ranged fight."""
from __future__ import annotations

import copy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.domain import Invalid
from companion.games.others import rules, state
from companion.games.others.rules import HeroRoll, SinRoll
from tests.unit.test_others_state import started as state_started



def started(n_players=5, story_type="corruption"):
    return state_started(n_players, story_type)


def gs_of(doc):
    return doc["state"]["game"]


def wound_to_death(doc, hid):
    h = state.hero(gs_of(doc), hid)
    for slot in rules.LEVELS:
        if h["status"] != "play":
            return
        if slot not in h["wounds"]:
            state.take_wound(doc, hid, slot)


def down_to_one_in_reserve(doc):
    """Three deaths, each replaced: the reserve of 3 (4 heroes in play) is down to one hero."""
    gs = gs_of(doc)
    for _ in range(2):
        dead = gs["lineup"][0]
        wound_to_death(doc, dead)
        state.replace_hero(doc, dead, state.reserve(gs)[0]["id"])
    assert len(state.reserve(gs)) == 1


# -- two deaths with one hero in the Reserve (Victory and Defeat, p. 12) -------------------------------

def test_a_second_death_the_reserve_cannot_cover_is_a_sins_win_at_once():
    doc = started()
    gs = gs_of(doc)
    down_to_one_in_reserve(doc)
    rose, gail = gs["lineup"][0], gs["lineup"][1]
    wound_to_death(doc, rose)
    assert doc["status"] == "playing"  # Mi-Ja, the last in the reserve, can still replace Rose
    wound_to_death(doc, gail)
    assert doc["status"] == "finished"
    assert gs["winner"] == "sins" and gs["win_reason"] == "reserve"
    assert doc["result"]["winners"] == ["Sam"]
    assert gs["alerts"] == []  # no stale reminder about the dead
    with pytest.raises(Invalid):
        state.replace_hero(doc, rose, state.reserve(gs)[0]["id"])


def test_one_death_per_hero_in_the_reserve_is_still_playable():
    doc = started()
    gs = gs_of(doc)
    down_to_one_in_reserve(doc)
    rose = gs["lineup"][0]
    wound_to_death(doc, rose)
    assert not state.unreplaceable(gs)
    state.replace_hero(doc, rose, state.reserve(gs)[0]["id"])
    assert state.reserve(gs) == [] and doc["status"] == "playing"
    wound_to_death(doc, gs["lineup"][1])
    assert gs["winner"] == "sins"


def test_the_table_can_declare_either_side_the_winner_and_a_sins_win_is_refused_once_over():
    doc = started()
    before = copy.deepcopy(doc)
    state.sins_win(doc)
    assert doc["status"] == "finished" and gs_of(doc)["winner"] == "sins" and gs_of(doc)["win_reason"] == "declared"
    with pytest.raises(Invalid):
        state.sins_win(doc)
    state.heroes_win(doc)  # the tie rule, or the table correcting itself
    assert gs_of(doc)["winner"] == "heroes"
    assert before["status"] == "playing"


# -- one reaction per finished hero turn (Sin Reactions, p. 16) ----------------------------------------

def test_a_second_reaction_to_the_same_turn_is_refused_and_explains_why():
    doc = started()
    gs = gs_of(doc)
    rocco = gs["lineup"][0]
    state.spend_turn(doc, rocco)
    state.spend_reaction(doc, 1)
    snapshot = copy.deepcopy(doc)
    with pytest.raises(Invalid) as err:
        state.spend_reaction(doc, 1)
    assert "already reacted" in str(err.value.as_dict())
    assert doc == snapshot  # nothing changed
    state.spend_turn(doc, gs["lineup"][1])
    state.spend_reaction(doc, 1)  # the next turn may get its own reaction
    assert gs["reactions"]["spent"] == 2


def test_flipping_a_reaction_back_frees_the_turn_again():
    doc = started()
    state.spend_turn(doc, gs_of(doc)["lineup"][0])
    state.spend_reaction(doc, 1)
    state.spend_reaction(doc, -1)
    state.spend_reaction(doc, 1)
    assert gs_of(doc)["reactions"]["spent"] == 1


def test_no_reaction_before_any_turn_of_the_round():
    doc = started()
    with pytest.raises(Invalid, match="No hero has finished a turn"):
        state.spend_reaction(doc, 1)


def test_no_reaction_after_a_hero_killed_in_their_own_turn():
    doc = started()
    gs = gs_of(doc)
    hid = gs["lineup"][0]
    state.spend_turn(doc, hid)
    wound_to_death(doc, hid)
    with pytest.raises(Invalid) as err:
        state.spend_reaction(doc, 1)
    assert "killed during their own turn" in str(err.value.as_dict())
    assert gs["reactions"]["spent"] == 0
    state.replace_hero(doc, hid, state.reserve(gs)[0]["id"])
    with pytest.raises(Invalid):
        state.spend_reaction(doc, 1)  # still that turn: the replacement has not played yet
    state.spend_turn(doc, gs["lineup"][1])
    state.spend_reaction(doc, 1)


def test_the_end_of_the_round_forgets_the_last_turn():
    doc = started()
    state.spend_turn(doc, gs_of(doc)["lineup"][0])
    state.end_round(doc)
    with pytest.raises(Invalid):
        state.spend_reaction(doc, 1)


# -- whose turn is next (Hero Turns, p. 13) ------------------------------------------------------------

def test_next_hero_goes_clockwise_from_the_first_and_skips_spent_heroes():
    doc = started()
    gs = gs_of(doc)
    order = list(gs["lineup"])
    assert state.next_hero(gs)["id"] == order[0]
    state.choose_first(doc, order[2])
    assert state.next_hero(gs)["id"] == order[2]
    played = []
    while (h := state.next_hero(gs)) is not None:
        played.append(h["id"])
        state.spend_turn(doc, h["id"])
    assert played == (order[2:] + order[:2]) * 2


def test_two_heroes_per_player_play_a1_a2_b1_b2():
    doc = started(3)  # two hero players, two heroes each
    gs = gs_of(doc)
    controllers = [state.hero(gs, hid)["controller"] for hid in gs["lineup"]]
    assert controllers == [2, 2, 3, 3]


def test_a_replacement_plays_from_the_dead_heros_seat():
    doc = started()
    gs = gs_of(doc)
    a, b = gs["lineup"][0], gs["lineup"][1]
    state.spend_turn(doc, a)
    wound_to_death(doc, a)
    new = state.reserve(gs)[0]["id"]
    state.replace_hero(doc, a, new)
    assert state.next_hero(gs)["id"] == b


# -- Voluntary Corruption, cancelled (p. 36) ----------------------------------------------------------

def test_changing_your_mind_at_6_gives_the_innocents_back():
    doc = started()
    gs = gs_of(doc)
    hid = gs["lineup"][0]
    h = state.hero(gs, hid)
    h["corruption"] = 6
    state.add_innocents(doc, hid, 2)
    before = copy.deepcopy(doc)
    state.take_voluntary(doc, hid)
    assert h["corruption"] == 7 and h["innocents"] == 0 and gs["alerts"]
    state.cancel_voluntary(doc, hid)
    assert doc == before


@settings(max_examples=80, deadline=None)
@given(level=st.integers(1, 6), innocents=st.integers(0, 6), wounds=st.sets(st.integers(1, 7), max_size=4),
       older_alerts=st.integers(0, 22), dismissed=st.booleans())
def test_cancel_restores_the_document_exactly(level, innocents, wounds, older_alerts, dismissed):
    doc = started()
    gs = gs_of(doc)
    hid = gs["lineup"][1]
    for i in range(older_alerts):
        state.add_alert(gs, "%(hero)s died during their turn: the turn ends and the Sins player cannot react to it.",
                        hero=str(i))
    if dismissed and gs["alerts"]:
        state.dismiss_alert(gs, gs["alerts"][0]["id"])
    h = state.hero(gs, hid)
    h.update(corruption=level, innocents=innocents, wounds=sorted(wounds))
    before = copy.deepcopy(doc)
    state.take_voluntary(doc, hid)
    state.cancel_voluntary(doc, hid)
    assert doc == before


# -- the Dark Past reminder (p. 27) --------------------------------------------------------------------

def dark_past_alerts(gs):
    return [a for a in gs["alerts"] if a.get("dark_past")]


def test_the_dark_past_reminder_comes_once_and_goes_with_the_reveal():
    doc = started()
    gs = gs_of(doc)
    hid, other = gs["lineup"][0], gs["lineup"][1]
    state.hero(gs, hid)["corruption"] = 7
    for _ in range(2):
        state.spend_turn(doc, hid)
        state.spend_turn(doc, other)
    state.end_round(doc)
    assert len(dark_past_alerts(gs)) == 1 and dark_past_alerts(gs)[0]["dark_past"] == hid
    state.reveal_dark_past(doc, hid)
    assert dark_past_alerts(gs) == []
    state.spend_turn(doc, hid)
    state.spend_turn(doc, other)
    assert dark_past_alerts(gs) == []


def test_a_dead_hero_takes_the_dark_past_reminder_with_them():
    doc = started()
    gs = gs_of(doc)
    hid = gs["lineup"][0]
    state.hero(gs, hid)["corruption"] = 7
    state.spend_turn(doc, hid)
    state.spend_turn(doc, gs["lineup"][1])
    assert dark_past_alerts(gs)
    wound_to_death(doc, hid)
    assert dark_past_alerts(gs) == []


# -- the Ranged fight (p. 34) --------------------------------------------------------------------------

def test_rocco_ranged_example():
    """Rocco rolls a Hit and a Defense, Killshot adds 2 Hits: one of two Abominations dies (3 Hits vs
    Defense 3). The survivor and the Acolyte already in his space roll 3 Hits and 1 Corruption against
    that same roll: base Defense 2 + the rolled Defense stop every Hit; 1 Corruption."""
    doc = started()
    gs = gs_of(doc)
    rocco = gs["lineup"][1]
    state.set_stats(doc, rocco, 2, 1, 2)
    state.start_fight(doc, rocco, state.RANGED)
    state.prepare_fight(doc, {"extra_hits": 2, "monsters": 5})
    assert state.fight_dice(gs) == (2, 5)
    state.resolve(doc, HeroRoll(hits=1, defense=1), SinRoll(hits=3, corruption=1))
    out = gs["fight"]["outcome"]
    assert (out["hits"], out["wounds"], out["corruption"]) == (3, 0, 1)
    state.apply_fight(doc, [])
    assert state.hero(gs, rocco)["corruption"] == 2 and gs["fight"] is None


def test_ranged_counts_the_commissioner_and_a_crisis_does_not():
    doc = started()
    gs = gs_of(doc)
    hid = gs["lineup"][0]
    state.set_stats(doc, hid, 2, 3, 1)
    state.set_npc(doc, hid, "commissioner", True)
    state.start_fight(doc, hid, state.RANGED)
    assert state.fight_dice(gs)[0] == 3
    state.close_fight(doc)
    state.start_fight(doc, hid, state.CRISIS)
    assert state.fight_dice(gs)[0] == 3  # Skill 3, no Commissioner


def test_corruption_7_and_death_in_one_fight_kills_the_innocents():
    """Corruption is applied before the wounds: the Innocents die at 7 rather than being left where the
    hero fell."""
    doc = started()
    gs = gs_of(doc)
    hid = gs["lineup"][0]
    h = state.hero(gs, hid)
    h.update(corruption=6, wounds=[1, 2, 3, 4])
    state.add_innocents(doc, hid, 2)
    state.set_stats(doc, hid, 2, 2, 0)
    state.start_fight(doc, hid, state.FIGHT)
    state.resolve(doc, HeroRoll(), SinRoll(hits=1, corruption=1))
    state.apply_fight(doc, [5])
    assert h["status"] == "dead" and h["innocents"] == 0
    msgs = " ".join(a["msg"] for a in gs["alerts"])
    assert "killed the %(n)d Innocent(s)" in msgs and "in the space where they fell" not in msgs


def test_setup_steps_have_names():
    assert set(state.SETUP_STEP_NAMES) == set(state.SETUP_STEPS)
