"""7 - The Sins: the rules the table's bookkeeping needs, as pure functions (no Flask).

Rulebook sections used (English and French rulebooks, same rules):
  Components            11 cards per sin type, split 6 / 3 / 2 between Hell I, II and III
  Setup A-E             sin types by player count, the three Hell decks, five revealed cards,
                        one Last Judgment per deck, the deck stacked III-II-I, Stones by player count
  Gameplay              counter-clockwise turns from the player who sinned most recently
  End of the game       the points table, the Abyss of Souls deciding most or fewest points,
                        Stones of Forgiveness (one per type held, as many as can be placed), ties
  Penitenziagite        the advanced mode: the round is finished after the third Last Judgment
"""
from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Iterable, Mapping, Sequence

from ...domain import N_

# -- the cards -------------------------------------------------------------------------------------

#: The seven Deadly Sin types, in the rulebook's order; these keys are also the API's.
SINS = ("superbia", "avaritia", "luxuria", "invidia", "ira", "acedia", "gula")
#: Their names as the cards print them (the French catalog gives the French rulebook's names).
SIN_NAMES = {
    "superbia": N_("Superbia"),
    "avaritia": N_("Avaritia"),
    "luxuria": N_("Luxuria"),
    "invidia": N_("Invidia"),
    "ira": N_("Ira"),
    "acedia": N_("Acedia"),
    "gula": N_("Gula"),
}
CARDS_PER_SIN = 11
#: Penitenziagite: one card per sin type, shuffled under the deck.
PENITENZIAGITE_PER_SIN = 1
#: Components: every sin type is split the same way between the three card backs.
HELL_CARDS_PER_SIN = {"I": 6, "II": 3, "III": 2}
LAST_JUDGMENTS = 3
REVEALED = 5
MIN_PLAYERS, MAX_PLAYERS = 2, 5
#: Setup A: how many sin types a table plays with.
SIN_TYPES_FOR = {2: 4, 3: 5, 4: 6, 5: 7}
#: Setup E: Stones of Forgiveness put out (two per player).
STONES_FOR = {2: 4, 3: 6, 4: 8, 5: 10}
#: End of the game: above this the most points win; at or below it the fewest do.
ABYSS_THRESHOLD = 7

# -- setup -----------------------------------------------------------------------------------------

SETUP_STEPS = ("A", "B", "C", "D", "E", "first")
PENITENZIAGITE_STEPS = ("penitenziagite-cards", "penitenziagite-score-card")


def sin_types_for(players: int) -> int:
    """Setup A: the number of sin types in play for a player count (2:4, 3:5, 4:6, 5:7)."""
    return SIN_TYPES_FOR[players]


def stones_for(players: int) -> int:
    """Setup E: the Stones of Forgiveness in the supply for a player count (2:4, 3:6, 4:8, 5:10)."""
    return STONES_FOR[players]


@dataclass(frozen=True)
class SetupCounts:
    """Every number the setup steps mention, for one player count and one mode."""

    players: int
    sin_types: int
    sin_cards: int  # the chosen types' cards, all three backs
    hell_i: int  # Setup B: the Hell I deck as split, before anything is drawn
    hell_ii: int
    hell_iii: int
    reserve_cards: int  # Setup B: one Hell I card into each reserve
    revealed: int  # Setup C
    hell_i_stacked: int  # Setup D: what is left of Hell I, plus its Last Judgment
    hell_ii_stacked: int
    hell_iii_stacked: int
    deck: int  # the Deadly Sins deck once stacked
    penitenziagite_cards: int  # advanced mode: one per type in play, under the deck
    stones: int  # Setup E

    @property
    def draw_pile(self) -> int:
        """Everything face down in the middle once set up (with the Penitenziagite cards, if used)."""
        return self.deck + self.penitenziagite_cards


def setup_counts(players: int, penitenziagite: bool = False) -> SetupCounts:
    """Setup A-E: the cards in each Hell deck, what leaves them, and the stacked deck.

    Hell I loses one card per reserve (B) and five revealed cards (C); each deck then gains one
    Last Judgment (D) before they are stacked III at the bottom, II, then I on top.
    """
    if players not in SIN_TYPES_FOR:
        raise ValueError(f"7 - The Sins is for 2 to 5 players, not {players}")
    types = sin_types_for(players)
    hell = {back: n * types for back, n in HELL_CARDS_PER_SIN.items()}
    hell_i_left = hell["I"] - players - REVEALED
    stacked = (hell_i_left + 1, hell["II"] + 1, hell["III"] + 1)
    return SetupCounts(
        players=players, sin_types=types, sin_cards=types * CARDS_PER_SIN,
        hell_i=hell["I"], hell_ii=hell["II"], hell_iii=hell["III"],
        reserve_cards=players, revealed=REVEALED,
        hell_i_stacked=stacked[0], hell_ii_stacked=stacked[1], hell_iii_stacked=stacked[2],
        deck=sum(stacked), penitenziagite_cards=types if penitenziagite else 0,
        stones=stones_for(players),
    )


