"""The Others: 7 Sins at the table: a wound to a named hero, and a whole round of turns."""
from __future__ import annotations

import re

from bench.taps import Job

PLAYERS = ["Sam", "Ana", "Bo", "Cy", "Di"]  # Sam plays the Sin; four hero players, one hero each


def started(start):
    """A 5-player table with the story chosen and round 1 begun (not counted: that is setup's job)."""
    page = start("others", PLAYERS)
    page.get_by_label("Story", exact=True).fill("Haven's Last Stand")
    page.get_by_label("Terror", exact=True).check()
    page.locator("#story").get_by_role("button", name="Save").click()
    page.get_by_text("Story: Haven's Last Stand").first.wait_for()
    page.get_by_role("button", name="Start round 1").click()
    page.get_by_role("button", name=re.compile("^Take this turn")).wait_for()
    return page


def wound_from_round(thumb, start):
    """From the round page: open Sniper 1's dashboard from the hero strip and put a wound on them (the
    first marker goes on level 1, so the rule decides the slot)."""
    page = started(start)
    strip = page.get_by_role("navigation", name="Heroes in play")
    thumb.tap(strip.get_by_role("link", name=re.compile("Sniper 1")))
    thumb.tap(page.get_by_role("button", name="Wound on slot 1"))
    page.locator("#hero-2 .corruption-line .big-number").nth(1).filter(has_text="1").wait_for()


def tap_and_wait(thumb, page, locator, note=""):
    """One counted tap, then wait until the table's new version is on screen."""
    seen = page.locator("#live").get_attribute("data-version")
    thumb.tap(locator, note)
    page.wait_for_function("v => document.getElementById('live').dataset.version !== v", arg=seen)


def full_round(thumb, start):
    """Four hero turns in order, the Sins player reacting once, then the End of Round reset."""
    page = started(start)
    played = []
    for i in range(8):
        button = page.get_by_role("button", name=re.compile("^Take this turn"))
        hero = button.inner_text().split(": ", 1)[1]
        tap_and_wait(thumb, page, button, hero)
        played.append(hero)
        if i == 0:
            tap_and_wait(thumb, page, page.get_by_role("button", name=re.compile("^Sins player reacts to")))
            page.locator(".log-list li").first.filter(has_text="The Sins player reacts to Leader").wait_for()
    assert played == ["Leader", "Sniper 1", "Bruiser 1", "Fixer 1"] * 2, played
    thumb.tap(page.get_by_role("button", name="Reset tokens and start round 2"))
    page.get_by_role("heading", name=re.compile("Round 2")).wait_for()


JOBS = [
    Job("others: a wound to a named hero from the round page", 2, wound_from_round),
    Job("others: a full round of 4 heroes (2 turns each), one reaction, End of Round", 12, full_round),
]
