"""The Others: 7 Sins: the game's blueprint, and what its action declarations share.

Every action is declared once with `tables.actions.action` in the module of its chapter
(setup_views, round_views, hero_views, apocalypse_views): its form is checked, then a pure function
of state.py changes the document, and `placed` shows a refusal from the rules next to the field it is
about. Counters are relative (two phones' taps add up); every other action sets what its phone saw, so
the store refuses it when another phone changed the same values since (two phones working on
different heroes never block each other). Each chapter lists, at its top, the actions whose outcome
depends on the state they land on (`depends_on_state`).
"""
from __future__ import annotations

from functools import wraps

from flask import Blueprint

from ...domain import Invalid
from ...i18n import render_message
from ...tables.actions import action, game_state
from . import core, forms, state

bp = Blueprint("others", __name__)
# An unnamed hero in a refusal's sentence reads as its translated class name ("Tireur 1").
core.HeroLabel.render = staticmethod(render_message)


def placed(run):
    """The action `run(doc, form, said)`, with a refusal from the rules shown next to the field it
    is about (or at the top of the form, see forms.OthersForm.place)."""
    @wraps(run)
    def placing(doc, form, said):
        try:
            run(doc, form, said)
        except Invalid as err:
            raise form.place(err) from None
    return placing


# A log line whose wording depends on what happened (a death, a card due) is chosen inside the change and
# stored whole under "what"; this pattern holds no words, so it needs no translation.
WHAT = "%(what)s"


def label(doc, hid):
    return state.hero_label(state.hero(game_state(doc), hid))


def hero_button(endpoint: str, path: str, change, summary: str, *, depends_on_state: bool = False) -> None:
    """Declare a one-tap action on one hero: `change(doc, hero_id)`; the log names the hero and the
    Corruption level it leaves them at."""
    def run(doc, form, said):
        change(doc, form.hero.data)
        h = state.hero(game_state(doc), form.hero.data)
        said(hero=state.hero_label(h), level=h["corruption"])
    action(bp, f"/t/<token>/others/{path}", form=forms.HeroForm, kind=f"others.{endpoint}", summary=summary,
           depends_on_state=depends_on_state, endpoint=endpoint)(placed(run))


def counter(endpoint: str, path: str, change, summary: str, *, per_hero: bool = True,
            depends_on_state: bool = False) -> None:
    """Declare a -1/+1 counter: `change(doc, hero_id, delta)` (or `change(doc, delta)` for the table).
    Increments commute, so two phones' taps simply add up."""
    def run(doc, form, said):
        if per_hero:
            change(doc, form.hero.data, form.delta.data)
            said(hero=label(doc, form.hero.data))
        else:
            change(doc, form.delta.data)
        said(delta=form.delta.data)
    action(bp, f"/t/<token>/others/{path}", form=forms.HeroDeltaForm if per_hero else forms.DeltaForm,
           kind=f"others.{endpoint}", summary=summary, relative=True, depends_on_state=depends_on_state,
           endpoint=endpoint)(placed(run))
