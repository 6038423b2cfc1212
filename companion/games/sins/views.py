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
from ...tables.live import act as live_act
from ...tables.live import open_table, perform
from ...tables.store import Change
from . import checks, rules, table
from .forms import (AbyssForm, AbyssTotalForm, ActionForm, ForPlayerForm, JudgmentForm, ModeForm, PickPlayerForm,
                    PlacementForm, QuickForm, ReserveForm, SinChoiceForm, StepForm, StoneForm, ToggleForm)

bp = Blueprint("sins", __name__)



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


def act(token: str, form, kind: str, summary, work, *, relative: bool = False, scoring: bool = False,
        slug: str | None = None):
    """Apply one action through live.perform.

    `summary` is a value, or a function of the validated form; `relative` marks an increment (see
    store.Change); `work(state, form, args)`
    changes the table state (table.py checks everything) and fills the log line's `args`. A
    scoring change on a finished table also brings its recorded result up to date.
    """
    def change(doc, form, args):
        work(_state(doc), form, args)
        if scoring:
            table.refresh_result(doc)
    return live_act(token, form, kind, summary, change, relative=relative, slug=slug)


# -- setup -----------------------------------------------------------------------------------------

@bp.post("/t/<token>/sins/sins")
def choose_sins(token):
    def work(state, form, args):
        args["sins"] = sin_list(table.choose_sins(state, form.sin.data or []))
    return act(token, SinChoiceForm(), "sins.choose", N_("Sin types in play: %(sins)s"), work)


@bp.post("/t/<token>/sins/sins/draw")
def draw_sins(token):
    def work(state, form, args):
        args["sins"] = sin_list(table.draw_sins(state))
    return act(token, ActionForm(), "sins.draw", N_("Sin types drawn at random: %(sins)s"), work)


@bp.post("/t/<token>/sins/tick")
def tick(token):
    def work(state, form, args):
        table.tick(state, form.step.data, bool(form.done.data))
        args["step"] = {"term": STEP_NAMES[form.step.data]}
    return act(token, StepForm(), "sins.tick",
               lambda f: N_("Setup ticked: %(step)s") if f.done.data else N_("Setup unticked: %(step)s"),
               work)


@bp.post("/t/<token>/sins/penitenziagite")
def penitenziagite(token):
    def work(state, form, args):
        table.set_penitenziagite(state, bool(form.on.data))
    return act(token, ToggleForm(), "sins.penitenziagite",
               lambda f: N_("Penitenziagite on") if f.on.data else N_("Penitenziagite off"), work)


@bp.post("/t/<token>/sins/first")
def first_player(token):
    def work(state, form, args):
        table.set_first(state, form.player.data)
        args["player"] = _name(state, form.player.data)
    return act(token, PickPlayerForm(), "sins.first", N_("%(player)s plays first"), work)


@bp.post("/t/<token>/sins/first/draw")
def draw_first(token):
    def work(state, form, args):
        args["player"] = _name(state, table.draw_first(state))
    return act(token, ActionForm(), "sins.first", N_("%(player)s was drawn to play first"), work)


@bp.post("/t/<token>/sins/start")
def start(token):
    def build(form, _t):
        change = Change("sins.start", N_("The game started"), {})

        def mutate(doc):
            table.start(_state(doc))
            doc["status"] = store.PLAYING
        return change, mutate
    # A table that can start lands on the tracker; one that cannot stays on setup to see why.
    current, _readonly = open_table(token, edit=True)
    ready = not table.start_problems(current.state)
    resp = perform(token, ActionForm(), build, slug="play" if ready else None)
    if ready and resp.status_code == 200:
        resp.headers["HX-Push-Url"] = url_for("tables.page", token=token, slug="play")
    return resp


# -- during play -----------------------------------------------------------------------------------

@bp.post("/t/<token>/sins/turn")
def next_turn(token):
    def work(state, form, args):
        pid = table.next_turn(state)
        done = state["game"].get("round_done")
        args["player"] = {"msg": N_("nobody: the round is over")} if done else _name(state, pid)
    return act(token, ActionForm(), "sins.turn", N_("Turn passed to %(player)s"), work)


@bp.post("/t/<token>/sins/judgment")
def judgment(token):
    def work(state, form, args):
        args["n"] = table.add_judgment(state, form.delta.data, form.on.data)
        if form.on.data is not None:
            args["player"] = _name(state, form.on.data)

    def build(form, _t):
        if form.on.data is not None:
            # The third card tied to a turn: absolute, it depends on where the tracker was when the
            # phone looked (a "done" tapped on another phone since then is a conflict).
            change = Change("sins.judgment", N_("The third Last Judgment came out on %(player)s's turn"), {})
        else:
            # Revealing cards adds up from any phone; the limit of three is checked on the fresh table.
            change = Change("sins.judgment", N_("Last Judgment revealed (%(n)d of 3)") if form.delta.data > 0
                            else N_("Last Judgment taken back (%(n)d of 3)"), {}, relative=True)
        return change, lambda doc: work(_state(doc), form, change.args)
    return perform(token, JudgmentForm(), build)


