"""The Others: 7 Sins: a table's game state and every change to it, pure (no Flask, no database).

The state lives in `doc["state"]["game"]` (a JSON document). Every function here takes the whole
document (`doc`, with "status", "state" and "result") or the game part (`gs`) and changes it in place,
raising `Invalid` when the rules (or the input) do not allow the change. `rules.py` holds the arithmetic.

Heroes are kept by a stable id (1-7, one per team slot); `lineup` lists the heroes in play in turn
order, and a replacement takes the dead hero's place in it ("Hero Death", p. 38).
"""
from __future__ import annotations

from ...domain import N_, Invalid, Problem, Problems
from ...text import clean_line
from . import rules
from .rules import Bonus

SETTING_UP, PLAYING, FINISHED = "setup", "playing", "finished"
STORY_TYPES = ("terror", "corruption", "redemption")
STORY_TYPE_NAMES = {"terror": N_("Terror"), "corruption": N_("Corruption"), "redemption": N_("Redemption")}
CLASS_NAMES = {rules.LEADER: N_("Leader"), rules.SNIPER: N_("Sniper"), rules.BRUISER: N_("Bruiser"),
               rules.FIXER: N_("Fixer")}
NUMBERED_CLASS_NAMES = {rules.SNIPER: N_("Sniper %(n)d"), rules.BRUISER: N_("Bruiser %(n)d"),
                        rules.FIXER: N_("Fixer %(n)d")}
# "Choose Sin" / "Choose Acolytes", p. 8-9: what the core box holds (a random draw picks among these).
CORE_SINS = ("Pride", "Sloth")
ALL_SINS = ("Pride", "Sloth", "Greed", "Wrath", "Envy", "Lust", "Gluttony")
CORE_ACOLYTES = ("Corrupted Doctors", "Corrupted Hobos", "Corrupted Nuns")
SIN_NAMES = {"Pride": N_("Pride"), "Sloth": N_("Sloth"), "Greed": N_("Greed"), "Wrath": N_("Wrath"),
             "Envy": N_("Envy"), "Lust": N_("Lust"), "Gluttony": N_("Gluttony")}
ACOLYTE_NAMES = {"Corrupted Doctors": N_("Corrupted Doctors"), "Corrupted Hobos": N_("Corrupted Hobos"),
                 "Corrupted Nuns": N_("Corrupted Nuns")}
NPCS = ("commissioner", "proxy", "ravencorp")
NPC_NAMES = {"commissioner": N_("Commissioner"), "proxy": N_("PROXY"), "ravencorp": N_("RavenCorp")}
# "NPC Tokens", p. 25, in one line each (our words).
NPC_EFFECTS = {"commissioner": N_("+1 die in every Fight."),
               "proxy": N_("When moving: ignore 1 Wound per Fire check and 1 Corruption per Corruption check."),
               "ravencorp": N_("When moving: one extra Space.")}
TEXT_MAX = 30
NOTE_MAX = 80
EFFECT_MAX = 120
COUNT_MAX = 99
INNOCENTS_MAX = 6  # six Innocent tokens in the box
EXTRA_TURNS_MAX = 6
UPGRADES_MAX = 18
ALTARS_MAX = 3
NOTES_MAX = 40  # mission notes kept
CARDS_MAX = 21  # Apocalypse cards in the box
ALERTS_MAX = 20
TRACK_LEVELS = tuple(range(1, 8))
TRACK_BONUS_MAX = 3

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
START_STEPS = ("start-tasks", "first-hero")
END_STEPS = ("end-tasks", "summon", "sin-cards")


def clean_text(raw, field: str, maximum: int = TEXT_MAX, required: bool = False,
               message: str = N_("Enter a name.")) -> str:
    """User-typed text: whitespace collapsed, control characters dropped, length bounded."""
    if raw is None:
        raw = ""
    if not isinstance(raw, str):
        raise Invalid(Problem(field, N_("Enter text.")))
    text = clean_line(raw)  # controls, zero-width and bidi overrides dropped; "" if nothing visible
    if required and not text:
        raise Invalid(Problem(field, message))
    if len(text) > maximum:
        raise Invalid(Problem(field, N_("Keep it to %(max)d characters."), {"max": maximum}))
    return text


# -- a new table ------------------------------------------------------------------------------------

def new_hero(hid: int, cls: str, n: int) -> dict:
    return {"id": hid, "cls": cls, "n": n, "name": "", "status": "reserve", "controller": None,
            "stats": {"fight": None, "skill": None, "defense": None},
            "corruption": rules.CORRUPTION_MIN, "wounds": [], "turns_spent": 0, "extra_turns": 0,
            "city_used": False, "upgrades": 0, "innocents": 0, "npcs": [], "dark_past": None,
            "pending": None, "replaced_by": None}


def empty_track() -> dict:
    return {"levels": [{"card": False, "effect": "", "reactions": 0, "sin_dice": 0} for _ in TRACK_LEVELS],
            "preset": None}


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


# -- lookups ----------------------------------------------------------------------------------------

def hero(gs: dict, hid, field: str = "hero") -> dict:
    found = next((h for h in gs["heroes"] if h["id"] == hid), None)
    if found is None:
        raise Invalid(Problem(field, N_("There is no such hero.")))
    return found


def hero_label(h: dict):
    """A hero's name for the log: as typed, or the class (a message, translated when shown)."""
    if h["name"]:
        return h["name"]
    if h["cls"] == rules.LEADER:
        return {"msg": CLASS_NAMES[rules.LEADER], "args": {}}
    return {"msg": NUMBERED_CLASS_NAMES[h["cls"]], "args": {"n": h["n"]}}


