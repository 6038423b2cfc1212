"""City of Five Sails duels at a table (rulebook "Issuing a Challenge and Dueling", p. 22-27): start a
duel (each side linked to a player and maybe their Leader), play a round (or preview it), take the last
one back, and close it, its wounds going onto the Leaders' trackers.

None is relative. Every one depends on the state it lands on: each is a step of the one duel the table
holds, replayed from its rounds so far (whose turn, which pool, Lethal, gambles left); starting takes
the Leaders' wounds from their trackers, and closing can destroy Leaders and end the game.
"""
from __future__ import annotations

from flask import g, request
from flask_babel import gettext as _
from werkzeug.datastructures import MultiDict

from ...domain import N_, Invalid, Problem
from ...tables import live
from ...tables.actions import action, game_state
from . import duel as d, rules
from .blueprint import bp
from .common import duel_decides_game, duel_leaders, form_wide, name, playing, said_destroyed, seats, table_duel
from .duel_forms import number, play_problems, read_round_form, read_setup_form
from .forms import DuelForm


def _with_tracked_wounds(doc: dict, form: MultiDict, links: dict) -> MultiDict:
    """A Leader linked to a player starts the duel with the wounds on that Leader's tracker, whatever
    "Wounds already" said: the tracker is the one record of them. A Leader's name left blank is
    "<player>'s Leader", and its Resolve left blank is the tracker's, when the tracker knows it."""
    gs = game_state(doc)
    out = form.copy()
    for side, link in links.items():
        if link.get("leader") and link.get("player"):
            field = "intervener" if side == d.DEFENDER and form.get("answer") == "intervene" else side
            out[f"{field}.wounds"] = str(rules.leader_wounds_for_duel(gs, link["player"]))
            if not form.get(f"{field}.name", "").strip():
                out[f"{field}.name"] = _("%(name)s's Leader", name=name(doc, link["player"]))[:d.NAME_MAX]
            tracked = gs["players"][link["player"]].get("leader_resolve")
            if tracked and not number(form, f"{field}.resolve").strip():
                out[f"{field}.resolve"] = str(tracked)
    return out


def _link_fields(form: MultiDict, fieldset: str, side: str) -> tuple[str | None, bool, str]:
    """Whose character a fieldset names, whether it is that player's Leader, and the field a problem
    sits next to. The page's chips send `<fieldset>.leader_of` (a player's id: "that player's
    Leader"; empty: another character, not tracked); the older pair `<side>.player` and
    `<fieldset>.leader` (a select and a checkbox, as the API-minded tests send them) still works."""
    if f"{fieldset}.leader_of" in form:
        pid = form.get(f"{fieldset}.leader_of", "") or None
        return pid, pid is not None, f"{fieldset}.leader_of"
    return form.get(f"{side}.player", "") or None, bool(form.get(f"{fieldset}.leader")), f"{side}.player"


def _side_links(doc: dict, form: MultiDict) -> dict:
    """Which player each participant belongs to, and whether it is that player's Leader."""
    out = {}
    at_table = seats(doc)
    problems = []
    for side in d.SIDES:
        intervening = side == d.DEFENDER and form.get("answer") == "intervene"
        pid, leader, field = _link_fields(form, "intervener" if intervening else side, side)
        if pid is not None and pid not in at_table:
            problems.append(Problem(field, N_("No such player at this table.")))
            pid = None
        if leader and pid is None:
            problems.append(Problem(field, N_("Whose Leader is it? Choose the player.")))
        elif leader and game_state(doc)["players"][pid]["leader_destroyed"]:
            problems.append(Problem(field, N_("%(name)s's Leader is destroyed: it cannot duel."),
                                    {"name": name(doc, pid)}))
        out[side] = {"player": pid, "leader": leader}
    if problems:
        raise Invalid(problems)
    return out


@action(bp, "/t/<token>/fivesails/duel/start", form=DuelForm, kind="duel.start", page="duel", depends_on_state=True)
def duel_start(doc, form, said):
    gs = playing(doc)
    if gs.get("duel"):
        raise Invalid(Problem("duel", N_("A duel is already going on: finish or abandon it first.")))
    problems = []
    setup = links = None
    try:
        links = _side_links(doc, request.form)
    except Invalid as err:
        problems += err.problems
    try:
        setup = read_setup_form(_with_tracked_wounds(doc, request.form, links or {}))
    except Invalid as err:
        problems += err.problems
    if problems:
        raise Invalid(problems)
    for side in d.SIDES:  # the duel's Resolve is the Leader's Resolve as it stands now
        link = links[side]
        if link["leader"]:
            who = setup.challenger if side == d.CHALLENGER else setup.defender
            rules.set_leader_resolve(gs, link["player"], who.resolve)
    gs["duel"] = {"setup": d.setup_data(setup), "rounds": [], "sides": links}
    gs.pop("last_duel", None)
    said(N_("Duel: %(defender)s refuses %(challenger)s's challenge") if setup.refused
         else N_("Duel: %(challenger)s challenges %(defender)s"),
         challenger=setup.challenger.name, defender=setup.defender.name)


def _next_round(gs: dict, seats_: list[str]) -> tuple[d.Round, d.Duel]:
    """The round on the card form, played on the table's duel: the round, and the duel after it."""
    current = table_duel(gs)
    if current is None:
        raise Invalid(Problem("round", N_("There is no duel going on.")))
    if duel_decides_game(gs, current, seats_):
        raise Invalid(Problem("round", DECIDED))
    rnd = read_round_form(request.form)
    try:
        return rnd, d.play(current, rnd, "round")
    except Invalid as err:
        raise play_problems(err) from None


DECIDED = N_("A Leader's fall in this duel has decided the game: no round is left to play. Close the duel.")


