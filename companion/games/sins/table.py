"""7 - The Sins at one table: the game's part of the table document and every change to it (setup
and play here; the score sheet in sheet.py, named here too, so `table.X` reaches every change).

Pure functions on plain data (the document is JSON): no Flask. Each change checks its input and
raises `Invalid` with the form field the problem belongs to; the views only translate and route.

    game = {
      "sins": ["superbia", ...],        Setup A: the types in play, in the rulebook's order
      "penitenziagite": false,          the advanced mode
      "done": ["A", "B", ...],          setup steps ticked
      "first": 3,                       the first player's id
      "turn": 3,                        whose turn it is (the light turn tracker)
      "judgments": 0,                   Last Judgment cards revealed (0-3)
      "third_on": null,                 whose turn it was when the third one came out
      "round_done": false,              Penitenziagite: the last player has finished since
      "stones": {"3": 1},               Stones of Forgiveness each player took (the rest is the supply)
      "score": {
        "mode": "detailed" | "quick",
        "abyss": {"invidia": 6, ...} | null,     the Abyss by type, or
        "abyss_total": -1 | null,                only its points, when the table counted them
        "reserves": {"3": {"invidia": 2, ...}},  each player's reserve by type (present = entered)
        "stones_on": {"3": ["ira", "luxuria"]},  a player's own placement (absent: the best one)
        "quick": {"3": {"points": 12, "cards": 9, "types": 4}},  the quick path's totals
        "most_wins": true | null                 the quick path's direction when no Abyss is given
      }
    }
"""
from __future__ import annotations

import random
from typing import Sequence

from ...domain import N_, Invalid, Problem
from . import rules

from .state import (MODES, Label, _pid_ok, ensure, new_score, new_state, player_count,  # noqa: F401
                    players_changed, score_state, seat_ids, sins_needed, stones_of)
from . import sheet
from .sheet import *  # noqa: F401,F403 (the score sheet's changes are the table's too)


# -- setup -----------------------------------------------------------------------------------------


def choose_sins(state: dict, sins: Sequence[str]) -> tuple[str, ...]:
    """Setup A, chosen by the table: exactly the number of types the player count plays with."""
    gs = state["game"]
    unknown = [s for s in sins if s not in rules.SINS]
    if unknown:
        raise Invalid(Problem("sin", N_("Pick sin types from the list.")))
    chosen = rules.in_rulebook_order(sins)
    needed = sins_needed(state)
    if needed is not None and len(chosen) != needed:
        raise Invalid(Problem("sin", N_("With %(players)d players, pick exactly %(n)d sin types (%(picked)d picked)."),
                              {"players": player_count(state), "n": needed, "picked": len(chosen)}))
    _check_sins_cover_counts(gs, chosen)
    gs["sins"] = list(chosen)
    return chosen


def draw_sins(state: dict, rng: random.Random | None = None) -> tuple[str, ...]:
    """Setup A, drawn at random by the app."""
    needed = sins_needed(state)
    if needed is None:
        raise Invalid(Problem("draw", N_("7 - The Sins is for 2 to 5 players.")))
    if _counted_sins(state["game"]):
        raise Invalid(Problem("draw", N_("Cards are already counted for scoring: pick the types by hand instead.")))
    chosen = rules.draw_sins(player_count(state), rng)
    state["game"]["sins"] = list(chosen)
    return chosen


def _counted_sins(gs: dict) -> set[str]:
    score = score_state(gs)
    counts = list(score["reserves"].values()) + [score["abyss"] or {}]
    return {s for c in counts for s, n in c.items() if n}


def _check_sins_cover_counts(gs: dict, chosen: Sequence[str]) -> None:
    """Changing the types in play must not silently throw away counts already entered."""
    orphaned = _counted_sins(gs) - set(chosen)
    if orphaned:
        raise Invalid(Problem("sin", N_("Cards of a type you left out are already counted for scoring; "
                                        "set those counts to 0 first.")))


def tick(state: dict, step: str, done: bool) -> None:
    allowed = rules.SETUP_STEPS + rules.PENITENZIAGITE_STEPS
    if step not in allowed:
        raise Invalid(Problem("tick", N_("There is no such setup step.")))
    gs = state["game"]
    ticked = [s for s in gs.get("done", []) if s != step]
    if done:
        ticked.append(step)
    gs["done"] = [s for s in allowed if s in ticked]


def set_penitenziagite(state: dict, on: bool) -> None:
    state["game"]["penitenziagite"] = bool(on)


def set_first(state: dict, pid: int) -> None:
    """Gameplay: the player who sinned most recently starts; the turn tracker starts with them."""
    _pid_ok(state, pid)
    gs = state["game"]
    gs["first"] = pid
    gs["turn"] = pid


def draw_first(state: dict, rng: random.Random | None = None) -> int:
    rng = rng or random.SystemRandom()
    pid = rng.choice(seat_ids(state))
    set_first(state, pid)
    return pid


def start_problems(state: dict) -> list[Problem]:
    """What stops the game from starting: the sin types in play must be chosen."""
    needed = sins_needed(state)
    if needed is None:
        return [Problem("start", N_("7 - The Sins is for 2 to 5 players."))]
    if len(state["game"].get("sins", [])) != needed:
        return [Problem("start", N_("Choose the %(n)d sin types in play first (step A)."), {"n": needed})]
    return []


def start(state: dict) -> None:
    problems = start_problems(state)
    if problems:
        raise Invalid(problems)
    gs = state["game"]
    if gs.get("first") not in seat_ids(state):
        gs["first"] = seat_ids(state)[0]
    gs["turn"] = gs["first"]


