"""7 - The Sins: the table's pages (setup, play, score), their actions, and the scoring API.

Each action reads its form, lets table.py change the document (which checks everything and names
the field of any problem) and answers through live.perform: the fresh live region for htmx, a 303
without JavaScript, 422 with the form as typed, 409 when another phone changed the same thing.
"""
from __future__ import annotations

from flask import Blueprint, url_for
from flask_babel import gettext

from ...api import api, json_endpoint
from ...domain import N_
from ...tables import store
from ...tables.store import Change
from . import checks, rules, table
from .forms import (AbyssForm, AbyssTotalForm, DeltaForm, ModeForm, PlacementForm, QuickForm, ReserveForm,
                    SinChoiceForm, StepForm, StoneForm, ToggleForm)
from ...tables.forms import PlayerForm, TableForm

bp = Blueprint("sins", __name__)


def perform(token, form, build, *, slug=None):
    """tables.live.perform, imported when first used: live imports the games registry, which
    imports this module, so a module-level import would be circular."""
    from ...tables.live import perform as live_perform

    return live_perform(token, form, build, slug=slug)

STEP_NAMES = {
    "A": N_("A · sin types"), "B": N_("B · Hell decks and reserves"), "C": N_("C · five cards revealed"),
    "D": N_("D · the deck"), "E": N_("E · Abyss and stones"), "first": N_("first player"),
    "penitenziagite-cards": N_("Penitenziagite cards"), "penitenziagite-score-card": N_("red Score card"),
}


def label(sin: str) -> str:
    """A sin type's name in the reader's language (the French rulebook's names in French)."""
    return gettext(rules.SIN_NAMES[sin])


def sin_list(sins) -> dict:
    """The sin types as a log message whose names are translated for each reader."""
    sins = list(sins)
    if not sins:
        return {"msg": N_("none")}
    return {"msg": ", ".join(f"%(s{i})s" for i in range(len(sins))),
            "args": {f"s{i}": {"term": rules.SIN_NAMES[s]} for i, s in enumerate(sins)}}


def _state(doc: dict) -> dict:
    table.ensure(doc["state"])
    return doc["state"]


def _name(state: dict, pid: int) -> str:
    for p in state["players"]:
        if p["id"] == pid:
            return p["name"]
    return "?"


def _scoring(change: Change, work):
    """A scoring change: once the table is finished, its recorded result follows the correction."""
    def mutate(doc):
        work(_state(doc), doc)
        table.refresh_result(doc)
    return change, mutate


# -- setup -----------------------------------------------------------------------------------------

@bp.post("/t/<token>/sins/sins")
def choose_sins(token):
    def build(form, t):
        change = Change("sins.choose", N_("Sin types in play: %(sins)s"), {}, keys=("game.sins",))

        def mutate(doc):
            change.args["sins"] = sin_list(table.choose_sins(_state(doc), form.sin.data or []))
        return change, mutate
    return perform(token, SinChoiceForm(), build)


@bp.post("/t/<token>/sins/sins/draw")
def draw_sins(token):
    def build(form, t):
        change = Change("sins.draw", N_("Sin types drawn at random: %(sins)s"), {}, keys=("game.sins",))

        def mutate(doc):
            change.args["sins"] = sin_list(table.draw_sins(_state(doc)))
        return change, mutate
    return perform(token, TableForm(), build)


@bp.post("/t/<token>/sins/tick")
def tick(token):
    def build(form, t):
        step, done = form.step.data, bool(form.done.data)
        msg = N_("Setup ticked: %(step)s") if done else N_("Setup unticked: %(step)s")
        change = Change("sins.tick", msg, {"step": {"term": STEP_NAMES.get(step, step)}}, keys=(f"game.done.{step}",))

        def mutate(doc):
            table.tick(_state(doc), step, done)
        return change, mutate
    return perform(token, StepForm(), build)


@bp.post("/t/<token>/sins/penitenziagite")
def penitenziagite(token):
    def build(form, t):
        on = bool(form.on.data)
        change = Change("sins.penitenziagite", N_("Penitenziagite on") if on else N_("Penitenziagite off"), {},
                        keys=("game.penitenziagite",))

        def mutate(doc):
            table.set_penitenziagite(_state(doc), on)
        return change, mutate
    return perform(token, ToggleForm(), build)


