"""City of Five Sails: the setup picture (issue 35), from the setup checklist's own data
(`setup_steps`, the City line as the table laid it out, the seats). Pure."""
from __future__ import annotations

from ...domain import N_
from ...tables.picture import Piece, Picture, Seat
from .city import CORE, GARDENS, LOCATION_NAMES, OLES_INN

ITEM_ID = "tick-{}-item"  # templates/fivesails/setup.html: m.tick(..., "tick-" ~ s.key, ...)
CITY_DECK = 30  # "Game Setup": the City Deck's 30 cards (the checklist's "All 30 cards")
STEP_OF = {OLES_INN: "oles-inn", GARDENS: "gardens", **{loc: "core-line" for loc in CORE}}


def picture(players: list[dict], line: list[str], done: list[str], clockwise: bool) -> Picture:
    """The City Deck at one end of the City line, the token pool; at each player's Home their Leader
    en garde and both decks, and no hand yet."""
    city = [Piece("city-deck", N_("City Deck"), CITY_DECK, "cards")]
    city += [Piece(STEP_OF[loc], LOCATION_NAMES[loc], None, "board") for loc in line]
    pool = (Piece("pool", N_("Wound and Renown tokens"), None, "tokens"),)
    seats = []
    for p in players:
        seats.append(Seat(p["name"], p.get("colour"), (
            Piece("leaders", N_("Leader, en garde"), None, "figure"),
            Piece("decks", N_("Approach deck, face down"), None, "cards"),
            Piece("decks", N_("Faction deck, shuffled"), None, "cards"),
            Piece("no-hand", N_("No opening hand"), None, "note"),
        )))
    return Picture(shared=(tuple(city), pool), seats=tuple(seats), clockwise=clockwise,
                   done=frozenset(done), item_id=ITEM_ID)
