"""What a game plugs into the table machinery: declared in tables/game.py (games use tables,
never the reverse); named here too for the games' own imports."""
from ..tables.game import SEATING, Game, Page, Seating

__all__ = ["Game", "Page", "Seating", "SEATING"]
