"""The Others: 7 Sins: a table's game state through setup, rounds, corruption, death and the end of the game."""
from __future__ import annotations

import copy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.domain import Invalid
from companion.games.others import rules, state
from companion.games.others.rules import HeroRoll, SinRoll

NAMES = ("Sam", "Ana", "Bo", "Cy", "Di")


def make_doc(n_players=3, story_type="corruption"):
    players = [{"id": i + 1, "name": NAMES[i], "colour": None} for i in range(n_players)]
    doc = {"name": "t", "status": "setup", "result": None,
           "state": {"players": players, "game": state.new_state(players)}}
    state.set_story(doc, "Haven's Last Stand", story_type, "")
    return doc


def started(n_players=3, story_type="corruption"):
    doc = make_doc(n_players, story_type)
    state.start_game(doc)
    return doc


def gs_of(doc):
    return doc["state"]["game"]


def lineup(doc):
    return list(gs_of(doc)["lineup"])


# -- setup --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("n_players, heroes, each", [
    pytest.param(2, 3, 3, id="2-players-1-hero-player-controls-3"),
    pytest.param(3, 4, 2, id="3-players-2-hero-players-2-each"),
    pytest.param(4, 3, 1, id="4-players-3-heroes"),
    pytest.param(5, 4, 1, id="5-players-4-heroes"),
])
def test_default_team_matches_the_hero_number(n_players, heroes, each):
    doc = make_doc(n_players)
    gs = gs_of(doc)
    assert gs["sins_player"] == 1
    assert len(gs["lineup"]) == heroes
    for pid in range(2, n_players + 1):
        assert sum(1 for h in gs["heroes"] if h["controller"] == pid) == each
    assert all(h["controller"] != 1 for h in gs["heroes"])
    assert len(state.reserve(gs)) == 7 - heroes


def test_changing_the_sins_player_deals_the_heroes_again():
    doc = make_doc(3)
    state.set_roles(doc, 2)
    gs = gs_of(doc)
    assert {h["controller"] for h in state.in_play(gs)} == {1, 3}


def test_team_must_have_the_hero_number_in_play():
    doc = make_doc(3)
    team = [{"id": h, "name": "", "controller": 2 if h <= 3 else None} for h in range(1, 8)]
    with pytest.raises(Invalid) as err:
        state.set_team(doc, team)
    assert "team" in err.value.as_dict()


def test_team_shares_must_be_even():
    doc = make_doc(3)
    team = [{"id": h, "name": "", "controller": {1: 2, 2: 2, 3: 2, 4: 3}.get(h)} for h in range(1, 8)]
    with pytest.raises(Invalid) as err:
        state.set_team(doc, team)
    assert "Ana has 3" in " ".join(err.value.as_dict()["team"])


def test_team_controllers_must_be_hero_players():
    doc = make_doc(3)
    team = [{"id": h, "name": "", "controller": 1 if h == 1 else None} for h in range(1, 8)]
    with pytest.raises(Invalid) as err:
        state.set_team(doc, team)
    assert "controller_1" in err.value.as_dict()


def test_team_sets_names_and_turn_order_by_seat():
    doc = make_doc(3)
    controllers = {2: 3, 3: 2, 6: 3, 7: 2}
    team = [{"id": h, "name": f"Hero {h}", "controller": controllers.get(h)} for h in range(1, 8)]
    state.set_team(doc, team)
    gs = gs_of(doc)
    assert gs["lineup"] == [3, 7, 2, 6]  # Ana (seat 2) first, then Bo (seat 3)
    assert state.hero(gs, 3)["name"] == "Hero 3"


def test_team_names_are_bounded_and_distinct():
    doc = make_doc(3)
    base = [{"id": h, "name": "", "controller": h_ctrl} for h, h_ctrl in
            zip(range(1, 8), (2, 3, 2, 3, None, None, None))]
    long = copy.deepcopy(base)
    long[0]["name"] = "x" * 31
    with pytest.raises(Invalid) as err:
        state.set_team(doc, long)
    assert "name_1" in err.value.as_dict()
    twice = copy.deepcopy(base)
    twice[0]["name"] = twice[1]["name"] = "Rose"
    with pytest.raises(Invalid):
        state.set_team(doc, twice)


