"""Sinful Gibbon's sins (rulebook v4.0, "The 7 deadly sins", "Special cases", "The end")."""
from __future__ import annotations

import pytest

from companion.domain import Invalid
from companion.games.gibbon import rules
from companion.games.gibbon.rules import Sins, Tally, count_sins

# The rulebook's counting-table example ("Helpful information: Counting table example"), four players,
# player 2 the Braveheart. Counts chosen to give exactly its rows:
#   Pride 70 40 50 10 | Sloth 40 - 20 - | Lust 20 BH 40 20 | Envy 40 BH 20 - | Wrath 50 - - -
#   Gluttony - 50 50 - | Jealousy - - 50 - | round totals 220 90 230 30
EXAMPLE = (
    Tally(low=5, high=1, cheats=2, hearts=1, accepted_hearts=0, wrongful_doubts=3, fattest_pile=2),
    Tally(low=4, high=0, cheats=0, hearts=1, accepted_hearts=1, wrongful_doubts=1, fattest_pile=4, braveheart=True),
    Tally(low=3, high=1, cheats=1, hearts=2, accepted_hearts=1, wrongful_doubts=2, fattest_pile=4, hat=True),
    Tally(low=1, high=0, cheats=0, hearts=1, accepted_hearts=2, wrongful_doubts=0, fattest_pile=0),
)
EXAMPLE_ROWS = {
    "pride": (70, 40, 50, 10),
    "sloth": (40, 0, 20, 0),
    "lust": (20, 0, 40, 20),
    "envy": (40, 0, 20, 0),
    "wrath": (50, 0, 0, 0),
    "gluttony": (0, 50, 50, 0),
    "jealousy": (0, 0, 50, 0),
}


def test_the_rulebook_counting_table_example_gives_its_round_totals():
    sins = count_sins(EXAMPLE)
    assert [s.total for s in sins] == [220, 90, 230, 30]


@pytest.mark.parametrize("sin", rules.SINS)
def test_the_rulebook_counting_table_example_row_by_row(sin):
    assert tuple(getattr(s, sin) for s in count_sins(EXAMPLE)) == EXAMPLE_ROWS[sin]


def test_the_rulebook_example_marks_only_the_braveheart_immune():
    assert [s.immune for s in count_sins(EXAMPLE)] == [False, True, False, False]


def test_the_rulebook_example_passes_the_deck_checks():
    rows = [t.as_dict() for t in EXAMPLE]
    assert rules.read_tallies(rows, lambda i, c: f"players.{i}.{c}", "players") == EXAMPLE


def test_the_issue_api_example_player_scores_220():
    p1 = Tally(low=5, high=1, cheats=2, hearts=1, accepted_hearts=0, wrongful_doubts=3, fattest_pile=2)
    others = (Tally(low=2, accepted_hearts=2, wrongful_doubts=1, fattest_pile=3), Tally(low=1), Tally())
    first = count_sins((p1,) + others)[0]
    assert first.as_dict() == {"pride": 70, "sloth": 40, "lust": 20, "envy": 40, "wrath": 50, "gluttony": 0,
                               "jealousy": 0, "total": 220}


# -- each sin ---------------------------------------------------------------------------------------

def one(tally: Tally, *others: Tally) -> Sins:
    return count_sins((tally,) + (others or (Tally(), Tally())))[0]


@pytest.mark.parametrize("tally, points", [
    pytest.param(Tally(), 0, id="nothing-face-up"),
    pytest.param(Tally(low=1), 10, id="one-low-card-is-10"),
    pytest.param(Tally(high=1), 20, id="one-high-card-is-20"),
    pytest.param(Tally(low=5, high=1), 70, id="five-low-one-high-is-70"),
    pytest.param(Tally(low=36, high=17), 700, id="every-card-face-up"),
])
def test_pride_is_10_per_low_and_20_per_high_card_face_up(tally, points):
    assert one(tally).pride == points


@pytest.mark.parametrize("cheats, points", [
    pytest.param(0, 0, id="no-cheat"), pytest.param(1, 20, id="one-cheat"), pytest.param(3, 60, id="three-cheats"),
])
def test_sloth_is_20_per_cheat(cheats, points):
    assert one(Tally(low=cheats, cheats=cheats)).sloth == points


