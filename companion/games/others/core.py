"""The Others: 7 Sins: what every chapter of the game state shares: the table's stages, the limits
of typed text, the lookups (which hero, who is in play, may the table change this now), the
reminders, and what the Apocalypse track adds at its level.

The state lives in `doc["state"]["game"]` (a JSON document). Every function of the chapters takes the
whole document (`doc`, with "status", "state" and "result") or the game part (`gs`) and changes it in
place, raising `Invalid` when the rules (or the input) do not allow the change. `rules.py` holds the
arithmetic. Pure: no Flask, no database.

Heroes are kept by a stable id (1-7, one per team slot); `lineup` lists the heroes in play in turn
order, and a replacement takes the dead hero's place in it ("Hero Death", p. 38).

The chapters follow the rulebook, each importing only those before it: setup.py (Game Setup),
rounds.py (rounds, hero turns, reactions), apocalypse.py (the Apocalypse track, the Missions and
how the game ends), heroes.py (Corruption, wounds, death, what heroes carry, fights). state.py is
their face: every name, from one module.
"""
from __future__ import annotations

from ...domain import N_, Invalid, Problem, Problems
from ...text import clean_line
from . import rules

SETTING_UP, PLAYING, FINISHED = "setup", "playing", "finished"
CLASS_NAMES = {rules.LEADER: N_("Leader"), rules.SNIPER: N_("Sniper"), rules.BRUISER: N_("Bruiser"),
               rules.FIXER: N_("Fixer")}
NUMBERED_CLASS_NAMES = {rules.SNIPER: N_("Sniper %(n)d"), rules.BRUISER: N_("Bruiser %(n)d"),
                        rules.FIXER: N_("Fixer %(n)d")}
TEXT_MAX = 30
ALERTS_MAX = 20
TRACK_LEVELS = tuple(range(1, 8))


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


def clean_texts(target: dict, typed: dict) -> None:
    """Typed names (field: raw text) cleaned into `target`, each under its own field; refused with
    every problem at once."""
    problems = Problems()
    for field, raw in typed.items():
        try:
            target[field] = clean_text(raw, field)
        except Invalid as err:
            problems.items.extend(err.problems)
    problems.raise_if_any()


def add_count(holder: dict, key: str, delta: int, maximum: int, field: str, message: str) -> None:
    """Move a count kept from 0 to `maximum` (tokens held, Mission progress) by `delta`; outside that
    range it is refused on `field` with `message`, which names the maximum as %(max)d."""
    value = holder[key] + delta
    if not 0 <= value <= maximum:
        raise Invalid(Problem(field, message, {"max": maximum}))
    holder[key] = value


def empty_track() -> dict:
    """A new table's Apocalypse track: nothing marked until the table types it (or copies a preset)."""
    return {"levels": [{"card": False, "effect": "", "reactions": 0, "sin_dice": 0} for _ in TRACK_LEVELS],
            "preset": None}


# -- lookups ----------------------------------------------------------------------------------------

def hero(gs: dict, hid, field: str = "hero") -> dict:
    found = next((h for h in gs["heroes"] if h["id"] == hid), None)
    if found is None:
        raise Invalid(Problem(field, N_("There is no such hero.")))
    return found


class HeroLabel(dict):
    """An unnamed hero's name: a stored message ({"msg", "args"}) for the log, translated when shown,
    which also reads as words where a refusal puts it in a sentence (`str`), never as raw data.

    `render` turns a stored message into text; the app sets it to its translating renderer
    (others/blueprint.py), so these rules stay free of Flask. Unset, it is the English text."""

    render = None

    def __str__(self) -> str:
        if HeroLabel.render is not None:
            try:
                return HeroLabel.render(dict(self))
            except RuntimeError:  # no app to translate with (a script): the English words
                pass
        return self["msg"] % self["args"] if self["args"] else self["msg"]


def hero_label(h: dict):
    """A hero's name for the log: as typed, or the class (a message, translated when shown)."""
    if h["name"]:
        return h["name"]
    if h["cls"] == rules.LEADER:
        return HeroLabel(msg=CLASS_NAMES[rules.LEADER], args={})
    return HeroLabel(msg=NUMBERED_CLASS_NAMES[h["cls"]], args={"n": h["n"]})


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


# What the track adds counts in the round (Reaction tokens) and in fights (Sin dice): read here,
# below both; the track itself is in apocalypse.py.
def apocalypse_bonus(gs: dict) -> dict[str, int]:
    """What the track's levels at or below the current one add, cumulatively (p. 23)."""
    apo = gs["apocalypse"]
    levels = apo["track"]["levels"][:apo["level"]]
    return {"reactions": sum(lv["reactions"] for lv in levels), "sin_dice": sum(lv["sin_dice"] for lv in levels)}