def test_start_needs_a_story_type():
    players = [{"id": i + 1, "name": NAMES[i], "colour": None} for i in range(3)]
    doc = {"name": "t", "status": "setup", "result": None,
           "state": {"players": players, "game": state.new_state(players)}}
    with pytest.raises(Invalid) as err:
        state.start_game(doc)
    assert "story" in err.value.as_dict()


def test_start_deals_dark_past_in_a_corruption_story_only():
    doc = started(3, "corruption")
    assert {h["dark_past"] for h in gs_of(doc)["heroes"]} == {"hidden"}
    assert doc["status"] == "playing" and gs_of(doc)["round"] == 1 and gs_of(doc)["hero_number"] == 4
    terror = started(3, "terror")
    assert {h["dark_past"] for h in gs_of(terror)["heroes"]} == {None}


def test_setup_cannot_change_once_started():
    doc = started()
    with pytest.raises(Invalid):
        state.set_roles(doc, 2)


def test_text_is_cleaned():
    assert state.clean_text("  a\x00b   c ", "f") == "ab c"
    with pytest.raises(Invalid):
        state.clean_text(["x"], "f")


# -- rounds -------------------------------------------------------------------------------------------

def test_two_turn_tokens_then_an_extra_turn():
    doc = started()
    hid = lineup(doc)[0]
    state.spend_turn(doc, hid)
    state.spend_turn(doc, hid)
    with pytest.raises(Invalid):
        state.spend_turn(doc, hid)
    state.add_extra_turns(doc, hid, 1)
    state.spend_turn(doc, hid, extra=True)
    assert state.hero(gs_of(doc), hid)["extra_turns"] == 0
    with pytest.raises(Invalid):
        state.spend_turn(doc, hid, extra=True)


def test_reactions_equal_the_hero_number_plus_the_track():
    doc = started(3)
    gs = gs_of(doc)
    assert state.reactions_total(gs) == 4
    levels = state.empty_track()["levels"]
    levels[0]["reactions"] = 1
    state.set_track(doc, levels)
    assert state.reactions_total(gs) == 4
    state.raise_apocalypse(doc, 1)
    assert state.reactions_total(gs) == 5
    for i in range(5):
        state.spend_turn(doc, lineup(doc)[i % 4])
        state.spend_reaction(doc, 1)
    state.spend_turn(doc, lineup(doc)[1])
    with pytest.raises(Invalid, match="already spent"):
        state.spend_reaction(doc, 1)


def test_end_round_resets_tokens_but_keeps_extra_turns():
    doc = started()
    gs = gs_of(doc)
    hid = lineup(doc)[0]
    state.spend_turn(doc, hid)
    state.set_city_action(doc, hid, True)
    state.add_extra_turns(doc, hid, 2)
    state.spend_reaction(doc, 1)
    state.add_extra_reactions(doc, 1)
    state.add_altars(doc, 2)
    state.set_sin_card(doc, True)
    state.end_round(doc)
    h = state.hero(gs, hid)
    assert (h["turns_spent"], h["city_used"], h["extra_turns"]) == (0, False, 2)
    assert gs["reactions"] == {"spent": 0, "extra": 0}
    assert gs["round"] == 2 and gs["altars"] == 0 and not gs["sin_card"]


def test_a_new_turn_clears_the_sin_card_reminder():
    doc = started()
    state.set_sin_card(doc, True)
    state.spend_turn(doc, lineup(doc)[0])
    assert gs_of(doc)["sin_card"] is False


def test_turn_order_starts_from_the_first_hero():
    doc = started()
    order = lineup(doc)
    state.choose_first(doc, order[2])
    assert [h["id"] for h in state.turn_order(gs_of(doc))] == order[2:] + order[:2]


# -- corruption ---------------------------------------------------------------------------------------

def test_voluntary_corruption_holds_the_bonus_for_one_roll():
    doc = started()
    hid = lineup(doc)[0]
    bonus = state.take_voluntary(doc, hid)
    h = state.hero(gs_of(doc), hid)
    assert h["corruption"] == 2 and bonus == rules.Bonus(dice=1) and rules.Bonus.from_dict(h["pending"]) == bonus
    with pytest.raises(Invalid):
        state.take_voluntary(doc, hid)  # only one per roll
    state.cancel_voluntary(doc, hid)
    assert h["corruption"] == 1 and h["pending"] is None


