"""The Others: 7 Sins: the heroes: Corruption and wounds (p. 36-37), death and replacement (p. 38),
what heroes carry (p. 24-27), their printed stats, and the fight helper (p. 31-34)."""
from __future__ import annotations

from ...domain import N_, Invalid, Problem, Problems
from . import rules
from .apocalypse import finish
from .core import (ALERTS_MAX, FINISHED, add_alert, add_count, apocalypse_bonus, awaiting_replacement, clean_text, hero,
                   hero_label, is_corruption_story, living_hero, require_playing, reserve)
from .rules import Bonus

NPCS = ("commissioner", "proxy", "ravencorp")
NPC_NAMES = {"commissioner": N_("Commissioner"), "proxy": N_("PROXY"), "ravencorp": N_("RavenCorp")}
# "NPC Tokens", p. 25, in one line each (our words).
NPC_EFFECTS = {"commissioner": N_("+1 die in every Fight."),
               "proxy": N_("When moving: ignore 1 Wound per Fire check and 1 Corruption per Corruption check."),
               "ravencorp": N_("When moving: one extra Space.")}
INNOCENTS_MAX = 6  # six Innocent tokens in the box
UPGRADES_MAX = 18


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
        finish(doc)


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
    add_count(living_hero(doc, hid), "upgrades", delta, UPGRADES_MAX, "hero", N_("Upgrade cards go from 0 to %(max)d."))


def add_innocents(doc: dict, hid: int, delta: int) -> None:
    """Innocent tokens carried (p. 24): picked up for free, never dropped by choice."""
    add_count(living_hero(doc, hid), "innocents", delta, INNOCENTS_MAX, "hero",
              N_("Innocent tokens go from 0 to %(max)d."))


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


# -- the fight helper -------------------------------------------------------------------------------

FIGHT, RANGED, CRISIS = "fight", "ranged", "crisis"
FIGHT_KINDS = (FIGHT, RANGED, CRISIS)


def start_fight(doc: dict, hid: int, kind: str) -> None:
    """Open the fight helper for a hero: a Fight, a Ranged Fight (p. 34: the hero rolls first, the
    survivors may move up to 2 spaces and fight back against that roll, no Acolyte ability), or
    Resolve a Crisis. Its inputs start from the hero's typed stats; a printed stat never typed stays
    unknown (None) until the players type it under Before rolling, never counted as 0 (`missing_stats`).
    The Commissioner and the Apocalypse track are counted by themselves."""
    gs = require_playing(doc)
    h = living_hero(doc, hid)
    if kind not in FIGHT_KINDS:
        raise Invalid(Problem("kind", N_("Choose a Fight, a Ranged Fight or a Crisis.")))
    stats = h["stats"]
    gs["fight"] = {"hero": hid, "kind": kind,
                   "stat": stats["skill"] if kind == CRISIS else stats["fight"],
                   "base_defense": stats["defense"], "teammates": 0, "extra_dice": 0,
                   "extra_defense": 0, "extra_hits": 0, "monsters": 0, "pentagrams": 0, "sin_extra": 0,
                   "roll": None, "outcome": None}


def fight_of(gs: dict) -> dict:
    if not gs.get("fight"):
        raise Invalid(Problem("fight", N_("No fight is open: start one first.")))
    return gs["fight"]


PREP_FIELDS = ("stat", "base_defense", "teammates", "extra_dice", "extra_defense", "extra_hits", "monsters",
               "pentagrams", "sin_extra")

# What each printed stat the fight needs says when it was never typed: the dice and the wounds are
# never worked out with a 0 standing in for it.
MISSING_STAT = {
    "fight": N_("Type the hero's printed Fight: the dice are not counted until it is known."),
    "skill": N_("Type the hero's printed Skill: the dice are not counted until it is known."),
    "base_defense": N_("Type the hero's printed Defense: the wounds are not worked out until it is known."),
}


def _asks_for(name: str, kind: str) -> str | None:
    """What an unknown prep field says, for a fight of this kind; None when that kind does not need it
    (a Crisis rolls no Defense)."""
    if name == "stat":
        return MISSING_STAT["skill" if kind == CRISIS else "fight"]
    return MISSING_STAT["base_defense"] if name == "base_defense" and kind != CRISIS else None


def missing_stats(fight: dict) -> dict[str, str]:
    """The printed stats this fight needs that nobody typed yet: {prep field: message id}. A Crisis needs
    Skill only; a Fight or a Ranged Fight needs Fight and Defense."""
    return {name: message for name in ("stat", "base_defense")
            if fight[name] is None and (message := _asks_for(name, fight["kind"]))}


def prepare_fight(doc: dict, values: dict[str, int]) -> None:
    """Hero and Sin preparation (p. 31): the numbers behind both dice pools."""
    gs = require_playing(doc)
    fight = fight_of(gs)
    if fight["outcome"]:
        raise Invalid(Problem("fight", N_("The dice are already rolled: start a new fight to change them.")))
    problems = Problems()
    for name in PREP_FIELDS:
        value = values.get(name, fight[name])
        if value is None and name in ("stat", "base_defense"):
            if message := _asks_for(name, fight["kind"]):
                problems.add(name, message)
        elif not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= rules.DICE_MAX:
            problems.add(name, N_("From 0 to %(max)d."), max=rules.DICE_MAX)
        else:
            fight[name] = value
    problems.raise_if_any()


def fight_dice(gs: dict) -> tuple[int | None, int]:
    """(hero dice, Sin dice) for the open fight, with the hero's Corruption bonus and the track's dice;
    no hero dice (None) while the hero's printed Fight or Skill is unknown."""
    fight = gs["fight"]
    h = hero(gs, fight["hero"])
    bonus = Bonus.from_dict(h["pending"])
    fighting = fight["kind"] != CRISIS
    commissioner = fighting and "commissioner" in h["npcs"]
    if fight["stat"] is None:  # never typed: no count rather than one made with 0
        heroes = None
    else:
        heroes = rules.hero_dice(fight["stat"], fight["teammates"], commissioner, fight["extra_dice"], bonus)
    sins = rules.sin_dice(fight["monsters"], fight["pentagrams"],
                          fight["sin_extra"] + apocalypse_bonus(gs)["sin_dice"]) if fighting else 0
    return heroes, sins


def resolve(doc: dict, roll: rules.HeroRoll, sin: rules.SinRoll) -> None:
    """Enter the rolled results and work out what reaches the hero (p. 31) or how many tokens go (p. 13)."""
    gs = require_playing(doc)
    fight = fight_of(gs)
    missing = missing_stats(fight)
    if missing:
        raise Invalid([Problem(name, msg) for name, msg in missing.items()])
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
