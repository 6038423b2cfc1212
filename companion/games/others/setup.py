"""The Others: 7 Sins: Game Setup (p. 8-11): a new table, the roles, the Sin and its Acolytes, the
story and map, the team of heroes, the checklist, and the start of the first round."""
from __future__ import annotations

from ...domain import N_, Invalid, Problem, Problems
from . import rules
from .core import (PLAYING, clean_text, clean_texts, empty_track, hero, hero_player_ids, is_corruption_story,
                   require_setting_up)

STORY_TYPES = ("terror", "corruption", "redemption")
STORY_TYPE_NAMES = {"terror": N_("Terror"), "corruption": N_("Corruption"), "redemption": N_("Redemption")}
# "Choose Sin" / "Choose Acolytes", p. 8-9: what the core box holds (a random draw picks among these).
CORE_SINS = ("Pride", "Sloth")
ALL_SINS = ("Pride", "Sloth", "Greed", "Wrath", "Envy", "Lust", "Gluttony")
CORE_ACOLYTES = ("Corrupted Doctors", "Corrupted Hobos", "Corrupted Nuns")
SIN_NAMES = {"Pride": N_("Pride"), "Sloth": N_("Sloth"), "Greed": N_("Greed"), "Wrath": N_("Wrath"),
             "Envy": N_("Envy"), "Lust": N_("Lust"), "Gluttony": N_("Gluttony")}
ACOLYTE_NAMES = {"Corrupted Doctors": N_("Corrupted Doctors"), "Corrupted Hobos": N_("Corrupted Hobos"),
                 "Corrupted Nuns": N_("Corrupted Nuns")}

# The checklist steps of "Game Setup" (p. 8-11), in order. The Corruption-only step is shown only then.
SETUP_STEPS = ("roles", "sin", "acolytes", "story", "map", "team", "starting-space", "dashboards",
               "upgrades", "sin-cards", "reactions", "apocalypse", "dark-past", "mission")
# What the log calls each setup step (the same words as the setup checklist).
SETUP_STEP_NAMES = {
    "roles": N_("Roles chosen"), "sin": N_("Sin board, Sin cards and monsters out"),
    "acolytes": N_("Acolyte board and 6 Acolytes out"),
    "story": N_("Story board out, Apocalypse deck of its type shuffled"),
    "map": N_("Map built from the back of the story board"), "team": N_("Team of 7 on their coloured bases"),
    "starting-space": N_("Heroes in play on the Starting Space"), "dashboards": N_("Hero dashboards ready"),
    "upgrades": N_("Upgrade Inventory: 5 cards face up"), "sin-cards": N_("Sin cards drawn"),
    "reactions": N_("Reaction tokens taken"), "apocalypse": N_("Apocalypse track marked in the app"),
    "dark-past": N_("Dark Past cards dealt face down"), "mission": N_("Ready for Mission 1"),
}


def new_hero(hid: int, cls: str, n: int) -> dict:
    return {"id": hid, "cls": cls, "n": n, "name": "", "status": "reserve", "controller": None,
            "stats": {"fight": None, "skill": None, "defense": None},
            "corruption": rules.CORRUPTION_MIN, "wounds": [], "turns_spent": 0, "extra_turns": 0,
            "city_used": False, "upgrades": 0, "innocents": 0, "npcs": [], "dark_past": None,
            "pending": None, "replaced_by": None}



def new_state(players: list[dict]) -> dict:
    """The game state of a new table: the Sins player is the first seat until the table says otherwise."""
    heroes, seen = [], {}
    for i, cls in enumerate(rules.TEAM, start=1):
        seen[cls] = seen.get(cls, 0) + 1
        heroes.append(new_hero(i, cls, seen[cls]))
    gs = {
        "sins_player": players[0]["id"] if players else None,
        "sin": "", "acolytes": "", "story": "", "story_type": "", "map": "",
        "setup_done": [], "heroes": heroes, "lineup": [], "hero_number": 0,
        "round": 0, "first": None, "current": None,
        "reactions": {"spent": 0, "extra": 0}, "sin_card": False, "round_done": [], "altars": 0,
        "mission": {"number": 1, "progress": 0, "target": None, "notes": []},
        "apocalypse": {"level": 0, "track": empty_track(), "cards": [], "reveal_due": []},
        "fight": None, "alerts": [], "next_alert": 1, "winner": None,
    }
    default_team(gs, [p["id"] for p in players])
    return gs