def hero_player_ids(state: dict) -> list[int]:
    sins = state["game"].get("sins_player")
    return [p["id"] for p in state["players"] if p["id"] != sins]


def in_play(gs: dict) -> list[dict]:
    """Heroes in the lineup, in turn order (a dead hero keeps the seat until replaced)."""
    return [hero(gs, hid) for hid in gs["lineup"]]


def alive(gs: dict) -> list[dict]:
    return [h for h in in_play(gs) if h["status"] == "play"]


def reserve(gs: dict) -> list[dict]:
    return [h for h in gs["heroes"] if h["status"] == "reserve"]


def awaiting_replacement(gs: dict) -> list[dict]:
    return [h for h in in_play(gs) if h["status"] == "dead"]


def is_corruption_story(gs: dict) -> bool:
    return gs.get("story_type") == "corruption"


def require_playing(doc: dict) -> dict:
    if doc["status"] == SETTING_UP:
        raise Invalid(Problem("game", N_("The game has not started yet: finish the setup first.")))
    if doc["status"] == FINISHED:
        raise Invalid(Problem("game", N_("This game is over.")))
    return doc["state"]["game"]


def require_setting_up(doc: dict) -> dict:
    if doc["status"] != SETTING_UP:
        raise Invalid(Problem("game", N_("The game has started: the setup can no longer change.")))
    return doc["state"]["game"]


def living_hero(doc: dict, hid, field: str = "hero") -> dict:
    gs = require_playing(doc)
    h = hero(gs, hid, field)
    if h["status"] != "play" or hid not in gs["lineup"]:
        raise Invalid(Problem(field, N_("This hero is not in play.")))
    return h


def add_alert(gs: dict, msg: str, **args) -> int:
    """A reminder shown at the top of the table's pages until someone taps Done. Returns its id."""
    alert_id = gs["next_alert"]
    gs["alerts"].append({"id": alert_id, "msg": msg, "args": args})
    gs["next_alert"] += 1
    del gs["alerts"][:-ALERTS_MAX]
    return alert_id


def dark_past_alert(gs: dict, hid: int) -> dict | None:
    """The reminder to reveal this hero's Dark Past, if one is up."""
    return next((a for a in gs["alerts"] if a.get("dark_past") == hid), None)


def dismiss_alert(gs: dict, alert_id: int) -> None:
    gs["alerts"] = [a for a in gs["alerts"] if a["id"] != alert_id]


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
    gs = require_setting_up(doc)
    problems = Problems()
    for field, raw in (("sin", sin), ("acolytes", acolytes)):
        try:
            gs[field] = clean_text(raw, field)
        except Invalid as err:
            problems.items.extend(err.problems)
    problems.raise_if_any()


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
    doc["status"] = PLAYING


# -- the round --------------------------------------------------------------------------------------

def reactions_total(gs: dict) -> int:
    """Reaction tokens this round ("Sin Reactions", p. 16): the Hero Number, plus any the Apocalypse
    track grants at or below its level (ongoing), plus extras gained this round."""
    return gs["hero_number"] + apocalypse_bonus(gs)["reactions"] + gs["reactions"]["extra"]


def turn_order(gs: dict) -> list[dict]:
    """The lineup starting from the first hero chosen this round, then clockwise."""
    heroes = in_play(gs)
    if gs.get("first") in gs["lineup"]:
        i = gs["lineup"].index(gs["first"])
        heroes = heroes[i:] + heroes[:i]
    return heroes


def choose_first(doc: dict, hid: int) -> None:
    """Decide the First Hero (p. 13)."""
    gs = require_playing(doc)
    living_hero(doc, hid)
    gs["first"] = hid
    marked = set(gs["round_done"]) | {"first-hero"}
    gs["round_done"] = [s for s in START_STEPS + END_STEPS if s in marked]


def _end_turn_of_current(gs: dict) -> None:
    """The current hero's turn ends: at Corruption 7 in a Corruption story, the Dark Past is revealed."""
    cur = gs.get("current")
    if cur is None:
        return
    h = hero(gs, cur)
    if (h["status"] == "play" and h["corruption"] == rules.CORRUPTION_MAX and is_corruption_story(gs)
            and h["dark_past"] == "hidden" and dark_past_alert(gs, cur) is None):
        # One reminder per hero and trigger: its button is "Dark Past revealed" itself.
        add_alert(gs, N_("%(hero)s ended a turn at Corruption 7: reveal their Dark Past card and do what it says."),
                  hero=hero_label(h))
        gs["alerts"][-1]["dark_past"] = cur


def spend_turn(doc: dict, hid: int, extra: bool = False) -> None:
    """Spend a Turn token (p. 13): flip an active one, or discard an Extra Turn token instead."""
    gs = require_playing(doc)
    h = living_hero(doc, hid)
    if extra:
        if h["extra_turns"] <= 0:
            raise Invalid(Problem("hero", N_("This hero has no Extra Turn token.")))
        h["extra_turns"] -= 1
    else:
        if h["turns_spent"] >= 2:
            raise Invalid(Problem("hero", N_("Both of this hero's Turn tokens are spent.")))
        h["turns_spent"] += 1
    if gs.get("current") != hid:
        _end_turn_of_current(gs)
    gs["current"] = hid
    gs["last_seat"] = gs["lineup"].index(hid)
    gs["turn_no"] = gs.get("turn_no", 0) + 1
    gs["turn_killed"] = None
    gs["sin_card"] = False