@pytest.mark.parametrize("tally, points", [
    pytest.param(Tally(low=2, hearts=2), 40, id="two-hearts-face-up"),
    pytest.param(Tally(high=1, hearts=1), 20, id="the-joker-face-up-is-a-heart"),
    pytest.param(Tally(low=2, hearts=2, braveheart=True), 0, id="braveheart-is-immune"),
])
def test_lust_is_20_per_heart_face_up_except_for_the_braveheart(tally, points):
    assert one(tally).lust == points


@pytest.mark.parametrize("mine, most, braveheart, points", [
    pytest.param(0, 2, False, 40, id="two-short-of-the-most"),
    pytest.param(1, 2, False, 20, id="one-short"),
    pytest.param(2, 2, False, 0, id="shares-the-most"),
    pytest.param(0, 0, False, 0, id="nobody-has-accepted-hearts"),
    pytest.param(0, 3, True, 0, id="braveheart-is-immune"),
])
def test_envy_is_20_per_accepted_heart_short_of_the_most(mine, most, braveheart, points):
    sins = count_sins((Tally(accepted_hearts=mine, braveheart=braveheart), Tally(accepted_hearts=most), Tally()))
    assert sins[0].envy == points


def test_the_braveheart_accepted_hearts_still_set_the_most_for_everyone_else():
    sins = count_sins((Tally(accepted_hearts=3, braveheart=True), Tally(accepted_hearts=1), Tally()))
    assert [s.envy for s in sins] == [0, 40, 60]


@pytest.mark.parametrize("doubts, wrath", [
    pytest.param((3, 1, 0), (50, 0, 0), id="one-player-has-the-most"),
    pytest.param((2, 2, 1), (50, 50, 0), id="two-share-the-most-each-pay-50"),
    pytest.param((1, 1, 1), (50, 50, 50), id="everybody-ties"),
    pytest.param((0, 0, 0), (0, 0, 0), id="reading-nobody-doubted-wrongly-no-wrath"),
])
def test_wrath_is_50_for_the_most_wrongful_doubts_ties_each_pay(doubts, wrath):
    sins = count_sins(tuple(Tally(low=d, wrongful_doubts=d) for d in doubts))
    assert tuple(s.wrath for s in sins) == wrath


def test_wrath_does_not_count_the_braveheart_as_immune():
    sins = count_sins((Tally(low=2, wrongful_doubts=2, braveheart=True), Tally(low=1, wrongful_doubts=1), Tally()))
    assert sins[0].wrath == 50


@pytest.mark.parametrize("piles, gluttony", [
    pytest.param((5, 2, 0), (50, 0, 0), id="one-fattest-pile"),
    pytest.param((4, 4, 1), (50, 50, 0), id="two-share-the-fattest-each-pay-50"),
    pytest.param((0, 0, 0), (0, 0, 0), id="no-face-down-cards-no-gluttony"),
])
def test_gluttony_is_50_for_the_fattest_pile_ties_each_pay(piles, gluttony):
    sins = count_sins(tuple(Tally(low=1, cheats=1, fattest_pile=p) for p in piles))
    assert tuple(s.gluttony for s in sins) == gluttony


@pytest.mark.parametrize("hat, points", [pytest.param(True, 50, id="wears-the-hat"),
                                         pytest.param(False, 0, id="no-hat")])
def test_jealousy_is_50_for_wearing_the_hat(hat, points):
    assert one(Tally(hat=hat)).jealousy == points


def test_the_braveheart_still_pays_pride_sloth_and_the_great_sins():
    bh = Tally(low=2, high=1, cheats=1, hearts=2, wrongful_doubts=1, fattest_pile=3, hat=True, braveheart=True)
    s = one(bh, Tally(accepted_hearts=2), Tally())
    assert (s.pride, s.sloth, s.lust, s.envy, s.wrath, s.gluttony, s.jealousy) == (40, 20, 0, 0, 50, 50, 50)


def test_totals_are_the_sum_of_the_seven_sins():
    for s in count_sins(EXAMPLE):
        assert s.total == sum(s.as_dict()[k] for k in rules.SINS)


# -- checking what was counted ---------------------------------------------------------------------

def check(rows, names=("A", "B", "C")):
    return rules.read_tallies(rows, lambda i, c: f"players.{i}.{c}", "players", names=names)


