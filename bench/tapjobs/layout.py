"""The shared layout (issue 15): the seat order on the new-table form and the shared number entry.

Budgets are this area's own: reversing a typed seat order is one tap (it took 6 with the seat
buttons); a 7 Sins reserve count costs one tap per non-zero type that fits a chip (0-5), three for
a bigger count (focus, clear, one digit), and Save; a negative Abyss total is reached with one ±.
"""
from __future__ import annotations

import re

from bench.taps import Job

SIX = ("superbia", "luxuria", "invidia", "ira", "acedia", "gula")


def _base(page) -> str:
    return re.match(r"https?://[^/]+", page.url).group(0)


def reverse_four_players(thumb, start):
    """Four names typed clockwise for 7 Sins, which reads the list counter-clockwise: one tap fixes it."""
    page = start("others", ["X", "Y"])  # only to learn the server's address; not counted
    page.goto(f"{_base(page)}/new/sins")
    for i, name in enumerate(["Ana", "Bo", "Cy", "Di"]):
        page.locator(f"#players-{i}").fill(name)
    thumb.tap(page.get_by_role("button", name="Reverse the order"))
    got = [page.locator(f"#players-{i}").input_value() for i in range(4)]
    assert got == ["Ana", "Di", "Cy", "Bo"], got


def _sins_scoring(start):
    page = start("sins", ["Ana", "Bo", "Cy", "Di"])
    base, token = _base(page), re.search(r"/t/([^/?#]+)", page.url).group(1)
    for sin in ("Superbia", "Luxuria", "Invidia", "Ira", "Acedia", "Gula"):
        page.get_by_role("region", name="Sin types in play", exact=True).get_by_text(sin, exact=True).click()
    page.get_by_role("button", name="Play with these types").click()
    page.get_by_role("button", name="Start the game").click()
    page.locator(".status-playing").wait_for()
    page.goto(f"{base}/t/{token}/score")
    return page


def count_a_reserve(thumb, start):
    """Bo's reserve: 2 Invidia, 7 Acedia, 3 Luxuria, 1 Ira (the other types and stones stay 0)."""
    page = _sins_scoring(start)
    form = page.locator("form[id^='sins-reserve-']").nth(1)
    for sin, n in (("Invidia", 2), ("Luxuria", 3), ("Ira", 1)):
        thumb.tap(form.get_by_role("group", name=f"Quick values: {sin}").get_by_role("radio", name=str(n)), f"{sin} {n}")
    thumb.type(form.get_by_label("Acedia", exact=True), "7")
    thumb.tap(form.get_by_role("button", name="Save Bo's count"))
    page.get_by_text("Change Bo's count").wait_for()


def negative_abyss_total(thumb, start):
    """A table that counted by hand: the Abyss's total is -4 (a ± tap, since a digit keypad has no minus)."""
    page = _sins_scoring(start)
    thumb.tap(page.get_by_text("Only the Abyss's total"))
    thumb.type(page.get_by_label("Abyss points", exact=True), "4")
    thumb.tap(page.get_by_role("button", name="Change the sign: Abyss points"))
    thumb.tap(page.get_by_role("button", name="Save the total"))
    page.get_by_text("The Abyss scores \u22124").wait_for()


JOBS = [
    Job("new table: reverse 4 players' seat order", 1, reverse_four_players),
    Job("7 Sins: count a reserve (2, 7, 3, 1)", 7, count_a_reserve),
    Job("7 Sins: a negative Abyss total", 5, negative_abyss_total),
]
