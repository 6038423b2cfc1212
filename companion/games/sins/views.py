"""7 - The Sins: the table's pages (setup, play, score), their actions, and the scoring API.

Each action is declared once (tables/actions.py): it reads its form and lets table.py change the
document, which checks everything and names the field of any problem.
"""
from __future__ import annotations

from flask import Blueprint, url_for
from flask_babel import gettext

from ...api import api, json_endpoint
from ...domain import N_
from ...tables import store
from ...tables.actions import action
from ...tables.game import SEATING
from ...tables.picture import draw
from . import checks, picture, readings, rules, table
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
        return {"msg": N_("no sin type")}
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


def sins_action(rule: str, form, kind: str, *, scoring: bool = False, **declared):
    """Declare a 7 Sins action (tables/actions.py) whose `run(state, form, said)` gets the table's
    state, made whole first (table.ensure). A `scoring` change on a finished table also brings its
    recorded result up to date."""
    def declare(run):
        def whole(doc, form, said):
            run(_state(doc), form, said)
            if scoring:
                table.refresh_result(doc)
        whole.__name__, whole.__doc__ = run.__name__, run.__doc__
        action(bp, rule, form=form, kind=kind, **declared)(whole)
        return run
    return declare


# Relative (increments: taps from two phones add up): the Last Judgment counter and the Stones of
# Forgiveness. Their outcome depends on the state they land on (depends_on_state): the third
# Last Judgment ends the game and ties it to a turn; a stone comes from a supply that runs out.
# So does passing the turn: who plays next follows from who has played.

# -- setup -----------------------------------------------------------------------------------------

@sins_action("/t/<token>/sins/sins", SinChoiceForm, "sins.choose", summary=N_("Sin types in play: %(sins)s"))
def choose_sins(state, form, said):
    said(sins=sin_list(table.choose_sins(state, form.sin.data or [])))


@sins_action("/t/<token>/sins/sins/draw", ActionForm, "sins.draw", summary=N_("Sin types drawn at random: %(sins)s"),
             depends_on_state=True)  # a stale draw would replace the draw another phone made
def draw_sins(state, form, said):
    said(sins=sin_list(table.draw_sins(state)))


@sins_action("/t/<token>/sins/tick", StepForm, "sins.tick")
def tick(state, form, said):
    table.tick(state, form.step.data, bool(form.done.data))
    said(N_("Setup ticked: %(step)s") if form.done.data else N_("Setup unticked: %(step)s"),
         step={"term": STEP_NAMES[form.step.data]})


@sins_action("/t/<token>/sins/penitenziagite", ToggleForm, "sins.penitenziagite")
def penitenziagite(state, form, said):
    table.set_penitenziagite(state, bool(form.on.data))
    said(N_("Penitenziagite on") if form.on.data else N_("Penitenziagite off"))


@sins_action("/t/<token>/sins/first", PickPlayerForm, "sins.first", summary=N_("%(player)s plays first"))
def first_player(state, form, said):
    table.set_first(state, form.player.data)
    said(player=_name(state, form.player.data))


@sins_action("/t/<token>/sins/first/draw", ActionForm, "sins.first", summary=N_("%(player)s was drawn to play first"))
def draw_first(state, form, said):
    said(player=_name(state, table.draw_first(state)))


def _start_page(tbl) -> str | None:
    """A table that can start lands on the tracker; one that cannot stays on setup to see why."""
    return None if table.start_problems(tbl.state) else "play"


def _push_play(resp, t):
    if resp.status_code == 200 and t.page.slug == "play":
        resp.headers["HX-Push-Url"] = url_for("tables.page", token=t.tok, slug="play")
    return resp


@action(bp, "/t/<token>/sins/start", form=ActionForm, kind="sins.start", summary=N_("The game started"),
        page=_start_page, respond=_push_play)
def start(doc, form, said):
    table.start(_state(doc))
    doc["status"] = store.PLAYING


# -- during play -----------------------------------------------------------------------------------

@sins_action("/t/<token>/sins/turn", ActionForm, "sins.turn", summary=N_("Turn passed to %(player)s"),
             depends_on_state=True)
def next_turn(state, form, said):
    pid = table.next_turn(state)
    done = state["game"].get("round_done")
    said(player={"msg": N_("nobody: the round is over")} if done else _name(state, pid))


@sins_action("/t/<token>/sins/judgment", JudgmentForm, "sins.judgment", relative=lambda form: form.on.data is None,
             depends_on_state=True)
