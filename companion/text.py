"""Cleaning the short texts players type (player and table names, saved track names). Pure: no Flask.

What is removed: control characters (NUL included: PostgreSQL refuses it in text), zero-width and
other invisible format characters, and the bidirectional overrides and isolates, which could make a
name reverse the whole line it is shown in. Every kind of space (tab, no-break, ideographic...)
counts as one space, and spaces at the ends are dropped. What is left must show at least one
visible character, or the text counts as empty.

Right-to-left names stay as typed: shown inside `<bdi>` (the `name` template filter) or, in plain
text such as a log line, between the Unicode isolate marks (`isolate`), so they cannot reorder
the words around them.
"""
from __future__ import annotations

import unicodedata

# Zero-width joiner and non-joiner are kept between letters: Persian and Indic names, and emoji
# sequences, need them. Every other format character (Cf) goes.
_JOINERS = {"\u200c", "\u200d"}
# Letters and symbols that draw nothing: a name of only these would be an invisible player.
_BLANK = {"\u115f", "\u1160", "\u3164", "\uffa0", "\u2800", "\u180e"}
_RTL = {"R", "AL"}
FSI, PDI = "\u2068", "\u2069"


def _keep(ch: str) -> bool:
    cat = unicodedata.category(ch)
    if cat == "Cc":
        return ch in "\t\n\r"  # turned into spaces below
    if cat == "Cf":
        return ch in _JOINERS
    return cat not in ("Cs", "Co", "Cn")  # lone surrogates, private use, unassigned


def visible(text: str) -> bool:
    """True when `text` draws at least one character (a letter, digit, mark on one, symbol...)."""
    return any(not ch.isspace() and ch not in _BLANK and unicodedata.category(ch)[0] in "LNPS" for ch in text)


def clean_line(raw) -> str:
    """One line of typed text, cleaned as described above; "" when nothing visible is left."""
    if not isinstance(raw, str):
        return ""
    kept = "".join(ch for ch in raw if _keep(ch))
    text = " ".join(kept.split())
    # A joiner at either end of a word joins nothing.
    text = " ".join(w.strip("".join(_JOINERS)) for w in text.split(" "))
    text = " ".join(text.split())
    return text if visible(text) else ""


def has_rtl(text: str) -> bool:
    return any(unicodedata.bidirectional(ch) in _RTL for ch in text)


def isolate(text: str) -> str:
    """`text` for a plain-text line: controls stripped, and isolated when it holds right-to-left
    letters, so a name cannot reorder the sentence around it."""
    text = "".join(ch for ch in text if _keep(ch) or ch == " ")
    return f"{FSI}{text}{PDI}" if has_rtl(text) else text
