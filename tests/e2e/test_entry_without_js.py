"""Number entry without JavaScript (issue 28): the README promises every form works without it and a
blank box is never read as 0. A tapped chip is what the player meant; a cleared box is refused."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.checks import fill_new_table


@pytest.fixture
def no_js(browser, live_server, phone):
    ctx = browser.new_context(viewport=phone, java_script_enabled=False, base_url=live_server.url, locale="en-GB")
    ctx.set_default_timeout(10_000)
    yield ctx.new_page()
    ctx.close()


def chip(box, label, n):
    box.get_by_role("group", name=f"Quick values: {label}").get_by_role("radio", name=str(n), exact=True).click()


def test_seven_sins_a_chip_is_saved_and_a_cleared_box_is_refused(no_js):
    page = no_js
    page.goto("/new/sins")
    fill_new_table(page, ["Ana", "Bo"], "No script")
    page.get_by_role("button", name=re.compile(r"^Draw \d types at random")).click()
    page.get_by_role("button", name="Start the game").click()
    page.get_by_role("link", name="Go to scoring").click()
    ana = page.get_by_role("region", name="Ana", exact=True)
    sin = ana.locator(".num .num-head label").first.inner_text()
    expect(ana.get_by_label(sin, exact=True)).to_have_value("0")
    chip(ana, sin, 3)  # the box still shows 0: the tapped chip is what counts
    ana.get_by_role("button", name="Save Ana's count").click()
    ana = page.get_by_role("region", name="Ana", exact=True)
    expect(ana.get_by_label(sin, exact=True)).to_have_value("3")
    ana.get_by_label(sin, exact=True).fill("")  # cleared, its chip 3 left as it was
    ana.get_by_role("button", name="Save Ana's count").click()
    ana = page.get_by_role("region", name="Ana", exact=True)
    expect(ana.get_by_text("Enter a number (0 if none).")).to_be_visible()


def test_gibbon_a_chip_is_counted_and_a_cleared_box_is_refused(no_js):
    page = no_js
    page.goto("/new/gibbon")
    fill_new_table(page, ["Ana", "Bo", "Cy"], "No script")
    page.get_by_role("group", name="Deals the first round").get_by_text("Ana", exact=True).click()
    page.get_by_role("button", name="Start the game").click()
    page.get_by_role("link", name="Go to round 1").click()
    low = page.locator("#round-new").get_by_role("group", name="Low cards face up (2–10)", exact=True)
    chip(low, "Bo", 3)
    low.get_by_label("Ana", exact=True).fill("")
    page.get_by_role("button", name="Count round 1").click()
    low = page.locator("#round-new").get_by_role("group", name="Low cards face up (2–10)", exact=True)
    expect(low.get_by_label("Ana", exact=True)).to_have_attribute("aria-invalid", "true")
    expect(page.get_by_text("Enter a number (0 if none).").first).to_be_visible()
    low.get_by_label("Ana", exact=True).fill("0")
    chip(low, "Bo", 3)
    page.get_by_role("button", name="Count round 1").click()
    expect(page.get_by_text(re.compile("Round 1 counted")).first).to_be_visible()
    expect(page.locator("main")).not_to_contain_text("Enter a number (0 if none).")