def next_hero(gs: dict) -> dict | None:
    """Whose turn comes next (p. 13): clockwise after the seat that played last (from the first hero
    at the start of the round), skipping heroes with both Turn tokens spent. None when nobody has an
    active Turn token left. The seat counts, so a replacement plays where the dead hero sat."""
    order = turn_order(gs)
    last = gs.get("last_seat")
    if last is not None and 0 <= last < len(gs["lineup"]):
        ids = [h["id"] for h in order]
        i = ids.index(gs["lineup"][last]) + 1
        order = order[i:] + order[:i]
    return next((h for h in order if h["status"] == "play" and h["turns_spent"] < 2), None)


def unspend_turn(doc: dict, hid: int) -> None:
    """Flip a Turn token back to active (a correction)."""
    gs = require_playing(doc)
    h = hero(gs, hid)
    if hid not in gs["lineup"]:
        raise Invalid(Problem("hero", N_("This hero is not in play.")))
    if h["turns_spent"] <= 0:
        raise Invalid(Problem("hero", N_("Both Turn tokens are already active.")))
    h["turns_spent"] -= 1


def set_city_action(doc: dict, hid: int, used: bool) -> None:
    """The City Action token (p. 14): once per round, on the District's slot."""
    require_playing(doc)
    h = hero(doc["state"]["game"], hid)
    if hid not in doc["state"]["game"]["lineup"]:
        raise Invalid(Problem("hero", N_("This hero is not in play.")))
    h["city_used"] = used


def add_extra_turns(doc: dict, hid: int, delta: int) -> None:
    """Extra Turn tokens (p. 25): gained from the board or a City Action, kept from round to round."""
    h = living_hero(doc, hid)
    value = h["extra_turns"] + delta
    if not 0 <= value <= EXTRA_TURNS_MAX:
        raise Invalid(Problem("hero", N_("Extra Turn tokens go from 0 to %(max)d."), {"max": EXTRA_TURNS_MAX}))
    h["extra_turns"] = value


def can_react(gs: dict) -> Problem | None:
    """Why the Sins player cannot react now, or None (Spend a Reaction Token, p. 16): one reaction, only
    against the hero who just finished a turn; none after a hero killed during their own turn."""
    if gs.get("turn_killed") is not None:
        return Problem("reactions", N_("%(hero)s was killed during their own turn: that turn never finished, so the "
                                       "Sins player cannot react to it."),
                       {"hero": hero_label(hero(gs, gs["turn_killed"]))})
    if gs.get("current") is None:
        return Problem("reactions", N_("No hero has finished a turn yet: the Sins player reacts after a hero's turn."))
    if gs.get("reacted") is not None and gs.get("reacted") == gs.get("turn_no", 0):
        return Problem("reactions", N_("The Sins player already reacted to this turn of %(hero)s: one reaction per "
                                       "hero turn."), {"hero": hero_label(hero(gs, gs["current"]))})
    if gs["reactions"]["spent"] >= reactions_total(gs):
        return Problem("reactions", N_("Every Reaction token is already spent this round."))
    return None


def spend_reaction(doc: dict, delta: int) -> None:
    """Spend a Reaction token against the hero who just finished a turn (p. 16), or flip one back
    (delta -1, a correction, which also frees that turn for a reaction again)."""
    gs = require_playing(doc)
    if delta > 0:
        problem = can_react(gs)
        if problem:
            raise Invalid(problem)
        gs["reactions"]["spent"] += 1
        gs["reacted"] = gs.get("turn_no", 0)
        return
    if gs["reactions"]["spent"] <= 0:
        raise Invalid(Problem("reactions", N_("No Reaction token is spent.")))
    gs["reactions"]["spent"] -= 1
    gs["reacted"] = None


def add_extra_reactions(doc: dict, delta: int) -> None:
    """Extra Reaction tokens gained for this round only (discarded at Reset Tokens, p. 16)."""
    gs = require_playing(doc)
    value = gs["reactions"]["extra"] + delta
    if not 0 <= value <= 7:
        raise Invalid(Problem("reactions", N_("Extra Reaction tokens go from 0 to %(max)d."), {"max": 7}))
    gs["reactions"]["extra"] = value
    gs["reactions"]["spent"] = min(gs["reactions"]["spent"], reactions_total(gs))


def set_sin_card(doc: dict, played: bool) -> None:
    """One Sin card per turn (p. 24): a reminder, reset when the next hero's turn starts."""
    require_playing(doc)["sin_card"] = played


def tick_round(doc: dict, step: str, done: bool) -> None:
    gs = require_playing(doc)
    if step not in START_STEPS + END_STEPS:
        raise Invalid(Problem("step", N_("There is no such step.")))
    marked = set(gs["round_done"])
    marked.add(step) if done else marked.discard(step)
    gs["round_done"] = [s for s in START_STEPS + END_STEPS if s in marked]


def add_altars(doc: dict, delta: int) -> None:
    """Draw Extra Sin Cards (p. 16): one per Altar token in a space without heroes."""
    gs = require_playing(doc)
    value = gs["altars"] + delta
    if not 0 <= value <= ALTARS_MAX:
        raise Invalid(Problem("altars", N_("There are %(max)d Altar tokens in the box."), {"max": ALTARS_MAX}))
    gs["altars"] = value


