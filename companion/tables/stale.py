"""Judging a stale tap on what the phone saw.

An action declared `depends_on_state=True` decides its effect from the state it lands on (the third
Last Judgment ends the game, "done" passes the turn to whoever is next, +1 Renown can cross a
victory). When it comes from a phone that missed changes, the store runs it twice: on the document
that phone saw and on the table as it is. It lands only when both runs have the same effect; else
the phone gets the fresh table (a conflict), never an outcome it could not see coming.

"The same effect" means: the same values written, and each number moved by the same amount (a count
the document leaves out is 0). So two
phones' "+1" on one counter both land (6 then 7: each moved it by one), while a +1 that crosses an
end, or a "next turn" that now passes to someone else, writes something else, and is refused.
"""
from __future__ import annotations

from typing import Iterator

MISSING = object()


def _leaves(before, after, path: tuple = ()) -> Iterator[tuple[tuple, object, object]]:
    """(path, old, new) of every value that differs between two JSON documents. Dicts are compared
    key by key, lists of one length item by item; anything else that differs is one value."""
    if isinstance(before, dict) and isinstance(after, dict):
        for key in before.keys() | after.keys():
            yield from _leaves(before.get(key, MISSING), after.get(key, MISSING), path + (key,))
    elif isinstance(before, list) and isinstance(after, list) and len(before) == len(after):
        for i, (b, a) in enumerate(zip(before, after)):
            yield from _leaves(b, a, path + (i,))
    elif before != after or type(before) is not type(after):
        yield path, before, after


def _number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def effect(before: dict, after: dict) -> dict[tuple, tuple[str, object]]:
    """What a change did, independent of the values it started from where it moved a number:
    path -> ("by", delta) for a number moved, ("set", value) for anything else written."""
    out: dict[tuple, tuple[str, object]] = {}
    for path, old, new in _leaves(before, after):
        # A counter the document leaves out is at 0 (the games drop a count that falls to 0).
        old = 0 if old is MISSING and _number(new) else old
        new = 0 if new is MISSING and _number(old) else new
        out[path] = ("by", new - old) if _number(old) and _number(new) else ("set", new)
    return out


def same_effect(seen_before: dict, seen_after: dict, now_before: dict, now_after: dict) -> bool:
    """Whether a change has the effect on the table as it is that it had on what the phone saw."""
    return effect(seen_before, seen_after) == effect(now_before, now_after)
