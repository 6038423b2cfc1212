"""7th Sea: City of Five Sails: the table's actions, the standalone duel calculator and deck check,
and the duel JSON API. Every rule lives in rules.py, duel.py and decks.py; this module only reads
forms, says which actions are increments (`relative`) and renders."""
from __future__ import annotations

import base64
import json
from contextlib import contextmanager

from flask import Blueprint, g, make_response, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import ngettext
from werkzeug.datastructures import MultiDict

from ...api import api, json_endpoint
from ...i18n import render_message
from ...domain import N_, Invalid, Problem
from ...numbers import parse_int
from ...tables import live
from ...tables import players as players_mod
from ...tables.store import FINISHED, PLAYING, SETTING_UP, Change
from ...web import wants_fragment
from . import decks, duel as d, rules
from .forms import (CalculatorForm, ControlForm, DeckForm, DeltaForm, DuelForm, JumpForm, LeaderForm, LineForm,
                    ResolveForm, StepForm, TickForm)

bp = Blueprint("fivesails", __name__)


SIDE_FIELDS = ("name", "duel_stat", "resolve", "wounds", "finesse")
ANSWERS = ("accept", "refuse", "intervene")
CALC_ID = "duel-calc"


# -- shared helpers --------------------------------------------------------------------------------

def _name(doc: dict, pid) -> str:
    return players_mod.find(doc["state"], int(pid))["name"]


def _seats(doc: dict) -> list[str]:
    return rules.seat_ids(doc["state"]["players"])


def _playing(doc: dict) -> dict:
    """The game state, refusing changes once the game is over (Undo brings it back)."""
    rules.game_over(doc)
    return live.game_state(doc)


def _finish(doc: dict, verdict: rules.Verdict) -> None:
    doc["result"] = rules.result_for(live.game_state(doc), doc["state"]["players"], verdict)
    doc["status"] = FINISHED


def _victory_args(doc: dict, verdict: rules.Verdict) -> dict:
    return {"victory": {"term": rules.VICTORY_NAMES[verdict.kind]},
            "winners": ", ".join(_name(doc, w) for w in verdict.winners)}


# An action whose words depend on what happened logs its message under "what" (a nested message).
SAID = "%(what)s"


def said(change: Change, msg: str, **args) -> None:
    change.args["what"] = {"msg": msg, "args": args}


@contextmanager
def form_wide():
    """Problems of a form made only of hidden fields and a button belong to the whole form: raise them
    under a name no form field has, so the page shows them at the top of that form."""
    try:
        yield
    except Invalid as err:
        raise Invalid([Problem("form", p.message, p.params) for p in err.problems]) from None


def _renamed(err: Invalid, prefix_map: dict[str, str]) -> Invalid:
    """The pure readers name fields as the API does ("defender.resolve", "round.card.thrust"); give
    the problems the form's own field names so each message sits next to its field."""
    out = []
    for p in err.problems:
        field = p.field
        for old, new in prefix_map.items():
            if field == old or field.startswith(old + "."):
                field = new + field[len(old):]
                break
        out.append(Problem(field, p.message, p.params))
    return Invalid(out)


# -- setup -----------------------------------------------------------------------------------------

@bp.post("/t/<token>/fivesails/setup/tick")
def tick(token):
    def build(form, t):
        step, done = form.step.data, bool(form.done.data)
        change = Change("setup.tick", N_("Setup: %(step)s ✓") if done else N_("Setup: %(step)s unticked"),
                        {})

        def mutate(doc):
            with form_wide():
                gs = _playing(doc)
                steps = {s.key: s for s in rules.setup_steps(len(doc["state"]["players"]))}
                if step not in steps:
                    raise Invalid(Problem("step", N_("That is not a setup step for this many players.")))
                change.args["step"] = {"term": steps[step].label}
                have = [k for k in gs["setup_done"] if k != step]
                gs["setup_done"] = have + ([step] if done else [])
        return change, mutate
    return live.perform(token, TickForm(), build)


@bp.post("/t/<token>/fivesails/setup/line")
def line(token):
    def build(form, t):
        what = form.what.data
        msg = {"flip": N_("The City line was turned end for end"),
               "swap": N_("The Docks and The Grand Bazaar swapped places"),
               "gardens": N_("Governor's Gardens moved to the other end of the line")}[what]
        change = Change("setup.line", msg, {})

        def mutate(doc):
            with form_wide():
                gs = _playing(doc)
                key = {"flip": "flipped", "swap": "swapped", "gardens": "gardens_with_inn"}[what]
                gs["line"][key] = not gs["line"].get(key, False)
        return change, mutate
    return live.perform(token, LineForm(), build)


