"""7 - The Sins: the points table, the Abyss, Stones of Forgiveness, the ranking and the setup numbers."""
from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.sins import rules
from companion.games.sins.rules import SINS

# -- the points table ------------------------------------------------------------------------------


@pytest.mark.parametrize("cards, points", [
    pytest.param(0, 0, id="none"),
    pytest.param(1, 1, id="one"),
    pytest.param(2, 3, id="two"),
    pytest.param(3, 6, id="three"),
    pytest.param(4, -1, id="four"),
    pytest.param(5, -3, id="five"),
    pytest.param(6, -6, id="six"),
    pytest.param(7, 10, id="seven"),
    pytest.param(8, 10, id="eight"),
    pytest.param(11, 10, id="all-eleven"),
    pytest.param(12, 10, id="eleven-plus-a-stone"),
])
def test_points_table(cards, points):
    assert rules.points_for(cards) == points


def test_a_negative_count_is_refused():
    with pytest.raises(ValueError):
        rules.points_for(-1)


# -- the rulebook's points calculation example -----------------------------------------------------

ABYSS_EXAMPLE = {"invidia": 6, "gula": 2, "acedia": 1, "ira": 1}
MARGHERITA = {"invidia": 2, "acedia": 4, "luxuria": 3, "ira": 1}


def test_example_a_abyss_scores_minus_one_so_fewest_points_win():
    assert rules.abyss_points(ABYSS_EXAMPLE) == -6 + 3 + 1 + 1 == -1
    assert rules.most_points_wins(-1) is False


@pytest.mark.parametrize("most_wins, stones_on, by_type, points", [
    pytest.param(False, ("acedia", "luxuria"), {"invidia": 3, "acedia": -3, "luxuria": -1, "ira": 1}, 0,
                 id="example-b-fewest-wins-zero"),
    pytest.param(True, ("invidia", "ira"), {"invidia": 6, "acedia": -1, "luxuria": 6, "ira": 3}, 14,
                 id="example-c-most-wins-fourteen"),
])
def test_margherita_places_her_two_stones_as_the_rulebook_shows(most_wins, stones_on, by_type, points):
    score = rules.score_player("Margherita", MARGHERITA, 2, most_wins)
    assert score.stones_on == stones_on
    assert dict(score.by_type) == by_type
    assert score.points == points
    assert (score.cards, score.types) == (10, 4)
    assert not score.chosen


def test_margherita_in_the_example_table_wins_alone():
    game = rules.score_game([("Margherita", MARGHERITA, 2, None)], ABYSS_EXAMPLE)
    assert (game.abyss_points, game.most_points_wins, game.winners) == (-1, False, ["Margherita"])


@pytest.mark.parametrize("abyss, most_wins", [
    pytest.param(-42, False, id="very-low"),
    pytest.param(7, False, id="exactly-seven-fewest-wins"),
    pytest.param(8, True, id="eight-most-wins"),
    pytest.param(70, True, id="very-high"),
])
def test_the_abyss_decides_the_direction_around_seven(abyss, most_wins):
    assert rules.most_points_wins(abyss) is most_wins


def test_stones_left_on_the_abyss_board_do_not_count():
    # The Abyss is scored from its cards only: there is no way to add a stone to it.
    assert rules.abyss_points({"ira": 3}) == 6
    assert rules.abyss_points({}) == 0


# -- Stones of Forgiveness -------------------------------------------------------------------------

def test_a_stone_is_not_placed_on_a_sin_the_player_lacks():
    placed = rules.best_placement({"ira": 3}, 2, most_wins=False)
    assert placed == ("ira",)


def test_stones_beyond_the_types_held_are_ignored():
    score = rules.score_player("Bo", {"ira": 2, "gula": 1}, 5, most_wins=True)
    assert score.stones_on == ("gula", "ira")
    assert score.ignored_stones == 3
    assert score.points == 6 + 3


def test_every_stone_that_can_be_placed_must_be_even_when_it_hurts():
    # Fewest points win, and each stone turns a 1 into a 3: still, both stones go down.
    score = rules.score_player("Cy", {"ira": 1, "gula": 1, "acedia": 1}, 2, most_wins=False)
    assert len(score.stones_on) == 2
    assert score.points == 3 + 3 + 1