def draw_sins(players: int, rng: random.Random | None = None) -> tuple[str, ...]:
    """Setup A, drawn at random: the right number of distinct sin types, in the rulebook's order."""
    rng = rng or random.SystemRandom()
    chosen = rng.sample(SINS, sin_types_for(players))
    return in_rulebook_order(chosen)


def in_rulebook_order(sins: Iterable[str]) -> tuple[str, ...]:
    wanted = set(sins)
    return tuple(s for s in SINS if s in wanted)


# -- turns -----------------------------------------------------------------------------------------

def turn_order(seats: Sequence[int], first: int | None) -> list[int]:
    """Gameplay: turns go counter-clockwise from the first player.

    The app lists players in the order they play (counter-clockwise), so the turn order is the
    seat list turned to start at the first player.
    """
    seats = list(seats)
    if first not in seats:
        return seats
    i = seats.index(first)
    return seats[i:] + seats[:i]


def last_in_round(seats: Sequence[int], first: int | None) -> int | None:
    """Penitenziagite: the player to the left of the first player, who plays last in each round."""
    order = turn_order(seats, first)
    return order[-1] if order else None


@dataclass(frozen=True)
class Ending:
    """Where the game stands once the third Last Judgment card is out."""

    over: bool
    still_to_play: tuple[int, ...]  # player ids, in turn order, who still take a turn


def ending(seats: Sequence[int], first: int | None, third_on: int | None, penitenziagite: bool,
           current: int | None = None, round_done: bool = False) -> Ending:
    """End of the game and Penitenziagite: who still plays after the third Last Judgment.

    Standard game: nobody; the game ends at once. Penitenziagite: turns go on until the player to
    the left of the first player has finished hers; if the third card came out on that player's turn
    the game ends at once. `third_on` is whose turn it was, `current` whose turn it is now (the
    tracker moves on), `round_done` that the last player has since finished. Whoever finished a turn
    since the card has played their last one: only the player now at the table and those after her
    still play. A tracker showing a player before the card's has gone round past the last player
    (she tapped "done" before the card was recorded), so the round is over.
    """
    if not penitenziagite or round_done:
        return Ending(True, ())
    order = turn_order(seats, first)
    if third_on not in order:
        return Ending(True, ())
    if current in order and order.index(current) < order.index(third_on):
        return Ending(True, ())
    after = order[order.index(third_on) + 1:]
    if current in after:
        after = after[after.index(current):]
    return Ending(not after, tuple(after))


# -- scoring ---------------------------------------------------------------------------------------

def cards_of_a_type(penitenziagite: bool = False) -> int:
    """How many cards of one sin type can be scored.

    Reading (the rulebooks do not say how Penitenziagite cards score): a Penitenziagite card
    belongs to its sin and is taken like the others, so at scoring it counts as one more card of
    that sin. With Penitenziagite a type can therefore reach 12 cards (11 Deadly Sin cards and
    its Penitenziagite card).
    """
    return CARDS_PER_SIN + (PENITENZIAGITE_PER_SIN if penitenziagite else 0)


#: End of the game, the points table: POINTS_UP_TO_SIX[n] is what n cards of one type score.
POINTS_UP_TO_SIX = (0, 1, 3, 6, -1, -3, -6)
SEVEN_OR_MORE = 10


def points_for(cards: int) -> int:
    """End of the game: the points one sin type is worth for this many cards (7 or more: 10)."""
    if cards < 0:
        raise ValueError("a count of cards cannot be negative")
    return POINTS_UP_TO_SIX[cards] if cards < len(POINTS_UP_TO_SIX) else SEVEN_OR_MORE


def abyss_points(abyss: Mapping[str, int]) -> int:
    """End of the game: the Abyss of Souls scores its cards by type like a reserve (stones on the
    board count for nothing)."""
    return sum(points_for(n) for n in abyss.values())


def most_points_wins(abyss: int) -> bool:
    """End of the game: an Abyss above 7 points means the most points win; 7 or less, the fewest."""
    return abyss > ABYSS_THRESHOLD


def held(reserve: Mapping[str, int]) -> tuple[str, ...]:
    """The sin types a reserve holds at least one card of, in the rulebook's order."""
    return tuple(s for s in SINS if reserve.get(s, 0) > 0)


