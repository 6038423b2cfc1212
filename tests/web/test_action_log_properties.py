"""Random interleavings of two phones with stale views, over every game's real table document.

Each example starts from a real table of one game (made through the new-table form), then two
phones act in a random order: absolute sets and relative increments on the document's own values,
undos, "undo back to here", and looking at the fresh page (or not). An oracle that shares no code
with the store says what must happen:

- an absolute change from a phone that missed a change to an overlapping value is refused with a
  conflict; anything else lands (increments always land);
- the table always equals the oracle's document, so every acknowledged change is in it, and no
  acknowledged change was overwritten by a phone that had not seen it;
- an undo takes back the newest change, whatever it is (an undo too: Undo twice returns the table
  to exactly where it was before the first), restoring exactly the document before it; "undo back
  to here" restores exactly the document at that change, and undoing those brings back exactly
  what they removed;
- the log is append-only: every step adds its one action at the end and no earlier entry changes
  (what it did, its words, its patch); only the strike-through follows what stands.
"""
from __future__ import annotations

import copy

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy.orm import Session

from companion.tables import store
from companion.tables import undo as undoing
from companion.tables.store import Change

pytestmark = pytest.mark.both_databases  # the action log's patches over every game's stored document

GAMES = {"sins": ("Ana", "Bo", "Cy"), "gibbon": ("Ana", "Bo", "Cy", "Di"), "fivesails": ("Ana", "Bo", "Cy"),
         "others": ("Ana", "Bo", "Cy")}


def leaves(doc, prefix=()):
    """(path, value) of every number and string in a document, as tuples of keys."""
    if isinstance(doc, dict):
        for k in sorted(doc):
            yield from leaves(doc[k], prefix + (k,))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            yield from leaves(v, prefix + (i,))
    elif isinstance(doc, (int, str)) and not isinstance(doc, bool):
        yield prefix, doc


def get(doc, path):
    for k in path:
        doc = doc[k]
    return doc


def put(doc, path, value):
    get(doc, path[:-1])[path[-1]] = value


def written(a: dict, b: dict, prefix=()) -> set[tuple]:
    """The oracle's own diff: the paths whose value differs between two documents."""
    if isinstance(a, dict) and isinstance(b, dict):
        out = set()
        for k in set(a) | set(b):
            if k not in a or k not in b:
                out.add(prefix + (k,))
            else:
                out |= written(a[k], b[k], prefix + (k,))
        return out
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return set().union(*(written(x, y, prefix + (i,)) for i, (x, y) in enumerate(zip(a, b))))
    return set() if a == b else {prefix}


def overlap(a: set[tuple], b: set[tuple]) -> bool:
    return any(x[:len(y)] == y or y[:len(x)] == x for x in a for y in b)


step = st.tuples(
    st.integers(0, 1),  # which phone
    st.sampled_from(["set", "set", "inc", "inc", "look", "undo", "back"]),
    st.integers(0, 10**6),  # which value / which earlier change
    st.integers(-3, 3),  # what to set or add
)


class Oracle:
    """The table as the two phones should find it, replayed without the store."""

    def __init__(self, doc):
        self.docs = {0: copy.deepcopy(doc)}  # the document at each version
        self.wrote = {}  # version -> paths that change wrote
        self.log = []  # (version, reverts_to or None, is_undo)
        self.version = 0

    @property
    def doc(self):
        return self.docs[self.version]

    def commit(self, new_doc, reverts_to=None, is_undo=False):
        self.wrote[self.version + 1] = written(self.doc, new_doc)
        self.version += 1
        self.docs[self.version] = copy.deepcopy(new_doc)
        self.log.append((self.version, reverts_to, is_undo))

    def standing(self):
        at, current = {0: frozenset()}, frozenset()
        for version, reverts_to, _undo in self.log:
            current = (current if reverts_to is None else at[reverts_to]) | {version}
            at[version] = current
        return current

    def latest_undoable(self):
        """The newest change: it always stands, and an undo is taken back like any change."""
        return self.log[-1][0] if self.log else None

    def missed(self, seen, paths):
        return [v for v in range(seen + 1, self.version + 1) if overlap(self.wrote[v], paths)]


def spread(items, n):
    """n items from across the list: its first, its last, and evenly between."""
    if len(items) <= n:
        return items
    return [items[round(i * (len(items) - 1) / (n - 1))] for i in range(n)]


