"""Sinful Gibbon (rulebook v4.0): counting the seven sins after each round, running totals to 1000,
the seat swap and the jobs that pass clockwise. Pure: no Flask, no database.

The app never plays the cards. After a round the bookkeeper counts, for each player, what lies in
front of them (the shame stack, the leftovers turned face up, the accepted hearts) plus two
table-wide facts (who wears the Heartless Monkey Hat, who is the Braveheart). `count_sins` turns
that into the seven sins ("Scoring & the end", "The 7 deadly sins"); everything else (running
totals, the end of the game, who deals next) is derived from the stored round inputs, so editing a
past round recomputes everything after it.
"""
from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Callable, Iterable, Mapping, Sequence

from ...domain import N_, Problems, count

MIN_PLAYERS, MAX_PLAYERS = 3, 7
LIMIT = 1000  # "The end": the game ends after a round in which someone has at least this many points

# The deck ("Requirements"): 52 cards and one joker. Low cards are 2-10 in four suits; high cards
# are J, Q, K, A in four suits plus the joker; hearts are the 13 hearts plus the joker (it is
# whatever it was promised to be, so it counts as a heart when face up: "Lust").
DECK = 53
LOW_CARDS = 9 * 4
HIGH_CARDS = 4 * 4 + 1
HEARTS = 13 + 1

# Penalty points per sin ("The 7 deadly sins").
PRIDE_LOW = 10
PRIDE_HIGH = 20
SLOTH = 20
LUST = 20
ENVY = 20
WRATH = 50
GLUTTONY = 50
JEALOUSY = 50

SINS = ("pride", "sloth", "lust", "envy", "wrath", "gluttony", "jealousy")
SIN_NAMES = {
    "pride": N_("Pride"), "sloth": N_("Sloth"), "lust": N_("Lust"), "envy": N_("Envy"),
    "wrath": N_("Wrath"), "gluttony": N_("Gluttony"), "jealousy": N_("Jealousy"),
}
# The Braveheart is immune to the two heart sins ("Special cases").
HEART_SINS = ("lust", "envy")

# What the bookkeeper counts per player, and the largest value the deck allows for each.
COUNTS = ("low", "high", "cheats", "hearts", "accepted_hearts", "wrongful_doubts", "fattest_pile")
FLAGS = ("hat", "braveheart")
COUNT_MAX = {
    "low": LOW_CARDS, "high": HIGH_CARDS, "cheats": DECK, "hearts": HEARTS, "accepted_hearts": HEARTS,
    "wrongful_doubts": DECK, "fattest_pile": DECK - 1,
}
COUNT_NAMES = {
    "low": N_("Low cards face up (2–10)"),
    "high": N_("High cards face up (J, Q, K, A, joker)"),
    "cheats": N_("Cheats (sideways piles)"),
    "hearts": N_("Hearts face up (joker too)"),
    "accepted_hearts": N_("Accepted hearts (face down)"),
    "wrongful_doubts": N_("Wrongful doubts (straight piles)"),
    "fattest_pile": N_("Fattest pile (face-down cards)"),
}


@dataclass(frozen=True)
class Tally:
    """One player's counts after a round ("After the round"; "The 7 deadly sins").

    low / high: face-up cards in the shame stack and leftovers, 2-10 and J, Q, K, A or joker.
    cheats: piles lying sideways (doubts this player lost because they cheated).
    hearts: face-up hearts, the joker included. accepted_hearts: face-down cards beside the stack.
    wrongful_doubts: straight piles (doubts this player lost by doubting wrongly); leftovers are not piles.
    fattest_pile: the most face-down cards in any one of the player's piles.
    hat: wears the Heartless Monkey Hat at the end of the round. braveheart: got rid of every hand card.
    """

    low: int = 0
    high: int = 0
    cheats: int = 0
    hearts: int = 0
    accepted_hearts: int = 0
    wrongful_doubts: int = 0
    fattest_pile: int = 0
    hat: bool = False
    braveheart: bool = False

    def as_dict(self) -> dict:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_dict(cls, raw: Mapping) -> "Tally":
        """A tally from stored, already validated data (missing values are zero / false)."""
        return cls(**{k: int(raw.get(k, 0)) for k in COUNTS}, **{k: bool(raw.get(k, False)) for k in FLAGS})


@dataclass(frozen=True)
class Sins:
    """One player's sins for a round, in points. `immune`: the Braveheart (no Lust, no Envy)."""

    pride: int = 0
    sloth: int = 0
    lust: int = 0
    envy: int = 0
    wrath: int = 0
    gluttony: int = 0
    jealousy: int = 0
    immune: bool = False

    @property
    def total(self) -> int:
        return sum(getattr(self, s) for s in SINS)

    def as_dict(self) -> dict:
        return {**{s: getattr(self, s) for s in SINS}, "total": self.total}


