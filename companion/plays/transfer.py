"""A whole table as JSON, for backup, and the checks a file must pass to come back in. Pure.

    {"format": "table-companion/table", "version": 2, "game": "sins", "exported_at": "...",
     "document": {"name", "status", "state": {"players": [...], "game": {...}}, "result"},
     "group": "<the group's mark>" (only for a table in a group: backup.group_mark),
     "history": [{"version", "kind", "summary", "args", "at", "undo", "reverts_to", "undoes"}, ...]}

An import makes a new table from the document (a new link) with its history: each change's `undo`
patch comes back, so History, Undo and "undo back to here" work on the restored table (backup.py
checks the history; tables/restore.py writes it). A version 1 file (from before backups carried the
patches) still imports, without its history: the new table's log starts with the import. An import
refuses, with a message, anything that is not such a file: wrong format, unknown game, players that
are not a valid seat list, a document its game's declared model refuses (tables/shape.py and
games/<game>/shape.py: every key, its type and its range; the message names the field), a history
whose patches do not give such documents, or too big or too deep. NaN, Infinity and numbers beyond
nine digits never get in.
"""
from __future__ import annotations

import json
import math

from ..domain import N_, Invalid, Problem
from ..tables import players as players_mod
from ..tables.shape import ValidationError, first_error, validate_document
from ..text import clean_line
from . import backup
from .export import iso_utc

FORMAT = "table-companion/table"
VERSION = 2
READS = (1, 2)  # version 1: without the undo patches (its history cannot come back)
MAX_BYTES = 512 * 1024
MAX_DEPTH = 24
STATUSES = ("setup", "playing", "finished")


def document(table) -> dict:
    return {"name": table.name, "status": table.status, "state": table.state, "result": table.result}


def dump(table, actions, exported_at: str, group_token: str | None = None) -> dict:
    data = {"format": FORMAT, "version": VERSION, "game": table.game, "exported_at": exported_at,
            "document": document(table)}
    if group_token is not None:
        data["group"] = backup.group_mark(group_token)
    data["history"] = backup.dump(actions, iso_utc)
    return data


def to_json(data: dict) -> str:
    """The file's text: standard JSON, indented, with one line per logged change (a thousand changes
    of indented patches would take a third more room: measured in docs/security.md)."""
    head = {k: v for k, v in data.items() if k != "history"}
    lines = ",\n".join("  " + json.dumps(h, ensure_ascii=False, separators=(",", ":"))
                       for h in data.get("history", []))
    text = json.dumps(head, ensure_ascii=False, indent=1)
    return text[:-2] + ',\n "history": [\n' + lines + ("\n ]\n}" if lines else "]\n}")


def history(data: dict, doc: dict, games: dict) -> list | None:
    """The file's history, checked (backup.check) against its validated document `doc`; None for a
    version 1 file, whose history has no patches to come back with."""
    if data.get("version") == 1:
        return None
    size = len(json.dumps(doc, ensure_ascii=False, separators=(",", ":")))
    return backup.check(data.get("history"), doc, games[data["game"]], size)


def _bad(message: str, **params) -> Invalid:
    return Invalid(Problem("file", message, params))


def _depth(value, limit: int) -> int:
    stack = [(value, 1)]
    deepest = 0
    while stack:
        item, d = stack.pop()
        deepest = max(deepest, d)
        if d > limit:
            return d
        if isinstance(item, dict):
            stack.extend((v, d + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, d + 1) for v in item)
    return deepest


def _no_constant(name: str):
    """NaN, Infinity and -Infinity, which Python's json accepts but JSON does not have."""
    raise ValueError(f"{name} is not a JSON number")


def _finite(text: str) -> float:
    """A JSON number with a fraction or exponent; 1e400 would otherwise come back as infinity."""
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{text} is not a finite number")
    return value


def parse(raw: bytes) -> dict:
    """The file's JSON object, refusing what is too big, not JSON, or too deeply nested."""
    if len(raw) > MAX_BYTES:
        raise _bad(N_("The file is too big for a table (at most %(kb)d KB)."), kb=MAX_BYTES // 1024)
    try:
        data = json.loads(raw.decode("utf-8"), parse_constant=_no_constant, parse_float=_finite)
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise _bad(N_("This is not a table file: it is not valid JSON.")) from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise _bad(N_("This is not a table file from this app."))
    if data.get("version") not in READS or isinstance(data.get("version"), bool):
        raise _bad(N_("This table file comes from another version of the app."))
    if _depth(data, MAX_DEPTH) > MAX_DEPTH:
        raise _bad(N_("This table file is nested too deeply to be one of ours."))
    return data


def _does_not_fit(path: str, reason: str) -> Invalid:
    return _bad(N_("This table file does not fit its game at %(path)s: %(reason)s"), path=path, reason=reason)


def check_document(doc: dict, game) -> None:
    """The document as the game declares it (`game.shape`), or Invalid naming the field."""
    try:
        validate_document(doc, game.shape)
    except ValidationError as err:
        path, reason = first_error(err)
        raise _does_not_fit(f"document.{path}" if path else "document", reason[:300]) from None


def validate(data: dict, games: dict) -> tuple[str, dict]:
    """(game key, document) of a parsed file, or Invalid naming what is wrong."""
    game = games.get(data.get("game")) if isinstance(data.get("game"), str) else None
    if game is None or game.shape is None:  # a game that declares no model cannot be checked
        raise _bad(N_("This table file is for a game this app does not know."))
    doc = data.get("document")
    if not isinstance(doc, dict) or not isinstance(doc.get("state"), dict):
        raise _bad(N_("This table file has no table in it."))
    status = doc.get("status")
    if status not in STATUSES:
        raise _bad(N_("This table file has an unknown status."))
    name = doc.get("name")
    if not isinstance(name, str):
        raise _bad(N_("This table file has no table name."))
    from ..tables.store import clean_table_name

    name = clean_table_name(clean_line(name))  # as if typed: NUL, overrides, invisible-only go
    state = doc["state"]
    people = state.get("players")
    if not isinstance(people, list) or not game.min_players <= len(people) <= game.max_players:
        raise _bad(N_("%(game)s is for %(min)d to %(max)d players."), game=game.title, min=game.min_players,
                   max=game.max_players)
    ids = []
    for p in people:
        if not isinstance(p, dict) or set(p) != {"id", "name", "colour"} or isinstance(p["id"], bool) \
                or not isinstance(p["id"], int) or not 1 <= p["id"] <= 99 or not isinstance(p["name"], str) \
                or p["colour"] not in (None, *players_mod.COLOURS):
            raise _bad(N_("A player in this table file is not valid."))
        ids.append(p["id"])
    if len(set(ids)) != len(ids):
        raise _bad(N_("Two players in this table file have the same id."))
    # Names as the app would accept them when typed (length, spaces, no two alike).
    clean = players_mod.make_players([p["name"] for p in people], [p["colour"] for p in people])
    if [c["name"] for c in clean] != [p["name"] for p in people]:
        raise _bad(N_("A player's name in this table file is not valid."))
    if not isinstance(state.get("game"), dict):
        raise _bad(N_("This table file has no game state."))
    # Everything else as the game declares it: its state, the result, every number in range.
    check_document({**doc, "name": name}, game)
    return game.key, {"name": name, "status": status, "state": state, "result": doc.get("result")}