@pytest.fixture
def session(app):
    s = Session(app.extensions["companion.engine"], expire_on_commit=False)
    yield s
    s.close()


@pytest.mark.parametrize("game", sorted(GAMES))
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=st.lists(step, min_size=1, max_size=24))
def test_two_stale_phones_never_overwrite_silently_and_undo_restores_exactly(tables, session, game, steps):
    token = tables.create(game, GAMES[game])
    table = tables.table(token)
    oracle = Oracle(store.snapshot(table))
    # A few values of the document, so that the two phones often meet on the same one.
    values = spread([p for p, v in leaves(oracle.doc) if p[0] in ("name", "state")], 3)
    numbers = spread([p for p, v in leaves(oracle.doc) if isinstance(v, int) and p[0] == "state"], 2)
    seen = [0, 0]
    entries = []  # the log as first written: it only grows
    before_undo = None  # the document before the previous step, when that step was an undo

    for phone, op, pick, amount in steps:
        if op == "look":
            seen[phone] = oracle.version
            continue
        if op in ("set", "inc"):
            pool = numbers if op == "inc" or pick % 2 else values
            if not pool:
                continue
            path = pool[pick % len(pool)]
            relative = op == "inc" and isinstance(get(oracle.doc, path), int)
            after = copy.deepcopy(oracle.doc)
            if relative:
                put(after, path, get(after, path) + amount)
            else:
                old = get(after, path)
                put(after, path, amount if isinstance(old, int) else f"v{amount}")

            def mutate(doc, path=path, relative=relative):
                put(doc, path, get(doc, path) + amount if relative else get(after, path))

            paths = written(oracle.doc, after)
            expect_conflict = bool(paths) and not relative and bool(oracle.missed(seen[phone], paths))
            try:
                table = store.apply(session, table.id, seen[phone], Change(op, op, relative=relative), mutate)
            except store.Conflict as conflict:
                assert expect_conflict, f"refused without cause: {path}"
                assert {a.version for a in conflict.actions} == set(oracle.missed(seen[phone], paths))
            else:
                assert not expect_conflict, f"a stale write to {path} overwrote a change it never saw"
                if paths:
                    oracle.commit(after)
        elif op == "undo":
            target = oracle.latest_undoable()
            if target is None:
                with pytest.raises(store.NothingToUndo):
                    undoing.undo(session, table.id, None)
                continue
            undid_last = before_undo is not None and oracle.log[-1][2]
            first = oracle.doc
            table, undone = undoing.undo(session, table.id, None)
            assert undone.version == target
            oracle.commit(oracle.docs[target - 1], reverts_to=target - 1, is_undo=True)
            if undid_last:  # Undo twice: back where the table was before the first
                assert store.snapshot(table) == before_undo
            before_undo = first
        else:  # undo back to an earlier change that has later changes standing
            standing = oracle.standing()
            content = {v for v, r, _u in oracle.log if r is None and v in standing}  # not undos
            choices = [v for v, _r, _u in oracle.log if any(s > v for s in content)]
            if not choices:
                continue
            back = choices[pick % len(choices)]
            action = next(a for a in store.history(session, table.id, 1, 10**6)[0] if a.version == back)
            table, _target, _n = undoing.undo_back_to(session, table.id, action.id, oracle.version)
            oracle.commit(oracle.docs[back], reverts_to=back)
        if op != "undo":
            before_undo = None
        seen[phone] = oracle.version
        assert store.snapshot(table) == oracle.doc
        assert table.version == oracle.version
        log = sorted(store.history(session, table.id, 1, 10**6)[0], key=lambda a: a.version)
        now = [(a.id, a.version, a.kind, a.summary, a.args, a.undo_patch, a.undoes, a.reverts_to) for a in log]
        assert now[:len(entries)] == entries and len(now) == oracle.version  # appended, nothing rewritten
        entries = now

    fresh = tables.table(token)
    assert store.snapshot(fresh) == oracle.doc
    # What the log strikes through is exactly what no longer stands.
    log = {a.version: a for a in store.history(session, table.id, 1, 10**6)[0]}
    standing = oracle.standing()
    assert {v for v, a in log.items() if a.undone_by is None} == set(standing)
