"""A backup's history: what export.json writes of a table's log, and the checks it must pass to come back.

Each change goes out with the patch that takes it back (`undo`, RFC 6902), so a restored table's
History and Undo work as they did. Nothing of it is trusted on the way in: every entry must have
exactly its fields, of their types and sizes; the versions run 1..n; and, from the file's last
document, applying each change's patch back must work and give a document that its game's declared
model allows (tables/shape.py and games/<game>/shape.py). Otherwise the import is refused, and the
message names the change and the field. Pure: no Flask, no database.

A table in a group goes out with the group's mark: a digest of the group's edit link, which finds
nothing and opens nothing, but which an importer holding that link can match (plays/views.py).
"""
from __future__ import annotations

import copy
import hashlib
import re
import unicodedata
from datetime import datetime, timezone

import jsonpatch
import jsonpointer

from ..domain import N_, Invalid, Problem
from ..tables.restore import Entry
from ..tables.shape import ValidationError, first_error, plain_scalar, validate_document
from ..text import clean_line

FIELDS = {"version", "kind", "summary", "args", "at", "undo", "reverts_to", "undoes"}
# What the store's diffs are made of. Not "copy": a patch of copies could double the document at each
# step before any check sees it.
OPS = {"add", "remove", "replace", "move"}
KIND = re.compile(r"^[a-z][a-z0-9._-]{0,39}$")
MARK = re.compile(r"^[0-9a-f]{24}$")
TEXT_MAX = 200  # a summary (a message id) or a value in a log line, as the store keeps them
# Checking a history costs about (its changes) x (the document's size): past this, a file is refused
# rather than keeping a server busy (a real 1,000-change table is far below it).
WORK_MAX = 60_000_000


def group_mark(group_token: str) -> str:
    """What a backup says of the table's group: matches that group's edit link, reveals nothing."""
    return hashlib.blake2b(b"companion group\0" + group_token.encode(), digest_size=12).hexdigest()


def dump(actions, iso) -> list[dict]:
    """The log as a backup carries it; `undoes` and `reverts_to` name versions, not row ids."""
    version_of = {a.id: a.version for a in actions}
    return [{"version": a.version, "kind": a.kind, "summary": a.summary, "args": a.args, "at": iso(a.created_at),
             "undo": a.undo_patch, "reverts_to": a.reverts_to,
             "undoes": version_of.get(a.undoes) if a.undoes is not None else None} for a in actions]


def _damaged(version: int, field: str) -> Invalid:
    return Invalid(Problem("file", N_("This table file's history is damaged at change %(version)d (%(field)s)."),
                           {"version": version, "field": field}))


def _text(value, limit: int = TEXT_MAX) -> bool:
    return isinstance(value, str) and len(value) <= limit and \
        not any(unicodedata.category(ch) == "Cc" for ch in value)


def _value(value, depth: int = 0) -> bool:
    """A value of a log line: what `i18n.render_message` shows (a term, a nested message, a name, a
    number, a short list of those)."""
    if depth > 4:
        return False
    if (scalar := plain_scalar(value)) is not None:
        return scalar
    if isinstance(value, str):
        return _text(value)
    if isinstance(value, list):
        return len(value) <= 50 and all(_value(v, depth + 1) and not isinstance(v, dict) for v in value)
    if isinstance(value, dict):
        if set(value) == {"term"}:
            return _text(value["term"])
        if set(value) in ({"msg"}, {"msg", "args"}):
            return _text(value["msg"]) and _args(value.get("args") or {}, depth + 1)
    return False


def _args(value, depth: int = 0) -> bool:
    return isinstance(value, dict) and len(value) <= 20 and \
        all(_text(k, 40) and _value(v, depth) for k, v in value.items())