@bp.post("/t/<token>/fivesails/start")
def start(token):
    def mutate(doc):
        with form_wide():
            if doc["status"] != SETTING_UP:
                raise Invalid(Problem("status", N_("The game has already started.")))
            gs = live.game_state(doc)
            doc["status"] = PLAYING
            rules.start_game(gs)
    change = Change("start", N_("Day 1 begins"), {})
    return live.act_simple(token, DuelForm(), change, mutate, slug="day")


# -- the Day ---------------------------------------------------------------------------------------

def _expect_step(gs: dict, at: int) -> None:
    if at != rules.day_position(gs):
        raise Invalid(Problem("at", N_("The Day moved on from another phone: check where it is now.")))


@bp.post("/t/<token>/fivesails/day/next")
def next_step(token):
    """Finish this phase: one tap. At Plunder the victory checks come first."""
    def build(form, t):
        change = Change("day.next", SAID, {})

        def mutate(doc):
            with form_wide():
                gs = _playing(doc)
                if doc["status"] != PLAYING:
                    raise Invalid(Problem("at", N_("Finish setup and start Day 1 first.")))
                _expect_step(gs, form.at.data)
                verdict = rules.advance(gs, _seats(doc))
                if verdict.decided:
                    _finish(doc, verdict)
                    said(change, N_("%(victory)s: %(winners)s"), **_victory_args(doc, verdict))
                    return
                said(change, N_("Day %(day)d: %(phase)s"), day=gs["day"],
                     phase={"term": rules.PHASE_NAMES[rules.current_phase(gs)]})
        return change, mutate
    return live.perform(token, StepForm(), build, slug="day")


@bp.post("/t/<token>/fivesails/day/jump")
def jump(token):
    """Go straight to a phase of this Day (Undo comes back)."""
    def build(form, t):
        change = Change("day.jump", N_("Jumped to Day %(day)d: %(phase)s"), {})

        def mutate(doc):
            with form_wide():
                gs = _playing(doc)
                if doc["status"] != PLAYING:
                    raise Invalid(Problem("at", N_("Finish setup and start Day 1 first.")))
                _expect_step(gs, form.at.data)
                rules.jump(gs, form.phase.data)
                change.args.update(day=gs["day"], phase={"term": rules.PHASE_NAMES[form.phase.data]})
        return change, mutate
    return live.perform(token, JumpForm(), build, slug="day")


@bp.post("/t/<token>/fivesails/initiative")
def initiative(token):
    def build(form, t):
        change = Change("initiative", N_("First Player: %(player)s (%(why)s)"), {})
        reasons = {"highest": N_("highest Initiative"), "tie-left": N_("tie: passed to the left"),
                   "tie-random": N_("tie: picked at random")}

        def mutate(doc):
            gs = _playing(doc)
            problems = []
            values = {}
            for pid in _seats(doc):
                raw = parse_int(request.form.get(f"init-{pid}", ""))
                if raw is None:
                    problems.append(Problem(f"init-{pid}", N_("Enter the Initiative on %(name)s's scheme."),
                                            {"name": _name(doc, pid)}))
                elif raw > rules.INITIATIVE_MAX:
                    problems.append(Problem(f"init-{pid}", N_("Must be at most %(max)d."),
                                            {"max": rules.INITIATIVE_MAX}))
                else:
                    values[pid] = raw
            if problems:
                raise Invalid(problems)
            for pid, value in values.items():
                rules.set_initiative(gs, pid, value)
            fp = rules.hand_out_first_player(gs, _seats(doc))
            change.args.update(player=_name(doc, fp.player), why={"term": reasons[fp.reason]})
        return change, mutate
    return live.perform(token, DuelForm(), build, slug="day")


# -- trackers --------------------------------------------------------------------------------------

def _delta_action(token, kind, msg, apply):
    def build(form, t):
        pid, delta = form.player.data, form.delta.data
        change = Change(kind, msg, {"delta": delta}, relative=True)

        def mutate(doc):
            with form_wide():
                gs = _playing(doc)
                change.args["player"] = _name(doc, pid)
                change.args["value"] = apply(gs, pid, delta)
        return change, mutate
    return live.perform(token, DeltaForm(), build)


@bp.post("/t/<token>/fivesails/renown")
def renown(token):
    return _delta_action(token, "renown", N_("%(player)s %(delta)+d Renown (now %(value)d)"), rules.add_renown)


