"""The Others: 7 Sins: the table's actions (one small route per button) and the JSON API.

Every action goes through `live.perform`: the form is checked, then a pure function of state.py
changes the document. Counters are relative (two phones' taps add up); every other action sets
what its phone saw, so the store refuses it when another phone changed the same values since (two
phones working on different heroes never block each other).
"""
from __future__ import annotations

import secrets

from flask import Blueprint, request, url_for
from flask_babel import gettext as _

from ...api import api, json_endpoint
from ...db import get_session
from ...domain import N_, Invalid, Problems, count
from ...limits import preset_saves
from ...tables import live
from ...tables.store import Change
from . import forms, presets, rules, state
from .rules import Bonus

bp = Blueprint("others", __name__)



def act(token, form, kind: str, summary: str, op, *, relative: bool = False, slug: str | None = None):
    """Run `op(doc, form, args)` as one logged change; `relative` marks an increment (see store.Change)."""
    return live.act(token, form, kind, summary, lambda doc, form, args: placed(form, op, doc, args),
                    relative=relative, slug=slug)


def placed(form, op, doc, args):
    """Run the change; a refusal from the rules is shown next to the field it is about."""
    try:
        op(doc, form, args)
    except Invalid as err:
        raise form.place(err) from None


# A log line whose wording depends on what happened (a death, a card due) is chosen inside the change and
# stored whole under "what"; this pattern holds no words, so it needs no translation.
WHAT = "%(what)s"


def label(doc, hid):
    return state.hero_label(state.hero(doc["state"]["game"], hid))


def bonus_message(bonus: Bonus) -> dict:
    """A Corruption bonus as a log message, e.g. "dice +2, Hits +1" (translated when shown)."""
    parts = [(N_("dice +%(n)d"), bonus.dice), (N_("Hits +%(n)d"), bonus.hits),
             (N_("Defense +%(n)d"), bonus.defense), (N_("a result of your choice +%(n)d"), bonus.choice)]
    shown = [{"msg": msg, "args": {"n": n}} for msg, n in parts if n]
    if not shown:
        return {"msg": N_("no bonus"), "args": {}}
    # The joining pattern holds no words, so it needs no translation.
    pattern = ", ".join(f"%(p{i})s" for i in range(len(shown)))
    return {"msg": pattern, "args": {f"p{i}": part for i, part in enumerate(shown)}}


def hero_button(endpoint: str, path: str, change, summary: str) -> None:
    """Register a one-tap action on one hero: `change(doc, hero_id)`; the log names the hero and the
    Corruption level it leaves them at."""
    def view(token):
        def op(doc, form, args):
            change(doc, form.hero.data)
            h = state.hero(doc["state"]["game"], form.hero.data)
            args.update(hero=state.hero_label(h), level=h["corruption"])
        return act(token, forms.HeroForm(), f"others.{endpoint}", summary, op)
    bp.add_url_rule(f"/t/<token>/others/{path}", endpoint, view, methods=["POST"])


def counter(endpoint: str, path: str, change, summary: str, per_hero: bool = True):
    """Register a -1/+1 counter: `change(doc, hero_id, delta)` (or `change(doc, delta)` for the table).
    Increments commute, so two phones' taps simply add up."""
    def view(token):
        def op(doc, form, args):
            if per_hero:
                change(doc, form.hero.data, form.delta.data)
                args["hero"] = label(doc, form.hero.data)
            else:
                change(doc, form.delta.data)
            args["delta"] = form.delta.data
        form = forms.HeroDeltaForm() if per_hero else forms.DeltaForm()
        return act(token, form, f"others.{endpoint}", summary, op, relative=True)
    bp.add_url_rule(f"/t/<token>/others/{path}", endpoint, view, methods=["POST"])


hero_button("turn_back", "turn/back", state.unspend_turn, N_("%(hero)s flipped a Turn token back"))
hero_button("voluntary_cancel", "voluntary/cancel", state.cancel_voluntary,
            N_("%(hero)s changed their mind: no Corruption for this roll"))
