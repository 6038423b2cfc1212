"""City of Five Sails: setup, the Day and its phases, Initiative, Renown, Leaders and victory.

Pure: no Flask. Works on the table's game state (`state["game"]`, plain JSON) and raises
`domain.Invalid` on what the rules cannot accept. Rulebook sections: "Achieving Victory" (p. 2),
"Game Setup" (p. 3), "Phases of the Day" (p. 11-15), "Card Anatomy: Schemes / Initiative" (p. 8).
Duels are in duel.py, deck building in decks.py.
"""
from __future__ import annotations

import random
from dataclasses import dataclass

from ...domain import N_, Invalid, Problem

MAX_DAYS = 5
ECONOMIC_RENOWN = 7
RENOWN_MAX = 99
WOUNDS_MAX = 40
INFLUENCE_MAX = 99
INITIATIVE_MAX = 999

# -- readings -------------------------------------------------------------------------------------
# How the app reads the rules the rulebook leaves open. Each sentence is shown in the app where it
# matters AND written, word for word, in the rules page named here (a test checks both).

READINGS = {
    "initiative-tie": (
        "initiative",
        N_("Our reading: on a tie the token goes left from whoever held it when this Planning phase began, "
           "to the first of the tied players; the holder, if tied, comes last. Handing out again decides "
           "from that same holder.")),
    "clockwise": (
        "setup",
        N_("List the players in seat order going clockwise: the app's \"left\" and \"clockwise\" follow "
           "that order.")),
    "no-card-cap": (
        "restricted-hostilities",
        N_("Our reading: a character who plays no card takes its threat as wounds up to the adversary's "
           "duel stat (p. 24 says Combat, p. 25 and p. 27 say the stat of the duel; they agree in a "
           "Combat duel).")),
    "destroyed-can-win": (
        "victory-assassination",
        N_("With 3 or 4 players, a player whose Leader is destroyed stays in the game and can still win by "
           "Dominance, Economic or Fifth Day Victory.")),
    "all-fall": (
        "victory-assassination",
        N_("When the last Leaders in play fall in the same duel, nobody is the only player with a Leader: "
           "nobody wins an Assassination Victory, and the game goes on.")),
    "absent": (
        "absent-adversary",
        N_("Our reading: for each round, say whether the adversary is at the acting character's location "
           "when the card is played; if not, the threat that round sends is discarded, while Riposte still "
           "takes threat out of the actor's own pool.")),
    "gardens": (
        "setup-city-line",
        N_("Two readings of where Governor's Gardens goes with 4 players: outside the other end of the line "
           "(our default), or beyond Ole's Inn at the same end. Place it as your table reads the book.")),
    "tracker": (
        "wounds",
        N_("A Leader linked to a duel starts it with the wounds on its tracker; when the duel ends its wounds "
           "are added there, and wounds that reach the Leader's Resolve destroy it.")),
}


def reading(key: str) -> str:
    """The message id of one stated reading."""
    return READINGS[key][1]


# -- locations -------------------------------------------------------------------------------------

DOCKS, FORUMS, BAZAAR, OLES_INN, GARDENS = "docks", "forums", "bazaar", "oles-inn", "gardens"
CORE = (DOCKS, FORUMS, BAZAAR)
LOCATION_NAMES = {
    DOCKS: N_("The Docks"),
    FORUMS: N_("The Forums"),
    BAZAAR: N_("The Grand Bazaar"),
    OLES_INN: N_("Ole's Inn"),
    GARDENS: N_("Governor's Gardens"),
}


def locations_for(n_players: int) -> tuple[str, ...]:
    """The City locations in play (p. 3, p. 16): the three core ones, Ole's Inn with three or more
    players, Governor's Gardens with four."""
    extra = ((OLES_INN,) if n_players >= 3 else ()) + ((GARDENS,) if n_players >= 4 else ())
    return CORE + extra