def test_a_stone_turns_three_cards_into_four():
    assert rules.stone_gain({"luxuria": 3}, "luxuria") == -7
    assert rules.stone_gain({"ira": 6}, "ira") == 16


def test_a_player_without_stones_scores_the_reserve_as_it_is():
    score = rules.score_player("Di", MARGHERITA, 0, most_wins=True)
    assert score.stones_on == ()
    assert score.points == 3 - 1 + 6 + 1


def test_a_chosen_placement_replaces_the_suggestion():
    score = rules.score_player("Margherita", MARGHERITA, 2, False, stones_on=["invidia", "ira"])
    assert score.stones_on == ("invidia", "ira")
    assert score.points == 14
    assert score.best_points == 0
    assert score.chosen


@pytest.mark.parametrize("reserve, stones, stones_on, problem", [
    pytest.param(MARGHERITA, 2, ["luxuria", "luxuria"], "Put at most one stone on each sin type.", id="twice"),
    pytest.param(MARGHERITA, 2, ["gula", "ira"], "%(sin)s: a stone can only go on a type the player holds cards of.",
                 id="not-held"),
    pytest.param(MARGHERITA, 1, ["luxuria", "ira"], "That is more types than stones: %(stones)d stone to place.",
                 id="more-types-than-stones"),
    pytest.param(MARGHERITA, 2, ["luxuria"], "Place %(n)d stones: every stone must go on a type held while one can.",
                 id="fewer-than-can-be-placed"),
    pytest.param(MARGHERITA, 2, ["pride", "ira"], "%(sin)s is not a sin type.", id="unknown-type"),
])
def test_illegal_placements_are_named(reserve, stones, stones_on, problem):
    found = rules.placement_problem(reserve, stones, stones_on)
    assert found is not None and found[0] == problem


@pytest.mark.parametrize("reserve, stones, stones_on", [
    pytest.param(MARGHERITA, 2, ["luxuria", "acedia"], id="two-of-four"),
    pytest.param({"ira": 2}, 3, ["ira"], id="surplus-ignored"),
    pytest.param({}, 2, [], id="empty-reserve"),
    pytest.param(MARGHERITA, 0, [], id="no-stones"),
])
def test_legal_placements_pass(reserve, stones, stones_on):
    assert rules.placement_problem(reserve, stones, stones_on) is None


reserves = st.dictionaries(st.sampled_from(SINS), st.integers(min_value=0, max_value=11), max_size=7)


def legal_placements(reserve, stones):
    k = rules.stones_to_place(reserve, stones)
    return list(itertools.combinations(rules.held(reserve), k))


def total(reserve, placed):
    return sum(rules.reserve_points(reserve, placed).values())


@settings(max_examples=400, deadline=None)
@given(reserve=reserves, stones=st.integers(min_value=0, max_value=10), most_wins=st.booleans())
def test_best_placement_matches_a_brute_force_over_every_placement(reserve, stones, most_wins):
    options = legal_placements(reserve, stones)
    values = [total(reserve, p) for p in options]
    target = max(values) if most_wins else min(values)
    best = rules.best_placement(reserve, stones, most_wins)
    assert rules.placement_problem(reserve, stones, list(best)) is None
    assert total(reserve, best) == target
    score = rules.score_player("X", reserve, stones, most_wins)
    assert score.points == score.best_points == target


@settings(max_examples=200, deadline=None)
@given(reserve=reserves, stones=st.integers(min_value=0, max_value=10), data=st.data())
def test_every_legal_placement_is_accepted_and_no_other(reserve, stones, data):
    legal = {tuple(sorted(p)) for p in legal_placements(reserve, stones)}
    chosen = data.draw(st.lists(st.sampled_from(SINS), max_size=8))
    ok = rules.placement_problem(reserve, stones, chosen) is None
    assert ok == (tuple(sorted(chosen)) in legal and len(set(chosen)) == len(chosen))


@settings(max_examples=200, deadline=None)
@given(reserve=reserves, stones=st.integers(min_value=0, max_value=10))
def test_placing_stones_never_changes_the_tie_break_counts(reserve, stones):
    high = rules.score_player("X", reserve, stones, True)
    low = rules.score_player("X", reserve, stones, False)
    assert (high.cards, high.types) == (low.cards, low.types) == (sum(reserve.values()), len(rules.held(reserve)))