@bp.post("/t/<token>/sins/first")
def first_player(token):
    def build(form, t):
        pid = form.player.data
        change = Change("sins.first", N_("%(player)s plays first"), {}, keys=("game.first", "game.turn"))

        def mutate(doc):
            state = _state(doc)
            table.set_first(state, pid)
            change.args["player"] = _name(state, pid)
        return change, mutate
    return perform(token, PlayerForm(), build)


@bp.post("/t/<token>/sins/first/draw")
def draw_first(token):
    def build(form, t):
        change = Change("sins.first", N_("%(player)s was drawn to play first"), {}, keys=("game.first", "game.turn"))

        def mutate(doc):
            state = _state(doc)
            change.args["player"] = _name(state, table.draw_first(state))
        return change, mutate
    return perform(token, TableForm(), build)


@bp.post("/t/<token>/sins/start")
def start(token):
    from ...tables.live import open_table

    def build(form, t):
        change = Change("sins.start", N_("The game started"), {}, keys=("status", "game.first", "game.turn"))

        def mutate(doc):
            table.start(_state(doc))
            doc["status"] = store.PLAYING
        return change, mutate
    # A table that can start lands on the tracker; one that cannot stays on setup to see why.
    current, _readonly = open_table(token, edit=True)
    ready = not table.start_problems(current.state)
    resp = perform(token, TableForm(), build, slug="play" if ready else None)
    if ready and resp.status_code == 200:
        resp.headers["HX-Push-Url"] = url_for("tables.page", token=token, slug="play")
    return resp


# -- during play -----------------------------------------------------------------------------------

@bp.post("/t/<token>/sins/turn")
def next_turn(token):
    def build(form, t):
        change = Change("sins.turn", N_("Turn passed to %(player)s"), {}, keys=("game.turn", "game.round_done"))

        def mutate(doc):
            state = _state(doc)
            pid = table.next_turn(state)
            if state["game"].get("round_done"):
                change.args["player"] = {"msg": N_("nobody: the round is over")}
            else:
                change.args["player"] = _name(state, pid)
        return change, mutate
    return perform(token, TableForm(), build)


@bp.post("/t/<token>/sins/judgment")
def judgment(token):
    def build(form, t):
        delta = form.delta.data
        msg = N_("Last Judgment revealed (%(n)d of 3)") if delta > 0 else N_("Last Judgment taken back (%(n)d of 3)")
        # Revealing cards adds up from any phone (no keys); the limit of three is checked on the fresh table.
        change = Change("sins.judgment", msg, {}, keys=())

        def mutate(doc):
            change.args["n"] = table.add_judgment(_state(doc), delta)
        return change, mutate
    return perform(token, DeltaForm(), build)


@bp.post("/t/<token>/sins/third")
def third_on(token):
    def build(form, t):
        pid = form.player.data
        change = Change("sins.third", N_("The third Last Judgment came out on %(player)s's turn"), {},
                        keys=("game.third_on", "game.turn", "game.round_done"))

        def mutate(doc):
            state = _state(doc)
            table.set_third_on(state, pid)
            change.args["player"] = _name(state, pid)
        return change, mutate
    return perform(token, PlayerForm(), build)


@bp.post("/t/<token>/sins/stone")
def stone(token):
    def build(form, t):
        pid, delta = form.player.data, form.delta.data
        msg = N_("%(player)s took a Stone of Forgiveness") if delta > 0 else N_("%(player)s gave a Stone of Forgiveness back")
        change = Change("sins.stone", msg, {}, keys=())

        def work(state, doc):
            table.take_stone(state, pid, delta)
            change.args["player"] = _name(state, pid)
        return _scoring(change, work)
    return perform(token, StoneForm(), build)


# -- scoring ---------------------------------------------------------------------------------------

@bp.post("/t/<token>/sins/mode")
def mode(token):
    def build(form, t):
        quick = form.mode.data == "quick"
        change = Change("sins.mode", N_("Scoring with totals only") if quick else N_("Scoring by sin type"), {},
                        keys=("game.score.mode",))

        def work(state, doc):
            table.set_mode(state, form.mode.data)
        return _scoring(change, work)
    return perform(token, ModeForm(), build)


@bp.post("/t/<token>/sins/abyss")
def abyss(token):
    def build(form, t):
        change = Change("sins.abyss", N_("Abyss of Souls counted: %(points)d points"), {}, keys=("game.score.abyss",))

        def work(state, doc):
            table.save_abyss(state, form.counts(), label)
            change.args["points"] = table.abyss_value(table.score_state(state["game"]))
        return _scoring(change, work)
    return perform(token, AbyssForm(), build)


