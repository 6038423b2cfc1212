"""What the pages show, worked out from the state once per render (templates stay free of rules)."""
from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

from flask import request
from flask_babel import gettext as _
from flask_babel import gettext as translate  # for message ids held in variables (not extracted)
from flask_babel import ngettext

from ...db import get_session
from ...domain import N_
from ...numbers import parse_int
from ...tables.game import SEATING
from ...tables.picture import draw
from . import picture, presets, readings, rules, state
from .rules import Bonus


# The Corruption Track's bonuses in a few letters each (the long form is read out to screen readers).
SHORT_SLOTS = {1: N_("none"), 2: N_("+1 die"), 3: N_("+1 Def"), 4: N_("+1 Hit"), 5: N_("+1 die"), 6: N_("+2 Hits"),
               7: N_("+1 any")}


class Board:
    """The game state seen by one page: lookups, would-be bonuses, counts and names."""

    def __init__(self, table, page: str):
        self.doc_status = table.status
        self.players = table.state["players"]
        self.gs = table.state["game"]
        self.page = page
        self.table_id = table.id

    def reading(self, key: str) -> str:
        """One of the app's stated readings of the rules, as in the rules pages."""
        return translate(readings.READINGS[key][1])

    def reading_slug(self, key: str) -> str:
        return readings.READINGS[key][0]

    # -- people ------------------------------------------------------------------------------------
    def player_name(self, pid) -> str:
        return next((p["name"] for p in self.players if p["id"] == pid), "?")

    @property
    def sins_player(self) -> str:
        return self.player_name(self.gs["sins_player"])

    @property
    def hero_players(self) -> list[dict]:
        return [p for p in self.players if p["id"] != self.gs["sins_player"]]

    @property
    def hero_number(self) -> int:
        """The Hero Number: fixed once the game starts, else what the seats give now (0 if unusable)."""
        if self.gs["hero_number"]:
            return self.gs["hero_number"]
        n = len(self.hero_players)
        return rules.hero_number(n) if 1 <= n <= rules.HERO_PLAYERS_MAX else 0

    @property
    def per_player(self) -> int:
        n = len(self.hero_players)
        return rules.heroes_per_player(n) if 1 <= n <= rules.HERO_PLAYERS_MAX else 0

    def name(self, h: dict) -> str:
        label = state.hero_label(h)
        if isinstance(label, str):
            return label
        return translate(label["msg"], **label["args"])

    def slot_name(self, h: dict) -> str:
        """The team slot, whatever the hero is called: "Leader", "Sniper 2"."""
        return self.name({**h, "name": ""})

    def class_name(self, h: dict) -> str:
        return translate(state.CLASS_NAMES[h["cls"]])

    def colour(self, h: dict) -> str:
        return rules.BASE_COLOURS[h["cls"]]

    # -- heroes ------------------------------------------------------------------------------------
    @property
    def heroes(self) -> list[dict]:
        return self.gs["heroes"]

    def hero(self, hid) -> dict | None:
        return next((h for h in self.gs["heroes"] if h["id"] == hid), None)

    @property
    def lineup(self) -> list[dict]:
        return state.in_play(self.gs)

    @property
    def turn_order(self) -> list[dict]:
        return state.turn_order(self.gs)

    @property
    def alive(self) -> list[dict]:
        return state.alive(self.gs)

    @property
    def reserve(self) -> list[dict]:
        return state.reserve(self.gs)

    @property
    def awaiting(self) -> list[dict]:
        return state.awaiting_replacement(self.gs)

    @property
    def fallen(self) -> list[dict]:
        return [h for h in self.gs["heroes"] if h["status"] == "dead"]

    @property
    def corruption_story(self) -> bool:
        return state.is_corruption_story(self.gs)

    @property
    def playing(self) -> bool:
        return self.doc_status == state.PLAYING

    def would_be(self, h: dict) -> Bonus | None:
        return state.would_be_bonus(h)

    def pending(self, h: dict) -> Bonus | None:
        return Bonus.from_dict(h["pending"]) if h["pending"] is not None else None

    def bonus_text(self, bonus: Bonus | None) -> str:
        """"+2 dice, +1 Hit, +1 Defense" for the dashboard, in the reader's language."""
        if bonus is None:
            return ""
        parts = []
        if bonus.dice:
            parts.append(ngettext("+%(num)d die", "+%(num)d dice", bonus.dice))
        if bonus.hits:
            parts.append(ngettext("+%(num)d Hit", "+%(num)d Hits", bonus.hits))
        if bonus.defense:
            parts.append(ngettext("+%(num)d Defense", "+%(num)d Defense", bonus.defense))
        if bonus.choice:
            parts.append(ngettext("+%(num)d result of your choice", "+%(num)d results of your choice", bonus.choice))
        return ", ".join(parts) if parts else _("no bonus")

    def slot_text(self, level: int) -> str:
        """What a Corruption Track slot gives, short: "+1 die", "no effect"."""
        return self.bonus_text(rules.TRACK[level]) if level > 1 else _("no effect")

    def slot_short(self, level: int) -> str:
        """The same, short enough for one of seven cells on a 320 px screen."""
        return translate(SHORT_SLOTS[level])

    def track(self, h: dict) -> list[dict]:
        """The seven slots of a hero's Corruption Track as shown."""
        return [{"level": lvl, "text": self.slot_short(lvl), "long": self.slot_text(lvl), "wound": lvl in h["wounds"],
                 "current": lvl == h["corruption"], "reached": lvl <= h["corruption"]} for lvl in rules.LEVELS]

    def free_slots(self, h: dict) -> list[int]:
        return [lvl for lvl in rules.LEVELS if lvl not in h["wounds"]]

    def suggested_slot(self, h: dict) -> int:
        return rules.suggested_wound_slot(h["wounds"])

    def suggested_slots(self, h: dict, n: int) -> tuple[int, ...]:
        return rules.suggested_wound_slots(h["wounds"], n)

    def decided_slot(self, h: dict) -> int | None:
        """The slot the rule decides for the next wound marker: level 1 while free (its bonus is "no
        effect", p. 37), or the one slot left; None when the player chooses."""
        free = self.free_slots(h)
        if 1 in free:
            return 1
        return free[0] if len(free) == 1 else None

    @property
    def focus(self) -> dict | None:
        """The hero whose dashboard fills the Heroes page (`?hero=<id>`), on a page view or on the
        re-render after an action taken from it (htmx names the page it came from)."""
        if request.method == "GET":
            raw = request.args.get("hero", "")
        else:
            raw = (parse_qs(urlsplit(request.headers.get("HX-Current-URL", "")).query).get("hero") or [""])[0]
        hid = parse_int(raw)  # strict digits (numbers.py): "①" or 5,000 digits are no hero, not a 500
        if hid is None:
            return None
        h = self.hero(hid)
        return h if h and h["id"] in self.gs["lineup"] and h["status"] == "play" else None

    def hero_url(self, token_url: str, h: dict) -> str:
        return f"{token_url}?hero={h['id']}"

    def wounds_left(self, h: dict) -> int:
        return rules.WOUND_MARKERS - len(h["wounds"])

    def npc_name(self, npc: str) -> str:
        return translate(state.NPC_NAMES[npc])

    def npc_term(self, npc: str) -> str:
        """The NPC's English name: the key its rules section is found by."""
        return state.NPC_NAMES[npc]

    def npc_effect(self, npc: str) -> str:
        return translate(state.NPC_EFFECTS[npc])

    def npc_holder(self, npc: str) -> dict | None:
        return next((h for h in self.gs["heroes"] if npc in h["npcs"]), None)

    @property
    def npcs(self) -> tuple[str, ...]:
        return state.NPCS

    # -- round -------------------------------------------------------------------------------------
    @property
    def reactions_total(self) -> int:
        return state.reactions_total(self.gs)

    @property
    def reactions_from_track(self) -> int:
        return state.apocalypse_bonus(self.gs)["reactions"]

    @property
    def active_turns_left(self) -> list[tuple[dict, int]]:
        return [(h, 2 - h["turns_spent"]) for h in self.alive if h["turns_spent"] < 2]

    @property
    def current(self) -> dict | None:
        return self.hero(self.gs.get("current"))

    @property
    def next_hero(self) -> dict | None:
        return state.next_hero(self.gs)

    @property
    def react_problem(self) -> str | None:
        """Why a reaction is refused now, in words, or None when the Sins player may react."""
        problem = state.can_react(self.gs)
        if problem is None:
            return None
        params = {k: (self.name(state.hero(self.gs, self.gs["current"] if self.gs.get("current") is not None
                                           else self.gs["turn_killed"])) if k == "hero" else v)
                  for k, v in problem.params.items()}
        return translate(problem.message, **params)

    @property
    def extra_turns_waiting(self) -> list[dict]:
        return [h for h in self.alive if h["extra_turns"]]

    @property
    def mission_target(self) -> int:
        return state.mission_target(self.gs) if self.gs["hero_number"] else self.hero_number

    # -- apocalypse --------------------------------------------------------------------------------
    @property
    def apocalypse(self) -> dict:
        return self.gs["apocalypse"]

    @property
    def track_levels(self) -> list[dict]:
        return [{"level": i, **lv} for i, lv in enumerate(self.gs["apocalypse"]["track"]["levels"], start=1)]

    @property
    def track_defined(self) -> bool:
        return state.track_defined(self.gs)

    @property
    def apocalypse_bonus(self) -> dict:
        return state.apocalypse_bonus(self.gs)

    @property
    def card_levels(self) -> list[int]:
        return [lv["level"] for lv in self.track_levels if lv["card"]]

    @property
    def presets(self) -> list:
        return presets.listed(get_session(), presets.current_viewer(self.table_id)) if self.page == "apocalypse" else []

    @property
    def story_type_name(self) -> str:
        kind = self.gs.get("story_type")
        return translate(state.STORY_TYPE_NAMES[kind]) if kind in state.STORY_TYPE_NAMES else ""

    # -- fight -------------------------------------------------------------------------------------
    @property
    def fight(self) -> dict | None:
        return self.gs.get("fight")

    @property
    def fight_hero(self) -> dict | None:
        return self.hero(self.fight["hero"]) if self.fight else None

    @property
    def fight_dice(self) -> tuple[int | None, int]:
        return state.fight_dice(self.gs)

    @property
    def fight_missing(self) -> dict[str, str]:
        """The printed stats the open fight still needs ({prep field: message id}); empty when none."""
        return state.missing_stats(self.fight) if self.fight else {}

    @property
    def commissioner_in_fight(self) -> bool:
        return bool(self.fight and self.fight["kind"] != state.CRISIS and "commissioner" in self.fight_hero["npcs"])

    # -- setup -------------------------------------------------------------------------------------
    def setup_done(self, step: str) -> bool:
        return step in self.gs["setup_done"]

    def round_done(self, step: str) -> bool:
        return step in self.gs["round_done"]

    @property
    def dark_past_cards(self) -> tuple[int, ...]:
        return rules.starting_dark_past(self.hero_number) if self.hero_number else ()

    @property
    def picture(self):
        """The setup picture, drawn in the viewer's language (picture.py: what goes where)."""
        return draw(picture.picture(self.players, self.gs, self.hero_number, self.doc_status == state.SETTING_UP,
                                    SEATING["others"].clockwise), translate)

    @property
    def setup_problems(self) -> list[str]:
        return [p.text(_) for p in state.setup_problems({"state": {"players": self.players, "game": self.gs}})]

    @property
    def sin_name(self) -> str:
        return translate(state.SIN_NAMES[self.gs["sin"]]) if self.gs["sin"] in state.SIN_NAMES else self.gs["sin"]

    @property
    def acolytes_name(self) -> str:
        acolytes = self.gs["acolytes"]
        return translate(state.ACOLYTE_NAMES[acolytes]) if acolytes in state.ACOLYTE_NAMES else acolytes

    @property
    def all_sins(self) -> list[tuple[str, str]]:
        return [(s, translate(state.SIN_NAMES[s])) for s in state.ALL_SINS]

    @property
    def core_acolytes(self) -> list[tuple[str, str]]:
        return [(a, translate(state.ACOLYTE_NAMES[a])) for a in state.CORE_ACOLYTES]

    # -- the end -----------------------------------------------------------------------------------
    @property
    def winner(self) -> str | None:
        return self.gs.get("winner")


def context(slug: str, table, _state: dict) -> dict:
    return {"o": Board(table, slug)}
