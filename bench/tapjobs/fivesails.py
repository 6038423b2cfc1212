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


def _chip(scope, name: str, value) -> object:
    """The chip of a number box (m.number) or of a who-is-it row, by the field's name and value."""
    return scope.locator(f"label:has(> input[name='{name}'][value='{value}'])")


def a_leader_duel(thumb, start):
    """A 2-player table at High Drama: Ana's Leader (Combat 3, Resolve 6) challenges Bo's Leader
    (Combat 2, Resolve 5), the Leaders' first duel (their Resolve not on the trackers yet). Round 1:
    Bo plays a 1 / 1 / 2 card and takes 1 wound; round 2: Ana plays no card and takes 2, which ends the
    duel and puts the wounds on both trackers. Every number is a chip: no digits typed. From the Day page's
    "challenge by Ana" chip to the trackers: 12 taps (the round that ends the duel finishes it). The
    issue's budget is 12 taps plus the digits typed; this duel types none (DUEL_DIGITS)."""
    page = start("fivesails", ["Ana", "Bo"])
    page.get_by_role("button", name="Start Day 1").click()  # not counted: setup and the Day so far
    page.get_by_role("button", name="Dawn done: go to Planning").click()
    form = page.locator("#initiative")
    form.get_by_label("Ana", exact=True).fill("40")
    form.get_by_label("Bo", exact=True).fill("30")
    form.get_by_role("button", name="Hand out the First Player token").click()
    page.locator(".fs-first").wait_for()
    page.get_by_role("button", name="Planning done: go to High Drama").click()
    page.locator(".fs-challenge").wait_for()

    thumb.tap(page.locator(".fs-challenge").get_by_role("link", name="Ana", exact=True))
    setup = page.locator("#duel-setup")
    setup.wait_for()
    assert setup.locator("input[name='challenger.leader_of'][value='1']").is_checked()  # preset by the chip
    thumb.tap(_chip(setup, "challenger.duel_stat", 3))
    thumb.tap(_chip(setup, "challenger.resolve", 6))
    thumb.tap(setup.get_by_role("group", name="Challenged character").locator("label.fs-chip", has_text="Bo's Leader"))
    thumb.tap(_chip(setup, "defender.duel_stat", 2))
    thumb.tap(_chip(setup, "defender.resolve", 5))
    thumb.tap(setup.get_by_role("button", name="Start the duel"))
    page.get_by_role("heading", name="Duel: Ana's Leader vs Bo's Leader").wait_for()

    rnd = page.locator("#duel-round")
    thumb.tap(_chip(rnd, "riposte", 1))
    thumb.tap(_chip(rnd, "parry", 1))
    thumb.tap(_chip(rnd, "thrust", 2))
    thumb.tap(rnd.get_by_role("button", name="Play this card"))
    page.locator(".fs-story").get_by_text("Bo's Leader takes 1 wound.").wait_for()
    # No card ends the duel (both pools empty, p. 26): the same tap finishes it, wounds onto the trackers.
    thumb.tap(page.locator("#duel-round").get_by_role("button", name="No card"))
    page.get_by_role("heading", name="Duel over: Ana's Leader vs Bo's Leader").wait_for()
    page.locator(".fs-last .fs-story").get_by_text("Ana's Leader takes 2 wounds, capped at 2").wait_for()
    page.get_by_role("link", name="Renown & Leaders").first.click()  # checking, not counted
    page.locator("#wounds-1-wrap output").get_by_text("2 / 6").wait_for()
    page.locator("#wounds-2-wrap output").get_by_text("1 / 5").wait_for()


DUEL_DIGITS = 0  # Combat 3 and 2, Resolve 6 and 5, a 1 / 1 / 2 card: all chips

JOBS.append(Job("fivesails: a 2-round Leader duel at the table, 12 taps plus digits (none typed)", 12 + DUEL_DIGITS,
                a_leader_duel))