def test_forced_corruption_at_7_is_a_wound_on_the_chosen_slot():
    doc = started()
    hid = lineup(doc)[0]
    h = state.hero(gs_of(doc), hid)
    for _ in range(6):
        assert state.take_forced(doc, hid) is False
    assert h["corruption"] == 7
    with pytest.raises(Invalid) as err:
        state.take_forced(doc, hid)
    assert "slot" in err.value.as_dict()
    assert state.take_forced(doc, hid, slot=3) is True
    assert h["corruption"] == 7 and h["wounds"] == [3]


def test_voluntary_corruption_is_refused_at_7():
    doc = started()
    hid = lineup(doc)[0]
    state.hero(gs_of(doc), hid)["corruption"] = 7
    with pytest.raises(Invalid):
        state.take_voluntary(doc, hid)


def test_reaching_7_kills_carried_innocents():
    doc = started()
    hid = lineup(doc)[0]
    h = state.hero(gs_of(doc), hid)
    state.add_innocents(doc, hid, 2)
    h["corruption"] = 6
    state.take_forced(doc, hid)
    assert h["innocents"] == 0
    assert gs_of(doc)["alerts"][-1]["args"]["n"] == 2


def test_ending_a_turn_at_7_prompts_the_dark_past():
    doc = started()
    first, second = lineup(doc)[:2]
    state.hero(gs_of(doc), first)["corruption"] = 7
    state.spend_turn(doc, first)
    assert gs_of(doc)["alerts"] == []
    state.spend_turn(doc, second)
    assert "Dark Past" in gs_of(doc)["alerts"][-1]["msg"]
    state.reveal_dark_past(doc, first)
    assert state.hero(gs_of(doc), first)["dark_past"] == "revealed"
    with pytest.raises(Invalid):
        state.reveal_dark_past(doc, first)


def test_no_dark_past_outside_corruption_stories():
    doc = started(3, "terror")
    first, second = lineup(doc)[:2]
    state.hero(gs_of(doc), first)["corruption"] = 7
    state.spend_turn(doc, first)
    state.spend_turn(doc, second)
    assert gs_of(doc)["alerts"] == []
    with pytest.raises(Invalid):
        state.reveal_dark_past(doc, first)


def test_repent_and_heal():
    doc = started()
    hid = lineup(doc)[0]
    state.take_forced(doc, hid)
    state.repent(doc, hid)
    with pytest.raises(Invalid):
        state.repent(doc, hid)
    state.take_wound(doc, hid, 1)
    state.take_wound(doc, hid, 5)
    state.heal(doc, hid, 5)
    assert state.hero(gs_of(doc), hid)["wounds"] == [1]


# -- death, replacement and the end of the game -------------------------------------------------------

def wound_to_death(doc, hid):
    killed = False
    for slot in (1, 2, 3, 4, 5):
        killed = state.take_wound(doc, hid, slot)
    return killed


def test_fifth_wound_kills_and_the_replacement_inherits_tokens():
    doc = started()
    gs = gs_of(doc)
    dead_id = lineup(doc)[1]
    dead = state.hero(gs, dead_id)
    state.spend_turn(doc, dead_id)
    state.set_city_action(doc, dead_id, True)
    state.add_upgrades(doc, dead_id, 2)
    state.add_extra_turns(doc, dead_id, 1)
    state.set_npc(doc, dead_id, "commissioner", True)
    state.add_innocents(doc, dead_id, 1)
    state.take_forced(doc, dead_id)
    assert wound_to_death(doc, dead_id) is True
    assert dead["status"] == "dead" and dead["npcs"] == [] and dead["innocents"] == 0 and dead["extra_turns"] == 0
    assert any("fell" in a["msg"] for a in gs["alerts"])
    assert [h["id"] for h in state.awaiting_replacement(gs)] == [dead_id]
    with pytest.raises(Invalid):
        state.take_wound(doc, dead_id, 6)
    new_id = state.reserve(gs)[0]["id"]
    state.replace_hero(doc, dead_id, new_id)
    new = state.hero(gs, new_id)
    assert gs["lineup"][1] == new_id
    assert (new["status"], new["controller"], new["corruption"], new["wounds"]) == ("play", dead["controller"], 1, [])
    assert (new["turns_spent"], new["city_used"], new["upgrades"], new["extra_turns"]) == (1, True, 2, 0)
    assert new["dark_past"] == "hidden" and dead["replaced_by"] == new_id
    assert doc["status"] == "playing"