def _op(op) -> bool:
    if not isinstance(op, dict) or op.get("op") not in OPS or not isinstance(op.get("path"), str):
        return False
    if op["path"] and not op["path"].startswith("/"):
        return False
    if op["op"] == "move":
        return set(op) == {"op", "path", "from"} and isinstance(op["from"], str)
    if op["op"] == "remove":
        return set(op) == {"op", "path"}
    return set(op) == {"op", "path", "value"}


def _at(value) -> datetime | None:
    if not isinstance(value, str) or len(value) > 40:
        return None
    try:
        found = datetime.fromisoformat(value)
        return (found if found.tzinfo else found.replace(tzinfo=timezone.utc)).astimezone(timezone.utc)
    except (ValueError, OverflowError):  # not a time, or out of range once in UTC ("0001-01-01T00:00+05:00")
        return None


def entry(raw, version: int) -> Entry:
    """One change of the file, as a restore takes it, or Invalid naming the field."""
    if not isinstance(raw, dict) or not {"version", "kind", "summary", "args", "at", "undo"} <= set(raw) <= FIELDS:
        raise _damaged(version, "fields")
    if raw["version"] != version or isinstance(raw["version"], bool):
        raise _damaged(version, "version")
    if not isinstance(raw["kind"], str) or not KIND.match(raw["kind"]):
        raise _damaged(version, "kind")
    if not _text(raw["summary"]) or not raw["summary"]:
        raise _damaged(version, "summary")
    if not _args(raw["args"]):
        raise _damaged(version, "args")
    at = _at(raw["at"])
    if at is None:
        raise _damaged(version, "at")
    if not isinstance(raw["undo"], list) or not all(_op(op) for op in raw["undo"]):
        raise _damaged(version, "undo")
    reverts_to, undoes = raw.get("reverts_to"), raw.get("undoes")
    if reverts_to is not None and (isinstance(reverts_to, bool) or not isinstance(reverts_to, int)
                                   or not 0 <= reverts_to < version):
        raise _damaged(version, "reverts_to")
    if undoes is not None and (isinstance(undoes, bool) or not isinstance(undoes, int) or not 1 <= undoes < version
                               or reverts_to is None):
        raise _damaged(version, "undoes")
    return Entry(version, raw["kind"], raw["summary"], raw["args"], at, raw["undo"], reverts_to, undoes)


def _fits(doc, game) -> tuple[str, str] | None:
    """(field, reason) where `doc` does not fit its game, or None."""
    name = doc.get("name") if isinstance(doc, dict) else None
    if not isinstance(name, str) or not name or name != " ".join(clean_line(name).split()) or len(name) > 40:
        return "document.name", "not a table name"
    try:
        validate_document(doc, game.shape)
    except ValidationError as err:
        path, reason = first_error(err)
        return (f"document.{path}" if path else "document"), reason[:300]
    return None


def check(history, doc: dict, game, doc_bytes: int) -> list[Entry]:
    """The file's history, checked against `doc` (its last document, already checked): each patch
    applied back must give a document its game allows. Invalid names the change and the field."""
    if not isinstance(history, list):
        raise _damaged(0, "history")
    if len(history) * max(doc_bytes, 1) > WORK_MAX:
        raise Invalid(Problem("file", N_("This table file's history is too long to check (%(num)d changes)."),
                              {"num": len(history)}))
    entries = [entry(raw, i + 1) for i, raw in enumerate(history)]
    current = copy.deepcopy(doc)  # one copy, then each patch in place, newest change first
    for e in reversed(entries):
        try:
            current = jsonpatch.apply_patch(current, e.undo, in_place=True)
        except (jsonpatch.JsonPatchException, jsonpointer.JsonPointerException, TypeError, KeyError, IndexError,
                ValueError, AttributeError):
            raise _damaged(e.version, "undo") from None
        wrong = _fits(current, game)
        if wrong is not None:
            raise Invalid(Problem("file", N_("This table file's history does not fit its game: undoing change "
                                             "%(version)d gives %(path)s: %(reason)s"),
                                  {"version": e.version, "path": wrong[0], "reason": wrong[1]}))
    return entries
