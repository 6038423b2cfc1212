"""Retention of idle tables: what the server keeps, and for how long.

The policy (settings RETENTION_ARCHIVE_DAYS, default 180, and RETENTION_DELETE_DAYS, default 365):

- A table nobody has changed for RETENTION_ARCHIVE_DAYS is archived: it keeps everything and can be
  read through both links, accepts no change, and whoever has its edit link can restore it. The
  archiving is logged in the table's history like any change.
- An archived table nobody has restored or changed for RETENTION_DELETE_DAYS more is deleted with
  its history.

`flask --app companion retention` (or `python -m companion retention`) applies it; run it daily
(cron, a Fly scheduled machine). `--dry-run` only says what it would do.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..domain import N_
from ..models import Table, utcnow
from . import store


@dataclass
class Outcome:
    archived: list[int] = field(default_factory=list)
    deleted: list[int] = field(default_factory=list)


def _archived(state) -> bool:
    return bool((state or {}).get("archived"))


def apply(session: Session, *, archive_days: int, delete_days: int, now: datetime | None = None,
          dry_run: bool = False) -> Outcome:
    now = now or utcnow()
    out = Outcome()
    archive_before = now - timedelta(days=archive_days)
    rows = session.execute(select(Table.id, Table.state, Table.updated_at)
                           .where(Table.updated_at < archive_before)).all()
    delete_before = now - timedelta(days=delete_days)
    for table_id, state, updated in rows:
        if _archived(state):
            if _aware(updated) < delete_before:
                out.deleted.append(table_id)
            continue
        out.archived.append(table_id)
    if dry_run:
        return out
    change = store.Change("table.archive", N_("The table was archived after %(days)d days without a change"),
                          {"days": archive_days})
    for table_id in out.archived:
        store.apply(session, table_id, None, change, lambda doc: doc["state"].__setitem__("archived", True))
    # Each under its lock, and only if still archived then (someone may have restored it meanwhile).
    out.deleted = [i for i in out.deleted if store.delete_table(session, i, only_if_archived=True)]
    return out


def _aware(value: datetime) -> datetime:
    """SQLite hands back naive datetimes (stored as UTC)."""
    from datetime import timezone

    return value if value.tzinfo else value.replace(tzinfo=timezone.utc)
