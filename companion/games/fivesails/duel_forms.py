"""The duel's web forms (a table's duel page and the standalone calculator) read as the JSON API's
body, by the same pure readers, with each problem named after the form's own field."""
from __future__ import annotations

from werkzeug.datastructures import MultiDict

from ...domain import N_, Invalid, Problem
from ...numbers import WAS, entry_value
from . import duel as d

SIDE_FIELDS = ("name", "duel_stat", "resolve", "wounds", "finesse")
NUMBER_FIELDS = ("duel_stat", "resolve", "wounds", "finesse")
ANSWERS = ("accept", "refuse", "intervene")


def number(form: MultiDict, name: str, default: str = "") -> str:
    """A number box of the duel forms (`m.number`): the box and its chips share the name, and the
    hidden `<name>.was` tells a tapped chip from a typed box without JavaScript (numbers.entry_value).
    A field not sent at all gives `default`; a box sent empty stays empty (the reader refuses it)."""
    if name not in form:
        return default
    return entry_value(form.getlist(name), form.get(name + WAS))


def _side(form: MultiDict, side: str) -> dict:
    return {f: number(form, f"{side}.{f}") if f in NUMBER_FIELDS else form.get(f"{side}.{f}", "")
            for f in SIDE_FIELDS}


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


def _setup_payload(form: MultiDict) -> tuple[dict, dict[str, str]]:
    """The duel set-up form as the API's JSON shape, and how to name its problems back to the form."""
    data = {side: _side(form, side) for side in d.SIDES}
    answer = form.get("answer", "accept")
    renames = {}
    if answer not in ANSWERS:
        raise Invalid(Problem("answer", N_("Choose accept, refuse or intervene.")))
    if answer == "intervene":
        target = data[d.DEFENDER]["name"]
        if not str(target).strip():
            raise Invalid(Problem("defender.name", N_("Enter the name of the character first challenged.")))
        data["intervened_for"] = target
        data[d.DEFENDER] = _side(form, "intervener")
        renames = {"defender": "intervener", "intervened_for": "defender.name"}
    data["technique_thrust"] = number(form, "technique_thrust", "0")
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
    data = {"card": {k: number(form, k, "0") for k in ("riposte", "parry", "thrust")},
            "lethal": bool(form.get("lethal")), "gambled": bool(form.get("gambled")),
            "adversary_absent": bool(form.get("adversary_absent"))}
    try:
        return d.read_round(data, "round")
    except Invalid as err:  # "round.card.thrust" -> "thrust", "round.gambled" -> "gambled"
        raise Invalid([Problem(p.field.rsplit(".", 1)[-1], p.message, p.params) for p in err.problems]) from None


def play_problems(err: Invalid) -> Invalid:
    """Errors from duel.play name "round.card" (a card was needed: a form-wide message) or
    "round.gambled" (the checkbox)."""
    out = []
    for p in err.problems:
        field = {"round.gambled": "gambled"}.get(p.field, "round")
        out.append(Problem(field, p.message, p.params))
    return Invalid(out)