def end_round(doc: dict) -> None:
    """End of Round, Reset Tokens (p. 16): Turn and Reaction tokens active again, City Action tokens
    back, extra Reaction tokens of the round discarded; Extra Turn tokens are kept."""
    gs = require_playing(doc)
    _end_turn_of_current(gs)
    for h in in_play(gs):
        h["turns_spent"] = 0
        h["city_used"] = False
    gs["reactions"] = {"spent": 0, "extra": 0}
    gs["sin_card"] = False
    gs["round_done"] = []
    gs["altars"] = 0
    gs["first"] = gs["current"] = None
    gs["last_seat"] = gs["turn_killed"] = gs["reacted"] = None
    gs["round"] += 1


# -- missions ---------------------------------------------------------------------------------------

def mission_target(gs: dict) -> int:
    return gs["mission"]["target"] or gs["hero_number"]


def add_progress(doc: dict, delta: int) -> None:
    """Mission Progress (p. 20): one step per task done for the current mission."""
    gs = require_playing(doc)
    value = gs["mission"]["progress"] + delta
    if not 0 <= value <= COUNT_MAX:
        raise Invalid(Problem("progress", N_("Progress goes from 0 to %(max)d."), {"max": COUNT_MAX}))
    gs["mission"]["progress"] = value


def set_target(doc: dict, target: int) -> None:
    gs = require_playing(doc)
    if not 1 <= target <= COUNT_MAX:
        raise Invalid(Problem("target", N_("A target from 1 to %(max)d."), {"max": COUNT_MAX}))
    gs["mission"]["target"] = target


def next_mission(doc: dict, note: str = "") -> None:
    """The current Mission is accomplished (p. 20): the next one (or the chosen branch) becomes current."""
    gs = require_playing(doc)
    text = clean_text(note, "note", NOTE_MAX)
    m = gs["mission"]
    m["notes"].append({"mission": m["number"], "text": text, "kind": "done"})
    del m["notes"][:-NOTES_MAX]
    m["number"] += 1
    m["progress"] = 0
    m["target"] = None


def add_mission_note(doc: dict, note: str) -> None:
    """A branch chosen or an event to play before the next Mission (p. 20)."""
    gs = require_playing(doc)
    text = clean_text(note, "note", NOTE_MAX, required=True, message=N_("Write the note first."))
    m = gs["mission"]
    m["notes"].append({"mission": m["number"], "text": text, "kind": "note"})
    del m["notes"][:-NOTES_MAX]


def heroes_win(doc: dict) -> None:
    """Victory and Defeat (p. 12): the last Mission is accomplished. This also settles a tie in the
    heroes' favour when the same moment killed a hero with the reserve empty."""
    if doc["status"] == SETTING_UP:
        raise Invalid(Problem("game", N_("The game has not started yet: finish the setup first.")))
    gs = doc["state"]["game"]
    gs["winner"] = "heroes"
    gs["win_reason"] = "missions"
    _finish(doc)


def sins_win(doc: dict) -> None:
    """The table declares the Sins player the winner (a Story's own defeat, or anything the app cannot
    see). Undo in Recent changes takes it back."""
    require_playing(doc)
    gs = doc["state"]["game"]
    gs["winner"] = "sins"
    gs["win_reason"] = "declared"
    _finish(doc)


def _finish(doc: dict) -> None:
    """The game is over: the result for the home page; reminders and death cards of the game in play
    are cleared (Undo brings them back with the rest)."""
    gs = doc["state"]["game"]
    gs["alerts"] = []
    players = doc["state"]["players"]
    if gs["winner"] == "heroes":
        winners = [p["name"] for p in players if p["id"] != gs["sins_player"]]
    else:
        winners = [p["name"] for p in players if p["id"] == gs["sins_player"]]
    doc["result"] = {"winners": winners, "scores": []}
    doc["status"] = FINISHED
    gs["fight"] = None


# -- corruption and wounds --------------------------------------------------------------------------

def _reached_max(gs: dict, h: dict) -> int | None:
    """At Corruption 7 a hero kills the Innocents carried ("Innocent Tokens", p. 24). Corruption is
    applied before wounds, so a fight that brings both 7 and death kills them rather than leaving them
    where the hero fell. Returns the id of the reminder raised, if any."""
    if h["corruption"] == rules.CORRUPTION_MAX and h["innocents"]:
        alert_id = add_alert(gs, INNOCENTS_KILLED, hero=hero_label(h), n=h["innocents"])
        h["innocents"] = 0
        return alert_id
    return None


INNOCENTS_KILLED = N_("%(hero)s reached Corruption 7 and killed the %(n)d Innocent(s) carried: remove them "
                      "from the game.")


def would_be_bonus(h: dict) -> Bonus | None:
    """What Voluntary Corruption would give now, or None at level 7."""
    if h["corruption"] >= rules.CORRUPTION_MAX:
        return None
    return rules.corruption_bonus(h["corruption"] + 1, h["wounds"])


