"""The Others: 7 Sins."""
from ...domain import N_
from ..base import Game, Page
from .views import bp

GAME = Game(
    key="others",
    title=N_("The Others: 7 Sins"),
    tagline=N_("Setup, rounds, the Apocalypse track and each hero's Corruption."),
    min_players=2,
    max_players=5,
    pages=(Page("setup", N_("Setup"), "others/setup.html"),),
    blueprint=bp,
)