@bp.post("/t/<token>/fivesails/wounds")
def wounds(token):
    """A wound more or less on a Leader's tracker. Reaching the Leader's Resolve destroys it: half the
    Renown in a 3-4 player game, once, and the Assassination check (one Undo takes it all back)."""
    def build(form, t):
        pid, delta = str(form.player.data), form.delta.data
        ps = t.gs.get("players", {}).get(pid) or {}
        resolve = ps.get("leader_resolve")
        # A pure +/-1 is relative (taps from two phones add up), unless it can destroy the Leader: then
        # it sets values the phone saw.
        destroys = delta > 0 and resolve is not None and ps.get("leader_wounds", 0) + delta >= resolve
        change = Change("wounds", SAID, {}, relative=not destroys)

        def mutate(doc):
            with form_wide():
                gs = _playing(doc)
                name = _name(doc, pid)
                value = rules.add_leader_wounds(gs, pid, delta)
                if not rules.reaches_resolve(gs, pid):
                    said(change, N_("%(player)s's Leader %(delta)+d wound (now %(value)d)"), player=name,
                         delta=delta, value=value)
                    return
                said_destroyed(change, doc, _destroy(doc, pid), N_("%(player)s's Leader, wounds now %(value)d"),
                               player=name, value=value)
        return change, mutate
    return live.perform(token, DeltaForm(), build)


@bp.post("/t/<token>/fivesails/resolve")
def leader_resolve(token):
    """The Leader's Resolve, as printed or as modified: the tracker destroys the Leader at it."""
    def build(form, t):
        pid, value = str(form.player.data), form.resolve.data
        change = Change("leader.resolve", SAID, {})

        def mutate(doc):
            gs = _playing(doc)
            name = _name(doc, pid)
            rules.set_leader_resolve(gs, pid, value)
            if rules.reaches_resolve(gs, pid):
                said_destroyed(change, doc, _destroy(doc, pid), N_("%(player)s's Leader: Resolve %(value)d"),
                               player=name, value=value)
            else:
                said(change, N_("%(player)s's Leader: Resolve %(value)d"), player=name, value=value)
        return change, mutate
    return live.perform(token, ResolveForm(), build)


@bp.post("/t/<token>/fivesails/influence")
def influence(token):
    return _delta_action(token, "influence", N_("%(player)s %(delta)+d Influence (now %(value)d)"),
                         rules.add_influence)


@bp.post("/t/<token>/fivesails/control")
def control(token):
    def build(form, t):
        loc, owner = form.location.data, (form.owner.data or "").strip() or None
        change = Change("control", N_("%(location)s: %(owner)s"),
                        {"location": {"term": rules.LOCATION_NAMES[loc]}})

        def mutate(doc):
            with form_wide():
                gs = _playing(doc)
                if owner is not None and owner not in gs["players"]:
                    raise Invalid(Problem("owner", N_("No such player at this table.")))
                rules.set_control(gs, loc, owner)
                change.args["owner"] = _name(doc, owner) if owner else {"term": N_("nobody controls it")}
        return change, mutate
    return live.perform(token, ControlForm(), build)


def _destroyed_words(doc: dict, gone: rules.Destruction) -> dict:
    """Leaders destroyed together, as one nested message: who fell, the Renown each lost, and the
    Assassination outcome checked after all of them. A win finishes the game here."""
    if gone.verdict.decided:
        _finish(doc, gone.verdict)
    each = [{"msg": N_("%(player)s's Leader destroyed (%(lost)d Renown lost)"),
             "args": {"player": _name(doc, p), "lost": n}} for p, n in gone.lost.items()]
    fallen = each[0] if len(each) == 1 else {"msg": N_("%(a)s; %(b)s"), "args": {"a": each[0], "b": each[1]}}
    if gone.verdict.decided:
        return {"msg": N_("%(fallen)s: Assassination Victory for %(winner)s"),
                "args": {"fallen": fallen, "winner": _name(doc, gone.verdict.winners[0])}}
    if gone.nobody_left:
        return {"msg": N_("%(fallen)s. No Leader is left in play: nobody wins an Assassination Victory"),
                "args": {"fallen": fallen}}
    return fallen


def said_destroyed(change: Change, doc: dict, gone: rules.Destruction, before: str | None = None, **args) -> None:
    """Log Leaders destroyed after `before` (the action's own words, if any); `fallen` lets the page
    offer Undo right where it happened."""
    after = _destroyed_words(doc, gone)
    change.args["what"] = after if before is None else {
        "msg": N_("%(before)s. %(after)s"), "args": {"before": {"msg": before, "args": args}, "after": after}}
    change.args["fallen"] = list(gone.lost)


