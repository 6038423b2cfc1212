"""7 - The Sins at the end of a game: the score sheet a table fills in (the Abyss, each reserve,
the stones' placement, or the quick path's totals) and the table's score and result from it.
Pure functions on the table document, as in table.py."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence

from ...domain import N_, Invalid, Problem, Problems
from . import checks, rules
from .state import MODES, Label, _pid_ok, player_count, score_state, stones_of

__all__ = ["set_mode", "in_play", "save_abyss", "save_abyss_total", "set_direction", "save_reserve",
           "drop_illegal_placement", "place_stones", "best_stones", "save_quick", "TableScore", "warnings",
           "abyss_value", "table_score", "player_score", "result", "finish_problems", "finish",
           "refresh_result"]


# -- scoring ---------------------------------------------------------------------------------------

def set_mode(state: dict, mode: str) -> None:
    if mode not in MODES:
        raise Invalid(Problem("how", N_("Pick how to score from the list.")))
    score_state(state["game"])["mode"] = mode


def in_play(state: dict) -> tuple[str, ...]:
    return tuple(state["game"].get("sins", ()))


def _others_counts(state: dict, skip_player: str | None, skip_abyss: bool) -> list[Mapping[str, int]]:
    score = score_state(state["game"])
    out = [v for k, v in score["reserves"].items() if k != skip_player]
    if not skip_abyss and score["abyss"]:
        out.append(score["abyss"])
    return out


def _check_cards_left(state: dict, mine: Mapping[str, int], problems: Problems, label: Label,
                      skip_player: str | None = None, skip_abyss: bool = False) -> None:
    """Components: with everything already entered, no type may go over its 11 cards. The problem
    goes next to the box of that type on the form being saved."""
    others = _others_counts(state, skip_player, skip_abyss)
    checks.check_card_totals(others + [mine], problems, label, field=lambda sin: sin,
                             penitenziagite=bool(state["game"].get("penitenziagite")))


def save_abyss(state: dict, raw: Mapping[str, str], label: Label) -> dict[str, int]:
    """End of the game: the Abyss of Souls sorted by type (only the types in play)."""
    sins = in_play(state)
    if not sins:
        raise Invalid(Problem("abyss", N_("Choose the sin types in play first (setup step A).")))
    problems = Problems()
    counts = checks.read_sin_counts({s: raw.get(s, "") for s in sins}, "", problems, strict=False, allowed=sins,
                                   penitenziagite=bool(state["game"].get("penitenziagite")))
    if not problems:
        _check_cards_left(state, counts, problems, label, skip_abyss=True)
    problems.raise_if_any()
    score = score_state(state["game"])
    score["abyss"] = counts
    score["abyss_total"] = None
    return counts


def save_abyss_total(state: dict, raw: str) -> int:
    """The Abyss's points when the table counted them by hand."""
    problems = Problems()
    points = checks.read_count(raw, "points", problems, minimum=checks.MIN_TOTAL, maximum=checks.MAX_TOTAL, strict=False)
    problems.raise_if_any()
    score = score_state(state["game"])
    score["abyss_total"] = points
    score["abyss"] = None
    return points


def set_direction(state: dict, most_wins: bool) -> None:
    """The quick path without any Abyss count: the table says which way the Abyss went."""
    score = score_state(state["game"])
    score["most_wins"] = bool(most_wins)


