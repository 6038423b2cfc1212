"""Both databases take the same values (companion/stored.py).

Each kind of value a request can carry to a column (long, NUL, astral, surrogate, past 32 bits,
NaN, Infinity, huge, escaped) has one expected answer, written here once: stored and read back
equal, or refused with `Refused`. The same list must hold on SQLite and on PostgreSQL. On
each database each value is also written past our column types, straight to the driver: PostgreSQL
itself refuses exactly the values we refuse, so the types are no stricter and no looser than the
stricter database, and SQLite keeps nearly all of them, so the types are needed. That is what lets the long property loops (test_fuzz, test_hostile_imports,
test_stale_taps) run on SQLite alone: what PostgreSQL would refuse, SQLite now refuses too, with the
same answer (docs/testing.md, "Which tests run on both databases").
"""
from __future__ import annotations

import json
import math
from datetime import datetime, timedelta, timezone

import pytest
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError, StatementError
from sqlmodel import Session, select

from companion.models import Group, Preset
from companion.stored import INT_MAX, INT_MIN, Refused

pytestmark = pytest.mark.both_databases  # the point: one answer on each database

STORED, REFUSED = "stored", "refused"

NAMES = [  # play_group.name is VARCHAR(60)
    ("empty", "", STORED),
    ("60 letters", "x" * 60, STORED),
    ("61 letters", "x" * 61, REFUSED),
    ("60 accented (120 bytes)", "é" * 60, STORED),
    ("60 astral (240 bytes)", "\U0001F600" * 60, STORED),
    ("61 astral", "\U0001F600" * 61, REFUSED),
    ("NUL inside", "a\x00b", REFUSED),
    ("a lone surrogate", "a\ud800b", REFUSED),
    ("bidi override and markup", "\u202e<script>", STORED),
]
VERSIONS = [  # play_group.version is INTEGER
    ("largest", INT_MAX, STORED),
    ("smallest", INT_MIN, STORED),
    ("one past the largest", INT_MAX + 1, REFUSED),
    ("one past the smallest", INT_MIN - 1, REFUSED),
    ("64 bits", 2 ** 63 - 1, REFUSED),
]
DOCUMENTS = [  # preset.data is JSON
    ("NaN", {"x": math.nan}, REFUSED),
    ("Infinity", {"x": [1, math.inf]}, REFUSED),
    ("-Infinity", {"x": {"y": -math.inf}}, REFUSED),
    ("400 digits", {"x": 10 ** 400}, STORED),
    ("largest float", {"x": 1e308}, STORED),
    ("NUL inside a string", {"x": "a\x00b"}, STORED),
    ("a lone surrogate", {"x": "a\udfffb"}, REFUSED),
    ("astral keys and values", {"\U0001F600": "é\u202e"}, STORED),
]
PLUS_2, PLUS_5 = timezone(timedelta(hours=2)), timezone(timedelta(hours=5))
MOMENTS = [  # play_group.created_at is TIMESTAMP WITH TIME ZONE; read back as the same instant
    ("UTC", datetime(2026, 11, 23, 19, 5, tzinfo=timezone.utc), STORED),
    ("an offset of +02:00", datetime(2026, 11, 23, 19, 5, tzinfo=PLUS_2), STORED),
    ("no offset (taken as UTC)", datetime(2026, 11, 23, 19, 5), STORED),
    ("the last second of 9999", datetime(9999, 12, 31, 23, 59, 59, tzinfo=timezone.utc), STORED),
    ("before year 1 once in UTC", datetime(1, 1, 1, 0, 0, tzinfo=PLUS_5), REFUSED),
]


def group(**kw):
    return Group(**{"token": "t" * 43, "view_token": "v" * 43, "name": "Tuesdays", "version": 0, **kw})


def preset(**kw):
    return Preset(**{"game": "sins", "kind": "track", "name": "p", **kw})


# column: (a row holding the value, its model, its field), and the cases of that column
COLUMNS = {"name": ((group, Group, "name"), NAMES), "version": ((group, Group, "version"), VERSIONS),
           "created_at": ((group, Group, "created_at"), MOMENTS), "data": ((preset, Preset, "data"), DOCUMENTS)}