# -- during play -----------------------------------------------------------------------------------

def order(state: dict) -> list[int]:
    return rules.turn_order(seat_ids(state), state["game"].get("first"))


def next_turn(state: dict) -> int:
    """The light turn tracker: the next player counter-clockwise. Under Penitenziagite, after the
    third Last Judgment, the last player finishing ends the round (and the game)."""
    gs = state["game"]
    seq = order(state)
    if ending_of(state) is not None and ending_of(state).over:
        raise Invalid(Problem("turn", N_("The game is over: go to scoring.")))
    current = gs.get("turn") if gs.get("turn") in seq else seq[0]
    if gs.get("judgments", 0) >= rules.LAST_JUDGMENTS and current == seq[-1]:
        gs["round_done"] = True
        return current
    nxt = seq[(seq.index(current) + 1) % len(seq)]
    gs["turn"] = nxt
    return nxt


def previous_player(state: dict) -> int | None:
    """The player before the one the turn tracker shows (counter-clockwise order, wrapping round)."""
    seq = order(state)
    current = state["game"].get("turn")
    if current not in seq or len(seq) < 2:
        return None
    return seq[seq.index(current) - 1]


def judgment_choices(state: dict) -> tuple[int, ...]:
    """Whose turn the next Last Judgment can be tied to: the player the tracker shows, and the one
    before (when the table tapped "done" before recording the card)."""
    seq = order(state)
    current = state["game"].get("turn") if state["game"].get("turn") in seq else (seq[0] if seq else None)
    prev = previous_player(state)
    return tuple(p for p in (current, prev) if p is not None)


def add_judgment(state: dict, delta: int, on: int | None = None) -> int:
    """Last Judgment cards revealed, 0 to 3. The third one is tied to the turn it came out on.

    `on` is whose turn that was: the player the tracker shows, or the one before when the table
    tapped "done" before recording the card (the card comes out while refilling the middle at the
    end of a turn, so both orders happen). Without `on` it is the player the tracker shows. The
    tracker itself stays where it is, so the turns already passed are not played again.
    """
    gs = state["game"]
    n = gs.get("judgments", 0) + delta
    if n > rules.LAST_JUDGMENTS:
        raise Invalid(Problem("judgments", N_("All three Last Judgment cards are already out.")))
    if n < 0:
        raise Invalid(Problem("judgments", N_("No Last Judgment card is out yet.")))
    if on is not None and (delta <= 0 or n != rules.LAST_JUDGMENTS or on not in judgment_choices(state)):
        raise Invalid(Problem("judgments", N_("Choose the player who was playing now or the one before.")))
    gs["judgments"] = n
    if n == rules.LAST_JUDGMENTS:
        if on is None:
            on = gs.get("turn") if gs.get("turn") in seat_ids(state) else order(state)[0]
        gs["third_on"] = on
        gs["round_done"] = False
    else:
        gs["third_on"] = None
        gs["round_done"] = False
    return n


def set_third_on(state: dict, pid: int) -> None:
    """Correct whose turn it was when the third Last Judgment card came out (Penitenziagite: turns
    go on until the player left of the first has finished hers).

    The correction changes the card's turn, never the turns already played: whoever tapped "done"
    since the card was recorded has played their last turn, so the tracker stays where it is and
    only it and the players after it still play. Two cases move the game on instead: a card that
    came out on a later turn than the tracker shows (nobody tapped "done" in between) moves the
    tracker up to that player; and once the last in the round has finished (or the tracker went
    round past her before the card was recorded), the round stays over whichever turn it was.
    """
    gs = state["game"]
    if gs.get("judgments", 0) < rules.LAST_JUDGMENTS:
        raise Invalid(Problem("third", N_("The third Last Judgment card is not out yet.")))
    _pid_ok(state, pid)
    seq = order(state)
    current = gs.get("turn") if gs.get("turn") in seq else seq[0]
    old = gs.get("third_on")
    went_round = old in seq and seq.index(current) < seq.index(old)
    gs["third_on"] = pid
    if gs.get("round_done") or went_round:
        gs["round_done"] = True
    elif seq.index(pid) > seq.index(current):
        gs["turn"] = pid


def ending_of(state: dict) -> rules.Ending | None:
    """None while fewer than three Last Judgment cards are out."""
    gs = state["game"]
    if gs.get("judgments", 0) < rules.LAST_JUDGMENTS:
        return None
    return rules.ending(seat_ids(state), gs.get("first"), gs.get("third_on"), bool(gs.get("penitenziagite")),
                        current=gs.get("turn"), round_done=bool(gs.get("round_done")))


def supply(state: dict) -> int:
    """Stones of Forgiveness left next to the Abyss: the setup's stones minus those taken."""
    total = rules.STONES_FOR.get(player_count(state), 0)
    return total - sum(state["game"].get("stones", {}).values())



def take_stone(state: dict, pid: int, delta: int) -> int:
    """Gameplay: feeding the Abyss earns a stone while any are left (delta -1 corrects a mistake)."""
    key = _pid_ok(state, pid)
    gs = state["game"]
    held = stones_of(state, pid)
    if delta > 0 and supply(state) < delta:
        raise Invalid(Problem("supply", N_("No Stones of Forgiveness are left in the supply.")))
    if held + delta < 0:
        raise Invalid(Problem("supply", N_("This player holds no Stones of Forgiveness.")))
    stones = dict(gs.get("stones", {}))
    stones[key] = held + delta
    if not stones[key]:
        del stones[key]
    gs["stones"] = stones
    sheet.drop_illegal_placement(state, pid)
    return held + delta
