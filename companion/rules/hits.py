"""What a search returns, and the highlighted title and snippet each hit shows.

What it holds: `Hit` and `Result`, and the pieces of shown text (`Part`: text, and whether it
matched the query) that their titles and snippets are cut into: `highlight` marks the words of a
text whose stem the query found, `snippet_of` picks the short passage of a section that best shows
why it matched. The web layer escapes every part and wraps the highlighted ones in <mark>
(`parts_html`), so neither content nor query can inject HTML.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping, Sequence

from markupsafe import Markup, escape

from .indexing import Row, Text

SNIPPET_WORDS = 22

Part = tuple[str, bool]  # a piece of shown text, and whether it matched the query


def parts_text(parts: Sequence[Part]) -> str:
    return "".join(text for text, _ in parts)


def parts_html(parts: Sequence[Part]) -> Markup:
    """The parts as safe HTML: every piece escaped, matches wrapped in <mark>."""
    return Markup("").join(Markup("<mark>%s</mark>") % t if hit else escape(t) for t, hit in parts)


@dataclass(frozen=True)
class Hit:
    game: str
    slug: str
    lang: str  # the language of the snippet
    score: float
    title: tuple[Part, ...]
    snippet: tuple[Part, ...]
    anchor: str | None  # the heading of the part that matched, None for the top of the section

    @property
    def title_text(self) -> str:
        return parts_text(self.title)

    @property
    def snippet_text(self) -> str:
        return parts_text(self.snippet)

    @property
    def title_html(self) -> Markup:
        return parts_html(self.title)

    @property
    def snippet_html(self) -> Markup:
        return parts_html(self.snippet)


@dataclass(frozen=True)
class Result:
    query: str
    hits: tuple[Hit, ...] = ()
    # Words the player typed that were read as other words: {"stoens": "stones"}.
    corrections: Mapping[str, str] = field(default_factory=dict)


def highlight(text: Text, marks: set[str], start: int = 0, end: int | None = None) -> tuple[Part, ...]:
    """The text from `start` to `end` cut into parts, the words whose stem is in `marks` highlighted."""
    end = len(text.text) if end is None else end
    parts: list[Part] = []
    pos = start
    for a, b, s in text.words:
        if a < start or b > end or s is None or s not in marks:
            continue
        if a > pos:
            parts.append((text.text[pos:a], False))
        parts.append((text.text[a:b], True))
        pos = b
    if pos < end:
        parts.append((text.text[pos:end], False))
    return tuple(parts)


def _window(text: Text, marks: set[str], size: int) -> tuple[int, int, int]:
    """(score, first word, last word) of the best run of `size` words: distinct matches count most."""
    n = len(text.words)
    if n == 0 or text.stems.isdisjoint(marks):
        return (0, 0, min(size, n) - 1)
    flags = [s if s is not None and s in marks else None for _, _, s in text.words]
    counts: dict[str, int] = {}
    matches = distinct = 0
    best = (0, 0, min(size, n) - 1)
    for i, f in enumerate(flags):
        if f:
            matches += 1
            seen = counts.get(f, 0)
            distinct += seen == 0
            counts[f] = seen + 1
        if i >= size and (gone := flags[i - size]):
            matches -= 1
            counts[gone] -= 1
            distinct -= counts[gone] == 0
        if i >= size - 1 or i == n - 1:
            score = 3 * distinct + matches
            if score > best[0]:
                best = (score, max(0, i - size + 1), i)
    return best


def _cut(text: Text, marks: set[str], first: int, last: int) -> tuple[Part, ...]:
    if not text.words:
        return ((text.text, False),) if text.text else ()
    start = 0 if first == 0 else text.words[first][0]
    end = len(text.text) if last >= len(text.words) - 1 else text.words[last][1]
    if end < len(text.text) and not text.text[end].isspace():
        end += 1  # keep the punctuation that ends the last word
    parts = list(highlight(text, marks, start, end))
    if first > 0:
        parts.insert(0, ("… ", False))
    if end < len(text.text.rstrip()):
        parts.append((" …", False))
    return tuple(parts)


def snippet_of(row: Row, marks: set[str]) -> tuple[tuple[Part, ...], str | None]:
    """The short passage of a section that best shows why it matched, and the heading it is under."""
    candidates = [(None, row.summary, frozenset())] + list(row.blocks)
    best = None
    for anchor, text, heading in candidates:
        score, first, last = _window(text, marks, SNIPPET_WORDS)
        score += 3 * len(heading & marks)
        if best is None or score > best[0]:
            best = (score, anchor, text, first, last)
    score, anchor, text, first, last = best
    if score == 0:
        text, anchor, first, last = row.summary, None, 0, SNIPPET_WORDS + 8
    return _cut(text, marks, first, last), anchor
