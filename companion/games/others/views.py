"""The Others: 7 Sins: the game's routes: its actions, one module per chapter of the rulebook (each
declares its own with `tables.actions.action`; see blueprint.py), and the JSON API.

Importing this module declares every action on `bp`: the game's __init__ registers it.
"""
from __future__ import annotations

from ...api import api, json_endpoint
from ...domain import Problems, count
from . import apocalypse_views, hero_views, round_views, setup_views  # noqa: F401  (their actions join bp)
from . import rules
from .blueprint import bp

__all__ = ["bp", "corruption_api"]


# -- JSON API ---------------------------------------------------------------------------------------

@api.post("/others/corruption")
@json_endpoint
def corruption_api(payload: dict) -> dict:
    """Voluntary Corruption from a level and the covered slots: the new level and this roll's bonus.

    `{"level": 4, "wound_slots": [1, 3]}` -> `{"new_level": 5, "bonus": {"dice": 2, "defense": 0,
    "hits": 1, "choice": 0}}`.
    """
    problems = Problems()
    level = count(payload.get("level"), "level", problems, minimum=rules.CORRUPTION_MIN,
                  maximum=rules.CORRUPTION_MAX)
    slots = rules.check_wound_slots(payload.get("wound_slots", []), problems=problems)
    problems.raise_if_any()
    step = rules.voluntary_corruption(level, slots)
    return {"new_level": step.new_level, "bonus": step.bonus.as_dict()}
