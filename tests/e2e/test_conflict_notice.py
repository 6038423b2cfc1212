"""A stale save's notice where the player is looking (issue 28), at 390x844 and 360x640 with axe.

Two phones; the second saves an absolute form typed on an older version of the table and gets 409
with the fresh table. The notice used to stay at the top of the page, hundreds of pixels above the
form the player had scrolled down to. It must now be inside the viewport, below the sticky top
bar, next to the refused form (whose entry is kept), and never over that form's Save button. The
fix is the live table's (static/js/10-live.js), so one Five Sails form and one 7 Sins form show it."""
from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.e2e.checks import check_page, visit
from tests.e2e.test_live_table import chip, five_sails, sins_game

CONFLICT = "The table changed on another phone"

WHERE = """(formId) => {
  const notice = document.querySelector('#live .notice-conflict[role=alert]');
  const form = document.getElementById(formId);
  const saves = [...form.querySelectorAll('button:not([type=button])')];
  const save = saves[saves.length - 1].getBoundingClientRect();
  const box = notice.getBoundingClientRect();
  const bar = document.querySelector('.top').getBoundingClientRect();
  return {top: box.top, bottom: box.bottom, left: box.left, right: box.right, bar: bar.bottom,
          height: innerHeight, width: innerWidth,
          save: {top: save.top, bottom: save.bottom, left: save.left, right: save.right},
          gap: form.getBoundingClientRect().top - box.bottom};
}"""


def assert_in_view_beside(page, form_id):
    got = page.evaluate(WHERE, form_id)
    assert got["bar"] <= got["top"] and got["bottom"] <= got["height"], got
    assert 0 <= got["left"] and got["right"] <= got["width"], got
    save = got["save"]
    overlaps = not (save["bottom"] <= got["top"] or save["top"] >= got["bottom"]
                    or save["right"] <= got["left"] or save["left"] >= got["right"])
    assert not overlaps, got
    assert 0 <= got["gap"] <= 40, got  # right above the refused form


def test_a_stale_five_sails_resolve_shows_its_notice_beside_the_form(make_phone):
    ana, bo = make_phone().page, make_phone().page
    token = five_sails(ana)
    visit(bo, f"/t/{token}/players")
    # Bo scrolls down to the last player's Leader and types a Resolve...
    form = "resolve-3"
    bo.locator("#fs-player-3 .fs-resolve > summary").click()
    bo.locator(f"#{form}").get_by_label("Cy's Leader: Resolve", exact=True).fill("7")
    # ...while Ana sets it from her phone. Bo's page takes Ana's change and keeps the typed 7.
    ana.locator("#fs-player-3 .fs-resolve > summary").click()
    ana.locator(f"#{form}").get_by_label("Cy's Leader: Resolve", exact=True).fill("5")
    ana.locator(f"#{form}").get_by_role("button", name="Set Resolve").click()
    expect(bo.locator("#fs-player-3 .fs-resolve > summary")).to_contain_text("5", timeout=10_000)
    expect(bo.locator(f"#{form}").get_by_label("Cy's Leader: Resolve", exact=True)).to_have_value("7")

    bo.locator(f"#{form}").get_by_role("button", name="Set Resolve").click()
    expect(bo.get_by_text(CONFLICT)).to_be_visible(timeout=10_000)
    expect(bo.locator(f"#{form}").get_by_label("Cy's Leader: Resolve", exact=True)).to_have_value("7")
    assert bo.evaluate("scrollY") > 300  # the form is far down the page: the notice came to it
    assert_in_view_beside(bo, form)
    check_page(bo)


def test_a_stale_seven_sins_reserve_shows_its_notice_beside_the_form(make_phone):
    ana, bo = make_phone().page, make_phone().page
    token = sins_game(ana)
    visit(ana, f"/t/{token}/score")
    visit(bo, f"/t/{token}/score")
    form = "sins-reserve-3"
    box = chip(bo, form, "Superbia", 3)
    ana_form = ana.locator(f"#{form}")
    ana_form.get_by_label("Superbia", exact=True).fill("5")
    ana_form.get_by_role("button", name=re.compile("Save")).click()
    expect(bo.locator(f"#{form} [data-changed-note]").first).to_be_visible(timeout=10_000)

    bo.locator(f"#{form}").get_by_role("button", name=re.compile("Save")).click()
    expect(bo.get_by_text(CONFLICT)).to_be_visible(timeout=10_000)
    expect(box).to_have_value("3")
    assert_in_view_beside(bo, form)
    check_page(bo)
