"""City of Five Sails in a browser: a 3-player game of five Days with two duels whose wounds add up on
the Leaders' trackers, a Leader destroyed by its tracker, and a fifth-Day tie-break; plus the standalone
duel calculator with its preview, take-back, and the duel kept in its address."""
from __future__ import annotations

import re

from playwright.sync_api import TimeoutError as PlaywrightTimeout, expect

from tests.e2e.checks import check_page, fill_new_table, visit, what_shows


def finish_phase(page, phase: str):
    """One tap finishes the phase on screen; the page then shows the next one."""
    version = page.locator("#live").get_attribute("data-version")
    button = page.get_by_role("button", name=re.compile(f"^{phase} done"))
    try:
        button.wait_for()
    except PlaywrightTimeout:
        raise AssertionError(f"no '{phase} done' button on {what_shows(page)}") from None
    button.click()
    expect(page.locator("#live")).not_to_have_attribute("data-version", version)


def hand_out_first_player(page, values: dict[str, int]):
    form = page.locator("#initiative")
    for name, value in values.items():
        form.get_by_label(name, exact=True).fill(str(value))
    # Handing out again with the same values changes nothing, so wait for the answer, not a new version.
    with page.expect_response(lambda r: r.url.endswith("/fivesails/initiative")):
        form.get_by_role("button", name=re.compile("^Hand out the First Player token")).click()
    expect(page.locator(".fs-first")).to_be_visible()


def quiet_day(page, initiative: dict[str, int]):
    """Dawn to the end of Dusk with nothing but Initiative."""
    finish_phase(page, "Dawn")
    hand_out_first_player(page, initiative)
    for phase in ("Planning", "High Drama", "Plunder", "Dusk"):
        finish_phase(page, phase)


def tap_plus(page, form_id: str, times: int):
    """Tap a counter's + (the form with this id) and wait for each change to land."""
    for _ in range(times):
        version = page.locator("#live").get_attribute("data-version")
        page.locator(f"#{form_id}").get_by_role("button", name=re.compile("^One more")).click()
        expect(page.locator("#live")).not_to_have_attribute("data-version", version)


def start_leader_duel(page, *, tracker: str = "0"):
    """Ana's Leader Kaspar (Combat 3, Resolve 6) challenges Bo's Leader Soline (Resolve 5): the Day
    page's "challenge by Ana" chip presets Ana's Leader; each Leader is one chip."""
    page.locator(".fs-challenge").get_by_role("link", name="Ana", exact=True).click()
    expect(page.get_by_role("heading", name="A new duel")).to_be_visible()
    form = page.locator("#duel-setup")
    challenger = form.get_by_role("group", name="Challenger")
    expect(challenger.get_by_role("radio", name="Ana's Leader")).to_be_checked()
    challenger.get_by_label("Name", exact=True).fill("Kaspar")
    challenger.locator("label.num-chip", has_text=re.compile("^3$")).first.click()  # Duel stat 3
    challenger.get_by_label("Resolve", exact=True).fill("6")
    defender = form.get_by_role("group", name="Challenged character")
    defender.get_by_label("Name", exact=True).fill("Soline")
    defender.get_by_label("Resolve", exact=True).fill("5")
    defender.get_by_label("Duel stat", exact=True).fill("2")
    defender.locator("label.fs-chip", has_text="Bo's Leader").click()
    # Bo's Leader chip fills "Wounds already" from Bo's tracker.
    expect(defender.get_by_label("Wounds already", exact=True)).to_have_value(tracker)
    check_page(page)
    form.get_by_role("button", name="Start the duel").click()
    expect(page.get_by_role("heading", name="Duel: Kaspar vs Soline")).to_be_visible()


def play_card(page, riposte=0, parry=0, thrust=0):
    rnd = page.locator("#duel-round")
    for label, value in (("Riposte", riposte), ("Parry", parry), ("Thrust", thrust)):
        rnd.get_by_label(label, exact=True).fill(str(value))
    version = page.locator("#live").get_attribute("data-version")
    rnd.get_by_role("button", name="Play this card").click()
    expect(page.locator("#live")).not_to_have_attribute("data-version", version)


