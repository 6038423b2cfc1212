"""The result as an image (issue 35): a finished table's standings drawn as SVG, and that SVG
rendered to PNG. Pure: no Flask; the words come in already translated (`Words`).

The SVG is the source: every word in the picture is a <text> node with a class saying what it is
(`game`, `when`, `headline`, `detail`, `name`, `role`, `score`, `side`, `link`), and each player is
a `<g class="row">` carrying `data-rank` and `data-winner`, so a test reads the result back from
it. The PNG is that SVG drawn by resvg (Rust, through the resvg-py wheel: no system library) with
the DejaVu Sans fonts shipped in `fonts/` and no system font at all, so it looks the same on every
machine and in both languages (only the words change; the layout is the same code).

Names can hold anything a player typed (cleaned by text.clean_line, but an imported table or an
older row may carry more): every string is stripped of what XML cannot hold and of bidi controls,
escaped, and shortened with "…" to the width it has, measured with the font's own advance widths
(fontTools). A glyph DejaVu does not have (most CJK, most emoji) is drawn as the font's empty box:
the picture never fails because of a name.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

FONTS = Path(__file__).resolve().parent / "fonts"
REGULAR = FONTS / "DejaVuSans.ttf"
BOLD = FONTS / "DejaVuSans-Bold.ttf"
FAMILY = "DejaVu Sans"

WIDTH = 540          # SVG units; the PNG is drawn at ZOOM times this (1080 px wide: a chat's full width)
ZOOM = 2
PAD = 28
MAX_ROWS = 12        # no game seats more; a longer list (an odd import) stops with "…"
RENDER_VERSION = 1   # part of the image's ETag: bump when the drawing changes

INK, MUTED, PAPER, BAND, LINE, GOLD, GOLD_INK = "#1d1b22", "#5b5766", "#ffffff", "#2b2540", "#dedbe6", "#fff3c4", "#7a5a00"
SWATCH = {"red": "#d7263d", "blue": "#1b75d0", "green": "#2e9e4f", "yellow": "#e0b000", "purple": "#7b3fb8",
          "orange": "#f07c1b", "black": "#111111", "white": "#ffffff"}

# Controls, bidi embeddings/overrides/isolates, and what XML 1.0 cannot carry.
_UNSAFE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
                     "\ufeff\ufff9-\ufffb\ufffe\uffff\ud800-\udfff]")
_JOINERS = {"\u200d", "\u200c"}


@dataclass(frozen=True)
class Words:
    """Everything the picture says, in the reader's language."""

    game: str                 # "7 - The Sins"
    when: str                 # "Friday · Sun 29 Nov 2026" (the table's name and the date)
    headline: str             # "Chiara wins with −8" (export.result_words)
    detail: str | None        # "fewest points win: the Abyss scored −1"
    measure: str | None       # the score column's heading: "Points", "Penalty", "Renown"; None: sides
    sides: dict               # The Others: {"sins": "Sins player", "heroes": "Hero"}
    link_label: str           # "See the table:"
    footer: str               # "Table Companion"


@dataclass(frozen=True)
class Row:
    name: str
    colour: str | None
    rank: int
    winner: bool
    score: str | None         # already written ("−8")
    side: str | None          # The Others: "sins" / "heroes"
    role: str                 # "Eisen / Kaspar Dietrich", "Sins: Pride", ""


def clean(text) -> str:
    """One line of text that XML holds and that cannot reorder what follows it."""
    text = _UNSAFE.sub("", text if isinstance(text, str) else str(text or ""))
    return " ".join(text.split())


# -- measuring with the font's own widths ----------------------------------------------------------

@lru_cache(maxsize=2)
def _metrics(bold: bool) -> tuple[dict[int, int], float]:
    from fontTools.ttLib import TTFont

    font = TTFont(str(BOLD if bold else REGULAR), lazy=True)
    cmap = font.getBestCmap()
    hmtx = font["hmtx"]
    upm = font["head"].unitsPerEm
    widths = {code: hmtx[glyph][0] for code, glyph in cmap.items()}
    font.close()
    return widths, float(upm)


def width(text: str, size: float, bold: bool = False) -> float:
    """How wide `text` is drawn at `size` (no kerning: a little wider than drawn, which is safe)."""
    widths, upm = _metrics(bold)
    notdef = upm * 0.6
    total = 0.0
    for ch in text:
        if unicodedata.combining(ch) or ch in _JOINERS or unicodedata.category(ch) == "Mn":
            continue
        total += widths.get(ord(ch), notdef)
    return total * size / upm


def fit(text: str, room: float, size: float, bold: bool = False) -> str:
    """`text`, or as much of it as fits in `room` followed by "…"; never cut inside a character's
    marks or a joined emoji."""
    text = clean(text)
    if width(text, size, bold) <= room:
        return text
    keep = text
    while keep and width(keep + "…", size, bold) > room:
        keep = keep[:-1]
        while keep and (unicodedata.combining(keep[-1]) or keep[-1] in _JOINERS
                        or "\ufe00" <= keep[-1] <= "\ufe0f" or "\U0001f3fb" <= keep[-1] <= "\U0001f3ff"):
            keep = keep[:-1]
        while keep and keep[-1] in _JOINERS:
            keep = keep[:-1]
    return keep.rstrip() + "…"


def wrap(text: str, room: float, size: float, bold: bool = False, lines: int = 2) -> list[str]:
    """Words over at most `lines` lines of `room`; the last one shortened with "…" if need be."""
    words = clean(text).split(" ")
    out: list[str] = []
    current = ""
    for i, word in enumerate(words):
        trial = f"{current} {word}".strip()
        if width(trial, size, bold) <= room or not current:
            current = trial
            continue
        out.append(current)
        current = word
        if len(out) == lines - 1:
            current = " ".join(words[i:])
            break
    out.append(current)
    return [fit(line, room, size, bold) for line in out[:lines] if line]


