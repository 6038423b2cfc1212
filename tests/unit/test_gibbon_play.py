"""Sinful Gibbon's table document: rounds, corrections, the seat swap, jobs and the end of the game."""
from __future__ import annotations

import random

import pytest

from companion.domain import Invalid
from companion.games.gibbon import play
from companion.games.gibbon.rules import Tally

NAMES = ("Ana", "Bo", "Cy", "Di")
BIG = Tally(low=30, high=15, cheats=5, hearts=10)  # 900 points of Pride, Sloth and Lust
QUIET = Tally()


def new_doc(names=NAMES) -> dict:
    players = [{"id": i + 1, "name": n, "colour": None} for i, n in enumerate(names)]
    return {"name": "t", "status": "setup", "result": None,
            "state": {"players": players, "game": play.new_state(players)}}


def started(dealer=1, bookkeeper=2, names=NAMES) -> dict:
    doc = new_doc(names)
    play.start(doc["state"], dealer, bookkeeper)
    doc["status"] = "playing"
    return doc


def tallies(doc, **by_name) -> dict[int, Tally]:
    ids = {p["name"]: p["id"] for p in doc["state"]["players"]}
    return {pid: by_name.get(name, QUIET) for name, pid in ids.items()}


def order(doc) -> list[str]:
    return [p["name"] for p in doc["state"]["players"]]


def record(doc, n=None, **by_name):
    play.record_round(doc, n or len(doc["state"]["game"]["rounds"]) + 1, tallies(doc, **by_name))


def test_start_picks_a_random_dealer_when_none_is_chosen_and_the_dealer_keeps_the_books():
    doc = new_doc()
    play.start(doc["state"], None, None, rng=random.Random(3))
    gs = doc["state"]["game"]
    assert gs["dealer"] in (1, 2, 3, 4) and gs["bookkeeper"] == gs["dealer"]


def test_start_refuses_a_stranger():
    with pytest.raises(Invalid) as err:
        play.start(new_doc()["state"], 9, None)
    assert "dealer" in err.value.as_dict()


def test_a_round_cannot_be_counted_before_a_dealer_is_chosen():
    with pytest.raises(Invalid):
        record(new_doc())


def test_recording_a_round_stores_inputs_and_the_jobs_it_was_played_with():
    doc = started(dealer=4, bookkeeper=2)
    record(doc, Ana=Tally(low=2))
    rnd = doc["state"]["game"]["rounds"][0]
    assert (rnd["dealer"], rnd["bookkeeper"], rnd["starter"]) == (4, 2, 1)
    assert rnd["seats"] == [1, 2, 3, 4] and rnd["tallies"]["1"]["low"] == 2 and rnd["swap"] is None
    assert play.totals(doc["state"]) == {1: 20, 2: 0, 3: 0, 4: 0}
    assert doc["status"] == "playing" and doc["result"] is None


def test_the_same_round_cannot_be_counted_twice():
    doc = started()
    record(doc, 1)
    play.swap(doc["state"], 1, None)
    with pytest.raises(Invalid) as err:
        record(doc, 1)
    assert "already counted" in err.value.as_dict()["round"][0]


def test_the_next_round_waits_for_the_seat_swap():
    doc = started()
    record(doc)
    with pytest.raises(Invalid) as err:
        record(doc)
    assert "seat swap" in err.value.as_dict()["round"][0]


def test_a_round_must_cover_every_player():
    doc = started()
    with pytest.raises(Invalid):
        play.record_round(doc, 1, {1: QUIET, 2: QUIET, 3: QUIET})


def test_the_swap_updates_the_seat_order_and_the_next_jobs():
    doc = started(dealer=1, bookkeeper=2)
    record(doc)  # dealt by Ana (seat 1), books by Bo (seat 2)
    play.swap(doc["state"], 2, 3)  # Bo and Cy swap
    assert order(doc) == ["Ana", "Cy", "Bo", "Di"]
    jobs = play.upcoming_jobs(doc["state"])
    # The dealer's job moves to seat 2 (now Cy's), the books to seat 3 (now Bo's); left of Cy is Bo.
    assert (jobs.dealer, jobs.bookkeeper, jobs.starter) == (3, 2, 2)
    assert doc["state"]["game"]["rounds"][0]["swap"] == {"chooser": 2, "partner": 3}


def test_the_braveheart_chooses_the_swap_and_starts():
    doc = started()
    record(doc, Cy=Tally(braveheart=True))
    assert play.swap_chooser(doc["state"]) == 3
    with pytest.raises(Invalid) as err:
        play.swap(doc["state"], 1, 2)
    assert "Braveheart" in err.value.as_dict()["chooser"][0]
    play.swap(doc["state"], 3, 1)
    assert order(doc) == ["Cy", "Bo", "Ana", "Di"]
    assert play.upcoming_jobs(doc["state"]).starter == 3


@pytest.mark.parametrize("chooser, partner, field", [
    pytest.param(1, 1, "partner", id="with-oneself"),
    pytest.param(1, 9, "partner", id="with-a-stranger"),
    pytest.param(9, 1, "chooser", id="by-a-stranger"),
])
def test_bad_swaps_are_refused(chooser, partner, field):
    doc = started()
    record(doc)
    with pytest.raises(Invalid) as err:
        play.swap(doc["state"], chooser, partner)
    assert field in err.value.as_dict()


def test_keeping_the_seats_is_a_recorded_swap():
    doc = started()
    record(doc)
    play.swap(doc["state"], 4, None)
    assert order(doc) == list(NAMES) and not play.swap_pending(doc["state"])


