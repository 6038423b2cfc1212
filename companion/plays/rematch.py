"""Rematch: the next table of the same game with the same players, seats and colours. Pure.

The game's own first-player rule applies to the new table:
- Sinful Gibbon: the dealer's job moves on one seat clockwise from the last game's first dealer
  (and the bookkeeper's with it), so nobody deals the first round twice in a row.
- 7 - The Sins: the player who sinned most recently starts, which only the table knows: the new
  table starts with the first seat, as a new table does, and the players set it on the setup page.
  Penitenziagite (the advanced mode) stays as the last game had it.
- City of Five Sails: the First Player comes from Initiative each Day, nothing to carry over.
- The Others: 7 Sins: the Sins player is chosen at setup; the new table asks again.
"""
from __future__ import annotations


def players_for(doc: dict) -> tuple[list[str], list[str | None]]:
    """Names and colours, in the seat order the last game ended with."""
    players = doc["state"]["players"]
    return [p["name"] for p in players], [p.get("colour") for p in players]


def _moved_on(old_players: list[dict], old_pid, new_players: list[dict]):
    """The new table's id of the player seated one clockwise of `old_pid` in the last game."""
    ids = [p["id"] for p in old_players]
    if old_pid not in ids:
        return None
    return new_players[(ids.index(old_pid) + 1) % len(new_players)]["id"]


def apply_first_player(game: str, old_doc: dict, new_state: dict) -> None:
    """Apply the game's first-player rule to a rematch's fresh state (players and game state)."""
    if game == "gibbon":
        from ..games.gibbon import play as gibbon

        old_gs = old_doc["state"].get("game") or {}
        rounds = old_gs.get("rounds") or []
        first = rounds[0] if rounds else old_gs
        dealer = _moved_on(old_doc["state"]["players"], first.get("dealer"), new_state["players"])
        bookkeeper = _moved_on(old_doc["state"]["players"], first.get("bookkeeper"), new_state["players"])
        if dealer is not None:
            gibbon.start(new_state, dealer, bookkeeper)
    elif game == "sins":
        # The table's chosen mode is part of how it plays, not of one game: Penitenziagite stays on.
        from ..games.sins import table as sins

        sins.set_penitenziagite(new_state, bool((old_doc["state"].get("game") or {}).get("penitenziagite")))