def pride(t: Tally) -> int:
    """Pride (a tiny sin): 10 per low card face up (2-10), 20 per high card face up (J, Q, K, A, joker)."""
    return PRIDE_LOW * t.low + PRIDE_HIGH * t.high


def sloth(t: Tally) -> int:
    """Sloth (a tiny sin): 20 per cheat, that is per pile lying sideways in the shame stack."""
    return SLOTH * t.cheats


def lust(t: Tally) -> int:
    """Lust (a tiny sin): 20 per heart face up (the joker too); the Braveheart is immune ("Special cases")."""
    return 0 if t.braveheart else LUST * t.hearts


def envy(t: Tally, most_accepted: int) -> int:
    """Envy (a tiny sin): 20 per accepted heart fewer than the player with the most; the Braveheart is immune.

    Reading: the Braveheart's own accepted hearts still count when finding "the player with the
    most", since the cards are on the table; only the Braveheart's penalty is waived.
    """
    return 0 if t.braveheart else ENVY * (most_accepted - t.accepted_hearts)


def _most(values: Sequence[int]) -> int:
    return max(values, default=0)


def wrath(t: Tally, most_doubts: int) -> int:
    """Wrath (a great sin): 50 for having the most wrongful doubts; everyone sharing the most gets 50.

    Reading: when nobody doubted wrongly (the most is zero) nobody has Wrath; the rulebook states
    this only for Gluttony, and we apply the same reasoning here.
    """
    return WRATH if most_doubts > 0 and t.wrongful_doubts == most_doubts else 0


def gluttony(t: Tally, fattest: int) -> int:
    """Gluttony (a great sin): 50 for owning the pile with the most face-down cards; sharers get 50 each.

    When no pile has any face-down card, nobody has Gluttony ("Special cases").
    """
    return GLUTTONY if fattest > 0 and t.fattest_pile == fattest else 0


def jealousy(t: Tally) -> int:
    """Jealousy (a great sin): 50 for wearing the Heartless Monkey Hat when the sins are counted."""
    return JEALOUSY if t.hat else 0


def count_sins(tallies: Sequence[Tally]) -> tuple[Sins, ...]:
    """The counting table of one round: every player's seven sins, in the order given.

    Pride, Sloth, Lust and Jealousy depend on the player alone; Envy, Wrath and Gluttony compare
    the player with the others ("Tiny sins" and "Great sins").
    """
    most_accepted = _most([t.accepted_hearts for t in tallies])
    most_doubts = _most([t.wrongful_doubts for t in tallies])
    fattest = _most([t.fattest_pile for t in tallies])
    return tuple(
        Sins(pride=pride(t), sloth=sloth(t), lust=lust(t), envy=envy(t, most_accepted),
             wrath=wrath(t, most_doubts), gluttony=gluttony(t, fattest), jealousy=jealousy(t),
             immune=t.braveheart)
        for t in tallies
    )


# -- reading a round from untrusted input ----------------------------------------------------------

Path = Callable[[int, str], str]


def _flag(value, path: str, problems: Problems, strict: bool) -> bool:
    if isinstance(value, bool):
        return value
    if value is None:
        return False
    if not strict and value in ("", "0", "1", "on", "true", "false"):
        return value in ("1", "on", "true")
    problems.add(path, N_("Answer true or false."))
    return False


def _count(value, path: str, name: str, problems: Problems, strict: bool) -> int:
    if strict and isinstance(value, str):
        problems.add(path, N_("Enter a whole number."))
        return 0
    if not strict and isinstance(value, str) and not value.strip():
        return 0
    return count(value, path, problems, maximum=COUNT_MAX[name])


