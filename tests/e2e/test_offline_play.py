"""Keep playing without network (issue 33), in Chromium at 390x844 with axe: the status line says
what happened to each tap (saved, refused with why, or waiting) and never "saved" for a refusal;
taps made on the saved offline copy (after a reload without network) show as pending and are sent
once when the network is back; a plain-http address says once what keeps working offline there.

The server runs on SQLite (the e2e live server); nothing here depends on the database."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.checks import check_page, fill_new_table, visit
from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS, Phone
from tests.e2e.test_live_table import THREE, chip, five_sails, reload_offline, sins_game

PHONE = {"width": 390, "height": 844}
OUTBOX_EMPTY = "() => (localStorage.getItem('companion.outbox.v1') || '[]') === '[]'"

# The first line of text a player sees below the sticky top bar.
FIRST_LINE = """() => {
  const bar = document.querySelector('.top').getBoundingClientRect().bottom;
  const walker = document.createTreeWalker(document.querySelector('main'), NodeFilter.SHOW_TEXT);
  let best = null;
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.textContent.trim()) continue;
    const el = node.parentElement;
    if (el.closest('[hidden], template, .vh')) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    for (const r of range.getClientRects()) {
      if (r.height && r.bottom > bar + 1 && r.top < innerHeight && (!best || r.top < best.top)) {
        best = {top: r.top, text: (el.closest('p, li, span, h1, h2, h3, label, summary, button') || el).textContent.trim()};
      }
    }
  }
  return best && best.text;
}"""

# Any visible text saying that something was saved (the refused tap's "Not saved" is not that).
SAYS_SAVED = re.compile(r"(?<!not )(?<!Not )\b(saved|sent)\b(?! yet)", re.I)


@pytest.fixture
def phone():  # these tests run at 390x844 only
    return PHONE


def test_a_change_refused_after_the_network_comes_back_is_said_refused_first_and_never_saved(make_phone):
    a_phone = make_phone()
    ana, bo = a_phone.page, make_phone().page
    token = sins_game(ana)
    visit(ana, f"/t/{token}/score")
    visit(bo, f"/t/{token}/score")
    form = "sins-reserve-1"
    # Ana, offline, enters the whole reserve of the first player and saves it: it waits, marked.
    a_phone.context.set_offline(True)
    boxes = [chip(ana, form, sin, n) for sin, n in (("Superbia", 3), ("Luxuria", 2), ("Invidia", 4))]
    ana.locator(f"#{form}").get_by_role("button", name=re.compile("Save")).click()
    status = ana.locator("[data-live-status]")
    expect(status).to_contain_text("1 change not sent yet")
    expect(ana.locator(f"#{form} [data-pending-mark]")).to_have_text("Waiting to be sent")
    check_page(ana)
    # Bo saves a different count for the same player meanwhile.
    bo_form = bo.locator(f"#{form}")
    bo_form.get_by_label("Superbia", exact=True).fill("5")
    bo_form.get_by_role("button", name=re.compile("Save")).click()
    expect(bo.locator(".log-list li").first).to_contain_text("reserve counted", timeout=10_000)

    a_phone.context.set_offline(False)
    expect(status).to_contain_text("Not saved", timeout=15_000)
    ana.wait_for_function(OUTBOX_EMPTY, timeout=15_000)
    expect(ana.locator("#live .notice-conflict")).to_be_visible()
    first = ana.evaluate(FIRST_LINE)
    assert re.search(r"not applied|Not saved", first), first
    assert "another phone" in first, first  # and why
    for box, n in zip(boxes, (3, 2, 4)):
        expect(box).to_have_value(str(n))  # the entry is kept
    expect(ana.locator("[data-pending-mark]")).to_have_count(0)
    text = ana.locator("body").inner_text()
    assert not SAYS_SAVED.search(text), SAYS_SAVED.search(text)
    check_page(ana)
    # The status line's button leads back to the kept entry.
    ana.evaluate("scrollTo(0, 0)")
    status.get_by_role("button", name="Show my entry").click()
    expect(ana.locator(f"#{form}-superbia")).to_be_in_viewport()
    expect(status).to_contain_text("Not saved")  # still says so; nothing turned it into "saved"


def server_players(request, token):
    """Each player's Renown, wounds, Resolve, Influence and Leader, from the server's own page."""
    html = request.get(f"/t/{token}/players").text()
    out = {}
    for pid in (1, 2, 3):
        row = re.search(rf'id="fs-player-{pid}".*?(?=id="fs-player-{pid + 1}"|</ul>)', html, re.S).group(0)
        value = lambda key: (re.search(rf'id="{key}-{pid}-wrap".*?<output[^>]*>([^<]*)<', row, re.S) or [None, None])[1]
        out[THREE[pid - 1]] = {"renown": value("renown"), "wounds": value("wounds"), "influence": value("infl"),
                               "destroyed": "Leader destroyed" in row}
    return out


def players_text(page):
    return page.locator(".fs-players").inner_text()


def test_taps_on_the_offline_copy_show_as_pending_and_each_lands_once(make_phone):
    a_phone, b_phone = make_phone(), make_phone()
    ana, bo = a_phone.page, b_phone.page
    token = five_sails(ana)
    visit(bo, f"/t/{token}/players")
    reload_offline(a_phone)
    expect(ana.locator("[data-offline-banner]")).to_contain_text("Your taps are kept on this phone")

    def mark(key):
        return ana.locator(f"#{key}-wrap [data-pending-mark]")
    # Five taps of five kinds, each shown at once as pending.
    ana.get_by_role("button", name="One more: Influence (total)").nth(0).click()  # Ana: relative
    expect(mark("infl-1")).to_have_text("+1 waiting")
    expect(ana.locator("#infl-1-wrap output")).to_have_text("0")  # the value stays the server's
    ana.get_by_role("button", name="One more: Renown").nth(1).click()  # Bo: relative, depends on state
    expect(mark("renown-2")).to_have_text("+1 waiting")
    ana.get_by_role("button", name="One more: Leader wounds").nth(2).click()  # Cy: relative only sometimes
    expect(mark("wounds-3")).to_have_text("Waiting to be sent")
    ana.locator("#fs-player-2 .fs-resolve > summary").click()  # Bo's Resolve: absolute
    ana.locator("#resolve-2").get_by_label("Bo's Leader: Resolve", exact=True).fill("7")
    ana.locator("#resolve-2").get_by_role("button", name="Set Resolve").click()
    expect(ana.locator("#resolve-2 [data-pending-mark]")).to_have_text("Waiting to be sent")
    ana.locator("#fs-player-1 .fs-confirm > summary").click()  # Ana's Leader destroyed: absolute
    ana.get_by_role("button", name="Yes: destroy Ana's Leader").click()
    expect(ana.locator("#leader-1 [data-pending-mark]")).to_have_text("Waiting to be sent")
    expect(ana.locator("[data-live-status]")).to_contain_text("5 changes not sent yet")
    check_page(ana)
    # Nothing reached the server yet; a reload of the copy keeps the taps and their marks.
    assert server_players(bo.context.request, token)["Ana"]["influence"] == "0"
    ana.reload()
    expect(mark("infl-1")).to_have_text("+1 waiting")
    expect(ana.locator("[data-pending-mark]")).to_have_count(5)

    a_phone.context.set_offline(False)
    ana.wait_for_function(OUTBOX_EMPTY, timeout=20_000)
    expect(ana.locator("[data-pending-mark]")).to_have_count(0)
    expect(ana.locator("[data-offline-banner]")).to_be_hidden()
    expect(ana.locator("[data-live-status]")).to_contain_text("Saved")
    server = server_players(bo.context.request, token)
    assert server["Ana"]["influence"] == "1" and server["Ana"]["destroyed"], server
    assert server["Bo"]["renown"] == "1", server
    assert server["Cy"]["wounds"] == "1", server
    html = bo.context.request.get(f"/t/{token}/players").text()
    assert "Leader&#39;s Resolve: 7" in html or "Leader's Resolve: 7" in html
    # Both phones show the server's state.
    fresh = make_phone().page
    visit(fresh, f"/t/{token}/players")
    version = fresh.locator("#live").get_attribute("data-version")
    for page in (ana, bo):
        expect(page.locator("#live")).to_have_attribute("data-version", version, timeout=15_000)
        assert players_text(page) == players_text(fresh)
    check_page(ana)


@pytest.fixture
def plain_http(playwright_instance, live_server):
    """A browser that reaches the live server by a made-up host name: a plain-http address that is
    not localhost, where no service worker can run (a laptop serving the table on home Wi-Fi)."""
    port = live_server.url.rsplit(":", 1)[1]
    host = "table-laptop.companion.test"
    browser = playwright_instance.chromium.launch(
        executable_path=CHROMIUM, args=CHROMIUM_ARGS + [f"--host-resolver-rules=MAP {host} 127.0.0.1"])
    phones = []

    def factory():
        p = Phone(browser, PHONE, f"http://{host}:{port}")
        phones.append(p)
        return p
    yield factory
    # Chromium says once per page that it ignores the app's Cross-Origin-Opener-Policy on plain http:
    # that is the address, not a fault of the page.
    errors = [e for p in phones for e in p.errors if "Cross-Origin-Opener-Policy header has been ignored" not in e]
    for p in phones:
        p.close()
    browser.close()
    assert not errors, f"console errors: {errors}"


def test_a_plain_http_address_says_once_what_works_offline_and_taps_still_arrive_once(plain_http, playwright_instance,
                                                                                   live_server):
    phone = plain_http()
    page = phone.page
    assert page.evaluate("() => isSecureContext") is False
    visit(page, "/new/fivesails")
    fill_new_table(page, THREE, "Laptop table")
    expect(page.locator("#live")).to_be_visible()
    token = page.url.split("/t/")[1].split("/")[0]
    notice = page.locator("[data-plain-http]")
    expect(notice).to_be_visible()
    expect(notice).to_contain_text("while this page stays open")
    expect(notice).to_contain_text("A reload without network shows no table")
    check_page(page)
    notice.get_by_role("button", name="Got it").click()
    expect(notice).to_be_hidden()
    visit(page, f"/t/{token}/players")
    expect(notice).to_be_hidden()  # once
    # Taps made while the page stays open without network arrive once each.
    phone.context.set_offline(True)
    plus = page.get_by_role("button", name="One more: Influence (total)").nth(0)
    plus.click()
    plus.click()
    expect(page.locator("#infl-1-wrap [data-pending-mark]")).to_have_text("+2 waiting")
    expect(page.locator("[data-live-status]")).to_contain_text("2 changes not sent yet")
    phone.context.set_offline(False)
    page.wait_for_function(OUTBOX_EMPTY, timeout=20_000)
    expect(page.locator("#infl-1-wrap output")).to_have_text("2")
    # The server, asked at its own address (Playwright's requests do not use Chromium's host mapping).
    server = playwright_instance.request.new_context(base_url=live_server.url)
    try:
        assert server_players(server, token)["Ana"]["influence"] == "2"
    finally:
        server.dispose()
    check_page(page)