@bp.post("/t/<token>/sins/abyss/total")
def abyss_total(token):
    def build(form, t):
        change = Change("sins.abyss", N_("Abyss of Souls total: %(points)d points"), {}, keys=("game.score.abyss",))

        def work(state, doc):
            change.args["points"] = table.save_abyss_total(state, form.points.data or "")
        return _scoring(change, work)
    return perform(token, AbyssTotalForm(), build)


@bp.post("/t/<token>/sins/direction")
def direction(token):
    def build(form, t):
        most = bool(form.on.data)
        change = Change("sins.direction", N_("Most points win") if most else N_("Fewest points win"), {},
                        keys=("game.score.most_wins",))

        def work(state, doc):
            table.set_direction(state, most)
        return _scoring(change, work)
    return perform(token, ToggleForm(), build)


@bp.post("/t/<token>/sins/reserve")
def reserve(token):
    def build(form, t):
        pid = form.player.data
        change = Change("sins.reserve", N_("%(player)s's reserve counted"), {},
                        keys=(f"game.score.reserves.{pid}", f"game.stones.{pid}", f"game.score.stones_on.{pid}"))

        def work(state, doc):
            table.save_reserve(state, pid, form.counts(), form.stones.data or "", label)
            change.args["player"] = _name(state, pid)
        return _scoring(change, work)
    return perform(token, ReserveForm(), build)


@bp.post("/t/<token>/sins/quick")
def quick(token):
    def build(form, t):
        pid = form.player.data
        change = Change("sins.quick", N_("%(player)s's total entered"), {}, keys=(f"game.score.quick.{pid}",))

        def work(state, doc):
            table.save_quick(state, pid, form.points.data or "", form.cards.data or "", form.types.data or "")
            change.args["player"] = _name(state, pid)
        return _scoring(change, work)
    return perform(token, QuickForm(), build)


@bp.post("/t/<token>/sins/stones")
def place_stones(token):
    def build(form, t):
        pid = form.player.data
        change = Change("sins.stones_on", N_("%(player)s put stones on %(sins)s"), {},
                        keys=(f"game.score.stones_on.{pid}",))

        def work(state, doc):
            placed = table.place_stones(state, pid, form.stones_on.data or [], label)
            change.args.update(player=_name(state, pid), sins=sin_list(placed))
        return _scoring(change, work)
    return perform(token, PlacementForm(), build)


@bp.post("/t/<token>/sins/stones/best")
def best_stones(token):
    def build(form, t):
        pid = form.player.data
        change = Change("sins.stones_on", N_("%(player)s's stones back on the best placement"), {},
                        keys=(f"game.score.stones_on.{pid}",))

        def work(state, doc):
            table.best_stones(state, pid)
            change.args["player"] = _name(state, pid)
        return _scoring(change, work)
    return perform(token, PlayerForm(), build)


@bp.post("/t/<token>/sins/finish")
def finish(token):
    def build(form, t):
        # The result is what this phone saw: any scoring change since then must be looked at first.
        change = Change("sins.finish", N_("Game over: %(winners)s won"), {}, keys=("status", "result", "game.score", "game.stones"))

        def mutate(doc):
            _state(doc)
            result = table.finish(doc)
            change.args["winners"] = ", ".join(result["winners"])
        return change, mutate
    return perform(token, TableForm(), build)


# -- the JSON API ----------------------------------------------------------------------------------

@api.post("/sins/score")
@json_endpoint
def score_api(payload):
    """POST /api/v1/sins/score: the final count of a game, with the best stone placements."""
    return checks.score_response(checks.read_score_request(payload))


# -- what the pages show ---------------------------------------------------------------------------

def default_page(status: str, state: dict) -> str:
    """Setup while setting up; the tracker during play, or scoring once the game has ended."""
    if status == store.SETTING_UP:
        return "setup"
    if status == store.FINISHED:
        return "score"
    if "game" in state:
        table.ensure(state)
        end = table.ending_of(state)
        if end is not None and end.over:
            return "score"
    return "play"


def context(slug: str, tbl, state: dict) -> dict:
    """What the game's templates need beyond `t`: the numbers, the order, the count."""
    from .pages import build

    return {"sv": build(slug, tbl, state), "SINS": rules.SINS, "SIN_NAMES": rules.SIN_NAMES,
            "STEP_NAMES": STEP_NAMES, "DECIDED_BY": rules.DECIDED_BY}
