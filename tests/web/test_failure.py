"""Honest failure: when the database cannot save (read-only, disk full), every change and New table
answer 503 "can't save right now, nothing was lost, try again", it is logged as an error, and
/healthz says unhealthy. Simulated for real on the database: a read-only connection, and on SQLite
a database that may not grow (what a full disk looks like to it)."""
from __future__ import annotations

import logging

import pytest
from sqlalchemy import event

from tests.conftest import HX, text_of

pytestmark = pytest.mark.both_databases  # how each database fails (read-only, errors mapped to 503)

NEW = {"name": "T", "players-0": "Ana", "players-1": "Bo"}


def _on_every_connection(app, statement_for):
    engine = app.extensions["companion.engine"]
    engine.dispose()  # new connections from now on

    def hook(dbapi_conn, _record):
        cur = dbapi_conn.cursor()
        cur.execute(statement_for(engine.dialect.name, cur))
        cur.close()
        if engine.dialect.name == "postgresql":
            dbapi_conn.commit()
    event.listen(engine, "connect", hook)


def read_only(app):
    _on_every_connection(app, lambda dialect, _cur: "PRAGMA query_only = ON" if dialect == "sqlite"
                         else "SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY")


def disk_full(app):
    def statement(dialect, cur):
        if dialect != "sqlite":
            pytest.skip("a full disk is simulated on SQLite (max_page_count)")
        cur.execute("PRAGMA page_count")
        return f"PRAGMA max_page_count = {cur.fetchone()[0]}"
    _on_every_connection(app, statement)


def assert_cannot_save(resp):
    assert resp.status_code == 503, resp.status_code
    text = text_of(resp)
    assert "Not saved" in text and "right now" in text and "is lost" in text and "try again" in text
    assert "changing very fast" not in text
    assert resp.headers["Retry-After"].isdigit()


def _until_refused(send, tries=400):
    """Send until the server refuses (a full database still has room in its last pages)."""
    for _ in range(tries):
        resp = send()
        assert resp.status_code < 500 or resp.status_code == 503, resp.status_code
        if resp.status_code == 503:
            return resp
    raise AssertionError("never refused")


@pytest.mark.parametrize("breakage", [read_only, disk_full], ids=["read-only", "disk-full"])
def test_changes_answer_503_cannot_save(app, client, tables, caplog, breakage):
    token = tables.create("gibbon", names=("Ana", "Bo", "Cy"))
    breakage(app)
    names = iter(range(10 ** 6))
    with caplog.at_level(logging.ERROR, logger="companion"):
        assert_cannot_save(_until_refused(lambda: tables.post(token, "rename", {"name": f"Table {next(names)} " + "x" * 25})))
        before = tables.table(token)
        assert_cannot_save(tables.post(token, "gibbon/start", {"dealer": "1", "bookkeeper": "2"}, htmx=False))
        assert_cannot_save(_until_refused(lambda: client.post("/new/sins", data=NEW)))
    assert any(r.levelno == logging.ERROR and "could not be saved" in r.getMessage() for r in caplog.records)
    # Reading still works, and the refused change left nothing behind.
    assert client.get(f"/t/{token}", headers=HX).status_code == 200
    after = tables.table(token)
    assert (after.version, after.name, after.status) == (before.version, before.name, before.status)


def test_healthz_is_unhealthy_on_a_read_only_database(app, client, caplog):
    assert client.get("/healthz").status_code == 200
    read_only(app)
    with caplog.at_level(logging.ERROR):
        resp = client.get("/healthz")
    assert resp.status_code == 503 and resp.json == {"status": "error", "database": "read-only"}
    assert any(r.levelno == logging.ERROR for r in caplog.records)


def test_healthz_is_unhealthy_when_the_disk_is_nearly_full(app, client, db_backend):
    if db_backend != "sqlite":
        pytest.skip("free space is checked for the SQLite file's disk")
    app.config["HEALTH_MIN_FREE_MB"] = 10 ** 12  # more than any disk has free
    resp = client.get("/healthz")
    assert resp.status_code == 503 and resp.json["database"] == "disk full"


def test_healthz_leaves_nothing_behind(app, client):
    from companion.db import get_session
    from companion.models import Preset

    for _ in range(3):
        assert client.get("/healthz").status_code == 200
    with app.app_context():
        assert get_session().query(Preset).count() == 0
