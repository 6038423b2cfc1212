"""How the app reads what the City of Five Sails rulebook leaves open: each reading, word for word.

Pure data: no Flask, no other rules module."""
from __future__ import annotations

from ...domain import N_

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
        N_("Only the acting side turns threat into wounds in a round (p. 25), so two Leaders never fall at "
           "the same moment. The first to fall is destroyed at the end of its round; if that leaves one player "
           "with a Leader, that player wins then and the duel closes at that round; a later fall in the same duel no "
           "longer happens.")),
    "absent": (
        "absent-adversary",
        N_("Our reading: for each round, say whether the adversary is at the acting character's location "
           "when the card is played; if not, the threat that round sends is discarded, while Riposte still "
           "takes threat out of the actor's own pool.")),
    "gardens": (
        "setup-city-line",
        N_("Two readings of where Governor's Gardens goes with 4 players: outside the other end of the line "
           "(our default), or beyond Ole's Inn at the same end. Place it as your table reads the book.")),
    "fifth-day-influence": (
        "victory-fifth-day",
        N_("Our reading: add up the Influence of your characters in play. Another table may count the Leader "
           "alone.")),
    "tracker": (
        "wounds",
        N_("A Leader linked to a duel starts it with the wounds on its tracker; when the duel ends its wounds "
           "are added there, and wounds that reach the Leader's Resolve destroy it.")),
}


def reading(key: str) -> str:
    """The message id of one stated reading."""
    return READINGS[key][1]