def _destroy(doc: dict, pid) -> rules.Destruction:
    """Destroy one Leader, then check Assassination Victory."""
    return rules.destroy_leaders(live.game_state(doc), [str(pid)], _seats(doc))


@bp.post("/t/<token>/fivesails/leader")
def leader(token):
    def build(form, t):
        pid, destroyed = str(form.player.data), bool(form.destroyed.data)
        change = Change("leader.destroyed" if destroyed else "leader.back", SAID, {})

        def mutate(doc):
            with form_wide():
                gs = _playing(doc)
                name = _name(doc, pid)
                if not destroyed:
                    said(change, N_("%(player)s's Leader back in play (%(back)d Renown back)"), player=name,
                         back=rules.restore_leader(gs, pid))
                    return
                rules.player_state(gs, pid)
                if gs["players"][pid]["leader_destroyed"]:
                    raise Invalid(Problem("player", N_("This Leader is already destroyed.")))
                said_destroyed(change, doc, _destroy(doc, pid))
        return change, mutate
    return live.perform(token, LeaderForm(), build)


# -- the duel inside a table -----------------------------------------------------------------------

def _setup_payload(form: MultiDict) -> tuple[dict, dict[str, str]]:
    """The duel set-up form as the API's JSON shape, and how to name its problems back to the form."""
    data = {side: {f: form.get(f"{side}.{f}", "") for f in SIDE_FIELDS} for side in d.SIDES}
    answer = form.get("answer", "accept")
    renames = {}
    if answer not in ANSWERS:
        raise Invalid(Problem("answer", N_("Choose accept, refuse or intervene.")))
    if answer == "intervene":
        target = data[d.DEFENDER]["name"]
        if not str(target).strip():
            raise Invalid(Problem("defender.name", N_("Enter the name of the character first challenged.")))
        data["intervened_for"] = target
        data[d.DEFENDER] = {f: form.get(f"intervener.{f}", "") for f in SIDE_FIELDS}
        renames = {"defender": "intervener", "intervened_for": "defender.name"}
    data["technique_thrust"] = form.get("technique_thrust", "0") or "0"
    data["technique_lethal"] = bool(form.get("technique_lethal"))
    data["refused"] = answer == "refuse"
    return data, renames


def read_setup_form(form: MultiDict) -> d.Setup:
    data, renames = _setup_payload(form)
    try:
        return d.read_setup(data)
    except Invalid as err:
        raise _renamed(err, renames) from None


def read_round_form(form: MultiDict) -> d.Round:
    """A round from the card form: "play" is "card" or "none" (no card)."""
    if form.get("play") == "none":
        return d.Round(None)
    data = {"card": {k: form.get(k, "0") or "0" for k in ("riposte", "parry", "thrust")},
            "lethal": bool(form.get("lethal")), "gambled": bool(form.get("gambled")),
            "adversary_absent": bool(form.get("adversary_absent"))}
    try:
        return d.read_round(data, "round")
    except Invalid as err:  # "round.card.thrust" -> "thrust", "round.gambled" -> "gambled"
        raise Invalid([Problem(p.field.rsplit(".", 1)[-1], p.message, p.params) for p in err.problems]) from None


def _play_problems(err: Invalid) -> Invalid:
    """Errors from duel.play name "round.card" (a card was needed: a form-wide message) or
    "round.gambled" (the checkbox)."""
    out = []
    for p in err.problems:
        field = {"round.gambled": "gambled"}.get(p.field, "round")
        out.append(Problem(field, p.message, p.params))
    return Invalid(out)


def table_duel(gs: dict) -> d.Duel | None:
    """The table's duel, replayed from its stored set-up and rounds."""
    stored = gs.get("duel")
    if not stored:
        return None
    return d.resolve(d.read_setup(stored["setup"]), d.read_rounds(stored["rounds"]))


def _with_tracked_wounds(gs: dict, form: MultiDict, links: dict) -> MultiDict:
    """A Leader linked to a player starts the duel with the wounds on that Leader's tracker, whatever
    "Wounds already" said: the tracker is the one record of them."""
    out = form.copy()
    for side, link in links.items():
        if link.get("leader") and link.get("player"):
            field = "intervener" if side == d.DEFENDER and form.get("answer") == "intervene" else side
            out[f"{field}.wounds"] = str(rules.leader_wounds_for_duel(gs, link["player"]))
    return out


