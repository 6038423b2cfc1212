"""The Day (rulebook "Phases of the Day", p. 11-15): its phases and steps, a new game's state, moving
through the Day, and Initiative (Planning step 4; "Card Anatomy: Schemes / Initiative", p. 8).

Pure: no Flask."""
from __future__ import annotations

import random
from dataclasses import dataclass

from ...domain import N_, Invalid, Problem
from .trackers import check_range, player_state, sync_players
from .victory import DOMINANCE_WIN, DRAW, ECONOMIC_WIN, FIFTH_DAY_WIN, MAX_DAYS, NO_WINNER, Verdict, plunder_verdict

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


# -- a new game ------------------------------------------------------------------------------------

def new_state(players: list[dict]) -> dict:
    """A new table's game state (setup not yet done)."""
    gs = {"setup_done": [], "line": {"flipped": False, "swapped": False, "gardens_with_inn": False}, "day": 1,
          "phase": DAWN, "first_player": None, "first_reason": None, "planning_holder": None, "first_draw": None,
          "initiative": {}, "players": {}, "control": {}, "duel": None, "notes": None}
    sync_players(gs, players)
    return gs


# -- Initiative ------------------------------------------------------------------------------------

INITIATIVE_MAX = 999


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


# A jump refused because Plunder would declare a victory: one sentence per victory, so each translates.
PENDING_VICTORY = {
    DOMINANCE_WIN: N_("A Dominance Victory is showing at Plunder: the game ends there (p. 15). "
                      "Declare it, or correct the counts first."),
    ECONOMIC_WIN: N_("An Economic Victory is showing at Plunder: the game ends there (p. 15). "
                     "Declare it, or correct the counts first."),
    FIFTH_DAY_WIN: N_("The fifth Day ends at Plunder (p. 15): declare the result there."),
    DRAW: N_("The fifth Day ends at Plunder (p. 15): declare the result there."),
}


def jump(gs: dict, phase: str, seats: list[str] | None = None) -> None:
    """Go straight to a phase of this Day (forwards skips the checks in between; Undo comes back).
    Going into another Day is only by finishing Dusk, so the new Day's clearing happens once.

    A jump never goes past a victory Plunder would declare (p. 15 Plunder 2a-2d: the game ends there):
    from Plunder, or from before it to after it, with a victory showing, it is refused with the
    victory named. Going back, to correct the counts, stays free."""
    if phase not in PHASES:
        raise Invalid(Problem("phase", N_("No such phase.")))
    here = current_phase(gs)
    if phase == here:
        raise Invalid(Problem("phase", N_("The Day is in this phase already.")))
    crosses = PHASES.index(here) <= PHASES.index(PLUNDER) < PHASES.index(phase)
    if seats is not None and crosses:
        verdict = plunder_verdict(gs, seats, gs["day"])
        if verdict.decided:
            raise Invalid(Problem("phase", PENDING_VICTORY[verdict.kind]))
    gs.pop("step", None)
    gs["phase"] = phase


def set_initiative(gs: dict, pid, value: int) -> None:
    player_state(gs, pid)
    gs["initiative"][str(pid)] = check_range(value, "initiative", 0, INITIATIVE_MAX)


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
