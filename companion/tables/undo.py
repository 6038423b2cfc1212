"""Taking changes back: the one-tap Undo and "undo back to here", each logged as a change of its own.

Both apply the log's patches backwards (store.document_at) to the document as it stood at an
earlier version, and log that as one more change, with its own patch: the log only grows. So an
Undo can be taken back like any change: the one-tap Undo takes back the newest change still
standing, and when that is an Undo, taking it back does its change again ("Redone: ..."); Undo
twice returns the table to where it was before the first. "Undo back to here" is undoable the same
way. What stands after each is replayed from the log (store._standing) and the History strikes
through exactly what does not.
"""
from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..domain import N_
from ..models import Action, Table
from .store import (AlreadyDone, Change, Conflict, NothingToUndo, check_new, _fresh, _locked, _log,
                    _mark_undone, _since, _standing, document_at, latest_undoable, snapshot)

UNDO, REDO = "undo", "redo"  # the log's kinds: taking back a change, taking back an undo


def what_it_took_back(action: Action) -> dict:
    """The change an undo or a redo is about, as a message ({"msg", "args"}); for any other action,
    the action itself."""
    what = (action.args or {}).get("what") if action.kind in (UNDO, REDO) else None
    return what if isinstance(what, dict) else {"msg": action.summary, "args": action.args}


def taking_back(target: Action) -> Change:
    """The logged change that takes `target` back, named by what it does to the table: "Undo: X"
    for a change X; for an undo of X, X again, "Redone: X"; for that redo, "Undo: X" once more.
    Never "Undo: Undo: X"."""
    what = what_it_took_back(target)
    if target.kind == UNDO:
        return Change(REDO, N_("Redone: %(what)s"), {"what": what})
    return Change(UNDO, N_("Undo: %(what)s"), {"what": what})


def _revert(session: Session, table: Table, to_version: int, change: Change, *, submission: str | None,
            undoes: Action | None = None) -> Action:
    before = snapshot(table)
    after = document_at(session, table, to_version)
    action = _log(session, table, before, after, change, submission=submission, undoes=undoes,
                  reverts_to=to_version)
    _mark_undone(session, table.id, action)
    return action


def undo(session: Session, table_id: int, expected_action_id: int | None, *,
         submission: str | None = None) -> tuple[Table, Action]:
    """Take back the newest change that still stands (an undo too: that redoes its change); log it.

    `expected_action_id` is the change the phone showed next to its Undo button. If the latest
    change is now a different one (another phone acted), nothing is undone and the phone is told.
    Returns the fresh table and the action taken back.
    """
    with _locked(session, table_id) as table:
        try:
            check_new(session, table, submission)
        except AlreadyDone as done:
            target = session.get(Action, done.action.undoes) if done.action.undoes else done.action
            raise AlreadyDone(table, target) from None
        target = latest_undoable(session, table_id)
        if target is None:
            raise NothingToUndo()
        if expected_action_id is not None and target.id != expected_action_id:
            raise Conflict(table, _since(session, table_id, target.version - 1), reason="undo-moved")
        _revert(session, table, target.version - 1, taking_back(target), submission=submission, undoes=target)
    return _fresh(session, table_id), target


def undo_back_to(session: Session, table_id: int, action_id: int, seen_version: int | None, *,
                 submission: str | None = None) -> tuple[Table, Action, int]:
    """Take back every change made after action `action_id`, as one logged action (itself undoable).

    `seen_version` is the version the phone's history list showed; if the table moved on since,
    nothing happens and the phone is asked first (Conflict "history-moved" with what changed).
    Returns the fresh table, the action gone back to, and how many later changes were taken back.
    """
    with _locked(session, table_id) as table:
        check_new(session, table, submission)
        target = session.get(Action, action_id)
        if target is None or target.table_id != table_id:
            raise LookupError(action_id)
        if seen_version is not None and seen_version != table.version:
            raise Conflict(table, _since(session, table_id, min(seen_version, table.version)),
                           reason="history-moved")
        # What going back takes away: the later changes that still stand (undos and redos don't
        # count: a redone change counts itself).
        standing = _standing(session, table_id)
        later = session.execute(select(Action.id).where(Action.table_id == table_id, Action.reverts_to.is_(None),
                                                        Action.version > target.version)).scalars().all()
        taken_back = sum(1 for i in later if i in standing)
        if target.version == table.version or not taken_back:
            raise NothingToUndo()
        change = Change("revert", N_("Undid every change after: %(what)s"),
                        {"what": {"msg": target.summary, "args": target.args}, "n": taken_back})
        _revert(session, table, target.version, change, submission=submission)
    return _fresh(session, table_id), target, taken_back