def _side_links(doc: dict, form: MultiDict) -> dict:
    """Which player each participant belongs to, and whether it is that player's Leader."""
    out = {}
    seats = _seats(doc)
    problems = []
    for side in d.SIDES:
        pid = form.get(f"{side}.player", "") or None
        if pid is not None and pid not in seats:
            problems.append(Problem(f"{side}.player", N_("No such player at this table.")))
            pid = None
        intervening = side == d.DEFENDER and form.get("answer") == "intervene"
        leader = bool(form.get("intervener.leader" if intervening else f"{side}.leader"))
        if leader and pid is None:
            problems.append(Problem(f"{side}.player", N_("Whose Leader is it? Choose the player.")))
        elif leader and live.game_state(doc)["players"][pid]["leader_destroyed"]:
            problems.append(Problem(f"{side}.player", N_("%(name)s's Leader is destroyed: it cannot duel."),
                                    {"name": _name(doc, pid)}))
        out[side] = {"player": pid, "leader": leader}
    if problems:
        raise Invalid(problems)
    return out


@bp.post("/t/<token>/fivesails/duel/start")
def duel_start(token):
    def build(form, t):
        change = Change("duel.start", SAID, {})

        def mutate(doc):
            gs = _playing(doc)
            if gs.get("duel"):
                raise Invalid(Problem("duel", N_("A duel is already going on: finish or abandon it first.")))
            problems = []
            setup = links = None
            try:
                links = _side_links(doc, request.form)
            except Invalid as err:
                problems += err.problems
            try:
                setup = read_setup_form(_with_tracked_wounds(gs, request.form, links or {}))
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
            msg = (N_("Duel: %(defender)s refuses %(challenger)s's challenge") if setup.refused
                   else N_("Duel: %(challenger)s challenges %(defender)s"))
            said(change, msg, challenger=setup.challenger.name, defender=setup.defender.name)
        return change, mutate
    return live.perform(token, DuelForm(), build, slug="duel")


@bp.post("/t/<token>/fivesails/duel/round")
def duel_round(token):
    if request.form.get("play") == "preview":
        return duel_preview(token)

    def build(form, t):
        change = Change("duel.round", N_("Duel round %(n)d: %(name)s %(what)s"), {})

        def mutate(doc):
            gs = _playing(doc)
            current = table_duel(gs)
            if current is None:
                raise Invalid(Problem("round", N_("There is no duel going on.")))
            rnd = read_round_form(request.form)
            try:
                after = d.play(current, rnd, "round")
            except Invalid as err:
                raise _play_problems(err) from None
            gs["duel"]["rounds"].append(d.round_data(rnd))
            last = after.rounds[-1]
            what = ({"msg": N_("plays no card")} if rnd.card is None else
                    {"msg": N_("plays %(r)d / %(p)d / %(t)d"),
                     "args": {"r": rnd.card.riposte, "p": rnd.card.parry, "t": rnd.card.thrust}})
            change.args.update(n=len(after.rounds), name=after.participant(last.actor).name, what=what)
        return change, mutate
    return live.perform(token, DuelForm(), build, slug="duel")


def duel_preview(token):
    """What the card would do, without changing the table: the same rules, applied to a copy."""
    table, readonly = live.open_table(token, edit=True)
    t = live.view_for(table, readonly, token, "duel")
    form = DuelForm()
    key = request.form.get("form_key") or "duel-round"
    if not form.validate():
        return live.render(t, status=422, bound=live.Bound(key, request.form.copy(), {k: [str(m) for m in v]
                                                                            for k, v in form.errors.items()}))
    current = table_duel(t.gs)
    try:
        if current is None:
            raise Invalid(Problem("round", N_("There is no duel going on.")))
        rnd = read_round_form(request.form)
        try:
            g.fivesails_preview = d.play(current, rnd, "round")
        except Invalid as err:
            raise _play_problems(err) from None
    except Invalid as err:
        errors = err.as_dict(_)
        general = [m for f, ms in errors.items() if f == "round" for m in ms]
        return live.render(t, status=422, bound=live.Bound(key, request.form.copy(), errors, general))
    return live.render(t, bound=live.Bound(key, request.form.copy()))


@bp.post("/t/<token>/fivesails/duel/takeback")
def duel_takeback(token):
    def mutate(doc):
        with form_wide():
            gs = _playing(doc)
            if not gs.get("duel") or not gs["duel"]["rounds"]:
                raise Invalid(Problem("duel", N_("No round to take back.")))
            gs["duel"]["rounds"].pop()
    change = Change("duel.takeback", N_("Duel: last round taken back"), {})
    return live.act_simple(token, DuelForm(), change, mutate, slug="duel")


