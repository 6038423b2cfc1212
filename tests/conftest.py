"""Shared fixtures: an isolated database per test, on SQLite and, for the tests whose behaviour can
differ by database, on PostgreSQL too (with TEST_DATABASE_URL).

Which tests run on PostgreSQL (docs/testing.md, "Which tests run on both databases"):
- a test using `app`, `client`, `tables`, `app_with` or `csrf_app` runs on SQLite only;
- a test marked `both_databases` (itself, its class, or its module's `pytestmark`) runs on SQLite and
  on PostgreSQL: mark what touches storage, locking, the action log, migrations, LISTEN/NOTIFY,
  durability, failure of the database or concurrency;
- a test that names `db_backend` among its own arguments runs on both (it says what differs).

The schema always comes from the Alembic migrations, once per test session and backend:
SQLite copies a migrated file per test; PostgreSQL gets a private database for the session
(so several test runs can share one server) and empties its tables before each test.
"""
from __future__ import annotations

import os
import pathlib
import re
import shutil

import pytest
from jinja2 import MemcachedBytecodeCache
from sqlalchemy import create_engine, text

from companion import create_app
from companion.db import migrate

# The suite acts far faster than any table: no abuse limits, here and in the servers it starts
# (tests/web/test_limits.py turns them on for itself).
os.environ.setdefault("COMPANION_RELAX_LIMITS", "1")

PG_URL = os.environ.get("TEST_DATABASE_URL")
BACKENDS = ["sqlite"] + (["postgresql"] if PG_URL else [])


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory):
    path = tmp_path_factory.mktemp("db") / "template.sqlite3"
    migrate(f"sqlite:///{path}")
    return path


@pytest.fixture(scope="session")
def pg_database():
    """A private PostgreSQL database for this test session, migrated, dropped at the end."""
    if not PG_URL:
        pytest.skip("TEST_DATABASE_URL is not set")
    from tests.servers import private_database

    with private_database(PG_URL) as url:
        yield url


def _database_url(backend, request, tmp_path):
    if backend == "sqlite":
        template = request.getfixturevalue("sqlite_template")
        path = tmp_path / "companion.sqlite3"
        shutil.copy(template, path)
        return f"sqlite:///{path}"
    url = request.getfixturevalue("pg_database")
    engine = create_engine(url)
    with engine.begin() as conn:
        conn.execute(text("TRUNCATE table_action, game_table, preset, play_group RESTART IDENTITY CASCADE"))
    engine.dispose()
    return url


class _Templates(dict):
    """A process-wide store for compiled templates (the client jinja2's MemcachedBytecodeCache wants)."""

    def get(self, key):
        return dict.get(self, key)

    def set(self, key, value, timeout=None):
        self[key] = value


# Every test makes its own app, and each app's Jinja environment would compile every template it
# renders again (most of a web test's time). They share compiled templates instead: Jinja keys each
# on the template's name and checks its source's checksum, so an edited template compiles afresh.
TEMPLATES = MemcachedBytecodeCache(_Templates())


def _share_url_builders():
    """Every test's fresh app binds the same 156 URL rules, and Werkzeug writes and compiles two
    Python functions per rule to build its URLs: 95% of `create_app` (profiled: 0.16 of 0.17 s).
    Those functions depend only on the rule's parsed parts and defaults (they reach the rule's
    converters through the rule they are bound to at call time), so apps in this process share them:
    keyed on exactly what Werkzeug reads to write one, each is compiled once and bound to each rule
    as Werkzeug binds its own. URLs are built by the same code; the servers tests start are untouched."""
    from werkzeug.routing.rules import Rule

    write = Rule._compile_builder
    written = {}

    def compile_builder(self, append_unknown=True):
        defaults = sorted((self.defaults or {}).items(), key=lambda item: item[0])
        key = (self.rule, tuple(self._trace), repr(defaults), append_unknown)
        if key not in written:
            written[key] = write(self, append_unknown)
        return written[key]

    Rule._compile_builder = compile_builder


_share_url_builders()


def make_app(database_url, tmp_path, **extra):
    config = {
        "TESTING": True,
        "DATABASE_URL": database_url,
        "SECRET_KEY": "test-secret",
        "WTF_CSRF_ENABLED": False,
        "SERVER_NAME": "companion.test",
        # Every document an action leaves must fit its game's declared shape (tables/shape.py).
        "CHECK_SHAPES": True,
    }
    config.update(extra)
    app = create_app(config)
    app.jinja_env.bytecode_cache = TEMPLATES
    return app