def players_changed(state: dict) -> None:
    """Seats changed during setup: keep the Sins player if still there and share the heroes out again."""
    gs = state["game"]
    ids = [p["id"] for p in state["players"]]
    if gs.get("sins_player") not in ids:
        gs["sins_player"] = ids[0] if ids else None
    default_team(gs, ids)

# -- setup ------------------------------------------------------------------------------------------

def default_team(gs: dict, player_ids: list[int]) -> None:
    """Put a balanced default team in play (Leader, Sniper, Bruiser, then a Fixer for four heroes) and
    deal them round the hero players in seat order; the table changes it on the setup page."""
    sins = gs.get("sins_player")
    hps = [pid for pid in player_ids if pid != sins]
    for h in gs["heroes"]:
        h["status"], h["controller"] = "reserve", None
    if not 1 <= len(hps) <= rules.HERO_PLAYERS_MAX:
        gs["lineup"] = []
        return
    number = rules.hero_number(len(hps))
    first_of_class = [h for h in gs["heroes"] if h["n"] == 1]  # Leader, Sniper 1, Bruiser 1, Fixer 1
    chosen = first_of_class[:number]
    for i, h in enumerate(chosen):
        h["status"] = "play"
        h["controller"] = hps[i % len(hps)]
    gs["lineup"] = [h["id"] for h in sorted(chosen, key=lambda h: (hps.index(h["controller"]), h["id"]))]


def set_roles(doc: dict, sins_player: int) -> None:
    """1. Choose Player Roles (p. 8): one Sins player, everyone else plays heroes."""
    gs = require_setting_up(doc)
    ids = [p["id"] for p in doc["state"]["players"]]
    if sins_player not in ids:
        raise Invalid(Problem("sins_player", N_("Choose one of the table's players.")))
    if gs["sins_player"] == sins_player:
        return
    gs["sins_player"] = sins_player
    default_team(gs, ids)


def set_sin(doc: dict, sin: str, acolytes: str) -> None:
    """2-3. Choose Sin and Acolytes (p. 8-9): typed by the table (the app ships no card data)."""
    clean_texts(require_setting_up(doc), {"sin": sin, "acolytes": acolytes})


def set_story(doc: dict, name: str, story_type: str, map_name: str) -> None:
    """4-5. Choose Story and Map (p. 9): the story's name and type; the map setup used."""
    gs = require_setting_up(doc)
    problems = Problems()
    try:
        gs["story"] = clean_text(name, "story", required=True, message=N_("Enter the story's name."))
    except Invalid as err:
        problems.items.extend(err.problems)
    if story_type not in STORY_TYPES:
        problems.add("story_type", N_("Choose Terror, Corruption or Redemption."))
    try:
        gs["map"] = clean_text(map_name, "map")
    except Invalid as err:
        problems.items.extend(err.problems)
    problems.raise_if_any()
    gs["story_type"] = story_type


