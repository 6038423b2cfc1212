"""7 - The Sins: how the app reads the rulebook where it is silent. Each sentence is shown in the app
(in the reader's language) and appears word for word in the rules section named next to it, in
English and in French (tests/unit/test_rules_parity.py and tests/web/test_sins_pages.py hold them
together)."""
from __future__ import annotations

from ...domain import N_

READINGS = {
    # End of the game, ties: "the most cards" does not say whether a Stone of Forgiveness counts.
    "stones-not-cards": (
        "ties",
        N_("Our reading: only real cards count in this tiebreak, not the Stones. The literal alternative "
           "counts each placed Stone as one more card, since it scores as one.")),
}