def city_line(n_players: int, flipped: bool = False, swapped: bool = False, gardens_with_inn: bool = False) -> list[str]:
    """The City line, first item nearest the City Deck (p. 3 "Game Setup").

    The Forums sit in the middle, flanked by The Docks and The Grand Bazaar; Ole's Inn goes outside
    one end. The rulebook puts Governor's Gardens "to the outside of" a location shown only by an icon,
    so two readings stand: outside the other end of the line (our default), or beyond Ole's Inn at the
    same end (`gardens_with_inn`). The table also chooses which end is which: `swapped` exchanges The
    Docks and The Grand Bazaar, `flipped` turns the line end for end.
    """
    left, right = (BAZAAR, DOCKS) if swapped else (DOCKS, BAZAAR)
    line = [left, FORUMS, right]
    if n_players >= 3:
        line.append(OLES_INN)
    if n_players >= 4:
        if gardens_with_inn:
            line.append(GARDENS)
        else:
            line.insert(0, GARDENS)
    return line[::-1] if flipped else line


# -- setup -----------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Step:
    key: str
    label: str  # message id
    reminder: str  # message id: one line in our own words
    rule: str  # rules section slug
    kind: str = "plain"


def setup_steps(n_players: int) -> list[Step]:
    """The setup checklist for this many players (p. 3 "Game Setup")."""
    steps = [
        Step("pool", N_("Make the token pool"), N_("Wound and Renown tokens in one pile everyone can reach."),
             "setup"),
        Step("city-deck", N_("Shuffle the City Deck"), N_("All 30 cards, face down, within everyone's reach."),
             "city-deck"),
        Step("core-line", N_("Lay out the three core locations"),
             N_("The Forums in the middle, The Docks and The Grand Bazaar either side, one end nearest the City Deck."),
             "setup-city-line", "line"),
    ]
    if n_players >= 3:
        steps.append(Step("oles-inn", N_("Add Ole's Inn"), N_("Three or more players: outside one end of the line."),
                          "setup-city-line"))
    if n_players >= 4:
        steps.append(Step("gardens", N_("Add Governor's Gardens"),
                          N_("Four players: outside an end of the line. Our reading: the end opposite Ole's Inn; "
                             "if your table reads it as the same end, place it there and set the line below."),
                          "setup-city-line"))
    steps += [
        Step("leaders", N_("Reveal Leaders"), N_("Everyone at once, en garde (upright) at their Home."), "setup-leaders"),
        Step("decks", N_("Place both decks"),
             N_("Approach deck face down as built (not shuffled); Faction deck shuffled, face down."), "setup-decks"),
        Step("no-hand", N_("No opening hand"), N_("Nobody draws now: hands come in Planning."), "setup-decks"),
    ]
    return steps


# -- the Day ---------------------------------------------------------------------------------------

DAWN, PLANNING, HIGH_DRAMA, PLUNDER, DUSK = "dawn", "planning", "high-drama", "plunder", "dusk"
PHASE_NAMES = {DAWN: N_("Dawn"), PLANNING: N_("Planning"), HIGH_DRAMA: N_("High Drama"), PLUNDER: N_("Plunder"),
               DUSK: N_("Dusk")}

# Step kinds with app behaviour behind them.
DEAL, INITIATIVE, ACTIONS, DOMINANCE, RENOWN, ECONOMIC, FIFTH_DAY, UNCONTROL = (
    "deal", "initiative", "actions", "dominance", "renown", "economic", "fifth-day", "uncontrol")


@dataclass(frozen=True)
class DayStep:
    phase: str
    number: str  # as the rulebook numbers it: "3", "2a"
    label: str
    reminder: str
    rule: str
    kind: str = "plain"


