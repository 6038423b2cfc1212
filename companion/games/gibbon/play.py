"""Sinful Gibbon's table document: what is stored, and the pure operations that change it.

`state["game"]` holds only inputs; every score is derived with `rules`:

    {"dealer": id | None, "bookkeeper": id | None,      # the first round's jobs, chosen at setup
     "drawn": bool,                                     # (once chosen) the app drew the dealer
     "checklist": ["deck", ...],                        # setup steps ticked
     "rounds": [{"seats": [ids, clockwise, during the round],
                 "dealer": id, "bookkeeper": id, "starter": id,
                 "tallies": {"<id>": {"low": 5, ..., "hat": false, "braveheart": false}},
                 "swap": None | {"chooser": id, "partner": id | None}}]}

The players list of the table (`state["players"]`) is the seat order, clockwise. Editing a round
changes its tallies only; running totals, the end of the game and the result follow from them.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Mapping, Sequence

from ...domain import N_, Invalid, Problem
from . import rules

CHECKLIST = ("deck", "hat", "mask", "seats", "deal", "start")
CHECKLIST_NAMES = {
    "deck": N_("A deck of 52 cards and one joker, shuffled"),
    "hat": N_("The Heartless Monkey Hat within reach"),
    "mask": N_("A Braveheart mask (optional)"),
    "seats": N_("The seat order in the app matches the table, clockwise"),
    "deal": N_("Hand cards dealt"),
    "start": N_("The player on the dealer's left starts"),
}


def new_state(players: list[dict]) -> dict:
    return {"dealer": None, "bookkeeper": None, "drawn": False, "checklist": [], "rounds": []}


def game(state: dict) -> dict:
    gs = state.setdefault("game", {})
    for key, value in new_state([]).items():
        gs.setdefault(key, value)
    return gs


def seats(state: dict) -> list[int]:
    return [p["id"] for p in state["players"]]


def names(state: dict) -> dict[int, str]:
    return {p["id"]: p["name"] for p in state["players"]}


def tallies_of(rnd: Mapping) -> dict[int, rules.Tally]:
    return {int(pid): rules.Tally.from_dict(raw) for pid, raw in rnd["tallies"].items()}


def braveheart_of(rnd: Mapping) -> int | None:
    return next((int(pid) for pid, raw in rnd["tallies"].items() if raw.get("braveheart")), None)


def started(state: dict) -> bool:
    return game(state)["dealer"] is not None


def scores(state: dict) -> tuple[rules.RoundScore, ...]:
    return rules.score_rounds(seats(state), [tallies_of(r) for r in game(state)["rounds"]])


def totals(state: dict) -> dict[int, int]:
    found = scores(state)
    return dict(found[-1].totals) if found else {pid: 0 for pid in seats(state)}


def over(state: dict) -> bool:
    return rules.is_over(totals(state))


def upcoming_jobs(state: dict) -> rules.Jobs | None:
    """Who deals, keeps the books and starts the next round (None before the game starts)."""
    gs = game(state)
    order = seats(state)
    if not started(state):
        return None
    if not gs["rounds"]:
        return rules.first_jobs(order, gs["dealer"], gs["bookkeeper"])
    last = gs["rounds"][-1]
    return rules.next_jobs(last["seats"], last["dealer"], last["bookkeeper"], order, braveheart_of(last))


def swap_pending(state: dict) -> bool:
    """A round was counted and the seat swap before the next one is not recorded yet."""
    rounds = game(state)["rounds"]
    return bool(rounds) and rounds[-1]["swap"] is None and not over(state)


def swap_chooser(state: dict) -> int | None:
    """"Before next round": the Braveheart chooses whom to swap with; without one, the player who
    played the last card nobody doubted does (the app is told who that was: None here)."""
    rounds = game(state)["rounds"]
    return braveheart_of(rounds[-1]) if rounds else None


# -- changes ---------------------------------------------------------------------------------------

def tick(state: dict, step: str, done: bool) -> None:
    if step not in CHECKLIST:
        raise Invalid(Problem("step", N_("There is no such setup step.")))
    ticked = [s for s in game(state)["checklist"] if s != step]
    game(state)["checklist"] = [s for s in CHECKLIST if s in ticked or (done and s == step)]


def start(state: dict, dealer: int | None, bookkeeper: int | None, rng: random.Random | None = None) -> None:
    """Choose the first round's dealer (at random when not given, "Startup") and bookkeeper (the
    dealer when not given). Only before the first round is counted."""
    gs = game(state)
    if gs["rounds"]:
        raise Invalid(Problem("dealer", N_("The first round is already counted: the jobs now pass clockwise.")))
    order = seats(state)
    for field, pid in (("dealer", dealer), ("bookkeeper", bookkeeper)):
        if pid is not None and pid not in order:
            raise Invalid(Problem(field, N_("That player is not at this table.")))
    gs["drawn"] = dealer is None  # the app drew the dealer (the page says so, and offers another)
    dealer = dealer if dealer is not None else (rng or random.SystemRandom()).choice(order)
    gs["dealer"] = dealer
    gs["bookkeeper"] = bookkeeper if bookkeeper is not None else dealer


def record_round(doc: dict, number: int, tallies: Mapping[int, rules.Tally]) -> None:
    """Count round `number` (the next one): store its tallies and the jobs it was played with."""
    state = doc["state"]
    gs = game(state)
    rounds = gs["rounds"]
    if number != len(rounds) + 1:
        raise Invalid(Problem("round", N_("Round %(n)d is already counted. Edit it on the counting table."),
                              {"n": number}))
    if over(state):
        raise Invalid(Problem("round", N_("The game is over: somebody reached 1000.")))
    if swap_pending(state):
        raise Invalid(Problem("round", N_("Record the seat swap before counting the next round.")))
    if not started(state):
        raise Invalid(Problem("round", N_("Choose who deals the first round before counting it.")))
    _check_players(state, tallies)
    jobs = upcoming_jobs(state)
    rounds.append({"seats": seats(state), "dealer": jobs.dealer, "bookkeeper": jobs.bookkeeper,
                   "starter": jobs.starter, "tallies": _store(tallies), "swap": None})
    settle(doc)


def edit_round(doc: dict, number: int, tallies: Mapping[int, rules.Tally]) -> None:
    """Correct a counted round; every later total and the end of the game are recomputed."""
    state = doc["state"]
    rounds = game(state)["rounds"]
    if not 1 <= number <= len(rounds):
        raise Invalid(Problem("round", N_("There is no round %(n)d to edit."), {"n": number}))
    _check_players(state, tallies)
    rounds[number - 1]["tallies"] = _store(tallies)
    settle(doc)


def remove_last_round(doc: dict, number: int) -> None:
    """Take back the last counted round (and its seat swap, if one was recorded)."""
    state = doc["state"]
    rounds = game(state)["rounds"]
    if not rounds or number != len(rounds):
        raise Invalid(Problem("round", N_("Only the last round can be removed.")))
    last = rounds.pop()
    swap = last["swap"]
    if swap and swap.get("partner") is not None and {swap["chooser"], swap["partner"]} <= set(seats(state)):
        _reorder(state, rules.swap_seats(seats(state), swap["chooser"], swap["partner"]))
    settle(doc)


def swap(state: dict, chooser: int, partner: int | None) -> None:
    """Record "Before next round": the chooser swaps seats with the partner (None: seats stay)."""
    order = seats(state)
    if not swap_pending(state):
        raise Invalid(Problem("partner", N_("There is no seat swap to record now.")))
    bh = swap_chooser(state)
    if chooser not in order:
        raise Invalid(Problem("chooser", N_("Choose who swaps.")))
    if bh is not None and chooser != bh:
        raise Invalid(Problem("chooser", N_("The Braveheart of the round chooses whom to swap with.")))
    if partner is not None:
        if partner not in order:
            raise Invalid(Problem("partner", N_("That player is not at this table.")))
        if partner == chooser:
            raise Invalid(Problem("partner", N_("Choose somebody else to swap with.")))
        _reorder(state, rules.swap_seats(order, chooser, partner))
    game(state)["rounds"][-1]["swap"] = {"chooser": chooser, "partner": partner}


def players_changed(state: dict) -> None:
    """Players join or leave only before the first round is counted. A dealer who leaves takes both
    jobs with them (they are chosen again at Startup); a bookkeeper who leaves hands the books to the
    dealer, the bookkeeper whenever none is chosen (`start`), so the jobs are both set or both unset."""
    gs = game(state)
    if gs["rounds"]:
        raise Invalid(Problem("players", N_("Rounds are already counted: players can no longer join or leave.")))
    order = seats(state)
    for job in ("dealer", "bookkeeper"):
        if gs[job] is not None and gs[job] not in order:
            gs[job] = None
    if gs["dealer"] is None:
        gs["bookkeeper"] = None
        gs["drawn"] = False
    elif gs["bookkeeper"] is None:
        gs["bookkeeper"] = gs["dealer"]


def settle(doc: dict) -> None:
    """Status and result from the rounds: finished after a round in which someone has 1000 or more.

    Only the last round may end the game: a correction that would have ended it earlier is
    refused, since the later rounds could then not have been played.
    """
    state = doc["state"]
    found = scores(state)
    end = rules.first_end(found)
    if end is not None and end < len(found):
        who = names(state)
        over_ids = [pid for pid, pts in found[end - 1].totals.items() if pts >= rules.LIMIT]
        later = len(found) - end
        raise Invalid(Problem("round", N_(
            "With these numbers %(names)s would reach 1000 after round %(n)d, which ends the game, yet "
            "a later round is counted. Check the numbers, or remove the later round first.") if later == 1 else N_(
            "With these numbers %(names)s would reach 1000 after round %(n)d, which ends the game, yet "
            "%(later)d later rounds are counted. Check the numbers, or remove the later rounds first."),
            {"names": ", ".join(who.get(p, "?") for p in over_ids), "n": end, "later": len(found) - end}))
    if end is not None:
        doc["status"] = "finished"
        res = rules.result(found[-1].totals)
        who = names(state)
        doc["result"] = {"winners": [who[p] for p in res.winners],
                         "scores": [{"name": who[p], "points": pts} for p, pts in res.ranking]}
        return
    if found:
        doc["status"] = "playing"
    elif doc.get("status") == "finished":
        doc["status"] = "playing"
    doc["result"] = None


def _store(tallies: Mapping[int, rules.Tally]) -> dict:
    return {str(pid): t.as_dict() for pid, t in tallies.items()}


def _check_players(state: dict, tallies: Mapping[int, rules.Tally]) -> None:
    if set(tallies) != set(seats(state)):
        raise Invalid(Problem("round", N_("The counts must cover every player at the table.")))


def _reorder(state: dict, order: Sequence[int]) -> None:
    by_id = {p["id"]: p for p in state["players"]}
    state["players"] = [by_id[pid] for pid in order]


# -- what the pages show ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Standing:
    pid: int
    name: str
    total: int
    last: int  # the latest round's total
    place: int


def standings(state: dict) -> list[Standing]:
    """Players by total, least first (the leader wins), with shared places on ties."""
    found = scores(state)
    tot = dict(found[-1].totals) if found else {pid: 0 for pid in seats(state)}
    last = found[-1].round_totals if found else {}
    who = names(state)
    order = sorted(seats(state), key=lambda pid: (tot.get(pid, 0), seats(state).index(pid)))
    out = []
    for pid in order:
        place = 1 + sum(1 for other in order if tot.get(other, 0) < tot.get(pid, 0))
        out.append(Standing(pid, who[pid], tot.get(pid, 0), last.get(pid, 0), place))
    return out