# -- drawing ---------------------------------------------------------------------------------------

def _text(x: float, y: float, text: str, size: float, cls: str, *, bold: bool = False, fill: str = INK,
          anchor: str = "start") -> str:
    weight = ' font-weight="bold"' if bold else ""
    end = f' text-anchor="{anchor}"' if anchor != "start" else ""
    return (f'<text class="{cls}" x="{x:g}" y="{y:g}" font-size="{size:g}"{weight}{end} fill="{fill}">'
            f"{escape(text)}</text>")


def result_svg(words: Words, rows: list[Row], link: str | None = None) -> str:
    """The standings as a standalone SVG document (the PNG is drawn from it)."""
    inner = WIDTH - 2 * PAD
    parts: list[str] = []
    y = 0.0
    # The band: the game and when.
    parts.append(f'<rect width="{WIDTH}" height="96" fill="{BAND}"/>')
    parts.append(_text(PAD, 44, fit(words.game, inner, 28, True), 28, "game", bold=True, fill="#ffffff"))
    parts.append(_text(PAD, 74, fit(words.when, inner, 16), 16, "when", fill="#d9d3ee"))
    y = 96 + 40
    for line in wrap(words.headline, inner, 22, True, lines=3):
        parts.append(_text(PAD, y, line, 22, "headline", bold=True))
        y += 29
    if words.detail:
        y += 2
        for line in wrap(words.detail, inner, 16, lines=2):
            parts.append(_text(PAD, y, line, 16, "detail", fill=MUTED))
            y += 22
    heading = words.measure
    if heading:  # the score column's heading (The Others has sides, no scores: no heading, no gap)
        y += 14
        parts.append(_text(WIDTH - PAD, y, fit(heading, inner / 2, 13), 13, "heading", fill=MUTED, anchor="end"))
    y += 8
    shown = rows[:MAX_ROWS]
    for row in shown:
        parts.append(_row(row, y, words))
        y += 64 if row.role else 52
    if len(rows) > MAX_ROWS:
        parts.append(_text(PAD, y + 24, "…", 20, "more", fill=MUTED))
        y += 36
    if link:
        parts.append(f'<line x1="{PAD}" x2="{WIDTH - PAD}" y1="{y:g}" y2="{y:g}" stroke="{LINE}"/>')
        y += 26
        parts.append(_text(PAD, y, fit(words.link_label, inner, 14), 14, "link-label", fill=MUTED))
        y += 22
        parts.append(_text(PAD, y, fit(link, inner, 14), 14, "link", fill=INK))
        y += 10
    y += 36
    parts.append(_text(WIDTH - PAD, y, fit(words.footer, inner, 13), 13, "footer", fill=MUTED, anchor="end"))
    height = int(y + 22)
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
            f'viewBox="0 0 {WIDTH} {height}" font-family="{FAMILY}" role="img" aria-label={quoteattr(clean(words.headline))}>')
    return head + f'<rect width="{WIDTH}" height="{height}" fill="{PAPER}"/>' + "".join(parts) + "</svg>"


def _row(row: Row, top: float, words: Words) -> str:
    tall = 64 if row.role else 52
    out = [f'<g class="row" data-rank="{row.rank}" data-winner="{1 if row.winner else 0}">']
    if row.winner:
        out.append(f'<rect x="{PAD - 10}" y="{top:g}" width="{WIDTH - 2 * PAD + 20}" height="{tall - 6}" rx="10" fill="{GOLD}"/>')
    else:
        out.append(f'<line x1="{PAD}" x2="{WIDTH - PAD}" y1="{top + tall - 3:g}" y2="{top + tall - 3:g}" stroke="{LINE}"/>')
    base = top + 33
    rank = "★" if row.winner else str(row.rank)
    out.append(_text(PAD + 14, base, rank, 20, "rank", bold=True, fill=GOLD_INK if row.winner else MUTED, anchor="middle"))
    colour = SWATCH.get(row.colour or "", None)
    if colour:
        out.append(f'<circle cx="{PAD + 44}" cy="{base - 7}" r="9" fill="{colour}" stroke="#8a8697" stroke-width="1"/>')
    x = PAD + 62
    if row.side is not None:
        right = words.sides.get(row.side, "")
        right_size, right_cls, right_bold = 15, "side", False
    else:
        right = row.score if row.score is not None else "–"
        right_size, right_cls, right_bold = 22, "score", True
    right = fit(right, 170, right_size, right_bold)
    room = WIDTH - PAD - x - width(right, right_size, right_bold) - 16
    out.append(_text(x, base, fit(row.name, room, 20, row.winner), 20, "name", bold=row.winner))
    out.append(_text(WIDTH - PAD, base, right, right_size, right_cls, bold=right_bold,
                     fill=INK if right_cls == "score" else MUTED, anchor="end"))
    if row.role:
        out.append(_text(x, base + 21, fit(row.role, WIDTH - PAD - x, 14), 14, "role", fill=MUTED))
    out.append("</g>")
    return "".join(out)


def render_png(svg: str) -> bytes:
    """The SVG drawn at ZOOM with the shipped fonts only (the same pixels on every machine)."""
    import resvg_py

    return bytes(resvg_py.svg_to_bytes(svg_string=svg, zoom=ZOOM, skip_system_fonts=True,
                                       font_files=[str(REGULAR), str(BOLD)], font_family=FAMILY,
                                       sans_serif_family=FAMILY))
