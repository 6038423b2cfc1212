"""The tables' database: engine per app, one session per request, Alembic migrations.

SQLite (the zero-set-up default) runs in WAL mode with synchronous=FULL, so an acknowledged
commit survives a kill -9 of the server and a power cut alike. PostgreSQL is used when
DATABASE_URL says so.
"""
from __future__ import annotations

import json
import pathlib

from flask import current_app, g
from sqlalchemy import create_engine, event
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session

ROOT = pathlib.Path(__file__).resolve().parent.parent
MIGRATIONS = ROOT / "migrations"


def normalize_url(url: str) -> str:
    """Accept the URLs people paste (postgres://, postgresql://) and use psycopg 3 for them."""
    if url.startswith("postgres://"):
        url = "postgresql://" + url[len("postgres://"):]
    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url[len("postgresql://"):]
    return url


def _sqlite_pragmas(dbapi_conn, _record):
    # Transactions are begun by `_sqlite_begin` below, not by the driver's own guesswork.
    dbapi_conn.isolation_level = None
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=FULL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute("PRAGMA busy_timeout=5000")
    cur.close()


def _sqlite_begin(conn):
    """A write transaction takes SQLite's write lock at once (`BEGIN IMMEDIATE`): writers then wait
    their turn on the busy timeout instead of failing when a read turns into a write."""
    conn.exec_driver_sql("BEGIN IMMEDIATE" if conn.get_execution_options().get("companion_write") else "BEGIN")


def _ensure_sqlite_folder(url: str) -> bool:
    """For a SQLite URL, create the file's folder; True when the URL is SQLite."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        return False
    if parsed.database and parsed.database != ":memory:":
        pathlib.Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
    return True


def _compact_json(value) -> str:
    """JSON as stored: no spaces after separators (the action log's patches are mostly punctuation)."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def make_engine(url: str) -> Engine:
    url = normalize_url(url)
    if _ensure_sqlite_folder(url):
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 5},
                               json_serializer=_compact_json)
        event.listen(engine, "connect", _sqlite_pragmas)
        event.listen(engine, "begin", _sqlite_begin)
        return engine
    return create_engine(url, pool_pre_ping=True, pool_size=5, max_overflow=5, json_serializer=_compact_json)


def get_session() -> Session:
    """The request's session, created on first use and closed when the app context ends."""
    if "db_session" not in g:
        g.db_session = Session(current_app.extensions["companion.engine"], expire_on_commit=False)
    return g.db_session


def close_session(exc=None):
    session = g.pop("db_session", None)
    if session is not None:
        if exc is not None:
            session.rollback()
        session.close()


def alembic_config(url: str):
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    # Alembic's config is an ini file underneath: a literal % must be doubled.
    cfg.set_main_option("sqlalchemy.url", normalize_url(url).replace("%", "%%"))
    return cfg


def migrate(url: str) -> None:
    """Bring the database at `url` to the newest schema (idempotent)."""
    from alembic import command

    url = normalize_url(url)
    _ensure_sqlite_folder(url)
    command.upgrade(alembic_config(url), "head")


def init_app(app) -> None:
    app.extensions["companion.engine"] = make_engine(app.config["DATABASE_URL"])
    app.teardown_appcontext(close_session)


class Unavailable(Exception):
    """The database can't take the write now: a lock held too long, a full disk, a read-only file.

    Nothing was written. `reason` is "locked", "full" or "readonly" (or "error").
    """

    def __init__(self, reason: str, detail: str = ""):
        self.reason = reason
        super().__init__(f"{reason}: {detail}")


def unavailable(err: DBAPIError) -> Unavailable:
    """Name what stopped a write, from the database's own error."""
    detail = str(getattr(err, "orig", err)).lower()
    if "locked" in detail or "lock timeout" in detail or "could not obtain lock" in detail or "busy" in detail:
        return Unavailable("locked", detail)
    if "full" in detail or "no space" in detail or "disk quota" in detail:
        return Unavailable("full", detail)
    if "readonly" in detail or "read-only" in detail or "read only" in detail:
        return Unavailable("readonly", detail)
    return Unavailable("error", detail)
