"""City of Five Sails table jobs: a whole Day on the stepper."""
from __future__ import annotations

from bench.taps import Job

INITIATIVE = {"Ana": "40", "Bo": "55", "Cy": "55"}
DIGITS = sum(len(v) for v in INITIATIVE.values())


def a_day_without_a_duel(thumb, start):
    """A 3-player Day with no duel, Dawn to the end of Dusk, with the three schemes' Initiative entered:
    one tap per phase, the Initiative typed into its boxes (the first has the cursor already), one tap
    to hand out the First Player token. Setup and "Start Day 1" are not part of the Day."""
    page = start("fivesails", ["Ana", "Bo", "Cy"])
    page.get_by_role("button", name="Start Day 1").click()  # not counted: setup is done
    page.get_by_text("Dawn done: go to Planning").wait_for()

    thumb.tap(page.get_by_role("button", name="Dawn done: go to Planning"))
    form = page.locator("#initiative")
    form.get_by_label("Ana", exact=True).wait_for()
    for name, value in INITIATIVE.items():
        thumb.type(form.get_by_label(name, exact=True), value)
    thumb.tap(form.get_by_role("button", name="Hand out the First Player token"))
    page.locator(".fs-first").wait_for()
    thumb.tap(page.get_by_role("button", name="Planning done: go to High Drama"))
    thumb.tap(page.get_by_role("button", name="High Drama done: go to Plunder"))
    page.get_by_text("Nobody controls all three core locations.").wait_for()
    thumb.tap(page.get_by_role("button", name="Plunder done: go to Dusk"))
    thumb.tap(page.get_by_role("button", name="Dusk done: start Day 2"))
    page.get_by_text("Day 2 of 5").wait_for()
    page.get_by_role("button", name="Dawn done: go to Planning").wait_for()


JOBS = [Job("fivesails: a 3-player Day with no duel, Initiative entered", 8 + DIGITS, a_day_without_a_duel)]
