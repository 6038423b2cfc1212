"""A whole Sinful Gibbon game on a phone: seven players, five rounds to 1000, each round entered with
the chips and boxes of the round form, its live preview checked before saving, the running totals
and the one-tap seat swap after it, a slip answered next to its box, then a corrected round.
Runs at 390x844 and 360x640, with axe and the 44 px tap targets on every page state."""
from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.e2e.checks import check_page, fill_new_table, visit

LOW, HIGH, CHEATS = "Low cards face up (2–10)", "High cards face up (J, Q, K, A, joker)", "Cheats (sideways piles)"
HEARTS, ACCEPTED = "Hearts face up (joker too)", "Accepted hearts (face down)"
DOUBTS, FATTEST = "Wrongful doubts (straight piles)", "Fattest pile (face-down cards)"
BRAVEHEART = "Braveheart: who got rid of every hand card?"
HAT = "Who wears the Heartless Monkey Hat now?"
PLAYERS = ["Ana", "Bo", "Cy", "Di", "Eve", "Fay", "Gus"]


def layer(page, count):
    return page.locator("#round-new").get_by_role("group", name=count, exact=True)


def enter(page, counts: dict[str, dict[str, int]], braveheart=None, hat=None):
    """Counts as a bookkeeper enters them, layer by layer: a chip for 1-4, the box for more."""
    by_layer: dict[str, dict[str, int]] = {}
    for name, values in counts.items():
        for count, n in values.items():
            by_layer.setdefault(count, {})[name] = n
    for count, values in by_layer.items():
        group = layer(page, count)
        for name, n in values.items():
            if n <= 4:
                group.get_by_role("group", name=f"Quick values: {name}").get_by_role("radio", name=str(n), exact=True).click()
            else:
                group.get_by_label(name, exact=True).fill(str(n))
            expect(group.get_by_label(name, exact=True)).to_have_value(str(n))
    for legend, who in ((BRAVEHEART, braveheart), (HAT, hat)):
        if who:
            page.get_by_role("group", name=legend).get_by_text(who, exact=True).click()


def preview_totals(page):
    return page.locator("#gb-pv tbody td:nth-last-child(2) .pgrid-v")


def swap(page, partner, chooser=None):
    box = page.locator("#gb-swap")
    if chooser:
        box.get_by_role("group", name=re.compile("who played the last card")).get_by_text(chooser, exact=True).click()
    box.get_by_role("button", name=partner, exact=True).click()


