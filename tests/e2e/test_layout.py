"""The shared phone layout (issue 15) at 320x640, 360x640 and 390x844, with axe on every page of every
game: every tab is on screen, no player grid hides the column that decided a result (so it is in
view at 360 px too), the 7 Sins count boxes refuse a blank, and the new-table form reverses the seat
order in one tap."""
from __future__ import annotations

import re
from urllib.parse import urlencode

import pytest
from playwright.sync_api import expect

from tests.e2e.checks import check_page, fill_new_table, visit
from tests.e2e.conftest import Phone
from tests.web.test_gibbon_views import EXAMPLE

SIZES = {"320x640": {"width": 320, "height": 640}, "360x640": {"width": 360, "height": 640},
         "390x844": {"width": 390, "height": 844}}


@pytest.fixture(params=list(SIZES), ids=list(SIZES))
def size(request):
    return SIZES[request.param]


@pytest.fixture
def page(browser, live_server, size):
    phone = Phone(browser, size, live_server.url)
    yield phone.page
    errors = phone.errors
    phone.close()
    assert not errors, f"console errors: {errors}"


class Table:
    """A table created through the form, then brought to a state by posting its forms the way the
    page would (CSRF token and version read from the page), so each test can look at the layout."""

    def __init__(self, page, game, names):
        self.page = page
        visit(page, f"/new/{game}")
        fill_new_table(page, names, f"{game} layout")
        page.wait_for_url(re.compile(r"/t/"))
        self.token = re.search(r"/t/([^/]+)", page.url).group(1)

    def html(self, slug):
        return self.page.request.get(f"/t/{self.token}/{slug}").text()

    def post(self, path, data=(), slug="setup"):
        html = self.html(slug)
        form = [("csrf_token", re.search(r'name="csrf_token" value="([^"]+)"', html).group(1)),
                ("v", re.search(r'data-version="(\d+)"', html).group(1)), ("page", slug)]
        items = list(data.items()) if isinstance(data, dict) else list(data)
        resp = self.page.request.post(f"/t/{self.token}/{path}", data=urlencode(form + items), max_redirects=0,
                                      headers={"Content-Type": "application/x-www-form-urlencoded"})
        assert resp.status in (200, 303), f"{path}: {resp.status} " + " ".join(
            re.findall(r'class="(?:error|notice)[^"]*"[^>]*>\s*(?:<p>)?([^<]*)', resp.text()))
        return resp


def check_layout(page, size, *, decided_grids=0):
    """axe and the house checks, then: every tab inside the screen, and every grid's deciding
    column inside both its grid's box and the screen, on every row."""
    check_page(page)
    width = size["width"]
    tabs = page.locator("nav.tabs a")
    assert tabs.count() >= 4
    for i in range(tabs.count()):
        box = tabs.nth(i).bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5, \
            f"tab {tabs.nth(i).inner_text()!r} is off-screen at {width}px: {box}"
    grids = page.locator(".pgrid-wrap:has(td.decided)")
    assert grids.count() >= decided_grids, "the grid with a deciding column is missing"
    for g in range(grids.count()):
        wrap = grids.nth(g)
        outer = wrap.bounding_box()
        cells = wrap.locator("td.decided")
        for c in range(cells.count()):
            cell = cells.nth(c)
            expect(cell).to_be_visible()
            box = cell.bounding_box()
            assert box["x"] >= outer["x"] - 0.5 and box["x"] + box["width"] <= outer["x"] + outer["width"] + 0.5, \
                f"deciding cell {cell.inner_text()!r} is scrolled out of its grid at {width}px"
            assert box["x"] + box["width"] <= width + 0.5


def visit_every_tab(page, size, grids_on: dict[str, int]):
    names = page.locator("nav.tabs a").all_inner_texts()
    for i, name in enumerate(names):
        page.locator("nav.tabs a").nth(i).click()
        expect(page.locator("nav.tabs a[aria-current=page]")).to_have_text(name)
        check_layout(page, size, decided_grids=grids_on.get(name, 0))
    return names


