"""Migration 0002 turns the old whole-document copies into undo patches without losing a table's
history or its Undo (SQLite, and PostgreSQL when TEST_DATABASE_URL is set)."""
from __future__ import annotations

import json
from datetime import datetime, timezone

import pytest
from alembic import command
from sqlalchemy import create_engine, text
from sqlalchemy.orm import Session

from companion.db import alembic_config, normalize_url
from companion.tables import store
from companion.tables import undo as undoing
from tests.conftest import BACKENDS, PG_URL
from tests.servers import private_database


@pytest.fixture(params=BACKENDS)
def old_database(request, tmp_path):
    """An empty database at revision 0001, as a server from before this change had it."""
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'old.sqlite3'}"
        command.upgrade(alembic_config(url), "0001")
        yield url
        return
    with private_database(PG_URL, "companion_mig", migrate_to="0001") as url:
        yield url


def doc(score, notes):
    return {"name": "Old table", "status": "playing", "result": None,
            "state": {"players": [{"id": 1, "name": "Ana"}], "game": {"score": score, "notes": notes}}}


def test_old_logs_become_patches_that_still_undo(old_database):
    # The old log: +2, a note, +5, then an undo of the +5. Each row kept the document before it.
    docs = [doc(0, {}), doc(2, {}), doc(2, {"a": "x"}), doc(7, {"a": "x"}), doc(2, {"a": "x"})]
    now = datetime(2026, 11, 1, tzinfo=timezone.utc)
    engine = create_engine(normalize_url(old_database))

    with engine.begin() as conn:
        current = docs[-1]
        table_id = conn.execute(
            text("INSERT INTO game_table (token, view_token, game, name, status, version, state, result, created_at, "
                 "updated_at) VALUES (:t, :v, 'sins', :name, :status, 4, :state, NULL, :now, :now) RETURNING id"),
            {"t": "a" * 24, "v": "b" * 24, "name": current["name"], "status": current["status"],
             "state": json.dumps(current["state"]), "now": now}).scalar_one()
        ids = {}
        for version, kind in [(1, "score.add"), (2, "note.set"), (3, "score.add"), (4, "undo")]:
            ids[version] = conn.execute(
                text("INSERT INTO table_action (table_id, version, kind, summary, args, keys, before, undoes, "
                     "undone_by, created_at) VALUES (:table, :version, :kind, :kind, '{}', '[]', :before, :undoes, "
                     "NULL, :now) RETURNING id"),
                {"table": table_id, "version": version, "kind": kind, "before": json.dumps(docs[version - 1]),
                 "undoes": ids.get(3) if kind == "undo" else None, "now": now}).scalar_one()
        conn.execute(text("UPDATE table_action SET undone_by = :u WHERE id = :id"), {"u": ids[4], "id": ids[3]})
    engine.dispose()

    command.upgrade(alembic_config(old_database), "head")

    engine = create_engine(normalize_url(old_database))
    with Session(engine, expire_on_commit=False) as session:
        table = session.get(store.Table, table_id)
        log = {a.version: a for a in store.history(session, table_id, 1, 100)[0]}
        assert [log[v].undo_patch for v in (1, 3)] == [
            [{"op": "replace", "path": "/state/game/score", "value": 0}],
            [{"op": "replace", "path": "/state/game/score", "value": 2}]]
        assert log[4].reverts_to == 2 and log[3].undone_by == ids[4]
        for version in range(5):
            assert store.document_at(session, table, version) == docs[version]
        # The one-tap Undo carries on where the old log left off: it takes back the old undo (the +5
        # again), then that; "undo back to here" still reaches the start of the old log.
        table, undone = undoing.undo(session, table_id, None)
        assert undone.version == 4 and store.snapshot(table) == docs[3]
        table, undone = undoing.undo(session, table_id, None)
        assert undone.version == 5 and store.snapshot(table) == docs[4]
        table, _target, _n = undoing.undo_back_to(session, table_id, ids[1], None)
        assert store.snapshot(table) == docs[1]
    engine.dispose()
