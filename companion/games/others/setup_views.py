"""The Others: 7 Sins: the setup page's actions (Game Setup, p. 8-11).

Depends on the state it lands on (depends_on_state):
- start: the game begins from the setup as it stands, and round 1 with it.
"""
from __future__ import annotations

import secrets

from flask import url_for

from ...domain import N_
from ...tables.actions import action, game_state
from . import forms, rules, state
from .blueprint import bp, placed


@action(bp, "/t/<token>/others/roles", form=forms.RolesForm, kind="others.roles",
        summary=N_("%(player)s plays the Sins"))
@placed
def roles(doc, form, said):
    state.set_roles(doc, form.sins_player.data)
    said(player=next(p["name"] for p in doc["state"]["players"] if p["id"] == form.sins_player.data))


@action(bp, "/t/<token>/others/sin", form=forms.SinForm, kind="others.sin",
        summary=N_("Sin: %(sin)s; Acolytes: %(acolytes)s"))
@placed
def sin(doc, form, said):
    sin_name, acolytes = form.sin.data or "", form.acolytes.data or ""
    if form.draw.data == "sin":
        sin_name = secrets.choice(state.CORE_SINS)
    elif form.draw.data == "acolytes":
        acolytes = secrets.choice(state.CORE_ACOLYTES)
    state.set_sin(doc, sin_name, acolytes)
    gs = game_state(doc)
    said(sin=gs["sin"] or "-", acolytes=gs["acolytes"] or "-")


@action(bp, "/t/<token>/others/story", form=forms.StoryForm, kind="others.story",
        summary=N_("Story: %(story)s (%(kind)s)"))
@placed
def story(doc, form, said):
    state.set_story(doc, form.story.data, form.story_type.data, form.map.data or "")
    said(story=game_state(doc)["story"], kind={"term": state.STORY_TYPE_NAMES[form.story_type.data]})


@action(bp, "/t/<token>/others/team", form=forms.TeamForm, kind="others.team", summary=N_("The team of heroes is set"))
@placed
def team(doc, form, said):
    state.set_team(doc, [{"id": hid, "name": getattr(form, f"name_{hid}").data or "",
                          "controller": getattr(form, f"controller_{hid}").data or None}
                         for hid in range(1, rules.TEAM_SIZE + 1)])


@action(bp, "/t/<token>/others/setup/tick", form=forms.DoneForm, kind="others.setup.tick")
@placed
def setup_tick(doc, form, said):
    state.tick_setup(doc, form.step.data, bool(form.done.data))
    said(N_("Setup step done: %(step)s") if form.done.data == 1 else N_("Setup step undone: %(step)s"),
         step={"term": state.SETUP_STEP_NAMES[form.step.data]})


def _start_page(table) -> str:
    """Once started, the table goes to the round tracker; a refusal stays on the setup page, next to the button."""
    return "setup" if state.setup_problems({"status": table.status, "state": table.state}) else "round"


def _push_round(resp, t):
    if resp.status_code == 200 and t.page.slug == "round":
        resp.headers["HX-Push-Url"] = url_for("tables.page", token=t.tok, slug="round")
    return resp


@action(bp, "/t/<token>/others/start", form=forms.OthersForm, kind="others.start",
        summary=N_("The game begins: round 1"), depends_on_state=True, page=_start_page, respond=_push_round)
@placed
def start(doc, form, said):
    state.start_game(doc)