def take_voluntary(doc: dict, hid: int) -> Bonus:
    """Voluntary Corruption before a roll (p. 36): one level up, the bonus held for this roll only."""
    gs = require_playing(doc)
    h = living_hero(doc, hid)
    if h["pending"] is not None:
        raise Invalid(Problem("hero", N_("This hero already took Corruption for this roll: only one per roll.")))
    if gs["fight"] and gs["fight"]["hero"] == hid and gs["fight"].get("outcome"):
        raise Invalid(Problem("hero", N_("The dice are already rolled: Corruption is taken before rolling.")))
    step = rules.voluntary_corruption(h["corruption"], h["wounds"])
    # What changing one's mind must put back: the Innocents killed at 7 and the reminder that raised
    # (with any older reminder it pushed off the list).
    innocents, before = h["innocents"], list(gs["alerts"])
    h["corruption"] = step.new_level
    h["pending"] = step.bonus.as_dict()
    alert_id = _reached_max(gs, h)
    h["pending"]["undo"] = {"innocents": innocents, "alert": alert_id,
                            "trimmed": [a for a in before if a not in gs["alerts"]]}
    return step.bonus


def cancel_voluntary(doc: dict, hid: int) -> None:
    """Before the dice are rolled, a hero may change their mind about the Corruption just taken (p. 36)."""
    gs = require_playing(doc)
    h = living_hero(doc, hid)
    if h["pending"] is None:
        raise Invalid(Problem("hero", N_("This hero has not taken Corruption for this roll.")))
    if gs["fight"] and gs["fight"]["hero"] == hid and gs["fight"].get("outcome"):
        raise Invalid(Problem("hero", N_("The dice are already rolled: it is too late to change your mind.")))
    undo = h["pending"].get("undo")
    h["corruption"] -= 1
    h["pending"] = None
    if undo:
        h["innocents"] = undo["innocents"]
        if undo["alert"] is not None:
            gs["alerts"] = undo["trimmed"] + [a for a in gs["alerts"] if a["id"] != undo["alert"]]
            del gs["alerts"][:-ALERTS_MAX]
            if gs["next_alert"] == undo["alert"] + 1:
                gs["next_alert"] = undo["alert"]


def roll_done(doc: dict, hid: int) -> None:
    """The roll the Corruption bonus was for is over: the bonus is gone (p. 36)."""
    require_playing(doc)
    h = hero(doc["state"]["game"], hid)
    h["pending"] = None


def take_forced(doc: dict, hid: int, slot: int | None = None) -> bool:
    """Forced Corruption (p. 36): one level up; at 7 a wound instead, placed on `slot`. True if it wounded."""
    gs = require_playing(doc)
    h = living_hero(doc, hid)
    step = rules.forced_corruption(h["corruption"])
    if step.wound:
        if slot is None:
            raise Invalid(Problem("slot", N_("At Corruption 7 the hero takes a wound instead: choose its slot.")))
        take_wound(doc, hid, slot)
        return True
    h["corruption"] = step.new_level
    _reached_max(gs, h)
    return False


def repent(doc: dict, hid: int) -> None:
    """Repent (City Action, p. 14): the Corruption level goes down one."""
    h = living_hero(doc, hid)
    h["corruption"] = rules.repent(h["corruption"])


def take_wound(doc: dict, hid: int, slot: int) -> bool:
    """Place a wound marker on the chosen slot (p. 37); the fifth kills the hero (p. 38). True if killed."""
    h = living_hero(doc, hid, "slot")
    result = rules.place_wound(h["wounds"], slot)
    h["wounds"] = list(result.wound_slots)
    if result.killed:
        kill(doc, hid)
    return result.killed


def heal(doc: dict, hid: int, slot: int) -> None:
    """Heal (City Action, p. 14): remove the wound marker of the player's choice."""
    h = living_hero(doc, hid, "slot")
    h["wounds"] = list(rules.heal(h["wounds"], slot))


# -- death and replacement --------------------------------------------------------------------------

def kill(doc: dict, hid: int) -> None:
    """Hero Death (p. 38). The hero leaves play; Turn and City Action tokens stay (for the replacement),
    Extra Turn tokens are discarded, NPCs and Innocents go back on the board (a reminder). With nobody
    left in the reserve, the Sins player wins (Victory and Defeat, p. 12)."""
    gs = doc["state"]["game"]
    h = hero(gs, hid)
    h["status"] = "dead"
    h["pending"] = None
    h["extra_turns"] = 0
    npcs = [{"term": NPC_NAMES[n]} for n in h["npcs"]]
    npc_list = {"msg": ", ".join(f"%(n{i})s" for i in range(len(npcs))),  # no words: needs no translation
                "args": {f"n{i}": npc for i, npc in enumerate(npcs)}}
    if npcs and h["innocents"]:
        add_alert(gs, N_("%(hero)s died: put %(npcs)s and %(n)d Innocent(s) in the space where they fell."),
                  hero=hero_label(h), npcs=npc_list, n=h["innocents"])
    elif npcs:
        add_alert(gs, N_("%(hero)s died: put %(npcs)s in the space where they fell."), hero=hero_label(h),
                  npcs=npc_list)
    elif h["innocents"]:
        add_alert(gs, N_("%(hero)s died: put %(n)d Innocent(s) in the space where they fell."),
                  hero=hero_label(h), n=h["innocents"])
    h["npcs"] = []
    h["innocents"] = 0
    if gs.get("fight") and gs["fight"]["hero"] == hid:
        gs["fight"] = None
    gs["alerts"] = [a for a in gs["alerts"] if a.get("dark_past") != hid]  # it stays face down with them
    if gs.get("current") == hid:
        gs["current"] = None
        gs["turn_killed"] = hid
        add_alert(gs, N_("%(hero)s died during their turn: the turn ends and the Sins player cannot react to it."),
                  hero=hero_label(h))
    # Every death waiting for a replacement needs its own hero from the reserve (Victory and Defeat, p. 12).
    if len(awaiting_replacement(gs)) > len(reserve(gs)) and gs["winner"] is None:
        gs["winner"] = "sins"
        gs["win_reason"] = "reserve"
        _finish(doc)