@bp.post("/t/<token>/sins/third")
def third_on(token):
    def work(state, form, args):
        table.set_third_on(state, form.player.data)
        args["player"] = _name(state, form.player.data)
    return act(token, PickPlayerForm(), "sins.third", N_("The third Last Judgment came out on %(player)s's turn"),
               work)


@bp.post("/t/<token>/sins/stone")
def stone(token):
    def work(state, form, args):
        table.take_stone(state, form.player.data, form.delta.data)
        args["player"] = _name(state, form.player.data)
    # Taking a stone is an increment: two phones taking one each take two, while the supply lasts.
    return act(token, StoneForm(), "sins.stone",
               lambda f: N_("%(player)s took a Stone of Forgiveness") if f.delta.data > 0
               else N_("%(player)s gave a Stone of Forgiveness back"), work, scoring=True, relative=True)


# -- scoring ---------------------------------------------------------------------------------------

@bp.post("/t/<token>/sins/mode")
def mode(token):
    def work(state, form, args):
        table.set_mode(state, form.mode.data)
    return act(token, ModeForm(), "sins.mode",
               lambda f: N_("Scoring with totals only") if f.mode.data == "quick" else N_("Scoring by sin type"),
               work, scoring=True)


@bp.post("/t/<token>/sins/abyss")
def abyss(token):
    def work(state, form, args):
        table.save_abyss(state, form.counts(), label)
        args["points"] = table.abyss_value(table.score_state(state["game"]))
    return act(token, AbyssForm(), "sins.abyss", N_("Abyss of Souls counted: %(points)d points"),
               work, scoring=True)


@bp.post("/t/<token>/sins/abyss/total")
def abyss_total(token):
    def work(state, form, args):
        args["points"] = table.save_abyss_total(state, form.points.data or "")
    return act(token, AbyssTotalForm(), "sins.abyss", N_("Abyss of Souls total: %(points)d points"),
               work, scoring=True)


@bp.post("/t/<token>/sins/direction")
def direction(token):
    def work(state, form, args):
        table.set_direction(state, bool(form.on.data))
    return act(token, ToggleForm(), "sins.direction",
               lambda f: N_("Most points win") if f.on.data else N_("Fewest points win"),
               work, scoring=True)


@bp.post("/t/<token>/sins/reserve")
def reserve(token):
    def work(state, form, args):
        table.save_reserve(state, form.player.data, form.counts(), form.stones.data or "", label)
        args["player"] = _name(state, form.player.data)
    return act(token, ReserveForm(), "sins.reserve", N_("%(player)s's reserve counted"),
               work, scoring=True)


@bp.post("/t/<token>/sins/quick")
def quick(token):
    def work(state, form, args):
        table.save_quick(state, form.player.data, form.points.data or "", form.cards.data or "", form.types.data or "")
        args["player"] = _name(state, form.player.data)
    return act(token, QuickForm(), "sins.quick", N_("%(player)s's total entered"),
               work, scoring=True)


@bp.post("/t/<token>/sins/stones")
def place_stones(token):
    def work(state, form, args):
        placed = table.place_stones(state, form.player.data, form.stones_on.data or [], label)
        args.update(player=_name(state, form.player.data), sins=sin_list(placed))
    return act(token, PlacementForm(), "sins.stones_on", N_("%(player)s put stones on %(sins)s"),
               work, scoring=True)


@bp.post("/t/<token>/sins/stones/best")
def best_stones(token):
    def work(state, form, args):
        table.best_stones(state, form.player.data)
        args["player"] = _name(state, form.player.data)
    return act(token, ForPlayerForm(), "sins.stones_on", N_("%(player)s's stones back on the best placement"),
               work, scoring=True)


@bp.post("/t/<token>/sins/finish")
def finish(token):
    def build(form, _t):
        change = Change("sins.finish", N_("Game over: %(winners)s won"), {})

        def mutate(doc):
            _state(doc)
            change.args["winners"] = ", ".join(table.finish(doc)["winners"])
        return change, mutate
    return perform(token, ActionForm(), build)


# -- the JSON API ----------------------------------------------------------------------------------

@api.post("/sins/score")
@json_endpoint
def score_api(payload):
    """POST /api/v1/sins/score: the final count of a game, with the best stone placements."""
    return checks.score_response(checks.read_score_request(payload), gettext)


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
