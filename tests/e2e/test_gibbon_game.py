"""A whole Sinful Gibbon game on a phone: four players, three rounds to 1000, a correction, the result."""
from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.e2e.checks import check_page, fill_new_table, visit

LOW, HIGH, CHEATS = "Low cards face up (2–10)", "High cards face up (J, Q, K, A, joker)", "Cheats (sideways piles)"
HEARTS, ACCEPTED = "Hearts face up (joker too)", "Accepted hearts (face down)"
DOUBTS, FATTEST = "Wrongful doubts (straight piles)", "Fattest pile (face-down cards)"
BRAVEHEART = "Braveheart: who got rid of every hand card?"
HAT = "Who wears the Heartless Monkey Hat now?"


def player(page, name):
    return page.get_by_role("group", name=name, exact=True)


def enter(page, counts: dict[str, dict[str, int]], braveheart="Nobody", hat="Nobody"):
    """Type each player's counts into the round form, and pick the Braveheart and the hat."""
    for name, values in counts.items():
        group = player(page, name)
        for label, value in values.items():
            group.get_by_label(label, exact=True).fill(str(value))
    page.get_by_role("group", name=BRAVEHEART).get_by_role("radio", name=braveheart, exact=True).check()
    page.get_by_role("group", name=HAT).get_by_role("radio", name=hat, exact=True).check()


def live_text(page) -> str:
    return re.sub(r"\s+", " ", page.locator("#live").inner_text())


