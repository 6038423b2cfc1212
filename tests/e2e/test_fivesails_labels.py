"""Five Sails labels on a phone (issue 28): at Plunder the standings grid turns into one card per
player, and its labels ("Leader wounds", "Blessures du Meneur", "Renommée") used to be cut ("Leader
wou"). At 320, 360 and 390 px, in English and French, no label or value on the Plunder and the
Renown & Leaders pages is cut (scrollWidth > clientWidth), with a destroyed Leader's "destroyed" in
the grid; axe and the shared checks on each."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.checks import check_page, fill_new_table
from tests.e2e.conftest import Phone
from tests.e2e.test_fivesails_flow import finish_phase, hand_out_first_player

SIZES = [pytest.param({"width": 320, "height": 640}, id="320x640"),
         pytest.param({"width": 360, "height": 640}, id="360x640"),
         pytest.param({"width": 390, "height": 844}, id="390x844")]

# Every piece of text in the table's region whose box is narrower than its text: a cut label.
CUT = """() => [...document.querySelectorAll(
    '#live th, #live td, #live .pgrid-l, #live .pgrid-v, #live dt, #live dd, #live label, #live .counter-label')]
  .filter(el => el.getClientRects().length && getComputedStyle(el).position !== 'absolute'
                && el.scrollWidth > el.clientWidth + 0.5)
  .map(el => `${el.className || el.tagName}: ${el.textContent.trim()} ${el.scrollWidth}>${el.clientWidth}`)"""


def nothing_cut(page):
    assert page.evaluate(CUT) == [], page.url
    check_page(page)


@pytest.mark.parametrize("viewport", SIZES)
def test_no_standings_label_is_cut_in_either_language(browser, live_server, viewport):
    phone = Phone(browser, viewport, live_server.url)
    page = phone.page
    try:
        page.goto("/new/fivesails")
        fill_new_table(page, ["Ana", "Bo", "Cy"], "Labels")
        page.get_by_role("button", name="Start Day 1").click()
        finish_phase(page, "Dawn")
        hand_out_first_player(page, {"Ana": 3, "Bo": 5, "Cy": 4})
        finish_phase(page, "Planning")
        # Cy's Leader is destroyed: its grid cell reads "destroyed" beside the longest label.
        token_url = page.url.split("/t/")[0] + "/t/" + page.url.split("/t/")[1].split("/")[0]
        page.goto(token_url + "/players")
        page.locator("#fs-player-3 .fs-confirm > summary").click()
        page.get_by_role("button", name="Yes: destroy Cy's Leader").click()
        expect(page.locator("#fs-player-3 .fs-bad")).to_be_visible()
        page.goto(token_url + "/day")
        finish_phase(page, "High Drama")
        expect(page.locator("#fs-standings")).to_be_visible()
        expect(page.locator("#fs-standings")).to_contain_text("destroyed")
        for lang in ("en", "fr"):
            phone.context.add_cookies([{"name": "lang", "value": lang, "url": live_server.url}])
            for slug in ("day", "players"):
                page.goto(f"{token_url}/{slug}")
                expect(page.locator("html")).to_have_attribute("lang", re.compile(f"^{lang}"))
                nothing_cut(page)
        assert not phone.errors, phone.errors
    finally:
        phone.close()
