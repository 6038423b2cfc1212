"""7th Sea: City of Five Sails on the web. Every rule lives in the pure modules (rules.py, duel.py,
decks.py); the web side reads forms, says which table actions are increments and which depend on the
state they land on, and renders. It is cut by what it serves, each module importing those before it:

- blueprint.py: the blueprint `bp`;
- common.py, duel_forms.py: what the actions and pages share; the duel's forms read as the API's body;
- actions_setup.py, actions_day.py, actions_leaders.py, actions_duel.py: the table actions, by the
  rulebook's chapters (setup; the Day, Renown, Influence and control; the Leaders; duels), each
  declared once through the one door (tables/actions.py), with a list of those whose outcome depends
  on the state they land on, and why, at its top;
- pages.py: the table pages' context and template globals;
- calculator.py: the standalone duel calculator, the deck check and the duel JSON API.

Importing this module registers all of them on `bp` (the game's __init__.py takes `bp`, `context` and
`default_page` from here).
"""
from __future__ import annotations

from . import actions_day, actions_duel, actions_leaders, actions_setup, calculator  # noqa: F401 (they register routes)
from .blueprint import bp
from .calculator import _calc_state, encode_duel
from .pages import context, default_page

__all__ = ["bp", "context", "default_page", "encode_duel", "_calc_state"]
