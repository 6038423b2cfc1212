"""A table brought back from a backup with its action log, so its History and Undo work as before.

The store (store.py) writes one change at a time; a restore writes the whole log at once: the table
at its last version and one Action row per logged change, each with the patch that takes it back
(the file's, already checked by the caller: plays/backup.py replays every patch back from the last
document and validates each document it gives against the game's declared shape).

What the file cannot be trusted with is made here: the links (new tokens), the submission ids (none:
a restored change can never be mistaken for a tap of the new table's phones, whose ids are digests
of their own forms), and which changes stand (`undone_by`, worked out from the log the way the
store's undo does, not read from the file).
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Iterable

from ..models import Action, Table, utcnow
from . import tokens
from .store import write_transaction


@dataclass
class Entry:
    """One logged change as a backup carries it. `undoes` and `reverts_to` are versions (not ids)."""

    version: int
    kind: str
    summary: str
    args: dict
    at: datetime
    undo: list
    reverts_to: int | None = None
    undoes: int | None = None


def undone_by(entries: Iterable[Entry]) -> dict[int, int]:
    """{version: version of the undo or "back to here" it is undone by}, for the changes that no
    longer stand: the store's `_standing` and `_mark_undone`, run over the whole log in order."""
    entries = list(entries)
    wanted = {e.reverts_to for e in entries if e.reverts_to is not None}
    at: dict[int, frozenset] = {0: frozenset()}
    current: frozenset = frozenset()
    seen: set[int] = set()
    marks: dict[int, int] = {}
    for e in entries:
        current = (current if e.reverts_to is None else at[e.reverts_to]) | {e.version}
        seen.add(e.version)
        if e.version in wanted:
            at[e.version] = current
        if e.reverts_to is None:
            continue
        for v in (seen - current) - marks.keys():
            marks[v] = e.version
        for v in marks.keys() & current:
            del marks[v]
    return marks


def restore(session, game: str, doc: dict, entries: list[Entry]) -> Table:
    """A new table (new links) holding `doc` at version len(entries), with `entries` as its log.
    The caller has checked both (plays/backup.py); versions run 1..n in order."""
    now = utcnow()
    first = min((e.at for e in entries), default=now)
    table = Table(token=tokens.new_token(), view_token=tokens.new_token(), game=game, name=doc["name"],
                  status=doc["status"], version=len(entries), state=doc["state"], result=doc["result"],
                  created_at=min(first, now), updated_at=now)
    with write_transaction(session):
        session.add(table)
        session.flush()
        rows = [Action(table_id=table.id, version=e.version, kind=e.kind, summary=e.summary, args=e.args,
                       undo_patch=e.undo, reverts_to=e.reverts_to, submission=None, created_at=e.at)
                for e in entries]
        session.add_all(rows)
        session.flush()
        ids = {row.version: row.id for row in rows}
        for v, by in undone_by(entries).items():
            rows[v - 1].undone_by = ids[by]
        for e, row in zip(entries, rows):
            if e.undoes is not None:
                row.undoes = ids[e.undoes]
    return table
