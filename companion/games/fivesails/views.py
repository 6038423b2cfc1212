"""7th Sea: City of Five Sails: the table's actions, the standalone duel calculator and deck check,
and the duel JSON API. Every rule lives in rules.py, duel.py and decks.py; this module only reads
forms, names what each action touches (`Change.keys`) and renders."""
from __future__ import annotations

import json
from contextlib import contextmanager

from flask import Blueprint, g, render_template, request
from flask_babel import gettext as _
from werkzeug.datastructures import MultiDict

from ...api import api, json_endpoint
from ...domain import N_, Invalid, Problem
from ...tables import live
from ...tables import players as players_mod
from ...tables.store import FINISHED, PLAYING, SETTING_UP, Change
from ...web import wants_fragment
from . import decks, duel as d, rules
from .forms import (CalculatorForm, ControlForm, DeckForm, DeltaForm, DuelForm, LeaderForm, LineForm, StepForm,
                    TickForm)

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
                        {}, keys=(f"game.setup.{step}",))

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
        msg = N_("The City line was turned end for end") if what == "flip" else N_(
            "The Docks and The Grand Bazaar swapped places")
        change = Change("setup.line", msg, {}, keys=("game.line",))

        def mutate(doc):
            with form_wide():
                gs = _playing(doc)
                key = "flipped" if what == "flip" else "swapped"
                gs["line"][key] = not gs["line"][key]
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
            gs["day"], gs["step"] = 1, 0
    change = Change("start", N_("Day 1 begins"), {}, keys=("status", "game.step"))
    return live.act_simple(token, DuelForm(), change, mutate, slug="day")


# -- the Day ---------------------------------------------------------------------------------------

def _expect_step(gs: dict, at: int) -> None:
    if at != gs["day"] * 100 + gs["step"]:
        raise Invalid(Problem("at", N_("The Day moved on from another phone: check where it is now.")))


@bp.post("/t/<token>/fivesails/day/next")
def next_step(token):
    def build(form, t):
        change = Change("day.next", SAID, {}, keys=("game.step", "status"))

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
                said(change, N_("Day %(day)d: %(step)s"), day=gs["day"], step={"term": rules.step_at(gs["step"]).label})
        return change, mutate
    return live.perform(token, StepForm(), build, slug="day")


@bp.post("/t/<token>/fivesails/day/back")
def back_step(token):
    def build(form, t):
        change = Change("day.back", N_("Back to Day %(day)d: %(step)s"), {}, keys=("game.step",))

        def mutate(doc):
            with form_wide():
                gs = _playing(doc)
                _expect_step(gs, form.at.data)
                rules.back(gs)
                change.args.update(day=gs["day"], step={"term": rules.step_at(gs["step"]).label})
        return change, mutate
    return live.perform(token, StepForm(), build, slug="day")


@bp.post("/t/<token>/fivesails/initiative")
def initiative(token):
    def build(form, t):
        change = Change("initiative", N_("First Player: %(player)s (%(why)s)"), {},
                        keys=("game.initiative", "game.first_player"))
        reasons = {"highest": N_("highest Initiative"), "tie-left": N_("tie: passed to the left"),
                   "tie-random": N_("tie: picked at random")}

        def mutate(doc):
            gs = _playing(doc)
            problems = []
            values = {}
            for pid in _seats(doc):
                raw = request.form.get(f"init-{pid}", "").strip()
                if not raw.isdigit():
                    problems.append(Problem(f"init-{pid}", N_("Enter the Initiative on %(name)s's scheme."),
                                            {"name": _name(doc, pid)}))
                elif int(raw) > rules.INITIATIVE_MAX:
                    problems.append(Problem(f"init-{pid}", N_("Must be at most %(max)d."),
                                            {"max": rules.INITIATIVE_MAX}))
                else:
                    values[pid] = int(raw)
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
        change = Change(kind, msg, {"delta": delta}, keys=())

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
    return _delta_action(token, "wounds", N_("%(player)s's Leader %(delta)+d wound (now %(value)d)"),
                         rules.add_leader_wounds)


@bp.post("/t/<token>/fivesails/influence")
def influence(token):
    return _delta_action(token, "influence", N_("%(player)s %(delta)+d Influence (now %(value)d)"),
                         rules.add_influence)


@bp.post("/t/<token>/fivesails/control")
def control(token):
    def build(form, t):
        loc, owner = form.location.data, (form.owner.data or "").strip() or None
        change = Change("control", N_("%(location)s: %(owner)s"),
                        {"location": {"term": rules.LOCATION_NAMES[loc]}}, keys=(f"game.control.{loc}",))

        def mutate(doc):
            with form_wide():
                gs = _playing(doc)
                if owner is not None and owner not in gs["players"]:
                    raise Invalid(Problem("owner", N_("No such player at this table.")))
                rules.set_control(gs, loc, owner)
                change.args["owner"] = _name(doc, owner) if owner else {"term": N_("nobody controls it")}
        return change, mutate
    return live.perform(token, ControlForm(), build)


def _destroy(doc: dict, pid) -> tuple[int, str | None]:
    """Mark a Leader destroyed (Renown loss in 3-4 player games) and check Assassination Victory.
    Returns the Renown lost and the winner's name, if the game is won."""
    gs = live.game_state(doc)
    lost = rules.destroy_leader(gs, pid, len(doc["state"]["players"]))
    verdict = rules.check_assassination(gs, _seats(doc))
    if verdict.decided:
        _finish(doc, verdict)
        return lost, _name(doc, verdict.winners[0])
    return lost, None


