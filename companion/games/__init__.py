"""The four games, by key. Each lives in its own package; see base.Game for what one provides."""
from __future__ import annotations

from .base import Game, Page
from .fivesails import GAME as FIVESAILS
from .gibbon import GAME as GIBBON
from .others import GAME as OTHERS
from .sins import GAME as SINS

GAMES: dict[str, Game] = {g.key: g for g in (SINS, GIBBON, FIVESAILS, OTHERS)}

__all__ = ["GAMES", "Game", "Page"]