DAY_STEPS: tuple[DayStep, ...] = (
    DayStep(DAWN, "1", N_("Beginning of the Day"), N_("Abilities that trigger as the Day begins happen now."), "dawn"),
    DayStep(DAWN, "2", N_("Beginning of Dawn"), N_("Abilities that trigger at the start of Dawn happen now."), "dawn"),
    DayStep(DAWN, "3", N_("Deal the City cards"),
            N_("One City Deck card to each location, one at a time, starting nearest the City Deck."), "dawn", DEAL),
    DayStep(DAWN, "4", N_("End of Dawn"), N_("Abilities that trigger at the end of Dawn happen now."), "dawn"),
    DayStep(PLANNING, "1", N_("Beginning of Planning"), N_("Abilities that trigger at the start of Planning happen now."),
            "planning"),
    DayStep(PLANNING, "2", N_("Choose in secret"),
            N_("Each player picks a scheme and a character from their Approach deck and lays them face down."),
            "planning-choose"),
    DayStep(PLANNING, "3", N_("Reveal"),
            N_("Turn them all over; \"when revealed\" effects resolve in the First Player's order (no First Player "
               "yet: settle Initiative first)."), "planning-reveal"),
    DayStep(PLANNING, "4", N_("Determine Initiative"),
            N_("Highest scheme Initiative takes the First Player token; a tie passes it to the left."),
            "initiative", INITIATIVE),
    DayStep(PLANNING, "5", N_("Muster"),
            N_("From the First Player clockwise, each revealed character joins its crew at Home; over the Crew Cap, "
               "send characters to The Locker."), "muster"),
    DayStep(PLANNING, "6", N_("Resolve schemes"),
            N_("From the First Player clockwise, each scheme's text above the bar, top to bottom; then it stays "
               "face up in play."), "planning-schemes"),
    DayStep(PLANNING, "7", N_("Draw"), N_("Each player draws as many cards as their Leader's Panache, as modified."),
            "planning-draw"),
    DayStep(PLANNING, "8", N_("End of Planning"), N_("Abilities that trigger at the end of Planning happen now."),
            "planning"),
    DayStep(HIGH_DRAMA, "1", N_("Beginning of High Drama"),
            N_("Abilities that trigger at the start of High Drama happen now."), "high-drama"),
    DayStep(HIGH_DRAMA, "2", N_("Take actions in turn"),
            N_("From the First Player clockwise, one action each (card action, move, equip, recruit, challenge, "
               "claim) or pass; the phase ends when everyone passes in a row."), "high-drama-actions", ACTIONS),
    DayStep(HIGH_DRAMA, "3", N_("End of High Drama"), N_("Abilities that trigger at the end of High Drama happen now."),
            "high-drama"),
    DayStep(PLUNDER, "1", N_("Beginning of Plunder"), N_("Abilities that trigger at the start of Plunder happen now."),
            "plunder"),
    DayStep(PLUNDER, "2a", N_("Check Dominance Victory"),
            N_("Does one player control The Docks, The Forums and The Grand Bazaar? Then they win."),
            "victory-dominance", DOMINANCE),
    DayStep(PLUNDER, "2b", N_("Collect Renown"),
            N_("Take the Renown on every location you control, then any Renown your scheme, Leader or other cards "
               "give."), "plunder-renown", RENOWN),
    DayStep(PLUNDER, "2c", N_("Check Economic Victory"),
            N_("Seven Renown or more wins; if several have it, the most Renown wins; still tied, play another Day "
               "(on the fifth Day, the fifth-Day tie-breaks settle it instead)."),
            "victory-economic", ECONOMIC),
    DayStep(PLUNDER, "2d", N_("Check the fifth Day"),
            N_("After the fifth Day's Plunder, the most Renown wins, then the tie-breaks."), "victory-fifth-day",
            FIFTH_DAY),
    DayStep(PLUNDER, "3", N_("End of Plunder"), N_("Abilities that trigger at the end of Plunder happen now."),
            "plunder"),
    DayStep(DUSK, "1", N_("Beginning of Dusk"), N_("Abilities that trigger at the start of Dusk happen now."), "dusk"),
    DayStep(DUSK, "2a", N_("Locations become uncontrolled"), N_("Nobody controls any location any more."), "dusk",
            UNCONTROL),
    DayStep(DUSK, "2b", N_("Everyone goes home"), N_("Every character becomes en garde and moves to its Home."), "dusk"),
    DayStep(DUSK, "2c", N_("Clear the City"), N_("Discard the City Deck cards still on City locations."), "dusk"),
    DayStep(DUSK, "2d", N_("Schemes to The Locker"), N_("Each Day's scheme leaves the game."), "dusk"),
    DayStep(DUSK, "2e", N_("Discard down"), N_("Keep no more cards in hand than your Leader's printed Panache."),
            "dusk"),
    DayStep(DUSK, "3", N_("End of Dusk"), N_("Abilities that trigger at the end of Dusk happen now."), "dusk"),
    DayStep(DUSK, "4", N_("End of the Day"),
            N_("Brutes still in play are discarded (to their owner's discard pile); abilities that trigger as the Day "
               "ends happen now."), "dusk"),
)
PHASES = (DAWN, PLANNING, HIGH_DRAMA, PLUNDER, DUSK)


