"""The players' trackers in the game state: Renown, Influence, the Leader's wounds and Resolve, and
who controls each location (rulebook p. 2, p. 6 "Wounds", p. 8, p. 14 "Claim Action").

Pure: no Flask. Works on the table's game state (`state["game"]`, plain JSON)."""
from __future__ import annotations

from ...domain import N_, Invalid, Problem
from .city import locations_for, setup_steps

RENOWN_MAX = 99
WOUNDS_MAX = 40
INFLUENCE_MAX = 99


# -- the players' state ----------------------------------------------------------------------------

def new_player_state() -> dict:
    return {"renown": 0, "leader_destroyed": False, "leader_wounds": 0, "influence": 0, "renown_lost": 0,
            "leader_resolve": None}


def sync_players(gs: dict, players: list[dict]) -> None:
    """Keep the per-player state and the locations in step with the seats (players added or removed)."""
    ids = [str(p["id"]) for p in players]
    gs["players"] = {pid: gs.get("players", {}).get(pid) or new_player_state() for pid in ids}
    gs["initiative"] = {k: v for k, v in gs.get("initiative", {}).items() if k in ids}
    control = gs.get("control", {})
    gs["control"] = {loc: (control.get(loc) if control.get(loc) in ids else None) for loc in locations_for(len(ids))}
    _forget_departed_first_player(gs, ids)
    done = set(gs.get("setup_done", []))
    keys = {s.key for s in setup_steps(len(ids))}
    gs["setup_done"] = [k for k in gs.get("setup_done", []) if k in keys and k in done]


def _forget_departed_first_player(gs: dict, ids: list[str]) -> None:
    """A seat that left takes its part of the First Player record with it (Planning step 4, p. 12): the
    token it held, the tie it was in, the random draw it was part of, the holder a tie passes on from.
    The reason given for the token no longer holds once the record changed, so it goes too."""
    changed = False
    if gs.get("first_player") is not None and str(gs["first_player"]) not in ids:
        gs["first_player"] = None
        changed = True
    tied = gs.get("first_tied") or []
    if any(str(s) not in ids for s in tied):
        gs["first_tied"] = []
        changed = True
    draw = gs.get("first_draw")
    if draw and any(str(s) not in ids for s in [*draw.get("tied", []), draw.get("player")] if s is not None):
        gs["first_draw"] = None
        changed = True
    if gs.get("planning_holder") is not None and str(gs["planning_holder"]) not in ids:
        gs["planning_holder"] = None
        changed = True
    if changed and "first_reason" in gs:
        gs["first_reason"] = None


def player_state(gs: dict, pid: int | str) -> dict:
    found = gs["players"].get(str(pid))
    if found is None:
        raise Invalid(Problem("player", N_("No such player at this table.")))
    return found


def seat_ids(players: list[dict]) -> list[str]:
    return [str(p["id"]) for p in players]


def check_range(value: int, field: str, lo: int, hi: int) -> int:
    if value < lo:
        raise Invalid(Problem(field, N_("Must be at least %(min)d."), {"min": lo}))
    if value > hi:
        raise Invalid(Problem(field, N_("Must be at most %(max)d."), {"max": hi}))
    return value


def _count_on(gs: dict, pid, key: str, delta: int, most: int, below_zero: str) -> int:
    """One of a player's counters goes up or down by `delta`, within 0 and `most`; returns its value."""
    ps = player_state(gs, pid)
    new = ps[key] + delta
    if new < 0:
        raise Invalid(Problem("delta", below_zero))
    ps[key] = check_range(new, "delta", 0, most)
    return ps[key]


def add_renown(gs: dict, pid, delta: int) -> int:
    """Gain or lose Renown (never below 0)."""
    return _count_on(gs, pid, "renown", delta, RENOWN_MAX, N_("Renown cannot go below 0."))


def set_leader_resolve(gs: dict, pid, value: int) -> None:
    """Tell the tracker the Leader's Resolve (printed, or as modified by attachments): wounds that
    reach it destroy the Leader (p. 6 "Wounds", p. 8 "Resolve")."""
    ps = player_state(gs, pid)
    ps["leader_resolve"] = check_range(value, "resolve", 1, WOUNDS_MAX)


def add_leader_wounds(gs: dict, pid, delta: int) -> int:
    """Wounds on the Leader's tracker go up or down; the caller checks `reaches_resolve` next."""
    if player_state(gs, pid)["leader_destroyed"]:
        raise Invalid(Problem("delta", N_("This Leader is destroyed: no wounds to track.")))
    return _count_on(gs, pid, "leader_wounds", delta, WOUNDS_MAX, N_("Wounds cannot go below 0."))


def reaches_resolve(gs: dict, pid) -> bool:
    """A Leader in play whose wounds are at or over its known Resolve is destroyed (p. 6 "Wounds")."""
    ps = player_state(gs, pid)
    resolve = ps.get("leader_resolve")
    return not ps["leader_destroyed"] and resolve is not None and ps["leader_wounds"] >= resolve


def add_influence(gs: dict, pid, delta: int) -> int:
    return _count_on(gs, pid, "influence", delta, INFLUENCE_MAX, N_("Influence cannot go below 0."))


def set_control(gs: dict, location: str, pid) -> None:
    """A player takes control of a location (a claim), or nobody controls it (pid None). Control is
    exclusive: one player at a time (p. 14 "Claim Action")."""
    if location not in gs["control"]:
        raise Invalid(Problem("location", N_("That location is not in this game.")))
    if pid is not None:
        player_state(gs, pid)
        pid = str(pid)
    gs["control"][location] = pid


def controlled_by(gs: dict, pid) -> list[str]:
    return [loc for loc, owner in gs["control"].items() if owner == str(pid)]
