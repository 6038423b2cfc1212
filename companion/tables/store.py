"""Saving tables: create, load, change through the action log, and refuse silent overwrites.

Every change goes through `apply`, inside one write transaction that holds the table's lock
(`BEGIN IMMEDIATE` on SQLite, `SELECT ... FOR UPDATE` on PostgreSQL), so writers to one table
take turns instead of racing. The caller's `mutate` changes a copy of the document; the store
diffs it against the original and logs the change as a JSON Patch (RFC 6902) that turns the new
document back into the old one, which is all an undo needs (undo.py). Nothing else is copied.

Conflicts are judged from what really changed. A change says whether it is *relative* (an
increment: it commutes, so it lands on top of anything) or *absolute* (it sets values the phone
saw). An absolute change made on a stale view is refused when any change since then wrote a path
that overlaps a path this one writes, increments included; the phone gets the fresh table. A change
whose outcome depends on the state (`depends_on_state`) is judged on what the phone saw, even an
increment: it lands only when it does there what it does now (stale.py).

A submission id (made on the phone for each tap; without JavaScript, one per rendered form) is kept
with its action: a retried submission finds its action already there and is answered as it was the
first time, never applied twice.

The commit happens before the caller answers the request, so an acknowledged change is on disk
(SQLite runs with synchronous=FULL).
"""
from __future__ import annotations

import copy
import hashlib
import threading
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Callable, Iterable, Iterator

import jsonpatch
from sqlalchemy import delete, func, or_, select, text, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session

from ..db import Unavailable, unavailable  # noqa: F401 (a write that cannot land; named here too)
from ..domain import N_, Invalid, Problem
from ..models import Action, Table, utcnow
from . import tokens
from .guard import Archived, Gone, is_archived, lifecycle, opened, recheck  # noqa: F401 (named here too)
from .stale import same_effect

SETTING_UP, PLAYING, FINISHED = "setup", "playing", "finished"
STATUSES = (SETTING_UP, PLAYING, FINISHED)
STATUS_NAMES = {SETTING_UP: N_("setting up"), PLAYING: N_("playing"), FINISHED: N_("finished")}
DOC_FIELDS = ("name", "status", "state", "result")
TABLE_NAME_MAX = 40
LOCK_SECONDS = 5  # how long a write waits for the table's lock before the phone is told to retry
SUBMISSION_MAX = 400  # characters of a submission id worth reading; longer ones are not ids


@dataclass
class Change:
    """What an action is, in words, and how it combines with changes it did not see.

    `summary` is a message id with `%(name)s` placeholders filled from `args` when shown (values
    may be nested messages). `relative` marks an increment ("+1 stone"): it lands on top of
    whatever changed meanwhile. Anything else is absolute: it sets values the phone saw, so it is
    refused when someone changed one of the same values since.
    """

    kind: str
    summary: str
    args: dict = field(default_factory=dict)
    relative: bool = False
    # Its outcome depends on the state it lands on (the third Last Judgment ends the game): the live
    # table judges such a change on what the phone saw (see tables/actions.py).
    depends_on_state: bool = False


class Conflict(Exception):
    """The table changed, since the client last saw it, in a way that touches this action."""

    def __init__(self, table: Table, actions: list[Action], reason: str = "changed"):
        self.table = table
        self.actions = actions
        self.reason = reason
        super().__init__(f"table {table.id} changed: {[a.summary for a in actions]}")


class AlreadyDone(Exception):
    """This very submission was applied before (a retry after a lost answer): nothing was applied now."""

    def __init__(self, table: Table, action: Action):
        self.table = table
        self.action = action
        super().__init__(f"submission already applied as action {action.id}")


class NothingToUndo(Exception):
    pass



# -- paths -------------------------------------------------------------------------------------------

def patch_paths(patch: Iterable[dict]) -> set[str]:
    """The JSON Pointers a patch writes (a move writes both ends)."""
    paths = set()
    for op in patch:
        paths.add(op["path"])
        if "from" in op and op["op"] == "move":
            paths.add(op["from"])
    return paths


def paths_overlap(a: Iterable[str], b: Iterable[str]) -> bool:
    """Two sets of JSON Pointers overlap when a path of one equals or contains a path of the other
    ("/state/players" contains "/state/players/3/name"), on whole segments."""
    b = list(b)
    for x in a:
        for y in b:
            if x == y or x.startswith(y + "/") or y.startswith(x + "/"):
                return True
    return False