def unreplaceable(gs: dict) -> bool:
    """More deaths wait for a replacement than the Hero Reserve holds."""
    return len(awaiting_replacement(gs)) > len(reserve(gs))


def replace_hero(doc: dict, dead_id: int, new_id: int) -> None:
    """Bring in a replacement from the reserve (Hero Death, p. 38): same seat in the turn order, the
    dead hero's Turn and City Action tokens as they were, as many Upgrades as the dead hero had;
    Corruption 1 and no wounds."""
    gs = require_playing(doc)
    dead = hero(gs, dead_id, "dead")
    if dead["status"] != "dead" or dead_id not in gs["lineup"]:
        raise Invalid(Problem("dead", N_("This hero is not waiting for a replacement.")))
    new = hero(gs, new_id, "replacement")
    if new["status"] != "reserve":
        raise Invalid(Problem("replacement", N_("This hero is not in the Hero Reserve.")))
    gs["lineup"][gs["lineup"].index(dead_id)] = new_id
    new.update(status="play", controller=dead["controller"], corruption=rules.CORRUPTION_MIN, wounds=[],
               turns_spent=dead["turns_spent"], city_used=dead["city_used"], upgrades=dead["upgrades"],
               extra_turns=0, innocents=0, npcs=[], pending=None)
    dead["replaced_by"] = new_id
    if gs.get("first") == dead_id:
        gs["first"] = new_id


# -- what heroes carry ------------------------------------------------------------------------------

def add_upgrades(doc: dict, hid: int, delta: int) -> None:
    """Upgrade cards held (p. 27): from the Inventory City Action; no limit but the deck."""
    h = living_hero(doc, hid)
    value = h["upgrades"] + delta
    if not 0 <= value <= UPGRADES_MAX:
        raise Invalid(Problem("hero", N_("Upgrade cards go from 0 to %(max)d."), {"max": UPGRADES_MAX}))
    h["upgrades"] = value


def add_innocents(doc: dict, hid: int, delta: int) -> None:
    """Innocent tokens carried (p. 24): picked up for free, never dropped by choice."""
    h = living_hero(doc, hid)
    value = h["innocents"] + delta
    if not 0 <= value <= INNOCENTS_MAX:
        raise Invalid(Problem("hero", N_("Innocent tokens go from 0 to %(max)d."), {"max": INNOCENTS_MAX}))
    h["innocents"] = value


def set_npc(doc: dict, hid: int, npc: str, held: bool) -> None:
    """NPC tokens (p. 25): a hero picks one up (from the board, or after another hero left it there)
    or puts it back on the board. One token of each NPC exists."""
    gs = require_playing(doc)
    h = living_hero(doc, hid)
    if npc not in NPCS:
        raise Invalid(Problem("npc", N_("There is no such NPC.")))
    if held:
        for other in gs["heroes"]:
            if npc in other["npcs"]:
                other["npcs"].remove(npc)
        h["npcs"].append(npc)
        h["npcs"] = [n for n in NPCS if n in h["npcs"]]
    elif npc in h["npcs"]:
        h["npcs"].remove(npc)


def reveal_dark_past(doc: dict, hid: int) -> None:
    """Dark Past (p. 27): revealed at the end of a turn at Corruption 7, its effect done, then discarded."""
    gs = require_playing(doc)
    h = living_hero(doc, hid)
    if not is_corruption_story(gs):
        raise Invalid(Problem("hero", N_("Dark Past cards are only used in Corruption stories.")))
    if h["dark_past"] != "hidden":
        raise Invalid(Problem("hero", N_("This hero's Dark Past is already revealed.")))
    h["dark_past"] = "revealed"
    gs["alerts"] = [a for a in gs["alerts"] if a.get("dark_past") != hid]


def set_stats(doc: dict, hid: int, fight: int, skill: int, defense: int) -> None:
    """The printed Fight, Skill and Defense of a hero dashboard (p. 21), typed once for the fight helper."""
    gs = doc["state"]["game"]
    if doc["status"] == FINISHED:
        raise Invalid(Problem("game", N_("This game is over.")))
    h = hero(gs, hid)
    problems = Problems()
    for name, value in (("fight", fight), ("skill", skill), ("defense", defense)):
        if not isinstance(value, int) or not 0 <= value <= 9:
            problems.add(name, N_("From 0 to %(max)d."), max=9)
    problems.raise_if_any()
    h["stats"] = {"fight": fight, "skill": skill, "defense": defense}


def rename_hero(doc: dict, hid: int, name: str) -> None:
    gs = doc["state"]["game"]
    h = hero(gs, hid)
    text = clean_text(name, "name")
    if text and any(o["id"] != hid and o["name"].casefold() == text.casefold() for o in gs["heroes"]):
        raise Invalid(Problem("name", N_("Another hero already has that name.")))
    h["name"] = text


# -- the Apocalypse track ---------------------------------------------------------------------------

def apocalypse_bonus(gs: dict) -> dict[str, int]:
    """What the track's levels at or below the current one add, cumulatively (p. 23)."""
    apo = gs["apocalypse"]
    levels = apo["track"]["levels"][:apo["level"]]
    return {"reactions": sum(lv["reactions"] for lv in levels), "sin_dice": sum(lv["sin_dice"] for lv in levels)}


