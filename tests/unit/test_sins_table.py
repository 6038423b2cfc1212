"""7 - The Sins at one table: the game state and every change to it, without Flask."""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.domain import Invalid
from companion.games.sins import checks, rules, table

SIX = ["superbia", "luxuria", "invidia", "ira", "acedia", "gula"]


def label(sin):
    return rules.SIN_NAMES[sin]


def new_doc(n=4, sins=None, penitenziagite=False):
    players = [{"id": i + 1, "name": name, "colour": None} for i, name in enumerate(["Ana", "Bo", "Cy", "Di", "Eve"][:n])]
    doc = {"name": "t", "status": "setup", "state": {"players": players, "game": table.new_state(players)}, "result": None}
    if sins:
        table.choose_sins(doc["state"], sins)
    table.set_penitenziagite(doc["state"], penitenziagite)
    return doc


def problems(err: Invalid) -> dict[str, list[str]]:
    return err.value.as_dict()


# -- setup -----------------------------------------------------------------------------------------

def test_an_older_document_gets_every_part_of_the_game_state():
    state = {"players": [{"id": 1, "name": "Ana"}, {"id": 2, "name": "Bo"}], "game": {}}
    gs = table.ensure(state)
    assert gs["first"] == 1 and gs["score"]["mode"] == "detailed" and gs["judgments"] == 0


@pytest.mark.parametrize("picked, message", [
    pytest.param(SIX[:5], "With %(players)d players, pick exactly %(n)d sin types (%(picked)d picked).", id="too-few"),
    pytest.param(SIX + ["avaritia"], "With %(players)d players, pick exactly %(n)d sin types (%(picked)d picked).", id="too-many"),
    pytest.param(SIX[:5] + ["pride"], "Pick sin types from the list.", id="unknown"),
])
def test_choosing_sin_types_needs_exactly_the_count_for_the_table(picked, message):
    doc = new_doc()
    with pytest.raises(Invalid) as err:
        table.choose_sins(doc["state"], picked)
    assert err.value.problems[0].message == message
    assert doc["state"]["game"]["sins"] == []


def test_chosen_types_are_kept_in_rulebook_order_and_duplicates_collapse():
    doc = new_doc(2)
    assert table.choose_sins(doc["state"], ["gula", "ira", "ira", "superbia", "luxuria"]) == ("superbia", "luxuria", "ira", "gula")


def test_a_type_with_counted_cards_cannot_be_dropped_and_no_redraw_after_counting():
    doc = new_doc(sins=SIX)
    state = doc["state"]
    table.save_reserve(state, 2, {"gula": "2"}, "0", label)
    with pytest.raises(Invalid):
        table.choose_sins(state, ["superbia", "luxuria", "invidia", "ira", "acedia", "avaritia"])
    with pytest.raises(Invalid):
        table.draw_sins(state, random.Random(1))
    table.choose_sins(state, ["avaritia", "luxuria", "invidia", "ira", "acedia", "gula"])
    assert "gula" in state["game"]["sins"]


def test_ticking_keeps_the_steps_in_order_and_refuses_unknown_steps():
    doc = new_doc()
    state = doc["state"]
    table.tick(state, "E", True)
    table.tick(state, "A", True)
    assert state["game"]["done"] == ["A", "E"]
    table.tick(state, "A", False)
    assert state["game"]["done"] == ["E"]
    with pytest.raises(Invalid):
        table.tick(state, "Q", True)


def test_a_player_leaving_during_setup_takes_their_entries_along():
    doc = new_doc(sins=SIX)
    state = doc["state"]
    table.set_first(state, 1)
    table.take_stone(state, 1, 1)
    table.save_reserve(state, 1, {"ira": "2"}, "1", label)
    state["players"] = [p for p in state["players"] if p["id"] != 1]
    table.players_changed(state)
    gs = state["game"]
    assert gs["first"] == 2 and gs["turn"] == 2
    assert gs["stones"] == {} and gs["score"]["reserves"] == {}


def test_the_game_starts_only_with_the_sin_types_chosen():
    doc = new_doc()
    with pytest.raises(Invalid):
        table.start(doc["state"])
    table.choose_sins(doc["state"], SIX)
    table.set_first(doc["state"], 3)
    table.start(doc["state"])
    assert doc["state"]["game"]["turn"] == 3


