"""What a game plugs into the table machinery, and where the app keeps the games it has.

A game is a package under companion/games/<key>/ whose __init__ defines GAME. It brings its pure
rules module, its blueprint (action routes, JSON API routes on companion.api.api), its pages
(templates under templates/<key>/, rendered inside the table's live region) and its catalog
(companion/games/<key>/translations).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from flask import Blueprint, current_app


@dataclass(frozen=True)
class Page:
    """One screen of a table, e.g. setup, the play tracker or scoring. `slug` appears in the URL."""

    slug: str
    title: str  # message id
    template: str
    # A shorter label for the tab strip (message id), when the title is long; the title stays the
    # page's heading and its <title>. Every tab must stay on screen at 320 px (the strip wraps).
    tab: str | None = None
    # A page is cached per table version (see tables/live.py). A page that shows anything not in
    # the table's document (e.g. server-wide presets) must say cache=False.
    cache: bool = True


@dataclass(frozen=True)
class Seating:
    """Which way a game's turns go around the table: the order the players list is read in."""

    clockwise: bool
    rule: str | None  # the rules reference section that says so
    source: str  # the rulebook section it comes from


# One line per game, read from each rulebook (kept here so the games' own modules stay theirs):
SEATING = {
    # 7 - The Sins, "Gameplay": the first player, then play goes counter-clockwise.
    "sins": Seating(False, "first-player", "Gameplay"),
    # Sinful Gibbon, "Basics - Basic idea": one player at a time in clockwise order.
    "gibbon": Seating(True, "overview", "Basics"),
    # City of Five Sails, "Phase 3: High Drama" (and Muster, Resolve Scheme): clockwise from the First Player.
    "fivesails": Seating(True, "high-drama-actions", "Phase 3: High Drama"),
    # The Others: 7 Sins, "Hero Turns": from the hero chosen to go first, clockwise.
    "others": Seating(True, "hero-turns", "Hero Turns"),
}


@dataclass(frozen=True)
class Game:
    key: str
    title: str  # message id, e.g. N_("7 - The Sins")
    tagline: str  # message id: one line on the home page
    min_players: int
    max_players: int
    pages: tuple[Page, ...]
    blueprint: Blueprint | None = None
    # The game's own state for a new table, given its players (list of {"id", "name", "colour"}).
    new_state: Callable[[list[dict]], dict] = field(default=lambda players: {})
    # Called on the whole table state after a player is added or removed during setup.
    players_changed: Callable[[dict], None] | None = None
    # Which page /t/<token> opens, given the table's status and state; default: the first page.
    default_page: Callable[[str, dict], str] | None = None
    # Extra template context for a page: (page slug, table, state) -> dict.
    context: Callable[[str, object, dict], dict] | None = None
    # The rules reference section that introduces the game (e.g. "overview").
    rules_section: str = "overview"
    # The declared shape of `state.game` (a tables.shape.Strict model, in games/<key>/shape.py):
    # it checks imported backups, and every document the suite reaches (config CHECK_SHAPES).
    shape: type | None = None

    @property
    def seating(self) -> Seating:
        return SEATING.get(self.key, Seating(True, None, ""))

    def page(self, slug: str) -> Page | None:
        return next((p for p in self.pages if p.slug == slug), None)

    def landing_page(self, status: str, state: dict) -> Page:
        if self.default_page is not None:
            found = self.page(self.default_page(status, state))
            if found is not None:
                return found
        return self.pages[0]


EXTENSION = "companion.games"


def register_games(app, games: dict[str, Game]) -> None:
    """Give the app its games (create_app does): the table machinery finds them here, so it never
    imports a game, and the games import it."""
    app.extensions[EXTENSION] = dict(games)


def games() -> dict[str, Game]:
    """The games of the running app, by key."""
    return current_app.extensions[EXTENSION]
