"""The database side of play history: a table's play kept in step with its document, and groups.

A play is derived, never edited: `sync(session, table)` runs after every committed change of a table
(tables/actions.py's after_change) and makes the play match the document. A finished table has
exactly one play (re-finishing updates it, keyed by the table); a table that is reopened loses its
play until it is finished again, when the same play comes back with the same export id. A group
page also repairs any play that fell behind its table (e.g. a crash between the change and the sync).

The play keeps its export id (`data["source_id"]`, export.play_id) and its times: from the action
log, unless the document carries the times of the play it was backed up from (state.play.started
and .finished, written into an export: an imported table's log starts with the import).
"""
from __future__ import annotations

from datetime import datetime, timezone

from sqlalchemy import and_, delete, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from ..models import Action, Group, GroupTable, Play, PlayerMerge, Table
from ..tables import tokens
from . import build, export

GROUP_NAME_MAX = 40


def writing(session: Session):
    """A write transaction taken the way the table store takes its own (see store.write_transaction)."""
    from ..tables import store

    return store.write_transaction(session)


def _aware(dt: datetime) -> datetime:
    return dt if dt.tzinfo else dt.replace(tzinfo=timezone.utc)


def times(session: Session, table: Table) -> tuple[datetime, datetime]:
    """When play started (the first change that moved the table out of setup, else its creation)
    and when it finished (the latest change that made it finished, else its last change).

    Read from the action log backwards: an action that changed the status carries, in its undo
    patch, the status it replaced; the status after it is the one the later log (or the table) shows."""
    rows = session.execute(select(Action.created_at, Action.undo_patch).where(Action.table_id == table.id)
                           .order_by(Action.version.desc())).all()
    after = table.status
    started = finished = None
    for at, patch in rows:
        before = next((op.get("value") for op in patch or []
                       if op.get("path") == "/status" and op.get("op") in ("replace", "add")), after)
        if after == "finished" and before != "finished" and finished is None:
            finished = at
        if before == "setup" and after != "setup":
            started = at  # walking back: the earliest such change wins
        after = before
    created = _aware(table.created_at)
    finished = _aware(finished or table.updated_at or created)
    started = _aware(started or created)
    return min(started, finished), finished


def play_times(session: Session, table: Table) -> tuple[datetime, datetime]:
    """When the play started and finished: as the document kept them from a backup, else `times`."""
    said = table.state.get("play") if isinstance(table.state, dict) else None
    said = said if isinstance(said, dict) else {}
    started, finished = export.from_iso(said.get("started")), export.from_iso(said.get("finished"))
    if started is not None and finished is not None and started <= finished:
        return started, finished
    return times(session, table)


def group_id_of(session: Session, table_id: int) -> int | None:
    return session.execute(select(GroupTable.group_id).where(GroupTable.table_id == table_id)).scalar()


def _bump(session: Session, group_id: int | None) -> None:
    if group_id is not None:
        session.execute(update(Group).where(Group.id == group_id).values(version=Group.version + 1))


def sync(session: Session, table: Table) -> Play | None:
    """Make the table's play match its document (create, update or remove it); commits."""
    # Most changes are to tables still being played: one read says there is nothing to write.
    row = session.execute(select(Table.status, Table.version, Play.table_version)
                          .outerjoin(Play, Play.table_id == Table.id).where(Table.id == table.id)).first()
    if row is None or (row.status != "finished" and row.table_version is None) or \
            (row.status == "finished" and row.table_version == row.version):
        return None if row is None or row.table_version is None else \
            session.execute(select(Play).where(Play.table_id == table.id)).scalars().first()
    try:
        return _sync(session, table.id)
    except IntegrityError:
        # PostgreSQL: another request made this table's play a moment ago; now it is there to update.
        return _sync(session, table.id)


def _sync(session: Session, table_id: int) -> Play | None:
    with writing(session):
        table = session.get(Table, table_id, populate_existing=True)
        made = build.build_play(table.game, {"name": table.name, "status": table.status, "state": table.state,
                                             "result": table.result})
        play = session.execute(select(Play).where(Play.table_id == table.id)).scalars().first()
        if made is None:
            if play is not None:
                _bump(session, play.group_id)
                session.delete(play)
            return None
        if play is not None and play.table_version == table.version:
            return play
        group_id = group_id_of(session, table.id)
        started, finished = play_times(session, table)
        made["source_id"] = export.play_id(table.state, table.view_token)
        play = play or Play(table_id=table.id, game=table.game)
        play.group_id, play.started_at, play.finished_at = group_id, started, finished
        play.table_version, play.data = table.version, made
        session.add(play)
        _bump(session, group_id)
    return play