def test_a_four_player_game_to_1000_with_a_corrected_round(page):
    # A new table with four players.
    visit(page, "/new/gibbon")
    fill_new_table(page, ["Ana", "Bo", "Cy", "Di"], "Friday gibbons")
    expect(page.get_by_role("heading", name="Before the first round")).to_be_visible()
    check_page(page)

    # Setup: tick a step, choose the dealer and the bookkeeper, start.
    deck = page.get_by_role("button", name="A deck of 52 cards and one joker, shuffled", exact=True)
    deck.click()
    expect(deck).to_have_attribute("aria-pressed", "true")
    dealer = page.get_by_role("group", name="Deals the first round")
    dealer.get_by_role("radio", name="Ana", exact=True).check()
    page.get_by_role("group", name="Keeps the books in the first round").get_by_role("radio", name="Bo").check()
    page.get_by_role("button", name="Start the game").click()
    expect(page.get_by_text("Ana deals the first round and Bo keeps the books; Bo starts.")).to_be_visible()
    check_page(page)

    # Round 1: the rulebook's counting-table example, with one slip corrected on the way.
    page.get_by_role("link", name="Go to round 1").click()
    expect(page.get_by_role("heading", name="Round 1", exact=True)).to_be_visible()
    check_page(page)
    ana = player(page, "Ana")
    for _ in range(5):
        ana.get_by_role("button", name=f"One more: {LOW}").click()
    expect(ana.get_by_label(LOW, exact=True)).to_have_value("5")
    enter(page, {
        "Ana": {HIGH: 1, CHEATS: 2, HEARTS: 1, DOUBTS: 3, FATTEST: 2},
        "Bo": {LOW: 4, HEARTS: 1, ACCEPTED: 1, DOUBTS: 1, FATTEST: 4},
        "Cy": {LOW: 3, HIGH: 1, CHEATS: 1, HEARTS: 2, ACCEPTED: 1, DOUBTS: 2, FATTEST: 4},
        "Di": {LOW: 1, HEARTS: 3, ACCEPTED: 2},  # a slip: Di shows only one face-up card
    }, braveheart="Bo", hat="Cy")
    page.get_by_role("button", name="Count round 1").click()
    di_hearts = player(page, "Di").get_by_label(HEARTS, exact=True)
    expect(di_hearts).to_have_attribute("aria-invalid", "true")
    expect(page.get_by_text("Di shows 3 hearts face up but only 1 face-up cards").first).to_be_visible()
    expect(player(page, "Ana").get_by_label(LOW, exact=True)).to_have_value("5")  # nothing typed is lost
    check_page(page)
    di_hearts.fill("1")
    page.get_by_role("button", name="Count round 1").click()
    expect(page.get_by_role("heading", name="Round 1 counted")).to_be_visible()
    table = page.locator("table.gb-counting")
    expect(table.locator("tfoot tr").first.get_by_role("cell")).to_have_text(["220", "90", "230", "30"])
    expect(table.get_by_text("Braveheart", exact=True)).to_have_count(2)
    check_page(page)

    # The Braveheart (Bo) chooses to swap with Di: the seats and the next jobs follow.
    expect(page.get_by_text("Bo was the Braveheart and chooses whom to swap places with.")).to_be_visible()
    page.get_by_role("group", name="Swaps places with").get_by_role("radio", name="Di").check()
    page.get_by_role("button", name="Record the swap").click()
    expect(page.get_by_role("heading", name="Round 2", exact=True)).to_be_visible()
    expect(page.locator(".gb-seats")).to_contain_text("Ana → Di → Cy → Bo")
    jobs = page.locator(".gb-jobs")
    expect(jobs.locator("dd").nth(0)).to_have_text("Di")  # the dealer's job moved to seat 2, now Di's
    expect(jobs.locator("dd").nth(1)).to_have_text("Cy")  # the books moved to seat 3
    expect(jobs.locator("dd").nth(2)).to_contain_text("Bo")  # last round's Braveheart starts
    check_page(page)

    # Round 2: Ana sins heavily.
    enter(page, {"Ana": {LOW: 20, HIGH: 10, CHEATS: 5, HEARTS: 5}})
    page.get_by_role("button", name="Count round 2").click()
    expect(page.get_by_role("heading", name="Round 2 counted")).to_be_visible()
    check_page(page)
    # No Braveheart: the player who laid the last undoubted card chooses; nobody moves.
    page.get_by_role("group", name=re.compile("who played the last card")).get_by_role("radio", name="Cy").check()
    page.get_by_role("group", name="Swaps places with").get_by_role("radio", name="Nobody: keep the seats").check()
    page.get_by_role("button", name="Record the swap").click()
    expect(page.get_by_role("heading", name="Round 3", exact=True)).to_be_visible()
    check_page(page)

    # Round 3: Ana reaches exactly 1000 and Cy passes it: the game is over.
    enter(page, {"Ana": {LOW: 10, HIGH: 2, CHEATS: 2}, "Cy": {LOW: 20, HIGH: 13, CHEATS: 6, HEARTS: 10}})
    page.get_by_role("button", name="Count round 3").click()
    expect(page.get_by_role("heading", name="Game over")).to_be_visible()
    expect(page.locator(".gb-winner")).to_have_text("Winner with the fewest points: Di (30)")
    expect(page.locator(".gb-losers")).to_have_text("Going to Hell with 1000 or more: Ana (1000), Cy (1010)")
    expect(page.locator(".table-meta")).to_contain_text("finished")
    check_page(page)

    # The counting table: standings, the chart, every round.
    page.get_by_role("link", name="Counting table and chart").click()
    expect(page.get_by_role("img", name="Running totals after each round")).to_be_visible()
    check_page(page)

    # Correct round 1: Di had more low cards. Everything after it is recomputed; Bo now wins.
    page.get_by_role("navigation", name="Choose a round").get_by_role("link", name="Round 1").click()
    expect(page.get_by_role("heading", name="Round 1", exact=True)).to_be_visible()
    page.get_by_text("Edit round 1").click()
    check_page(page)
    form = page.locator("#round-edit")
    form.get_by_role("group", name="Di", exact=True).get_by_label(LOW, exact=True).fill("8")
    form.get_by_role("button", name="Save round 1").click()
    totals = page.locator("table.gb-counting tfoot tr").first.get_by_role("cell")
    expect(totals).to_have_text(["220", "90", "230", "100"])
    expect(page.locator(".gb-winner")).to_have_text("Winner with the fewest points: Bo (90)")
    expect(page.locator(".gb-losers")).to_have_text("Going to Hell with 1000 or more: Ana (1000), Cy (1010)")
    expect(page.locator(".gb-history")).to_contain_text("1010")
    check_page(page)

    # The home page lists the finished table with its winner.
    visit(page, "/")
    expect(page.get_by_text("Winner: Bo")).to_be_visible()