def test_only_reserve_heroes_can_replace():
    doc = started()
    gs = gs_of(doc)
    dead_id, alive_id = lineup(doc)[:2]
    wound_to_death(doc, dead_id)
    with pytest.raises(Invalid):
        state.replace_hero(doc, dead_id, alive_id)
    with pytest.raises(Invalid):
        state.replace_hero(doc, alive_id, state.reserve(gs)[0]["id"])


def test_a_death_during_the_turn_means_no_reaction():
    doc = started()
    hid = lineup(doc)[0]
    state.spend_turn(doc, hid)
    wound_to_death(doc, hid)
    assert gs_of(doc)["current"] is None
    assert any("cannot react" in a["msg"] for a in gs_of(doc)["alerts"])


def test_sins_player_wins_when_a_hero_dies_with_the_reserve_empty():
    doc = started(3)  # 4 heroes in play, 3 in the reserve
    gs = gs_of(doc)
    for _ in range(3):
        dead_id = lineup(doc)[0]
        wound_to_death(doc, dead_id)
        assert doc["status"] == "playing"
        state.replace_hero(doc, dead_id, state.reserve(gs)[0]["id"])
    assert state.reserve(gs) == []
    wound_to_death(doc, lineup(doc)[0])
    assert doc["status"] == "finished"
    assert doc["result"] == {"winners": ["Sam"], "scores": []}
    assert gs["winner"] == "sins"
    with pytest.raises(Invalid):
        state.spend_turn(doc, lineup(doc)[1])


def test_heroes_win_the_story_and_a_tie_goes_to_the_heroes():
    doc = started(3)
    state.heroes_win(doc)
    assert doc["result"] == {"winners": ["Ana", "Bo"], "scores": []} and doc["status"] == "finished"
    # The last mission and the killing blow at once: the heroes still win.
    tie = started(3)
    gs = gs_of(tie)
    gs["heroes"] = [h if h["status"] == "play" else {**h, "status": "dead"} for h in gs["heroes"]]
    wound_to_death(tie, lineup(tie)[0])
    assert tie["result"]["winners"] == ["Sam"]
    state.heroes_win(tie)
    assert tie["result"]["winners"] == ["Ana", "Bo"] and gs["winner"] == "heroes"


# -- NPCs ---------------------------------------------------------------------------------------------

def test_an_npc_is_held_by_one_hero_at_a_time():
    doc = started()
    a, b = lineup(doc)[:2]
    state.set_npc(doc, a, "proxy", True)
    state.set_npc(doc, b, "proxy", True)
    gs = gs_of(doc)
    assert state.hero(gs, a)["npcs"] == [] and state.hero(gs, b)["npcs"] == ["proxy"]
    with pytest.raises(Invalid):
        state.set_npc(doc, a, "butler", True)


# -- missions -----------------------------------------------------------------------------------------

def test_mission_progress_target_and_next():
    doc = started(3)
    gs = gs_of(doc)
    assert state.mission_target(gs) == 4
    state.add_progress(doc, 1)
    state.set_target(doc, 2)
    state.next_mission(doc, "took the left branch")
    assert gs["mission"]["number"] == 2 and gs["mission"]["progress"] == 0
    assert state.mission_target(gs) == 4
    with pytest.raises(Invalid):
        state.add_mission_note(doc, "   ")
    with pytest.raises(Invalid):
        state.add_progress(doc, -1)


# -- the Apocalypse track -----------------------------------------------------------------------------

def card_levels(*marked):
    levels = state.empty_track()["levels"]
    for lvl in marked:
        levels[lvl - 1]["card"] = True
    return levels


def test_reaching_a_card_level_asks_for_a_reveal_once():
    doc = started()
    state.set_track(doc, card_levels(2, 4, 6))
    assert state.raise_apocalypse(doc, 1) == []
    assert state.raise_apocalypse(doc, 1) == [2]
    gs = gs_of(doc)
    assert gs["apocalypse"]["reveal_due"] == [2]
    state.note_card(doc, 2, "Burning Streets", "")
    assert gs["apocalypse"]["reveal_due"] == []
    state.raise_apocalypse(doc, -1)
    assert state.raise_apocalypse(doc, 1) == []  # level 2's card is already out