@bp.post("/t/<token>/fivesails/duel/close")
def duel_close(token):
    """End the duel: a finished duel's wounds go onto the Leaders' trackers (a destroyed Leader is
    marked destroyed, with its Renown loss and the Assassination check); an unfinished one is abandoned."""
    def build(form, t):
        change = Change("duel.close", SAID, {})

        def mutate(doc):
            with form_wide():
                gs = _playing(doc)
                current = table_duel(gs)
                if current is None:
                    raise Invalid(Problem("duel", N_("There is no duel going on.")))
                sides = gs["duel"]["sides"]
                gs["duel"] = None
                if not current.ended:
                    said(change, N_("Duel abandoned"))
                    return
                parts, leaders = [], []
                for side in d.SIDES:
                    who = current.participant(side)
                    parts.append(f"{who.name} {current.wounds[side]}/{who.resolve}")
                    link = sides.get(side) or {}
                    if link.get("leader") and link.get("player"):
                        leaders.append(rules.DuelWounds(link["player"], who.wounds, current.wounds[side],
                                                        who.resolve, current.destroyed(side)))
                outcome = ", ".join(parts)
                gone = rules.close_duel(gs, leaders, _seats(doc))  # every destruction, then one check
                if gone:
                    said_destroyed(change, doc, gone, N_("Duel over: %(outcome)s"), outcome=outcome)
                else:
                    said(change, N_("Duel over: %(outcome)s"), outcome=outcome)
        return change, mutate
    return live.perform(token, DuelForm(), build, slug="duel")


@bp.app_template_global("fs_line")
def fs_line(line: d.Line) -> str:
    """One sentence of a duel's story in the viewer's language, in the right plural form."""
    if line.plural:
        return ngettext(line.msg, line.plural, line.args[line.num], **line.args)
    return render_message(line.msg, line.args)


# -- pages' context --------------------------------------------------------------------------------

def duel_context(duel: d.Duel | None, preview: d.Duel | None = None) -> dict:
    if duel is None:
        return {"duel": None}
    story = [(r, d.round_story(duel, r)) for r in duel.rounds]
    out = {"duel": duel, "opening": d.opening_story(duel), "story": story, "preview": None, "preview_story": []}
    if preview is not None:
        out["preview"] = preview
        out["preview_story"] = d.round_story(preview, preview.rounds[-1])
    return out


def context(slug: str, table, state: dict) -> dict:
    gs = state.get("game", {})
    n = len(state["players"])
    seats = rules.seat_ids(state["players"])
    names = {str(p["id"]): p["name"] for p in state["players"]}
    out = {"R": rules, "D": d, "names": names, "seats": seats,
           "names_of": lambda ids: ", ".join(names.get(str(i), "?") for i in ids),
           "player_choices": [(pid, names[pid]) for pid in seats],
           "line": rules.city_line(n, **{k: bool(v) for k, v in gs.get("line", {}).items()
                                          if k in ("flipped", "swapped", "gardens_with_inn")}),
           "order": rules.clockwise_from(seats, gs.get("first_player"))}
    if slug == "setup":
        out["setup_steps"] = rules.setup_steps(n)
    if slug == "day" and gs.get("players"):
        phase = rules.current_phase(gs)
        day = gs.get("day", 1)
        out["phase"] = phase
        out["at"] = rules.day_position(gs)
        out["next_phase"] = rules.PHASES[rules.PHASES.index(phase) + 1] if phase != rules.DUSK else None
        out["verdict"] = rules.plunder_verdict(gs, seats, day) if phase == rules.PLUNDER else None
        out["dominance"] = rules.check_dominance(gs, seats)
        out["economic"] = rules.check_economic(gs, seats)
        out["fifth_day"] = rules.check_fifth_day(gs, seats) if day >= rules.MAX_DAYS else None
        # The column that settles the fifth Day: the template marks it, whatever the grid looks like.
        out["deciding"] = out["fifth_day"].decided_by if out["fifth_day"] else None
    if slug == "duel" and gs.get("players"):
        def tracker(pid):
            ps = gs["players"][pid]
            if ps["leader_destroyed"]:
                return _("%(name)s destroyed", name=names[pid])
            if ps.get("leader_resolve"):
                return f"{names[pid]} {ps['leader_wounds']}/{ps['leader_resolve']}"
            return f"{names[pid]} {ps['leader_wounds']}"
        out["tracked_wounds"] = ", ".join(tracker(pid) for pid in seats)
    if slug in ("duel", "day"):
        try:
            out.update(duel_context(table_duel(gs), getattr(g, "fivesails_preview", None)))
        except Invalid:
            out.update(duel_context(None))
        out["duel_sides"] = (gs.get("duel") or {}).get("sides", {})
    return out


