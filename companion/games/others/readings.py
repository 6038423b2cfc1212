"""How the app reads the rulebook where it is silent or split. Each sentence is shown in the app (in the
reader's language) and appears word for word in the English rules section named next to it; a test
holds the two together."""
from __future__ import annotations

from ...domain import N_

READINGS = {
    "corruption-and-death": (
        "innocent-tokens",
        N_("Our reading: when one fight brings a hero to Corruption 7 and also kills them, the Corruption is "
           "applied first, so the Innocents they carry are killed rather than left where the hero fell.")),
    "dark-past-timing": (
        "dark-past",
        N_("Our reading: the Sins reaction counts as part of the hero's turn, as it does for Sin cards, so the "
           "Dark Past check comes once that reaction is over; the app reminds you when the next turn starts "
           "or the round ends.")),
    "turn-order": (
        "hero-turns",
        N_("Our reading: with two heroes per player, turns go round the seats and each player's heroes play "
           "one after the other: A1, A2, B1, B2.")),
    "one-reaction": (
        "sin-reactions",
        N_("One reaction per hero turn, only against the hero who just finished it; none after a hero killed "
           "during their own turn.")),
    "reserve": (
        "victory-and-defeat",
        N_("Our reading: every death waiting for a replacement needs its own hero from the Hero Reserve; as "
           "soon as a hero dies with nobody left there for them, the Sins player wins.")),
    "reset": (
        "reset-tokens",
        N_("Turn and Reaction tokens back to active, City Action tokens back, Marked tokens off the Acolyte "
           "board (and any other mark lasting one round); Extra Turn tokens are kept.")),
    "ranged": (
        "ranged-fight",
        N_("Ranged: the hero rolls first and the monsters killed go at once; survivors may move up to 2 spaces, "
           "and those reaching the hero's space roll against that same hero roll. No Acolyte ability.")),
}
