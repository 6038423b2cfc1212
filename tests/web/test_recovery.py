"""PostgreSQL read-only and then back (issue 27): a connection opened while the database was
read-only stays read-only for its life, so the pool lets its connections go on a read-only refusal;
the first change after the database accepts writes again is acknowledged."""
from __future__ import annotations

import pytest
from sqlalchemy import create_engine, text

pytestmark = pytest.mark.both_databases  # PostgreSQL's read-only connections


def _set_read_only(url: str, on: bool) -> None:
    engine = create_engine(url, isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as conn:
            conn.execute(text("SET default_transaction_read_only = off"))
            db = conn.execute(text("SELECT current_database()")).scalar()
            conn.execute(text(f'ALTER DATABASE "{db}" SET default_transaction_read_only = {"on" if on else "off"}'))
    finally:
        engine.dispose()


def test_the_first_change_after_read_only_lands(app, client, tables, db_backend):
    if db_backend != "postgresql":
        pytest.skip("PostgreSQL's pooled connections keep the read-only default they were opened with")
    engine = app.extensions["companion.engine"]
    url = engine.url.render_as_string(hide_password=False)
    token = tables.create("sins")
    _set_read_only(url, True)
    try:
        engine.dispose()  # every pooled connection from now on is opened read-only
        resp = tables.post(token, "rename", {"name": "While read-only"})
        assert resp.status_code == 503 and resp.headers["Retry-After"].isdigit()
    finally:
        _set_read_only(url, False)
    resp = tables.post(token, "rename", {"name": "Back"})
    assert resp.status_code == 200
    assert tables.table(token).name == "Back"
