"""Sinful Gibbon: the table's pages (setup, the round, the counting table), their actions, and the
JSON API `POST /api/v1/gibbon/round`.

Every action stores inputs only (the round counts, the seat swap, the first dealer); the sins,
running totals, the end of the game and its result are derived from them with `rules` and `play`,
so a corrected round recomputes everything after it.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from flask import Blueprint, render_template, request
from flask_babel import gettext
from werkzeug.datastructures import MultiDict

from ...api import api, json_endpoint
from ...domain import N_, Invalid, Problem, Problems
from ...numbers import WAS, entry_value, parse_int
from ...tables.actions import action
from ...tables.live import Bound, open_table, view_for
from ...tables.store import PLAYING
from ...tables.game import SEATING
from ...tables.picture import draw
from . import chart, picture, play, rules
from .forms import RoundNumberForm, StartForm, SwapForm, TickForm, field_name, round_form

bp = Blueprint("gibbon", __name__)


def _pid(raw: str | None, field_: str, order: list[int], *, blank_ok: bool) -> int | None:
    """A player id from a form value ("" allowed when `blank_ok`)."""
    raw = (raw or "").strip()
    if not raw and blank_ok:
        return None
    if parse_int(raw) in order:
        return parse_int(raw)
    raise Invalid(Problem(field_, N_("Choose a player from the list.")))


# -- setup -----------------------------------------------------------------------------------------

@action(bp, "/t/<token>/gibbon/tick", form=TickForm, kind="gibbon.tick")
def tick(doc, form, said):
    step, done = form.step.data, bool(form.done.data)
    said(N_("Setup: %(step)s") if done else N_("Setup, not done yet: %(step)s"),
         step={"term": play.CHECKLIST_NAMES[step]})
    play.tick(doc["state"], step, done)


@action(bp, "/t/<token>/gibbon/start", form=StartForm, kind="gibbon.start",
        summary=N_("%(dealer)s deals the first round, %(bookkeeper)s keeps the books"))
def start(doc, form, said):
    state = doc["state"]
    order = play.seats(state)
    dealer = _pid(form.dealer.data, "dealer", order, blank_ok=True)
    bookkeeper = _pid(form.bookkeeper.data, "bookkeeper", order, blank_ok=True)
    play.start(state, dealer, bookkeeper)
    if doc["status"] == "setup":
        doc["status"] = PLAYING
    who = play.names(state)
    gs = play.game(state)
    said(dealer=who[gs["dealer"]], bookkeeper=who[gs["bookkeeper"]])


# -- rounds ----------------------------------------------------------------------------------------

def entry(values: MultiDict, name: str) -> str:
    """A number-entry field as `numbers.EntryField` reads it: the typed box first, else the chip."""
    return entry_value(values.getlist(name), values.get(name + WAS))


def _tallies_from_form(state: dict, values: MultiDict | None = None) -> dict[int, rules.Tally]:
    """The round's counts as typed, checked against the rules and the deck (raises Invalid)."""
    values = request.form if values is None else values
    order = play.seats(state)
    who = play.names(state)
    flags = {}
    for name in rules.FLAGS:
        flags[name] = _pid(values.get(name), name, order, blank_ok=True)
    rows = [{**{c: entry(values, field_name(pid, c)) for c in rules.COUNTS},
             "hat": flags["hat"] == pid, "braveheart": flags["braveheart"] == pid} for pid in order]
    tallies = rules.read_tallies(rows, lambda i, c: field_name(order[i], c), "counts",
                                 names=[who[pid] for pid in order], strict=False)
    return dict(zip(order, tallies))


def _round_form(token: str):
    """The round form of this table's players (one set of boxes per seat)."""
    table, _readonly = open_table(token, edit=True)
    return round_form([p["id"] for p in table.state["players"]])


# A round counted or corrected can end the game (1000 points): its outcome depends on the state.
@action(bp, "/t/<token>/gibbon/round", form=_round_form, kind="gibbon.round", summary=N_("Round %(n)d counted"),
        depends_on_state=True)
def record(doc, form, said):
    said(n=form.round.data)
    play.record_round(doc, form.round.data, _tallies_from_form(doc["state"]))


@dataclass
class Preview:
    """The round being entered, counted before it is saved."""

    number: int
    round: "RoundView | None"  # the counting table as it will look; None while something is missing
    problems: list[str]  # what stops it from being counted (blank boxes, counts the deck refuses)
    to_go: list[int]  # per column: points left before 1000 after this round
    ends: bool  # this round would end the game


