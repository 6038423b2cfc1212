"""The setup picture (issue 35): a new table opens on its setup page with the picture drawn for it,
so seeing it costs no tap; ticking a step greys its pieces at once (one tap, the tick itself)."""
from __future__ import annotations

from playwright.sync_api import expect

from bench.taps import Job

NAMES = ["Ana", "Bo", "Cy", "Di"]


def _see(game):
    def run(thumb, start):
        page = start(game, NAMES)
        assert page.url.endswith("/setup") or page.locator("[data-picture]").count(), page.url
        picture = page.locator("[data-picture] svg")
        expect(picture).to_be_visible()
        picture.scroll_into_view_if_needed()  # a scroll, not a tap
        for name in NAMES:
            expect(picture.locator("text.pic-name", has_text=name)).to_have_count(1)
        assert picture.locator("[data-tick]").count() > 5
    run.__doc__ = f"{game}: a new table's setup picture, in view without a tap."
    return run


def tick_greys(thumb, start):
    """7 Sins: ticking Setup E greys the Abyss and its stones in the picture."""
    page = start("sins", NAMES)
    pieces = page.locator('[data-picture] [data-tick="sins-step-E-item"]')
    expect(pieces.first).not_to_have_class("pic-piece pic-done")
    thumb.tap(page.locator("#sins-step-E .tick-button"))
    for i in range(pieces.count()):
        expect(pieces.nth(i)).to_have_class("pic-piece pic-done")


JOBS = [Job(f"{game}: see the setup picture", 0, _see(game)) for game in ("sins", "gibbon", "fivesails", "others")]
JOBS.append(Job("7 Sins: a tick greys its pieces in the picture", 1, tick_greys))
