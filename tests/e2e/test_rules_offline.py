"""Rules lookup in the browser, on the fixture content: search from the header with a typo, open the
result, read it again with the network off; a search that cannot reach the server offers the rules
saved on the phone; the offline page; the table page's game-first search; no JavaScript; term
popovers. Every page state passes check_page (axe, 44 px targets, no sideways scroll)."""
from __future__ import annotations

import os
import pathlib
import re

import pytest
from flask import render_template_string
from playwright.sync_api import TimeoutError as PlaywrightTimeout, expect

from companion import create_app
from companion.db import migrate
from tests.e2e import checks
from tests.e2e.checks import check_page, fill_new_table, visit
from tests.e2e.conftest import LiveServer

FIXTURE = pathlib.Path(__file__).resolve().parent.parent / "rules_fixture" / "content"

TERMS_PAGE = """{% extends "base.html" %}{% block title %}Terms{% endblock %}{% block main %}
<h1>Terms</h1>
<ul class="card stack">
  <li>{{ term('fivesails', 'Lethal') }}: no cap on wounds this round.</li>
  <li>Take a {{ term('sins', 'Stone of Forgiveness') }} when you feed the Abyss.</li>
</ul>
{% endblock %}"""


@pytest.fixture(scope="module")
def live_server(tmp_path_factory):
    """This module's own server, on the fixture content, with a page of terms as a game page uses them."""
    root = tmp_path_factory.mktemp("rules-live")
    url = f"sqlite:///{root / 'live.sqlite3'}"
    migrate(url)
    os.environ.setdefault("COMPANION_INSTANCE", str(root / "instance"))
    app = create_app({"DATABASE_URL": url, "SECRET_KEY": "e2e-secret", "POLL_SECONDS": 1,
                      "RULES_CONTENT": str(FIXTURE)})
    app.add_url_rule("/_test/terms", "test_terms", lambda: render_template_string(TERMS_PAGE))
    server = LiveServer(app).start()
    yield server
    server.stop()
    app.extensions["companion.engine"].dispose()


def open_search(page):
    # A <summary> has no ARIA role to find it by: its text it is.
    page.locator("summary").filter(has_text="Rules").click()
    box = page.get_by_role("searchbox", name="Search the rules")
    expect(box).to_be_focused()
    return box


def wait_saved(page, *paths):
    """Until the service worker has these pages in its cache, and the index of the saved rules that
    the offline page lists them from."""
    checks.wait_saved(page, *paths, "/rules/offline.json")


def visit_saved_game(page):
    """Open 7 - The Sins' contents and wait until the phone says its rules are saved."""
    visit(page, "/rules/sins")
    expect(page.get_by_role("status").filter(has_text="Saved on this phone")).to_be_visible()
    check_page(page)


def test_search_with_a_typo_open_the_result_then_read_it_offline(make_phone):
    phone = make_phone()
    page = phone.page
    visit(page, "/rules/sins/overview")
    open_search(page).fill("stoens")
    hit = page.locator("#hs-results").get_by_role("link", name="Stones of Forgiveness at setup")
    expect(hit).to_be_visible()
    expect(page.locator("#hs-results")).to_contain_text("Also searched for: stones")
    expect(page.locator("#hs-results mark").first).to_have_text(re.compile("stones", re.I))
    check_page(page)

    hit.click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Stones of Forgiveness at setup")
    check_page(page)
    wait_saved(page, "/rules/sins/setup-stones", "/rules/sins/scoring")

    phone.context.set_offline(True)
    page.reload()
    expect(page.get_by_role("heading", level=1)).to_have_text("Stones of Forgiveness at setup")
    expect(page.get_by_role("cell", name="8")).to_be_visible()
    check_page(page)
    # The rest of the game was saved in the background: a related section opens too.
    page.get_by_role("link", name="Scoring your reserve").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Scoring your reserve")
    check_page(page)


@pytest.mark.parametrize("cause", ["offline", "server-unreachable"])
def test_a_search_that_cannot_reach_the_server_offers_the_saved_rules(make_phone, cause):
    """With the network off, or online while the server does not answer (a flaky network), the
    search says it needs a connection and lists the rules saved on the phone, which open."""
    phone = make_phone()
    page = phone.page
    visit_saved_game(page)
    if cause == "offline":
        phone.context.set_offline(True)
    else:
        page.route("**/rules/search?*", lambda route: route.abort())
    open_search(page).fill("abyss")
    results = page.locator("#hs-results")
    expect(results).to_contain_text("Search needs a connection. These rules are saved on this phone:")
    expect(results.get_by_role("link", name="The Abyss of Souls")).to_be_visible()
    expect(results.get_by_role("link", name="Penitenziagite (advanced mode)")).to_be_visible()
    expect(page.locator("#toast")).to_be_hidden()  # not the table's "change not saved" message
    check_page(page)
    results.get_by_role("link", name="The Abyss of Souls").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("The Abyss of Souls")
    check_page(page)
    # htmx itself logs the request that failed: the failure this test makes on purpose.
    phone.errors[:] = [e for e in phone.errors if not re.match(r"htmx:(afterRequest|sendError)", e)]