def default_page(status: str, state: dict) -> str:
    return {SETTING_UP: "setup", PLAYING: "day", FINISHED: "players"}.get(status, "setup")


# -- the standalone duel calculator ------------------------------------------------------------------

LINK_MAX = 8000  # characters of the duel in a link: sixty rounds fit with room to spare


def encode_duel(setup: d.Setup, rounds) -> str:
    """The duel as a link parameter: compact JSON in URL-safe base64 (no padding)."""
    raw = json.dumps({"setup": d.setup_data(setup), "rounds": [d.round_data(r) for r in rounds]},
                     separators=(",", ":"))
    return base64.urlsafe_b64encode(raw.encode()).decode().rstrip("=")


def decode_duel(param: str) -> str:
    """A link parameter back to the duel's JSON text (still to be checked like any input)."""
    if len(param) > LINK_MAX:
        raise Invalid(Problem("duel", N_("The duel on this page could not be read. Start it again.")))
    try:
        raw = base64.b64decode(param + "=" * (-len(param) % 4), altchars=b"-_", validate=True).decode()
        if not raw:
            raise ValueError("empty")
        return raw
    except (ValueError, UnicodeDecodeError):
        raise Invalid(Problem("duel", N_("The duel on this page could not be read. Start it again."))) from None


def _calc_state(raw: str) -> tuple[d.Setup | None, list[d.Round]]:
    """The duel so far, from the calculator's hidden field: untrusted, so read like the API body."""
    if not raw:
        return None, []
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):  # "[[[[...]]]]" nested past Python's limit is bad input too
        raise Invalid(Problem("duel", N_("The duel on this page could not be read. Start it again."))) from None
    if not isinstance(data, dict) or not isinstance(data.get("setup"), dict):
        raise Invalid(Problem("duel", N_("The duel on this page could not be read. Start it again.")))
    try:
        setup = d.read_setup(data["setup"])
        rounds = d.read_rounds(data.get("rounds"))
        d.resolve(setup, rounds)
    except Invalid:
        raise Invalid(Problem("duel", N_("The duel on this page could not be read. Start it again."))) from None
    return setup, rounds


# What each field of the calculator's forms is called, for the error summary at the top of a form.
SIDE_LABELS = {"challenger": N_("Challenger"), "defender": N_("Challenged character"),
               "intervener": N_("Intervening character")}
FIELD_LABELS = {"name": N_("Name"), "duel_stat": N_("Duel stat"), "resolve": N_("Resolve"),
                "wounds": N_("Wounds already"), "finesse": N_("Finesse"), "player": N_("Whose character?"),
                "technique_thrust": N_("Technique +Thrust"), "technique_lethal": N_("That Technique is Lethal"),
                "answer": N_("The answer"), "riposte": N_("Riposte"), "parry": N_("Parry"), "thrust": N_("Thrust"),
                "lethal": N_("Lethal this round"), "gambled": N_("This card was gambled"),
                "adversary_absent": N_("The adversary is elsewhere")}


def field_label(name: str) -> str | None:
    """"challenger.resolve" -> "Challenger: Resolve", in the viewer's language; None for a form-wide name."""
    side, _dot, rest = name.partition(".")
    if rest and side in SIDE_LABELS and rest in FIELD_LABELS:
        return f"{_(SIDE_LABELS[side])}: {_(FIELD_LABELS[rest])}"
    if name in FIELD_LABELS:
        return _(FIELD_LABELS[name])
    return None


def error_summary(errors: dict[str, list[str]]) -> list[str]:
    """Every message of a failed form, each led by the name of its field (the fields repeat it)."""
    out = []
    for name, msgs in errors.items():
        label = field_label(name)
        out += [f"{label}: {m}" if label else m for m in msgs]
    return out


def _calc_render(setup, rounds, *, bound=None, preview=None, status=200):
    duel = d.resolve(setup, rounds) if setup is not None else None
    state = json.dumps({"setup": d.setup_data(setup), "rounds": [d.round_data(r) for r in rounds]},
                       separators=(",", ":")) if setup is not None else ""
    link = (url_for("fivesails.calculator", d=encode_duel(setup, rounds), _external=True)
            if setup is not None else None)
    ctx = dict(duel_context(duel, preview), state=state, bound=bound or live.Bound(), D=d, R=rules, link=link)
    fragment = wants_fragment(CALC_ID)
    template = "fivesails/_calculator.html" if fragment else "fivesails/calculator.html"
    resp = make_response(render_template(template, **ctx), status)
    if fragment and status == 200:
        # The address bar keeps the duel: a reload or a shared link brings it back.
        resp.headers["HX-Replace-Url"] = (url_for("fivesails.calculator", d=encode_duel(setup, rounds))
                                          if setup is not None else url_for("fivesails.calculator"))
    return resp