def save_reserve(state: dict, pid: int, raw: Mapping[str, str], raw_stones: str, label: Label) -> dict[str, int]:
    """End of the game: one player's reserve sorted by type, and the stones they hold."""
    key = _pid_ok(state, pid)
    sins = in_play(state)
    if not sins:
        raise Invalid(Problem("reserve", N_("Choose the sin types in play first (setup step A).")))
    problems = Problems()
    counts = checks.read_sin_counts({s: raw.get(s, "") for s in sins}, "", problems, strict=False, allowed=sins,
                                   penitenziagite=bool(state["game"].get("penitenziagite")))
    n = player_count(state)
    total = rules.STONES_FOR.get(n, checks.MAX_STONES)
    stones = checks.read_count(raw_stones, "stones", problems, maximum=total, strict=False,
                               too_many=N_("Only %(max)d Stones of Forgiveness are in play."))
    if not problems:
        _check_cards_left(state, counts, problems, label, skip_player=key)
        others = sum(v for k, v in state["game"].get("stones", {}).items() if k != key)
        if others + stones > total:
            problems.add("stones", N_("Only %(supply)d stones are in play and the others hold %(others)d: "
                                      "this player can hold at most %(left)d."),
                         supply=total, others=others, left=total - others)
    problems.raise_if_any()
    gs = state["game"]
    score = score_state(gs)
    score["reserves"][key] = counts
    stones_map = dict(gs.get("stones", {}))
    if stones:
        stones_map[key] = stones
    else:
        stones_map.pop(key, None)
    gs["stones"] = stones_map
    drop_illegal_placement(state, pid)
    return counts


def drop_illegal_placement(state: dict, pid: int) -> None:
    """A player's own stone placement stays only while it is still legal for their reserve."""
    score = score_state(state["game"])
    key = str(pid)
    chosen = score["stones_on"].get(key)
    if chosen is None:
        return
    reserve = score["reserves"].get(key, {})
    if rules.placement_problem(reserve, stones_of(state, pid), chosen):
        del score["stones_on"][key]


def place_stones(state: dict, pid: int, stones_on: Sequence[str], label: Label) -> tuple[str, ...]:
    """Stones of Forgiveness, placed by the player instead of the suggestion."""
    key = _pid_ok(state, pid)
    score = score_state(state["game"])
    if key not in score["reserves"]:
        raise Invalid(Problem("stones_on", N_("Enter this player's reserve first.")))
    problems = Problems()
    checks.check_placement(score["reserves"][key], stones_of(state, pid), list(stones_on), "stones_on", problems, label)
    problems.raise_if_any()
    placed = tuple(sorted(stones_on))
    score["stones_on"][key] = list(placed)
    return placed


def best_stones(state: dict, pid: int) -> None:
    """Back to the suggested placement."""
    key = _pid_ok(state, pid)
    score_state(state["game"])["stones_on"].pop(key, None)


def save_quick(state: dict, pid: int, raw_points: str, raw_cards: str, raw_types: str) -> None:
    """The quick path: a player's total, with the reserve's cards and types for the tie-breaks."""
    key = _pid_ok(state, pid)
    problems = Problems()
    points = checks.read_count(raw_points, "points", problems, minimum=checks.MIN_TOTAL, maximum=checks.MAX_TOTAL, strict=False)
    cards = checks.read_count(raw_cards, "cards", problems, maximum=checks.MAX_CARDS, strict=False)
    n_types = len(in_play(state)) or len(rules.SINS)
    types = checks.read_count(raw_types, "types", problems, maximum=n_types, strict=False,
                              too_many=N_("Only %(max)d sin types are in play."))
    if not problems and types > cards:
        problems.add("types", N_("A reserve cannot hold more types than cards."))
    if not problems and cards and not types:
        problems.add("types", N_("A reserve with cards holds at least one type."))
    problems.raise_if_any()
    score_state(state["game"])["quick"][key] = {"points": points, "cards": cards, "types": types}


# -- the table's score -----------------------------------------------------------------------------

@dataclass(frozen=True)
class TableScore:
    """What the score page shows: who is still missing, and the count once everyone is in."""

    mode: str
    missing: tuple[int, ...]  # player ids still to enter
    abyss_known: bool
    abyss_points: int | None
    most_points_wins: bool | None
    game: rules.GameScore | None  # the detailed path, when complete
    quick: rules.QuickScore | None  # the quick path, when complete

    @property
    def complete(self) -> bool:
        return self.game is not None or self.quick is not None

    @property
    def winners(self) -> list[str]:
        found = self.game or self.quick
        return found.winners if found else []

    @property
    def decided_by(self) -> str | None:
        found = self.game or self.quick
        return found.decided_by if found else None

    @property
    def decision(self) -> rules.Decision | None:
        """What decided the win (points, or the tie-break that did), with the counts to say it."""
        if self.game is not None:
            standings = [rules.Standing(p.name, p.points, p.cards, p.types) for p in self.game.players]
        elif self.quick is not None:
            standings = list(self.quick.players)
        else:
            return None
        return rules.decision(standings, bool(self.most_points_wins))