hero_button("roll_done", "roll-done", state.roll_done, N_("%(hero)s rolled: the Corruption bonus is used"))
hero_button("forced", "forced", state.take_forced, N_("%(hero)s took Forced Corruption (level %(level)d)"))
hero_button("repent", "repent", state.repent, N_("%(hero)s repented (level %(level)d)"))
hero_button("dark_past", "dark-past", state.reveal_dark_past, N_("%(hero)s revealed their Dark Past"))
counter("extra_turns", "extra-turns", state.add_extra_turns, N_("%(hero)s: Extra Turn tokens %(delta)+d"))
counter("upgrades", "upgrades", state.add_upgrades, N_("%(hero)s: Upgrade cards %(delta)+d"))
counter("innocents", "innocents", state.add_innocents, N_("%(hero)s: Innocents %(delta)+d"))
counter("reaction_extra", "reaction/extra", state.add_extra_reactions,
        N_("Extra Reaction tokens this round %(delta)+d"), per_hero=False)
counter("altars", "altars", state.add_altars, N_("Altars with no hero %(delta)+d"), per_hero=False)
counter("mission_progress", "mission/progress", state.add_progress, N_("Mission progress %(delta)+d"),
        per_hero=False)


# -- setup ------------------------------------------------------------------------------------------

@bp.post("/t/<token>/others/roles")
def roles(token):
    def op(doc, form, args):
        state.set_roles(doc, form.sins_player.data)
        args["player"] = next(p["name"] for p in doc["state"]["players"] if p["id"] == form.sins_player.data)
    return act(token, forms.RolesForm(), "others.roles", N_("%(player)s plays the Sins"),
               op)


@bp.post("/t/<token>/others/sin")
def sin(token):
    form = forms.SinForm()
    # A random draw is made once here, not inside the change (which may be retried).
    drawn = {"sin": secrets.choice(state.CORE_SINS), "acolytes": secrets.choice(state.CORE_ACOLYTES)}

    def op(doc, form, args):
        sin_name, acolytes = form.sin.data or "", form.acolytes.data or ""
        if form.draw.data == "sin":
            sin_name = drawn["sin"]
        elif form.draw.data == "acolytes":
            acolytes = drawn["acolytes"]
        state.set_sin(doc, sin_name, acolytes)
        gs = doc["state"]["game"]
        args.update(sin=gs["sin"] or "-", acolytes=gs["acolytes"] or "-")
    return act(token, form, "others.sin", N_("Sin: %(sin)s; Acolytes: %(acolytes)s"), op)


@bp.post("/t/<token>/others/story")
def story(token):
    def op(doc, form, args):
        state.set_story(doc, form.story.data, form.story_type.data, form.map.data or "")
        args.update(story=doc["state"]["game"]["story"], kind={"term": state.STORY_TYPE_NAMES[form.story_type.data]})
    return act(token, forms.StoryForm(), "others.story", N_("Story: %(story)s (%(kind)s)"), op)


@bp.post("/t/<token>/others/team")
def team(token):
    def op(doc, form, args):
        entries = []
        for hid in range(1, rules.TEAM_SIZE + 1):
            ctrl = getattr(form, f"controller_{hid}").data
            entries.append({"id": hid, "name": getattr(form, f"name_{hid}").data or "",
                            "controller": ctrl or None})
        state.set_team(doc, entries)
    return act(token, forms.TeamForm(), "others.team", N_("The team of heroes is set"), op)


@bp.post("/t/<token>/others/setup/tick")
def setup_tick(token):
    def op(doc, form, args):
        state.tick_setup(doc, form.step.data, bool(form.done.data))
        args["step"] = {"term": state.SETUP_STEP_NAMES[form.step.data]}
    form = forms.DoneForm()
    msg = N_("Setup step done: %(step)s") if request.form.get("done") == "1" else N_("Setup step undone: %(step)s")
    return act(token, form, "others.setup.tick", msg, op)


