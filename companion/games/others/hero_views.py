"""The Others: 7 Sins: the heroes' actions: their dashboards (Corruption, wounds, NPCs, replacements,
stats, what they carry, p. 21-38) and the fight helper (p. 31-34).

Depend on the state they land on (depends_on_state):
- voluntary: Corruption may reach 7, which kills the Innocents the hero carries;
- forced: at Corruption 7 it is a wound instead, which can kill the hero;
- wound: the fifth wound kills the hero, and a death with the reserve empty ends the game;
- fight_apply: its wounds can kill the hero (and end the game), its Corruption reach 7.
"""
from __future__ import annotations

from ...domain import N_, Problems
from ...tables.actions import action, game_state
from . import forms, rules, state
from .blueprint import WHAT, bp, counter, hero_button, label, placed
from .rules import Bonus

hero_button("voluntary_cancel", "voluntary/cancel", state.cancel_voluntary,
            N_("%(hero)s changed their mind: no Corruption for this roll"))
hero_button("roll_done", "roll-done", state.roll_done, N_("%(hero)s rolled: the Corruption bonus is used"))
hero_button("forced", "forced", state.take_forced, N_("%(hero)s took Forced Corruption (level %(level)d)"),
            depends_on_state=True)
hero_button("repent", "repent", state.repent, N_("%(hero)s repented (level %(level)d)"))
hero_button("dark_past", "dark-past", state.reveal_dark_past, N_("%(hero)s revealed their Dark Past"))
counter("upgrades", "upgrades", state.add_upgrades, N_("%(hero)s: Upgrade cards %(delta)+d"))
counter("innocents", "innocents", state.add_innocents, N_("%(hero)s: Innocents %(delta)+d"))


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


# -- hero dashboards --------------------------------------------------------------------------------

@action(bp, "/t/<token>/others/voluntary", form=forms.HeroForm, kind="others.voluntary",
        summary=N_("%(hero)s took Voluntary Corruption (level %(level)d): %(bonus)s"), depends_on_state=True)
@placed
def voluntary(doc, form, said):
    bonus = state.take_voluntary(doc, form.hero.data)
    h = state.hero(game_state(doc), form.hero.data)
    said(hero=state.hero_label(h), level=h["corruption"], bonus=bonus_message(bonus))


@action(bp, "/t/<token>/others/wound", form=forms.WoundForm, kind="others.wound", summary=WHAT,
        depends_on_state=True)
@placed
def wound(doc, form, said):
    hid, slot = form.hero.data, form.slot.data
    forced_wound = form.cause.data == "forced"
    if forced_wound:
        state.take_forced(doc, hid, slot)
    else:
        state.take_wound(doc, hid, slot)
    died = state.hero(game_state(doc), hid)["status"] == "dead"
    msg = {(False, False): N_("%(hero)s took a wound on slot %(slot)d"),
           (False, True): N_("%(hero)s took a wound on slot %(slot)d and died"),
           (True, False): N_("%(hero)s took Forced Corruption at 7: a wound on slot %(slot)d"),
           (True, True): N_("%(hero)s took Forced Corruption at 7: a wound on slot %(slot)d, and died")}
    said(what={"msg": msg[(forced_wound, died)], "args": {"hero": label(doc, hid), "slot": slot}})


@action(bp, "/t/<token>/others/heal", form=forms.SlotForm, kind="others.heal",
        summary=N_("%(hero)s healed the wound on slot %(slot)d"))
@placed
def heal(doc, form, said):
    state.heal(doc, form.hero.data, form.slot.data)
    said(hero=label(doc, form.hero.data), slot=form.slot.data)


@action(bp, "/t/<token>/others/npc", form=forms.NpcForm, kind="others.npc")
@placed
def npc(doc, form, said):
    state.set_npc(doc, form.hero.data, form.npc.data, bool(form.value.data))
    said(N_("%(hero)s took the %(npc)s token") if form.value.data == 1 else
         N_("%(hero)s left the %(npc)s token on the board"),
         hero=label(doc, form.hero.data), npc={"term": state.NPC_NAMES[form.npc.data]})


@action(bp, "/t/<token>/others/replace", form=forms.ReplaceForm, kind="others.replace",
        summary=N_("%(hero)s comes in for %(dead)s"))
@placed
def replace(doc, form, said):
    state.replace_hero(doc, form.dead.data, form.replacement.data)
    said(dead=label(doc, form.dead.data), hero=label(doc, form.replacement.data))


@action(bp, "/t/<token>/others/stats", form=forms.StatsForm, kind="others.stats",
        summary=N_("%(hero)s: name and printed stats saved"))
@placed
def stats(doc, form, said):
    hid = form.hero.data
    state.rename_hero(doc, hid, form.name.data or "")
    state.set_stats(doc, hid, form.fight.data, form.skill.data, form.defense.data)
    said(hero=label(doc, hid))


# -- the fight helper -------------------------------------------------------------------------------

@action(bp, "/t/<token>/others/fight/start", form=forms.FightStartForm, kind="others.fight")
@placed
def fight_start(doc, form, said):
    state.start_fight(doc, form.hero.data, form.kind.data)
    said(N_("%(hero)s tries to Resolve a Crisis") if form.kind.data == state.CRISIS else N_("%(hero)s fights"),
         hero=label(doc, form.hero.data))


@action(bp, "/t/<token>/others/fight/prepare", form=forms.FightPrepForm, kind="others.fight.prep",
        summary=N_("Fight dice counted: %(heroes)d Hero dice, %(sins)d Sin dice"))
@placed
def fight_prepare(doc, form, said):
    state.prepare_fight(doc, {name: getattr(form, name).data for name in state.PREP_FIELDS})
    heroes, sins = state.fight_dice(game_state(doc))
    said(heroes=heroes, sins=sins)


@action(bp, "/t/<token>/others/fight/resolve", form=forms.FightRollForm, kind="others.fight.resolve",
        summary=N_("Fight results entered"))
@placed
def fight_resolve(doc, form, said):
    problems = Problems()
    values = {name: getattr(form, name).data or 0 for name in forms.ROLL_FIELDS}
    hero_roll, sin_roll = rules.roll_from(values, problems)
    problems.raise_if_any()
    state.resolve(doc, hero_roll, sin_roll)


@action(bp, "/t/<token>/others/fight/apply", form=forms.FightApplyForm, kind="others.fight.apply",
        summary=N_("%(hero)s: %(wounds)d wound(s) and %(corruption)d Corruption applied"), depends_on_state=True)
@placed
def fight_apply(doc, form, said):
    fight = game_state(doc).get("fight")
    hid = fight["hero"] if fight else None
    done = state.apply_fight(doc, form.chosen_slots())
    said(hero=label(doc, hid) if hid else "-", wounds=done["wounds"], corruption=done["corruption"])


@action(bp, "/t/<token>/others/fight/close", form=forms.OthersForm, kind="others.fight.close",
        summary=N_("Fight helper closed"))
@placed
def fight_close(doc, form, said):
    state.close_fight(doc)