# The files that take longest (docs/testing.md, "Where the time goes"), longest first, ahead of the
# rest, which keep their order. With --dist worksteal each worker starts on a contiguous half of the
# tests and one that runs out takes the end of the other's queue: the run should end on short tests,
# not on a minute-long loop that keeps one core busy while the other has nothing left to do.
LONG_FIRST = ("web/test_hostile_imports.py", "web/test_stale_taps.py", "web/test_fuzz.py",
              "e2e/test_layout.py", "e2e/test_taps.py", "e2e/test_tables_e2e.py", "web/test_durability.py",
              "e2e/test_gibbon_game.py", "e2e/test_others_e2e.py", "unit/test_rules_questions.py")
TESTS = pathlib.Path(__file__).resolve().parent


def pytest_collection_modifyitems(items):
    rank = {name: i for i, name in enumerate(LONG_FIRST)}

    def place(item) -> int:
        try:
            return rank.get(item.path.resolve().relative_to(TESTS).as_posix(), len(rank))
        except ValueError:  # a test outside tests/ (a path given on the command line)
            return len(rank)
    items.sort(key=place)  # stable: each file stays in one piece, in its own order


BOTH_DATABASES = "both_databases"


def backends_for(item) -> list[str]:
    """The databases a test (a pytest item or function definition) runs on: see the module docstring."""
    import inspect

    if not PG_URL:
        return ["sqlite"]
    if item.get_closest_marker(BOTH_DATABASES):
        return BACKENDS
    function = getattr(item, "function", None) or getattr(item, "obj", None)
    try:
        own = inspect.signature(function).parameters if function else {}
    except (TypeError, ValueError):
        own = {}
    return BACKENDS if "db_backend" in own else ["sqlite"]


def pytest_generate_tests(metafunc):
    if "db_backend" in metafunc.fixturenames:
        metafunc.parametrize("db_backend", backends_for(metafunc.definition), indirect=True)


@pytest.fixture
def db_backend(request):
    """"sqlite" or "postgresql": parametrized per test by pytest_generate_tests above."""
    return getattr(request, "param", "sqlite")


@pytest.fixture
def app_with(db_backend, request, tmp_path, monkeypatch):
    """Make the app on this test's database (each backend) with extra config: `app_with(KEY=value)`.
    Every app made is disposed of when the test ends."""
    made = []

    def factory(**extra):
        monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path / "instance"))
        made.append(make_app(_database_url(db_backend, request, tmp_path), tmp_path, **extra))
        return made[-1]

    yield factory
    for each in made:
        each.extensions["companion.engine"].dispose()


@pytest.fixture
def app(app_with):
    return app_with()


@pytest.fixture
def csrf_app(app_with):
    """The app exactly as deployed: CSRF checked on every form."""
    return app_with(WTF_CSRF_ENABLED=True)


@pytest.fixture
def client(app):
    return app.test_client()


HX = {"HX-Request": "true", "HX-Target": "live"}


class Tables:
    """Small helpers for tests that act on tables through the test client, as a phone would."""

    def __init__(self, app, client):
        self.app = app
        self.client = client

    def create(self, game="sins", names=("Ana", "Bo", "Cy", "Di"), name="Test table", **extra) -> str:
        data = {"name": name, **{f"players-{i}": n for i, n in enumerate(names)}, **extra}
        resp = self.client.post(f"/new/{game}", data=data)
        assert resp.status_code == 303, resp.get_data(as_text=True)[:500]
        return resp.headers["Location"].rsplit("/", 1)[1]

    def table(self, token):
        from companion.db import get_session
        from companion.tables import store

        with self.app.app_context():
            found = store.by_token(get_session(), token)
            assert found is not None
            table = found[0]
            get_session().expunge(table)
            return table

    def version(self, token) -> int:
        return self.table(token).version

    def post(self, token, path, data=None, *, htmx=True, page=None, version=None, form_key=None):
        """POST a table action with the current version (as a fresh page would carry)."""
        body = {"v": self.version(token) if version is None else version, **(data or {})}
        if page:
            body["page"] = page
        if form_key:
            body["form_key"] = form_key
        url = f"/t/{token}/{path.lstrip('/')}"
        return self.client.post(url, data=body, headers=HX if htmx else {})

    def latest_action_id(self, token):
        from companion.db import get_session
        from companion.tables import store

        table = self.table(token)
        with self.app.app_context():
            action = store.latest_undoable(get_session(), table.id)
            return action.id if action else None

    def undo(self, token, **kw):
        return self.post(token, "undo", {"action": self.latest_action_id(token)}, **kw)


@pytest.fixture
def tables(app, client):
    return Tables(app, client)


def text_of(resp) -> str:
    """The response body as text with tags removed and spaces collapsed: what a reader sees."""
    html = resp.get_data(as_text=True)
    html = re.sub(r"<(script|style|template)\b.*?</\1>", " ", html, flags=re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip()
