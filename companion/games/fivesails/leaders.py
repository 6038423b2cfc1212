"""Leaders (rulebook p. 2 "Assassination Victory", p. 17 "Leader Cards", p. 25 "Resolve Threat"):
destroyed with their Renown loss, a finished duel onto their trackers, and one put back by mistake.

Pure: no Flask."""
from __future__ import annotations

import copy
from dataclasses import dataclass

from ...domain import N_, Invalid, Problem
from .trackers import RENOWN_MAX, WOUNDS_MAX, player_state
from .victory import Verdict, check_assassination


def renown_loss(renown: int) -> int:
    """Half the Renown, rounded up (p. 2 "Assassination Victory")."""
    return (renown + 1) // 2


def destroy_leader(gs: dict, pid, n_players: int) -> int:
    """Mark a player's Leader destroyed. In a 3-4 player game that player loses half their Renown,
    rounded up, once (p. 2). Returns the Renown lost. No victory is checked here: see `destroy_leaders`."""
    ps = player_state(gs, pid)
    if ps["leader_destroyed"]:
        raise Invalid(Problem("player", N_("This Leader is already destroyed.")))
    lost = renown_loss(ps["renown"]) if n_players >= 3 else 0
    ps["leader_destroyed"] = True
    ps["renown"] -= lost
    ps["renown_lost"] = lost
    return lost


@dataclass(frozen=True)
class Destruction:
    """Leaders destroyed together, the Renown each lost, and the Assassination check made after all
    of them (`verdict`); `nobody_left` when no Leader at all is in play any more."""

    lost: dict[str, int]
    verdict: "Verdict"
    nobody_left: bool


def destroy_leaders(gs: dict, pids, seats: list[str]) -> Destruction:
    """Destroy every Leader that falls at once (one duel can destroy both participants), then check
    Assassination Victory once, on the state after all of them (p. 2, p. 17 "Leader Cards"). When no
    Leader is left in play, nobody wins an Assassination Victory and play goes on."""
    lost = {}
    for pid in pids:
        lost[str(pid)] = destroy_leader(gs, pid, len(seats))
    alive = [s for s in seats if not gs["players"][s]["leader_destroyed"]]
    return Destruction(lost, check_assassination(gs, seats), nobody_left=not alive)


@dataclass(frozen=True)
class DuelWounds:
    """What a finished duel did to one Leader linked to a player: the wounds it started with, the
    wounds it ended with, its Resolve in the duel, whether the duel destroyed it, and when: `fell_at`
    is the round it fell in (0 for a refusal), None when it did not fall."""

    player: str
    started: int
    ended: int
    resolve: int
    destroyed: bool
    fell_at: int | None = None


def leader_wounds_for_duel(gs: dict, pid) -> int:
    """A linked Leader starts a duel with the wounds on its tracker (the one record of them)."""
    ps = player_state(gs, pid)
    if ps["leader_destroyed"]:
        raise Invalid(Problem("player", N_("This Leader is already destroyed.")))
    return ps["leader_wounds"]


def _fall_order(lw: DuelWounds) -> int:
    return lw.fell_at if lw.fell_at is not None else 1 << 16


def close_duel(gs: dict, leaders: list[DuelWounds], seats: list[str]) -> Destruction | None:
    """A finished duel onto the trackers: each linked Leader's tracker gains the wounds taken in the
    duel (added, never overwritten) and learns its Resolve; every Leader destroyed in the duel, or
    whose tracker now reaches its Resolve, is destroyed (p. 25 "Resolve Threat").

    Only the acting side takes wounds in a round (p. 25), so two Leaders never fall together: they fall
    in the order of their rounds, and Assassination is checked after each fall. "If only one player has
    a Leader in play, they win the game" (p. 17 "Leader Cards"; p. 2): the moment one player is left
    with a Leader, they win at once, and a later fall in the same duel no longer happens."""
    fallen: list[DuelWounds] = []
    for lw in sorted(leaders, key=_fall_order):
        ps = player_state(gs, lw.player)
        if ps["leader_destroyed"]:
            continue
        if lw.destroyed or ps["leader_wounds"] + max(0, lw.ended - lw.started) >= lw.resolve:
            fallen.append(lw)
            continue
        _onto_tracker(ps, lw)
    if not fallen:
        return None
    lost: dict[str, int] = {}
    verdict = check_assassination(gs, seats)
    for lw in fallen:
        if verdict.decided:  # the game was won before this Leader fell
            break
        _onto_tracker(player_state(gs, lw.player), lw)
        lost[str(lw.player)] = destroy_leader(gs, lw.player, len(seats))
        verdict = check_assassination(gs, seats)
    alive = [s for s in seats if not gs["players"][s]["leader_destroyed"]]
    return Destruction(lost, verdict, nobody_left=not alive)


def decides_game(gs: dict, leaders: list[DuelWounds], seats: list[str]) -> bool:
    """Whether the falls of a duel so far, put onto the trackers now, would decide the game by
    Assassination Victory (p. 2; p. 17 "Leader Cards"). The duel then stops there: the game is over,
    so no later round is played (the table is not changed; a copy is)."""
    gone = close_duel(copy.deepcopy(gs), leaders, seats)
    return gone is not None and gone.verdict.decided


def _onto_tracker(ps: dict, lw: DuelWounds) -> None:
    ps["leader_wounds"] = min(WOUNDS_MAX, ps["leader_wounds"] + max(0, lw.ended - lw.started))
    ps["leader_resolve"] = lw.resolve


def restore_leader(gs: dict, pid) -> int:
    """Put back a Leader marked destroyed by mistake, with the Renown the mark took away. Wounds at or
    over its Resolve come down to one less, or the tracker would destroy it again at once."""
    ps = player_state(gs, pid)
    if not ps["leader_destroyed"]:
        raise Invalid(Problem("player", N_("This Leader is in play already.")))
    back = ps.get("renown_lost", 0)
    ps["leader_destroyed"] = False
    ps["renown"] = min(RENOWN_MAX, ps["renown"] + back)
    ps["renown_lost"] = 0
    resolve = ps.get("leader_resolve")
    if resolve is not None and ps["leader_wounds"] >= resolve:
        ps["leader_wounds"] = resolve - 1
    return back