def read_tallies(rows: Sequence[Mapping], path: Path, table_path: str, *, names: Sequence[str] = (),
                 strict: bool = True) -> tuple[Tally, ...]:
    """Check one round's counts and return them as tallies; raise Invalid listing every problem.

    `rows` hold the seven counts and the two flags per player (missing counts are zero). `path(i,
    name)` names the field of player i in error messages; `table_path` takes the problems that
    concern the whole table. `strict` (the JSON API) refuses numbers sent as strings. The checks
    come from the rules and the deck: at most one hat and one Braveheart ("Heartless Monkey Hat",
    "Becoming a Braveheart"); no more cards of a kind than the deck holds; a player's face-up
    hearts are among their face-up cards; every pile in a shame stack shows its doubted card face
    up ("Doubting"), and a fattest pile needs a pile.
    """
    problems = Problems()
    tallies = []
    for i, row in enumerate(rows):
        values = {name: _count(row.get(name, 0), path(i, name), name, problems, strict) for name in COUNTS}
        flags = {name: _flag(row.get(name, False), path(i, name), problems, strict) for name in FLAGS}
        tally = Tally(**values, **flags)
        who = names[i] if i < len(names) else str(i + 1)
        face_up = tally.low + tally.high
        if tally.hearts > face_up:
            problems.add(path(i, "hearts"), N_("%(name)s shows more hearts face up (%(hearts)d) than face-up cards "
                                               "(%(cards)d): the hearts are among the face-up cards."),
                         name=who, hearts=tally.hearts, cards=face_up)
        piles = tally.cheats + tally.wrongful_doubts
        if piles > face_up:
            problems.add(path(i, "cheats"), N_("%(name)s has more piles, cheats and wrongful doubts (%(piles)d), than "
                                            "face-up cards (%(cards)d): each pile shows its doubted card face up."),
                         name=who, piles=piles, cards=face_up)
        if tally.fattest_pile and not piles:
            problems.add(path(i, "fattest_pile"), N_("%(name)s has no pile (no cheat, no wrongful doubt), so "
                                                     "there is no fattest pile to count."), name=who)
        tallies.append(tally)
    if problems:
        problems.raise_if_any()

    def over(message: str, **params) -> None:
        problems.add(table_path, message, **params)

    hats = [i for i, t in enumerate(tallies) if t.hat]
    if len(hats) > 1:
        over(N_("Only one player can wear the Heartless Monkey Hat (%(n)d do here)."), n=len(hats))
    bravehearts = [i for i, t in enumerate(tallies) if t.braveheart]
    if len(bravehearts) > 1:
        over(N_("At most one player can be the Braveheart (%(n)d are here)."), n=len(bravehearts))
    low = sum(t.low for t in tallies)
    if low > LOW_CARDS:
        over(N_("%(n)d low cards face up in all, but the deck holds only %(max)d (2 to 10 in four suits)."),
             n=low, max=LOW_CARDS)
    high = sum(t.high for t in tallies)
    if high > HIGH_CARDS:
        over(N_("%(n)d high cards face up in all, but the deck holds only %(max)d (J, Q, K, A in four suits "
                "and the joker)."), n=high, max=HIGH_CARDS)
    hearts = sum(t.hearts + t.accepted_hearts for t in tallies)
    if hearts > HEARTS:
        over(N_("%(n)d hearts in all (face up and accepted), but the deck holds only %(max)d (13 hearts and "
                "the joker)."), n=hearts, max=HEARTS)
    cards = sum(t.low + t.high + t.accepted_hearts + t.fattest_pile for t in tallies)
    if cards > DECK and low <= LOW_CARDS and high <= HIGH_CARDS:
        over(N_("That is %(n)d cards (face up, accepted and in the fattest piles), more than the %(max)d the "
                "deck holds."), n=cards, max=DECK)
    problems.raise_if_any()
    return tuple(tallies)


def read_players(raw, path_prefix: str = "players") -> tuple[list[str], list[Mapping]]:
    """The JSON API's `players`: 3 to 7 objects, each with a unique name; unknown fields are refused."""
    problems = Problems()
    if not isinstance(raw, list):
        problems.add(path_prefix, N_("Send the players as a list."))
        problems.raise_if_any()
    if not MIN_PLAYERS <= len(raw) <= MAX_PLAYERS:
        problems.add(path_prefix, N_("Sinful Gibbon is for %(min)d to %(max)d players; %(n)d were sent."),
                     min=MIN_PLAYERS, max=MAX_PLAYERS, n=len(raw))
        problems.raise_if_any()
    names: list[str] = []
    rows: list[Mapping] = []
    seen: set[str] = set()
    known = {"name", *COUNTS, *FLAGS}
    for i, row in enumerate(raw):
        at = f"{path_prefix}.{i}"
        if not isinstance(row, dict):
            problems.add(at, N_("Each player must be an object with a name and the counts."))
            names.append("")
            rows.append({})
            continue
        for key in sorted(k for k in row if k not in known)[:5]:
            problems.add(f"{at}.{str(key)[:40]}", N_("Unknown field."))
        name = row.get("name")
        if not isinstance(name, str) or not " ".join(name.split()):
            problems.add(f"{at}.name", N_("Enter a name."))
            name = ""
        else:
            name = " ".join(name.split())
            if len(name) > 30:
                problems.add(f"{at}.name", N_("Keep names to %(max)d characters."), max=30)
            elif name.casefold() in seen:
                problems.add(f"{at}.name", N_("Two players have this name."))
            seen.add(name.casefold())
        names.append(name)
        rows.append(row)
    problems.raise_if_any()
    return names, rows


