"""A stale tap whose effect depends on the state is judged on what the phone saw (issue 26).

The scenario from the issue (7 - The Sins, Penitenziagite, the third Last Judgment from a phone
that still shows "1 / 3"), then a property over every declared action of the four games: at each
stage of a game, each form on each page is sent fresh once (what it does on the view the phone
saw), taken back, and then sent again from a stale view, after another phone either did the same
tap or changed something unrelated. A state-dependent action from the stale view is refused or
does exactly what it did on the view the phone saw; a relative one that does not depend on the
state lands. The effect is read with the test's own diff, sharing no code with the store.
"""
from __future__ import annotations

import itertools

import pytest
from werkzeug.datastructures import MultiDict

from tests.conftest import HX, Tables, text_of
from tests.web.test_fuzz import GAMES, STAGES, forms_of, pages_of
from tests.web.test_sins_pages import Sins

# The scenarios run on both databases (a stale tap judged under each one's lock); the property loop
# at the end runs on SQLite: the database takes part in it only by storing what the actions write,
# which both take alike (tests/web/test_stored_values.py, docs/testing.md).

NAMES = ("Ana", "Bo", "Cy", "Di")
DRAWS = ("sins.draw_sins",)  # state-dependent actions that draw at random


@pytest.mark.both_databases
def test_a_stale_third_last_judgment_is_refused_with_the_fresh_table(tables):
    """Phone A passes the turn and reveals the second card; phone B, still on "1 of 3", taps +."""
    pen = Sins(tables, names=NAMES).ready(penitenziagite=True)
    assert pen.post("judgment", {"delta": 1}, page="play").status_code == 200
    seen_by_b = tables.version(pen.token)
    assert pen.post("turn", page="play").status_code == 200            # A: "Ana is done"
    assert pen.post("judgment", {"delta": 1}, page="play").status_code == 200   # A: 2 of 3
    resp = pen.post("judgment", {"delta": 1}, page="play", version=seen_by_b, form_key="sins-judgment")
    assert resp.status_code == 409
    assert "The table changed on another phone" in text_of(resp)
    assert pen.gs["judgments"] == 2 and pen.gs.get("third_on") is None
    assert pen.doc.status == "playing"


@pytest.mark.both_databases
def test_a_stale_judgment_with_the_same_outcome_lands(tables):
    """B missed a turn passing, which does not change what its first card does: it lands."""
    pen = Sins(tables, names=NAMES).ready(penitenziagite=True)
    seen_by_b = tables.version(pen.token)
    assert pen.post("turn", page="play").status_code == 200
    assert pen.post("judgment", {"delta": 1}, page="play", version=seen_by_b).status_code == 200
    assert pen.gs["judgments"] == 1


@pytest.mark.both_databases
def test_a_stale_stone_from_an_emptied_supply_is_a_conflict_not_an_error(tables):
    sins = Sins(tables, names=NAMES).ready()
    seen = tables.version(sins.token)
    taken = 0
    while sins.post("stone", {"player": 1, "delta": 1}, page="play").status_code == 200:
        taken += 1
        assert taken < 50
    resp = sins.post("stone", {"player": 2, "delta": 1}, page="play", version=seen)
    assert resp.status_code == 409


@pytest.mark.both_databases
def test_a_stale_relative_tap_that_does_not_depend_on_the_state_lands(tables):
    token = tables.create("fivesails", names=("Ana", "Bo", "Cy"))
    seen = tables.version(token)
    assert tables.post(token, "fivesails/influence", {"player": 1, "delta": 1}).status_code == 200
    assert tables.post(token, "fivesails/influence", {"player": 1, "delta": 1}, version=seen).status_code == 200
    assert tables.version(token) == seen + 2  # both taps counted


# -- the property, over every declared action ----------------------------------------------------

MISSING = object()


def effect(before, after, path=()):
    """The test's own reading of what a change did: path -> ("by", delta) for a number moved,
    ("set", value) for anything else written."""
    if isinstance(before, dict) and isinstance(after, dict):
        out = {}
        for key in set(before) | set(after):
            out.update(effect(before.get(key, MISSING), after.get(key, MISSING), path + (key,)))
        return out
    if isinstance(before, list) and isinstance(after, list) and len(before) == len(after):
        out = {}
        for i, (b, a) in enumerate(zip(before, after)):
            out.update(effect(b, a, path + (i,)))
        return out
    if before == after and type(before) is type(after):
        return {}
    before = 0 if before is MISSING else before  # a count the document leaves out is 0
    after = 0 if after is MISSING else after
    numbers = all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in (before, after))
    return {path: ("by", after - before) if numbers else ("set", repr(after))}


def document(tables, token):
    t = tables.table(token)
    return {"name": t.name, "status": t.status, "state": t.state, "result": t.result}


