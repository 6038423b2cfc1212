"""Five Sails (issue 36): a Leader's fall that decides the game closes the duel in the same tap. Two
players, both Leaders at Combat 3 and Resolve 2: Bo's Leader sends 1 by Riposte and 1 by Thrust and
takes the 2 left (2 of Resolve 2: destroyed, rulebook p. 6); Ana is the only player with a Leader in play
(Assassination Victory, p. 2). The page says so, offers no round 2, and marks nobody as to play."""
from __future__ import annotations

from playwright.sync_api import expect
from tests.e2e.checks import check_page, fill_new_table, visit


def test_a_deciding_fall_closes_the_duel_and_the_page_says_the_game_is_decided(page):
    visit(page, "/new/fivesails")
    fill_new_table(page, ["Ana", "Bo"])
    page.get_by_role("button", name="Start Day 1").click()
    expect(page.get_by_role("heading", name="Dawn", exact=True)).to_be_visible()
    page.goto(page.url.split("/t/")[0] + "/t/" + page.url.split("/t/")[1].split("/")[0] + "/duel")
    form = page.locator("#duel-setup")
    ch = form.get_by_role("group", name="Challenger")
    ch.locator("label.fs-chip", has_text="Ana's Leader").click()
    ch.get_by_label("Duel stat", exact=True).fill("3"); ch.get_by_label("Resolve", exact=True).fill("2")
    de = form.get_by_role("group", name="Challenged character")
    de.locator("label.fs-chip", has_text="Bo's Leader").click()
    de.get_by_label("Duel stat", exact=True).fill("3"); de.get_by_label("Resolve", exact=True).fill("2")
    form.get_by_role("button", name="Start the duel").click()
    rnd = page.locator("#duel-round")
    rnd.get_by_label("Riposte", exact=True).fill("1"); rnd.get_by_label("Thrust", exact=True).fill("1")
    rnd.get_by_role("button", name="Play this card").click()
    expect(page.get_by_text("The game is decided").first).to_be_visible()
    expect(page.get_by_role("heading", name="Assassination Victory: Ana wins")).to_be_visible()
    expect(page.get_by_role("heading", name="Round 2")).to_have_count(0)
    expect(page.locator(".fs-duellist.acting")).to_have_count(0)
    expect(page.locator(".fs-duellist.gone")).to_contain_text("destroyed")
    check_page(page)