def test_seven_sins_every_page_and_the_ranking_grid(page, size):
    table = Table(page, "sins", ["Margherita", "Bo", "Cyrano", "Dimitri", "Eve"])
    table.post("sins/sins", [("sin", s) for s in ("superbia", "luxuria", "invidia", "ira", "acedia", "gula", "avaritia")])
    table.post("sins/start")
    table.post("sins/abyss", {"invidia": 6, "gula": 2, "acedia": 1, "ira": 1, "superbia": 0, "luxuria": 0, "avaritia": 0}, "score")
    reserves = [dict(invidia=2, acedia=4, luxuria=3, ira=1), dict(invidia=1, acedia=2), dict(superbia=3, gula=2),
                dict(avaritia=4, luxuria=1), dict(ira=3, gula=1)]
    for pid, counts in enumerate(reserves, start=1):
        table.post("sins/reserve", {"player": pid, "stones": 0, **counts}, "score")
    page.reload()
    names = visit_every_tab(page, size, {"Score": 1})
    assert names == ["Setup", "Play", "Score", "Players"]


def test_gibbon_every_page_with_five_players_and_both_grids(page, size):
    table = Table(page, "gibbon", ["Ana", "Bo", "Cyrano", "Dimitri", "Eve"])
    table.post("gibbon/start", {"dealer": "1", "bookkeeper": "2"})
    counts = {"round": 1, "braveheart": "2", "hat": "3", "form_key": "round-new"}
    for pid, row in EXAMPLE.items():
        counts.update({f"p{pid}_{k}": v for k, v in row.items()})
    counts.update({f"p5_{k}": 0 for k in EXAMPLE[1]})
    table.post("gibbon/round", counts, "round")
    table.post("gibbon/swap", {"chooser": "2", "partner": "0"}, "round")
    table.post("gibbon/round", {**counts, "round": 2, "braveheart": ""}, "round")
    page.reload()
    visit_every_tab(page, size, {"Counting table": 2, "Round": 1})


def test_five_sails_every_page_and_leader_wounds_deciding_the_fifth_day(page, size):
    table = Table(page, "fivesails", ["Ana", "Bo", "Cyrano", "Dimitri"])
    table.post("fivesails/start")
    for pid in (1, 2, 3):  # all tied but for wounds: Dimitri's unhurt Leader wins the fifth Day
        table.post("fivesails/wounds", {"player": pid, "delta": 1}, "players")
    for _ in range(300):
        html = table.html("day")
        if "wins on" in html or "finished" in html.split('class="table-meta"')[1][:200]:
            break
        at = re.search(r'name="at" value="(\d+)"', html).group(1)
        table.post("fivesails/day/next", {"at": at}, "day")
    else:
        raise AssertionError("never reached the fifth Day's verdict")
    page.goto(f"/t/{table.token}/day")
    expect(page.locator("#fs-standings td.decided").first).to_be_visible()
    expect(page.locator("#fs-standings th.decided")).to_contain_text("Leader wounds")
    visit_every_tab(page, size, {"Day": 1})


def test_the_others_every_page(page, size):
    Table(page, "others", ["Ana", "Bo", "Cyrano", "Dimitri"])
    names = visit_every_tab(page, size, {})
    assert "Players" in names


@pytest.mark.parametrize("path", ["/", "/rules", "/new/sins", "/new/gibbon", "/new/fivesails", "/new/others",
                                  "/fivesails/duel"])
def test_public_pages_fit(page, path):
    visit(page, path)


def test_a_blank_seven_sins_count_box_is_refused_next_to_it_and_a_chip_counts_in_one_tap(page, size):
    table = Table(page, "sins", ["Ana", "Bo", "Cy", "Di"])
    table.post("sins/sins", [("sin", s) for s in ("superbia", "luxuria", "invidia", "ira", "acedia", "gula")])
    table.post("sins/start")
    page.goto(f"/t/{table.token}/score")
    form = page.locator(f"#sins-reserve-2")
    box = form.get_by_label("Ira", exact=True)
    form.get_by_role("group", name="Quick values: Ira").get_by_role("radio", name="3").click()
    expect(box).to_have_value("3")  # one tap on a chip
    box.fill("")
    form.get_by_role("button", name="Save Bo's count").click()
    box = page.locator("#sins-reserve-2").get_by_label("Ira", exact=True)
    expect(box).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#sins-reserve-2-ira-err")).to_have_text("Enter a number (0 if none).")
    check_page(page)
    expect(page.locator("#sins-player-2")).to_contain_text("Not counted yet.")
    # A typed 12 is refused with our own message, not a browser bubble (the form is novalidate).
    box.fill("12")
    page.locator("#sins-reserve-2").get_by_role("button", name="Save Bo's count").click()
    expect(page.locator("#sins-reserve-2-ira-err")).to_contain_text("only 11")
    box = page.locator("#sins-reserve-2").get_by_label("Ira", exact=True)
    box.fill("2")
    page.locator("#sins-reserve-2").get_by_role("button", name="Save Bo's count").click()
    expect(page.locator("#sins-player-2")).not_to_contain_text("Not counted yet.")