@bp.post("/t/<token>/others/start")
def start(token):
    def op(doc, form, args):
        state.start_game(doc)
    table, _readonly = live.open_table(token, edit=True)
    ready = not state.setup_problems({"status": table.status, "state": table.state})
    # Once started, the table goes to the round tracker; a refusal stays on the setup page, next to the button.
    resp = act(token, forms.OthersForm(), "others.start", N_("The game begins: round 1"), op,
               slug="round" if ready else "setup")
    if ready and resp.status_code == 200:
        resp.headers["HX-Push-Url"] = url_for("tables.page", token=token, slug="round")
    return resp


# -- the round --------------------------------------------------------------------------------------

@bp.post("/t/<token>/others/first")
def first(token):
    def op(doc, form, args):
        state.choose_first(doc, form.hero.data)
        args["hero"] = label(doc, form.hero.data)
    return act(token, forms.HeroForm(), "others.first", N_("%(hero)s goes first this round"), op)


@bp.post("/t/<token>/others/turn")
def turn(token):
    form = forms.HeroFlagForm()
    extra = request.form.get("value") == "1"

    def op(doc, form, args):
        state.spend_turn(doc, form.hero.data, extra=bool(form.value.data))
        args["hero"] = label(doc, form.hero.data)
    msg = N_("%(hero)s used an Extra Turn token") if extra else N_("%(hero)s spent a Turn token")
    return act(token, form, "others.turn", msg, op)


@bp.post("/t/<token>/others/city")
def city(token):
    def op(doc, form, args):
        state.set_city_action(doc, form.hero.data, bool(form.value.data))
        args["hero"] = label(doc, form.hero.data)
    form = forms.HeroFlagForm()
    msg = N_("%(hero)s used the City Action token") if request.form.get("value") == "1" else \
        N_("%(hero)s took the City Action token back")
    return act(token, form, "others.city", msg, op)


@bp.post("/t/<token>/others/reaction")
def reaction(token):
    def op(doc, form, args):
        state.spend_reaction(doc, form.delta.data)
        gs = doc["state"]["game"]
        args["hero"] = state.hero_label(state.hero(gs, gs["current"])) if gs.get("current") else "-"
    form = forms.DeltaForm()
    msg = N_("The Sins player reacts to %(hero)s") if request.form.get("delta") == "1" else \
        N_("A Reaction token is flipped back")
    return act(token, form, "others.reaction", msg, op)


@bp.post("/t/<token>/others/sin-card")
def sin_card(token):
    def op(doc, form, args):
        state.set_sin_card(doc, bool(form.value.data))
    form = forms.FlagForm()
    msg = N_("A Sin card was played this turn") if request.form.get("value") == "1" else \
        N_("No Sin card played this turn")
    return act(token, form, "others.sincard", msg, op)


@bp.post("/t/<token>/others/round/tick")
def round_tick(token):
    def op(doc, form, args):
        state.tick_round(doc, form.step.data, bool(form.done.data))
    form = forms.DoneForm()
    msg = N_("Round step done") if request.form.get("done") == "1" else N_("Round step undone")
    return act(token, form, "others.round.tick", msg, op)


@bp.post("/t/<token>/others/round/end")
def round_end(token):
    def op(doc, form, args):
        state.end_round(doc)
        args["n"] = doc["state"]["game"]["round"]
    # It flips every hero's tokens: a tap made on a screen from the old round must not land in the new one.
    return act(token, forms.OthersForm(), "others.round.end", N_("Tokens reset: round %(n)d begins"),
               op)


# -- missions ---------------------------------------------------------------------------------------

@bp.post("/t/<token>/others/mission/target")
def mission_target(token):
    def op(doc, form, args):
        state.set_target(doc, form.target.data)
        args["n"] = form.target.data
    return act(token, forms.TargetForm(), "others.target", N_("Mission target set to %(n)d"),
               op)


