"""The action log on a real database (SQLite, and PostgreSQL when TEST_DATABASE_URL is set)."""
import threading

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select
from sqlalchemy.orm import Session

from companion.domain import Invalid, Problem
from companion.models import Action
from companion.tables import players, store
from companion.tables import undo as undoing
from companion.tables.store import Change

pytestmark = pytest.mark.both_databases  # the action log's storage and locking


@pytest.fixture
def session(app):
    s = Session(app.extensions["companion.engine"], expire_on_commit=False)
    yield s
    s.close()


def new_table(session, names=("Ana", "Bo")):
    return store.create(session, "sins", "T", players.make_players(list(names)), {"score": 0, "notes": {}})


def add(n):
    def mutate(doc):
        doc["state"]["game"]["score"] += n
    return Change("score.add", "%(n)s points", {"n": n}, relative=True), mutate


def set_score(n):
    def mutate(doc):
        doc["state"]["game"]["score"] = n
    return Change("score.set", "score set to %(n)s", {"n": n}), mutate


def set_note(key, value):
    def mutate(doc):
        doc["state"]["game"]["notes"][key] = value
    return Change("note.set", "note %(k)s", {"k": key}), mutate


def actions(session, table_id):
    return list(session.execute(select(Action).where(Action.table_id == table_id).order_by(Action.version)).scalars())


def test_a_change_is_logged_as_the_patch_that_takes_it_back(session):
    table = new_table(session)
    change, mutate = add(2)
    table = store.apply(session, table.id, 0, change, mutate)
    assert table.version == 1 and table.state["game"]["score"] == 2
    [action] = actions(session, table.id)
    assert action.version == 1 and action.args == {"n": 2}
    assert action.undo_patch == [{"op": "replace", "path": "/state/game/score", "value": 0}]


def test_a_change_that_changes_nothing_is_not_logged(session):
    table = new_table(session)
    table = store.apply(session, table.id, 0, Change("noop", "nothing"), lambda doc: None)
    assert table.version == 0 and actions(session, table.id) == []


def test_an_invalid_change_leaves_no_trace(session):
    table = new_table(session)

    def mutate(doc):
        doc["state"]["game"]["score"] = 99
        raise Invalid(Problem("score", "no"))

    with pytest.raises(Invalid):
        store.apply(session, table.id, 0, Change("bad", "bad"), mutate)
    fresh = store.by_token(session, table.token)[0]
    assert fresh.version == 0 and fresh.state["game"]["score"] == 0 and actions(session, table.id) == []


def test_a_stale_phone_is_refused_when_someone_changed_the_same_thing(session):
    table = new_table(session)
    store.apply(session, table.id, 0, *set_note("a", "first"))
    with pytest.raises(store.Conflict) as err:
        store.apply(session, table.id, 0, *set_note("a", "second"))
    assert err.value.table.state["game"]["notes"] == {"a": "first"}
    assert [a.summary for a in err.value.actions] == ["note %(k)s"]


def test_a_stale_phone_still_lands_when_the_changes_do_not_touch(session):
    table = new_table(session)
    store.apply(session, table.id, 0, *set_note("a", "x"))
    table = store.apply(session, table.id, 0, *set_note("b", "y"))
    assert table.state["game"]["notes"] == {"a": "x", "b": "y"} and table.version == 2


def test_increments_from_stale_phones_all_add_up(session):
    table = new_table(session)
    for _ in range(3):
        table = store.apply(session, table.id, 0, *add(1))
    assert table.state["game"]["score"] == 3


def test_a_phone_from_the_future_is_refused(session):
    table = new_table(session)
    with pytest.raises(store.Conflict):
        store.apply(session, table.id, 5, *add(1))