def test_no_swap_without_a_counted_round():
    with pytest.raises(Invalid):
        play.swap(started()["state"], 1, 2)


def play_rounds(doc, rounds):
    for i, by_name in enumerate(rounds):
        if i:
            play.swap(doc["state"], 1, None)
        record(doc, **by_name)


def test_the_game_ends_after_the_round_in_which_someone_reaches_1000():
    doc = started()
    play_rounds(doc, [{"Bo": BIG, "Cy": Tally(low=2)}, {"Bo": Tally(low=10), "Di": Tally(high=1)}])
    assert play.totals(doc["state"]) == {1: 0, 2: 1000, 3: 20, 4: 20}
    assert doc["status"] == "finished"
    assert doc["result"] == {"winners": ["Ana"], "scores": [
        {"name": "Ana", "points": 0}, {"name": "Cy", "points": 20}, {"name": "Di", "points": 20},
        {"name": "Bo", "points": 1000}]}
    assert not play.swap_pending(doc["state"])
    with pytest.raises(Invalid):
        record(doc)


def test_a_shared_least_total_shares_the_win():
    doc = started()
    play_rounds(doc, [{"Bo": BIG, "Cy": BIG}, {"Bo": Tally(low=10), "Cy": Tally(low=20)}])
    assert doc["result"]["winners"] == ["Ana", "Di"]


def test_editing_a_past_round_recomputes_every_later_total():
    doc = started()
    play_rounds(doc, [{"Ana": Tally(low=3)}, {"Ana": Tally(low=1)}, {"Bo": Tally(high=2)}])
    assert play.totals(doc["state"])[1] == 40
    play.edit_round(doc, 1, tallies(doc, Ana=Tally(low=1, cheats=1), Di=Tally(hat=True)))
    found = play.scores(doc["state"])
    assert [s.totals[1] for s in found] == [30, 40, 40]
    assert [s.totals[4] for s in found] == [50, 50, 50]
    assert doc["state"]["game"]["rounds"][0]["seats"] == [1, 2, 3, 4]


def test_an_edit_can_end_the_game_on_the_last_round_and_another_can_reopen_it():
    doc = started()
    play_rounds(doc, [{"Bo": BIG}, {"Bo": Tally(low=9)}])
    assert doc["status"] == "playing"
    play.edit_round(doc, 2, tallies(doc, Bo=Tally(low=10)))
    assert doc["status"] == "finished" and doc["result"]["winners"] == ["Ana", "Cy", "Di"]
    play.edit_round(doc, 1, tallies(doc, Bo=Tally(low=1)))
    assert doc["status"] == "playing" and doc["result"] is None
    assert play.swap_pending(doc["state"])


def test_an_edit_that_would_have_ended_the_game_earlier_is_refused():
    doc = started()
    play_rounds(doc, [{"Bo": BIG}, {"Bo": Tally(low=5)}, {"Cy": Tally(low=1)}])
    with pytest.raises(Invalid) as err:
        play.edit_round(doc, 2, tallies(doc, Bo=Tally(low=10)))
    msg = err.value.as_dict()["round"][0]
    assert "Bo would reach 1000 after round 2" in msg and "yet a later round is counted" in msg  # one round: no "1 later rounds"


def test_there_is_no_round_zero_to_edit():
    doc = started()
    record(doc)
    for n in (0, 2):
        with pytest.raises(Invalid):
            play.edit_round(doc, n, tallies(doc))


def test_removing_the_last_round_takes_back_its_swap():
    doc = started()
    record(doc, Ana=Tally(low=1))
    play.swap(doc["state"], 1, 4)
    assert order(doc) == ["Di", "Bo", "Cy", "Ana"]
    with pytest.raises(Invalid):
        play.remove_last_round(doc, 2)
    play.remove_last_round(doc, 1)
    assert order(doc) == list(NAMES)
    assert doc["state"]["game"]["rounds"] == [] and play.totals(doc["state"])[1] == 0


def test_removing_the_final_round_reopens_the_game():
    doc = started()
    play_rounds(doc, [{"Bo": BIG}, {"Bo": Tally(low=10)}])
    play.remove_last_round(doc, 2)
    assert doc["status"] == "playing" and doc["result"] is None and play.swap_pending(doc["state"]) is False


def test_players_can_join_or_leave_only_before_the_first_round():
    doc = started(dealer=4, bookkeeper=3)
    doc["state"]["players"].pop()  # Di leaves: her job is cleared
    play.players_changed(doc["state"])
    assert doc["state"]["game"]["dealer"] is None and doc["state"]["game"]["bookkeeper"] is None
    doc = started()
    record(doc)
    with pytest.raises(Invalid):
        play.players_changed(doc["state"])


def test_the_checklist_ticks_and_unticks_in_its_own_order():
    state = new_doc()["state"]
    play.tick(state, "hat", True)
    play.tick(state, "deck", True)
    assert state["game"]["checklist"] == ["deck", "hat"]
    play.tick(state, "deck", False)
    assert state["game"]["checklist"] == ["hat"]
    with pytest.raises(Invalid):
        play.tick(state, "nonsense", True)


def test_standings_share_places_on_ties():
    doc = started()
    record(doc, Ana=Tally(low=3), Bo=Tally(low=1), Cy=Tally(low=1))
    assert [(s.name, s.place) for s in play.standings(doc["state"])] == [
        ("Di", 1), ("Bo", 2), ("Cy", 2), ("Ana", 4)]