def preview_of(state: dict, values: MultiDict) -> Preview:
    """Count the typed round without saving it: the same reading and checks as saving."""
    from flask_babel import gettext

    order = play.seats(state)
    who = play.names(state)
    number = len(play.game(state)["rounds"]) + 1
    blanks = [gettext("%(name)s, %(what)s: enter a number (0 if none).", name=who[pid], what=gettext(rules.COUNT_NAMES[c]))
              for c in rules.COUNTS for pid in order if not entry(values, field_name(pid, c))]
    if blanks:
        return Preview(number, None, blanks, [], False)
    try:
        tallies = _tallies_from_form(state, values)
    except Invalid as err:
        return Preview(number, None, [p.text(gettext) for p in err.problems], [], False)
    jobs = play.upcoming_jobs(state)
    sins = dict(zip(order, rules.count_sins([tallies[pid] for pid in order])))
    before = play.totals(state)
    totals = {pid: before.get(pid, 0) + sins[pid].total for pid in order}
    rnd = {"seats": order, "dealer": jobs.dealer if jobs else order[0],
           "bookkeeper": jobs.bookkeeper if jobs else order[0], "starter": jobs.starter if jobs else order[0],
           "tallies": play._store(tallies), "swap": None}
    view = _round_view(number, rnd, rules.RoundScore(number, sins, totals), who, True)
    return Preview(number, view, [], [max(0, rules.LIMIT - v) for v in view.totals], rules.is_over(totals))


@bp.get("/t/<token>/gibbon/round/preview")
def preview(token):
    """The live preview under the round form (htmx asks on every change; nothing is saved)."""
    table, readonly = open_table(token, edit=False)
    t = view_for(table, readonly, token, "round")
    state = t.state
    return render_template("gibbon/_preview.html", t=t, bound=Bound(), gib=build_view(state),
                           pv=preview_of(state, request.args), rules=rules, play=play, field_name=field_name)


def _keep_round(resp, _t=None):
    """Without JavaScript, come back to the round that was being edited, not the latest one."""
    number = request.form.get("round", "")
    if resp.status_code == 303 and parse_int(number) is not None:
        base, _sep, anchor = resp.headers["Location"].partition("#")
        resp.headers["Location"] = f"{base}?round={parse_int(number)}" + (f"#{anchor}" if anchor else "")
    return resp


@action(bp, "/t/<token>/gibbon/round/edit", form=_round_form, kind="gibbon.edit", summary=N_("Round %(n)d corrected"),
        depends_on_state=True, respond=_keep_round)
def edit(doc, form, said):
    said(n=form.round.data)
    play.edit_round(doc, form.round.data, _tallies_from_form(doc["state"]))


@action(bp, "/t/<token>/gibbon/round/remove", form=RoundNumberForm, kind="gibbon.remove",
        summary=N_("Round %(n)d removed"))
def remove(doc, form, said):
    said(n=form.round.data)
    play.remove_last_round(doc, form.round.data)


@action(bp, "/t/<token>/gibbon/swap", form=SwapForm, kind="gibbon.swap")
def swap(doc, form, said):
    keep = form.partner.data == "0"
    said(N_("%(chooser)s kept the seats as they were (house rule)") if keep
         else N_("%(chooser)s and %(partner)s swapped seats"))
    state = doc["state"]
    order = play.seats(state)
    chooser = _pid(form.chooser.data, "chooser", order, blank_ok=False)
    partner = None if keep else _pid(form.partner.data, "partner", order, blank_ok=False)
    play.swap(state, chooser, partner)
    who = play.names(state)
    said(chooser=who[chooser])
    if partner is not None:
        said(partner=who[partner])


# -- what the pages show ---------------------------------------------------------------------------

@dataclass
class RoundView:
    """One counted round as the rulebook's counting table: a row per sin, a column per player."""

    number: int
    columns: list[dict]  # {"id", "name"} in the seat order of that round
    rows: list[dict]  # {"sin", "name", "cells": [int | None ("immune")]}
    round_totals: list[int]
    totals: list[int]
    tallies: dict[int, rules.Tally]
    dealer: str
    bookkeeper: str
    starter: str
    braveheart: str | None
    hat: str | None
    swap: dict | None
    last: bool


@dataclass
class GibbonView:
    started: bool
    players: list[dict]
    names: dict[int, str]
    jobs: dict | None
    hand_size: int
    rounds: list[RoundView]
    next_number: int
    swap_pending: bool
    chooser: int | None
    over: bool
    result: dict | None
    standings: list
    chart: chart.Chart | None
    series: dict[int, int]
    selected: RoundView | None
    checklist: list[str]
    first_dealer: int | None
    first_bookkeeper: int | None
    drawn: bool  # the app drew the first dealer (Startup: at random), a rematch's included
    counts: tuple = rules.COUNTS
    chips: tuple = (0, 1, 2, 3, 4)  # one-tap values of the round form; more is typed
    count_max: dict = field(default_factory=lambda: dict(rules.COUNT_MAX))


