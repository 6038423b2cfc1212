"""One trip per change (issue 33), in Chromium at 390x844 with axe: another phone's tap arrives as
the phone's own live region on its stream, applied through htmx's swap (afterSwap and afterSettle
fire as for a fetched region) with no fetch at all (typing kept through a pushed region:
test_live_table.py's chips test, whose updates now arrive this way); with no room for its stream (503)
the phone polls instead and still sees every change."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from companion.tables import stream
from tests.e2e.checks import check_page, visit
from tests.e2e.test_live_table import PHONE, five_sails, influence, plus


@pytest.fixture
def phone():  # these tests run at 390x844 only
    return PHONE


COUNT_SWAPS = """() => { window.__swaps = []; ['htmx:afterSwap', 'htmx:afterSettle'].forEach(name =>
  document.body.addEventListener(name, e => window.__swaps.push(name))); }"""


def test_another_phones_tap_arrives_on_the_stream_in_one_trip(make_phone):
    ana, bo = make_phone().page, make_phone().page
    token = five_sails(ana)
    streams, fetches = [], []
    bo.on("response", lambda r: streams.append(r.status) if "/events?" in r.url else None)
    visit(bo, f"/t/{token}/players")
    bo.wait_for_timeout(500)  # its stream is open
    assert 200 in streams
    bo.on("request", lambda r: fetches.append(r.url) if "since=" in r.url else None)
    bo.evaluate(COUNT_SWAPS)
    plus(ana).click()
    expect(influence(bo)).to_have_text("1", timeout=10_000)
    assert fetches == []  # the change came with the push: no second trip
    assert bo.evaluate("() => window.__swaps") == ["htmx:afterSwap", "htmx:afterSettle"]
    check_page(bo)


def test_with_no_room_for_its_stream_a_phone_is_told_503_and_polls(make_phone, live_server):
    hub = stream.hub(live_server.app)
    was = hub.max_streams
    hub.max_streams = 0
    try:
        ana, bo_phone = make_phone(), make_phone()
        token = five_sails(ana.page)
        bo = bo_phone.page
        answers, polls = [], []
        bo.on("response", lambda r: answers.append(r.status) if "/events?" in r.url else None)
        bo.on("request", lambda r: polls.append(r.url) if "since=" in r.url else None)
        visit(bo, f"/t/{token}/players")
        plus(ana.page).click()
        expect(influence(bo)).to_have_text("1", timeout=10_000)
        assert answers and set(answers) == {503}
        assert polls  # the phone polled
        check_page(bo)
    finally:
        hub.max_streams = was
    # Chrome logs the refused stream; the page itself handled it.
    bo_phone.errors[:] = [e for e in bo_phone.errors if "EventSource" not in e]
