"""Saving tables: create, load, change through the action log, undo, and refuse silent overwrites.

Every change goes through `apply`: it copies the table's document, lets the caller change the
copy, appends an Action holding the document as it was before, and bumps the table's version with
a compare-and-set (`UPDATE ... WHERE version = :seen`). Two phones acting at once therefore both
land one after the other, or, when the second acted on a stale view of the same thing, it gets a
`Conflict` carrying the fresh table. Nothing is ever overwritten without a trace.

The commit happens before the caller answers the request, so an acknowledged change is on disk
(SQLite runs with synchronous=FULL).
"""
from __future__ import annotations

import copy
import time
from dataclasses import dataclass, field
from typing import Callable, Iterable

from sqlalchemy import or_, select, update
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import Session

from ..domain import N_, Invalid, Problem
from ..models import Action, Table, utcnow
from . import tokens

SETTING_UP, PLAYING, FINISHED = "setup", "playing", "finished"
STATUSES = (SETTING_UP, PLAYING, FINISHED)
STATUS_NAMES = {SETTING_UP: N_("setting up"), PLAYING: N_("playing"), FINISHED: N_("finished")}
DOC_FIELDS = ("name", "status", "state", "result")
TABLE_NAME_MAX = 40
ATTEMPTS = 8


@dataclass(frozen=True)
class Change:
    """What an action is, in words and in scope.

    `summary` is a message id with `%(name)s` placeholders filled from `args` when shown (values may
    be nested messages). `keys` are the parts of the document the action depends on, as dotted
    paths ("players.3.name", "game.scores"); an action on a stale view is refused only when another
    action touched an overlapping key since. An empty `keys` means the action commutes with
    everything (an increment), so it always lands.
    """

    kind: str
    summary: str
    args: dict = field(default_factory=dict)
    keys: tuple[str, ...] = ()


class Conflict(Exception):
    """The table changed, since the client last saw it, in a way that touches this action."""

    def __init__(self, table: Table, actions: list[Action], reason: str = "changed"):
        self.table = table
        self.actions = actions
        self.reason = reason
        super().__init__(f"table {table.id} changed: {[a.summary for a in actions]}")


class NothingToUndo(Exception):
    pass


class Busy(Exception):
    """The table kept changing under us; give up rather than spin (never seen in practice)."""


def keys_overlap(a: Iterable[str], b: Iterable[str]) -> bool:
    """Two scopes overlap when one key equals the other or contains it ("players" vs "players.3.name")."""
    b = list(b)
    for x in a:
        for y in b:
            if x == y or x.startswith(y + ".") or y.startswith(x + "."):
                return True
    return False


def snapshot(table: Table) -> dict:
    return copy.deepcopy({f: getattr(table, f) for f in DOC_FIELDS})


def clean_table_name(raw: str) -> str:
    name = " ".join((raw or "").split())
    if not name:
        raise Invalid(Problem("name", N_("Give the table a name.")))
    if len(name) > TABLE_NAME_MAX:
        raise Invalid(Problem("name", N_("Keep the table name to %(max)d characters."), {"max": TABLE_NAME_MAX}))
    return name


def create(session: Session, game: str, name: str, players: list[dict], game_state: dict) -> Table:
    table = Table(
        token=tokens.new_token(),
        view_token=tokens.new_token(),
        game=game,
        name=clean_table_name(name),
        status=SETTING_UP,
        version=0,
        state={"players": players, "game": game_state},
    )
    session.add(table)
    session.commit()
    return table


def by_token(session: Session, token: str) -> tuple[Table, bool] | None:
    """The table a link opens, and whether the link is the read-only one."""
    if not tokens.looks_like_token(token):
        return None
    table = session.execute(select(Table).where(Table.token == token)).scalars().first()
    if table is not None:
        return table, False
    table = session.execute(select(Table).where(Table.view_token == token)).scalars().first()
    return (table, True) if table is not None else None


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