# -- play ------------------------------------------------------------------------------------------

def test_turns_wrap_around_from_the_first_player():
    doc = new_doc(sins=SIX)
    state = doc["state"]
    table.set_first(state, 3)
    assert [table.next_turn(state) for _ in range(4)] == [4, 1, 2, 3]


def test_the_third_last_judgment_ends_a_standard_game_at_once():
    doc = new_doc(sins=SIX)
    state = doc["state"]
    for n in (1, 2, 3):
        assert table.add_judgment(state, 1) == n
    assert table.ending_of(state).over
    with pytest.raises(Invalid):
        table.next_turn(state)
    with pytest.raises(Invalid):
        table.add_judgment(state, 1)
    table.add_judgment(state, -1)
    assert table.ending_of(state) is None and state["game"]["third_on"] is None


def test_penitenziagite_plays_out_the_round_then_stops():
    doc = new_doc(sins=SIX, penitenziagite=True)
    state = doc["state"]
    table.next_turn(state)  # Bo plays
    for _ in range(3):
        table.add_judgment(state, 1)
    assert state["game"]["third_on"] == 2
    assert table.ending_of(state).still_to_play == (3, 4)
    table.next_turn(state)
    assert table.ending_of(state).still_to_play == (3, 4)
    table.next_turn(state)
    assert table.ending_of(state).still_to_play == (4,)
    table.next_turn(state)
    assert table.ending_of(state).over
    with pytest.raises(Invalid):
        table.next_turn(state)


def test_the_stone_supply_runs_out():
    doc = new_doc(2, sins=["ira", "gula", "acedia", "superbia"])
    state = doc["state"]
    for _ in range(4):
        table.take_stone(state, 1, 1)
    assert table.supply(state) == 0
    with pytest.raises(Invalid):
        table.take_stone(state, 2, 1)
    with pytest.raises(Invalid):
        table.take_stone(state, 2, -1)
    with pytest.raises(Invalid):
        table.take_stone(state, 9, 1)


# -- scoring ---------------------------------------------------------------------------------------

def test_reading_a_reserve_reports_each_box():
    doc = new_doc(sins=SIX)
    with pytest.raises(Invalid) as err:
        table.save_reserve(doc["state"], 2, {"ira": "-1", "gula": "x", "acedia": "12", "luxuria": "3"}, "9", label)
    found = problems(err)
    assert set(found) == {"ira", "gula", "acedia", "stones"}


def test_an_empty_box_counts_as_zero():
    doc = new_doc(sins=SIX)
    assert table.save_reserve(doc["state"], 2, {"ira": "", "gula": " 2 "}, "", label) == {"gula": 2}


def test_cards_across_the_table_cannot_pass_eleven_of_a_type():
    doc = new_doc(sins=SIX)
    state = doc["state"]
    table.save_abyss(state, {"ira": "5"}, label)
    table.save_reserve(state, 1, {"ira": "6"}, "0", label)
    with pytest.raises(Invalid) as err:
        table.save_reserve(state, 2, {"ira": "1"}, "0", label)
    assert "ira" in problems(err)
    # Correcting the same reserve does not count its old numbers twice.
    table.save_reserve(state, 1, {"ira": "6"}, "0", label)
    with pytest.raises(Invalid):
        table.save_abyss(state, {"ira": "6"}, label)


def test_the_score_waits_for_everyone_then_ranks_them():
    doc = new_doc(sins=SIX)
    state = doc["state"]
    ts = table.table_score(state)
    assert ts.missing == (1, 2, 3, 4) and not ts.complete
    table.save_abyss(state, {"invidia": "6", "gula": "2", "acedia": "1", "ira": "1"}, label)
    table.save_reserve(state, 1, {"invidia": "2", "acedia": "4", "luxuria": "3", "ira": "1"}, "2", label)
    for pid in (2, 3, 4):
        table.save_reserve(state, pid, {"superbia": "1"}, "0", label)
    ts = table.table_score(state)
    assert ts.complete and ts.abyss_points == -1 and ts.most_points_wins is False
    assert ts.winners == ["Ana"]
    table.place_stones(state, 1, ["ira", "invidia"], label)
    assert table.table_score(state).winners == ["Bo", "Cy", "Di"]
    table.best_stones(state, 1)
    assert table.table_score(state).winners == ["Ana"]