# -- ties ------------------------------------------------------------------------------------------

S = rules.Standing


@pytest.mark.parametrize("standings, most_wins, expected_ranks, reason", [
    pytest.param([S("A", 10, 8, 3), S("B", 12, 5, 2)], True, [2, 1], "points", id="most-points-win"),
    pytest.param([S("A", 10, 8, 3), S("B", 12, 5, 2)], False, [1, 2], "points", id="fewest-points-win"),
    pytest.param([S("A", 10, 8, 3), S("B", 10, 9, 2)], True, [2, 1], "cards", id="tie-most-cards-most-wins"),
    pytest.param([S("A", 4, 8, 3), S("B", 4, 9, 2)], False, [2, 1], "cards", id="tie-most-cards-fewest-wins"),
    pytest.param([S("A", 10, 9, 3), S("B", 10, 9, 4)], True, [2, 1], "types", id="tie-most-types"),
    pytest.param([S("A", 2, 9, 4), S("B", 2, 9, 3)], False, [1, 2], "types", id="tie-most-types-fewest-wins"),
    pytest.param([S("A", 10, 9, 4), S("B", 10, 9, 4), S("C", 3, 1, 1)], True, [1, 1, 3], "shared",
                 id="full-tie-shared"),
    pytest.param([S("A", 1, 2, 2), S("B", 5, 2, 2), S("C", 5, 2, 2), S("D", 9, 1, 1)], False, [1, 2, 2, 4], "points",
                 id="tie-below-the-winner-shares-second"),
])
def test_ranking_and_every_tie_break(standings, most_wins, expected_ranks, reason):
    assert rules.ranks(standings, most_wins) == expected_ranks
    assert rules.decided_by(standings, most_wins) == reason
    quick = rules.score_totals(standings, most_wins)
    assert quick.winners == [s.name for s, r in zip(standings, expected_ranks) if r == 1]


def test_a_tie_on_points_is_broken_by_reserve_cards_in_a_full_game():
    # The Abyss is empty (0 points): fewest win. Both end on 6; Ana holds 4 cards, Bo 3.
    game = rules.score_game([("Ana", {"ira": 2, "gula": 2}, 0, None), ("Bo", {"acedia": 3}, 0, None)], {})
    assert [(p.points, p.cards, p.rank) for p in game.players] == [(6, 4, 1), (6, 3, 2)]
    assert (game.winners, game.decided_by) == (["Ana"], "cards")


def test_a_tie_on_points_and_cards_is_broken_by_types_in_a_full_game():
    # 3+1+1+1 and 2+2+2 cards both make 9 points from 6 cards; Ana holds four types, Bo three.
    game = rules.score_game([("Ana", {"ira": 3, "gula": 1, "acedia": 1, "luxuria": 1}, 0, None),
                             ("Bo", {"invidia": 2, "superbia": 2, "avaritia": 2}, 0, None)], {})
    assert [(p.points, p.cards, p.types, p.rank) for p in game.players] == [(9, 6, 4, 1), (9, 6, 3, 2)]
    assert (game.winners, game.decided_by) == (["Ana"], "types")


def test_a_full_tie_is_shared_in_a_full_game():
    game = rules.score_game([("Ana", {"ira": 3}, 1, None), ("Bo", {"gula": 3}, 1, None)], {"acedia": 3, "invidia": 2})
    assert game.most_points_wins and [p.points for p in game.players] == [-1, -1]
    assert (game.winners, game.decided_by) == (["Ana", "Bo"], "shared")


standings_lists = st.lists(
    st.builds(rules.Standing, st.sampled_from("ABCDE"), st.integers(-42, 70), st.integers(0, 77), st.integers(0, 7)),
    min_size=2, max_size=5)


