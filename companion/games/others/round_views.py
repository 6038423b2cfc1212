"""The Others: 7 Sins: the round's actions (p. 13-16): the first hero, turns, City Actions, the Sins
player's reactions and cards, the round's checklist, the reset of tokens, and reminders done.

Depend on the state they land on (depends_on_state), all round and turn steps:
- first: the first hero of the round it lands in;
- turn: spending a Turn token ends the turn of whoever played before (and may raise their Dark Past);
- turn_back: flipping a token back changes who plays next;
- reaction: a reaction answers the hero who just finished a turn, and one per turn;
- round_tick: a tick belongs to the round it lands in, not one reset since;
- round_end: it flips every hero's tokens; a tap from the old round must not land in the new one.
"""
from __future__ import annotations

from ...domain import N_
from ...tables.actions import action, game_state
from . import forms, state
from .blueprint import bp, counter, hero_button, label, placed

hero_button("turn_back", "turn/back", state.unspend_turn, N_("%(hero)s flipped a Turn token back"),
            depends_on_state=True)
counter("extra_turns", "extra-turns", state.add_extra_turns, N_("%(hero)s: Extra Turn tokens %(delta)+d"))
counter("reaction_extra", "reaction/extra", state.add_extra_reactions,
        N_("Extra Reaction tokens this round %(delta)+d"), per_hero=False)
counter("altars", "altars", state.add_altars, N_("Altars with no hero %(delta)+d"), per_hero=False)


@action(bp, "/t/<token>/others/first", form=forms.HeroForm, kind="others.first",
        summary=N_("%(hero)s goes first this round"), depends_on_state=True)
@placed
def first(doc, form, said):
    state.choose_first(doc, form.hero.data)
    said(hero=label(doc, form.hero.data))


@action(bp, "/t/<token>/others/turn", form=forms.HeroFlagForm, kind="others.turn", depends_on_state=True)
@placed
def turn(doc, form, said):
    state.spend_turn(doc, form.hero.data, extra=bool(form.value.data))
    said(N_("%(hero)s used an Extra Turn token") if form.value.data == 1 else N_("%(hero)s spent a Turn token"),
         hero=label(doc, form.hero.data))


@action(bp, "/t/<token>/others/city", form=forms.HeroFlagForm, kind="others.city")
@placed
def city(doc, form, said):
    state.set_city_action(doc, form.hero.data, bool(form.value.data))
    said(N_("%(hero)s used the City Action token") if form.value.data == 1 else
         N_("%(hero)s took the City Action token back"), hero=label(doc, form.hero.data))


@action(bp, "/t/<token>/others/reaction", form=forms.DeltaForm, kind="others.reaction", depends_on_state=True)
@placed
def reaction(doc, form, said):
    state.spend_reaction(doc, form.delta.data)
    gs = game_state(doc)
    said(N_("The Sins player reacts to %(hero)s") if form.delta.data == 1 else N_("A Reaction token is flipped back"),
         hero=state.hero_label(state.hero(gs, gs["current"])) if gs.get("current") else "-")


@action(bp, "/t/<token>/others/sin-card", form=forms.FlagForm, kind="others.sincard")
@placed
def sin_card(doc, form, said):
    state.set_sin_card(doc, bool(form.value.data))
    said(N_("A Sin card was played this turn") if form.value.data == 1 else N_("No Sin card played this turn"))


@action(bp, "/t/<token>/others/round/tick", form=forms.DoneForm, kind="others.round.tick", depends_on_state=True)
@placed
def round_tick(doc, form, said):
    state.tick_round(doc, form.step.data, bool(form.done.data))
    said(N_("Round step done") if form.done.data == 1 else N_("Round step undone"))


@action(bp, "/t/<token>/others/round/end", form=forms.OthersForm, kind="others.round.end",
        summary=N_("Tokens reset: round %(n)d begins"), depends_on_state=True)
@placed
def round_end(doc, form, said):
    # It flips every hero's tokens: a tap made on a screen from the old round must not land in the new one.
    state.end_round(doc)
    said(n=game_state(doc)["round"])


@action(bp, "/t/<token>/others/alert", form=forms.AlertForm, kind="others.alert", summary=N_("Reminder done"),
        relative=True)
@placed
def alert_done(doc, form, said):
    state.dismiss_alert(game_state(doc), form.alert.data)
