"""Invariants of Sinful Gibbon's counting, checked on generated rounds (hypothesis)."""
from __future__ import annotations

import dataclasses

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.gibbon import play, rules
from companion.games.gibbon.rules import LIMIT, Tally, count_sins

# No per-example deadline: the test machine is shared, and a slow example is not a wrong one.
relaxed = settings(deadline=None)


@st.composite
def tallies(draw, min_size=3, max_size=7):
    """A round: 3-7 players, small counts, at most one hat and one Braveheart."""
    n = draw(st.integers(min_size, max_size))
    rows = [Tally(low=draw(st.integers(0, 6)), high=draw(st.integers(0, 3)), cheats=draw(st.integers(0, 3)),
                  hearts=draw(st.integers(0, 3)), accepted_hearts=draw(st.integers(0, 3)),
                  wrongful_doubts=draw(st.integers(0, 3)), fattest_pile=draw(st.integers(0, 5)))
            for _ in range(n)]
    hat = draw(st.none() | st.integers(0, n - 1))
    bh = draw(st.none() | st.integers(0, n - 1))
    return tuple(dataclasses.replace(t, hat=(i == hat), braveheart=(i == bh)) for i, t in enumerate(rows))


def bump(ts, i, **delta):
    t = ts[i]
    return ts[:i] + (dataclasses.replace(t, **{k: getattr(t, k) + v for k, v in delta.items()}),) + ts[i + 1:]


players = st.data()


@relaxed
@given(tallies(), players)
def test_adding_a_cheat_adds_exactly_20_to_that_player_and_nothing_to_others(ts, data):
    i = data.draw(st.integers(0, len(ts) - 1))
    before, after = count_sins(ts), count_sins(bump(ts, i, cheats=1))
    assert [a.total - b.total for a, b in zip(after, before)] == [20 if j == i else 0 for j in range(len(ts))]


@relaxed
@given(tallies(), players, st.sampled_from([("low", 10), ("high", 20)]))
def test_a_face_up_card_adds_its_pride_to_that_player_only(ts, data, kind):
    name, points = kind
    i = data.draw(st.integers(0, len(ts) - 1))
    before, after = count_sins(ts), count_sins(bump(ts, i, **{name: 1}))
    assert [a.total - b.total for a, b in zip(after, before)] == [points if j == i else 0 for j in range(len(ts))]


@relaxed
@given(tallies(), players)
def test_a_face_up_heart_adds_20_unless_braveheart_and_nothing_to_others(ts, data):
    i = data.draw(st.integers(0, len(ts) - 1))
    before, after = count_sins(ts), count_sins(bump(ts, i, hearts=1))
    expected = 0 if ts[i].braveheart else 20
    assert [a.total - b.total for a, b in zip(after, before)] == [expected if j == i else 0 for j in range(len(ts))]


@relaxed
@given(tallies())
def test_envy_is_20_per_accepted_heart_short_of_the_most_and_zero_for_the_most(ts):
    most = max(t.accepted_hearts for t in ts)
    for t, s in zip(ts, count_sins(ts)):
        assert s.envy == (0 if t.braveheart else 20 * (most - t.accepted_hearts))
        assert s.envy >= 0


@relaxed
@given(tallies())
def test_wrath_goes_to_everyone_sharing_the_most_wrongful_doubts_and_to_nobody_at_zero(ts):
    most = max(t.wrongful_doubts for t in ts)
    paying = {i for i, s in enumerate(count_sins(ts)) if s.wrath}
    assert paying == ({i for i, t in enumerate(ts) if t.wrongful_doubts == most} if most else set())
    assert all(s.wrath in (0, 50) for s in count_sins(ts))


@relaxed
@given(tallies())
def test_gluttony_goes_to_everyone_sharing_the_fattest_pile_and_to_nobody_without_face_down_cards(ts):
    fattest = max(t.fattest_pile for t in ts)
    paying = {i for i, s in enumerate(count_sins(ts)) if s.gluttony}
    assert paying == ({i for i, t in enumerate(ts) if t.fattest_pile == fattest} if fattest else set())


