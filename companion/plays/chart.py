"""A group's charts as server-made SVG: wins per player, and scores over time in one game.

No chart script: the SVG is part of the page. Colours and text come from CSS classes (see
static/css/60-groups.css), so the dark theme and each player's table colour apply. One colour per
player for the whole group (`player_classes`), the same in every chart and legend, and no two
players alike while there are colours left (fourteen: up to 14 players each have their own).
Sizes are in a 320-unit-wide viewBox drawn at 100% width, so the chart stays readable on a 360 px
phone. Pure: takes its labels ready-translated.
"""
from __future__ import annotations

from markupsafe import Markup, escape

from .stats import Line, PlayRecord

WIDTH = 320
COLOURS = ("red", "blue", "green", "yellow", "purple", "orange", "black", "white")
FALLBACKS = 6
LABEL_CHARS = 11


def colour_class(colour: str | None, index: int) -> str:
    return f"c-{colour}" if colour in COLOURS else f"c-auto{index % FALLBACKS}"


PALETTE = tuple(f"c-auto{i}" for i in range(FALLBACKS)) + tuple(f"c-{c}" for c in COLOURS)


def player_classes(lines: list[Line]) -> dict[str, str]:
    """One colour class per player of a group, by player key: the colour they last played with at
    the table, unless a player listed before them (most wins first) has it already; then the first
    colour nobody has. Distinct for as many players as there are colours; after that they repeat."""
    out: dict[str, str] = {}
    taken: set[str] = set()
    for ln in lines:
        own = f"c-{ln.colour}" if ln.colour in COLOURS else None
        if own and own not in taken:
            out[ln.key] = own
            taken.add(own)
    for i, ln in enumerate(lines):
        if ln.key in out:
            continue
        free = [c for c in PALETTE if c not in taken]
        out[ln.key] = free[0] if free else PALETTE[i % len(PALETTE)]
        taken.add(out[ln.key])
    return out


def short(name: str) -> str:
    return name if len(name) <= LABEL_CHARS else name[:LABEL_CHARS - 1] + "…"


def wins_chart(lines: list[Line], title: str, wins_label, classes: dict[str, str] | None = None) -> Markup:
    """Horizontal bars, one per player (most wins first): the bar is the wins, the number at its end
    says "3 / 5" (wins of plays). `wins_label(line)` is the bar's spoken text; `classes` the
    group's colour per player key (player_classes)."""
    classes = classes if classes is not None else player_classes(lines)
    if not lines:
        return Markup("")
    row, top, label_w = 30, 4, 92
    height = top + row * len(lines)
    most = max(max(ln.plays for ln in lines), 1)
    span = WIDTH - label_w - 52
    parts = [f'<svg class="chart chart-wins" viewBox="0 0 {WIDTH} {height}" role="img" '
             f'aria-label="{escape(title)}" xmlns="http://www.w3.org/2000/svg"><title>{escape(title)}</title>']
    for i, ln in enumerate(lines):
        y = top + i * row
        played = span * ln.plays / most
        won = span * ln.wins / most
        parts.append(
            f'<g class="{classes.get(ln.key) or colour_class(ln.colour, i)}"><title>{escape(wins_label(ln))}</title>'
            f'<text class="chart-label" x="0" y="{y + 19}">{escape(short(ln.name))}</text>'
            f'<rect class="chart-track" x="{label_w}" y="{y + 5}" width="{played:.1f}" height="18" rx="3"/>'
            f'<rect class="chart-bar" x="{label_w}" y="{y + 5}" width="{max(won, 0):.1f}" height="18" rx="3"/>'
            f'<text class="chart-value" x="{label_w + played + 4:.1f}" y="{y + 19}">{ln.wins}/{ln.plays}</text></g>')
    parts.append("</svg>")
    return Markup("".join(parts))


def scores_chart(chosen: list[PlayRecord], series: dict[str, list[tuple[int, int]]], lines: dict[str, Line],
                 title: str, x_label: str, classes: dict[str, str] | None = None) -> Markup:
    """Each player's score in the last plays of one game, oldest on the left, one line per player in
    their colour (`classes`, as in the wins chart), with a zero line when scores cross it."""
    classes = classes if classes is not None else player_classes(list(lines.values()))
    if not chosen or not series:
        return Markup("")
    height, left, right, top, bottom = 180, 34, 8, 8, 22
    values = [s for pts in series.values() for _i, s in pts]
    lo, hi = min(values + [0]), max(values + [0])
    if hi == lo:
        hi = lo + 1
    n = max(len(chosen) - 1, 1)
    xs = lambda i: left + (WIDTH - left - right) * i / n  # noqa: E731
    ys = lambda v: top + (height - top - bottom) * (hi - v) / (hi - lo)  # noqa: E731
    parts = [f'<svg class="chart chart-scores" viewBox="0 0 {WIDTH} {height}" role="img" '
             f'aria-label="{escape(title)}" xmlns="http://www.w3.org/2000/svg"><title>{escape(title)}</title>',
             f'<line class="chart-axis" x1="{left}" y1="{ys(0):.1f}" x2="{WIDTH - right}" y2="{ys(0):.1f}"/>',
             f'<text class="chart-tick" x="{left - 4}" y="{ys(hi) + 8:.1f}" text-anchor="end">{hi}</text>',
             f'<text class="chart-tick" x="{left - 4}" y="{ys(lo):.1f}" text-anchor="end">{lo}</text>']
    if lo < 0 < hi:
        parts.append(f'<text class="chart-tick" x="{left - 4}" y="{ys(0) + 4:.1f}" text-anchor="end">0</text>')
    parts.append(f'<text class="chart-tick" x="{(left + WIDTH - right) / 2:.0f}" y="{height - 4}" '
                 f'text-anchor="middle">{escape(x_label)}</text>')
    order = list(lines)
    for key, pts in series.items():
        line = lines.get(key)
        index = order.index(key) if key in order else 0
        cls = classes.get(key) or colour_class(line.colour if line else None, index)
        name = line.name if line else key
        coords = " ".join(f"{xs(i):.1f},{ys(v):.1f}" for i, v in pts)
        parts.append(f'<g class="{cls}"><title>{escape(name)}</title>'
                     f'<polyline class="chart-line" points="{coords}"/>')
        parts.extend(f'<circle class="chart-dot" cx="{xs(i):.1f}" cy="{ys(v):.1f}" r="3"/>' for i, v in pts)
        parts.append("</g>")
    parts.append("</svg>")
    return Markup("".join(parts))