@bp.post("/t/<token>/others/mission/next")
def mission_next(token):
    def op(doc, form, args):
        args["n"] = doc["state"]["game"]["mission"]["number"]
        state.next_mission(doc, form.note.data or "")
    return act(token, forms.NoteForm(), "others.mission", N_("Mission %(n)d accomplished"), op)


@bp.post("/t/<token>/others/mission/note")
def mission_note(token):
    def op(doc, form, args):
        state.add_mission_note(doc, form.note.data or "")
    return act(token, forms.NoteForm(), "others.note", N_("Mission note added"), op, relative=True)


def ending(endpoint: str, path: str, kind: str, declare, summary: str) -> None:
    """Register a button that ends the game for one side (Victory and Defeat, p. 12); Undo takes it back."""
    def view(token):
        return act(token, forms.OthersForm(), kind, summary, lambda doc, form, args: declare(doc))
    bp.add_url_rule(f"/t/<token>/others/{path}", endpoint, view, methods=["POST"])


ending("heroes_win", "win", "others.win", state.heroes_win, N_("The heroes accomplished the last Mission and win"))
ending("sins_win", "sins-win", "others.sinswin", state.sins_win, N_("The table declared the Sins player the winner"))


@bp.post("/t/<token>/others/alert")
def alert_done(token):
    def op(doc, form, args):
        state.dismiss_alert(doc["state"]["game"], form.alert.data)
    return act(token, forms.AlertForm(), "others.alert", N_("Reminder done"), op, relative=True)


# -- hero dashboards --------------------------------------------------------------------------------

@bp.post("/t/<token>/others/voluntary")
def voluntary(token):
    def op(doc, form, args):
        bonus = state.take_voluntary(doc, form.hero.data)
        h = state.hero(doc["state"]["game"], form.hero.data)
        args.update(hero=state.hero_label(h), level=h["corruption"], bonus=bonus_message(bonus))
    return act(token, forms.HeroForm(), "others.voluntary",
               N_("%(hero)s took Voluntary Corruption (level %(level)d): %(bonus)s"),
               op)


@bp.post("/t/<token>/others/wound")
def wound(token):
    def op(doc, form, args):
        hid, slot = form.hero.data, form.slot.data
        forced_wound = form.cause.data == "forced"
        if forced_wound:
            state.take_forced(doc, hid, slot)
        else:
            state.take_wound(doc, hid, slot)
        died = state.hero(doc["state"]["game"], hid)["status"] == "dead"
        msg = {(False, False): N_("%(hero)s took a wound on slot %(slot)d"),
               (False, True): N_("%(hero)s took a wound on slot %(slot)d and died"),
               (True, False): N_("%(hero)s took Forced Corruption at 7: a wound on slot %(slot)d"),
               (True, True): N_("%(hero)s took Forced Corruption at 7: a wound on slot %(slot)d, and died")}
        args["what"] = {"msg": msg[(forced_wound, died)], "args": {"hero": label(doc, hid), "slot": slot}}
    form = forms.WoundForm()
    return act(token, form, "others.wound", WHAT, op)


@bp.post("/t/<token>/others/heal")
def heal(token):
    def op(doc, form, args):
        state.heal(doc, form.hero.data, form.slot.data)
        args.update(hero=label(doc, form.hero.data), slot=form.slot.data)
    return act(token, forms.SlotForm(), "others.heal", N_("%(hero)s healed the wound on slot %(slot)d"),
               op)


@bp.post("/t/<token>/others/npc")
def npc(token):
    form = forms.NpcForm()
    held = request.form.get("value") == "1"

    def op(doc, form, args):
        state.set_npc(doc, form.hero.data, form.npc.data, bool(form.value.data))
        args.update(hero=label(doc, form.hero.data), npc={"term": state.NPC_NAMES[form.npc.data]})
    msg = N_("%(hero)s took the %(npc)s token") if held else N_("%(hero)s left the %(npc)s token on the board")
    return act(token, form, "others.npc", msg, op)


