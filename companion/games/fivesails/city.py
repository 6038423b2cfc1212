"""The City and setting it up (rulebook "Game Setup", p. 3; City locations, p. 16): the locations
in play, the City line, and the setup checklist.

Pure: no Flask, no other rules module."""
from __future__ import annotations

from dataclasses import dataclass

from ...domain import N_

# -- locations -------------------------------------------------------------------------------------

DOCKS, FORUMS, BAZAAR, OLES_INN, GARDENS = "docks", "forums", "bazaar", "oles-inn", "gardens"
CORE = (DOCKS, FORUMS, BAZAAR)
LOCATION_NAMES = {
    DOCKS: N_("The Docks"),
    FORUMS: N_("The Forums"),
    BAZAAR: N_("The Grand Bazaar"),
    OLES_INN: N_("Ole's Inn"),
    GARDENS: N_("Governor's Gardens"),
}


def locations_for(n_players: int) -> tuple[str, ...]:
    """The City locations in play (p. 3, p. 16): the three core ones, Ole's Inn with three or more
    players, Governor's Gardens with four."""
    extra = ((OLES_INN,) if n_players >= 3 else ()) + ((GARDENS,) if n_players >= 4 else ())
    return CORE + extra


def city_line(n_players: int, flipped: bool = False, swapped: bool = False, gardens_with_inn: bool = False) -> list[str]:
    """The City line, first item nearest the City Deck (p. 3 "Game Setup").

    The Forums sit in the middle, flanked by The Docks and The Grand Bazaar; Ole's Inn goes outside
    one end. The rulebook puts Governor's Gardens "to the outside of" a location shown only by an icon,
    so two readings stand: outside the other end of the line (our default), or beyond Ole's Inn at the
    same end (`gardens_with_inn`). The table also chooses which end is which: `swapped` exchanges The
    Docks and The Grand Bazaar, `flipped` turns the line end for end.
    """
    left, right = (BAZAAR, DOCKS) if swapped else (DOCKS, BAZAAR)
    line = [left, FORUMS, right]
    if n_players >= 3:
        line.append(OLES_INN)
    if n_players >= 4:
        if gardens_with_inn:
            line.append(GARDENS)
        else:
            line.insert(0, GARDENS)
    return line[::-1] if flipped else line


# -- setup -----------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Step:
    key: str
    label: str  # message id
    reminder: str  # message id: one line in our own words
    rule: str  # rules section slug
    kind: str = "plain"


def setup_steps(n_players: int) -> list[Step]:
    """The setup checklist for this many players (p. 3 "Game Setup")."""
    steps = [
        Step("pool", N_("Make the token pool"), N_("Wound and Renown tokens in one pile everyone can reach."),
             "setup"),
        Step("city-deck", N_("Shuffle the City Deck"), N_("All 30 cards, face down, within everyone's reach."),
             "city-deck"),
        Step("core-line", N_("Lay out the three core locations"),
             N_("The Forums in the middle, The Docks and The Grand Bazaar either side, one end nearest the City Deck."),
             "setup-city-line", "line"),
    ]
    if n_players >= 3:
        steps.append(Step("oles-inn", N_("Add Ole's Inn"), N_("Three or more players: outside one end of the line."),
                          "setup-city-line"))
    if n_players >= 4:
        steps.append(Step("gardens", N_("Add Governor's Gardens"),
                          N_("Four players: outside an end of the line. Our reading: the end opposite Ole's Inn; "
                             "if your table reads it as the same end, place it there and set the line below."),
                          "setup-city-line"))
    steps += [
        Step("leaders", N_("Reveal Leaders"), N_("Everyone at once, en garde (upright) at their Home."), "setup-leaders"),
        Step("decks", N_("Place both decks"),
             N_("Approach deck face down as built (not shuffled); Faction deck shuffled, face down."), "setup-decks"),
        Step("no-hand", N_("No opening hand"), N_("Nobody draws now: hands come in Planning."), "setup-decks"),
    ]
    return steps
