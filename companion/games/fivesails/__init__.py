"""7th Sea: City of Five Sails: setup with the City line, the Day stepper with victory checks,
Renown and Leaders, and the duel threat calculator (in a table, standalone, and as a JSON API)."""
from ...domain import N_
from ..base import Game, Page
from . import rules
from .shape import GameState
from .views import bp, context, default_page


def _players_changed(state: dict) -> None:
    rules.sync_players(state.setdefault("game", {}), state["players"])


GAME = Game(
    key="fivesails",
    title=N_("7th Sea: City of Five Sails"),
    tagline=N_("Setup, the Day stepper with victory checks, and the duel calculator."),
    min_players=2,
    max_players=4,
    pages=(
        Page("setup", N_("Setup"), "fivesails/setup.html"),
        Page("day", N_("Day"), "fivesails/day.html"),
        Page("duel", N_("Duel"), "fivesails/duel.html"),
        Page("players", N_("Renown & Leaders"), "fivesails/players.html"),
    ),
    blueprint=bp,
    new_state=rules.new_state,
    players_changed=_players_changed,
    default_page=default_page,
    context=context,
    rules_section="overview",
    shape=GameState,
)
