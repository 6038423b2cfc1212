"""Achieving Victory (rulebook p. 2; Plunder 2a-2d, p. 15): Assassination, Dominance, Economic and
Fifth Day Victory with its tie-breaks, the Day Limit, and the table's result.

Pure: no Flask."""
from __future__ import annotations

from dataclasses import dataclass

from ...domain import N_
from .city import CORE
from .trackers import controlled_by

MAX_DAYS = 5  # the Day Limit
ECONOMIC_RENOWN = 7

ASSASSINATION, DOMINANCE_WIN, ECONOMIC_WIN, FIFTH_DAY_WIN, DRAW = (
    "assassination", "dominance", "economic", "fifth-day", "draw")
VICTORY_NAMES = {
    ASSASSINATION: N_("Assassination Victory"),
    DOMINANCE_WIN: N_("Dominance Victory"),
    ECONOMIC_WIN: N_("Economic Victory"),
    FIFTH_DAY_WIN: N_("Fifth Day Victory"),
    DRAW: N_("Draw"),
}
# Which tie-break settled a fifth-Day result.
BY_RENOWN, BY_LOCATIONS, BY_INFLUENCE, BY_WOUNDS, BY_NOTHING = "renown", "locations", "influence", "wounds", "draw"
TIEBREAK_NAMES = {
    BY_RENOWN: N_("most Renown"),
    BY_LOCATIONS: N_("most locations controlled"),
    BY_INFLUENCE: N_("most Influence"),
    BY_WOUNDS: N_("the Leader with the fewest wounds"),
    BY_NOTHING: N_("still tied after every tie-break: a draw"),
}


@dataclass(frozen=True)
class Verdict:
    """The outcome of a check. `winners` empty means nobody wins at this check; `tied` lists players
    who met the condition but could not be separated (Economic: play another Day)."""

    kind: str | None
    winners: tuple[str, ...] = ()
    tied: tuple[str, ...] = ()
    decided_by: str | None = None

    @property
    def decided(self) -> bool:
        return bool(self.winners)


NO_WINNER = Verdict(None)


def check_assassination(gs: dict, seats: list[str]) -> Verdict:
    """Assassination Victory (p. 2; p. 17 Leaders): the only player with a Leader in play wins at once.
    With no Leader in play at all, nobody wins this way."""
    alive = [s for s in seats if not gs["players"][s]["leader_destroyed"]]
    if len(alive) == 1 and len(seats) >= 2:
        return Verdict(ASSASSINATION, (alive[0],))
    return NO_WINNER


def check_dominance(gs: dict, seats: list[str]) -> Verdict:
    """Dominance Victory (p. 2; Plunder 2a): one player controls The Docks, The Forums and The Grand
    Bazaar. Checked before Renown, so it beats an Economic Victory."""
    owners = {gs["control"].get(loc) for loc in CORE}
    if len(owners) == 1:
        owner = owners.pop()
        if owner is not None and owner in seats:
            return Verdict(DOMINANCE_WIN, (owner,))
    return NO_WINNER


def check_economic(gs: dict, seats: list[str]) -> Verdict:
    """Economic Victory (p. 2; Plunder 2c): seven Renown or more wins. Several players: the most Renown
    wins; still tied: nobody wins yet and the table plays another Day (at most five)."""
    rich = [s for s in seats if gs["players"][s]["renown"] >= ECONOMIC_RENOWN]
    if not rich:
        return NO_WINNER
    best = max(gs["players"][s]["renown"] for s in rich)
    top = tuple(s for s in rich if gs["players"][s]["renown"] == best)
    if len(top) == 1:
        return Verdict(ECONOMIC_WIN, top, decided_by=BY_RENOWN if len(rich) > 1 else None)
    return Verdict(None, tied=top)


def check_fifth_day(gs: dict, seats: list[str]) -> Verdict:
    """After the fifth Day (p. 2 "Day Limit" and "Ties"): the most Renown wins; then the most locations
    controlled; then the most Influence; then the Leader with the fewest wounds; then a draw.

    A destroyed Leader ranks behind every Leader in play on the wounds tie-break (the rulebook does not
    say; a destroyed Leader has taken at least its Resolve in wounds).
    """
    ps = gs["players"]
    keys = [
        (BY_RENOWN, lambda s: ps[s]["renown"]),
        (BY_LOCATIONS, lambda s: len(controlled_by(gs, s))),
        (BY_INFLUENCE, lambda s: ps[s]["influence"]),
        (BY_WOUNDS, lambda s: (0 if ps[s]["leader_destroyed"] else 1, -ps[s]["leader_wounds"])),
    ]
    field = list(seats)
    for name, key in keys:
        best = max(key(s) for s in field)
        field = [s for s in field if key(s) == best]
        if len(field) == 1:
            return Verdict(FIFTH_DAY_WIN, (field[0],), decided_by=name)
    return Verdict(DRAW, tuple(field), decided_by=BY_NOTHING)


def plunder_verdict(gs: dict, seats: list[str], day: int) -> Verdict:
    """The checks Plunder makes, in the rulebook's order (p. 15 Plunder 2a-2d): Dominance Victory, then
    (after Renown is collected) Economic Victory, then on the fifth Day the Fifth Day Victory. Control
    does not change while Renown is collected, so checking them together gives the same answer."""
    for verdict in (check_dominance(gs, seats), check_economic(gs, seats)):
        if verdict.decided:
            return verdict
    if day >= MAX_DAYS:
        return check_fifth_day(gs, seats)
    return NO_WINNER


def result_for(gs: dict, players: list[dict], verdict: Verdict) -> dict:
    """The table's `result`: the winners by name and every player's points (their Renown)."""
    names = {str(p["id"]): p["name"] for p in players}
    return {"winners": [names[w] for w in verdict.winners],
            "scores": [{"name": p["name"], "points": gs["players"][str(p["id"])]["renown"]} for p in players],
            "victory": verdict.kind, "decided_by": verdict.decided_by}