def test_a_seven_player_game_of_five_rounds_to_1000(page):
    visit(page, "/new/gibbon")
    fill_new_table(page, PLAYERS, "Big table")
    expect(page.get_by_role("heading", name="Before the first round")).to_be_visible()
    expect(page.get_by_text("3 hand cards each", exact=False)).to_be_visible()
    expect(page.get_by_text("the rulebook recommends dealing 3 hand cards", exact=False)).to_be_visible()
    page.get_by_role("group", name="Deals the first round").get_by_text("Ana", exact=True).click()
    page.get_by_role("button", name="Start the game").click()
    expect(page.get_by_text("Ana deals the first round and Ana keeps the books; Bo starts.")).to_be_visible()
    check_page(page)
    page.get_by_role("link", name="Go to round 1").click()
    expect(page.get_by_role("heading", name="Round 1", exact=True)).to_be_visible()
    expect(page.locator(".gb-jobs")).to_contain_text("recommended with 6 or 7 players")
    check_page(page)

    # Round 1: Bo went out, Cy was caught cheating on a heart; a slip first (Cy's hearts).
    enter(page, {"Ana": {LOW: 10, HIGH: 5, DOUBTS: 1, FATTEST: 2}, "Bo": {LOW: 1},
                 "Cy": {LOW: 2, HEARTS: 3}}, braveheart="Bo", hat="Cy")
    expect(page.locator("#gb-pv")).to_have_count(0)
    expect(page.get_by_text("Cy shows more hearts face up (3) than face-up cards (2)").first).to_be_visible()
    check_page(page)
    page.get_by_role("button", name="Count round 1").click()
    hearts = layer(page, HEARTS).get_by_label("Cy", exact=True)
    expect(hearts).to_have_attribute("aria-invalid", "true")
    expect(layer(page, LOW).get_by_label("Ana", exact=True)).to_have_value("10")  # nothing typed is lost
    check_page(page)
    layer(page, HEARTS).get_by_role("group", name="Quick values: Cy").get_by_role("radio", name="1", exact=True).click()
    # The preview shows the round as it will be counted, before saving.
    expect(preview_totals(page)).to_have_text(["300", "10", "90", "0", "0", "0", "0"])
    expect(page.locator("#gb-pv")).to_contain_text("Braveheart")
    check_page(page)
    page.get_by_role("button", name="Count round 1").click()
    expect(page.get_by_role("heading", name="Round 1 counted")).to_be_visible()
    totals = page.locator(".gb-totals")
    expect(totals).to_contain_text("Ana")
    expect(totals.locator("li").last).to_contain_text("Ana 300")
    expect(totals.locator("li").last).to_contain_text("700 to go")
    expect(page.get_by_text("Bo was the Braveheart and chooses whom to swap places with.")).to_be_visible()
    check_page(page)
    swap(page, "Gus")
    expect(page.get_by_role("heading", name="Round 2", exact=True)).to_be_visible()
    expect(page.locator(".gb-seats")).to_contain_text("Ana → Gus → Cy → Di → Eve → Fay → Bo")
    expect(page.locator(".gb-totals").locator("li").last).to_contain_text("700 to go")
    check_page(page)

    # Rounds 2 to 4: Ana keeps sinning, 200 a round; no Braveheart, so who played last chooses.
    for n, chooser, partner in ((2, "Di", "Eve"), (3, "Eve", "Fay"), (4, "Fay", "Di")):
        enter(page, {"Ana": {LOW: 10, HIGH: 5}})
        expect(preview_totals(page).first).to_have_text("200")
        page.get_by_role("button", name=f"Count round {n}").click()
        expect(page.get_by_role("heading", name=f"Round {n} counted")).to_be_visible()
        expect(page.locator(".gb-totals li").last).to_contain_text(f"{1000 - 300 - 200 * (n - 1)} to go")
        check_page(page)
        swap(page, partner, chooser=chooser)
        expect(page.get_by_role("heading", name=f"Round {n + 1}", exact=True)).to_be_visible()
        check_page(page)

    # Round 5: Ana reaches 1100; the preview says so before it is saved.
    enter(page, {"Ana": {LOW: 10, HIGH: 5}})
    expect(page.locator("#round-new-preview")).to_contain_text("This round ends the game.")
    check_page(page)
    page.get_by_role("button", name="Count round 5").click()
    expect(page.get_by_role("heading", name="Game over")).to_be_visible()
    expect(page.locator(".gb-losers")).to_have_text("Going to Hell with 1000 or more: Ana (1100)")
    expect(page.locator(".gb-winner")).to_contain_text("Di (0)")
    expect(page.locator(".table-meta")).to_contain_text("finished")
    check_page(page)

    # The counting table: correct round 1 (Bo had a second low card); the totals follow.
    page.get_by_role("link", name="Counting table and chart").click()
    expect(page.get_by_role("img", name="Running totals after each round")).to_be_visible()
    check_page(page)
    page.get_by_role("navigation", name="Choose a round").get_by_role("link", name="Round 1").click()
    page.get_by_text("Edit round 1").click()
    form = page.locator("#round-edit")
    form.get_by_role("group", name=LOW, exact=True).get_by_role("group", name="Quick values: Bo").get_by_role(
        "radio", name="2", exact=True).click()
    check_page(page)
    form.get_by_role("button", name="Save round 1").click()
    # The shared player grid: the round's total is the next-to-last value of each player's row.
    expect(page.locator(".gb-counting tbody td:nth-last-child(2) .pgrid-v")).to_have_text(
        ["300", "20", "90", "0", "0", "0", "0"])
    check_page(page)
    visit(page, "/")
    expect(page.get_by_text("Winners:", exact=False).first).to_be_visible()