def test_a_negative_total_has_a_reachable_minus(page, size):
    table = Table(page, "sins", ["Ana", "Bo", "Cy", "Di"])
    table.post("sins/sins", [("sin", s) for s in ("superbia", "luxuria", "invidia", "ira", "acedia", "gula")])
    table.post("sins/start")
    page.goto(f"/t/{table.token}/score")
    page.get_by_text("Only the Abyss's total").click()
    box = page.get_by_label("Abyss points", exact=True)
    expect(box).to_have_attribute("inputmode", "numeric")  # with JavaScript: digits, and ± for the sign
    box.fill("4")
    page.get_by_role("button", name="Change the sign: Abyss points").click()
    expect(box).to_have_value("-4")
    page.get_by_role("button", name="Save the total").click()
    expect(page.locator("#sins-abyss")).to_contain_text("The Abyss scores \u22124")


def test_reverse_the_seat_order_in_one_tap(page, size):
    visit(page, "/new/gibbon")
    for i, name in enumerate(["Ana", "Bo", "Cy", "Di"]):
        page.get_by_label(f"Player {i + 1}", exact=False).first.fill(name)
    expect(page.get_by_text("is played clockwise")).to_be_visible()
    page.get_by_role("button", name="Reverse the order").click()
    values = [page.locator(f"#players-{i}").input_value() for i in range(5)]
    assert values == ["Ana", "Di", "Cy", "Bo", ""]
    expect(page.locator("#reverse-hint")).to_have_text("Order reversed: check it, then create the table.")
    check_page(page)
    page.get_by_role("button", name="Create table").click()
    page.wait_for_url(re.compile(r"/t/"))
    page.locator("nav.tabs").get_by_role("link", name="Players & table").click()
    expect(page.locator(".player-name")).to_have_text(["Ana", "Di", "Cy", "Bo"])


TERM_LINES_JS = """
() => {
const middle = r => (r.top + r.bottom) / 2;
return [...document.querySelectorAll('.term-line')].map(line => {
  const height = parseFloat(getComputedStyle(line).lineHeight);
  const summary = line.querySelector('summary');
  const before = summary.closest('details').previousSibling;
  const range = document.createRange();
  range.setStart(before, before.textContent.length - 1);
  range.setEnd(before, before.textContent.length);
  return {lines: line.getBoundingClientRect().height / height, before: before.textContent.slice(-2),
          beforeMiddle: middle(range.getBoundingClientRect()), termMiddle: middle(summary.getClientRects()[0])};
});
}
"""


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_term_inside_a_sentence_keeps_the_line_spacing_and_its_elided_article(page, size, lang, live_server):
    """Tap-to-explain terms in running text add no height to their line (their 44 px tap area is
    vertical padding), and French "l'" stays on the line of the noun it belongs to."""
    table = Table(page, "sins", ["Ana", "Bo", "Chloé", "Di", "Eve"])
    table.post("sins/sins", [("sin", s) for s in ("superbia", "luxuria", "invidia", "ira", "acedia", "gula", "avaritia")])
    table.post("sins/start")
    page.context.add_cookies([{"name": "lang", "value": lang, "url": live_server.url}])
    visit(page, f"/t/{table.token}/play")
    lines = page.evaluate(TERM_LINES_JS)
    assert len(lines) >= 2
    for line in lines:
        assert abs(line["lines"] - round(line["lines"])) < 0.05, line  # whole lines: nothing taller
        if not line["before"][-1].isspace():  # "l'": nothing may break it from its noun
            assert abs(line["beforeMiddle"] - line["termMiddle"]) < 3, line
    if lang == "fr":
        assert "l'" in [line["before"] for line in lines]
    page.locator(".term-line summary").last.tap()
    expect(page.locator(".term-line details[open] .term-pop")).to_be_visible()
    check_page(page)
