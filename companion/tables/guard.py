"""What a change came through, checked again under the table's lock.

A request opens a table through a link (store.by_token), checks it and then waits for the table's
lock. Meanwhile whoever held the lock may have replaced that link, archived the table or deleted
it. So the link is remembered on the session when the table is opened, and `recheck` runs once
the lock is held (store._locked): a change that lost the race raises here, with nothing written,
and is answered with a 4xx that says why (errors.py).
"""
from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator

from sqlalchemy.orm import Session

from ..models import Table


class Gone(LookupError):
    """The table a change came through is not there for it any more: deleted ("deleted"), or the
    edit link it came through was replaced ("link-replaced"). Found under the table's lock, so
    nothing was written. A LookupError, as a missing table always was."""

    def __init__(self, table_id: int, reason: str):
        self.table_id = table_id
        self.reason = reason
        super().__init__(f"table {table_id}: {reason}")


class Archived(Exception):
    """The table was archived before this change got its lock: nothing was written."""

    def __init__(self, table: Table):
        self.table = table
        super().__init__(f"table {table.id} is archived")


_OPENED = "companion_opened"  # session.info: {table id: the link this request opened it through}
_LIFECYCLE = "companion_lifecycle"  # session.info: archive, restore, rotation or delete under way


def opened(session: Session, table: Table, token: str, readonly: bool) -> tuple[Table, bool]:
    """Remember which link opened the table in this session: every change re-checks it under the
    table's lock (a link replaced or a table archived meanwhile refuses the change, see recheck)."""
    session.info.setdefault(_OPENED, {})[table.id] = token
    return table, readonly


@contextmanager
def lifecycle(session: Session) -> Iterator[None]:
    """Within: the change being made is archive, restore, link rotation or delete, which an
    archived table still accepts."""
    session.info[_LIFECYCLE] = True
    try:
        yield
    finally:
        session.info.pop(_LIFECYCLE, None)


def is_archived(table: Table) -> bool:
    return bool((table.state or {}).get("archived"))


def recheck(session: Session, table: Table) -> None:
    """Under the table's lock: is the change still allowed through the link it came by? A link
    replaced since the request opened the table raises Gone; a table archived since, Archived
    (unless the change is itself a lifecycle change). A change that opened no link (an import,
    the retention job) has nothing to re-check."""
    token = session.info.get(_OPENED, {}).get(table.id)
    if token is None:
        return
    if token != table.token and token != table.view_token:
        raise Gone(table.id, "link-replaced")
    if is_archived(table) and not session.info.get(_LIFECYCLE):
        raise Archived(table)
