"""A group's stats never fall over on a stored score, however large (issue 27: OverflowError was a 500)."""
from babel.numbers import format_decimal

from companion.plays.stats import Line


def test_an_average_beyond_a_float_is_still_a_number():
    line = Line(key="ana", name="Ana", plays=2, scores=[10 ** 400, 3])
    average = line.average
    assert average > 10 ** 300
    assert format_decimal(average, "#,##0.0", locale="fr")  # the group page formats it like this
    assert Line(key="bo", name="Bo", scores=[-(10 ** 400)]).average < 0
    assert Line(key="cy", name="Cy", scores=[1, 2]).average == 1.5
    assert Line(key="di", name="Di").average is None
