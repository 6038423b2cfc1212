"""The Others: 7 Sins: the Apocalypse and how the game ends: the Missions (p. 20), Victory and
Defeat (p. 12), and the Apocalypse track with its cards and the Hell Club (p. 23)."""
from __future__ import annotations

from ...domain import N_, Invalid, Problem, Problems
from .core import FINISHED, SETTING_UP, TRACK_LEVELS, add_count, clean_text, clean_texts, empty_track, require_playing
from .rounds import reactions_total

NOTE_MAX = 80
COUNT_MAX = 99
NOTES_MAX = 40  # mission notes kept
EFFECT_MAX = 120
CARDS_MAX = 21  # Apocalypse cards in the box
TRACK_BONUS_MAX = 3


# -- missions ---------------------------------------------------------------------------------------

def mission_target(gs: dict) -> int:
    return gs["mission"]["target"] or gs["hero_number"]


def add_progress(doc: dict, delta: int) -> None:
    """Mission Progress (p. 20): one step per task done for the current mission."""
    add_count(require_playing(doc)["mission"], "progress", delta, COUNT_MAX, "progress",
              N_("Progress goes from 0 to %(max)d."))


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


# -- Victory and Defeat -----------------------------------------------------------------------------

def heroes_win(doc: dict) -> None:
    """Victory and Defeat (p. 12): the last Mission is accomplished. This also settles a tie in the
    heroes' favour when the same moment killed a hero with the reserve empty."""
    if doc["status"] == SETTING_UP:
        raise Invalid(Problem("game", N_("The game has not started yet: finish the setup first.")))
    gs = doc["state"]["game"]
    gs["winner"] = "heroes"
    gs["win_reason"] = "missions"
    finish(doc)


def sins_win(doc: dict) -> None:
    """The table declares the Sins player the winner (a Story's own defeat, or anything the app cannot
    see). Undo in Recent changes takes it back."""
    require_playing(doc)
    gs = doc["state"]["game"]
    gs["winner"] = "sins"
    gs["win_reason"] = "declared"
    finish(doc)


def finish(doc: dict) -> None:
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


# -- the Apocalypse track ---------------------------------------------------------------------------

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
    # A track that now grants fewer Reaction tokens (p. 16, p. 23) cannot leave more spent than there are.
    gs["reactions"]["spent"] = min(gs["reactions"]["spent"], reactions_total(gs))


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
    entry = {"level": level, "name": "", "hell_club": "", "gone": False}
    clean_texts(entry, {"name": name, "hell_club": hell_club})
    apo["cards"].append(entry)
    apo["reveal_due"] = [lv for lv in apo["reveal_due"] if lv != level]


def skip_reveal(doc: dict, level: int) -> None:
    """A card revealed with nothing noted (p. 23): it is out all the same, so it joins the cards out,
    unnamed (the page calls it by its place: "Apocalypse card 3"), and is not asked for again."""
    gs = require_playing(doc)
    apo = gs["apocalypse"]
    if level in apo["reveal_due"] and len(apo["cards"]) < CARDS_MAX:
        apo["cards"].append({"level": level, "name": "", "hell_club": "", "gone": False})
    apo["reveal_due"] = [lv for lv in apo["reveal_due"] if lv != level]


def hell_club_killed(doc: dict, index: int) -> None:
    """A Hell Club monster killed: its figure and card leave the game (p. 23)."""
    gs = require_playing(doc)
    cards = gs["apocalypse"]["cards"]
    if not isinstance(index, int) or not 0 <= index < len(cards) or not cards[index]["hell_club"]:
        raise Invalid(Problem("card", N_("There is no such Hell Club monster.")))
    cards[index]["gone"] = True
