"""7 - The Sins: the game's part of a table document, made whole, and who sits at the table.
Pure. The shape is declared in shape.py; table.py changes it, sheet.py scores it."""
from __future__ import annotations

from typing import Callable

from ...domain import N_, Invalid, Problem
from . import rules

MODES = ("detailed", "quick")
Label = Callable[[str], str]


def new_state(players: list[dict]) -> dict:
    first = players[0]["id"] if players else None
    return {
        "sins": list(rules.SINS) if rules.SIN_TYPES_FOR.get(len(players)) == len(rules.SINS) else [], "penitenziagite": False, "done": [], "first": first, "turn": first,
        "judgments": 0, "third_on": None, "round_done": False, "stones": {},
        "score": new_score(),
    }


def new_score() -> dict:
    return {"mode": "detailed", "abyss": None, "abyss_total": None, "reserves": {}, "stones_on": {},
            "quick": {}, "most_wins": None}


def ensure(state: dict) -> dict:
    """The game's state with every part present (older or hand-made documents may lack some)."""
    gs = state.setdefault("game", {})
    for key, value in new_state(state["players"]).items():
        gs.setdefault(key, value)
    score_state(gs)
    return gs


def score_state(gs: dict) -> dict:
    score = gs.setdefault("score", new_score())
    for key, value in new_score().items():
        score.setdefault(key, value)
    return score


def seat_ids(state: dict) -> list[int]:
    return [p["id"] for p in state["players"]]


def player_count(state: dict) -> int:
    return len(state["players"])


def _pid_ok(state: dict, pid: int, field: str = "who") -> str:
    if pid not in seat_ids(state):
        raise Invalid(Problem(field, N_("That player is not at this table.")))
    return str(pid)


def players_changed(state: dict) -> None:
    """A player joined or left during setup: forget what belonged to players no longer seated."""
    gs = state.setdefault("game", {})
    ids = seat_ids(state)
    keep = {str(i) for i in ids}
    if gs.get("first") not in ids:
        gs["first"] = ids[0] if ids else None
    if gs.get("turn") not in ids:
        gs["turn"] = gs.get("first")
    if gs.get("third_on") not in ids:
        gs["third_on"] = None
    gs["stones"] = {k: v for k, v in gs.get("stones", {}).items() if k in keep}
    if not gs.get("sins") and sins_needed(state) == len(rules.SINS):
        gs["sins"] = list(rules.SINS)  # Setup A at 5 players: all seven, nothing to choose
    score = score_state(gs)
    for part in ("reserves", "stones_on", "quick"):
        score[part] = {k: v for k, v in score[part].items() if k in keep}


def sins_needed(state: dict) -> int | None:
    return rules.SIN_TYPES_FOR.get(player_count(state))


def stones_of(state: dict, pid: int) -> int:
    return state["game"].get("stones", {}).get(str(pid), 0)