@bp.post("/t/<token>/others/replace")
def replace(token):
    def op(doc, form, args):
        state.replace_hero(doc, form.dead.data, form.replacement.data)
        args.update(dead=label(doc, form.dead.data), hero=label(doc, form.replacement.data))
    return act(token, forms.ReplaceForm(), "others.replace", N_("%(hero)s comes in for %(dead)s"),
               op)


@bp.post("/t/<token>/others/stats")
def stats(token):
    def op(doc, form, args):
        hid = form.hero.data
        state.rename_hero(doc, hid, form.name.data or "")
        state.set_stats(doc, hid, form.fight.data, form.skill.data, form.defense.data)
        args["hero"] = label(doc, hid)
    return act(token, forms.StatsForm(), "others.stats", N_("%(hero)s: name and printed stats saved"),
               op)


# -- the fight helper -------------------------------------------------------------------------------

@bp.post("/t/<token>/others/fight/start")
def fight_start(token):
    form = forms.FightStartForm()
    crisis = request.form.get("kind") == state.CRISIS

    def op(doc, form, args):
        state.start_fight(doc, form.hero.data, form.kind.data)
        args["hero"] = label(doc, form.hero.data)
    msg = N_("%(hero)s tries to Resolve a Crisis") if crisis else N_("%(hero)s fights")
    return act(token, form, "others.fight", msg, op)


@bp.post("/t/<token>/others/fight/prepare")
def fight_prepare(token):
    def op(doc, form, args):
        state.prepare_fight(doc, {name: getattr(form, name).data for name in state.PREP_FIELDS})
        heroes, sins = state.fight_dice(doc["state"]["game"])
        args.update(heroes=heroes, sins=sins)
    return act(token, forms.FightPrepForm(), "others.fight.prep",
               N_("Fight dice counted: %(heroes)d Hero dice, %(sins)d Sin dice"), op)


@bp.post("/t/<token>/others/fight/resolve")
def fight_resolve(token):
    def op(doc, form, args):
        problems = Problems()
        values = {name: getattr(form, name).data or 0 for name in forms.ROLL_FIELDS}
        hero_roll, sin_roll = rules.roll_from(values, problems)
        problems.raise_if_any()
        state.resolve(doc, hero_roll, sin_roll)
    return act(token, forms.FightRollForm(), "others.fight.resolve", N_("Fight results entered"),
               op)


@bp.post("/t/<token>/others/fight/apply")
def fight_apply(token):
    def op(doc, form, args):
        hid = doc["state"]["game"]["fight"]["hero"] if doc["state"]["game"].get("fight") else None
        done = state.apply_fight(doc, form.chosen_slots())
        args.update(hero=label(doc, hid) if hid else "-", wounds=done["wounds"], corruption=done["corruption"])
    return act(token, forms.FightApplyForm(), "others.fight.apply",
               N_("%(hero)s: %(wounds)d wound(s) and %(corruption)d Corruption applied"),
               op)


@bp.post("/t/<token>/others/fight/close")
def fight_close(token):
    def op(doc, form, args):
        state.close_fight(doc)
    return act(token, forms.OthersForm(), "others.fight.close", N_("Fight helper closed"), op)


# -- the Apocalypse track ---------------------------------------------------------------------------

@bp.post("/t/<token>/others/apocalypse")
def apocalypse(token):
    def op(doc, form, args):
        due = state.raise_apocalypse(doc, form.delta.data)
        level = doc["state"]["game"]["apocalypse"]["level"]
        if due:
            msg = N_("Apocalypse level raised to %(n)d: reveal an Apocalypse card")
        elif form.delta.data > 0:
            msg = N_("Apocalypse level raised to %(n)d")
        else:
            msg = N_("Apocalypse level lowered to %(n)d")
        args["what"] = {"msg": msg, "args": {"n": level}}
    return act(token, forms.DeltaForm(), "others.apocalypse", WHAT, op, relative=True)