_sid = itertools.count()


def send(tables, action, fields, version):
    body = MultiDict([(n, v) for n, v in fields if n not in ("v", "sid")])
    body.add("v", str(version))
    body.add("sid", f"property-{next(_sid)}")
    return tables.client.post(action, data=body, headers=HX)


def back_to(tables, token, version):
    """Take the table back to `version` through "undo back to here" (the stage stays as it was)."""
    from companion.db import get_session
    from companion.models import Action
    from sqlalchemy import select

    with tables.app.app_context():
        action_id = get_session().execute(select(Action.id).where(
            Action.table_id == tables.table(token).id, Action.version == version)).scalar_one()
    resp = tables.post(token, "history/back-to", {"action": action_id}, htmx=False)
    assert resp.status_code == 303, text_of(resp)[:300]


def taps(fields):
    """The taps a form offers: one per button where several share a name (-1 / +1), as a tap on
    that button sends it."""
    values: dict[str, list[str]] = {}
    for name, value in fields:
        values.setdefault(name, []).append(value)
    split = [n for n, vs in values.items() if n not in ("v", "sid") and len(set(vs)) > 1 and all(vs)]
    if not split:
        return [fields]
    name = split[0]
    return [[(n, v) for n, v in fields if n != name] + [(name, one)] for one in dict.fromkeys(values[name])]


def declared_by_url(app):
    from companion.tables.actions import declared

    adapter = app.url_map.bind("companion.test")
    specs = declared()

    def spec(action):
        try:
            endpoint, _args = adapter.match(action, method="POST")
        except Exception:  # noqa: BLE001 - not a route at all: not an action
            return None
        return specs.get(endpoint)
    return spec


@pytest.mark.parametrize("game", list(GAMES))
def test_a_stale_tap_is_judged_on_what_the_phone_saw(app, client, game):
    tables = Tables(app, client)
    token = tables.create(game, names=GAMES[game])
    assert tables.post(token, "rename", {"name": "Stage 0"}).status_code == 200  # a change to go back to
    spec_of = declared_by_url(app)
    helper, _names = STAGES[game]
    exercised: dict[str, set] = {"dependent": set(), "relative": set()}
    for stage in helper(tables, token):
        if tables.version(token) == 0:
            assert tables.post(token, "rename", {"name": "Stage"}).status_code == 200
        found = {}
        for url in pages_of(game, token):
            for action, fields in forms_of(client.get(url).get_data(as_text=True)):
                spec = spec_of(action)
                if spec is not None and (spec.depends_on_state or spec.relative is True):
                    for tap in taps(fields):
                        found.setdefault((action, tuple(tap)), tap)
        for (action, _shape), fields in found.items():
            spec = spec_of(action)
            v0 = tables.version(token)
            before = document(tables, token)
            fresh = send(tables, action, fields, v0)
            if fresh.status_code != 200 or tables.version(token) == v0:
                continue  # the form as shown does nothing here (e.g. a box left empty)
            meant = effect(before, document(tables, token))
            back_to(tables, token, v0)
            for other in ("same tap", "unrelated change"):
                v1 = tables.version(token)
                if other == "same tap":
                    assert send(tables, action, fields, v1).status_code == 200
                else:
                    assert tables.post(token, "rename", {"name": f"Other {v1}"}).status_code == 200
                landed_on = document(tables, token)
                v2 = tables.version(token)
                stale = send(tables, action, fields, v1)
                applied = tables.version(token) != v2
                did = effect(landed_on, document(tables, token))
                what = (game, stage.name, action, other, stale.status_code)
                if spec.depends_on_state:
                    exercised["dependent"].add(spec.endpoint)
                    # Refused (a conflict, with the fresh table), or exactly what it did on its view.
                    assert stale.status_code in (200, 409, 422), what
                    if applied and spec.endpoint in DRAWS:  # where it wrote, not what it drew: a
                        # new draw may match the old one at some places, so compare the lists written
                        assert {p[:-1] for p in did} == {p[:-1] for p in meant}, what
                    elif applied:
                        assert did == meant, what
                    if stale.status_code == 409:
                        assert "The table changed on another phone" in text_of(stale), what
                else:
                    exercised["relative"].add(spec.endpoint)
                    assert stale.status_code in (200, 422), what  # never a conflict
                    if other == "unrelated change":
                        assert stale.status_code == 200 and applied and did == meant, what
                # Back to the view at v0, unless nothing stands after it: a random draw can draw
                # the sins already in play (1 in 7), and then neither phone's tap changed anything.
                if document(tables, token) != before:
                    back_to(tables, token, v0)
    assert exercised["dependent"], "no state-dependent action was reached"
    print(game, {k: sorted(v) for k, v in exercised.items()})