def test_apocalypse_never_goes_past_7_or_below_0():
    doc = started()
    for _ in range(7):
        state.raise_apocalypse(doc, 1)
    with pytest.raises(Invalid):
        state.raise_apocalypse(doc, 1)
    for _ in range(7):
        state.raise_apocalypse(doc, -1)
    with pytest.raises(Invalid):
        state.raise_apocalypse(doc, -1)


def test_track_effects_are_cumulative():
    doc = started()
    levels = card_levels()
    levels[0]["sin_dice"] = 1
    levels[2]["sin_dice"] = 2
    levels[2]["reactions"] = 1
    state.set_track(doc, levels)
    gs = gs_of(doc)
    for _ in range(3):
        state.raise_apocalypse(doc, 1)
    assert state.apocalypse_bonus(gs) == {"reactions": 1, "sin_dice": 3}


@pytest.mark.parametrize("levels, field", [
    pytest.param("nope", "track", id="not-a-list"),
    pytest.param([{}] * 6, "track", id="six-levels"),
    pytest.param([{"effect": "x" * 121}] + [{}] * 6, "effect_1", id="effect-too-long"),
    pytest.param([{"reactions": 9}] + [{}] * 6, "reactions_1", id="reactions-too-many"),
    pytest.param([{}] * 6 + [{"sin_dice": "2"}], "sin_dice_7", id="dice-as-text"),
])
def test_bad_tracks_are_refused(levels, field):
    with pytest.raises(Invalid) as err:
        state.clean_track(levels)
    assert field in err.value.as_dict()


def test_hell_club_monster_leaves_when_killed():
    doc = started()
    state.set_track(doc, card_levels(1))
    state.raise_apocalypse(doc, 1)
    state.note_card(doc, 1, "Night of the Club", "Butcher")
    state.hell_club_killed(doc, 0)
    assert gs_of(doc)["apocalypse"]["cards"][0]["gone"] is True
    with pytest.raises(Invalid):
        state.note_card(doc, 3, "Too early", "")


# -- the fight helper ---------------------------------------------------------------------------------

def test_fight_helper_rose_example_end_to_end():
    doc = started()
    gs = gs_of(doc)
    rose = lineup(doc)[0]
    state.set_stats(doc, rose, 2, 3, 1)
    state.hero(gs, rose)["corruption"] = 2
    state.start_fight(doc, rose, "fight")
    state.prepare_fight(doc, {"teammates": 1, "extra_dice": 1, "extra_defense": 1, "monsters": 5,
                              "pentagrams": 1})
    state.take_voluntary(doc, rose)
    assert state.fight_dice(gs) == (5, 6)
    state.resolve(doc, HeroRoll(hits=4, faith=1, flex_counter=1), SinRoll(hits=4, corruption=1))
    out = gs["fight"]["outcome"]
    assert (out["wounds"], out["corruption"], out["hits"], out["wounds_total"]) == (1, 0, 4, 1)
    with pytest.raises(Invalid):
        state.take_voluntary(doc, rose)  # the dice are rolled
    with pytest.raises(Invalid):
        state.apply_fight(doc, [])
    state.apply_fight(doc, [1])
    h = state.hero(gs, rose)
    assert h["wounds"] == [1] and h["corruption"] == 3 and h["pending"] is None and gs["fight"] is None


def test_fight_corruption_past_7_becomes_wounds():
    doc = started()
    gs = gs_of(doc)
    hid = lineup(doc)[0]
    state.hero(gs, hid)["corruption"] = 6
    state.set_stats(doc, hid, 2, 2, 0)
    state.start_fight(doc, hid, "fight")
    state.resolve(doc, HeroRoll(), SinRoll(hits=1, corruption=3))
    assert gs["fight"]["outcome"]["wounds_total"] == 3
    state.apply_fight(doc, [1, 2, 3])
    h = state.hero(gs, hid)
    assert h["corruption"] == 7 and h["wounds"] == [1, 2, 3]


