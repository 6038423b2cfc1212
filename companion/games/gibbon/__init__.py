"""Sinful Gibbon."""
from ...domain import N_
from ..base import Game, Page
from .views import bp

GAME = Game(
    key="gibbon",
    title=N_("Sinful Gibbon"),
    tagline=N_("Round-by-round sin counting to 1000 penalty points."),
    min_players=3,
    max_players=7,
    pages=(Page("setup", N_("Setup"), "gibbon/setup.html"),),
    blueprint=bp,
)