@relaxed
@given(tallies())
def test_jealousy_is_50_for_the_hat_wearer_only(ts):
    assert [s.jealousy for s in count_sins(ts)] == [50 if t.hat else 0 for t in ts]


@relaxed
@given(tallies(), players)
def test_making_a_player_the_braveheart_only_waives_their_lust_and_envy(ts, data):
    i = data.draw(st.integers(0, len(ts) - 1))
    plain = tuple(dataclasses.replace(t, braveheart=False) for t in ts)
    brave = tuple(dataclasses.replace(t, braveheart=(j == i)) for j, t in enumerate(plain))
    before, after = count_sins(plain), count_sins(brave)
    for j, (b, a) in enumerate(zip(before, after)):
        if j == i:
            assert a.total == b.total - b.lust - b.envy and a.lust == a.envy == 0
        else:
            assert a == b


@relaxed
@given(tallies(), st.randoms(use_true_random=False))
def test_the_counting_does_not_depend_on_seat_order(ts, rnd):
    order = list(range(len(ts)))
    rnd.shuffle(order)
    shuffled = count_sins(tuple(ts[i] for i in order))
    original = count_sins(ts)
    assert [shuffled[k] for k in range(len(ts))] == [original[i] for i in order]


@relaxed
@given(tallies())
def test_every_total_is_a_multiple_of_10_and_the_sum_of_its_sins(ts):
    for s in count_sins(ts):
        assert s.total % 10 == 0 and s.total == sum(getattr(s, k) for k in rules.SINS) >= 0


@relaxed
@given(st.lists(tallies(min_size=4, max_size=4), min_size=1, max_size=8))
def test_running_totals_never_go_down_and_the_result_follows_the_rules(rounds):
    ids = [1, 2, 3, 4]
    scored = rules.score_rounds(ids, [dict(zip(ids, r)) for r in rounds])
    for prev, cur in zip(scored, scored[1:]):
        assert all(cur.totals[p] >= prev.totals[p] for p in ids)
        assert all(cur.totals[p] - prev.totals[p] == cur.sins[p].total for p in ids)
    final = scored[-1].totals
    res = rules.result(final)
    assert set(res.winners) == {p for p in ids if final[p] == min(final.values())}
    assert set(res.losers) == {p for p in ids if final[p] >= LIMIT}


@settings(max_examples=60, deadline=None)
@given(st.lists(tallies(min_size=4, max_size=4), min_size=2, max_size=6), st.data())
def test_editing_a_round_changes_totals_from_that_round_on_by_its_difference(rounds, data):
    ids = [1, 2, 3, 4]
    k = data.draw(st.integers(0, len(rounds) - 1))
    edited = list(rounds)
    edited[k] = data.draw(tallies(min_size=4, max_size=4))
    a = rules.score_rounds(ids, [dict(zip(ids, r)) for r in rounds])
    b = rules.score_rounds(ids, [dict(zip(ids, r)) for r in edited])
    for n in range(len(rounds)):
        for p in ids:
            diff = b[k].sins[p].total - a[k].sins[p].total
            assert b[n].totals[p] - a[n].totals[p] == (diff if n >= k else 0)


@relaxed
@given(tallies())
def test_validated_rounds_round_trip_through_storage(ts):
    stored = {str(i + 1): t.as_dict() for i, t in enumerate(ts)}
    assert tuple(play.tallies_of({"tallies": stored}).values()) == ts


@relaxed
@given(st.permutations([1, 2, 3, 4, 5]), st.integers(1, 5), st.integers(1, 5), st.data())
def test_after_any_swap_the_jobs_sit_one_seat_clockwise_of_where_they_were(seats, dealer, books, data):
    a, b = data.draw(st.sampled_from(seats)), data.draw(st.sampled_from(seats))
    now = rules.swap_seats(seats, a, b) if a != b else list(seats)
    jobs = rules.next_jobs(seats, dealer, books, now, None)
    assert now.index(jobs.dealer) == (seats.index(dealer) + 1) % 5
    assert now.index(jobs.bookkeeper) == (seats.index(books) + 1) % 5
    assert sorted(now) == sorted(seats)