def test_fight_that_kills_asks_only_for_the_markers_left():
    doc = started()
    gs = gs_of(doc)
    hid = lineup(doc)[0]
    for slot in (1, 2, 3):
        state.take_wound(doc, hid, slot)
    state.set_stats(doc, hid, 2, 2, 0)
    state.start_fight(doc, hid, "fight")
    state.resolve(doc, HeroRoll(), SinRoll(hits=6))
    assert gs["fight"]["outcome"]["wounds_total"] == 2
    state.apply_fight(doc, [4, 5])
    assert state.hero(gs, hid)["status"] == "dead"


def test_the_commissioner_and_the_track_count_in_the_dice():
    doc = started()
    gs = gs_of(doc)
    hid = lineup(doc)[0]
    levels = card_levels()
    levels[0]["sin_dice"] = 1
    state.set_track(doc, levels)
    state.raise_apocalypse(doc, 1)
    state.set_npc(doc, hid, "commissioner", True)
    state.set_stats(doc, hid, 3, 2, 1)
    state.start_fight(doc, hid, "fight")
    state.prepare_fight(doc, {"monsters": 2})
    assert state.fight_dice(gs) == (4, 3)
    state.start_fight(doc, hid, "crisis")
    assert state.fight_dice(gs) == (2, 0)


def test_crisis_counts_tokens_and_wounds_nothing():
    doc = started()
    gs = gs_of(doc)
    hid = lineup(doc)[0]
    state.set_stats(doc, hid, 2, 2, 0)
    state.start_fight(doc, hid, "crisis")
    state.resolve(doc, HeroRoll(skill=2, faith=1, flex_skill=1), SinRoll())
    assert gs["fight"]["outcome"]["tokens"] == 3
    state.apply_fight(doc, [])
    assert gs["fight"] is None


def test_bad_fight_inputs():
    doc = started()
    hid = lineup(doc)[0]
    with pytest.raises(Invalid):
        state.prepare_fight(doc, {"monsters": 1})  # nothing open
    state.set_stats(doc, hid, 2, 2, 1)
    state.start_fight(doc, hid, "fight")
    with pytest.raises(Invalid) as err:
        state.prepare_fight(doc, {"monsters": 41, "pentagrams": -1})
    assert set(err.value.as_dict()) == {"monsters", "pentagrams"}
    with pytest.raises(Invalid):
        state.start_fight(doc, hid, "duel")


# -- invariants ---------------------------------------------------------------------------------------

ACTIONS = st.lists(st.tuples(st.sampled_from(["forced", "voluntary", "wound", "heal", "repent", "replace",
                                              "turn", "end"]),
                             st.integers(0, 3), st.integers(1, 7)), max_size=60)


@settings(max_examples=60, deadline=None)
@given(ACTIONS)
def test_any_sequence_keeps_the_table_consistent(actions):
    doc = started(3)
    gs = gs_of(doc)
    for name, who, slot in actions:
        if doc["status"] == "finished":
            break
        hid = gs["lineup"][who]
        try:
            if name == "forced":
                state.take_forced(doc, hid, slot)
            elif name == "voluntary":
                state.take_voluntary(doc, hid)
                state.roll_done(doc, hid)
            elif name == "wound":
                state.take_wound(doc, hid, slot)
            elif name == "heal":
                state.heal(doc, hid, slot)
            elif name == "repent":
                state.repent(doc, hid)
            elif name == "replace" and state.reserve(gs):
                state.replace_hero(doc, hid, state.reserve(gs)[0]["id"])
            elif name == "turn":
                state.spend_turn(doc, hid)
            elif name == "end":
                state.end_round(doc)
        except Invalid:
            pass
        assert len(gs["lineup"]) == 4 and len(set(gs["lineup"])) == 4
        for h in gs["heroes"]:
            assert 1 <= h["corruption"] <= 7
            assert len(set(h["wounds"])) == len(h["wounds"])
            assert (len(h["wounds"]) >= 5) == (h["status"] == "dead")
            assert 0 <= h["turns_spent"] <= 2
        dead = sum(1 for h in gs["heroes"] if h["status"] == "dead")
        assert dead + len(state.reserve(gs)) + len(state.alive(gs)) == 7
    if doc["status"] == "finished":
        assert gs["winner"] == "sins" and state.unreplaceable(gs)