def submission_key(raw: str | None) -> str | None:
    """What is stored of a submission id: a short digest (ids can be long; the digest is enough)."""
    if not raw or len(raw) > SUBMISSION_MAX:
        return None
    return hashlib.blake2b(raw.encode("utf-8", "replace"), digest_size=9).hexdigest()


# -- reading -------------------------------------------------------------------------------------------

def snapshot(table: Table) -> dict:
    return copy.deepcopy({f: getattr(table, f) for f in DOC_FIELDS})


def clean_table_name(raw: str) -> str:
    name = " ".join((raw or "").split())
    if not name:
        raise Invalid(Problem("name", N_("Give the table a name.")))
    if len(name) > TABLE_NAME_MAX:
        raise Invalid(Problem("name", N_("Keep the table name to %(max)d characters."), {"max": TABLE_NAME_MAX}))
    return name


def create(session: Session, game: str, name: str, players: list[dict], game_state: dict,
           submission: str | None = None) -> Table:
    """A new table. `submission` (a digest, see submission_key) makes it once: the same form sent
    again gets the table it made the first time."""
    if submission is not None:
        made = session.execute(select(Table).where(Table.submission == submission)).scalars().first()
        if made is not None:
            return made
    table = Table(
        token=tokens.new_token(),
        view_token=tokens.new_token(),
        game=game,
        name=clean_table_name(name),
        status=SETTING_UP,
        version=0,
        state={"players": players, "game": game_state},
        submission=submission,
    )
    try:
        with write_transaction(session):
            session.add(table)
    except Unavailable:
        # The same submission twice at once: the unique index refused the second, which opens the first.
        made = session.execute(select(Table).where(Table.submission == submission)).scalars().first() \
            if submission is not None else None
        if made is None:
            raise
        return made
    return table


def by_token(session: Session, token: str) -> tuple[Table, bool] | None:
    """The table a link opens, and whether the link is the read-only one."""
    if not tokens.looks_like_token(token):
        return None
    table = session.execute(select(Table).where(Table.token == token)).scalars().first()
    if table is not None:
        return opened(session, table, token, False)
    table = session.execute(select(Table).where(Table.view_token == token)).scalars().first()
    return opened(session, table, token, True) if table is not None else None


def version_by_token(session: Session, token: str) -> tuple[int, int] | None:
    """(id, version) of the table a link opens, without loading its document: what a polling phone
    and the page cache need, and nothing more."""
    if not tokens.looks_like_token(token):
        return None
    stmt = select(Table.id, Table.version).where(or_(Table.token == token, Table.view_token == token))
    row = session.execute(stmt).first()
    return (row[0], row[1]) if row else None


RECENT = 6


def recent_actions(session: Session, table_id: int, limit: int = RECENT) -> list[Action]:
    stmt = select(Action).where(Action.table_id == table_id).order_by(Action.version.desc()).limit(limit)
    return list(session.execute(stmt).scalars())


def history(session: Session, table_id: int, page: int, per_page: int) -> tuple[list[Action], int]:
    """One page of the whole log, newest first, and how many actions there are in all."""
    total = session.execute(select(func.count()).select_from(Action).where(Action.table_id == table_id)).scalar_one()
    stmt = (select(Action).where(Action.table_id == table_id).order_by(Action.version.desc())
            .offset((page - 1) * per_page).limit(per_page))
    return list(session.execute(stmt).scalars()), total


#: Changes the one-tap Undo passes over: what they did lies outside the document (a replaced edit
#: link stays replaced), so "undoing" them would promise what it can't do.
NOT_UNDOABLE = ("table.link",)


def latest_undoable(session: Session, table_id: int) -> Action | None:
    """What the one-tap Undo takes back: the newest change still standing, an undo included (taking
    back an undo does its change again: undo.py)."""
    stmt = (select(Action)
            .where(Action.table_id == table_id, Action.undone_by.is_(None), Action.kind.notin_(NOT_UNDOABLE))
            .order_by(Action.version.desc()).limit(1))
    return session.execute(stmt).scalars().first()


def _since(session: Session, table_id: int, version: int) -> list[Action]:
    stmt = (select(Action).where(Action.table_id == table_id, Action.version > version)
            .order_by(Action.version))
    return list(session.execute(stmt).scalars())


# -- writing -----------------------------------------------------------------------------------------

_gates: dict[str, threading.Lock] = {}
_gates_lock = threading.Lock()