def step_at(index: int) -> DayStep:
    return DAY_STEPS[index]


def phase_steps(phase: str) -> list[tuple[int, DayStep]]:
    return [(i, s) for i, s in enumerate(DAY_STEPS) if s.phase == phase]


def current_phase(gs: dict) -> str:
    """The phase the table is in. Tables saved before the stepper went by phase kept a step index."""
    phase = gs.get("phase")
    if phase in PHASES:
        return phase
    return DAY_STEPS[min(gs.get("step", 0), len(DAY_STEPS) - 1)].phase


def day_position(gs: dict) -> int:
    """Where the Day stands as one number (Day x 10 + phase): a form carries the one its phone
    showed, so a double tap or a second phone never moves the Day twice."""
    return gs.get("day", 1) * 10 + PHASES.index(current_phase(gs))


# -- the game state --------------------------------------------------------------------------------

def new_player_state() -> dict:
    return {"renown": 0, "leader_destroyed": False, "leader_wounds": 0, "influence": 0, "renown_lost": 0,
            "leader_resolve": None}


def new_state(players: list[dict]) -> dict:
    """A new table's game state (setup not yet done)."""
    gs = {"setup_done": [], "line": {"flipped": False, "swapped": False, "gardens_with_inn": False}, "day": 1,
          "phase": DAWN, "first_player": None, "first_reason": None, "planning_holder": None, "first_draw": None,
          "initiative": {}, "players": {}, "control": {}, "duel": None, "notes": None}
    sync_players(gs, players)
    return gs


def sync_players(gs: dict, players: list[dict]) -> None:
    """Keep the per-player state and the locations in step with the seats (players added or removed)."""
    ids = [str(p["id"]) for p in players]
    gs["players"] = {pid: gs.get("players", {}).get(pid) or new_player_state() for pid in ids}
    gs["initiative"] = {k: v for k, v in gs.get("initiative", {}).items() if k in ids}
    control = gs.get("control", {})
    gs["control"] = {loc: (control.get(loc) if control.get(loc) in ids else None) for loc in locations_for(len(ids))}
    if gs.get("first_player") is not None and str(gs["first_player"]) not in ids:
        gs["first_player"] = None
    done = set(gs.get("setup_done", []))
    keys = {s.key for s in setup_steps(len(ids))}
    gs["setup_done"] = [k for k in gs.get("setup_done", []) if k in keys and k in done]


def player_state(gs: dict, pid: int | str) -> dict:
    found = gs["players"].get(str(pid))
    if found is None:
        raise Invalid(Problem("player", N_("No such player at this table.")))
    return found


def seat_ids(players: list[dict]) -> list[str]:
    return [str(p["id"]) for p in players]


def _check_range(value: int, field: str, lo: int, hi: int) -> int:
    if value < lo:
        raise Invalid(Problem(field, N_("Must be at least %(min)d."), {"min": lo}))
    if value > hi:
        raise Invalid(Problem(field, N_("Must be at most %(max)d."), {"max": hi}))
    return value


def add_renown(gs: dict, pid, delta: int) -> int:
    """Gain or lose Renown (never below 0)."""
    ps = player_state(gs, pid)
    new = ps["renown"] + delta
    if new < 0:
        raise Invalid(Problem("delta", N_("Renown cannot go below 0.")))
    ps["renown"] = _check_range(new, "delta", 0, RENOWN_MAX)
    return ps["renown"]


def set_leader_resolve(gs: dict, pid, value: int) -> None:
    """Tell the tracker the Leader's Resolve (printed, or as modified by attachments): wounds that
    reach it destroy the Leader (p. 6 "Wounds", p. 8 "Resolve")."""
    ps = player_state(gs, pid)
    ps["leader_resolve"] = _check_range(value, "resolve", 1, WOUNDS_MAX)