def problems(rows, **kw) -> dict:
    with pytest.raises(Invalid) as err:
        check(rows, **kw)
    return err.value.as_dict()


@pytest.mark.parametrize("value", [
    pytest.param(-1, id="negative"), pytest.param(1.5, id="fraction"), pytest.param("3", id="string"),
    pytest.param(None, id="null"), pytest.param([1], id="list"), pytest.param({"n": 1}, id="object"),
    pytest.param(True, id="boolean"), pytest.param(10**30, id="huge"), pytest.param(float("nan"), id="nan"),
])
def test_a_count_must_be_a_whole_number_in_range(value):
    errs = problems([{"low": 3, "cheats": value}, {}, {}])
    assert list(errs) == ["players.0.cheats"]


def test_a_form_sends_counts_as_text_and_blank_means_zero():
    tallies = rules.read_tallies([{"low": "3", "cheats": " 1 ", "high": ""}, {}, {}], lambda i, c: c, "t",
                                 strict=False)
    assert tallies[0] == Tally(low=3, cheats=1)


def test_flags_must_be_booleans_in_the_api():
    assert list(problems([{"hat": "yes"}, {}, {}])) == ["players.0.hat"]


def test_only_one_hat():
    errs = problems([{"hat": True}, {"hat": True}, {}])
    assert "Heartless Monkey Hat" in errs["players"][0]


def test_at_most_one_braveheart():
    errs = problems([{"braveheart": True}, {"braveheart": True}, {}])
    assert "Braveheart" in errs["players"][0]


def test_no_more_hearts_face_up_and_accepted_than_the_deck_holds():
    rows = [{"low": 5, "hearts": 5, "accepted_hearts": 2}, {"low": 5, "hearts": 5}, {"accepted_hearts": 3}]
    errs = problems(rows)
    assert "15 hearts" in errs["players"][0] and "14" in errs["players"][0]


def test_fourteen_hearts_in_all_is_allowed():
    check([{"low": 5, "hearts": 5, "accepted_hearts": 2}, {"low": 5, "hearts": 5}, {"accepted_hearts": 2}])


def test_no_more_low_cards_face_up_than_the_deck_holds():
    errs = problems([{"low": 20}, {"low": 17}, {}])
    assert "37 low cards" in errs["players"][0]


def test_no_more_high_cards_face_up_than_the_deck_holds():
    errs = problems([{"high": 10}, {"high": 8}, {}])
    assert "18 high cards" in errs["players"][0]


def test_no_more_cards_in_all_than_the_deck_holds():
    rows = [{"low": 20, "high": 10, "cheats": 1, "fattest_pile": 20}, {"accepted_hearts": 4}, {}]
    errs = problems(rows)
    assert "54 cards" in errs["players"][0]


def test_face_up_hearts_are_among_the_face_up_cards():
    errs = problems([{"low": 1, "hearts": 2}, {}, {}])
    assert list(errs) == ["players.0.hearts"]
    assert "A shows more hearts face up (2) than face-up cards (1)" in errs["players.0.hearts"][0]


def test_every_lost_pile_shows_a_face_up_card():
    errs = problems([{"low": 2, "cheats": 2, "wrongful_doubts": 1}, {}, {}])
    assert list(errs) == ["players.0.cheats"]


def test_a_fattest_pile_needs_a_pile():
    errs = problems([{"low": 2, "fattest_pile": 3}, {}, {}])
    assert list(errs) == ["players.0.fattest_pile"]


def test_every_problem_is_reported_at_once():
    errs = problems([{"low": -1, "high": "x"}, {"cheats": 1.5}, {}])
    assert set(errs) == {"players.0.low", "players.0.high", "players.1.cheats"}


@pytest.mark.parametrize("raw, field", [
    pytest.param(None, "players", id="missing"),
    pytest.param("ABC", "players", id="a-string"),
    pytest.param([{"name": "A"}, {"name": "B"}], "players", id="two-players"),
    pytest.param([{"name": str(i)} for i in range(8)], "players", id="eight-players"),
    pytest.param([{"name": "A"}, {"name": "a"}, {"name": "C"}], "players.1.name", id="duplicate-names"),
    pytest.param([{"name": "A"}, {"name": " "}, {"name": "C"}], "players.1.name", id="blank-name"),
    pytest.param([{"name": "A"}, {"name": 7}, {"name": "C"}], "players.1.name", id="number-as-name"),
    pytest.param([{"name": "A"}, {"name": "x" * 31}, {"name": "C"}], "players.1.name", id="long-name"),
    pytest.param([{"name": "A"}, [], {"name": "C"}], "players.1", id="not-an-object"),
    pytest.param([{"name": "A", "lows": 3}, {"name": "B"}, {"name": "C"}], "players.0.lows", id="unknown-field"),
])
def test_the_api_players_list_is_checked(raw, field):
    with pytest.raises(Invalid) as err:
        rules.read_players(raw)
    assert field in err.value.as_dict()