def test_three_players_five_days_two_duels_a_leader_destroyed_and_a_fifth_day_tie_break(page):
    visit(page, "/new/fivesails")
    fill_new_table(page, ["Ana", "Bo", "Cy"])
    expect(page.get_by_role("heading", name="Setup for 3 players")).to_be_visible()
    page.get_by_role("button", name=re.compile("Turn the line end for end")).click()
    expect(page.locator(".fs-line-list li").first).to_contain_text("Ole's Inn")
    check_page(page)
    page.get_by_role("button", name="Start Day 1").click()
    expect(page.get_by_role("heading", name="Dawn", exact=True)).to_be_visible()
    expect(page.locator(".fs-deal li").first).to_have_text("Ole's Inn")
    check_page(page)

    # Day 1, Planning: the first box has the cursor; a tie with nobody holding the token is drawn at
    # random, and handing out again with the same values never moves it.
    finish_phase(page, "Dawn")
    expect(page.locator("#initiative").get_by_label("Ana", exact=True)).to_be_focused()
    hand_out_first_player(page, {"Ana": 40, "Bo": 55, "Cy": 55})
    first = page.locator(".fs-first").inner_text()
    assert "at random" in first
    for _ in range(2):
        hand_out_first_player(page, {"Ana": 40, "Bo": 55, "Cy": 55})
        expect(page.locator(".fs-first")).to_have_text(first)
    check_page(page)
    finish_phase(page, "Planning")

    # High Drama, duel 1: Soline takes 1 wound, Kaspar 2; both go onto the Leaders' trackers.
    start_leader_duel(page)
    play_card(page, 1, 1, 2)
    expect(page.locator(".fs-story")).to_contain_text("Soline takes 1 wound.")
    check_page(page)
    # No card empties both pools: the duel is over (p. 26), and the same tap finishes it.
    page.locator("#duel-round").get_by_role("button", name="No card").click()
    expect(page.get_by_role("heading", name="Duel over: Kaspar vs Soline")).to_be_visible()
    expect(page.locator(".fs-last .fs-verdict")).to_have_text("The duel is over: both threat pools are empty.")
    check_page(page)
    page.get_by_role("navigation", name="Table pages").get_by_role("link", name="Renown & Leaders").click()
    expect(page.locator("#wounds-1-wrap output")).to_have_text("2 / 6")
    expect(page.locator("#wounds-2-wrap output")).to_have_text("1 / 5")
    check_page(page)
    page.get_by_role("link", name="Day", exact=True).click()
    for phase in ("High Drama", "Plunder", "Dusk"):
        finish_phase(page, phase)
    expect(page.locator(".fs-day")).to_contain_text("Day 2 of 5")

    # Day 2, duel 2: Soline starts from her tracker's 1 wound although "Wounds already" says 0, takes
    # 2 more: the tracker adds them up to 3.
    finish_phase(page, "Dawn")
    hand_out_first_player(page, {"Ana": 10, "Bo": 20, "Cy": 30})
    finish_phase(page, "Planning")
    start_leader_duel(page, tracker="1")
    expect(page.locator(".fs-duellist").nth(1)).to_contain_text("Wounds 1 / 5")
    play_card(page, parry=1)
    expect(page.get_by_role("heading", name="Duel over: Kaspar vs Soline")).to_be_visible()
    check_page(page)

    # Cy's Leader falls to the wounds tracker: Resolve 2, two wounds; half of Cy's 4 Renown goes, once,
    # and Undo sits right there.
    page.get_by_role("navigation", name="Table pages").get_by_role("link", name="Renown & Leaders").click()
    expect(page.locator("#wounds-2-wrap output")).to_have_text("3 / 5")
    tap_plus(page, "renown-3", 4)
    page.locator("#fs-player-3 .fs-resolve > summary").click()
    resolve = page.locator("#resolve-3")
    resolve.get_by_label("Cy's Leader: Resolve", exact=True).fill("2")
    resolve.get_by_role("button", name="Set Resolve").click()
    expect(page.locator("#wounds-3-wrap output")).to_have_text("0 / 2")
    tap_plus(page, "wounds-3", 2)
    expect(page.locator("#undo-fallen-3")).to_contain_text("Cy's Leader was destroyed (2 Renown lost).")
    expect(page.locator("#renown-3-wrap output")).to_have_text("2")
    check_page(page)
    page.get_by_role("link", name="Day", exact=True).click()
    for phase in ("High Drama", "Plunder", "Dusk"):
        finish_phase(page, phase)

    # Days 3 and 4: nothing but Initiative.
    for day in (3, 4):
        expect(page.locator(".fs-day")).to_contain_text(f"Day {day} of 5")
        quiet_day(page, {"Ana": 30, "Bo": 40, "Cy": 50})
    expect(page.locator(".fs-day")).to_contain_text("Day 5 of 5")

    # Day 5: Ana and Bo tie on 8 Renown; the fifth-Day tie-breaks settle it on Leader wounds (2 against 3).
    finish_phase(page, "Dawn")
    hand_out_first_player(page, {"Ana": 30, "Bo": 40, "Cy": 50})
    finish_phase(page, "Planning")
    finish_phase(page, "High Drama")
    for pid in ("1", "2"):
        tap_plus(page, f"renown-{pid}", 8)
    expect(page.get_by_text("this is the fifth Day, so the tie-breaks below settle it")).to_be_visible()
    expect(page.get_by_text("Ana wins on the Leader with the fewest wounds.")).to_be_visible()
    expect(page.locator("#fs-standings th.decided")).to_contain_text("Leader wounds")
    deciding = page.locator("#fs-standings td.decided").first  # a card per player on a phone: its value
    expect(deciding).to_contain_text("Leader wounds")
    deciding.scroll_into_view_if_needed()
    box = deciding.bounding_box()
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= page.viewport_size["width"]
    check_page(page)
    page.get_by_role("button", name="Declare the Fifth Day Victory").click()
    expect(page.get_by_role("heading", name="Fifth Day Victory: Ana wins")).to_be_visible()
    expect(page.get_by_text("Decided by the Leader with the fewest wounds.")).to_be_visible()
    check_page(page)