def add_leader_wounds(gs: dict, pid, delta: int) -> int:
    """Wounds on the Leader's tracker go up or down; the caller checks `reaches_resolve` next."""
    ps = player_state(gs, pid)
    if ps["leader_destroyed"]:
        raise Invalid(Problem("delta", N_("This Leader is destroyed: no wounds to track.")))
    new = ps["leader_wounds"] + delta
    if new < 0:
        raise Invalid(Problem("delta", N_("Wounds cannot go below 0.")))
    ps["leader_wounds"] = _check_range(new, "delta", 0, WOUNDS_MAX)
    return ps["leader_wounds"]


def reaches_resolve(gs: dict, pid) -> bool:
    """A Leader in play whose wounds are at or over its known Resolve is destroyed (p. 6 "Wounds")."""
    ps = player_state(gs, pid)
    resolve = ps.get("leader_resolve")
    return not ps["leader_destroyed"] and resolve is not None and ps["leader_wounds"] >= resolve


def add_influence(gs: dict, pid, delta: int) -> int:
    ps = player_state(gs, pid)
    new = ps["influence"] + delta
    if new < 0:
        raise Invalid(Problem("delta", N_("Influence cannot go below 0.")))
    ps["influence"] = _check_range(new, "delta", 0, INFLUENCE_MAX)
    return ps["influence"]


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
    wounds it ended with, its Resolve in the duel, and whether the duel destroyed it."""

    player: str
    started: int
    ended: int
    resolve: int
    destroyed: bool


def leader_wounds_for_duel(gs: dict, pid) -> int:
    """A linked Leader starts a duel with the wounds on its tracker (the one record of them)."""
    ps = player_state(gs, pid)
    if ps["leader_destroyed"]:
        raise Invalid(Problem("player", N_("This Leader is already destroyed.")))
    return ps["leader_wounds"]


def close_duel(gs: dict, leaders: list[DuelWounds], seats: list[str]) -> Destruction | None:
    """A finished duel onto the trackers: each linked Leader's tracker gains the wounds taken in the
    duel (added, never overwritten) and learns its Resolve; every Leader destroyed in the duel, or
    whose tracker now reaches its Resolve, is destroyed, all of them before the one Assassination
    check (p. 2; p. 25 "Resolve Threat")."""
    fallen = []
    for lw in leaders:
        ps = player_state(gs, lw.player)
        if ps["leader_destroyed"]:
            continue
        ps["leader_wounds"] = min(WOUNDS_MAX, ps["leader_wounds"] + max(0, lw.ended - lw.started))
        ps["leader_resolve"] = lw.resolve
        if lw.destroyed or reaches_resolve(gs, lw.player):
            fallen.append(str(lw.player))
    return destroy_leaders(gs, fallen, seats) if fallen else None


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


# -- Initiative ------------------------------------------------------------------------------------

@dataclass(frozen=True)
class FirstPlayer:
    player: str
    reason: str  # "highest", "tie-left", "tie-random"
    tied: tuple[str, ...] = ()


def determine_initiative(initiative: dict[str, int], seats: list[str], holder: str | None,
                         rng: random.Random | None = None, earlier_draw: dict | None = None) -> FirstPlayer:
    """Planning step 4 (p. 12, p. 8): the highest scheme Initiative takes the First Player token.

    `holder` is whoever held the token when this Planning phase began, never a token handed out
    earlier in the same Planning: handing out again with the same values gives the same player, and
    a corrected value is decided again from the same holder.

    Our reading of a tie: the token passes to the left of its holder (seats are listed clockwise, so
    the left is the next seat clockwise) and keeps going to the left until it reaches one of the tied
    players; the holder, if tied, is reached last. On a tie with no holder yet, one tied player is
    drawn at random, and the same tie drawn again this Day gives the same player (`earlier_draw`).
    """
    missing = [s for s in seats if s not in initiative]
    if missing:
        raise Invalid(Problem("initiative", N_("Enter every player's Initiative first.")))
    best = max(initiative[s] for s in seats)
    tied = tuple(s for s in seats if initiative[s] == best)
    if len(tied) == 1:
        return FirstPlayer(tied[0], "highest")
    if holder is not None and holder in seats:
        start = seats.index(holder)
        for step in range(1, len(seats) + 1):
            seat = seats[(start + step) % len(seats)]
            if seat in tied:
                return FirstPlayer(seat, "tie-left", tied)
    if earlier_draw and list(earlier_draw.get("tied", [])) == list(tied) and earlier_draw.get("player") in tied:
        return FirstPlayer(earlier_draw["player"], "tie-random", tied)
    chooser = rng or random.SystemRandom()
    return FirstPlayer(chooser.choice(tied), "tie-random", tied)


def clockwise_from(seats: list[str], first: str | None) -> list[str]:
    """Seat order starting with the First Player: the order for muster and schemes."""
    if first is None or first not in seats:
        return list(seats)
    i = seats.index(first)
    return seats[i:] + seats[:i]


# -- victory ---------------------------------------------------------------------------------------

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


# -- moving through the Day ------------------------------------------------------------------------

def game_over(doc: dict) -> None:
    if doc.get("status") == "finished":
        raise Invalid(Problem("step", N_("The game is over. Undo the last change to keep playing.")))


def start_game(gs: dict) -> None:
    """Day 1 begins at Dawn; nobody holds the First Player token yet."""
    gs["day"], gs["phase"] = 1, DAWN
    gs.pop("step", None)
    gs["planning_holder"] = gs.get("first_player")
    gs["first_draw"] = None


def advance(gs: dict, seats: list[str]) -> Verdict:
    """Press "next" at the end of a phase. At Plunder the victory checks come first (a win ends the
    game: the Day does not move). After Dusk a new Day starts at Dawn: locations are uncontrolled
    (Dusk 2a), Initiative is entered anew, and the First Player token stays with its holder, who is
    the holder this new Day's Planning starts from."""
    phase = current_phase(gs)
    if phase == PLUNDER:
        verdict = plunder_verdict(gs, seats, gs["day"])
        if verdict.decided:
            return verdict
    i = PHASES.index(phase)
    gs.pop("step", None)
    if i + 1 < len(PHASES):
        gs["phase"] = PHASES[i + 1]
        return NO_WINNER
    if gs["day"] >= MAX_DAYS:
        raise Invalid(Problem("step", N_("The fifth Day is the last: the game ended at its Plunder.")))
    gs["day"] += 1
    gs["phase"] = DAWN
    gs["control"] = {loc: None for loc in gs["control"]}
    gs["initiative"] = {}
    gs["first_reason"] = None
    gs["first_tied"] = []
    gs["first_draw"] = None
    gs["planning_holder"] = gs.get("first_player")
    return NO_WINNER


