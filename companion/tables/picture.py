"""The setup picture (issue 35): the table seen from above, drawn for this table's players and options.

A game describes its setup as a `Picture`: rows of pieces in the shared area and each player's area
(a `Seat`), every piece tied to the checklist step that puts it on the table, with the same counts
the checklist says (the game builds both from one set of numbers). `draw` lays it out on a
360-unit-wide canvas and wraps the translated labels (textwrap); templates/_setup_picture.html
only prints the result as inline SVG. Each piece carries the id of its checklist item, so a tick
greys it out (server-side from `done`, and at once in the page, static/js/25-picture.js).

Pure: no Flask. The translation function is passed in (`tr(msgid, **params)`).
"""
from __future__ import annotations

import math
import re
import textwrap
from dataclasses import dataclass, field
from typing import Callable

from ..domain import N_

WIDTH = 360
PAD = 4
GAP = 6
FONT = 12  # labels (CSS px: the page never shows them smaller than this)
LINE = 14
CHAR = 0.55 * FONT  # an average glyph width with room to spare, so a label stays in its box
SEAT_HEAD = 24
SEAT_LINE = 15
CELL_TOP = 60  # icon height in a shared cell, above its label
KINDS = ("cards", "tokens", "board", "figure", "note")


@dataclass(frozen=True)
class Piece:
    """One thing placed on the table, put there by the checklist step `step`.

    `label` is a message id (translated with `params`), unless `name` is true: then it is a name the
    players typed (or a list of them), shown as it is. `count` is shown big when there is one;
    a label never holds a number that is not the checklist step's, unless `ref` says it is a name."""

    step: str
    label: str
    count: int | None = None
    kind: str = "cards"
    params: tuple[tuple[str, object], ...] = ()
    name: bool = False
    ref: bool = False  # the label names something the page lists elsewhere (a hero): no count in it

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"unknown piece kind {self.kind!r}")


@dataclass(frozen=True)
class Seat:
    """A player's place at the table: their name and colour, and what goes in front of them."""

    name: str
    colour: str | None
    pieces: tuple[Piece, ...] = ()


@dataclass(frozen=True)
class Picture:
    """What a game's setup puts where. `item_id` turns a step key into its checklist item's id."""

    shared: tuple[tuple[Piece, ...], ...]
    seats: tuple[Seat, ...]
    clockwise: bool
    done: frozenset[str]
    item_id: str  # e.g. "sins-step-{}-item"
    seat_step: str | None = None  # the step that settles the seats (their order), if the checklist has one


# -- what draw() returns: everything the template prints ------------------------------------------

@dataclass
class Text:
    x: float
    y: float
    lines: list[str]
    cls: str = "pic-l"
    anchor: str = "middle"


@dataclass
class Placed:
    """A piece with its box, its icon and its wrapped label."""

    piece: Piece
    item: str  # the checklist item's id
    done: bool
    x: float
    y: float
    w: float
    h: float
    icon: tuple[float, float, float, float]  # x, y, w, h of the icon
    count: str | None
    label: Text
    inline: bool = False  # a line in a player's area (small icon, text to its right)


@dataclass
class PlacedSeat:
    seat: Seat
    number: int
    x: float
    y: float
    w: float
    h: float
    name: list[str]
    colour: str
    pieces: list[Placed] = field(default_factory=list)


@dataclass
class Drawing:
    width: int
    height: int
    table: tuple[float, float, float, float]
    pieces: list[Placed]
    seats: list[PlacedSeat]
    way: Text
    seat_item: str | None
    seat_done: bool