def clean_track(levels, problems: Problems | None = None) -> list[dict]:
    """A printed Apocalypse track as typed (or read back from a preset): 7 levels, each with whether it
    reveals an Apocalypse card, its printed effect, and the extra Reaction tokens and Sin dice it adds."""
    own = problems is None
    problems = problems if problems is not None else Problems()
    if not isinstance(levels, list) or len(levels) != len(TRACK_LEVELS):
        problems.add("track", N_("The track has 7 levels."))
        if own:
            problems.raise_if_any()
        return empty_track()["levels"]
    out = []
    for lvl, raw in zip(TRACK_LEVELS, levels):
        raw = raw if isinstance(raw, dict) else {}
        entry = {"card": raw.get("card") is True, "effect": "", "reactions": 0, "sin_dice": 0}
        try:
            entry["effect"] = clean_text(raw.get("effect", ""), f"effect_{lvl}", EFFECT_MAX)
        except Invalid as err:
            problems.items.extend(err.problems)
        for name in ("reactions", "sin_dice"):
            value = raw.get(name, 0)
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= TRACK_BONUS_MAX:
                problems.add(f"{name}_{lvl}", N_("From 0 to %(max)d."), max=TRACK_BONUS_MAX)
            else:
                entry[name] = value
        out.append(entry)
    if own:
        problems.raise_if_any()
    return out


def set_track(doc: dict, levels: list[dict], preset: dict | None = None) -> None:
    """Mark which levels show a card and what each level does, as printed (or copied from a preset)."""
    gs = doc["state"]["game"]
    if doc["status"] == FINISHED:
        raise Invalid(Problem("game", N_("This game is over.")))
    gs["apocalypse"]["track"] = {"levels": clean_track(levels), "preset": preset}


def track_defined(gs: dict) -> bool:
    return any(lv["card"] or lv["effect"] or lv["reactions"] or lv["sin_dice"]
               for lv in gs["apocalypse"]["track"]["levels"])


def raise_apocalypse(doc: dict, delta: int) -> list[int]:
    """The Apocalypse level moves (p. 23): raised by story tasks, never past 7 (delta -1 corrects a
    mistake). Reaching a level that shows a card asks for one to be revealed. Returns those levels."""
    gs = require_playing(doc)
    apo = gs["apocalypse"]
    level = apo["level"] + delta
    if level > 7:
        raise Invalid(Problem("level", N_("The Apocalypse track is at 7: it cannot go higher.")))
    if level < 0:
        raise Invalid(Problem("level", N_("The Apocalypse track is already at 0.")))
    apo["level"] = level
    due = []
    if delta > 0 and apo["track"]["levels"][level - 1]["card"]:
        revealed = {c["level"] for c in apo["cards"]}
        if level not in revealed and level not in apo["reveal_due"]:
            apo["reveal_due"].append(level)
            due.append(level)
    apo["reveal_due"] = [lv for lv in apo["reveal_due"] if lv <= level]
    gs["reactions"]["spent"] = min(gs["reactions"]["spent"], reactions_total(gs))
    return due


def note_card(doc: dict, level: int, name: str, hell_club: str) -> None:
    """An Apocalypse card revealed at a level (p. 23), and the Hell Club monster it brings, if any."""
    gs = require_playing(doc)
    apo = gs["apocalypse"]
    if not isinstance(level, int) or not 1 <= level <= apo["level"]:
        raise Invalid(Problem("level", N_("Cards are revealed at levels the track has reached.")))
    if len(apo["cards"]) >= CARDS_MAX:
        raise Invalid(Problem("name", N_("That is every Apocalypse card in the box.")))
    problems = Problems()
    entry = {"level": level, "name": "", "hell_club": "", "gone": False}
    for field, raw in (("name", name), ("hell_club", hell_club)):
        try:
            entry[field] = clean_text(raw, field)
        except Invalid as err:
            problems.items.extend(err.problems)
    problems.raise_if_any()
    apo["cards"].append(entry)
    apo["reveal_due"] = [lv for lv in apo["reveal_due"] if lv != level]


def skip_reveal(doc: dict, level: int) -> None:
    gs = require_playing(doc)
    gs["apocalypse"]["reveal_due"] = [lv for lv in gs["apocalypse"]["reveal_due"] if lv != level]


def hell_club_killed(doc: dict, index: int) -> None:
    """A Hell Club monster killed: its figure and card leave the game (p. 23)."""
    gs = require_playing(doc)
    cards = gs["apocalypse"]["cards"]
    if not isinstance(index, int) or not 0 <= index < len(cards) or not cards[index]["hell_club"]:
        raise Invalid(Problem("card", N_("There is no such Hell Club monster.")))
    cards[index]["gone"] = True


# -- the fight helper -------------------------------------------------------------------------------

FIGHT, RANGED, CRISIS = "fight", "ranged", "crisis"
FIGHT_KINDS = (FIGHT, RANGED, CRISIS)


