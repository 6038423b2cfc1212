"""Sinful Gibbon: the setup picture (issue 35), from the setup checklist's own data (play.CHECKLIST,
the hand size, the seats and the first round's jobs). Pure."""
from __future__ import annotations

from ...domain import N_
from ...tables.picture import Piece, Picture, Seat
from . import play, rules

ITEM_ID = "tick-{}-item"  # templates/gibbon/setup.html: m.tick(..., "tick-" ~ step, ...)


def picture(state: dict, clockwise: bool) -> Picture:
    """The deck, the Heartless Monkey Hat and the Braveheart mask in the middle; each player's hand
    (Startup), and once the first round's jobs are drawn: the dealer, the bookkeeper, who starts."""
    gs = play.game(state)
    players = state["players"]
    jobs = play.upcoming_jobs(state) if not gs["rounds"] else None
    shared = ((Piece("deck", N_("A deck of 52 cards and one joker"), None, "cards"),
               Piece("hat", N_("The Heartless Monkey Hat"), None, "tokens"),
               Piece("mask", N_("A Braveheart mask (optional)"), None, "tokens")),)
    hand = rules.hand_size(len(players))
    seats = []
    for p in players:
        pieces = []
        if jobs is not None:
            for pid, label in ((jobs.dealer, N_("Dealer")), (jobs.bookkeeper, N_("Bookkeeper")),
                               (jobs.starter, N_("Starts"))):
                if pid == p["id"]:
                    pieces.append(Piece("start", label, None, "note"))
        pieces.append(Piece("deal", N_("hand cards"), hand, "cards"))
        seats.append(Seat(p["name"], p.get("colour"), tuple(pieces)))
    return Picture(shared=shared, seats=tuple(seats), clockwise=clockwise, done=frozenset(gs["checklist"]),
                   item_id=ITEM_ID, seat_step="seats")
