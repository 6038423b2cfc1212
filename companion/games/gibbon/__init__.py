"""Sinful Gibbon: the app is the bookkeeper. It counts the seven sins after every round, keeps the
running totals to 1000, passes the dealer's and bookkeeper's jobs around and records the seat swap."""
from ...domain import N_
from ..base import Game, Page
from . import play
from .shape import GameState
from .views import bp, context, default_page

GAME = Game(
    key="gibbon",
    title=N_("Sinful Gibbon"),
    tagline=N_("Round-by-round sin counting to 1000 penalty points."),
    min_players=3,
    max_players=7,
    pages=(
        Page("setup", N_("Setup"), "gibbon/setup.html"),
        Page("round", N_("Round"), "gibbon/round.html"),
        Page("counting", N_("Counting table"), "gibbon/counting.html"),
    ),
    blueprint=bp,
    new_state=play.new_state,
    players_changed=play.players_changed,
    default_page=default_page,
    context=context,
    shape=GameState,
)