def _round_view(number: int, rnd: dict, score: rules.RoundScore, who: dict[int, str], last: bool) -> RoundView:
    order = [pid for pid in rnd["seats"] if pid in score.sins]
    rows = []
    for sin in rules.SINS:
        cells = []
        for pid in order:
            s = score.sins[pid]
            cells.append(None if (sin in rules.HEART_SINS and s.immune) else getattr(s, sin))
        rows.append({"sin": sin, "name": rules.SIN_NAMES[sin], "cells": cells})
    tallies = play.tallies_of(rnd)
    bh = play.braveheart_of(rnd)
    hat = next((pid for pid, t in tallies.items() if t.hat), None)
    return RoundView(
        number=number, columns=[{"id": pid, "name": who.get(pid, "?")} for pid in order], rows=rows,
        round_totals=[score.sins[pid].total for pid in order], totals=[score.totals[pid] for pid in order],
        tallies=tallies, dealer=who.get(rnd["dealer"], "?"), bookkeeper=who.get(rnd["bookkeeper"], "?"),
        starter=who.get(rnd.get("starter"), "?"), braveheart=who.get(bh) if bh else None,
        hat=who.get(hat) if hat else None, swap=rnd.get("swap"), last=last)


def build_view(state: dict, selected: int | None = None) -> GibbonView:
    gs = play.game(state)
    who = play.names(state)
    order = play.seats(state)
    found = play.scores(state)
    rounds = [_round_view(i + 1, r, s, who, i + 1 == len(found)) for i, (r, s) in enumerate(zip(gs["rounds"], found))]
    jobs = play.upcoming_jobs(state)
    over = bool(found) and rules.is_over(found[-1].totals)
    res = None
    if over:
        r = rules.result(found[-1].totals)
        res = {"winners": [{"name": who[p], "points": found[-1].totals[p]} for p in r.winners],
               "losers": [{"name": who[p], "points": found[-1].totals[p]} for p in r.losers]}
    colour_order = sorted(order)
    if selected is None or not 1 <= selected <= len(rounds):
        selected = len(rounds)
    return GibbonView(
        started=play.started(state), players=state["players"], names=who,
        jobs=None if jobs is None else {
            "dealer": who[jobs.dealer], "bookkeeper": who[jobs.bookkeeper], "starter": who[jobs.starter],
            "braveheart_starts": jobs.braveheart_starts},
        hand_size=rules.hand_size(len(order)), rounds=rounds, next_number=len(rounds) + 1,
        swap_pending=play.swap_pending(state), chooser=play.swap_chooser(state), over=over, result=res,
        standings=play.standings(state),
        chart=chart.running_chart(order, colour_order, [s.totals for s in found],
                                  {p["id"]: p.get("colour") for p in state["players"]}),
        series={pid: colour_order.index(pid) % 7 + 1 for pid in order},
        selected=rounds[selected - 1] if rounds else None, checklist=list(gs["checklist"]),
        first_dealer=gs["dealer"], first_bookkeeper=gs["bookkeeper"], drawn=bool(gs.get("drawn")),
    )


def context(slug: str, table, state: dict) -> dict:
    raw = request.values.get("round", "")
    selected = parse_int(raw, max_digits=4)
    pic = draw(picture.picture(state, SEATING["gibbon"].clockwise), gettext) if slug == "setup" else None
    return {"gib": build_view(state, selected), "rules": rules, "play": play, "field_name": field_name, "pic": pic}


def default_page(status: str, state: dict) -> str:
    return {"setup": "setup", "playing": "round", "finished": "counting"}.get(status, "round")


# -- JSON API --------------------------------------------------------------------------------------

@api.post("/gibbon/round")
@json_endpoint
def api_round(payload: dict):
    """One round's sins per player, in input order: the bookkeeper's counting table as JSON."""
    problems = Problems()
    for key in sorted(k for k in payload if k != "players")[:5]:
        problems.add(str(key)[:40], N_("Unknown field."))
    problems.raise_if_any()
    names, rows = rules.read_players(payload.get("players"))
    tallies = rules.read_tallies(rows, lambda i, c: f"players.{i}.{c}", "players", names=names, strict=True)
    # "immune": the sins the Braveheart is spared (their 0 is immunity, not a count of zero).
    return {"players": [{"name": n, **s.as_dict(), "immune": list(rules.HEART_SINS) if s.immune else []}
                        for n, s in zip(names, rules.count_sins(tallies))]}