@settings(max_examples=300, deadline=None)
@given(standings=standings_lists, most_wins=st.booleans(), data=st.data())
def test_ranks_follow_the_tie_breaks_and_ignore_seating(standings, most_wins, data):
    r = rules.ranks(standings, most_wins)
    assert min(r) == 1 and all(1 <= x <= len(standings) for x in r)
    for (a, ra), (b, rb) in itertools.combinations(zip(standings, r), 2):
        ka, kb = rules.rank_key(a, most_wins), rules.rank_key(b, most_wins)
        assert (ra < rb) == (ka < kb) and (ra == rb) == (ka == kb)
    shuffled = data.draw(st.permutations(list(range(len(standings)))))
    r2 = rules.ranks([standings[i] for i in shuffled], most_wins)
    assert r2 == [r[i] for i in shuffled]


# -- setup -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("players, types, stones, hell, stacked", [
    pytest.param(2, 4, 4, (24, 12, 8), (18, 13, 9), id="two-players"),
    pytest.param(3, 5, 6, (30, 15, 10), (23, 16, 11), id="three-players"),
    pytest.param(4, 6, 8, (36, 18, 12), (28, 19, 13), id="four-players"),
    pytest.param(5, 7, 10, (42, 21, 14), (33, 22, 15), id="five-players"),
])
def test_setup_numbers_by_player_count(players, types, stones, hell, stacked):
    c = rules.setup_counts(players)
    assert (c.sin_types, c.stones) == (types, stones)
    assert (c.hell_i, c.hell_ii, c.hell_iii) == hell
    assert c.sin_cards == types * 11 == sum(hell)
    assert (c.hell_i_stacked, c.hell_ii_stacked, c.hell_iii_stacked) == stacked
    # Every card is somewhere: the reserves, the five revealed, the deck (less its 3 Last Judgments).
    assert c.deck - 3 + c.revealed + c.reserve_cards == c.sin_cards
    assert c.penitenziagite_cards == 0


def test_penitenziagite_adds_one_card_per_type_under_the_deck():
    c = rules.setup_counts(4, penitenziagite=True)
    assert c.penitenziagite_cards == 6
    assert c.draw_pile == c.deck + 6


@pytest.mark.parametrize("players", [1, 6])
def test_setup_refuses_other_player_counts(players):
    with pytest.raises(ValueError):
        rules.setup_counts(players)


@given(players=st.integers(2, 5), seed=st.integers(0, 10_000))
def test_drawn_sins_are_distinct_and_as_many_as_the_table_needs(players, seed):
    import random

    drawn = rules.draw_sins(players, random.Random(seed))
    assert len(set(drawn)) == len(drawn) == rules.sin_types_for(players)
    assert list(drawn) == [s for s in SINS if s in drawn]


# -- turns and the end -----------------------------------------------------------------------------

def test_turns_start_with_the_first_player_and_go_around():
    assert rules.turn_order([1, 2, 3, 4], 3) == [3, 4, 1, 2]
    assert rules.last_in_round([1, 2, 3, 4], 3) == 2


@pytest.mark.parametrize("third_on, current, round_done, over, still", [
    pytest.param(3, 3, False, False, (4, 1, 2), id="third-on-first-player-everyone-else-plays"),
    pytest.param(1, 1, False, False, (2,), id="third-mid-round"),
    pytest.param(1, 2, False, False, (2,), id="last-player-is-playing"),
    pytest.param(2, 2, False, True, (), id="third-on-last-player-ends-at-once"),
    pytest.param(1, 2, True, True, (), id="last-player-finished"),
])
def test_penitenziagite_finishes_the_round(third_on, current, round_done, over, still):
    end = rules.ending([1, 2, 3, 4], 3, third_on, True, current=current, round_done=round_done)
    assert (end.over, end.still_to_play) == (over, still)


def test_without_penitenziagite_the_third_last_judgment_ends_the_game_at_once():
    end = rules.ending([1, 2, 3, 4], 3, 1, False, current=1)
    assert end.over and end.still_to_play == ()


# -- readings: the same words in the app and in the rules page (issue 28) ---------------------------

@pytest.mark.parametrize("key", ["stones-not-cards"])
def test_every_reading_the_app_states_is_in_its_english_rules_page_word_for_word(key):
    from pathlib import Path

    from companion.games.sins.readings import READINGS

    slug, text = READINGS[key]
    page = Path(__file__).resolve().parents[2] / "companion/rules/content/sins" / f"{slug}.md"
    assert " ".join(text.split()) in " ".join(page.read_text(encoding="utf-8").split())
    # the literal alternative is named, not only our reading
    assert "literal alternative" in text