def set_team(doc: dict, heroes: list[dict]) -> None:
    """6. Choose Heroes (p. 10): names for the team of 7, which start in play and who controls them.

    `heroes` is [{"id", "name", "controller" (a hero player's id, or None for the reserve)}]. The
    number in play must be the Hero Number and each hero player controls the same share.
    """
    gs = require_setting_up(doc)
    state = doc["state"]
    hps = hero_player_ids(state)
    number = rules.hero_number(len(hps))
    share = rules.heroes_per_player(len(hps))
    problems = Problems()
    by_id = {h["id"]: h for h in gs["heroes"]}
    names, controllers = {}, {}
    for entry in heroes:
        hid = entry.get("id")
        if hid not in by_id:
            problems.add("team", N_("There is no such hero."))
            continue
        try:
            names[hid] = clean_text(entry.get("name"), f"name_{hid}")
        except Invalid as err:
            problems.items.extend(err.problems)
        ctrl = entry.get("controller")
        if ctrl is not None and ctrl not in hps:
            problems.add(f"controller_{hid}", N_("Only a hero player can control a hero."))
            continue
        controllers[hid] = ctrl
    chosen = [hid for hid, ctrl in controllers.items() if ctrl is not None]
    if not problems and len(chosen) != number:
        problems.add("team", N_("With %(players)d hero player(s), exactly %(n)d heroes start in play "
                                "(%(chosen)d chosen)."), players=len(hps), n=number, chosen=len(chosen))
    if not problems:
        for pid in hps:
            mine = sum(1 for c in controllers.values() if c == pid)
            if mine != share:
                name = next(p["name"] for p in state["players"] if p["id"] == pid)
                problems.add("team", N_("Each hero player controls %(n)d hero(es): %(player)s has %(mine)d."),
                             n=share, player=name, mine=mine)
    named = [n.casefold() for n in names.values() if n]
    if len(named) != len(set(named)):
        problems.add("team", N_("Two heroes have the same name."))
    problems.raise_if_any()
    seat = {pid: i for i, pid in enumerate(p["id"] for p in state["players"])}
    for hid, h in by_id.items():
        if hid in names:
            h["name"] = names[hid]
        if hid in controllers:
            h["controller"] = controllers[hid]
            h["status"] = "play" if controllers[hid] is not None else "reserve"
    # Turn order follows the seats round the table, a player's heroes in team order.
    gs["lineup"] = sorted((h["id"] for h in gs["heroes"] if h["status"] == "play"),
                          key=lambda hid: (seat[by_id[hid]["controller"]], hid))


def tick_setup(doc: dict, step: str, done: bool) -> None:
    gs = require_setting_up(doc)
    if step not in SETUP_STEPS:
        raise Invalid(Problem("step", N_("There is no such setup step.")))
    marked = set(gs["setup_done"])
    marked.add(step) if done else marked.discard(step)
    gs["setup_done"] = [s for s in SETUP_STEPS if s in marked]


def setup_problems(doc: dict) -> list[Problem]:
    """What still stops the game from starting (everything the app needs to track)."""
    gs = doc["state"]["game"]
    out = []
    hps = hero_player_ids(doc["state"])
    if not 1 <= len(hps) <= rules.HERO_PLAYERS_MAX:
        out.append(Problem("sins_player", N_("Choose the Sins player: everyone else plays heroes.")))
    if gs["story_type"] not in STORY_TYPES:
        out.append(Problem("story", N_("Choose the story and its type.")))
    elif len(hps) >= 1 and len(gs["lineup"]) != rules.hero_number(len(hps)):
        out.append(Problem("team", N_("Choose which heroes start in play.")))
    return out


def start_game(doc: dict) -> None:
    """Final Preparations done (p. 11): the first round begins.

    Every hero gets Corruption 1, 5 wound markers, 2 active Turn tokens and a City Action token; in a
    Corruption story every hero of the team holds a face-down Dark Past card.
    """
    gs = require_setting_up(doc)
    problems = setup_problems(doc)
    if problems:
        raise Invalid(problems)
    hps = hero_player_ids(doc["state"])
    gs["hero_number"] = rules.hero_number(len(hps))
    # Seats may have moved since the team was saved: turn order follows the table as it sits now.
    gs["lineup"].sort(key=lambda hid: (hps.index(hero(gs, hid)["controller"]), hid))
    for h in gs["heroes"]:
        h.update(corruption=rules.CORRUPTION_MIN, wounds=[], turns_spent=0, extra_turns=0, city_used=False,
                 upgrades=0, innocents=0, npcs=[], pending=None, replaced_by=None,
                 dark_past="hidden" if is_corruption_story(gs) else None)
    gs["round"] = 1
    gs["first"] = gs["current"] = None
    gs["reactions"] = {"spent": 0, "extra": 0}
    gs["round_done"] = []
    gs["mission"] = {"number": 1, "progress": 0, "target": None, "notes": []}
    gs["apocalypse"]["level"] = 0
    gs["apocalypse"]["cards"] = []
    gs["apocalypse"]["reveal_due"] = []
    # A table set back to setup after an ending starts a new game: no winner, no fight left open.
    gs["winner"] = None
    gs["win_reason"] = None
    gs["fight"] = None
    doc["status"] = PLAYING
