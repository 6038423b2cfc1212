"""The setup picture (issue 35) in a phone's browser, at 390x844 and 360x640, light and dark, English
and French: each game's setup page passes axe with the picture on it, the picture fits the screen's
width with its labels inside it, and a tick greys its pieces at once (before the server answers)."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.checks import check_page, fill_new_table, visit

GAMES = {"sins": ["Margherita", "Bo", "Cy", "Di", "Eve"], "gibbon": ["Ana", "Bo", "Cy", "Di", "Eve", "Fabien", "Gus"],
         "fivesails": ["Ana", "Bo", "Cy", "Di"], "others": ["Ana", "Bo", "Cy", "Di", "Eve"]}

# Every label's box lies inside the picture, and no two labels overlap.
LABELS_FIT_JS = """
() => {
  const svg = document.querySelector('[data-picture] svg');
  const outer = svg.getBoundingClientRect();
  const boxes = [...svg.querySelectorAll('text')].map(t => [t, t.getBoundingClientRect()]);
  const out = [];
  for (const [t, b] of boxes) {
    if (b.left < outer.left - 1 || b.right > outer.right + 1) out.push('outside: ' + t.textContent);
  }
  for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
    const [a, p] = boxes[i], [c, q] = boxes[j];
    const w = Math.min(p.right, q.right) - Math.max(p.left, q.left), h = Math.min(p.bottom, q.bottom) - Math.max(p.top, q.top);
    if (w > 2 && h > 2 && !a.contains(c) && !c.contains(a)) out.push('overlap: ' + a.textContent + ' / ' + c.textContent);
  }
  return out;
}
"""


@pytest.mark.parametrize("game", list(GAMES))
def test_setup_page_with_its_picture(page, game):
    visit(page, f"/new/{game}")
    fill_new_table(page, GAMES[game], "Picture night")
    picture = page.locator("[data-picture] svg")
    expect(picture).to_be_visible()
    check_page(page)
    assert page.evaluate(LABELS_FIT_JS) == []
    # The checklist is the picture's text alternative.
    described = picture.get_attribute("aria-describedby")
    expect(page.locator(f"#{described} li.tick").first).to_be_visible()
    # Dark theme and French: still no axe finding, still every label inside.
    page.emulate_media(color_scheme="dark")
    page.context.set_extra_http_headers({"Accept-Language": "fr"})
    page.reload()
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    check_page(page)
    assert page.evaluate(LABELS_FIT_JS) == []


def test_a_tick_greys_its_pieces_before_the_answer(page):
    visit(page, "/new/sins")
    fill_new_table(page, GAMES["sins"][:4], "Picture night")
    stones = page.locator('[data-picture] [data-tick="sins-step-E-item"]')
    expect(stones.first).not_to_have_class("pic-piece pic-done")
    # Hold the server's answer: the pieces grey from the tap alone.
    held = []
    page.route("**/sins/tick", lambda route: held.append(route))
    page.locator("#sins-step-E .tick-button").click()
    for i in range(stones.count()):
        expect(stones.nth(i)).to_have_class("pic-piece pic-done")
    assert held, "the tick went to the server"
    held[0].continue_()
    expect(page.locator("#sins-step-E-item")).to_have_class("tick done")
    for i in range(stones.count()):
        expect(stones.nth(i)).to_have_class("pic-piece pic-done")