@action(bp, "/t/<token>/fivesails/duel/round", form=DuelForm, kind="duel.round",
        summary=N_("Duel round %(n)d: %(name)s %(what)s"), page="duel", depends_on_state=True)
def duel_round(doc, form, said):
    """One round of the table's duel. When the round destroys a Leader and that fall decides the game
    (Assassination Victory, p. 2), the game is over, so the same tap closes the duel there: no later
    round is offered. The duel page's round form also sends `finish`: when the round leaves both
    threat pools empty the rules have ended the duel (p. 26 "Ending a Duel"), nothing is left to
    decide, so the same tap finishes it (its wounds onto the Leaders' trackers)."""
    gs = playing(doc)
    rnd, after = _next_round(gs, seats(doc))
    gs["duel"]["rounds"].append(d.round_data(rnd))
    what = ({"msg": N_("plays no card")} if rnd.card is None else
            {"msg": N_("plays %(r)d / %(p)d / %(t)d"),
             "args": {"r": rnd.card.riposte, "p": rnd.card.parry, "t": rnd.card.thrust}})
    said(n=len(after.rounds), name=after.participant(after.rounds[-1].actor).name, what=what)
    played = {"msg": N_("Duel round %(n)d: %(name)s %(what)s"), "args": dict(said.args)}
    if duel_decides_game(gs, after, seats(doc)):
        _finish(doc, gs, after, said, N_("%(round)s. The game is decided, so the duel closes: %(outcome)s"),
                round=played)
    elif request.form.get("finish") == "1" and after.ended:
        _finish(doc, gs, after, said, N_("%(round)s. Duel over: %(outcome)s"), round=played)


@bp.before_request
def _preview_round():
    """The card form's "preview" button posts to the round's own address; it changes nothing, so it is
    answered here, before the action's door."""
    if request.endpoint == "fivesails.duel_round" and request.form.get("play") == "preview":
        return duel_preview(request.view_args["token"])
    return None


def duel_preview(token):
    """What the card would do, without changing the table: the same rules, applied to a copy."""
    table, readonly = live.open_table(token, edit=True)
    t = live.view_for(table, readonly, token, "duel")
    form = DuelForm()
    key = request.form.get("form_key") or "duel-round"
    if not form.validate():
        return live.render(t, status=422, bound=live.Bound(key, request.form.copy(), {k: [str(m) for m in v]
                                                                            for k, v in form.errors.items()}))
    try:
        _rnd, g.fivesails_preview = _next_round(t.gs, rules.seat_ids(t.state["players"]))
    except Invalid as err:
        errors = err.as_dict(_)
        general = [m for f, ms in errors.items() if f == "round" for m in ms]
        return live.render(t, status=422, bound=live.Bound(key, request.form.copy(), errors, general))
    return live.render(t, bound=live.Bound(key, request.form.copy()))


@action(bp, "/t/<token>/fivesails/duel/takeback", form=DuelForm, kind="duel.takeback",
        summary=N_("Duel: last round taken back"), page="duel", depends_on_state=True)
@form_wide
def duel_takeback(doc, form, said):
    gs = playing(doc)
    if not gs.get("duel") or not gs["duel"]["rounds"]:
        raise Invalid(Problem("duel", N_("No round to take back.")))
    gs["duel"]["rounds"].pop()


@action(bp, "/t/<token>/fivesails/duel/close", form=DuelForm, kind="duel.close", page="duel", depends_on_state=True)
@form_wide
def duel_close(doc, form, said):
    """End the duel: a finished duel's wounds go onto the Leaders' trackers (a destroyed Leader is
    marked destroyed, with its Renown loss and the Assassination check); an unfinished one is abandoned."""
    gs = playing(doc)
    current = table_duel(gs)
    if current is None:
        raise Invalid(Problem("duel", N_("There is no duel going on.")))
    if duel_decides_game(gs, current, seats(doc)):
        _finish(doc, gs, current, said, N_("The game is decided, so the duel closes: %(outcome)s"))
        return
    if not current.ended:
        gs["duel"] = None
        said(N_("Duel abandoned"))
        return
    _finish(doc, gs, current, said, N_("Duel over: %(outcome)s"))


def _standing(duel: d.Duel, side: str) -> dict:
    """One side at the end of a duel, as a log message: wounds against Resolve, and "destroyed" for a
    character at or over its Resolve (p. 6: such a character is destroyed)."""
    who = duel.participant(side)
    args = {"name": who.name, "wounds": duel.wounds[side], "resolve": who.resolve}
    if duel.destroyed(side):
        return {"msg": N_("%(name)s %(wounds)d/%(resolve)d, destroyed"), "args": args}
    return {"msg": N_("%(name)s %(wounds)d/%(resolve)d"), "args": args}


def _finish(doc: dict, gs: dict, current: d.Duel, said, words: str, **args) -> None:
    """A duel over by the rules, or stopped by a fall that decided the game, leaves the table: its
    wounds go onto the linked Leaders' trackers (each fall in its round's order, Assassination checked
    after each), and it is kept as the last duel."""
    leaders = duel_leaders(gs, current)
    gs["last_duel"] = {"setup": gs["duel"]["setup"], "rounds": gs["duel"]["rounds"]}
    gs["duel"] = None
    outcome = {"msg": N_("%(a)s, %(b)s"), "args": {"a": _standing(current, d.CHALLENGER),
                                                   "b": _standing(current, d.DEFENDER)}}
    gone = rules.close_duel(gs, leaders, seats(doc))  # each fall in its round's order, checked after each
    if gone:
        said_destroyed(said, doc, gone, words, outcome=outcome, **args)
    else:
        said(words, outcome=outcome, **args)
