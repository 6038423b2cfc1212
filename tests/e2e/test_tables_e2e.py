"""The shared table machinery in a real browser: new tables for every game, rename and undo, the
second phone, the QR code, the view-only link, simultaneous changes, and no JavaScript at all."""
import io
import re

import pytest
import zxingcpp
from PIL import Image
from playwright.sync_api import expect

from companion.games import GAMES
from tests.e2e.checks import check_page, fill_new_table, visit

FOUR = ["Ana", "Bo", "Cy", "Di"]


def create_table(page, game_key, names=FOUR, table_name=None):
    visit(page, "/")
    page.get_by_role("link", name=re.compile(re.escape(GAMES[game_key].title))).click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("New table")
    check_page(page)
    fill_new_table(page, names, table_name)
    expect(page.locator("#live")).to_be_visible()
    check_page(page)
    return page.url.split("/t/")[1].split("/")[0]


def open_players(page):
    page.get_by_role("link", name="Players & table").click()
    expect(page.get_by_role("heading", name="Players, in seat order")).to_be_visible()


def rename(page, old, new):
    page.locator("summary", has_text=f"Edit {old}").click()
    row = page.locator(".player-row", has=page.locator("summary", has_text=f"Edit {old}"))
    row.get_by_label("New name").fill(new)
    row.get_by_role("button", name="Rename").click()


@pytest.mark.parametrize("game_key", list(GAMES))
def test_a_table_for_each_game_rename_undo_and_a_second_phone(make_phone, game_key):
    ana = make_phone().page
    token = create_table(ana, game_key, table_name=f"{game_key} night")
    open_players(ana)
    check_page(ana)
    rename(ana, "Bo", "Bob")
    expect(ana.locator(".player-name").nth(1)).to_have_text("Bob")
    expect(ana.locator(".log-list li").first).to_have_text("Bo is now called Bob")
    check_page(ana)
    ana.get_by_role("button", name=re.compile("Undo: Bo is now called Bob")).click()
    expect(ana.locator(".player-name").nth(1)).to_have_text("Bo")
    expect(ana.get_by_role("status").filter(has_text="Undone: Bo is now called Bob")).to_be_visible()
    check_page(ana)

    bo = make_phone().page
    visit(bo, f"/t/{token}/table")
    expect(bo.locator(".player-name")).to_have_text(FOUR)
    expect(bo.locator(".log-list li")).to_have_text(["Undo: Bo is now called Bob", "Bo is now called Bob (undone)"])
    expect(bo.get_by_role("heading", level=1)).to_have_text(f"{game_key} night")


def decode_qr(page) -> str:
    png = page.locator("svg.qr").screenshot()
    image = Image.open(io.BytesIO(png)).convert("L")
    found = zxingcpp.read_barcodes(image)
    assert found, "no QR code found in the picture"
    return found[0].text


def test_the_qr_code_decodes_to_the_tables_link(page, live_server):
    token = create_table(page, "sins", ["Ana", "Bo"])
    page.get_by_text("Invite players").click()
    expect(page.locator("svg.qr")).to_be_visible()
    check_page(page)
    assert decode_qr(page) == f"{live_server.url}/t/{token}"
    assert page.get_by_label("Table link").input_value() == f"{live_server.url}/t/{token}"


def test_the_view_only_link_shows_the_same_table_without_controls(make_phone):
    ana = make_phone().page
    token = create_table(ana, "gibbon", ["Ana", "Bo", "Cy"])
    ana.get_by_text("Invite players").click()
    view_link = ana.get_by_label("View-only link (for a screen or a spectator)").input_value()
    assert token not in view_link

    watcher = make_phone().page
    visit(watcher, view_link)
    expect(watcher.get_by_text("View only: this link shows the table")).to_be_visible()
    assert watcher.locator("main form").count() == 0
    assert watcher.locator("#live button, #live input, #live select, #live textarea").count() == 0
    assert token not in watcher.content()
    watcher.get_by_role("link", name="Players & table").click()
    check_page(watcher)
    assert watcher.locator("main form").count() == 0

    open_players(ana)
    rename(ana, "Cy", "Cyd")
    expect(watcher.locator(".player-name").nth(2)).to_have_text("Cyd", timeout=5000)


def test_a_change_on_one_phone_shows_on_the_other_within_five_seconds(make_phone):
    ana = make_phone().page
    token = create_table(ana, "others")
    open_players(ana)
    bo = make_phone().page
    visit(bo, f"/t/{token}/table")
    rename(ana, "Di", "Dee")
    expect(bo.locator(".player-name").nth(3)).to_have_text("Dee", timeout=5000)
    expect(bo.locator(".log-list li").first).to_have_text("Di is now called Dee", timeout=5000)
    check_page(bo)


def test_a_phone_with_unsent_typing_gets_the_change_and_keeps_its_input(make_phone):
    """Issue 26: the rest of the page updates, the form keeps what was typed, no notice covers it."""
    ana = make_phone().page
    token = create_table(ana, "fivesails", ["Ana", "Bo", "Cy"])
    open_players(ana)
    bo = make_phone().page
    visit(bo, f"/t/{token}/table")
    bo.locator("summary", has_text="Edit Ana").click()
    bo.get_by_label("Add a player").fill("Half-typed")
    rename(ana, "Bo", "Bob")
    expect(bo.locator(".player-name").nth(1)).to_have_text("Bob", timeout=5000)
    expect(bo.get_by_label("Add a player")).to_have_value("Half-typed")
    expect(bo.locator("#toast")).to_be_hidden()
    check_page(bo)