def _calc_saved(setup, rounds):
    """After a change: htmx gets the fragment (and the new address); a plain form post is sent to
    the duel's own address, so reloading the page keeps the duel."""
    if wants_fragment(CALC_ID):
        return _calc_render(setup, rounds)
    target = (url_for("fivesails.calculator", d=encode_duel(setup, rounds)) if setup is not None
              else url_for("fivesails.calculator"))
    return redirect(target, code=303)


@bp.route("/fivesails/duel", methods=["GET", "POST"])
def calculator():
    """The duel threat calculator without a table: the duel travels in the page and in its address
    (`?d=`), and is replayed by the same rules as the API each time; nothing is stored on the server."""
    if request.method == "GET":
        param = request.args.get("d", "")
        if not param:
            return _calc_render(None, [])
        try:
            setup, rounds = _calc_state(decode_duel(param))
        except Invalid as err:
            return _calc_render(None, [], bound=live.Bound("calc-setup", MultiDict(), {},
                                                           [p.text(_) for p in err.problems]), status=422)
        return _calc_render(setup, rounds)
    form = CalculatorForm()
    action = request.form.get("action", "")
    if action == "play" and request.form.get("play") == "preview":
        action = "preview"
    key = request.form.get("form_key") or ("calc-setup" if action == "start" else "calc-round")
    if not form.validate():
        return _calc_render(None, [], bound=live.Bound(key, request.form.copy(), {}, [_("This page was out of date. "
                                                                                "Reload it and try again.")]),
                            status=400)
    try:
        setup, rounds = _calc_state(form.duel.data or "")
    except Invalid as err:
        return _calc_render(None, [], bound=live.Bound("calc-setup", MultiDict(), {}, [p.text(_) for p in err.problems]),
                            status=422)
    try:
        if action == "start":
            return _calc_saved(read_setup_form(request.form), [])
        if action == "reset" or setup is None:
            return _calc_saved(None, [])
        if action == "takeback":
            return _calc_saved(setup, rounds[:-1])
        if action in ("preview", "play"):
            duel = d.resolve(setup, rounds)
            rnd = read_round_form(request.form)
            try:
                after = d.play(duel, rnd, "round")
            except Invalid as err:
                raise _play_problems(err) from None
            if action == "preview":
                return _calc_render(setup, rounds, bound=live.Bound(key, request.form.copy()), preview=after)
            return _calc_saved(setup, rounds + [rnd])
    except Invalid as err:
        errors = err.as_dict(_)
        return _calc_render(setup if action != "start" else None, rounds if action != "start" else [],
                            bound=live.Bound(key, request.form.copy(), errors, error_summary(errors)), status=422)
    return _calc_render(setup, rounds, bound=live.Bound(key, request.form.copy(), {}, [_("Choose what to do.")]),
                        status=422)


# -- deck check ------------------------------------------------------------------------------------

@bp.route("/fivesails/deck", methods=["GET", "POST"])
def deck_check():
    """Check a pasted deck list against the deck-building rules; nothing is stored."""
    form = DeckForm()
    if request.method == "GET":
        return render_template("fivesails/deck.html", form=form, findings=None, deck=None, errors=[])
    if not form.validate():
        return render_template("fivesails/deck.html", form=form, findings=None, deck=None,
                               errors=[_("This page was out of date. Reload it and try again.")]), 400
    try:
        deck = decks.parse(form.deck.data or "")
    except Invalid as err:
        return render_template("fivesails/deck.html", form=form, findings=None, deck=None,
                               errors=[p.text(_) for p in err.problems]), 422
    return render_template("fivesails/deck.html", form=form, findings=decks.check(deck), deck=deck, errors=[])


# -- JSON API --------------------------------------------------------------------------------------

@api.post("/fivesails/duel")
@json_endpoint
def api_duel(payload: dict) -> dict:
    """POST /api/v1/fivesails/duel: a duel's set-up and rounds in, every round's arithmetic out."""
    setup, rounds = d.setup_from_payload(payload)
    return d.answer(d.resolve(setup, rounds))
