"""The race to 1000 as a line chart: coordinates for a server-rendered SVG (templates/gibbon/_chart.html).

Pure geometry, no Flask. Colours and dash patterns come from CSS classes, so the chart follows the
light and dark themes and never needs a style attribute (strict CSP): `series-1` ... `series-7` give
each line its dash pattern (colour is never the only cue) and a theme colour, and a player who chose
a colour at the table gets it too (`pc-red` ..., the classes every player swatch uses).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Mapping, Sequence

from .rules import LIMIT

WIDTH, HEIGHT = 340, 220
LEFT, RIGHT, TOP, BOTTOM = 44, 12, 12, 30
Y_STEP = 250


@dataclass(frozen=True)
class Series:
    pid: int
    index: int  # 1-based, stable per player: picks the colour and dash class
    points: str  # "x,y x,y ..." for <polyline points>
    dots: tuple[tuple[float, float], ...]
    last: int
    colour: str | None = None  # the colour the player chose at the table, if any

    @property
    def css(self) -> str:
        """The line's classes: its dash pattern, and the player's own colour when they chose one."""
        return f"series-{self.index}" + (f" pc pc-{self.colour}" if self.colour else "")


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    left: int
    right: float
    top: int
    bottom: float
    series: tuple[Series, ...]
    y_ticks: tuple[tuple[int, float], ...]
    x_ticks: tuple[tuple[int, float], ...]
    limit_y: float

    @property
    def css(self) -> dict[int, str]:
        """Each player's line classes, by player id (for the legend's keys)."""
        return {s.pid: s.css for s in self.series}


def _fmt(v: float) -> str:
    return f"{v:.1f}".rstrip("0").rstrip(".")


def running_chart(player_ids: Sequence[int], colour_order: Sequence[int],
                  totals_by_round: Sequence[Mapping[int, int]],
                  colours: Mapping[int, str | None] | None = None) -> Chart | None:
    """A line per player through 0 and their running total after each round; None before round 1.

    `colour_order` fixes each player's series class (by id, not seat, so a swap keeps colours);
    `colours` are the colours players chose at the table (by id), drawn instead of the theme's.
    """
    rounds = len(totals_by_round)
    if rounds == 0:
        return None
    top_value = max([LIMIT] + [v for t in totals_by_round for v in t.values()])
    y_max = int(math.ceil(top_value / Y_STEP) * Y_STEP)
    right, bottom = WIDTH - RIGHT, HEIGHT - BOTTOM
    plot_w, plot_h = right - LEFT, bottom - TOP

    def x(r: int) -> float:
        return LEFT + plot_w * r / rounds

    def y(v: int) -> float:
        return bottom - plot_h * v / y_max

    series = []
    for pid in player_ids:
        values = [0] + [t.get(pid, 0) for t in totals_by_round]
        dots = tuple((round(x(r), 1), round(y(v), 1)) for r, v in enumerate(values))
        series.append(Series(pid=pid, index=list(colour_order).index(pid) % 7 + 1,
                             points=" ".join(f"{_fmt(a)},{_fmt(b)}" for a, b in dots),
                             dots=dots, last=values[-1], colour=(colours or {}).get(pid) or None))
    y_ticks = tuple((v, round(y(v), 1)) for v in range(0, y_max + 1, Y_STEP))
    every = max(1, math.ceil(rounds / 10))  # at most about ten round labels
    x_ticks = tuple((r, round(x(r), 1)) for r in range(0, rounds + 1) if r % every == 0 or r == rounds)
    return Chart(width=WIDTH, height=HEIGHT, left=LEFT, right=right, top=TOP, bottom=bottom,
                 series=tuple(series), y_ticks=y_ticks, x_ticks=x_ticks, limit_y=round(y(LIMIT), 1))