def jump(gs: dict, phase: str) -> None:
    """Go straight to a phase of this Day (forwards skips the checks in between; Undo comes back).
    Going into another Day is only by finishing Dusk, so the new Day's clearing happens once."""
    if phase not in PHASES:
        raise Invalid(Problem("phase", N_("No such phase.")))
    if phase == current_phase(gs):
        raise Invalid(Problem("phase", N_("The Day is in this phase already.")))
    gs.pop("step", None)
    gs["phase"] = phase


def set_initiative(gs: dict, pid, value: int) -> None:
    player_state(gs, pid)
    gs["initiative"][str(pid)] = _check_range(value, "initiative", 0, INITIATIVE_MAX)


def hand_out_first_player(gs: dict, seats: list[str], rng: random.Random | None = None) -> FirstPlayer:
    """Planning step 4, from the holder at the start of this Planning (kept in `planning_holder`)."""
    if "planning_holder" not in gs:  # a table saved before the holder was kept
        gs["planning_holder"] = gs.get("first_player") if not gs.get("first_reason") else None
    fp = determine_initiative(gs["initiative"], seats, gs["planning_holder"], rng, gs.get("first_draw"))
    gs["first_player"] = fp.player
    gs["first_reason"] = fp.reason
    gs["first_tied"] = list(fp.tied)
    if fp.reason == "tie-random":
        gs["first_draw"] = {"tied": list(fp.tied), "player": fp.player}
    return fp
