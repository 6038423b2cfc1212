"""City of Five Sails table actions of the rulebook's "Game Setup" (p. 3): tick the checklist, lay out
the City line, and start Day 1.

None is relative (each sets what the phone saw). Depends on the state it lands on:
- start: it is refused once the game has started, and it begins Day 1 (it moves the Day on).
"""
from __future__ import annotations

from ...domain import N_, Invalid, Problem
from ...tables.actions import action, game_state
from ...tables.store import PLAYING, SETTING_UP
from . import rules
from .blueprint import bp
from .common import form_wide, playing
from .forms import DuelForm, LineForm, TickForm

# What each button of the City line does: the key it turns over, and the log line.
LINE_MOVES = {"flip": ("flipped", N_("The City line was turned end for end")),
              "swap": ("swapped", N_("The Docks and The Grand Bazaar swapped places")),
              "gardens": ("gardens_with_inn", N_("Governor's Gardens moved to the other end of the line"))}


@action(bp, "/t/<token>/fivesails/setup/tick", form=TickForm, kind="setup.tick")
@form_wide
def tick(doc, form, said):
    step, done = form.step.data, bool(form.done.data)
    gs = playing(doc)
    steps = {s.key: s for s in rules.setup_steps(len(doc["state"]["players"]))}
    if step not in steps:
        raise Invalid(Problem("step", N_("That is not a setup step for this many players.")))
    said(N_("Setup: %(step)s ✓") if done else N_("Setup: %(step)s unticked"), step={"term": steps[step].label})
    have = [k for k in gs["setup_done"] if k != step]
    gs["setup_done"] = have + ([step] if done else [])


@action(bp, "/t/<token>/fivesails/setup/line", form=LineForm, kind="setup.line")
@form_wide
def line(doc, form, said):
    key, msg = LINE_MOVES[form.what.data]
    gs = playing(doc)
    gs["line"][key] = not gs["line"].get(key, False)
    said(msg)


@action(bp, "/t/<token>/fivesails/start", form=DuelForm, kind="start", summary=N_("Day 1 begins"), page="day",
        depends_on_state=True)
@form_wide
def start(doc, form, said):
    if doc["status"] != SETTING_UP:
        raise Invalid(Problem("status", N_("The game has already started.")))
    gs = game_state(doc)
    doc["status"] = PLAYING
    rules.start_game(gs)
