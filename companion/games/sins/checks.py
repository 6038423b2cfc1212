"""7 - The Sins: reading untrusted counts (the JSON API and the table's forms) and checking them
against what the box holds. Pure: no Flask. Every problem is collected, with the field it belongs
to, before anything is scored.

Limits come from the rulebook: 2-5 players (Setup A's table), the sin types a player count plays
with, 11 cards of each type (Components), two Stones of Forgiveness per player (Setup E).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Mapping, Sequence

from ...domain import N_, Problem, Problems
from ...numbers import parse_int
from ...tables.players import NAME_MAX
from . import rules

Label = Callable[[str], str]
MAX_STONES = max(rules.STONES_FOR.values())
#: Quick path bounds: the lowest and highest totals seven types can make.
MIN_TOTAL = -6 * len(rules.SINS)
MAX_TOTAL = rules.SEVEN_OR_MORE * len(rules.SINS)
MAX_CARDS = rules.cards_of_a_type(penitenziagite=True) * len(rules.SINS)
PLAYER_FIELDS = {"name", "reserve", "stones", "stones_on"}
REQUEST_FIELDS = {"players", "abyss", "penitenziagite"}


def _same(sin: str) -> str:
    return sin


def _shown(value, limit: int = 40) -> str:
    text = str(value)
    return text if len(text) <= limit else text[:limit] + "…"


def read_count(value, path: str, problems: Problems, *, maximum: int, minimum: int = 0,
               strict: bool = True, too_many: str | None = None) -> int | None:
    """A whole number from input. `strict` (JSON): only a JSON integer will do; otherwise (a form)
    digits typed in a box are read too. Returns None when it is not a usable number."""
    if isinstance(value, str) and not strict:
        text = value.strip()
        if text == "":
            return minimum if minimum >= 0 else 0
        value = parse_int(text, signed=True, max_digits=6)
        if value is None:
            problems.add(path, N_("Enter a whole number."))
            return None
    if isinstance(value, bool) or not isinstance(value, int):
        problems.add(path, N_("Enter a whole number."))
        return None
    if value < minimum:
        if minimum == 0:
            problems.add(path, N_("A count cannot be negative."))
        else:
            problems.add(path, N_("Must be at least %(min)d."), min=minimum)
        return None
    if value > maximum:
        problems.add(path, too_many or N_("Must be at most %(max)d."), max=maximum)
        return None
    return value


def read_sin_counts(raw, path: str, problems: Problems, *, strict: bool = True,
                    allowed: Sequence[str] = rules.SINS, penitenziagite: bool = False) -> dict[str, int]:
    """Cards by sin type ({"invidia": 2, ...}). Unknown types, and types not in play, are refused."""
    if not isinstance(raw, Mapping):
        problems.add(path, N_("Give the cards as sin type: count, e.g. {\"invidia\": 2}."))
        return {}
    out: dict[str, int] = {}
    for key, value in raw.items():
        field = f"{path}.{_shown(key)}" if path else _shown(key)
        if key not in rules.SINS:
            problems.add(field, N_("Unknown sin type. Use one of: %(sins)s."), sins=", ".join(rules.SINS))
            continue
        if key not in allowed:
            problems.add(field, N_("This sin type is not in play at this table."))
            continue
        n = read_count(value, field, problems, maximum=rules.cards_of_a_type(penitenziagite), strict=strict,
                       too_many=N_("There are only %(max)d cards of each sin type.") if not penitenziagite
                       else N_("There are only %(max)d cards of each sin type, its Penitenziagite card included."))
        if n:
            out[key] = n
    return out


def read_stones_on(raw, path: str, problems: Problems) -> list[str] | None:
    """The types a player chose for their stones; None (or absent) means "the best placement"."""
    if raw is None:
        return None
    if not isinstance(raw, list) or not all(isinstance(s, str) for s in raw):
        problems.add(path, N_("Give a list of sin types, e.g. [\"luxuria\", \"acedia\"]."))
        return None
    return list(raw)


def check_placement(reserve: Mapping[str, int], stones: int, stones_on: Sequence[str], path: str,
                    problems: Problems, label: Label = _same) -> None:
    found = rules.placement_problem(reserve, stones, stones_on)
    if found:
        message, params = found
        if "sin" in params:
            params = {**params, "sin": label(params["sin"]) if params["sin"] in rules.SINS else _shown(params["sin"])}
        problems.add(path, message, **params)


def check_card_totals(counts: Sequence[Mapping[str, int]], problems: Problems, label: Label = _same,
                      field: Callable[[str], str] = lambda sin: f"cards.{sin}", penitenziagite: bool = False) -> None:
    """Components: 11 cards of each type exist (12 with its Penitenziagite card), across every
    reserve and the Abyss together."""
    limit = rules.cards_of_a_type(penitenziagite)
    for sin in rules.SINS:
        total = sum(c.get(sin, 0) for c in counts)
        if total > limit:
            problems.add(field(sin),
                         N_("There are only %(max)d %(sin)s cards, but the reserves and the Abyss add up to %(total)d.")
                         if not penitenziagite else
                         N_("There are only %(max)d %(sin)s cards with its Penitenziagite card, but the reserves and "
                            "the Abyss add up to %(total)d."),
                         max=limit, sin=label(sin), total=total)


def count_warnings(reserves: Sequence[tuple[str, str, Mapping[str, int]]], stones_held: int,
                   abyss: Mapping[str, int] | None, abyss_field: str = "abyss") -> list[Problem]:
    """Counts the rules make impossible but that must still be scored (the table may have miscounted).

    `reserves` are (field, name, reserve). A reserve is never empty: every player starts with one
    Hell I card in it (Setup B) and cards never leave it. The stones held cannot outnumber the
    Abyss's cards: a stone is only taken by putting at least one card on the Abyss (Gameplay).
    `abyss` None: only its points are known, so the second check is skipped.
    """
    found = []
    for field, name, reserve in reserves:
        if sum(reserve.values()) == 0:
            found.append(Problem(field, N_("%(name)s's reserve is empty, yet everyone starts with one Hell I card "
                                           "in it and cards never leave it. Check the count."), {"name": name}))
    if abyss is not None:
        cards = sum(abyss.values())
        if stones_held > cards:
            found.append(Problem(abyss_field, N_("The players hold more Stones of Forgiveness (%(stones)d) than the "
                                                 "Abyss has cards (%(cards)d), and each stone is taken by putting at least "
                                                 "one card on the Abyss. Check the counts."),
                                 {"stones": stones_held, "cards": cards}))
    return found


def check_sin_types(players: int, counts: Sequence[Mapping[str, int]], problems: Problems, field: str = "sin_types") -> None:
    """Setup A: a table of `players` plays with a fixed number of sin types, and no more."""
    if players not in rules.SIN_TYPES_FOR:
        return
    used = {s for c in counts for s, n in c.items() if n > 0}
    allowed = rules.sin_types_for(players)
    if len(used) > allowed:
        problems.add(field, N_("With %(players)d players the game uses %(allowed)d sin types, but these counts use %(used)d."),
                     players=players, allowed=allowed, used=len(used))


def check_stone_supply(players: int, stones: Sequence[int], problems: Problems, field: str = "stones") -> None:
    """Setup E: only two Stones of Forgiveness per player are in the game."""
    if players not in rules.STONES_FOR:
        return
    supply = rules.stones_for(players)
    if sum(stones) > supply:
        problems.add(field, N_("With %(players)d players there are %(supply)d Stones of Forgiveness, but the players hold %(held)d."),
                     players=players, supply=supply, held=sum(stones))


# -- the JSON API ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class PlayerEntry:
    name: str
    reserve: Mapping[str, int]
    stones: int
    stones_on: tuple[str, ...] | None


@dataclass(frozen=True)
class ScoreRequest:
    players: tuple[PlayerEntry, ...]
    abyss: Mapping[str, int]
    penitenziagite: bool = False


def read_name(raw, path: str, problems: Problems) -> str | None:
    if not isinstance(raw, str) or not " ".join(raw.split()):
        problems.add(path, N_("Enter a name."))
        return None
    name = " ".join(raw.split())
    if len(name) > NAME_MAX:
        problems.add(path, N_("Keep names to %(max)d characters."), max=NAME_MAX)
        return None
    return name


def read_score_request(payload: Mapping) -> ScoreRequest:
    """POST /api/v1/sins/score: check everything, report every problem by field, or return the input."""
    problems = Problems()
    for key in payload:
        if key not in REQUEST_FIELDS:
            problems.add(_shown(key), N_("Unknown field. Send \"players\" and \"abyss\"."))
    pen = payload.get("penitenziagite", False)
    if not isinstance(pen, bool):
        problems.add("penitenziagite", N_("Answer true or false."))
        pen = False
    raw_players = payload.get("players")
    if not isinstance(raw_players, list):
        problems.add("players", N_("Give the players as a list."))
        raw_players = []
    elif not rules.MIN_PLAYERS <= len(raw_players) <= rules.MAX_PLAYERS:
        problems.add("players", N_("7 - The Sins is for %(min)d to %(max)d players, not %(n)d."),
                     min=rules.MIN_PLAYERS, max=rules.MAX_PLAYERS, n=len(raw_players))
    n = len(raw_players)
    supply = rules.STONES_FOR.get(n, MAX_STONES)
    if "abyss" not in payload:
        problems.add("abyss", N_("Give the Abyss of Souls cards by sin type ({} if it is empty)."))
        abyss: dict[str, int] = {}
    else:
        abyss = read_sin_counts(payload["abyss"], "abyss", problems, penitenziagite=pen)

    entries: list[PlayerEntry] = []
    seen: set[str] = set()
    for i, raw in enumerate(raw_players[:rules.MAX_PLAYERS * 4]):
        path = f"players.{i}"
        if not isinstance(raw, Mapping):
            problems.add(path, N_("Each player is an object with a name and a reserve."))
            continue
        for key in raw:
            if key not in PLAYER_FIELDS:
                problems.add(f"{path}.{_shown(key)}", N_("Unknown field. A player has name, reserve, stones and stones_on."))
        name = read_name(raw.get("name"), f"{path}.name", problems)
        if name is not None:
            if name.casefold() in seen:
                problems.add(f"{path}.name", N_("Two players have this name."))
            seen.add(name.casefold())
        if "reserve" not in raw:
            problems.add(f"{path}.reserve", N_("Give the reserve's cards by sin type ({} if it is empty)."))
        before = len(problems.items)
        reserve = read_sin_counts(raw.get("reserve", {}), f"{path}.reserve", problems, penitenziagite=pen)
        reserve_ok = len(problems.items) == before
        stones = read_count(raw.get("stones", 0), f"{path}.stones", problems, maximum=supply,
                            too_many=N_("Only %(max)d Stones of Forgiveness are in play."))
        stones_on = read_stones_on(raw.get("stones_on"), f"{path}.stones_on", problems)
        if stones_on is not None and stones is not None and reserve_ok:
            check_placement(reserve, stones, stones_on, f"{path}.stones_on", problems)
        entries.append(PlayerEntry(name or "", reserve, stones or 0,
                                   tuple(stones_on) if stones_on is not None else None))

    if rules.MIN_PLAYERS <= n <= rules.MAX_PLAYERS:
        check_sin_types(n, [e.reserve for e in entries] + [abyss], problems)
        check_stone_supply(n, [e.stones for e in entries], problems)
    check_card_totals([e.reserve for e in entries] + [abyss], problems, penitenziagite=pen)
    problems.raise_if_any()
    return ScoreRequest(tuple(entries), abyss, pen)


def score_response(request: ScoreRequest, translate: Callable[[str], str] | None = None) -> dict:
    """The API's answer: the Abyss, the direction, every player in input order with their rank."""
    game = rules.score_game([(e.name, e.reserve, e.stones, e.stones_on) for e in request.players], request.abyss)
    return {
        "abyss_points": game.abyss_points,
        "most_points_wins": game.most_points_wins,
        "players": [{
            "name": p.name, "points": p.points, "stones_on": list(p.stones_on), "cards": p.cards,
            "types": p.types, "by_type": dict(p.by_type), "rank": p.rank,
        } for p in game.players],
        "winners": game.winners,
        "decided_by": game.decided_by,
        "warnings": [{"field": w.field, "message": w.text(translate)} for w in count_warnings(
            [(f"players.{i}.reserve", e.name, e.reserve) for i, e in enumerate(request.players)],
            sum(e.stones for e in request.players), request.abyss)],
    }


__all__ = ["read_score_request", "score_response", "read_count", "read_sin_counts", "count_warnings",
           "check_card_totals", "check_sin_types", "check_stone_supply", "check_placement"]
