"""City of Five Sails in a browser: a 3-player table through two Days, a duel inside High Drama, and an
Economic Victory at Plunder; plus the standalone duel calculator with its preview and take-back."""
from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.e2e.checks import check_page, fill_new_table, visit


def next_button(page):
    return page.get_by_role("button", name=re.compile(r"^(Next: |Start Day )"))


def press_next_until(page, heading: str, limit: int = 40):
    """Press Next, checking each step's page, until the step heading reads `heading`."""
    step = page.locator("#fs-step-h")
    for _ in range(limit):
        if heading in step.inner_text():
            return
        before = step.inner_text()
        next_button(page).click()
        expect(step).not_to_have_text(before)
        check_page(page)
    raise AssertionError(f"never reached {heading!r}")


def hand_out_first_player(page, values: dict[str, int]):
    form = page.locator("#initiative")
    for name, value in values.items():
        form.get_by_label(name, exact=True).fill(str(value))
    form.get_by_role("button", name="Hand out the First Player token").click()


def add_renown(page, name: str, times: int):
    for _ in range(times):
        before = page.locator("#live").get_attribute("data-version")
        page.get_by_role("button", name=f"One more: {name}: Renown").click()
        expect(page.locator("#live")).not_to_have_attribute("data-version", before)


def test_three_players_two_days_a_duel_and_an_economic_victory(page):
    visit(page, "/new/fivesails")
    fill_new_table(page, ["Ana", "Bo", "Cy"])
    expect(page.get_by_role("heading", name="Setup for 3 players")).to_be_visible()
    check_page(page)

    # Setup: tick a step, turn the City line, start.
    page.get_by_role("button", name=re.compile("^Shuffle the City Deck")).click()
    expect(page.get_by_role("button", name=re.compile("^Shuffle the City Deck"))).to_have_attribute("aria-pressed", "true")
    page.get_by_role("button", name=re.compile("Turn the line end for end")).click()
    expect(page.locator(".fs-line-list li").first).to_contain_text("Ole's Inn")
    check_page(page)
    page.get_by_role("button", name="Start Day 1").click()
    expect(page.locator("#fs-step-h")).to_contain_text("Beginning of the Day")
    check_page(page)

    # Day 1: Dawn deals in the line's order, then Initiative.
    press_next_until(page, "Deal the City cards")
    expect(page.locator(".fs-deal li").first).to_have_text("Ole's Inn")
    press_next_until(page, "Determine Initiative")
    hand_out_first_player(page, {"Ana": 12, "Bo": 67, "Cy": 30})
    expect(page.locator(".fs-first")).to_contain_text("Bo has the highest Initiative")
    expect(page.locator(".fs-order li")).to_have_text([re.compile("^Bo"), "Cy", "Ana"])
    check_page(page)

    # High Drama: Ana's Leader Kaspar challenges Bo's Soline.
    press_next_until(page, "Take actions in turn")
    page.get_by_role("link", name=re.compile("A challenge\\? Open the duel")).click()
    expect(page.get_by_role("heading", name="A new duel")).to_be_visible()
    check_page(page)
    form = page.locator("#duel-setup")
    challenger = form.get_by_role("group", name="Challenger")
    challenger.get_by_label("Name", exact=True).fill("Kaspar")
    challenger.get_by_label("Duel stat", exact=True).fill("3")
    challenger.get_by_label("Resolve", exact=True).fill("6")
    challenger.get_by_label("Whose character?", exact=True).select_option(label="Ana")
    challenger.get_by_label("This is that player's Leader", exact=True).check()
    defender = form.get_by_role("group", name="Challenged character")
    defender.get_by_label("Name", exact=True).fill("Soline")
    defender.get_by_label("Resolve", exact=True).fill("5")
    defender.get_by_label("Whose character?", exact=True).select_option(label="Bo")
    form.get_by_role("button", name="Start the duel").click()
    expect(page.get_by_role("heading", name="Duel: Kaspar vs Soline")).to_be_visible()
    expect(page.locator(".fs-duellist.acting")).to_contain_text("Soline")
    check_page(page)

    rnd = page.locator("#duel-round")
    rnd.get_by_label("Riposte", exact=True).fill("1")
    rnd.get_by_label("Parry", exact=True).fill("1")
    rnd.get_by_label("Thrust", exact=True).fill("2")
    rnd.get_by_role("button", name="Preview").click()
    expect(page.locator(".fs-preview")).to_contain_text("Pools after: Kaspar 3, Soline 0.")
    check_page(page)
    page.locator("#duel-round").get_by_role("button", name="Play this card").click()
    expect(page.locator(".fs-duellist.acting")).to_contain_text("Kaspar")
    expect(page.locator(".fs-story")).to_contain_text("Soline takes 1 wounds.")
    check_page(page)
    page.locator("#duel-round").get_by_role("button", name="No card").click()
    expect(page.locator(".fs-verdict")).to_have_text("The duel is over: both threat pools are empty.")
    expect(page.locator(".fs-story")).to_contain_text("capped at 2 by Restricted Hostilities; 1 excess threat")
    check_page(page)
    page.get_by_role("button", name="Finish the duel").click()
    expect(page.get_by_role("heading", name="A new duel")).to_be_visible()
    check_page(page)

    page.get_by_role("link", name="Renown & Leaders").click()
    expect(page.locator("#wounds-1-wrap output")).to_have_text("2")
    check_page(page)
    page.get_by_role("link", name="Day", exact=True).click()
    expect(page.locator("#fs-step-h")).to_contain_text("Take actions in turn")

    # Plunder of Day 1: Bo collects 3 Renown; nobody reaches 7, the Day goes on.
    press_next_until(page, "Collect Renown")
    add_renown(page, "Bo", 3)
    expect(page.locator("#renown-2-wrap output")).to_have_text("3")
    check_page(page)
    press_next_until(page, "Check Economic Victory")
    expect(page.locator(".fs-verdict")).to_have_text("Nobody has 7 Renown yet.")
    press_next_until(page, "End of the Day")
    next_button(page).click()
    expect(page.locator(".fs-day")).to_contain_text("Day 2 of 5")
    check_page(page)

    # Day 2: Initiative again (a tie: the token passes left of Bo), then Bo reaches 7 Renown.
    press_next_until(page, "Determine Initiative")
    hand_out_first_player(page, {"Ana": 50, "Bo": 50, "Cy": 10})
    expect(page.locator(".fs-first")).to_contain_text("passes to the left, to Cy")
    check_page(page)
    press_next_until(page, "Collect Renown")
    add_renown(page, "Bo", 4)
    expect(page.locator("#renown-2-wrap output")).to_have_text("7")
    press_next_until(page, "Check Economic Victory")
    expect(page.locator(".fs-verdict")).to_have_text("Bo has 7 Renown: Economic Victory.")
    check_page(page)
    page.get_by_role("button", name="Declare the Economic Victory").click()
    expect(page.get_by_role("heading", name="Economic Victory: Bo wins")).to_be_visible()
    expect(page.locator(".table-meta .status")).to_have_text("finished")
    check_page(page)


def test_standalone_duel_calculator_with_preview_and_take_back(page):
    visit(page, "/fivesails/duel")
    form = page.locator("#calc-setup")
    challenger = form.get_by_role("group", name="Challenger")
    challenger.get_by_label("Name", exact=True).fill("Kaspar")
    challenger.get_by_label("Duel stat", exact=True).fill("1")
    challenger.get_by_label("Finesse", exact=True).fill("0")
    defender = form.get_by_role("group", name="Challenged character")
    defender.get_by_label("Name", exact=True).fill("Soline")
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