def test_finishing_records_the_result_and_corrections_follow_it():
    doc = new_doc(2, sins=["ira", "gula", "acedia", "superbia"])
    state = doc["state"]
    with pytest.raises(Invalid):
        table.finish(doc)
    table.save_reserve(state, 1, {"ira": "3"}, "0", label)
    table.save_reserve(state, 2, {"gula": "1"}, "0", label)
    with pytest.raises(Invalid) as err:
        table.finish(doc)
    assert err.value.problems[0].message == "Count the Abyss of Souls first."
    table.save_abyss_total(state, "8")
    table.finish(doc)
    assert doc["status"] == "finished"
    assert doc["result"] == {"winners": ["Ana"], "scores": [{"name": "Ana", "points": 6}, {"name": "Bo", "points": 1}]}
    table.save_reserve(state, 2, {"gula": "7"}, "0", label)
    table.refresh_result(doc)
    assert doc["result"]["winners"] == ["Bo"]


def test_the_quick_path_needs_a_direction_or_an_abyss():
    doc = new_doc(2, sins=["ira", "gula", "acedia", "superbia"])
    state = doc["state"]
    table.set_mode(state, "quick")
    table.save_quick(state, 1, "5", "6", "3")
    table.save_quick(state, 2, "5", "7", "2")
    assert not table.table_score(state).complete
    assert table.finish_problems(state)[0].message.startswith("Say whether")
    table.set_direction(state, False)
    ts = table.table_score(state)
    assert ts.winners == ["Bo"] and ts.decided_by == "cards"
    with pytest.raises(Invalid):
        table.set_mode(state, "fast")


def test_a_placement_needs_the_reserve_first_and_must_be_legal():
    doc = new_doc(sins=SIX)
    state = doc["state"]
    with pytest.raises(Invalid):
        table.place_stones(state, 1, ["ira"], label)
    table.save_reserve(state, 1, {"ira": "2", "gula": "1"}, "1", label)
    with pytest.raises(Invalid) as err:
        table.place_stones(state, 1, ["acedia"], label)
    assert "Acedia" in err.value.problems[0].text()


def test_giving_back_a_stone_drops_a_placement_that_no_longer_fits():
    doc = new_doc(sins=SIX)
    state = doc["state"]
    table.save_reserve(state, 1, {"ira": "2", "gula": "1"}, "2", label)
    table.place_stones(state, 1, ["ira", "gula"], label)
    table.take_stone(state, 1, -1)
    assert "1" not in state["game"]["score"]["stones_on"]


reserve_counts = st.dictionaries(st.sampled_from(SIX), st.integers(0, 2), max_size=6)


@settings(max_examples=100, deadline=None)
@given(reserves=st.lists(reserve_counts, min_size=4, max_size=4), stones=st.lists(st.integers(0, 2), min_size=4, max_size=4),
       abyss=reserve_counts)
def test_the_table_score_agrees_with_the_api(reserves, stones, abyss):
    doc = new_doc(sins=SIX)
    state = doc["state"]
    table.save_abyss(state, {s: str(n) for s, n in abyss.items()}, label)
    for pid, (reserve, held) in enumerate(zip(reserves, stones), start=1):
        table.save_reserve(state, pid, {s: str(n) for s, n in reserve.items()}, str(held), label)
    ts = table.table_score(state)
    body = {"players": [{"name": p["name"], "reserve": r, "stones": h} for p, r, h in zip(state["players"], reserves, stones)],
            "abyss": abyss}
    answer = checks.score_response(checks.read_score_request(body))
    assert [p.points for p in ts.game.players] == [p["points"] for p in answer["players"]]
    assert ts.winners == answer["winners"]
    table.finish(doc)
    assert doc["result"]["winners"] == answer["winners"]
    points = [s["points"] for s in doc["result"]["scores"]]
    assert points == sorted(points, reverse=answer["most_points_wins"])