def wrap(text: str, width_units: float, max_lines: int = 3) -> list[str]:
    """Lines of `text` that fit `width_units` at the label size; the last one cut with an ellipsis.
    A word is cut only when it is far longer than the line (a typed name, say)."""
    chars = max(4, int(width_units // CHAR))
    # French puts a space before : ; ! ? and inside « »: a line never breaks there.
    text = re.sub(r" ([:;!?»])", "\u00a0\\1", text).replace("« ", "«\u00a0")
    longest = max((len(w) for w in re.split(r"[\t\n\x0b\x0c\r ]+", text)), default=0)  # textwrap's words
    lines = textwrap.wrap(text, chars, break_long_words=longest > chars + 3, break_on_hyphens=True) or [""]
    if len(lines) > max_lines:
        lines = lines[:max_lines]
        lines[-1] = lines[-1][:chars - 1].rstrip() + "…"
    return lines


def label_of(piece: Piece, tr: Callable[..., str]) -> str:
    """The label as shown: a parameter given as a tuple is a list of message ids, translated and joined."""
    if piece.name:
        return piece.label
    params = {k: ", ".join(tr(x) for x in v) if isinstance(v, tuple) else v for k, v in piece.params}
    return tr(piece.label, **params)


def seat_rows(n: int, clockwise: bool) -> tuple[list[int], list[int]]:
    """Which seats sit along the top and the bottom edge, left to right (indexes into the seat list).

    Seat 1 is at the bottom left; turns go round from it the way the game plays: clockwise goes up
    the left side and along the top left to right, counter-clockwise along the bottom first."""
    bottom_n = math.ceil(n / 2)
    top_n = n - bottom_n
    if clockwise:
        top = list(range(1, 1 + top_n))
        bottom = [0] + list(range(n - 1, top_n, -1))
    else:
        bottom = list(range(bottom_n))
        top = list(range(n - 1, bottom_n - 1, -1))
    return top, bottom


def _seat_layout(seats, indexes, y, tr, done, item_id):
    """One edge's seats side by side at height `y`, each listing its pieces; all as tall as the tallest."""
    if not indexes:
        return [], 0
    cols = len(indexes)
    w = (WIDTH - 2 * PAD - (cols - 1) * GAP) / cols
    placed = []
    for col, i in enumerate(indexes):
        seat = seats[i]
        x = PAD + col * (w + GAP)
        ps = PlacedSeat(seat, i + 1, x, y, w, 0, wrap(seat.name, w - 30, 1), seat.colour or "none")
        cy = y + SEAT_HEAD + 2
        for piece in seat.pieces:
            text = label_of(piece, tr)
            if piece.count is not None:
                text = f"{piece.count} × {text}" if piece.kind != "note" else f"{text}: {piece.count}"
            lines = wrap(text, w - 22, 5)
            h = len(lines) * SEAT_LINE
            ps.pieces.append(Placed(piece, item_id.format(piece.step), piece.step in done, x + 4, cy, w - 8, h,
                                    (x + 6, cy + 1, 9, 12), None,
                                    Text(x + 20, cy + 11, lines, "pic-s", "start"), inline=True))
            cy += h + 2
        ps.h = cy - y + 4
        placed.append(ps)
    height = max(p.h for p in placed)
    for p in placed:
        p.h = height
    return placed, height


def draw(pic: Picture, tr: Callable[..., str]) -> Drawing:
    """Lay the picture out: top seats, the shared area, bottom seats; every label translated and wrapped."""
    top_i, bottom_i = seat_rows(len(pic.seats), pic.clockwise)
    y = PAD
    top, top_h = _seat_layout(pic.seats, top_i, y, tr, pic.done, pic.item_id)
    y += top_h + (GAP if top else 0)
    table_y = y
    pieces = []
    y += 8
    for row in pic.shared:
        if not row:
            continue
        cols = len(row)
        inner = WIDTH - 2 * PAD - 12
        w = (inner - (cols - 1) * 4) / cols
        labels = []
        for piece in row:
            text = label_of(piece, tr)
            labels.append(wrap(text, w - 2, 4))
        lines = max(len(lab) for lab in labels)
        notes = all(p.kind == "note" for p in row)
        h = (4 if notes else CELL_TOP) + lines * LINE + 4
        for col, (piece, lab) in enumerate(zip(row, labels)):
            x = PAD + 6 + col * (w + 4)
            cx = x + w / 2
            iw, ih = {"cards": (30, 40), "tokens": (36, 36), "board": (52, 36), "figure": (30, 40), "note": (0, 0)}[piece.kind]
            if piece.kind == "board":
                iw = min(iw, w - 8)
            icon = (cx - iw / 2, y + 4 + (40 - ih) / 2, iw, ih)
            label_y = y + (14 if notes else CELL_TOP)
            pieces.append(Placed(piece, pic.item_id.format(piece.step), piece.step in pic.done, x, y, w, h, icon,
                                 None if piece.count is None else str(piece.count), Text(cx, label_y, lab)))
        y += h + 4
    y += 14
    table = (PAD, table_y, WIDTH - 2 * PAD, y - table_y)
    way = Text(WIDTH / 2, y - 6, [tr(N_("Turns go clockwise") if pic.clockwise else N_("Turns go counter-clockwise"))],
               "pic-way")
    y += GAP
    bottom, bottom_h = _seat_layout(pic.seats, bottom_i, y, tr, pic.done, pic.item_id)
    y += bottom_h + PAD
    seat_item = pic.item_id.format(pic.seat_step) if pic.seat_step else None
    return Drawing(WIDTH, math.ceil(y), table, pieces, top + bottom, way, seat_item,
                   pic.seat_step in pic.done if pic.seat_step else False)
