"""City of Five Sails table actions through the one door (tables/actions.py): each declared once with
its route, log kind and what kind of change it is; a wound that can destroy the Leader is judged on
what the phone saw; the log says what a Leader's button did."""
from __future__ import annotations

import pytest

from companion.db import get_session
from companion.i18n import render_message
from companion.models import Action
from companion.tables.actions import declared

WOUNDS = "wounds is relative unless it can destroy the Leader"

# endpoint: (rule, kind, relative, depends_on_state)
EXPECTED = {
    "tick": ("/t/<token>/fivesails/setup/tick", "setup.tick", False, False),
    "line": ("/t/<token>/fivesails/setup/line", "setup.line", False, False),
    "start": ("/t/<token>/fivesails/start", "start", False, True),
    "next_step": ("/t/<token>/fivesails/day/next", "day.next", False, True),
    "jump": ("/t/<token>/fivesails/day/jump", "day.jump", False, True),
    "initiative": ("/t/<token>/fivesails/initiative", "initiative", False, True),
    "renown": ("/t/<token>/fivesails/renown", "renown", True, True),
    "influence": ("/t/<token>/fivesails/influence", "influence", True, False),
    "control": ("/t/<token>/fivesails/control", "control", False, False),
    "wounds": ("/t/<token>/fivesails/wounds", "wounds", WOUNDS, True),
    "leader_resolve": ("/t/<token>/fivesails/resolve", "leader.resolve", False, True),
    "leader": ("/t/<token>/fivesails/leader", "leader.destroyed|leader.back", False, True),
    "duel_start": ("/t/<token>/fivesails/duel/start", "duel.start", False, True),
    "duel_round": ("/t/<token>/fivesails/duel/round", "duel.round", False, True),
    "duel_takeback": ("/t/<token>/fivesails/duel/takeback", "duel.takeback", False, True),
    "duel_close": ("/t/<token>/fivesails/duel/close", "duel.close", False, True),
}


class _Form:
    """Enough of the Leader form for a kind that is a function of it."""

    def __init__(self, destroyed):
        self.destroyed = type("Field", (), {"data": destroyed})()


def test_every_table_action_is_declared_once_with_its_kind(app):
    found = {k.split(".", 1)[1]: v for k, v in declared().items() if k.startswith("fivesails.")}
    assert set(found) == set(EXPECTED)
    for endpoint, (rule, kind, relative, depends) in EXPECTED.items():
        spec = found[endpoint]
        got = WOUNDS if callable(spec.relative) else spec.relative
        spec_kind = "|".join(spec.kind(_Form(destroyed)) for destroyed in (1, 0)) if callable(spec.kind) else spec.kind
        assert (spec.rule, spec_kind, got, spec.depends_on_state) == (rule, kind, relative, depends), endpoint
    routed = {r.endpoint: r.rule for r in app.url_map.iter_rules() if r.endpoint.startswith("fivesails.")}
    assert {f"fivesails.{e}": r for e, (r, *_rest) in EXPECTED.items()}.items() <= routed.items()


@pytest.fixture
def table(tables):
    token = tables.create("fivesails", names=("Ana", "Bo", "Cy"))
    assert tables.post(token, "fivesails/start").status_code == 200
    for _ in range(5):
        tables.post(token, "fivesails/renown", {"player": 1, "delta": 1})
    return token


def ana(tables, token) -> dict:
    return tables.table(token).state["game"]["players"]["1"]


def latest(app, tables, token) -> Action:
    with app.app_context():
        return (get_session().query(Action).filter_by(table_id=tables.table(token).id)
                .order_by(Action.version.desc()).first())


def said(app, action: Action) -> str:
    with app.test_request_context():
        return render_message(action.summary, action.args)


def test_wounds_from_two_phones_add_up(tables, table):
    tables.post(table, "fivesails/resolve", {"player": 1, "resolve": 5})
    seen = tables.version(table)
    assert tables.post(table, "fivesails/wounds", {"player": 1, "delta": 1}).status_code == 200
    assert tables.post(table, "fivesails/wounds", {"player": 1, "delta": 1}, version=seen).status_code == 200
    assert ana(tables, table)["leader_wounds"] == 2


def test_a_wound_that_would_destroy_the_leader_is_refused_on_a_stale_view(tables, table):
    tables.post(table, "fivesails/resolve", {"player": 1, "resolve": 2})
    seen = tables.version(table)
    assert tables.post(table, "fivesails/wounds", {"player": 1, "delta": 1}).status_code == 200
    resp = tables.post(table, "fivesails/wounds", {"player": 1, "delta": 1}, version=seen)
    assert resp.status_code == 409
    assert ana(tables, table)["leader_wounds"] == 1 and not ana(tables, table)["leader_destroyed"]
    # Seen fresh, the same tap destroys the Leader, in the words of the log.
    assert tables.post(table, "fivesails/wounds", {"player": 1, "delta": 1}).status_code == 200
    assert ana(tables, table)["leader_destroyed"]


def test_a_leader_destroyed_and_put_back_in_the_log(app, tables, table):
    assert tables.post(table, "fivesails/leader", {"player": 1, "destroyed": 1}, page="players").status_code == 200
    action = latest(app, tables, table)
    assert action.kind == "leader.destroyed" and action.args["fallen"] == ["1"]
    assert said(app, action) == "Ana's Leader destroyed (3 Renown lost)"
    assert tables.post(table, "fivesails/leader", {"player": 1, "destroyed": 0}, page="players").status_code == 200
    action = latest(app, tables, table)
    assert action.kind == "leader.back" and said(app, action) == "Ana's Leader back in play (3 Renown back)"
    assert not ana(tables, table)["leader_destroyed"] and ana(tables, table)["renown"] == 5
    resp = tables.post(table, "fivesails/leader", {"player": 1, "destroyed": 0}, page="players")
    assert resp.status_code == 422 and latest(app, tables, table).id == action.id


def test_the_tracker_reaching_resolve_says_both_in_one_line(app, tables, table):
    tables.post(table, "fivesails/resolve", {"player": 1, "resolve": 1})
    assert tables.post(table, "fivesails/wounds", {"player": 1, "delta": 1}).status_code == 200
    action = latest(app, tables, table)
    assert action.kind == "wounds" and action.args["fallen"] == ["1"]
    assert said(app, action) == "Ana's Leader, wounds now 1. Ana's Leader destroyed (3 Renown lost)"
