"""The Others: 7 Sins."""
from ...domain import N_
from ..base import Game, Page
from . import state
from .board import context
from .shape import GameState
from .views import bp
from . import preset_views  # noqa: F401  (its routes join bp)


def default_page(status: str, _state: dict) -> str:
    """Setup while setting up; then the round tracker, where the table spends most of the evening."""
    return "setup" if status == state.SETTING_UP else "round"


GAME = Game(
    key="others",
    title=N_("The Others: 7 Sins"),
    tagline=N_("Setup, rounds, the Apocalypse track and each hero's Corruption."),
    min_players=2,
    max_players=5,
    pages=(
        Page("setup", N_("Setup"), "others/setup.html"),
        Page("round", N_("Round"), "others/round.html"),
        Page("heroes", N_("Heroes"), "others/heroes.html"),
        Page("fight", N_("Fight"), "others/fight.html"),
        # Lists the server-wide Apocalypse presets, which change without the table changing.
        Page("apocalypse", N_("Apocalypse"), "others/apocalypse.html", cache=False),
    ),
    blueprint=bp,
    new_state=state.new_state,
    players_changed=state.players_changed,
    default_page=default_page,
    context=context,
    rules_section="overview",
    shape=GameState,
)