def _sqlite_gate(session: Session) -> threading.Lock | None:
    """On SQLite, this process's writers queue on a lock of their own before asking SQLite for its
    write lock: SQLite's busy handler polls with growing sleeps and serves no one in order, so under
    a burst some writers would wait far longer than others. With the gate, only one writer per
    server process asks SQLite at a time. PostgreSQL queues row locks fairly by itself."""
    bind = session.get_bind()
    if bind.dialect.name != "sqlite":
        return None
    key = str(bind.url)
    with _gates_lock:
        return _gates.setdefault(key, threading.Lock())


@contextmanager
def write_transaction(session: Session) -> Iterator[Connection]:
    """A write transaction that holds the database's write lock from its start; commits on exit.

    Any read transaction the request had open ends first, so the lock is taken at the start of a
    fresh transaction (SQLite: BEGIN IMMEDIATE, after this process's queue; PostgreSQL: row locks
    taken inside wait LOCK_SECONDS at most) and a read can never fail to become a write. A database
    that can't take the write raises Unavailable, with nothing written. Inside another write
    transaction of the same session it simply joins it.
    """
    if session.info.get("companion_writing"):  # already inside one: it is the caller's to commit
        yield session.connection()
        return
    session.rollback()
    gate = _sqlite_gate(session)
    if gate is not None and not gate.acquire(timeout=LOCK_SECONDS):
        raise Unavailable("locked", "waited too long for this server's turn to write")
    session.info["companion_writing"] = True
    try:
        conn = session.connection(execution_options={"companion_write": True})
        if conn.dialect.name == "postgresql":
            session.execute(text(f"SET LOCAL lock_timeout = '{LOCK_SECONDS}s'"))
        yield conn
        session.commit()
    except DBAPIError as err:
        session.rollback()
        raise unavailable(err) from err
    except BaseException:
        session.rollback()
        raise
    finally:
        session.info.pop("companion_writing", None)
        if gate is not None:
            gate.release()


@contextmanager
def _locked(session: Session, table_id: int) -> Iterator[Table]:
    """A write transaction holding the table's lock, with the table as it is now; commits on exit.
    Writers to the same table wait their turn, for LOCK_SECONDS at most. The link the change came
    through is re-checked under the lock (guard.py): deleted, replaced or archived meanwhile raises."""
    with write_transaction(session):
        table = session.execute(select(Table).where(Table.id == table_id).with_for_update()
                                .execution_options(populate_existing=True)).scalars().first()
        if table is None:
            raise Gone(table_id, "deleted")
        recheck(session, table)
        yield table


def delete_table(session: Session, table_id: int, *, only_if_archived: bool = False) -> bool:
    """Delete the table and its history under its lock, so no change lands after it (a change
    waiting for the lock finds it Gone). `only_if_archived`: only if still archived once locked."""
    with lifecycle(session), _locked(session, table_id) as table:
        if only_if_archived and not is_archived(table):
            return False
        session.execute(delete(Table).where(Table.id == table.id))
    return True


def check_new(session: Session, table: Table, submission: str | None) -> None:
    """Raise AlreadyDone when this submission was applied before. Under the lock it keeps a retry from
    applying twice; read before it, it lets a retry be answered before its form runs again."""
    if submission is None:
        return
    action = session.execute(select(Action).where(Action.table_id == table.id, Action.submission == submission)
                             ).scalars().first()
    if action is not None:
        raise AlreadyDone(table, action)


def _log(session: Session, table: Table, before: dict, after: dict, change: Change, *,
         submission: str | None, undoes: Action | None = None, reverts_to: int | None = None) -> Action:
    """Write the new document and its action (with the patch that takes it back) under the lock."""
    now = utcnow()
    version = table.version + 1
    session.execute(update(Table).where(Table.id == table.id)
                    .values(version=version, updated_at=now, **{f: after[f] for f in DOC_FIELDS}))
    action = Action(table_id=table.id, version=version, kind=change.kind, summary=change.summary,
                    args=change.args, undo_patch=jsonpatch.make_patch(after, before).patch,
                    undoes=undoes.id if undoes else None, reverts_to=reverts_to, submission=submission,
                    created_at=now)
    session.add(action)
    session.flush()
    return action