@bp.post("/t/<token>/others/track")
def track(token):
    def op(doc, form, args):
        levels = [{"card": bool(getattr(form, f"card_{lvl}").data),
                   "effect": getattr(form, f"effect_{lvl}").data or "",
                   "reactions": getattr(form, f"reactions_{lvl}").data,
                   "sin_dice": getattr(form, f"sin_dice_{lvl}").data} for lvl in state.TRACK_LEVELS]
        state.set_track(doc, levels)
    return act(token, forms.TrackForm(), "others.track", N_("The Apocalypse track is marked as printed"),
               op)


@bp.post("/t/<token>/others/track/save")
@preset_saves
def track_save(token):
    """Save the table's track as a preset for other tables, then note its name on the table."""
    form = forms.PresetSaveForm()
    table, readonly = live.open_table(token, edit=True)
    if form.validate():
        try:
            saved = presets.save(get_session(), form.name.data, table.state["game"]["apocalypse"]["track"]["levels"],
                                 presets.current_viewer(table.id, create_phone=True))
        except Invalid as err:
            t = live.form_view(table, readonly, token)
            bound = live.Bound(request.form.get("form_key") or None, request.form.copy(),
                                 form.place(err).as_dict(_))
            return live.render(t, status=422, bound=bound)
        ref = {"id": saved.id, "name": saved.name}
    else:
        ref = None

    def op(doc, form, args):
        args["name"] = ref["name"]
        doc["state"]["game"]["apocalypse"]["track"]["preset"] = ref
    return act(token, form, "others.track.save", N_("The Apocalypse track is saved as “%(name)s”"),
               op)


@bp.post("/t/<token>/others/track/use")
def track_use(token):
    viewer = presets.current_viewer(live.open_table(token, edit=True)[0].id)

    def op(doc, form, args):
        ref, levels = presets.load(get_session(), form.preset.data, viewer)
        state.set_track(doc, levels, ref)
        args["name"] = ref["name"]
    return act(token, forms.PresetUseForm(), "others.track.use", N_("The Apocalypse track is copied from “%(name)s”"),
               op)


@bp.post("/t/<token>/others/card")
def card(token):
    def op(doc, form, args):
        state.note_card(doc, form.level.data, form.name.data or "", form.hell_club.data or "")
        args.update(level=form.level.data, name=form.name.data or "-")
    return act(token, forms.CardForm(), "others.card", N_("Apocalypse card at level %(level)d: %(name)s"),
               op)


@bp.post("/t/<token>/others/card/skip")
def card_skip(token):
    def op(doc, form, args):
        state.skip_reveal(doc, form.level.data)
        args["level"] = form.level.data
    return act(token, forms.LevelForm(), "others.card.skip", N_("Apocalypse card at level %(level)d revealed"),
               op)


@bp.post("/t/<token>/others/hell-club")
def hell_club(token):
    def op(doc, form, args):
        state.hell_club_killed(doc, form.card.data)
        args["name"] = doc["state"]["game"]["apocalypse"]["cards"][form.card.data]["hell_club"]
    return act(token, forms.CardIndexForm(), "others.hellclub", N_("%(name)s of the Hell Club was killed"),
               op)


# -- JSON API ---------------------------------------------------------------------------------------

@api.post("/others/corruption")
@json_endpoint
def corruption_api(payload: dict) -> dict:
    """Voluntary Corruption from a level and the covered slots: the new level and this roll's bonus.

    `{"level": 4, "wound_slots": [1, 3]}` -> `{"new_level": 5, "bonus": {"dice": 2, "defense": 0,
    "hits": 1, "choice": 0}}`.
    """
    problems = Problems()
    level = count(payload.get("level"), "level", problems, minimum=rules.CORRUPTION_MIN,
                  maximum=rules.CORRUPTION_MAX)
    slots = rules.check_wound_slots(payload.get("wound_slots", []), problems=problems)
    problems.raise_if_any()
    step = rules.voluntary_corruption(level, slots)
    return {"new_level": step.new_level, "bonus": step.bonus.as_dict()}