def test_simultaneous_changes_both_land_or_one_is_told(make_phone):
    ana = make_phone().page
    token = create_table(ana, "sins", ["Ana", "Bo", "Cy"])
    open_players(ana)
    bo = make_phone().page
    visit(bo, f"/t/{token}/table")

    # Different things at the same moment: both land.
    for page, old, new in ((ana, "Ana", "Anna"), (bo, "Bo", "Bob")):
        page.locator("summary", has_text=f"Edit {old}").click()
        page.locator(".player-row", has=page.locator("summary", has_text=f"Edit {old}")).get_by_label("New name").fill(new)
    buttons = [p.locator(".player-row", has=p.locator("summary", has_text=f"Edit {o}")).get_by_role("button", name="Rename")
               for p, o in ((ana, "Ana"), (bo, "Bo"))]
    click_together(buttons)
    for page in (ana, bo):
        expect(page.locator(".player-name")).to_have_text(["Anna", "Bob", "Cy"], timeout=5000)
    expect(ana.locator(".log-list li")).to_have_count(2, timeout=5000)

    # The same thing at the same moment: one lands, the other phone is told and keeps its entry.
    for page, new in ((ana, "Cyan"), (bo, "Cyril")):
        page.locator("summary", has_text="Edit Cy").click()
        page.locator(".player-row", has=page.locator("summary", has_text="Edit Cy")).get_by_label("New name").fill(new)
    buttons = [p.locator(".player-row", has=p.locator("summary", has_text="Edit Cy")).get_by_role("button", name="Rename")
               for p in (ana, bo)]
    click_together(buttons)
    told = [p for p in (ana, bo) if p.get_by_text("The table changed on another phone").count()]
    final = ana.locator(".player-name").nth(2)
    expect(final).to_have_text(re.compile("^(Cyan|Cyril)$"), timeout=5000)
    winner = final.inner_text()
    log = ana.locator(".log-list li")
    if told:
        [loser] = told
        assert loser.locator(".player-row").nth(2).get_by_label("New name").input_value() in ("Cyan", "Cyril")
        expect(log.first).to_have_text(f"Cy is now called {winner}")
        check_page(loser)
    else:  # the second landed on top of the first (it saw the fresh version): both are in the log
        expect(log.nth(0)).to_contain_text("is now called")
        expect(log.nth(1)).to_contain_text("is now called")


def click_together(locators):
    """Tap buttons on two phones at (nearly) the same moment.

    Playwright's sync API runs one call at a time, so each page schedules its own click 100 ms
    ahead; both fire before either answer comes back.
    """
    for handle in [loc.element_handle() for loc in locators]:
        handle.evaluate("b => setTimeout(() => b.click(), 100)")


def test_everything_works_without_javascript(browser, live_server, phone):
    ctx = browser.new_context(viewport=phone, java_script_enabled=False, base_url=live_server.url)
    page = ctx.new_page()
    try:
        page.goto("/new/sins")
        page.get_by_label("Player 1", exact=False).first.fill("Ana")
        page.get_by_label("Player 2", exact=False).first.fill("Ana")
        page.get_by_role("button", name="Create table").click()
        expect(page.get_by_text("Two players have this name.")).to_be_visible()
        expect(page.get_by_label("Player 1", exact=False).first).to_have_value("Ana")
        page.get_by_label("Player 2", exact=False).first.fill("Bo")
        page.get_by_role("button", name="Create table").click()
        open_players(page)
        page.locator("summary", has_text="Edit Bo").click()
        row = page.locator(".player-row", has=page.locator("summary", has_text="Edit Bo"))
        row.get_by_label("New name").fill("Bob")
        row.get_by_role("button", name="Rename").click()
        expect(page.locator(".player-name").nth(1)).to_have_text("Bob")
        page.get_by_role("button", name=re.compile("Undo: Bo is now called Bob")).click()
        expect(page.locator(".player-name").nth(1)).to_have_text("Bo")
    finally:
        ctx.close()


def test_home_lists_the_table_and_can_forget_it_and_the_screen_can_stay_on(page):
    create_table(page, "gibbon", ["Ana", "Bo", "Cy"], table_name="Late game")
    wake = page.get_by_role("button", name="Keep screen on")
    wake.click()
    expect(page.locator("[data-wake-status]")).to_have_text(re.compile(
        "The screen stays on while this page is open.|The browser refused to keep the screen on|"
        "This browser cannot keep the screen on"))
    visit(page, "/")
    expect(page.get_by_role("link", name=re.compile("Late game"))).to_be_visible()
    page.get_by_role("button", name=re.compile(r"Remove from list\W+Late game")).click()
    expect(page.get_by_text("Tables you start or open on this phone are listed here.")).to_be_visible()
    check_page(page)


def test_an_unknown_table_link_gets_a_friendly_page(page):
    resp = page.goto("/t/" + "x" * 24)
    assert resp.status == 404
    expect(page.get_by_role("heading", name="Nothing here")).to_be_visible()
    check_page(page)
