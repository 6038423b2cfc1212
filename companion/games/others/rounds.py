"""The Others: 7 Sins: the round (p. 13-16): the first hero, hero turns and their tokens, the Sins
player's reactions, the round's checklist and the reset of tokens at its end."""
from __future__ import annotations

from ...domain import N_, Invalid, Problem
from . import rules
from .core import (add_alert, add_count, apocalypse_bonus, dark_past_alert, hero, hero_label, in_play,
                   is_corruption_story, living_hero, require_playing)

START_STEPS = ("start-tasks", "first-hero")
END_STEPS = ("end-tasks", "summon", "sin-cards")
EXTRA_TURNS_MAX = 6
ALTARS_MAX = 3


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
    add_count(living_hero(doc, hid), "extra_turns", delta, EXTRA_TURNS_MAX, "hero",
              N_("Extra Turn tokens go from 0 to %(max)d."))


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
    add_count(gs["reactions"], "extra", delta, 7, "reactions", N_("Extra Reaction tokens go from 0 to %(max)d."))
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
    add_count(require_playing(doc), "altars", delta, ALTARS_MAX, "altars",
              N_("There are %(max)d Altar tokens in the box."))


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