def latest_undoable(session: Session, table_id: int) -> Action | None:
    stmt = (select(Action)
            .where(Action.table_id == table_id, Action.undone_by.is_(None), Action.undoes.is_(None))
            .order_by(Action.version.desc()).limit(1))
    return session.execute(stmt).scalars().first()


def _reload(session: Session, table_id: int) -> Table:
    session.expire_all()
    table = session.get(Table, table_id)
    if table is None:
        raise LookupError(table_id)
    return table


def _since(session: Session, table_id: int, version: int) -> list[Action]:
    stmt = (select(Action).where(Action.table_id == table_id, Action.version > version)
            .order_by(Action.version))
    return list(session.execute(stmt).scalars())


def _commit_change(session: Session, table: Table, seen: int, before: dict, after: dict,
                   change: Change, undoes: Action | None = None) -> bool:
    """Write the new document and its action if nobody wrote since `seen`; False means try again."""
    now = utcnow()
    values = {f: after[f] for f in DOC_FIELDS}
    result = session.execute(
        update(Table).where(Table.id == table.id, Table.version == seen)
        .values(version=seen + 1, updated_at=now, **values)
    )
    if result.rowcount != 1:
        session.rollback()
        return False
    action = Action(table_id=table.id, version=seen + 1, kind=change.kind, summary=change.summary,
                    args=change.args, keys=list(change.keys), before=before,
                    undoes=undoes.id if undoes else None, created_at=now)
    session.add(action)
    session.flush()
    if undoes is not None:
        session.execute(update(Action).where(Action.id == undoes.id).values(undone_by=action.id))
    session.commit()
    return True


def apply(session: Session, table_id: int, seen_version: int | None, change: Change,
          mutate: Callable[[dict], None]) -> Table:
    """Apply one change to the table and log it; return the fresh table.

    `seen_version` is the version the acting phone was looking at (None: act on whatever is
    current, as the API does). `mutate` changes the document copy in place and may raise Invalid;
    when it changes nothing, nothing is logged.
    """
    for attempt in range(ATTEMPTS):
        table = _reload(session, table_id)
        version = table.version
        if seen_version is not None and seen_version != version:
            intervening = _since(session, table_id, seen_version) if seen_version < version else []
            touched = [a for a in intervening if keys_overlap(change.keys, a.keys)]
            if seen_version > version or touched:
                raise Conflict(table, touched)
        before = snapshot(table)
        after = copy.deepcopy(before)
        mutate(after)
        if after == before:
            return table
        try:
            if _commit_change(session, table, version, before, after, change):
                return _reload(session, table_id)
        except (IntegrityError, OperationalError):
            # Another writer took this version (or held SQLite's lock past its timeout): retry.
            session.rollback()
        time.sleep(0.005 * (attempt + 1))
    raise Busy(table_id)


def undo(session: Session, table_id: int, expected_action_id: int | None) -> tuple[Table, Action]:
    """Revert the latest change that is not itself an undo and not yet undone; log the undo.

    `expected_action_id` is the change the phone showed next to its Undo button. If the latest
    change is now a different one (another phone acted), nothing is undone and the phone is told.
    """
    for attempt in range(ATTEMPTS):
        table = _reload(session, table_id)
        target = latest_undoable(session, table_id)
        if target is None:
            raise NothingToUndo()
        if expected_action_id is not None and target.id != expected_action_id:
            raise Conflict(table, _since(session, table_id, target.version - 1), reason="undo-moved")
        before = snapshot(table)
        after = copy.deepcopy(target.before)
        change = Change(kind="undo", summary=N_("Undo: %(what)s"),
                        args={"what": {"msg": target.summary, "args": target.args}},
                        keys=tuple(target.keys))
        try:
            if _commit_change(session, table, table.version, before, after, change, undoes=target):
                return _reload(session, table_id), target
        except (IntegrityError, OperationalError):
            session.rollback()
        time.sleep(0.005 * (attempt + 1))
    raise Busy(table_id)