# -- Penitenziagite: the third Last Judgment belongs to the turn it came out on ---------------------

def _penitenziagite_at(first: int, revealer_index: int):
    """A 4-player Penitenziagite table, first player `first`, with the tracker on the revealer."""
    doc = new_doc(sins=SIX, penitenziagite=True)
    state = doc["state"]
    table.set_first(state, first)
    seq = table.order(state)
    for _ in range(4 + revealer_index):  # a whole round, then on to the revealer
        table.next_turn(state)
    for _ in range(2):
        table.add_judgment(state, 1)
    assert state["game"]["turn"] == seq[revealer_index]
    return state, seq


@pytest.mark.parametrize("first", [1, 3])
@pytest.mark.parametrize("seat", range(4))
@pytest.mark.parametrize("taps", ["card-then-done", "done-then-card"])
def test_the_third_last_judgment_ends_on_the_same_turn_whatever_is_tapped_first(first, seat, taps):
    state, seq = _penitenziagite_at(first, seat)
    revealer = seq[seat]
    if taps == "card-then-done":
        table.add_judgment(state, 1, on=revealer)
        if seat < 3:
            table.next_turn(state)  # the revealer is done
    else:
        if seat < 3:
            table.next_turn(state)  # "done" tapped first: the tracker already shows the next player
            assert table.judgment_choices(state) == (seq[seat + 1], revealer)
            table.add_judgment(state, 1, on=table.previous_player(state))
        else:
            # the last in the round tapped "done": the tracker wrapped round to the first player
            table.next_turn(state)
            assert state["game"]["turn"] == seq[0]
            table.add_judgment(state, 1, on=table.previous_player(state))
    assert state["game"]["third_on"] == revealer
    end = table.ending_of(state)
    # The rule: turns go on until the player to the left of the first (last in the round) is done;
    # if that player revealed it, the game ends at once.
    assert end.still_to_play == tuple(seq[seat + 1:])
    assert end.over == (seat == 3)
    for _ in end.still_to_play:
        table.next_turn(state)
    assert table.ending_of(state).over
    with pytest.raises(Invalid):
        table.next_turn(state)


def test_the_third_last_judgment_cannot_be_tied_to_a_player_who_did_not_just_play():
    state, seq = _penitenziagite_at(1, 1)
    with pytest.raises(Invalid):
        table.add_judgment(state, 1, on=seq[3])
    assert state["game"]["judgments"] == 2
    with pytest.raises(Invalid):  # only the third card is tied to a turn
        table.add_judgment(state, -1, on=seq[1])


# -- warnings and the Penitenziagite reading --------------------------------------------------------

def test_count_warnings_name_an_empty_reserve_and_stones_above_the_abyss():
    found = checks.count_warnings([("r.1", "Ana", {"ira": 1}), ("r.2", "Bo", {})], 3, {"ira": 1, "gula": 1})
    assert [(w.field, w.params) for w in found] == [("r.2", {"name": "Bo"}), ("abyss", {"stones": 3, "cards": 2})]
    assert checks.count_warnings([("r.1", "Ana", {"ira": 1})], 2, {"ira": 2}) == []
    assert checks.count_warnings([("r.1", "Ana", {"ira": 1})], 5, None) == []  # Abyss known only as points


@given(st.lists(st.integers(0, 3), min_size=2, max_size=5), st.integers(0, 10), st.integers(0, 10))
def test_warnings_never_stop_a_score(cards, stones, abyss_cards):
    reserves = [(f"r.{i}", f"P{i}", {"ira": n} if n else {}) for i, n in enumerate(cards)]
    found = checks.count_warnings(reserves, stones, {"gula": abyss_cards} if abyss_cards else {})
    assert len([w for w in found if w.field != "abyss"]) == cards.count(0)
    assert any(w.field == "abyss" for w in found) == (stones > abyss_cards)