def test_standalone_duel_calculator_with_preview_and_take_back(page):
    visit(page, "/fivesails/duel")
    form = page.locator("#calc-setup")
    challenger = form.get_by_role("group", name="Challenger")
    challenger.get_by_label("Name", exact=True).fill("Kaspar")
    challenger.get_by_label("Duel stat", exact=True).fill("1")
    challenger.locator("label:has(> input[name='challenger.resolve'][value='5'])").click()  # Resolve 5: a chip
    challenger.get_by_text("Wounds already, Finesse").click()  # folded away: seldom changed
    challenger.get_by_label("Finesse", exact=True).fill("0")
    defender = form.get_by_role("group", name="Challenged character")
    defender.get_by_label("Name", exact=True).fill("Soline")
    defender.get_by_label("Duel stat", exact=True).fill("2")
    defender.get_by_label("Resolve", exact=True).fill("5")
    form.get_by_role("button", name="Start the duel").click()
    expect(page.get_by_role("heading", name="Duel: Kaspar vs Soline")).to_be_visible()
    check_page(page)

    rnd = page.locator("#calc-round")
    expect(rnd.get_by_role("button", name="No card")).to_be_disabled()
    rnd.get_by_label("Riposte", exact=True).fill("4")
    rnd.get_by_role("button", name="Preview").click()
    expect(page.locator(".fs-preview")).to_contain_text("Riposte 4 removes only 1")
    check_page(page)
    page.locator("#calc-round").get_by_role("button", name="Play this card").click()
    expect(page.locator(".fs-duellist.acting")).to_contain_text("Kaspar")
    page.locator("#calc-round").get_by_role("button", name="Play this card").click()
    expect(page.locator(".fs-story > li")).to_have_count(3)
    check_page(page)
    page.get_by_role("button", name="Take back the last round").click()
    expect(page.locator(".fs-story > li")).to_have_count(2)
    expect(page.locator(".fs-duellist.acting")).to_contain_text("Kaspar")

    # An impossible gamble is refused with the reason next to the checkbox.
    rnd = page.locator("#calc-round")
    rnd.get_by_label("This card was gambled", exact=True).check()
    rnd.get_by_label("Thrust", exact=True).fill("1")
    rnd.get_by_role("button", name="Play this card").click()
    expect(page.locator("#calc-round-gambled-err")).to_contain_text("no gamble left")
    expect(page.locator(".fs-story > li")).to_have_count(2)
    check_page(page)

    # The duel lives in the address: a reload brings it back, and the link can be shared.
    expect(page).to_have_url(re.compile(r"/fivesails/duel\?d="))
    page.reload()
    expect(page.get_by_role("heading", name="Duel: Kaspar vs Soline")).to_be_visible()
    expect(page.locator(".fs-story > li")).to_have_count(2)
    expect(page.locator("#calc-link")).to_have_value(re.compile(r"/fivesails/duel\?d="))
    check_page(page)
