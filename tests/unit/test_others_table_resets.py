"""The Others: rule bugs the state model found (issue 28). A track changed under spent Reaction tokens,
and a table set back to setup and started again."""
from __future__ import annotations

from companion.games.others import rules as orules
from companion.games.others import state
from tests.unit.test_shapes_fivesails_others import _hero_in_play, check, document


def _set_up(doc, reactions_at_1=2):
    state.set_roles(doc, 2)
    state.set_roles(doc, 1)
    state.set_sin(doc, "Pride", "Corrupted Nuns")
    state.set_story(doc, "The Fall", "corruption", "Old town")
    state.set_team(doc, [{"id": hid, "name": f"Hero {hid}", "controller": {1: 2, 3: 3, 4: 4}.get(hid)}
                         for hid in range(1, orules.TEAM_SIZE + 1)])
    for step in state.SETUP_STEPS:
        state.tick_setup(doc, step, True)
    state.set_track(doc, _levels(reactions_at_1))


def _levels(reactions_at_1):
    return [{"card": False, "effect": "", "reactions": reactions_at_1 if lvl == 1 else 0, "sin_dice": 0}
            for lvl in state.TRACK_LEVELS]


def test_a_track_granting_fewer_reactions_lowers_the_spent_tokens_to_the_new_total():
    """Sin Reactions (p. 16): the round's tokens are the Hero Number plus what the Apocalypse track
    grants at or below its level (p. 23). Correcting the track to grant fewer leaves no more spent
    than there are tokens."""
    doc = document("others", 4)
    gs = doc["state"]["game"]
    _set_up(doc, reactions_at_1=2)
    state.start_game(doc)
    state.raise_apocalypse(doc, 1)
    total = state.reactions_total(gs)
    gs["reactions"]["spent"] = total  # every token spent, one per hero turn, over the round
    check(doc, "others")
    state.set_track(doc, _levels(0))
    assert gs["reactions"]["spent"] == state.reactions_total(gs) == total - 2
    check(doc, "others")


def test_starting_again_after_the_table_was_set_back_to_setup_clears_the_winner_and_the_fight():
    """Final Preparations (p. 11) start a new game: a winner or an open fight left from before the
    table went back to setup is not part of it."""
    doc = document("others", 4)
    gs = doc["state"]["game"]
    _set_up(doc)
    state.start_game(doc)
    hid = _hero_in_play(doc)
    state.set_stats(doc, hid, 3, 2, 1)
    state.start_fight(doc, hid, state.FIGHT)
    state.heroes_win(doc)
    assert gs["winner"] == "heroes"
    doc["status"] = "setup"  # the table's status form allows it
    state.start_game(doc)
    assert (gs["winner"], gs["win_reason"], gs["fight"]) == (None, None, None)
    check(doc, "others")
