"""The race chart's geometry: a line per player from 0 through each running total, 1000 drawn as Hell."""
from __future__ import annotations

from companion.games.gibbon import chart


def test_no_chart_before_the_first_round():
    assert chart.running_chart([1, 2, 3], [1, 2, 3], []) is None


def test_lines_start_at_zero_and_pass_each_running_total():
    c = chart.running_chart([2, 1, 3], [1, 2, 3], [{1: 250, 2: 0, 3: 500}, {1: 500, 2: 1000, 3: 750}])
    by_pid = {s.pid: s for s in c.series}
    assert [len(s.dots) for s in c.series] == [3, 3, 3]
    assert {s.pid: s.index for s in c.series} == {1: 1, 2: 2, 3: 3}  # colours follow ids, not seats
    zero_y = c.bottom
    assert by_pid[1].dots[0] == (c.left, zero_y)
    assert by_pid[2].dots[-1][1] == c.limit_y  # 1000 sits on the Hell line
    assert by_pid[1].dots[1][1] == round(c.bottom - (c.bottom - c.top) * 250 / 1000, 1)
    assert by_pid[3].dots[-1][0] == c.right and by_pid[3].last == 750
    assert [v for v, _y in c.y_ticks] == [0, 250, 500, 750, 1000]


def test_the_scale_grows_past_1000_and_round_labels_thin_out():
    totals = [{1: 40 * r, 2: 30 * r, 3: 0} for r in range(1, 26)]
    totals[-1][1] = 1130
    c = chart.running_chart([1, 2, 3], [1, 2, 3], totals)
    assert c.y_ticks[-1][0] == 1250 and c.limit_y > c.top
    labels = [r for r, _x in c.x_ticks]
    assert labels[0] == 0 and labels[-1] == 25 and len(labels) <= 15
