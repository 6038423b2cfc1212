"""The City of Five Sails tools outside a table: the standalone duel calculator (the duel travels in
the page and its address, nothing is stored), the deck check, and the duel JSON API."""
from __future__ import annotations

import base64
import json

from flask import make_response, redirect, render_template, request, url_for
from flask_babel import gettext as _
from werkzeug.datastructures import MultiDict

from ...api import api, json_endpoint
from ...domain import N_, Invalid, Problem
from ...tables.live import Bound
from ...web import wants_fragment
from . import decks, duel as d, rules
from .blueprint import bp
from .duel_forms import play_problems, read_round_form, read_setup_form
from .forms import CalculatorForm, DeckForm
from .pages import duel_context

# -- the standalone duel calculator ------------------------------------------------------------------

CALC_ID = "duel-calc"
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
    ctx = dict(duel_context(duel, preview), state=state, bound=bound or Bound(), D=d, R=rules, link=link)
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
            return _calc_render(None, [], bound=Bound("calc-setup", MultiDict(), {},
                                                           [p.text(_) for p in err.problems]), status=422)
        return _calc_render(setup, rounds)
    form = CalculatorForm()
    action = request.form.get("action", "")
    if action == "play" and request.form.get("play") == "preview":
        action = "preview"
    key = request.form.get("form_key") or ("calc-setup" if action == "start" else "calc-round")
    if not form.validate():
        return _calc_render(None, [], bound=Bound(key, request.form.copy(), {}, [_("This page was out of date. "
                                                                                "Reload it and try again.")]),
                            status=400)
    try:
        setup, rounds = _calc_state(form.duel.data or "")
    except Invalid as err:
        return _calc_render(None, [], bound=Bound("calc-setup", MultiDict(), {}, [p.text(_) for p in err.problems]),
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
                raise play_problems(err) from None
            if action == "preview":
                return _calc_render(setup, rounds, bound=Bound(key, request.form.copy()), preview=after)
            return _calc_saved(setup, rounds + [rnd])
    except Invalid as err:
        errors = err.as_dict(_)
        return _calc_render(setup if action != "start" else None, rounds if action != "start" else [],
                            bound=Bound(key, request.form.copy(), errors, error_summary(errors)), status=422)
    return _calc_render(setup, rounds, bound=Bound(key, request.form.copy(), {}, [_("Choose what to do.")]),
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
