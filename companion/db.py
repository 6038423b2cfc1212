"""The tables' database: engine per app, one session per request, Alembic migrations.

SQLite (the zero-set-up default) runs in WAL mode with synchronous=FULL, so an acknowledged
commit survives a kill -9 of the server and a power cut alike. PostgreSQL is used when
DATABASE_URL says so.

A SQLite file that can't be written (`?mode=ro` on DATABASE_URL, a read-only file or folder, a
read-only mount) is opened read-only instead of failing the start: pages are served, every change
answers the honest 503 (the database refuses it), and /healthz says why (`read_only_reason`).
"""
from __future__ import annotations

import logging
import os
import pathlib
import sqlite3
import urllib.parse

from flask import current_app, g
from sqlalchemy import create_engine, event
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session

from .stored import dumps

ROOT = pathlib.Path(__file__).resolve().parent.parent
MIGRATIONS = ROOT / "migrations"
log = logging.getLogger(__name__)


def normalize_url(url: str) -> str:
    """Accept the URLs people paste (postgres://, postgresql://) and use psycopg 3 for them."""
    if url.startswith("postgres://"):
        url = "postgresql://" + url[len("postgres://"):]
    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url[len("postgresql://"):]
    return url


def _pragmas(dbapi_conn, *pragmas: str) -> None:
    # Transactions are begun by `_sqlite_begin` below, not by the driver's own guesswork.
    dbapi_conn.isolation_level = None
    cur = dbapi_conn.cursor()
    for pragma in (*pragmas, "foreign_keys=ON", "busy_timeout=5000"):
        cur.execute(f"PRAGMA {pragma}")
    cur.close()


def _sqlite_pragmas(dbapi_conn, _record):
    _pragmas(dbapi_conn, "journal_mode=WAL", "synchronous=FULL")


def _sqlite_read_only_pragmas(dbapi_conn, _record):
    # No journal_mode: setting it writes the file. query_only makes sure of the rest.
    _pragmas(dbapi_conn, "query_only=ON")


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


def sqlite_file(url: str) -> pathlib.Path | None:
    """The file of a SQLite URL (`sqlite:///path`, or SQLAlchemy's `sqlite:///file:path?uri=true`);
    None for other databases and for an in-memory one."""
    parsed = make_url(normalize_url(url))
    if parsed.get_backend_name() != "sqlite" or not parsed.database or parsed.database == ":memory:":
        return None
    name = parsed.database
    return pathlib.Path(name[len("file:"):] if name.startswith("file:") else name)


def read_only_reason(url: str) -> str | None:
    """Why the SQLite database at `url` can't be written, or None (it can, or it is not SQLite).

    Asked for (`?mode=ro` or `?immutable=1` on DATABASE_URL), or found: the file is not writable,
    or its folder is not, where SQLite must create its -wal and -shm files (chmod, another owner, a
    read-only mount: `os.access` sees all three, even for root on a read-only mount).
    """
    path = sqlite_file(url)
    if path is None:
        return None
    query = make_url(normalize_url(url)).query
    if query.get("mode") == "ro" or query.get("immutable") == "1":
        return "DATABASE_URL opens it read-only (mode=ro)"
    if path.exists() and not os.access(path, os.W_OK):
        return f"the file {path} is not writable"
    folder = path.parent
    side_files = [pathlib.Path(f"{path}{end}") for end in ("-wal", "-shm")]
    if folder.is_dir() and not os.access(folder, os.W_OK) \
            and not all(f.exists() and os.access(f, os.W_OK) for f in side_files):
        return f"the folder {folder} is not writable (SQLite keeps its -wal and -shm files there)"
    return None


