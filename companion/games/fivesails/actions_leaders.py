"""City of Five Sails table actions on the Leaders' trackers (rulebook p. 2 "Assassination Victory",
p. 6 "Wounds", p. 8 "Resolve", p. 17 "Leader Cards"): wounds, Resolve, and a Leader destroyed or put
back. Wounds that reach the Leader's Resolve destroy it: half the Renown in a 3-4 player game, once,
and the Assassination check (one Undo takes it all back).

Relative: a wound more or less, unless it can destroy the Leader. Every one depends on the state it
lands on: each can destroy a Leader, and the last Leader standing wins (it ends the game).
"""
from __future__ import annotations

from flask import request

from ...db import get_session
from ...domain import N_, Invalid, Problem
from ...tables import store
from ...tables.actions import action
from . import rules
from .blueprint import bp
from .common import destroy, form_wide, name, playing, said_destroyed
from .forms import DeltaForm, LeaderForm, ResolveForm


def _wound_adds_up(form) -> bool:
    """A wound more or less is relative (taps from two phones add up), unless it can destroy the
    Leader on the table as it stands: then it sets the values the phone saw."""
    table, _readonly = store.by_token(get_session(), request.view_args["token"])
    ps = table.state.get("game", {}).get("players", {}).get(str(form.player.data)) or {}
    resolve, delta = ps.get("leader_resolve"), form.delta.data
    return not (delta > 0 and resolve is not None and ps.get("leader_wounds", 0) + delta >= resolve)


@action(bp, "/t/<token>/fivesails/wounds", form=DeltaForm, kind="wounds", relative=_wound_adds_up,
        depends_on_state=True)
@form_wide
def wounds(doc, form, said):
    """A wound more or less on a Leader's tracker; reaching the Leader's Resolve destroys it."""
    pid, delta = str(form.player.data), form.delta.data
    gs = playing(doc)
    player = name(doc, pid)
    value = rules.add_leader_wounds(gs, pid, delta)
    if rules.reaches_resolve(gs, pid):
        said_destroyed(said, doc, destroy(doc, pid), N_("%(player)s's Leader, wounds now %(value)d"), player=player,
                       value=value)
    else:
        said(N_("%(player)s's Leader %(delta)+d wound (now %(value)d)"), player=player, delta=delta, value=value)


@action(bp, "/t/<token>/fivesails/resolve", form=ResolveForm, kind="leader.resolve", depends_on_state=True)
def leader_resolve(doc, form, said):
    """The Leader's Resolve, as printed or as modified: the tracker destroys the Leader at it."""
    pid, value = str(form.player.data), form.resolve.data
    gs = playing(doc)
    player = name(doc, pid)
    rules.set_leader_resolve(gs, pid, value)
    words = N_("%(player)s's Leader: Resolve %(value)d")
    if rules.reaches_resolve(gs, pid):
        said_destroyed(said, doc, destroy(doc, pid), words, player=player, value=value)
    else:
        said(words, player=player, value=value)


@action(bp, "/t/<token>/fivesails/leader", form=LeaderForm, depends_on_state=True,
        kind=lambda form: "leader.destroyed" if form.destroyed.data else "leader.back")
@form_wide
def leader(doc, form, said):
    """Mark a Leader destroyed (destroyed=1), or put back one marked by mistake (destroyed=0)."""
    pid = str(form.player.data)
    gs = playing(doc)
    player = name(doc, pid)
    if not form.destroyed.data:
        said(N_("%(player)s's Leader back in play (%(back)d Renown back)"), player=player,
             back=rules.restore_leader(gs, pid))
        return
    rules.player_state(gs, pid)
    if gs["players"][pid]["leader_destroyed"]:
        raise Invalid(Problem("player", N_("This Leader is already destroyed.")))
    said_destroyed(said, doc, destroy(doc, pid))