EVERY_VALUE = [pytest.param(column, value, expected, id=f"{column}-{what}")
               for column, (_row, cases) in COLUMNS.items() for what, value, expected in cases]


def ids(cases):
    return [case[0] for case in cases]


def store(app, row):
    """Add `row` in a session of its own: STORED (and its id) or REFUSED (and the reason)."""
    with Session(app.extensions["companion.engine"]) as session:
        session.add(row)
        try:
            session.commit()
        except StatementError as err:  # SQLAlchemy wraps what a type's bind step raises...
            assert isinstance(err.orig, Refused), err  # refused by our types, before the driver
            return REFUSED, str(err.orig)
        except Refused as err:  # ...but not what psycopg's JSON dumper raises
            return REFUSED, str(err)
        return STORED, row.id


def read(app, model, row_id):
    with Session(app.extensions["companion.engine"]) as session:
        return session.exec(select(model).where(model.id == row_id)).one()


@pytest.mark.parametrize("column, value, expected", EVERY_VALUE)
def test_a_value_is_stored_or_refused_alike(app, db_backend, column, value, expected):
    (make, model, field), _cases = COLUMNS[column]
    answer, got = store(app, make(**{field: value}))
    assert answer == expected, got
    if answer == STORED:
        back = getattr(read(app, model, got), field)
        if isinstance(value, datetime):  # the same instant, with its offset on SQLite too
            assert back.utcoffset() is not None
            value = value if value.tzinfo else value.replace(tzinfo=timezone.utc)
        assert back == value


# -- what each database itself refuses: PostgreSQL as our types, SQLite almost nothing -------------

def raw(app, sql, **params):
    """Run `sql` on the app's database past our column types: STORED or REFUSED (the driver's error,
    or the database's)."""
    try:
        with app.extensions["companion.engine"].begin() as conn:
            conn.execute(text(sql), params)
    except (DBAPIError, UnicodeEncodeError, ValueError):
        return REFUSED
    return STORED


def itself(db_backend, what, expected):
    """What the database does with a value past our types: PostgreSQL refuses what we refuse;
    SQLite keeps everything its driver can encode (which is why the types exist)."""
    if db_backend == "postgresql":
        return expected
    return REFUSED if "surrogate" in what else STORED


INSERT_GROUP = ("INSERT INTO play_group (token, view_token, name, version, created_at) "
                "VALUES ('{t}', '{v}', :name, :version, CURRENT_TIMESTAMP)".format(t="t" * 43, v="v" * 43))


@pytest.mark.parametrize("what, name, expected", NAMES, ids=ids(NAMES))
def test_each_database_itself_on_the_names(app, db_backend, what, name, expected):
    assert raw(app, INSERT_GROUP, name=name, version=0) == itself(db_backend, what, expected)


@pytest.mark.parametrize("what, version, expected", VERSIONS, ids=ids(VERSIONS))
def test_each_database_itself_on_the_integers(app, db_backend, what, version, expected):
    assert raw(app, INSERT_GROUP, name="Tuesdays", version=version) == itself(db_backend, what, expected)


@pytest.mark.parametrize("what, data, expected", DOCUMENTS, ids=ids(DOCUMENTS))
def test_each_database_itself_on_the_documents(app, db_backend, what, data, expected):
    document = json.dumps(data, separators=(",", ":"), ensure_ascii=False)  # NaN written as NaN
    value = "CAST(:data AS JSON)" if db_backend == "postgresql" else ":data"
    sql = ("INSERT INTO preset (game, kind, name, data, created_at, updated_at) "
           f"VALUES ('sins', 'track', 'p', {value}, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)")
    assert raw(app, sql, data=document) == itself(db_backend, what, expected)


# -- a refused value is the request's fault: a 400 with a message, never a 500 ----------------------

def test_a_value_the_columns_refuse_answers_400_with_a_message(app, db_backend):
    from companion.db import get_session

    def too_long():
        session = get_session()
        session.add(group(name="x" * 61))
        session.commit()
        return "stored"

    app.add_url_rule("/test-too-long", view_func=too_long, methods=["POST"])
    resp = app.test_client().post("/test-too-long")
    assert resp.status_code == 400
    assert "The page sent something we could not read" in resp.get_data(as_text=True)
    # The session was let go: the next request on the app stores as usual.
    assert store(app, group(name="After"))[0] == STORED
