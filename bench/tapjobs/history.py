"""Play history jobs (issue 19): what a group does once a game is over."""
from __future__ import annotations

import re

from bench.taps import Job

CHIARA = {"Chiara": -8, "Margherita": 0, "Alberto": 1, "Luca": 8}


def finish_sins_by_totals(page, totals: dict[str, int] = CHIARA, abyss: int = -1, after_each=None) -> None:
    """From a new 7 - The Sins table's setup page: draw the types, start, score by totals only and
    record the result. `after_each(page)` runs after each screen settles (the browser tests check
    the page there)."""
    settle = after_each or (lambda _page: None)
    page.get_by_role("button", name=re.compile(r"^Draw 6 types at random")).click()
    page.get_by_text("In play:").wait_for()
    page.get_by_role("button", name="Start the game").click()
    page.get_by_text("Now playing:").wait_for()
    page.get_by_role("link", name="Score", exact=True).click()
    page.get_by_role("button", name="Totals only", exact=True).click()
    page.locator("button.chip[aria-pressed='true']", has_text="Totals only").wait_for()
    for name, points in totals.items():
        box = page.get_by_role("region", name=name, exact=True)
        box.get_by_label("Points", exact=True).fill(str(points))
        box.get_by_role("button", name=f"Save {name}'s total").click()
        page.get_by_role("region", name=name, exact=True).locator(".player-total").wait_for()
    page.get_by_label("Abyss points", exact=True).fill(str(abyss))
    page.get_by_role("button", name="Save the total").click()
    page.get_by_text(re.compile(r"^Winner: ")).first.wait_for()
    settle(page)
    page.get_by_role("button", name="Record the result").click()
    page.get_by_role("heading", name="After the game").wait_for()
    settle(page)


def rematch(thumb, start):
    """A finished 7 Sins table: the same players, seats and group again, in one tap."""
    page = start("sins", list(CHIARA))
    finish_sins_by_totals(page)
    before = page.url
    thumb.tap(page.get_by_role("button", name="Rematch"))
    page.get_by_role("heading", name="Setup checklist").wait_for()
    assert page.url != before and page.get_by_text("Chiara").first.is_visible()


def send_to_bgstats(thumb, start):
    """A finished table's play goes to BG Stats in one tap (the link carries the whole play)."""
    page = start("sins", list(CHIARA))
    finish_sins_by_totals(page)
    page.context.route("https://app.bgstatsapp.com/**", lambda route: route.fulfill(status=200, body="ok"))
    with page.context.expect_page() as opened:
        thumb.tap(page.get_by_role("link", name="Send to BG Stats"))
    assert opened.value.url.startswith("https://app.bgstatsapp.com/createPlay.html?data=")


JOBS = [Job("any game: rematch with the same players", 1, rematch),
        Job("any game: send the play to BG Stats", 1, send_to_bgstats)]