def judgment(state, form, said):
    """Revealing cards adds up from any phone (relative); the limit of three is checked on the fresh
    table. The third card tied to a turn (`on`) is absolute: it depends on where the tracker was when
    the phone looked (a "done" tapped on another phone since then is a conflict)."""
    n = table.add_judgment(state, form.delta.data, form.on.data)
    if form.on.data is not None:
        said(N_("The third Last Judgment came out on %(player)s's turn"), n=n, player=_name(state, form.on.data))
    else:
        said(N_("Last Judgment revealed (%(n)d of 3)") if form.delta.data > 0
             else N_("Last Judgment taken back (%(n)d of 3)"), n=n)


@sins_action("/t/<token>/sins/third", PickPlayerForm, "sins.third",
             summary=N_("The third Last Judgment came out on %(player)s's turn"), depends_on_state=True)
def third_on(state, form, said):
    """Who still plays after the corrected turn depends on who has tapped "done" since the card:
    from a phone that missed a "done", the correction lands only if it does the same there."""
    table.set_third_on(state, form.player.data)
    said(player=_name(state, form.player.data))


@sins_action("/t/<token>/sins/stone", StoneForm, "sins.stone", scoring=True, relative=True, depends_on_state=True)
def stone(state, form, said):
    """Taking a stone is an increment: two phones taking one each take two, while the supply lasts."""
    table.take_stone(state, form.player.data, form.delta.data)
    said(N_("%(player)s took a Stone of Forgiveness") if form.delta.data > 0
         else N_("%(player)s gave a Stone of Forgiveness back"), player=_name(state, form.player.data))


# -- scoring ---------------------------------------------------------------------------------------

@sins_action("/t/<token>/sins/mode", ModeForm, "sins.mode", scoring=True)
def mode(state, form, said):
    table.set_mode(state, form.mode.data)
    said(N_("Scoring with totals only") if form.mode.data == "quick" else N_("Scoring by sin type"))


@sins_action("/t/<token>/sins/abyss", AbyssForm, "sins.abyss", scoring=True,
             summary=N_("Abyss of Souls counted: it scores %(points)d"))
def abyss(state, form, said):
    table.save_abyss(state, form.counts(), label)
    said(points=table.abyss_value(table.score_state(state["game"])))


@sins_action("/t/<token>/sins/abyss/total", AbyssTotalForm, "sins.abyss", scoring=True,
             summary=N_("Abyss of Souls total entered: it scores %(points)d"))
def abyss_total(state, form, said):
    said(points=table.save_abyss_total(state, form.points.data or ""))


@sins_action("/t/<token>/sins/direction", ToggleForm, "sins.direction", scoring=True)
def direction(state, form, said):
    table.set_direction(state, bool(form.on.data))
    said(N_("Most points win") if form.on.data else N_("Fewest points win"))


@sins_action("/t/<token>/sins/reserve", ReserveForm, "sins.reserve", scoring=True,
             summary=N_("%(player)s's reserve counted"))
def reserve(state, form, said):
    table.save_reserve(state, form.player.data, form.counts(), form.stones.data or "", label)
    said(player=_name(state, form.player.data))


@sins_action("/t/<token>/sins/quick", QuickForm, "sins.quick", scoring=True, summary=N_("%(player)s's total entered"))
def quick(state, form, said):
    table.save_quick(state, form.player.data, form.points.data or "", form.cards.data or "", form.types.data or "")
    said(player=_name(state, form.player.data))


@sins_action("/t/<token>/sins/stones", PlacementForm, "sins.stones_on", scoring=True,
             summary=N_("%(player)s put stones on %(sins)s"))
def place_stones(state, form, said):
    placed = table.place_stones(state, form.player.data, form.stones_on.data or [], label)
    said(player=_name(state, form.player.data), sins=sin_list(placed))


@sins_action("/t/<token>/sins/stones/best", ForPlayerForm, "sins.stones_on", scoring=True,
             summary=N_("%(player)s's stones back on the best placement"))
def best_stones(state, form, said):
    table.best_stones(state, form.player.data)
    said(player=_name(state, form.player.data))


@action(bp, "/t/<token>/sins/finish", form=ActionForm, kind="sins.finish", summary=N_("Game over: %(winners)s won"),
        depends_on_state=True)
def finish(doc, form, said):
    _state(doc)
    said(winners=", ".join(table.finish(doc)["winners"]))


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

    sv = build(slug, tbl, state)
    pic = None
    if slug == "setup" and sv.counts:
        pic = draw(picture.picture(sv.players, sv.counts, sv.sins, sv.penitenziagite,
                                   sv.first["id"] if sv.first else None, sv.done, SEATING["sins"].clockwise), gettext)
    return {"sv": sv, "SINS": rules.SINS, "SIN_NAMES": rules.SIN_NAMES, "pic": pic,
            "STEP_NAMES": STEP_NAMES, "DECIDED_BY": rules.DECIDED_BY, "READINGS": readings.READINGS}
