"""Players of a table, kept in seat order inside the table document. Pure functions, no Flask.

A player has a stable id (games key their data by it), a name and an optional colour. Seat order
is the list order.
"""
from __future__ import annotations

from ..domain import N_, Invalid, Problem
from ..text import clean_line

NAME_MAX = 30
COLOURS = ("red", "blue", "green", "yellow", "purple", "orange", "black", "white")
COLOUR_NAMES = {
    "red": N_("red"), "blue": N_("blue"), "green": N_("green"), "yellow": N_("yellow"),
    "purple": N_("purple"), "orange": N_("orange"), "black": N_("black"), "white": N_("white"),
}


def clean_name(raw: str, field: str = "name") -> str:
    name = clean_line(raw)
    if not name:
        raise Invalid(Problem(field, N_("Enter a name.")))
    if len(name) > NAME_MAX:
        raise Invalid(Problem(field, N_("Keep names to %(max)d characters."), {"max": NAME_MAX}))
    return name


def make_players(names: list[str], colours: list[str | None] | None = None) -> list[dict]:
    colours = colours or [None] * len(names)
    problems = []
    seen = set()
    players = []
    for i, (raw, colour) in enumerate(zip(names, colours)):
        try:
            name = clean_name(raw, f"players.{i}.name")
        except Invalid as err:
            problems += err.problems
            continue
        if name.casefold() in seen:
            problems.append(Problem(f"players.{i}.name", N_("Two players have this name.")))
        seen.add(name.casefold())
        if colour not in (None, "", *COLOURS):
            problems.append(Problem(f"players.{i}.colour", N_("Pick a colour from the list.")))
        players.append({"id": i + 1, "name": name, "colour": colour or None})
    if problems:
        raise Invalid(problems)
    return players


def find(state: dict, player_id: int) -> dict:
    for p in state["players"]:
        if p["id"] == player_id:
            return p
    raise Invalid(Problem("player", N_("That player is not at this table.")))


def rename(state: dict, player_id: int, raw: str) -> tuple[str, str]:
    player = find(state, player_id)
    name = clean_name(raw)
    if any(p["name"].casefold() == name.casefold() and p["id"] != player_id for p in state["players"]):
        raise Invalid(Problem("name", N_("Another player already has this name.")))
    old, player["name"] = player["name"], name
    return old, name


def recolour(state: dict, player_id: int, colour: str | None) -> None:
    if colour not in (None, "", *COLOURS):
        raise Invalid(Problem("colour", N_("Pick a colour from the list.")))
    find(state, player_id)["colour"] = colour or None


def move(state: dict, player_id: int, step: int) -> None:
    """Move a player one seat earlier (-1) or later (+1) in the seat order."""
    players = state["players"]
    i = players.index(find(state, player_id))
    j = i + step
    if step not in (-1, 1) or not 0 <= j < len(players):
        raise Invalid(Problem("step", N_("That player cannot move further.")))
    players[i], players[j] = players[j], players[i]


def add(state: dict, raw: str, max_players: int) -> dict:
    players = state["players"]
    if len(players) >= max_players:
        raise Invalid(Problem("name", N_("This game takes at most %(max)d players."), {"max": max_players}))
    name = clean_name(raw)
    if any(p["name"].casefold() == name.casefold() for p in players):
        raise Invalid(Problem("name", N_("Another player already has this name.")))
    player = {"id": max((p["id"] for p in players), default=0) + 1, "name": name, "colour": None}
    players.append(player)
    return player


def remove(state: dict, player_id: int, min_players: int) -> dict:
    players = state["players"]
    if len(players) <= min_players:
        raise Invalid(Problem("player", N_("This game needs at least %(min)d players."), {"min": min_players}))
    player = find(state, player_id)
    players.remove(player)
    return player