# -- the game over many rounds ---------------------------------------------------------------------

@dataclass(frozen=True)
class RoundScore:
    """A counted round: each player's sins and running total after it, keyed by player id."""

    number: int
    sins: Mapping[int, Sins]
    totals: Mapping[int, int]

    @property
    def round_totals(self) -> dict[int, int]:
        return {pid: s.total for pid, s in self.sins.items()}


def score_rounds(player_ids: Sequence[int], rounds: Iterable[Mapping[int, Tally]]) -> tuple[RoundScore, ...]:
    """Every round's counting table and the running totals after it ("The 7 deadly sins": sins are
    added to each player's score after every round). A player absent from a round scores nothing in it."""
    totals = {pid: 0 for pid in player_ids}
    out = []
    for n, tallies in enumerate(rounds, start=1):
        ids = [pid for pid in player_ids if pid in tallies]
        sins = dict(zip(ids, count_sins([tallies[pid] for pid in ids])))
        for pid, s in sins.items():
            totals[pid] += s.total
        out.append(RoundScore(number=n, sins=sins, totals=dict(totals)))
    return tuple(out)


def is_over(totals: Mapping[int, int]) -> bool:
    """"The end": the game ends once a player has at least 1000 penalty points."""
    return any(v >= LIMIT for v in totals.values())


def first_end(scores: Sequence[RoundScore]) -> int | None:
    """The number of the first round after which somebody had 1000 or more, if any."""
    return next((s.number for s in scores if is_over(s.totals)), None)


@dataclass(frozen=True)
class Result:
    """The end of the game: the least total wins (shared on a tie); 1000 or more goes to Hell."""

    winners: tuple[int, ...]
    losers: tuple[int, ...]
    ranking: tuple[tuple[int, int], ...]  # (player id, points), least first


def result(totals: Mapping[int, int]) -> Result:
    """Winners and losers from the final totals ("The end")."""
    ranking = tuple(sorted(totals.items(), key=lambda kv: kv[1]))
    least = min(totals.values())
    return Result(
        winners=tuple(pid for pid, pts in ranking if pts == least),
        losers=tuple(pid for pid, pts in ranking if pts >= LIMIT),
        ranking=ranking,
    )


def hand_size(players: int) -> int:
    """"Startup": four hand cards each, three with six or seven players."""
    return 3 if players >= 6 else 4


def seat_after(seats: Sequence[int], pid: int, step: int = 1) -> int:
    """The player `step` seats clockwise (the seat order is clockwise)."""
    return seats[(list(seats).index(pid) + step) % len(seats)]


@dataclass(frozen=True)
class Jobs:
    """Who deals, who keeps the books and who plays first in a round."""

    dealer: int
    bookkeeper: int
    starter: int
    braveheart_starts: bool = False


def next_jobs(seats_before: Sequence[int], last_dealer: int, last_bookkeeper: int,
              seats_now: Sequence[int], last_braveheart: int | None) -> Jobs:
    """Jobs for the next round ("Before next round", "Startup").

    The dealer's and the bookkeeper's jobs belong to seats and move one seat clockwise each round,
    whoever was swapped: the next dealer is whoever now sits one seat clockwise of where the last
    dealer sat. Play starts with the last round's Braveheart, if any, else left of the dealer.
    """
    n = len(seats_now)
    dealer = seats_now[(list(seats_before).index(last_dealer) + 1) % n]
    bookkeeper = seats_now[(list(seats_before).index(last_bookkeeper) + 1) % n]
    if last_braveheart is not None and last_braveheart in seats_now:
        return Jobs(dealer, bookkeeper, last_braveheart, braveheart_starts=True)
    return Jobs(dealer, bookkeeper, seat_after(seats_now, dealer))


def first_jobs(seats: Sequence[int], dealer: int, bookkeeper: int) -> Jobs:
    """The first round: the chosen dealer and bookkeeper; the player on the dealer's left starts."""
    return Jobs(dealer, bookkeeper, seat_after(seats, dealer))


def swap_seats(seats: Sequence[int], a: int, b: int) -> list[int]:
    """"Before next round": the chooser swaps places with another player; everyone else stays put."""
    out = list(seats)
    i, j = out.index(a), out.index(b)
    out[i], out[j] = out[j], out[i]
    return out
