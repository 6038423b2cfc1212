"""7th Sea: City of Five Sails."""
from ...domain import N_
from ..base import Game, Page
from .views import bp

GAME = Game(
    key="fivesails",
    title=N_("7th Sea: City of Five Sails"),
    tagline=N_("Setup, the Day stepper with victory checks, and the duel calculator."),
    min_players=2,
    max_players=4,
    pages=(Page("setup", N_("Setup"), "fivesails/setup.html"),),
    blueprint=bp,
)