def warnings(state: dict) -> list[Problem]:
    """Impossible counts entered for scoring, shown before the result is recorded but never refused
    (see checks.count_warnings). Fields: "reserve.<player id>" and "abyss"."""
    score = score_state(state["game"])
    if score["mode"] != "detailed":
        return []
    reserves = [(f"reserve.{p['id']}", p["name"], score["reserves"][str(p["id"])])
                for p in state["players"] if str(p["id"]) in score["reserves"]]
    held = sum(state["game"].get("stones", {}).values())
    return checks.count_warnings(reserves, held, score["abyss"])


def abyss_value(score: dict) -> int | None:
    if score.get("abyss") is not None:
        return rules.abyss_points(score["abyss"])
    return score.get("abyss_total")


def table_score(state: dict) -> TableScore:
    gs = state["game"]
    score = score_state(gs)
    players = state["players"]
    abyss = abyss_value(score)
    if abyss is not None:
        most: bool | None = rules.most_points_wins(abyss)
    else:
        most = score.get("most_wins")
    if score["mode"] == "quick":
        missing = tuple(p["id"] for p in players if str(p["id"]) not in score["quick"])
        quick = None
        if not missing and most is not None:
            standings = [rules.Standing(p["name"], **score["quick"][str(p["id"])]) for p in players]
            quick = rules.score_totals(standings, most, abyss)
        return TableScore("quick", missing, most is not None, abyss, most, None, quick)
    missing = tuple(p["id"] for p in players if str(p["id"]) not in score["reserves"])
    game = None
    if not missing and abyss is not None:
        entries = [(p["name"], score["reserves"][str(p["id"])], stones_of(state, p["id"]),
                    score["stones_on"].get(str(p["id"]))) for p in players]
        game = rules.score_game(entries, abyss)
    return TableScore("detailed", missing, abyss is not None, abyss, most, game, None)


def player_score(state: dict, pid: int, most_wins: bool) -> rules.PlayerScore | None:
    """One player's count as entered so far (shown before everyone is in)."""
    score = score_state(state["game"])
    reserve = score["reserves"].get(str(pid))
    if reserve is None:
        return None
    player = next(p for p in state["players"] if p["id"] == pid)
    return rules.score_player(player["name"], reserve, stones_of(state, pid), most_wins,
                              score["stones_on"].get(str(pid)))


def result(state: dict) -> dict:
    """doc["result"] for a finished table: winners and every player's points, best first."""
    ts = table_score(state)
    if ts.game is not None:
        scores = [{"name": p.name, "points": p.points} for p in ts.game.ranked]
    elif ts.quick is not None:
        scores = [{"name": s.name, "points": s.points} for s, _r in ts.quick.ranked]
    else:
        raise Invalid(Problem("finish", N_("Enter every player's count first.")))
    return {"winners": ts.winners, "scores": scores}


def finish_problems(state: dict) -> list[Problem]:
    ts = table_score(state)
    if ts.complete:
        return []
    if ts.missing:
        return [Problem("finish", N_("Still to enter: %(names)s."),
                        {"names": ", ".join(p["name"] for p in state["players"] if p["id"] in ts.missing)})]
    if ts.mode == "quick":
        return [Problem("finish", N_("Say whether the most or the fewest points win (or count the Abyss)."))]
    return [Problem("finish", N_("Count the Abyss of Souls first."))]


def finish(doc: dict) -> dict:
    """End of the game: record the result so the table list shows it."""
    problems = finish_problems(doc["state"])
    if problems:
        raise Invalid(problems)
    doc["result"] = result(doc["state"])
    doc["status"] = "finished"
    return doc["result"]


def refresh_result(doc: dict) -> None:
    """A finished table whose count is corrected keeps its recorded result in step."""
    if doc.get("status") == "finished" and table_score(doc["state"]).complete:
        doc["result"] = result(doc["state"])
