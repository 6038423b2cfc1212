"""The one strict whole-number parser: what a phone, a query string or a JSON body may spell as a
whole number. Pure (no Flask, no forms), so the rules modules and `domain.count` use it as the
forms do (numbers.py builds the form fields on it).
"""
from __future__ import annotations

import re

# Nine digits fit a 32-bit database integer (PostgreSQL's INTEGER) with room to spare; no count,
# version or id this app reads from a phone comes near it.
MAX_DIGITS = 9
_UNSIGNED = re.compile(r"[0-9]{1,%d}" % MAX_DIGITS, re.ASCII)
_SIGNED = re.compile(r"[+-]?[0-9]{1,%d}" % MAX_DIGITS, re.ASCII)
SPACE = " \t\r\n"  # ASCII spaces around a typed number are forgiven; no other character is


def parse_int(raw, *, signed: bool = False, max_digits: int = MAX_DIGITS) -> int | None:
    """The whole number `raw` spells, or None when it is not one (by the rules above).

    Accepts a str (ASCII digits, an optional sign when `signed`, surrounding ASCII spaces) or an
    int (not a bool) within the same digit limit. Never raises.
    """
    if isinstance(raw, bool):
        return None
    if isinstance(raw, int):
        if abs(raw) >= 10 ** max_digits:
            return None
        return raw if signed or raw >= 0 else None
    if not isinstance(raw, str) or len(raw) > max_digits + 40:
        return None
    text = raw.strip(SPACE)
    if not (_SIGNED if signed else _UNSIGNED).fullmatch(text):
        return None
    value = int(text)
    return value if abs(value) < 10 ** max_digits else None
