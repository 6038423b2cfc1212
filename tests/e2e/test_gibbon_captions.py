"""Gibbon counting tables on a phone (issue 28): each table's caption reads as a caption, one line or
two, never a letter per line, and no cell's label is cut, at 320, 360 and 390 px, in English and
French, with axe on each: the live preview, "Round N counted", the Counting table tab, and the last
round's card once the game is over."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.checks import check_page, fill_new_table
from tests.e2e.conftest import Phone
from tests.e2e.test_gibbon_game import DOUBTS, FATTEST, HIGH, LOW, enter

SIZES = [pytest.param({"width": 320, "height": 640}, id="320x640"),
         pytest.param({"width": 360, "height": 640}, id="360x640"),
         pytest.param({"width": 390, "height": 844}, id="390x844")]

# Per caption: its box, and the labels of its table's cells cut short (wider than their box).
MEASURE = """(tableId) => {
  const t = document.getElementById(tableId);
  const cap = t.querySelector('caption').getBoundingClientRect();
  const line = parseFloat(getComputedStyle(t.querySelector('caption')).lineHeight) || 24;
  const cut = [...t.querySelectorAll('td .pgrid-l, td .pgrid-v')]
    .filter(el => el.offsetParent && el.scrollWidth > el.clientWidth + 1).map(el => el.textContent);
  return {width: cap.width, lines: Math.round(cap.height / line), cut: cut};
}"""


def readable(page, table_id):
    got = page.evaluate(MEASURE, table_id)
    assert got["width"] > 200 and got["lines"] <= 3, (table_id, got)
    assert not got["cut"], (table_id, got)


def tables_on(page):
    ids = page.evaluate("() => [...document.querySelectorAll('.gb-counting table.pgrid')].map(t => t.id)")
    assert ids, page.url
    for table_id in ids:
        readable(page, table_id)
    check_page(page)


@pytest.mark.parametrize("viewport", SIZES)
def test_every_counting_table_caption_reads_as_a_caption(browser, live_server, viewport):
    """The preview while a round is entered, "Round 1 counted" and the Counting table tab, in English;
    then the counted round and the tab again in French."""
    phone = Phone(browser, viewport, live_server.url)
    page = phone.page
    try:
        page.goto("/new/gibbon")
        fill_new_table(page, ["Ana", "Bo", "Cy", "Di", "Eve"], "Captions")
        page.get_by_role("group", name="Deals the first round").get_by_text("Ana", exact=True).click()
        page.get_by_role("button", name="Start the game").click()
        page.get_by_role("link", name="Go to round 1").click()
        enter(page, {"Ana": {LOW: 6, HIGH: 2, DOUBTS: 1, FATTEST: 2}, "Bo": {LOW: 1}, "Cy": {LOW: 2}},
              braveheart="Bo", hat="Cy")
        expect(page.locator("#gb-pv")).to_be_visible()
        readable(page, "gb-pv")
        check_page(page)
        page.get_by_role("button", name="Count round 1").click()
        expect(page.get_by_role("heading", name="Round 1 counted")).to_be_visible()
        round_url = page.url.split("#")[0]
        tables_on(page)
        page.goto(round_url.rsplit("/", 1)[0] + "/counting")
        tables_on(page)
        phone.context.add_cookies([{"name": "lang", "value": "fr", "url": live_server.url}])
        for url in (round_url, round_url.rsplit("/", 1)[0] + "/counting"):
            page.goto(url)
            expect(page.locator("html")).to_have_attribute("lang", re.compile("^fr"))
            tables_on(page)
        assert not phone.errors, phone.errors
    finally:
        phone.close()


def finished_game(live_server) -> str:
    """A Gibbon table played to 1000 in two rounds, made through the store (the rounds counted and
    settled by play.py, as the round form does): its token."""
    from companion.db import get_session
    from companion.games.gibbon import play, rules
    from companion.tables import store
    from companion.tables.players import make_players

    with live_server.app.app_context():
        people = make_players(["Ana", "Bo", "Cy", "Di", "Eve"])
        ids = [p["id"] for p in people]
        doc = {"status": "playing", "state": {"players": people, "game": play.new_state(people)}, "result": None}
        play.start(doc["state"], ids[0], None)
        heavy = rules.Tally(low=20, high=10, cheats=5, hearts=8)
        light = rules.Tally(low=1)
        for n in (1, 2):
            if n == 2:
                play.swap(doc["state"], ids[1], ids[2])  # Bo, the Braveheart, swaps with Cy
            tallies = {pid: light for pid in ids}
            tallies[ids[0]] = heavy
            tallies[ids[1]] = rules.Tally(braveheart=True)
            play.record_round(doc, n, tallies)
        assert doc["status"] == "finished", doc["result"]
        session = get_session()
        table = store.create(session, "gibbon", "Last round", doc["state"]["players"], doc["state"]["game"])
        with store.write_transaction(session):
            table.status, table.result = doc["status"], doc["result"]
        return table.token


@pytest.mark.parametrize("viewport", SIZES)
def test_the_last_round_card_caption_reads_as_a_caption(browser, live_server, viewport):
    """The final round's result ("The final round", under "Game over"), in English and French."""
    token = finished_game(live_server)
    phone = Phone(browser, viewport, live_server.url)
    page = phone.page
    try:
        for lang, heading in (("en", "The final round"), ("fr", "La dernière manche")):
            phone.context.add_cookies([{"name": "lang", "value": lang, "url": live_server.url}])
            page.goto(f"/t/{token}/round")
            expect(page.locator("html")).to_have_attribute("lang", re.compile(f"^{lang}"))
            expect(page.locator("#gb-result-h")).to_be_visible()
            expect(page.get_by_role("heading", name=heading)).to_be_visible()
            readable(page, "gb-last")
            tables_on(page)
        assert not phone.errors, phone.errors
    finally:
        phone.close()
