"""Rematch: the next table of the same game with the same players, seats and colours. Pure.

The game's own first-player rule applies to the new table:
- Sinful Gibbon: the rulebook's Startup draws the first dealer at random, and so does a rematch
  (the dealer keeps the books, as on a new table); the setup page names who was drawn and changes
  it in one tap.
- 7 - The Sins: the player who sinned most recently starts, which only the table knows: the new
  table starts with the first seat, as a new table does, and the players set it on the setup page.
  Penitenziagite (the advanced mode) stays as the last game had it.
- City of Five Sails: the First Player comes from Initiative each Day, nothing to carry over.
- The Others: 7 Sins: the Sins player is chosen at setup; the new table asks again.
"""
from __future__ import annotations

import random


def players_for(doc: dict) -> tuple[list[str], list[str | None]]:
    """Names and colours, in the seat order the last game ended with."""
    players = doc["state"]["players"]
    return [p["name"] for p in players], [p.get("colour") for p in players]


def apply_first_player(game: str, old_doc: dict, new_state: dict, rng: random.Random | None = None) -> None:
    """Apply the game's first-player rule to a rematch's fresh state (players and game state)."""
    if game == "gibbon":
        # Startup: the first dealer is drawn at random at the start of every game, a rematch too.
        from ..games.gibbon import play as gibbon

        gibbon.start(new_state, None, None, rng)
    elif game == "sins":
        # The table's chosen mode is part of how it plays, not of one game: Penitenziagite stays on.
        from ..games.sins import table as sins

        sins.set_penitenziagite(new_state, bool((old_doc["state"].get("game") or {}).get("penitenziagite")))
