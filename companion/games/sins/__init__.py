"""7 - The Sins."""
from ...domain import N_
from ..base import Game, Page
from .views import bp

GAME = Game(
    key="sins",
    title=N_("7 - The Sins"),
    tagline=N_("Setup, end-game tracker and scoring with the Abyss and Stones of Forgiveness."),
    min_players=2,
    max_players=5,
    pages=(Page("setup", N_("Setup"), "sins/setup.html"),),
    blueprint=bp,
)