@bp.post("/t/<token>/fivesails/leader")
def leader(token):
    def build(form, t):
        pid, destroyed = form.player.data, bool(form.destroyed.data)
        change = Change("leader.destroyed" if destroyed else "leader.back", SAID, {},
                        keys=(f"game.players.{pid}.leader", "status"))

        def mutate(doc):
            with form_wide():
                gs = _playing(doc)
                name = _name(doc, pid)
                if not destroyed:
                    said(change, N_("%(player)s's Leader back in play (%(back)d Renown back)"), player=name,
                         back=rules.restore_leader(gs, pid))
                    return
                lost, winner = _destroy(doc, pid)
                if winner:
                    said(change, N_("%(player)s's Leader destroyed (%(lost)d Renown lost): Assassination Victory for "
                                    "%(winner)s"), player=name, lost=lost, winner=winner)
                else:
                    said(change, N_("%(player)s's Leader destroyed (%(lost)d Renown lost)"), player=name, lost=lost)
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
            "lethal": bool(form.get("lethal")), "gambled": bool(form.get("gambled"))}
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
        out[side] = {"player": pid, "leader": leader}
    if problems:
        raise Invalid(problems)
    return out


@bp.post("/t/<token>/fivesails/duel/start")
def duel_start(token):
    def build(form, t):
        change = Change("duel.start", SAID, {}, keys=("game.duel",))

        def mutate(doc):
            gs = _playing(doc)
            if gs.get("duel"):
                raise Invalid(Problem("duel", N_("A duel is already going on: finish or abandon it first.")))
            problems = []
            setup = links = None
            try:
                setup = read_setup_form(request.form)
            except Invalid as err:
                problems += err.problems
            try:
                links = _side_links(doc, request.form)
            except Invalid as err:
                problems += err.problems
            if problems:
                raise Invalid(problems)
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
        change = Change("duel.round", N_("Duel round %(n)d: %(name)s %(what)s"), {}, keys=("game.duel",))

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
    change = Change("duel.takeback", N_("Duel: last round taken back"), {}, keys=("game.duel",))
    return live.act_simple(token, DuelForm(), change, mutate, slug="duel")


@bp.post("/t/<token>/fivesails/duel/close")
def duel_close(token):
    """End the duel: a finished duel's wounds go onto the Leaders' trackers (a destroyed Leader is
    marked destroyed, with its Renown loss and the Assassination check); an unfinished one is abandoned."""
    def build(form, t):
        change = Change("duel.close", SAID, {}, keys=("game.duel", "status"))

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
                parts = []
                for side in d.SIDES:
                    who = current.participant(side)
                    parts.append(f"{who.name} {current.wounds[side]}/{who.resolve}")
                    link = sides.get(side) or {}
                    if link.get("leader") and link.get("player"):
                        ps = rules.player_state(gs, link["player"])
                        if not ps["leader_destroyed"]:
                            ps["leader_wounds"] = min(rules.WOUNDS_MAX, current.wounds[side])
                            if current.destroyed(side):
                                _destroy(doc, link["player"])
                said(change, N_("Duel over: %(outcome)s"), outcome=", ".join(parts))
        return change, mutate
    return live.perform(token, DuelForm(), build, slug="duel")


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
           "line": rules.city_line(n, gs.get("line", {}).get("flipped", False), gs.get("line", {}).get("swapped", False)),
           "order": rules.clockwise_from(seats, gs.get("first_player"))}
    if slug == "setup":
        out["setup_steps"] = rules.setup_steps(n)
    if slug == "day":
        step = rules.step_at(gs.get("step", 0))
        out["step"] = step
        out["verdict"] = rules.plunder_verdict(gs, seats, step.kind, gs.get("day", 1)) if gs.get("players") else None
        out["economic"] = rules.check_economic(gs, seats)
        out["next_step"] = rules.step_at(gs["step"] + 1) if gs.get("step", 0) + 1 < len(rules.DAY_STEPS) else None
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

def _calc_state(raw: str) -> tuple[d.Setup | None, list[d.Round]]:
    """The duel so far, from the calculator's hidden field: untrusted, so read like the API body."""
    if not raw:
        return None, []
    try:
        data = json.loads(raw)
    except ValueError:
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


def _calc_render(setup, rounds, *, bound=None, preview=None, status=200):
    duel = d.resolve(setup, rounds) if setup is not None else None
    state = json.dumps({"setup": d.setup_data(setup), "rounds": [d.round_data(r) for r in rounds]},
                       separators=(",", ":")) if setup is not None else ""
    ctx = dict(duel_context(duel, preview), state=state, bound=bound or live.Bound(), D=d)
    template = "fivesails/_calculator.html" if wants_fragment(CALC_ID) else "fivesails/calculator.html"
    return render_template(template, **ctx), status


@bp.route("/fivesails/duel", methods=["GET", "POST"])
def calculator():
    """The duel threat calculator without a table: the duel travels in the page and is replayed by
    the same rules as the API each time; nothing is stored on the server."""
    if request.method == "GET":
        return _calc_render(None, [])
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
            return _calc_render(read_setup_form(request.form), [])
        if action == "reset" or setup is None:
            return _calc_render(None, [])
        if action == "takeback":
            return _calc_render(setup, rounds[:-1])
        if action in ("preview", "play"):
            duel = d.resolve(setup, rounds)
            rnd = read_round_form(request.form)
            try:
                after = d.play(duel, rnd, "round")
            except Invalid as err:
                raise _play_problems(err) from None
            if action == "preview":
                return _calc_render(setup, rounds, bound=live.Bound(key, request.form.copy()), preview=after)
            return _calc_render(setup, rounds + [rnd])
    except Invalid as err:
        errors = err.as_dict(_)
        fields = {"round", "duel", "answer"}
        general = [m for f, ms in errors.items() if f in fields for m in ms]
        return _calc_render(setup if action != "start" else None, rounds if action != "start" else [],
                            bound=live.Bound(key, request.form.copy(), errors, general), status=422)
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