def test_undo_takes_back_the_newest_change_and_an_undo_redoes_it(session):
    table = new_table(session)
    with pytest.raises(store.NothingToUndo):  # nothing in the log yet
        undoing.undo(session, table.id, None)
    store.apply(session, table.id, None, *add(1))
    store.apply(session, table.id, None, *add(10))
    table, undone = undoing.undo(session, table.id, None)
    assert table.state["game"]["score"] == 1 and undone.args == {"n": 10}
    table, undone = undoing.undo(session, table.id, None)  # takes back the undo: the +10 again
    assert table.state["game"]["score"] == 11 and undone.kind == "undo"
    table, undone = undoing.undo(session, table.id, None)
    assert table.state["game"]["score"] == 1 and undone.kind == "redo"
    log = actions(session, table.id)
    assert [a.kind for a in log] == ["score.add", "score.add", "undo", "redo", "undo"]
    assert [a.summary for a in log[2:]] == ["Undo: %(what)s", "Redone: %(what)s", "Undo: %(what)s"]
    assert all(a.args["what"] == {"msg": "%(n)s points", "args": {"n": 10}} for a in log[2:])
    # What stands is what the document holds: the +1 and the first undo (the table is as it left it);
    # the +10 and the redo are struck through by the last undo.
    assert [a.undone_by for a in log] == [None, log[4].id, None, log[4].id, None]


def test_undo_refuses_when_the_latest_change_is_not_the_one_the_phone_saw(session):
    table = new_table(session)
    store.apply(session, table.id, None, *add(1))
    seen = store.latest_undoable(session, table.id).id
    store.apply(session, table.id, None, *add(5))  # another phone, meanwhile
    with pytest.raises(store.Conflict) as err:
        undoing.undo(session, table.id, seen)
    assert err.value.reason == "undo-moved"
    assert store.by_token(session, table.token)[0].state["game"]["score"] == 6


operations = st.lists(st.one_of(st.integers(min_value=1, max_value=9), st.just("undo")), max_size=12)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=operations)
def test_undo_takes_back_the_newest_change_whatever_it_is(session, ops):
    """Whatever mix of changes and undos, an undo returns the table to what it was just before the
    newest change (an undo included), and the log only grows."""
    table = new_table(session)
    scores = [0]  # the score at each version
    for op in ops:
        if op == "undo":
            if len(scores) == 1:
                with pytest.raises(store.NothingToUndo):
                    undoing.undo(session, table.id, None)
                continue
            table, _ = undoing.undo(session, table.id, None)
            scores.append(scores[-2])
        else:
            table = store.apply(session, table.id, None, *add(op))
            scores.append(scores[-1] + op)
        assert table.state["game"]["score"] == scores[-1]
    assert table.version == len(actions(session, table.id)) == len(scores) - 1


def run_in_threads(app, n, work):
    barrier = threading.Barrier(n)
    results = [None] * n

    def worker(i):
        s = Session(app.extensions["companion.engine"], expire_on_commit=False)
        try:
            barrier.wait()
            results[i] = work(s, i)
        except Exception as exc:  # collected and asserted on by the test
            results[i] = exc
        finally:
            s.close()

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    return results


def test_simultaneous_increments_from_several_phones_all_land(app, session):
    table = new_table(session)
    results = run_in_threads(app, 6, lambda s, i: store.apply(s, table.id, 0, *add(1)))
    assert all(not isinstance(r, Exception) for r in results), results
    fresh = store.by_token(session, table.token)[0]
    session.refresh(fresh)
    assert fresh.state["game"]["score"] == 6 and fresh.version == 6
    assert sorted(a.version for a in actions(session, table.id)) == [1, 2, 3, 4, 5, 6]


def test_simultaneous_writes_of_the_same_thing_let_one_land_and_tell_the_others(app, session):
    table = new_table(session)
    results = run_in_threads(app, 5, lambda s, i: store.apply(s, table.id, 0, *set_note("a", f"phone {i}")))
    landed = [r for r in results if not isinstance(r, Exception)]
    refused = [r for r in results if isinstance(r, store.Conflict)]
    assert len(landed) == 1 and len(refused) == 4, results
    session.expire_all()
    fresh = store.by_token(session, table.token)[0]
    assert fresh.state["game"]["notes"]["a"] == landed[0].state["game"]["notes"]["a"]
    assert len(actions(session, table.id)) == 1