def test_a_rules_page_never_saved_shows_the_offline_contents(make_phone):
    phone = make_phone()
    page = phone.page
    visit(page, "/rules/sins/turn")
    wait_saved(page, "/rules/sins/turn", "/rules/sins/abyss", "/rules/offline")
    phone.context.set_offline(True)
    page.goto("/rules/fivesails/lethal")
    expect(page.get_by_role("heading", level=1)).to_have_text("No connection")
    expect(page.get_by_role("link", name="Your turn")).to_be_visible()
    check_page(page)


def test_waiting_for_the_cache_waits_for_its_answer(make_phone):
    """The wait every offline test relies on: `page.wait_for_function` takes a promise as a truthy
    answer and returned at once, so a test could go offline before the pages were saved (CI failed
    on that once). `wait_until` times out on an answer that stays false and returns once it is true."""
    page = make_phone().page
    page.goto("/rules/offline")
    with pytest.raises(PlaywrightTimeout):
        checks.wait_until(page, "() => caches.match('/rules/never-saved')", timeout=1_000)
    page.evaluate("() => { setTimeout(() => caches.open('later').then((c) => c.put('/rules/later', new Response('x'))), 500); }")
    checks.wait_until(page, "() => caches.match('/rules/later')", timeout=10_000)
    assert page.evaluate("() => caches.match('/rules/later').then(Boolean)")


def test_on_a_table_page_search_starts_with_its_game_and_switches_to_all(make_phone):
    page = make_phone().page
    visit(page, "/new/sins")
    fill_new_table(page, ("Ana", "Bo"))
    expect(page).to_have_url(re.compile(r"/t/"))
    open_search(page).fill("wounds")
    expect(page.get_by_role("radio", name="7 - The Sins")).to_be_checked()
    results = page.locator("#hs-results")
    expect(results).to_contain_text("Nothing in 7 - The Sins matches “wounds”.")
    # A hit's name is all its text (title, game, snippet): this one is titled "Wounds".
    expect(results.get_by_role("link", name=re.compile(r"^Wounds\b"))).to_be_visible()
    check_page(page)
    page.get_by_role("radio", name="All games").check()
    expect(results).not_to_contain_text("Nothing in")
    expect(results.get_by_role("link", name="Taking Wounds")).to_be_visible()
    check_page(page)
    page.keyboard.press("Escape")
    expect(page.get_by_role("searchbox", name="Search the rules")).to_be_hidden()


def test_search_works_without_javascript(browser, phone, live_server):
    """The header's sheet opens (details/summary) and the form is a plain GET. axe needs scripts to
    run, so it checks these same pages in the tests above; tap targets and width are checked here."""
    context = browser.new_context(viewport=phone, java_script_enabled=False, base_url=live_server.url)
    context.set_default_timeout(10_000)
    try:
        page = context.new_page()
        resp = page.goto("/rules/gibbon/overview")
        assert resp.ok
        check_page(page, axe=False)
        page.locator("summary").filter(has_text="Rules").click()
        box = page.get_by_role("searchbox", name="Search the rules")
        box.fill("hat")
        box.press("Enter")
        expect(page).to_have_url(re.compile(r"/rules/search\?q=hat&game=gibbon"))
        expect(page.locator("#rs-results").get_by_role("link", name="The Heartless Monkey Hat")).to_be_visible()
        check_page(page, axe=False)
    finally:
        context.close()


def test_term_popovers_open_on_tap_one_at_a_time(make_phone):
    page = make_phone().page
    visit(page, "/_test/terms")
    lethal = page.locator("details.term").filter(has_text="Lethal")
    lethal.locator("summary").click()
    expect(lethal.get_by_role("note")).to_contain_text("ignore Restricted Hostilities")
    check_page(page)
    stone = page.locator("details.term").filter(has_text="Stone of Forgiveness")
    stone.locator("summary").click()
    expect(stone.get_by_role("note")).to_be_visible()
    expect(lethal.get_by_role("note")).to_be_hidden()
    page.keyboard.press("Escape")
    expect(stone.get_by_role("note")).to_be_hidden()
    stone.locator("summary").click()
    stone.get_by_role("link", name=re.compile("Read the rule")).click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Stones of Forgiveness at setup")
    check_page(page)