def _read_only_uri(path: pathlib.Path) -> str:
    """The URI that reads the file and writes nothing: `mode=ro`. A WAL database whose folder may
    not be written and holds no -shm file can't be opened so (SQLite needs that file to read);
    then `immutable=1`: nobody can write such a file either, so reading it as it lies is right."""
    quoted = urllib.parse.quote(str(path.resolve()))
    uris = (f"file:{quoted}?mode=ro", f"file:{quoted}?mode=ro&immutable=1")
    for uri in uris:
        try:
            conn = sqlite3.connect(uri, uri=True)
            try:
                conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
            finally:
                conn.close()
        except sqlite3.Error:
            continue
        wal = pathlib.Path(f"{path}-wal")
        if "immutable" in uri and wal.exists() and wal.stat().st_size:
            log.error("the database's %s holds changes SQLite can't read without writing: the pages "
                      "show the database without them", wal)
        return uri
    return uris[0]  # neither opens: the first query will say why


def make_engine(url: str, *, read_only: bool = False) -> Engine:
    """The engine for `url`; `read_only` (SQLite): open the file read-only (see read_only_reason)."""
    url = normalize_url(url)
    path = sqlite_file(url)
    if read_only and path is not None:
        uri = _read_only_uri(path)
        engine = create_engine(make_url(url).set(query={}),
                               creator=lambda: sqlite3.connect(uri, uri=True, check_same_thread=False, timeout=5),
                               json_serializer=dumps)
        event.listen(engine, "connect", _sqlite_read_only_pragmas)
        event.listen(engine, "begin", _sqlite_begin)
        return engine
    if _ensure_sqlite_folder(url):
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 5},
                               json_serializer=dumps)
        event.listen(engine, "connect", _sqlite_pragmas)
        event.listen(engine, "begin", _sqlite_begin)
        return engine
    return create_engine(url, pool_pre_ping=True, pool_size=5, max_overflow=5, json_serializer=dumps)


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


def schema_behind(engine: Engine, url: str) -> tuple[str | None, str] | None:
    """(the database's revision, the newest) when the schema is behind the migrations; None at head.
    Only reads."""
    from alembic.runtime.migration import MigrationContext
    from alembic.script import ScriptDirectory

    head = ScriptDirectory.from_config(alembic_config(url)).get_current_head()
    with engine.connect() as conn:
        current = MigrationContext.configure(conn).get_current_revision()
    return None if current == head else (current, head)


def _behind_message(reason: str, behind: tuple[str | None, str]) -> str:
    return (f"the database is read-only ({reason}) and its schema is at revision {behind[0] or 'none'}, "
            f"behind the newest ({behind[1]}): it can't be migrated, so pages may fail. Make it writable "
            f"and start again")


def migrate(url: str) -> str | None:
    """Bring the database at `url` to the newest schema (idempotent).

    A read-only SQLite file is not touched: None when its schema is already the newest, else a
    message that it can't be migrated (for the caller to say loudly); the server starts either way."""
    from alembic import command

    url = normalize_url(url)
    reason = read_only_reason(url)
    if reason is not None:
        engine = make_engine(url, read_only=True)
        try:
            behind = schema_behind(engine, url)
        finally:
            engine.dispose()
        if behind is None:
            log.warning("the database is read-only (%s); its schema is the newest: nothing to migrate", reason)
            return None
        return _behind_message(reason, behind)
    _ensure_sqlite_folder(url)
    command.upgrade(alembic_config(url), "head")
    return None


def init_app(app) -> None:
    url = app.config["DATABASE_URL"]
    reason = read_only_reason(url)
    app.extensions["companion.read_only"] = reason
    app.extensions["companion.engine"] = make_engine(url, read_only=reason is not None)
    app.teardown_appcontext(close_session)
    if reason is not None:
        app.logger.error("the database is read-only (%s): every page is served, every change answers "
                         "503 until it can be written again", reason)
        try:
            behind = schema_behind(app.extensions["companion.engine"], url)
        except Exception as exc:  # noqa: BLE001 (an unreadable file: /healthz and the pages say so)
            app.logger.error("the read-only database can't be read: %s", exc)
        else:
            if behind is not None:
                app.logger.error("%s", _behind_message(reason, behind))


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
