"""7 - The Sins: the setup picture (issue 35), from the numbers the setup checklist shows.

Every count comes from `rules.setup_counts` (the checklist's `sv.counts`); every piece names the
checklist step that puts it on the table (Setup A-E, the first player, Penitenziagite). Pure."""
from __future__ import annotations

from ...domain import N_
from ...tables.picture import Piece, Picture, Seat
from . import rules

ITEM_ID = "sins-step-{}-item"  # templates/sins/setup.html: m.tick(..., "sins-step-" ~ step, ...)


def picture(players: list[dict], counts: rules.SetupCounts, sins: tuple[str, ...], penitenziagite: bool,
            first: int | None, done: frozenset[str], clockwise: bool) -> Picture:
    """The table once set up: the deck, the five revealed cards, the Abyss and its stones in the
    middle; in front of each player a face-down reserve card and a Score card (Setup B)."""
    c = counts
    deck = Piece("D", N_("Deck: Hell I (%(i)d) on Hell II (%(ii)d) on Hell III (%(iii)d)"), c.deck,
                 params=(("i", c.hell_i_stacked), ("ii", c.hell_ii_stacked), ("iii", c.hell_iii_stacked)))
    row1 = [deck]
    if penitenziagite:
        row1.append(Piece("penitenziagite-cards", N_("Penitenziagite cards, under the deck"), c.penitenziagite_cards))
    row1.append(Piece("C", N_("Hell I cards face up"), c.revealed))
    if sins:
        kinds = Piece("A", N_("In the deck: %(cards)d cards of %(n)d types, %(names)s"), None, "note",
                      params=(("cards", c.sin_cards), ("n", c.sin_types),
                              ("names", tuple(rules.SIN_NAMES[s] for s in sins))))
    else:
        kinds = Piece("A", N_("In the deck: %(cards)d cards of %(n)d types, not chosen yet"), None, "note",
                      params=(("cards", c.sin_cards), ("n", c.sin_types)))
    row2 = [Piece("E", N_("Abyss of Souls"), None, "board"),
            Piece("E", N_("Stones of Forgiveness"), c.stones, "tokens")]
    seats = []
    for p in players:
        pieces = [Piece("B", N_("Reserve: a Hell I card, face down"), None, "cards"),
                  Piece("B", N_("Score card"), None, "cards")]
        if p["id"] == first:
            pieces.insert(0, Piece("first", N_("Starts"), None, "note"))
            if penitenziagite:
                pieces.append(Piece("penitenziagite-score-card", N_("Score card red side up"), None, "cards"))
        seats.append(Seat(p["name"], p.get("colour"), tuple(pieces)))
    return Picture(shared=(tuple(row1), tuple(row2), (kinds,)), seats=tuple(seats), clockwise=clockwise,
                   done=done, item_id=ITEM_ID)