def start_fight(doc: dict, hid: int, kind: str) -> None:
    """Open the fight helper for a hero: a Fight, a Ranged Fight (p. 34: the hero rolls first, the
    survivors may move up to 2 spaces and fight back against that roll, no Acolyte ability), or
    Resolve a Crisis. Its inputs start from the hero's typed stats; the Commissioner and the
    Apocalypse track are counted by themselves."""
    gs = require_playing(doc)
    h = living_hero(doc, hid)
    if kind not in FIGHT_KINDS:
        raise Invalid(Problem("kind", N_("Choose a Fight, a Ranged Fight or a Crisis.")))
    stats = h["stats"]
    gs["fight"] = {"hero": hid, "kind": kind,
                   "stat": (stats["skill"] if kind == CRISIS else stats["fight"]) or 0,
                   "base_defense": stats["defense"] or 0, "teammates": 0, "extra_dice": 0,
                   "extra_defense": 0, "extra_hits": 0, "monsters": 0, "pentagrams": 0, "sin_extra": 0,
                   "roll": None, "outcome": None}


def fight_of(gs: dict) -> dict:
    if not gs.get("fight"):
        raise Invalid(Problem("fight", N_("No fight is open: start one first.")))
    return gs["fight"]


PREP_FIELDS = ("stat", "base_defense", "teammates", "extra_dice", "extra_defense", "extra_hits", "monsters",
               "pentagrams", "sin_extra")


def prepare_fight(doc: dict, values: dict[str, int]) -> None:
    """Hero and Sin preparation (p. 31): the numbers behind both dice pools."""
    gs = require_playing(doc)
    fight = fight_of(gs)
    if fight["outcome"]:
        raise Invalid(Problem("fight", N_("The dice are already rolled: start a new fight to change them.")))
    problems = Problems()
    for name in PREP_FIELDS:
        value = values.get(name, fight[name])
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= rules.DICE_MAX:
            problems.add(name, N_("From 0 to %(max)d."), max=rules.DICE_MAX)
        else:
            fight[name] = value
    problems.raise_if_any()


def fight_dice(gs: dict) -> tuple[int, int]:
    """(hero dice, Sin dice) for the open fight, with the hero's Corruption bonus and the track's dice."""
    fight = gs["fight"]
    h = hero(gs, fight["hero"])
    bonus = Bonus.from_dict(h["pending"])
    fighting = fight["kind"] != CRISIS
    commissioner = fighting and "commissioner" in h["npcs"]
    heroes = rules.hero_dice(fight["stat"], fight["teammates"], commissioner, fight["extra_dice"], bonus)
    sins = rules.sin_dice(fight["monsters"], fight["pentagrams"],
                          fight["sin_extra"] + apocalypse_bonus(gs)["sin_dice"]) if fighting else 0
    return heroes, sins


def resolve(doc: dict, roll: rules.HeroRoll, sin: rules.SinRoll) -> None:
    """Enter the rolled results and work out what reaches the hero (p. 31) or how many tokens go (p. 13)."""
    gs = require_playing(doc)
    fight = fight_of(gs)
    h = hero(gs, fight["hero"])
    bonus = Bonus.from_dict(h["pending"])
    fight["roll"] = {**roll.__dict__, "sin_hits": sin.hits, "sin_corruption": sin.corruption}
    if fight["kind"] != CRISIS:
        # A Ranged Fight is worked out the same way: the monsters that reach the hero roll against the
        # hero's first roll (p. 34); none reaching means no Sin results at all.
        out = rules.resolve_fight(roll, sin, fight["base_defense"], fight["extra_defense"], fight["extra_hits"],
                                  bonus)
        level, overflow = rules.forced_corruptions(h["corruption"], out.corruption)
        fight["outcome"] = {**out.as_dict(), "overflow": overflow,
                            "wounds_total": min(out.wounds + overflow, rules.WOUND_MARKERS - len(h["wounds"]))}
    else:
        tokens = rules.resolve_crisis(roll, bonus)
        fight["outcome"] = {"tokens": tokens, "wounds_total": 0, "corruption": 0, "overflow": 0}


def apply_fight(doc: dict, slots: list[int]) -> dict:
    """Apply the outcome to the hero: Forced Corruption first (wounds instead at 7), then each wound
    on the slot the player chose. Closes the helper and ends the roll's Corruption bonus."""
    gs = require_playing(doc)
    fight = fight_of(gs)
    out = fight["outcome"]
    if not out:
        raise Invalid(Problem("fight", N_("Enter the rolled results first.")))
    hid = fight["hero"]
    h = living_hero(doc, hid)
    # The outcome was worked out on the state shown; recount in case the hero changed since.
    level, overflow = rules.forced_corruptions(h["corruption"], out["corruption"])
    needed = min(out.get("wounds", 0) + overflow, rules.WOUND_MARKERS - len(h["wounds"]))
    chosen = list(dict.fromkeys(slots))
    if len(chosen) != len(slots):
        raise Invalid(Problem("slots", N_("Choose each slot once.")))
    if len(chosen) != needed:
        raise Invalid(Problem("slots", N_("Choose exactly %(n)d slot(s) for the wound markers."), {"n": needed}))
    free = [s for s in rules.LEVELS if s not in h["wounds"]]
    if any(s not in free for s in chosen):
        raise Invalid(Problem("slots", N_("Choose free slots only.")))
    h["corruption"] = level
    h["pending"] = None
    _reached_max(gs, h)
    gs["fight"] = None
    killed = False
    for slot in chosen:
        if take_wound(doc, hid, slot):
            killed = True
            break
    return {"wounds": len(chosen), "corruption": out["corruption"], "killed": killed}


def close_fight(doc: dict) -> None:
    """Close the helper without applying anything (the roll's Corruption bonus is used up if rolled)."""
    gs = require_playing(doc)
    fight = fight_of(gs)
    if fight["outcome"]:
        hero(gs, fight["hero"])["pending"] = None
    gs["fight"] = None
