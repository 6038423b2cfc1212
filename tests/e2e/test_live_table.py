"""The live table on a real network (issue 26), in Chromium at 390x844 with axe: taps made without
network are kept and sent once, a lost answer counts once, two tabs count twice, the last copy of a
table page reads offline, typed input survives another phone's change, and a stale third Last
Judgment is refused."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.checks import check_page, fill_new_table, visit, wait_until
from tests.e2e.test_sins_flow import PLAYERS, SIX, region

PHONE = {"width": 390, "height": 844}
THREE = ["Ana", "Bo", "Cy"]


@pytest.fixture
def phone():  # these tests run at 390x844 only
    return PHONE


def five_sails(page, names=THREE):
    visit(page, "/new/fivesails")
    fill_new_table(page, names, "Live table")
    expect(page.locator("#live")).to_be_visible()
    token = page.url.split("/t/")[1].split("/")[0]
    visit(page, f"/t/{token}/players")
    return token


def influence(page, player="Ana"):
    return page.locator(f"#infl-{THREE.index(player) + 1}-wrap output")


def plus(page, player="Ana"):
    return page.get_by_role("button", name=f"One more: Influence (total)").nth(THREE.index(player))


def server_influence(page, token, player="Ana"):
    """What the server says, read by a fresh request outside the page."""
    html = page.context.request.get(f"/t/{token}/players").text()
    match = re.search(rf'id="infl-{THREE.index(player) + 1}-wrap".*?<output[^>]*>(\d+)<', html, re.S)
    return int(match.group(1))


def reload_offline(phone):
    """Once the service worker controls the page and has saved its copy, cut the network and reload:
    the phone now shows the saved copy."""
    page = phone.page
    page.wait_for_function("() => navigator.serviceWorker && navigator.serviceWorker.controller", timeout=15_000)
    page.reload()
    wait_until(page, "() => caches.open('tables-v1').then(c => c.match(location.href))")
    phone.context.set_offline(True)
    page.reload()


def test_taps_made_offline_are_kept_shown_and_sent_once_when_the_network_is_back(make_phone):
    phone = make_phone()
    page = phone.page
    token = five_sails(page)
    phone.context.set_offline(True)
    for _ in range(3):
        plus(page).click()
    status = page.locator("[data-live-status]")
    expect(status).to_contain_text("3 changes not sent yet")
    check_page(page)
    phone.context.set_offline(False)
    expect(status).to_contain_text("Saved", timeout=15_000)
    expect(influence(page)).to_have_text("3")
    assert server_influence(page, token) == 3
    check_page(page)


def test_a_tap_whose_answer_was_lost_after_it_was_saved_counts_once(make_phone):
    phone = make_phone(service_workers="block")  # the tap must pass through page.route below
    page = phone.page
    token = five_sails(page)
    lost, calls = [], []

    def lose_the_answer(route):
        calls.append(route.request.post_data)
        if len(calls) == 1:
            lost.append(route.fetch())  # the server applies it ...
            route.abort("connectionreset")  # ... and the phone never hears back
        else:
            route.continue_()
    page.route("**/fivesails/influence", lose_the_answer)
    plus(page).click()
    expect(influence(page)).to_have_text("1", timeout=15_000)
    # The push can show the change before the handler above has its answer: wait for the handler,
    # then for the phone's outbox to be empty (its retry of the same tap answered).
    page.wait_for_function("() => (localStorage.getItem('companion.outbox.v1') || '[]') === '[]'", timeout=15_000)
    for _ in range(150):
        if lost:
            break
        page.wait_for_timeout(100)
    assert lost and lost[0].status == 200
    assert len(calls) >= 2 and len(set(calls)) == 1  # the same tap, with its id, went again
    assert server_influence(page, token) == 1
    expect(influence(page)).to_have_text("1")
    check_page(page)


def test_a_tap_answered_once_the_phone_is_on_another_page_leaves_that_page_its_own(make_phone):
    """A tap waits (its answer held back) and the phone opens another page of the table; that page's
    outbox sends the tap again. It counts once, and the page shown keeps its own content: the answer
    is the page the tap was made on, so this page fetches its own region instead (seen in CI: a Five
    Sails Day page showing the Renown & Leaders page after a Leader was destroyed there)."""
    phone = make_phone(service_workers="block")  # the tap must pass through page.route below
    page = phone.page
    token = five_sails(page)
    held = []

    def hold_the_first(route):
        if held:
            route.continue_()
        else:
            held.append(route)  # never answered: it goes with the page it was made on
    page.route("**/fivesails/influence", hold_the_first)
    plus(page).click()
    for _ in range(100):
        if held:
            break
        page.wait_for_timeout(100)
    assert held, "the tap went to the server"
    version = int(page.locator("#live").get_attribute("data-version"))
    visit(page, f"/t/{token}/day")
    page.wait_for_function("() => (localStorage.getItem('companion.outbox.v1') || '[]') === '[]'", timeout=15_000)
    expect(page.locator("#live")).to_have_attribute("data-version", str(version + 1))
    assert server_influence(page, token) == 1
    expect(page).to_have_url(re.compile(f"/t/{token}/day$"))
    expect(page.get_by_role("heading", name="Not started yet")).to_be_visible()
    expect(page.locator("#live [id^=infl-]")).to_have_count(0)  # no Renown & Leaders counter here
    check_page(page)


def test_two_tabs_of_one_phone_each_tap_once_and_both_count(make_phone):
    phone = make_phone()
    first = phone.page
    token = five_sails(first)
    second = phone.context.new_page()
    visit(second, f"/t/{token}/players")
    plus(first).click()
    plus(second).click()
    expect(influence(first)).to_have_text("2", timeout=10_000)
    expect(influence(second)).to_have_text("2", timeout=10_000)
    assert server_influence(first, token) == 2


def test_reloading_a_table_page_offline_shows_its_last_copy_and_it_comes_back_to_life(make_phone):
    """The saved copy takes taps (issue 33: tests/e2e/test_offline_play.py sends them); here: it
    says what it is, and the banner goes when the network is back, without leaving the table."""
    phone = make_phone()
    page = phone.page
    token = five_sails(page)
    reload_offline(phone)
    banner = page.locator("[data-offline-banner]")
    expect(banner).to_contain_text("The copy saved on this phone")
    expect(plus(page)).to_be_enabled()
    expect(page.get_by_role("heading", level=1)).to_have_text("Live table")
    check_page(page)
    phone.context.set_offline(False)
    expect(banner).to_be_hidden(timeout=15_000)
    assert token in page.url


def sins_game(page, penitenziagite=False, name="Sins night"):
    visit(page, "/new/sins")
    fill_new_table(page, PLAYERS, name)
    types = region(page, "Sin types in play")
    for sin in SIX:
        types.get_by_text(sin, exact=True).click()
    types.get_by_role("button", name="Play with these types").click()
    expect(types.get_by_text("In play:")).to_be_visible()
    if penitenziagite:
        page.get_by_role("button", name="Play with Penitenziagite").click()
        expect(page.get_by_role("button", name="Play with Penitenziagite")).to_have_attribute("aria-pressed", "true")
    page.get_by_role("button", name="Start the game").click()
    expect(page.get_by_text("Now playing:")).to_be_visible()
    return page.url.split("/t/")[1].split("/")[0]


def chip(page, form, sin, n):
    box = page.locator(f"#{form}-{sin.lower()}")
    page.locator(f"#{form} [data-num]").filter(has=box).locator(f'.num-chip input[value="{n}"]').click()
    return box


def test_chips_not_yet_sent_survive_another_phones_change_and_a_value_changed_underneath_is_marked(make_phone):
    ana, bo = make_phone().page, make_phone().page
    token = sins_game(ana)
    visit(ana, f"/t/{token}/score")
    visit(bo, f"/t/{token}/score")
    form = "sins-reserve-1"
    boxes = [chip(bo, form, sin, n) for sin, n in (("Superbia", 3), ("Luxuria", 2), ("Invidia", 4))]
    # Another phone saves another player's reserve: Bo's page updates, the chips stay as tapped.
    ana_other = ana.locator("#sins-reserve-2")
    ana_other.get_by_label("Ira", exact=True).fill("2")
    ana_other.get_by_role("button", name=re.compile("Save")).click()
    expect(bo.locator(".log-list li").first).to_contain_text("Bo", timeout=5000)
    for box, n in zip(boxes, (3, 2, 4)):
        expect(box).to_have_value(str(n))
    expect(bo.locator("#toast")).to_be_hidden()
    # Another phone saves this very reserve: what changed underneath is marked, Bo's entry is kept.
    ana_same = ana.locator(f"#{form}")
    ana_same.get_by_label("Superbia", exact=True).fill("5")
    ana_same.get_by_role("button", name=re.compile("Save")).click()
    note = bo.locator(f"#{form} [data-changed-note]").first
    expect(note).to_contain_text("Another phone changed this to 5", timeout=5000)
    expect(boxes[0]).to_have_value("3")
    check_page(bo)
    # Saving now is judged on the view Bo typed on: refused with the fresh table, the entry kept.
    bo.locator(f"#{form}").get_by_role("button", name=re.compile("Save")).click()
    expect(bo.get_by_text("The table changed on another phone")).to_be_visible(timeout=5000)
    expect(bo.locator(f"#{form}-superbia")).to_have_value("3")


def test_a_stale_third_last_judgment_from_a_second_phone_is_refused_with_the_fresh_table(make_phone):
    ana, bo = make_phone().page, make_phone().page
    sins_game(ana, penitenziagite=True, name="Judgment night")
    judgments = region(ana, "Last Judgment cards")
    more = "One more: Last Judgments revealed"
    judgments.get_by_role("button", name=more).click()
    expect(judgments.locator("output")).to_have_text("1 / 3")

    # Bo's phone shows "1 / 3" and hears nothing more (its stream and its polls never arrive).
    bo.route(re.compile(r".*(/events|since=).*"), lambda route: route.abort())
    visit(bo, ana.url)
    expect(region(bo, "Last Judgment cards").locator("output")).to_have_text("1 / 3")

    ana.get_by_role("button", name=re.compile(r"^Margherita is done")).click()
    judgments.get_by_role("button", name=more).click()
    expect(judgments.locator("output")).to_have_text("2 / 3")

    region(bo, "Last Judgment cards").get_by_role("button", name=more).click()
    expect(bo.get_by_text("The table changed on another phone")).to_be_visible(timeout=10_000)
    expect(region(bo, "Last Judgment cards").locator("output")).to_have_text("2 / 3")
    check_page(bo)
    ana.reload()
    expect(region(ana, "Last Judgment cards").locator("output")).to_have_text("2 / 3")
    expect(ana.get_by_text("Now playing:")).to_be_visible()


def test_an_opened_panel_is_known_among_panels_alike_and_only_opened_panels_reopen(make_phone):
    """09-entries.js on a region built here: two "More" panels alike (no id, no form), and a panel
    holding another that starts with the same form. After a fresh copy of the region comes in, the
    panels the player opened are open again and no other; the panel of the form just answered is
    left as drawn."""
    page = make_phone().page
    visit(page, "/")
    opened = page.evaluate("""() => {
      const region = document.createElement("div");
      const html = `<details><summary>More</summary>a</details><details><summary>More</summary>b</details>
        <details id="outer"><summary>Outer</summary><details><summary>Inner</summary><form id="f1"></form></details></details>
        <details><summary>Edit</summary><form id="answered"></form></details>`;
      region.innerHTML = html;
      document.body.appendChild(region);
      const d = region.querySelectorAll("details");
      d[1].open = true; d[3].open = true; d[4].open = true;  // the second More, the inner panel, the answered one
      const keys = window.companionEntries.openDisclosures(region, "answered");
      region.innerHTML = html;  // the fresh copy, every panel drawn closed
      window.companionEntries.reopen(region, keys);
      return Array.from(region.querySelectorAll("details"), (el) => el.open);
    }""")
    assert opened == [False, True, False, True, False]