def stones_to_place(reserve: Mapping[str, int], stones: int) -> int:
    """Stones of Forgiveness: one per type held at most; stones beyond that are ignored."""
    return min(max(stones, 0), len(held(reserve)))


def stone_gain(reserve: Mapping[str, int], sin: str) -> int:
    """What one stone on this type changes: it counts as one more card of the type."""
    n = reserve.get(sin, 0)
    return points_for(n + 1) - points_for(n)


def best_placement(reserve: Mapping[str, int], stones: int, most_wins: bool) -> tuple[str, ...]:
    """Stones of Forgiveness, placed as well as possible for the direction the Abyss decided.

    The stones must go on distinct types the player holds, as many as can be placed. Each stone's
    effect depends only on its own type, so the best set is the `k` types with the largest gains
    (most points win) or the smallest (fewest win). Among equal choices the rulebook's order
    decides, so the suggestion is stable. Returned sorted by key, as the API answers.
    """
    k = stones_to_place(reserve, stones)
    sign = 1 if most_wins else -1
    ranked = sorted(held(reserve), key=lambda s: (-sign * stone_gain(reserve, s), SINS.index(s)))
    return tuple(sorted(ranked[:k]))


def placement_problem(reserve: Mapping[str, int], stones: int, stones_on: Sequence[str]) -> tuple[str, dict] | None:
    """Stones of Forgiveness: why a chosen placement breaks the rules, or None if it is legal.

    Legal: each named type is known, named once and held, there are no more types than stones,
    and as many stones are placed as can be (one per type held).
    """
    unknown = [s for s in stones_on if s not in SINS]
    if unknown:
        return N_("%(sin)s is not a sin type."), {"sin": unknown[0]}
    if len(set(stones_on)) != len(stones_on):
        return N_("Put at most one stone on each sin type."), {}
    lacking = [s for s in stones_on if reserve.get(s, 0) <= 0]
    if lacking:
        return N_("%(sin)s: a stone can only go on a type the player holds cards of."), {"sin": lacking[0]}
    if len(stones_on) > stones:
        # One message per number (a refusal's words are chosen here, where the count is known).
        return (N_("That is more types than stones: %(stones)d stone to place.") if stones == 1 else
                N_("That is more types than stones: %(stones)d stones to place.")), {"stones": stones}
    k = stones_to_place(reserve, stones)
    if len(stones_on) < k:
        return (N_("Place %(n)d stone: every stone must go on a type held while one can.") if k == 1 else
                N_("Place %(n)d stones: every stone must go on a type held while one can.")), {"n": k}
    return None


def reserve_points(reserve: Mapping[str, int], stones_on: Iterable[str] = ()) -> dict[str, int]:
    """End of the game: the points of each type held, a stone counting as one more card."""
    placed = set(stones_on)
    return {s: points_for(reserve[s] + (1 if s in placed else 0)) for s in held(reserve)}


@dataclass(frozen=True)
class PlayerScore:
    """One player's final count."""

    name: str
    points: int
    cards: int  # cards in the reserve (stones are not cards): the first tie-break
    types: int  # different sin types held: the second tie-break
    by_type: Mapping[str, int]
    stones: int
    stones_on: tuple[str, ...]
    best_stones_on: tuple[str, ...]
    best_points: int
    rank: int = 0

    @property
    def chosen(self) -> bool:
        """The player placed the stones themselves instead of taking the suggestion."""
        return set(self.stones_on) != set(self.best_stones_on)

    @property
    def ignored_stones(self) -> int:
        return self.stones - len(self.stones_on)


def score_player(name: str, reserve: Mapping[str, int], stones: int, most_wins: bool,
                 stones_on: Sequence[str] | None = None) -> PlayerScore:
    """End of the game for one player: stones placed (best, unless the player chose), points by type."""
    best = best_placement(reserve, stones, most_wins)
    placed = tuple(sorted(stones_on)) if stones_on is not None else best
    by_type = reserve_points(reserve, placed)
    return PlayerScore(
        name=name, points=sum(by_type.values()), cards=sum(reserve.get(s, 0) for s in SINS),
        types=len(held(reserve)), by_type=by_type, stones=stones, stones_on=placed,
        best_stones_on=best, best_points=sum(reserve_points(reserve, best).values()),
    )


# -- the ranking -----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Standing:
    """What the ranking compares: points, then reserve cards, then different types."""

    name: str
    points: int
    cards: int
    types: int


#: Why the winner won: on points, or which tie-break settled it, or a shared win.
DECIDED_BY = {
    "points": N_("on points"),
    "cards": N_("tie on points: the most cards decide"),
    "types": N_("tie on points and cards: the most different types decide"),
    "shared": N_("a full tie: the win is shared"),
}


