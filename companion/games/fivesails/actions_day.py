"""City of Five Sails table actions of the rulebook's "Phases of the Day" (p. 11-15): move through the
Day, hand out the First Player token (Planning 4), count Renown and Influence, and who controls each
location (claims in High Drama, Plunder, Dusk).

Relative (taps from two phones add up): Renown and Influence. Depends on the state it lands on:
- next_step: it moves the Day on, and at Plunder the victory checks can end the game;
- jump: it moves the Day to another phase, from the phase the phone showed;
- initiative: who takes the token follows from who held it and from every player's value;
- renown: +1 Renown can cross the Economic Victory (seven) or change who leads it.
Not: influence (a counter; the fifth Day's tie-break reads it only when Plunder is checked), control
(it sets one location's owner, whatever it was).
"""
from __future__ import annotations

from flask import request

from ...domain import N_, Invalid, Problem
from ...numbers import parse_int
from ...tables.actions import action
from ...tables.store import PLAYING
from . import rules
from .blueprint import bp
from .common import finish, form_wide, name, playing, seats, victory_args
from .forms import ControlForm, DeltaForm, DuelForm, JumpForm, StepForm

FIRST_PLAYER_REASONS = {"highest": N_("highest Initiative"), "tie-left": N_("tie: passed to the left"),
                        "tie-random": N_("tie: picked at random")}


# -- moving through the Day ------------------------------------------------------------------------

def _in_the_day(doc: dict, at: int) -> dict:
    """The game state of a game under way whose Day stands where the phone saw it (`at`): a double tap
    or a second phone never moves the Day twice."""
    gs = playing(doc)
    if doc["status"] != PLAYING:
        raise Invalid(Problem("at", N_("Finish setup and start Day 1 first.")))
    if at != rules.day_position(gs):
        raise Invalid(Problem("at", N_("The Day moved on from another phone: check where it is now.")))
    return gs


@action(bp, "/t/<token>/fivesails/day/next", form=StepForm, kind="day.next", page="day", depends_on_state=True)
@form_wide
def next_step(doc, form, said):
    """Finish this phase: one tap. At Plunder the victory checks come first."""
    gs = _in_the_day(doc, form.at.data)
    verdict = rules.advance(gs, seats(doc))
    if verdict.decided:
        finish(doc, verdict)
        said(N_("%(victory)s: %(winners)s"), **victory_args(doc, verdict))
    else:
        said(N_("Day %(day)d: %(phase)s"), day=gs["day"], phase={"term": rules.PHASE_NAMES[rules.current_phase(gs)]})


@action(bp, "/t/<token>/fivesails/day/jump", form=JumpForm, kind="day.jump",
        summary=N_("Jumped to Day %(day)d: %(phase)s"), page="day", depends_on_state=True)
@form_wide
def jump(doc, form, said):
    """Go straight to a phase of this Day (Undo comes back)."""
    gs = _in_the_day(doc, form.at.data)
    rules.jump(gs, form.phase.data, seats(doc))
    said(day=gs["day"], phase={"term": rules.PHASE_NAMES[form.phase.data]})


@action(bp, "/t/<token>/fivesails/initiative", form=DuelForm, kind="initiative",
        summary=N_("First Player: %(player)s (%(why)s)"), page="day", depends_on_state=True)
def initiative(doc, form, said):
    """Every player's scheme Initiative (fields init-<seat>), then the First Player token."""
    gs = playing(doc)
    problems = []
    values = {}
    for pid in seats(doc):
        raw = parse_int(request.form.get(f"init-{pid}", ""))
        if raw is None:
            problems.append(Problem(f"init-{pid}", N_("Enter the Initiative on %(name)s's scheme."),
                                    {"name": name(doc, pid)}))
        elif raw > rules.INITIATIVE_MAX:
            problems.append(Problem(f"init-{pid}", N_("Must be at most %(max)d."), {"max": rules.INITIATIVE_MAX}))
        else:
            values[pid] = raw
    if problems:
        raise Invalid(problems)
    for pid, value in values.items():
        rules.set_initiative(gs, pid, value)
    fp = rules.hand_out_first_player(gs, seats(doc))
    said(player=name(doc, fp.player), why={"term": FIRST_PLAYER_REASONS[fp.reason]})


# -- Renown, Influence, control --------------------------------------------------------------------

def _count(doc: dict, form, said, add) -> None:
    """+1 or -1 on one of a player's counters (`add` is the rule that moves it); fills the log line's
    player, delta and the value it reached."""
    pid, delta = form.player.data, form.delta.data
    gs = playing(doc)
    said(player=name(doc, pid), delta=delta, value=add(gs, pid, delta))


@action(bp, "/t/<token>/fivesails/renown", form=DeltaForm, kind="renown",
        summary=N_("%(player)s %(delta)+d Renown (now %(value)d)"), relative=True, depends_on_state=True)
@form_wide
def renown(doc, form, said):
    _count(doc, form, said, rules.add_renown)


@action(bp, "/t/<token>/fivesails/influence", form=DeltaForm, kind="influence",
        summary=N_("%(player)s %(delta)+d Influence (now %(value)d)"), relative=True)
@form_wide
def influence(doc, form, said):
    _count(doc, form, said, rules.add_influence)


@action(bp, "/t/<token>/fivesails/control", form=ControlForm, kind="control", summary=N_("%(location)s: %(owner)s"))
@form_wide
def control(doc, form, said):
    loc, owner = form.location.data, (form.owner.data or "").strip() or None
    said(location={"term": rules.LOCATION_NAMES[loc]})
    gs = playing(doc)
    if owner is not None and owner not in gs["players"]:
        raise Invalid(Problem("owner", N_("No such player at this table.")))
    rules.set_control(gs, loc, owner)
    said(owner=name(doc, owner) if owner else {"term": N_("nobody controls it")})
