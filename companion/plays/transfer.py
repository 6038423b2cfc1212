"""A whole table as JSON, for backup, and the checks a file must pass to come back in. Pure.

    {"format": "table-companion/table", "version": 1, "game": "sins", "exported_at": "...",
     "document": {"name", "status", "state": {"players": [...], "game": {...}}, "result"},
     "history": [{"version", "kind", "summary", "args", "at", "undoes"}, ...]}

An import makes a new table from the document (a new link; the history stays in the file: the log
of the new table starts with the import). It refuses, with a message, anything that is not such a
file: wrong format, unknown game, players that are not a valid seat list, a game state whose shape
differs from the game's own (a key missing, unknown, or of the wrong kind), or too big or too deep.
"""
from __future__ import annotations

import json

from ..domain import N_, Invalid, Problem
from ..tables import players as players_mod

FORMAT = "table-companion/table"
VERSION = 1
MAX_BYTES = 512 * 1024
MAX_DEPTH = 24
STATUSES = ("setup", "playing", "finished")


def document(table) -> dict:
    return {"name": table.name, "status": table.status, "state": table.state, "result": table.result}


def dump(table, actions, exported_at: str) -> dict:
    return {"format": FORMAT, "version": VERSION, "game": table.game, "exported_at": exported_at,
            "document": document(table),
            "history": [{"version": a.version, "kind": a.kind, "summary": a.summary, "args": a.args,
                         "at": a.created_at.isoformat(), "undoes": a.undoes} for a in actions]}


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


def parse(raw: bytes) -> dict:
    """The file's JSON object, refusing what is too big, not JSON, or too deeply nested."""
    if len(raw) > MAX_BYTES:
        raise _bad(N_("The file is too big for a table (at most %(kb)d KB)."), kb=MAX_BYTES // 1024)
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise _bad(N_("This is not a table file: it is not valid JSON.")) from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise _bad(N_("This is not a table file from this app."))
    if data.get("version") != VERSION:
        raise _bad(N_("This table file comes from another version of the app."))
    if _depth(data, MAX_DEPTH) > MAX_DEPTH:
        raise _bad(N_("This table file is nested too deeply to be one of ours."))
    return data


def _kind(value) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, (int, float)):
        return "number"
    return {str: "text", list: "list", dict: "object"}.get(type(value), "other")


def check_shape(found: dict, skeleton: dict, path: str = "state.game") -> None:
    """The game state has exactly the keys of a new table's state, each of the same kind (a key that
    is empty on a new table, None, takes any value but a list or object where a number is)."""
    missing = [k for k in skeleton if k not in found]
    extra = [k for k in found if k not in skeleton]
    if missing or extra:
        raise _bad(N_("The game's state does not match %(game)s: %(keys)s."),
                   game=path, keys=", ".join(sorted(map(str, missing + extra)))[:200])
    for key, model in skeleton.items():
        want, got = _kind(model), _kind(found[key])
        if want != "null" and got != want and got != "null":
            raise _bad(N_("The game's state does not match at %(path)s."), path=f"{path}.{key}")
        if want == "object" and got == "object" and model:
            # Nested objects with fixed keys on a new table (e.g. a score sheet) keep them.
            check_shape(found[key], model, f"{path}.{key}")


def validate(data: dict, games: dict) -> tuple[str, dict]:
    """(game key, document) of a parsed file, or Invalid naming what is wrong."""
    game = games.get(data.get("game")) if isinstance(data.get("game"), str) else None
    if game is None:
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

    name = clean_table_name(name)
    state = doc["state"]
    people = state.get("players")
    if not isinstance(people, list) or not game.min_players <= len(people) <= game.max_players:
        raise _bad(N_("%(game)s is for %(min)d to %(max)d players."), game=game.title, min=game.min_players,
                   max=game.max_players)
    ids = []
    for p in people:
        if not isinstance(p, dict) or set(p) != {"id", "name", "colour"} or _kind(p["id"]) != "number" \
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
    if set(state) != {"players", "game"} or not isinstance(state["game"], dict):
        raise _bad(N_("This table file has no game state."))
    check_shape(state["game"], game.new_state(people))
    result = doc.get("result")
    if result is not None:
        ok = isinstance(result, dict) and isinstance(result.get("winners"), list) \
            and all(isinstance(w, str) for w in result["winners"]) and isinstance(result.get("scores", []), list) \
            and all(isinstance(s, dict) and isinstance(s.get("name"), str) for s in result.get("scores", []))
        if not ok:
            raise _bad(N_("The result in this table file is not valid."))
    return game.key, {"name": name, "status": status, "state": state, "result": result}