def apply(session: Session, table_id: int, seen_version: int | None, change: Change,
          mutate: Callable[[dict], None], *, submission: str | None = None) -> Table:
    """Apply one change to the table and log it; return the fresh table.

    `seen_version` is the version the acting phone was looking at (None: act on whatever is
    current, as the API does). `mutate` changes the document copy in place and may raise Invalid;
    when it changes nothing, nothing is logged. It runs a second time, first, on the document the
    phone saw when the change depends on the state and the phone missed changes. `submission` is
    the stored key of the request's submission id (`submission_key`): a second arrival raises
    AlreadyDone.
    """
    with _locked(session, table_id) as table:
        check_new(session, table, submission)
        if seen_version is not None and seen_version > table.version:
            raise Conflict(table, [])
        behind = seen_version is not None and seen_version < table.version
        stale = behind and not change.relative
        before = snapshot(table)
        # A change whose outcome depends on the state is judged on what the phone saw (stale.py): it
        # runs on that document first, then on the table as it is, and lands only if both agree.
        seen = _run_on_seen(session, table, seen_version, mutate) if behind and change.depends_on_state else None
        after = copy.deepcopy(before)
        try:
            mutate(after)
        except Invalid:
            # Refused on the fresh table: when this phone missed changes, they are the likely reason
            # (the round it counts was counted meanwhile), so show them rather than a puzzle.
            if stale or seen is not None:
                raise Conflict(table, _since(session, table_id, seen_version)) from None
            raise
        if seen is not None and not same_effect(*seen, before, after):
            raise Conflict(table, _since(session, table_id, seen_version))
        patch = jsonpatch.make_patch(before, after).patch
        if not patch:
            return table
        if stale:
            written = patch_paths(patch)
            touched = [a for a in _since(session, table_id, seen_version)
                       if paths_overlap(written, patch_paths(a.undo_patch))]
            if touched:
                raise Conflict(table, touched)
        _log(session, table, before, after, change, submission=submission)
    return _fresh(session, table_id)


def _run_on_seen(session: Session, table: Table, seen_version: int, mutate) -> tuple[dict, dict]:
    """(before, after) of the change run on the document the phone saw. A change that was refused
    there counts as having done nothing (so it lands only if it does nothing now either)."""
    seen_before = document_at(session, table, seen_version)
    seen_after = copy.deepcopy(seen_before)
    try:
        mutate(seen_after)
    except Invalid:
        return seen_before, seen_before
    return seen_before, seen_after


def _fresh(session: Session, table_id: int) -> Table:
    session.expire_all()
    table = session.get(Table, table_id)
    if table is None:  # deleted between this change's commit and its answer
        raise Gone(table_id, "deleted")
    return table


def document_at(session: Session, table: Table, version: int) -> dict:
    """The table's document as it was at `version`: the current one with every later change's
    patch applied backwards, newest first."""
    doc = snapshot(table)
    stmt = (select(Action.undo_patch).where(Action.table_id == table.id, Action.version > version)
            .order_by(Action.version.desc()))
    for (patch,) in session.execute(stmt):
        doc = jsonpatch.apply_patch(doc, patch)
    return doc


def _standing(session: Session, table_id: int) -> set[int]:
    """The ids of the actions whose effect is in the document now.

    Replaying the log: a change stands once made; an undo or a "back to here" returns the log to
    what stood at the version it goes back to, plus itself.
    """
    rows = session.execute(select(Action.id, Action.version, Action.reverts_to)
                           .where(Action.table_id == table_id).order_by(Action.version)).all()
    wanted = {r.reverts_to for r in rows if r.reverts_to is not None}
    at: dict[int, frozenset] = {0: frozenset()}
    current: frozenset = frozenset()
    for action_id, version, reverts_to in rows:
        current = (current if reverts_to is None else at[reverts_to]) | {action_id}
        if version in wanted:
            at[version] = current
    return set(current)


def _mark_undone(session: Session, table_id: int, by: Action) -> None:
    """After an undo or a "back to here": strike through what no longer stands, and unstrike what
    stands again (an undone undo brings its change back)."""
    standing = _standing(session, table_id)
    rows = session.execute(select(Action.id, Action.undone_by).where(Action.table_id == table_id)).all()
    now_undone = [i for i, u in rows if i not in standing and u is None]
    back = [i for i, u in rows if i in standing and u is not None]
    if now_undone:
        session.execute(update(Action).where(Action.id.in_(now_undone)).values(undone_by=by.id))
    if back:
        session.execute(update(Action).where(Action.id.in_(back)).values(undone_by=None))
