"""The values a column may hold, the same on SQLite and on PostgreSQL.

PostgreSQL refuses what SQLite keeps without a word: a string longer than its column, a NUL
character, an integer past 32 bits in an INTEGER column, NaN or Infinity in JSON. Left alone, the
same request would be a refusal on one database and a silent store on the other. The column types
below refuse all of these on both, before the driver sees them, with `Refused` (a 400 for the
request, companion/errors.py), so what one database accepts the other does too.
`tests/web/test_stored_values.py` holds each kind of value to one answer on both databases.

A string that can't be written as UTF-8 (a lone surrogate, which a JSON body can carry) is refused
the same way: either driver would fail on it with an error of its own.

A moment is kept in UTC on both. PostgreSQL stores the instant of a time with an offset
("19:05+02:00"); SQLite kept its wall-clock reading and dropped the offset, two hours off. And a
moment that is before year 1 once in UTC ("0001-01-01T00:00+05:00") is stored by PostgreSQL and
then can't be read back into Python: it is refused on both.
"""
from __future__ import annotations

import json
from datetime import datetime, timezone

from sqlalchemy import DateTime, Integer, String
from sqlalchemy.types import TypeDecorator

INT_MIN, INT_MAX = -(2 ** 31), 2 ** 31 - 1  # PostgreSQL's INTEGER


class Refused(ValueError):
    """A value no column of ours stores (on either database); what it was is in the message."""


def _utf8(text: str, what: str) -> str:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as err:
        raise Refused(f"{what}: not UTF-8 ({err.reason})") from None
    return text


def _writable(text: str, what: str) -> str:
    if "\x00" in text:
        raise Refused(f"{what}: a NUL character")
    return _utf8(text, what)


class Text(TypeDecorator):
    """VARCHAR(n): at most n characters, no NUL, valid UTF-8."""

    impl = String
    cache_ok = True

    def process_bind_param(self, value, dialect):
        if value is None:
            return None
        if not isinstance(value, str):
            raise Refused(f"text column: a {type(value).__name__}")
        if len(value) > self.impl.length:
            raise Refused(f"text column: {len(value)} characters, at most {self.impl.length}")
        return _writable(value, "text column")


class Int(TypeDecorator):
    """INTEGER: 32 bits on both databases (SQLite's own would take 64)."""

    impl = Integer
    cache_ok = True

    def process_bind_param(self, value, dialect):
        if value is not None and not INT_MIN <= value <= INT_MAX:
            raise Refused(f"integer column: {value} is past 32 bits")
        return value


class Moment(TypeDecorator):
    """TIMESTAMP WITH TIME ZONE, written in UTC (a time without an offset is taken as UTC) and read
    back with its UTC offset on both databases."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value, dialect):
        if value is None:
            return None
        if not isinstance(value, datetime):
            raise Refused(f"moment column: a {type(value).__name__}")
        try:
            return (value if value.tzinfo else value.replace(tzinfo=timezone.utc)).astimezone(timezone.utc)
        except OverflowError:
            raise Refused(f"moment column: {value.isoformat()} is before year 1 in UTC") from None

    def process_result_value(self, value, dialect):
        return value.replace(tzinfo=timezone.utc) if value is not None and value.tzinfo is None else value


def dumps(value) -> str:
    """JSON as stored: strict (no NaN or Infinity, which are not JSON and which PostgreSQL refuses),
    compact (the action log's patches are mostly punctuation), and UTF-8 as it is."""
    try:
        text = json.dumps(value, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    except ValueError as err:
        raise Refused(f"JSON column: {err}") from None
    # json.dumps writes every control character as an escape (NUL is "\\u0000", which both
    # databases store), so only a lone surrogate, which it keeps as it is, is left to refuse.
    return _utf8(text, "JSON column")