def rank_key(s: Standing, most_wins: bool) -> tuple[int, int, int]:
    """End of the game, ties: best points for the direction, then most cards, then most types."""
    return (-s.points if most_wins else s.points, -s.cards, -s.types)


def ranks(standings: Sequence[Standing], most_wins: bool) -> list[int]:
    """Each player's place (1 = won), in input order; players level on every tie-break share it."""
    keys = [rank_key(s, most_wins) for s in standings]
    return [1 + sum(other < key for other in keys) for key in keys]


def decided_by(standings: Sequence[Standing], most_wins: bool) -> str:
    """Which rule picked the winner: "points", "cards", "types" or "shared"."""
    if not standings:
        return "shared"
    keys = [rank_key(s, most_wins) for s in standings]
    best = min(keys)
    for depth, reason in ((1, "points"), (2, "cards"), (3, "types")):
        if sum(k[:depth] == best[:depth] for k in keys) == 1:
            return reason
    return "shared"


@dataclass(frozen=True)
class Decision:
    """What decided the win, to say first: the reason (as `decided_by`), the winner's points, cards
    and types, the tied players who lost on the tie-break, and the best count among them on it."""

    by: str
    points: int
    cards: int
    types: int
    rivals: tuple[str, ...] = ()
    other: int | None = None


def decision(standings: Sequence[Standing], most_wins: bool) -> Decision | None:
    """End of the game, ties: points first; on equal points the most cards (reserve cards only, our
    reading), then the most different types; level on all three, the win is shared."""
    if not standings:
        return None
    by = decided_by(standings, most_wins)
    keys = [rank_key(s, most_wins) for s in standings]
    best = min(keys)
    winner = standings[keys.index(best)]
    depth = {"points": 0, "cards": 1, "types": 2}.get(by)
    if depth is None:
        return Decision(by, winner.points, winner.cards, winner.types)
    level = [s for s, k in zip(standings, keys) if k[:depth] == best[:depth] and k != best]
    field = ("cards", "types")[depth - 1] if depth else None
    return Decision(by, winner.points, winner.cards, winner.types, tuple(s.name for s in level) if depth else (),
                    max(getattr(s, field) for s in level) if field else None)


@dataclass(frozen=True)
class GameScore:
    """The whole table's final count."""

    abyss_points: int
    most_points_wins: bool
    players: tuple[PlayerScore, ...]  # in the order given, each with its rank
    decided_by: str

    @property
    def winners(self) -> list[str]:
        return [p.name for p in self.players if p.rank == 1]

    @property
    def ranked(self) -> list[PlayerScore]:
        return sorted(self.players, key=lambda p: p.rank)


def score_game(players: Sequence[tuple[str, Mapping[str, int], int, Sequence[str] | None]],
               abyss: Mapping[str, int] | int) -> GameScore:
    """End of the game: the Abyss decides the direction, stones are placed, points totalled, ranked.

    `players` are (name, reserve, stones held, chosen stones or None for the best placement);
    `abyss` is the Abyss of Souls by type, or its points when only the total is known.
    Inputs are assumed valid (see checks.py).
    """
    abyss_total = abyss if isinstance(abyss, int) else abyss_points(abyss)
    most = most_points_wins(abyss_total)
    scores = [score_player(name, reserve, stones, most, chosen) for name, reserve, stones, chosen in players]
    standings = [Standing(p.name, p.points, p.cards, p.types) for p in scores]
    placed = tuple(replace(p, rank=r) for p, r in zip(scores, ranks(standings, most)))
    return GameScore(abyss_total, most, placed, decided_by(standings, most))


@dataclass(frozen=True)
class QuickScore:
    """The quick path: totals the table counted itself, ranked with the same tie-breaks."""

    abyss_points: int | None
    most_points_wins: bool
    players: tuple[Standing, ...]
    ranks: tuple[int, ...]
    decided_by: str

    @property
    def winners(self) -> list[str]:
        return [p.name for p, r in zip(self.players, self.ranks) if r == 1]

    @property
    def ranked(self) -> list[tuple[Standing, int]]:
        return sorted(zip(self.players, self.ranks), key=lambda pr: pr[1])


def score_totals(standings: Sequence[Standing], most_wins: bool, abyss: int | None = None) -> QuickScore:
    """End of the game from totals only: rank by points for the direction, then the tie-breaks."""
    return QuickScore(abyss, most_wins, tuple(standings), tuple(ranks(standings, most_wins)),
                      decided_by(standings, most_wins))