# -- the end of the game ----------------------------------------------------------------------------

@pytest.mark.parametrize("totals, over", [
    pytest.param({1: 990, 2: 500, 3: 0}, False, id="nobody-at-1000"),
    pytest.param({1: 1000, 2: 500, 3: 0}, True, id="exactly-1000-ends-it"),
    pytest.param({1: 1210, 2: 1010, 3: 300}, True, id="two-over"),
])
def test_the_game_ends_once_somebody_has_1000(totals, over):
    assert rules.is_over(totals) is over


@pytest.mark.parametrize("totals, winners, losers", [
    pytest.param({1: 1010, 2: 480, 3: 620}, (2,), (1,), id="least-wins-one-to-hell"),
    pytest.param({1: 1010, 2: 480, 3: 480, 4: 900}, (2, 3), (1,), id="tie-for-least-shares-the-win"),
    pytest.param({1: 1040, 2: 1000, 3: 700}, (3,), (1, 2), id="everyone-at-1000-or-more-goes-to-hell"),
])
def test_the_least_total_wins_and_1000_or_more_goes_to_hell(totals, winners, losers):
    res = rules.result(totals)
    assert set(res.winners) == set(winners)
    assert set(res.losers) == set(losers)
    assert [p for p, _pts in res.ranking] == sorted(totals, key=totals.get)


def test_running_totals_add_each_round():
    r1 = {1: Tally(low=2), 2: Tally(high=1), 3: Tally()}
    r2 = {1: Tally(low=1, cheats=1), 2: Tally(), 3: Tally(hat=True)}
    s = rules.score_rounds([1, 2, 3], [r1, r2])
    assert [x.totals for x in s] == [{1: 20, 2: 20, 3: 0}, {1: 50, 2: 20, 3: 50}]
    assert s[1].round_totals == {1: 30, 2: 0, 3: 50}


def test_first_end_names_the_round_that_reached_1000():
    big = Tally(low=30, high=15, cheats=5, hearts=10)  # 300 + 300 + 100 + 200 = 900
    s = rules.score_rounds([1, 2, 3], [{1: big, 2: Tally(), 3: Tally()}] * 2)
    assert rules.first_end(s) == 2


# -- dealing, jobs and seats ------------------------------------------------------------------------

@pytest.mark.parametrize("players, cards", [(3, 4), (4, 4), (5, 4), (6, 3), (7, 3)])
def test_hand_size_is_four_or_three_with_six_or_seven(players, cards):
    assert rules.hand_size(players) == cards


def test_the_first_round_starts_left_of_the_dealer():
    assert rules.first_jobs([1, 2, 3, 4], dealer=4, bookkeeper=2) == rules.Jobs(4, 2, 1)


def test_jobs_move_one_seat_clockwise_whoever_sits_there_after_a_swap():
    before = [1, 2, 3, 4]
    now = rules.swap_seats(before, 2, 4)  # 1 4 3 2
    jobs = rules.next_jobs(before, last_dealer=1, last_bookkeeper=3, seats_now=now, last_braveheart=None)
    # Seat 2 now holds player 4 (the dealer's job moved there); seat 4 holds player 2 (the books).
    assert (jobs.dealer, jobs.bookkeeper, jobs.starter) == (4, 2, 3)


def test_the_braveheart_starts_the_next_round():
    jobs = rules.next_jobs([1, 2, 3], 1, 1, [1, 2, 3], last_braveheart=3)
    assert jobs.starter == 3 and jobs.braveheart_starts


def test_swap_seats_exchanges_two_players_only():
    assert rules.swap_seats([1, 2, 3, 4, 5], 1, 4) == [4, 2, 3, 1, 5]
