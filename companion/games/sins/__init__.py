"""7 - The Sins (GateOnGames, 2019), 2-5 players: setup checklist, end-game tracker, scoring."""
from ...domain import N_
from ..base import Game, Page
from . import table
from .shape import GameState
from .views import bp, context, default_page

GAME = Game(
    key="sins",
    title=N_("7 - The Sins"),
    tagline=N_("Setup, end-game tracker and scoring with the Abyss and Stones of Forgiveness."),
    min_players=2,
    max_players=5,
    pages=(
        Page("setup", N_("Setup"), "sins/setup.html"),
        Page("play", N_("Play"), "sins/play.html"),
        Page("score", N_("Score"), "sins/score.html"),
    ),
    blueprint=bp,
    new_state=table.new_state,
    players_changed=table.players_changed,
    default_page=default_page,
    context=context,
    shape=GameState,
    rules_section="overview",
)