def test_a_penitenziagite_card_counts_as_a_twelfth_card_of_its_sin():
    assert rules.cards_of_a_type() == 11 and rules.cards_of_a_type(penitenziagite=True) == 12
    doc = new_doc(sins=SIX, penitenziagite=True)
    assert table.save_reserve(doc["state"], 1, {"invidia": "12"}, "0", label) == {"invidia": 12}
    with pytest.raises(Invalid) as err:
        table.save_reserve(doc["state"], 2, {"invidia": "1"}, "0", label)
    assert "Penitenziagite" in str(err.value)
    plain = new_doc(sins=SIX)
    with pytest.raises(Invalid):
        table.save_reserve(plain["state"], 1, {"invidia": "12"}, "0", label)


# -- correcting whose turn the third Last Judgment came on (issue 28) ------------------------------
# Penitenziagite: turns go on after the third card until the player left of the first (last in the
# round) has finished hers. A correction changes whose turn the card came on, never the turns the
# table already played: whoever tapped "done" since the card has played their last turn.

def _third_recorded(on_seat: int, done_after: int, before: bool = False):
    """Ana first (seats 1-4, all in play order): the third card tied to seat `on_seat` (0-based),
    then `done_after` players tap done. `before`: "done" was tapped first, then the card tied to the
    player before the tracker."""
    doc = new_doc(sins=SIX, penitenziagite=True)
    state = doc["state"]
    seq = table.order(state)
    for _ in range(on_seat + (1 if before else 0)):
        table.next_turn(state)
    for _ in range(2):
        table.add_judgment(state, 1)
    table.add_judgment(state, 1, on=seq[on_seat])
    for _ in range(done_after):
        table.next_turn(state)
    return state, seq


@pytest.mark.parametrize("on_seat, done_after, before, true_seat, still", [
    # Bo's card, Bo done (Cy playing): it was Ana's card. Bo has played since: Cy and Di are left.
    pytest.param(1, 1, False, 0, ("Cy", "Di"), id="earlier-turn-one-done"),
    # Bo's card, Bo and Cy done (Di playing): it was Ana's. Only Di is left.
    pytest.param(1, 2, False, 0, ("Di",), id="earlier-turn-two-done"),
    # Bo's card, Bo done (Cy playing): it was Cy's, the player now at the table. Di is left.
    pytest.param(1, 1, False, 2, ("Di",), id="the-player-now"),
    # Bo's card, nobody done yet: it was Cy's (Bo forgot "done"). Di is left; the tracker moves to Cy.
    pytest.param(1, 0, False, 2, ("Di",), id="the-tracker-lagged"),
    # Bo's card, Bo, Cy and Di done: the round is over whatever turn it came on.
    pytest.param(1, 3, False, 0, (), id="round-finished"),
    # Di tapped done before the card was tied to her (the tracker went round to Ana): it was Cy's.
    # Di has finished since, so nobody plays.
    pytest.param(3, 0, True, 2, (), id="after-the-last-went-round"),
    # The same, and the correction says Ana's turn: Bo, Cy, Di all played since. Over.
    pytest.param(3, 0, True, 0, (), id="after-the-last-went-round-first"),
])
def test_correcting_the_third_cards_turn_lists_only_players_who_have_not_played_since(
        on_seat, done_after, before, true_seat, still):
    state, seq = _third_recorded(on_seat, done_after, before)
    names = {p["id"]: p["name"] for p in state["players"]}
    table.set_third_on(state, seq[true_seat])
    end = table.ending_of(state)
    assert state["game"]["third_on"] == seq[true_seat]
    assert tuple(names[p] for p in end.still_to_play) == still
    assert end.over == (not still)
    # Play the rest out: exactly those players take a turn (the one playing now first), then it is over.
    gs = state["game"]
    played = [gs["turn"]] if gs["turn"] in end.still_to_play else []
    for _ in range(len(seq)):
        if table.ending_of(state).over:
            break
        table.next_turn(state)
        if not gs["round_done"]:
            played.append(gs["turn"])
    assert tuple(names[p] for p in played) == still
    assert table.ending_of(state).over
    with pytest.raises(Invalid):
        table.next_turn(state)


def test_ending_treats_a_tracker_that_went_round_as_a_finished_round():
    """rules.ending: the tracker shows a player before the one the card came on only when it went
    round past the last player of the round, who has therefore finished."""
    end = rules.ending([1, 2, 3, 4], 1, 3, True, current=1)
    assert end.over and end.still_to_play == ()