def repair_group(session: Session, group_id: int) -> int:
    """Plays of a group's finished tables that are missing or behind their table: sync them; how many."""
    stale = session.execute(
        select(Table).join(GroupTable, GroupTable.table_id == Table.id)
        .outerjoin(Play, Play.table_id == Table.id)
        .where(GroupTable.group_id == group_id,
               or_(and_(Table.status == "finished", or_(Play.id.is_(None), Play.table_version != Table.version)),
                   and_(Table.status != "finished", Play.id.is_not(None))))
    ).scalars().all()
    for table in stale:
        sync(session, table)
    return len(stale)


# -- groups ----------------------------------------------------------------------------------------

def clean_group_name(raw: str) -> str:
    from ..domain import N_, Invalid, Problem

    name = " ".join((raw or "").split())
    if not name:
        raise Invalid(Problem("name", N_("Give the group a name.")))
    if len(name) > GROUP_NAME_MAX:
        raise Invalid(Problem("name", N_("Keep the group name to %(max)d characters."), {"max": GROUP_NAME_MAX}))
    return name


def create_group(session: Session, name: str) -> Group:
    group = Group(token=tokens.new_token(), view_token=tokens.new_token(), name=clean_group_name(name))
    with writing(session):
        session.add(group)
    return group


def group_by_token(session: Session, token: str) -> tuple[Group, bool] | None:
    """The group a link opens, and whether the link is the view-only one."""
    if not tokens.looks_like_token(token):
        return None
    group = session.execute(select(Group).where(or_(Group.token == token, Group.view_token == token))
                            ).scalars().first()
    return None if group is None else (group, group.token != token)


def put_table_in_group(session: Session, table: Table, group: Group | None) -> None:
    """A table joins a group (or leaves its group, with None); its play follows it."""
    new = group.id if group is not None else None
    table_id = table.id
    with writing(session):
        old = group_id_of(session, table_id)
        if old == new:
            return
        session.execute(delete(GroupTable).where(GroupTable.table_id == table_id))
        if new is not None:
            session.add(GroupTable(table_id=table_id, group_id=new))
        session.execute(update(Play).where(Play.table_id == table_id).values(group_id=new))
        _bump(session, old)
        _bump(session, new)
    sync(session, table)


def merges(session: Session, group_id: int) -> list[PlayerMerge]:
    return list(session.execute(select(PlayerMerge).where(PlayerMerge.group_id == group_id)
                                .order_by(PlayerMerge.id)).scalars())


def merge(session: Session, group: Group, spelling: str, into: str) -> PlayerMerge:
    """Count the spelling `spelling` as the player `into` in this group's stats (undo: unmerge)."""
    from ..domain import N_, Invalid, Problem

    alias, target = build.match_key(spelling), build.match_key(into)
    if not alias or not target:
        raise Invalid(Problem("merge", N_("Choose two players.")))
    if alias == target:
        raise Invalid(Problem("merge", N_("These two are already the same player.")))
    group_id = group.id
    with writing(session):
        known = {m.alias: m for m in merges(session, group_id)}
        if alias in known:
            raise Invalid(Problem("merge", N_("%(name)s is already merged: undo that merge first."),
                                  {"name": spelling}))
        # Merging into a spelling that itself was merged would hide a chain: point at its target.
        while target in known:
            into, target = known[target].into, build.match_key(known[target].into)
        if target == alias:
            raise Invalid(Problem("merge", N_("These two are already the same player.")))
        row = PlayerMerge(group_id=group_id, alias=alias, into=into[:60])
        session.add(row)
        _bump(session, group_id)
    return row


def unmerge(session: Session, group: Group, merge_id: int) -> PlayerMerge | None:
    group_id = group.id
    with writing(session):
        row = session.get(PlayerMerge, merge_id)
        if row is None or row.group_id != group_id:
            return None
        session.delete(row)
        _bump(session, group_id)
    return row
