"""The Others: 7 Sins: the setup picture (issue 35), from the setup checklist's own data (Game
Setup, p. 8-11: the roles, the Hero Number, the Sin, Acolytes, story and map chosen, the team, the
Apocalypse track's preset). Pure."""
from __future__ import annotations

from ...domain import N_
from ...tables.picture import Piece, Picture, Seat
from .core import hero_label, in_play, is_corruption_story
from .setup import ACOLYTE_NAMES, SETUP_STEPS, SIN_NAMES, STORY_TYPE_NAMES

ITEM_ID = "setup-{}-item"  # templates/others/setup.html: m.tick(..., "setup-" ~ step, ...)
MONSTERS = 6  # "Choose Sin": 6 Abominations (the checklist's "6 Abominations")
ACOLYTES = 6  # "Choose Acolytes": 6 Acolyte figures
UPGRADES = 5  # "Final Setup": 5 Upgrade cards face up


def _chosen(step: str, label: str, value: str, names: dict, unset: str) -> tuple[str, tuple]:
    """A label naming what the table chose: a known name is translated, a typed one shown as is."""
    if not value:
        return unset, ()
    return label, (("name", (names[value],) if value in names else value),)


def _hero(h: dict, step: str) -> Piece:
    label = hero_label(h)
    if isinstance(label, str):
        return Piece(step, label, None, "figure", name=True, ref=True)
    return Piece(step, label["msg"], None, "figure", params=tuple(label["args"].items()), ref=True)


def picture(players: list[dict], gs: dict, hero_number: int, setting_up: bool, clockwise: bool) -> Picture:
    """The board area in the middle (story, map, decks, monsters, Upgrade Inventory, Starting Space,
    Hero Reserve); the Sins player's Apocalypse board, Sin cards and Reaction tokens in front of
    them; each hero player's heroes with their dashboards."""
    corruption = is_corruption_story(gs)
    steps = [s for s in SETUP_STEPS if s != "dark-past" or corruption]
    done = frozenset(steps if not setting_up else gs["setup_done"])
    story, story_params = _chosen("story", N_("Story board: %(name)s"), gs["story"], {}, N_("Story board"))
    kind, kind_params = _chosen("story", N_("Apocalypse deck: %(name)s"), gs["story_type"], STORY_TYPE_NAMES,
                                N_("Apocalypse deck"))
    map_label, map_params = _chosen("map", N_("Map: %(name)s"), gs["map"], {}, N_("Map"))
    sin, sin_params = _chosen("sin", N_("Sin deck: %(name)s"), gs["sin"], SIN_NAMES, N_("Sin deck"))
    aco, aco_params = _chosen("acolytes", N_("Acolytes: %(name)s"), gs["acolytes"], ACOLYTE_NAMES, N_("Acolytes"))
    preset = gs["apocalypse"]["track"].get("preset")
    track = (Piece("apocalypse", N_("Apocalypse track: %(name)s"), None, "note", params=(("name", preset["name"]),))
             if preset else Piece("apocalypse", N_("Apocalypse track marked in the app"), None, "note"))
    shared = (
        (Piece("story", story, None, "board", params=story_params),
         Piece("story", kind, None, "cards", params=kind_params),
         Piece("map", map_label, None, "board", params=map_params)),
        (Piece("sin", sin, None, "cards", params=sin_params),
         Piece("sin", N_("Abominations, with the Avatar and the Controller"), MONSTERS, "figure"),
         Piece("acolytes", aco, ACOLYTES, "figure", params=aco_params)),
        (Piece("upgrades", N_("Upgrade Inventory"), UPGRADES, "cards"),
         Piece("starting-space", N_("Starting Space: the heroes in play"), None, "board"),
         Piece("team", N_("Hero Reserve"), None, "figure")),
        (Piece("dashboards", N_("Each hero's dashboard: Corruption 1, 5 wounds, 2 Turn tokens, 1 City Action"),
               None, "note"),),
        (track,),
    )
    lineup = in_play(gs)
    seats = []
    for p in players:
        if p["id"] == gs["sins_player"]:
            pieces = [Piece("roles", N_("Sins player"), None, "note"),
                      Piece("sin", N_("Apocalypse board, Tentacle on 0"), None, "board")]
            if hero_number:
                pieces += [Piece("sin-cards", N_("Sin cards"), hero_number, "cards"),
                           Piece("reactions", N_("Reaction tokens, active"), hero_number, "tokens")]
        else:
            mine = [h for h in lineup if h["controller"] == p["id"]]
            pieces = [_hero(h, "team") for h in mine]
            if mine:
                pieces.append(Piece("dashboards", N_("A dashboard per hero"), None, "board"))
                if corruption:
                    pieces.append(Piece("dark-past", N_("Dark Past cards, face down"), None, "cards"))
        seats.append(Seat(p["name"], p.get("colour"), tuple(pieces)))
    return Picture(shared=shared, seats=tuple(seats), clockwise=clockwise,
                   done=done, item_id=ITEM_ID)
