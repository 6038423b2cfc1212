"""The Others: 7 Sins at a real table, in Chromium at both phone sizes with axe: a 4-hero game through
several rounds with the turn guidance, a Ranged fight, two deaths with one hero in the Reserve ending in
the Sins win, and a hero's dashboard that fits one screen."""
from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.e2e.checks import check_page
from tests.e2e.test_others_e2e import create_table, dashboard, logged, tab, turn_row, wound

PLAYERS = ["Sam", "Ana", "Bo", "Cy", "Di"]  # Sam plays the Sin; four hero players, one hero each
ORDER = ["Leader", "Sniper 1", "Bruiser 1", "Fixer 1"]


def started(page, story_type="Terror"):
    create_table(page, PLAYERS, table_name="Haven")
    page.get_by_label("Story", exact=True).fill("Haven's Last Stand")
    page.get_by_label(story_type, exact=True).check()
    page.locator("#story").get_by_role("button", name="Save").click()
    logged(page, f"Story: Haven's Last Stand ({story_type})")
    page.get_by_role("button", name="Start round 1").click()
    expect(page.get_by_role("heading", name="Round 1 · Hero turns")).to_be_visible()


def strip(page):
    return page.get_by_role("navigation", name="Heroes in play")


def test_four_heroes_through_three_rounds_with_the_turn_guidance(make_phone):
    page = make_phone().page
    started(page)
    check_page(page)
    for rnd in (1, 2, 3):
        for i, hero in enumerate(ORDER * 2):
            expect(turn_row(page, hero)).to_have_class(re.compile(r"\bnext\b"))
            page.get_by_role("button", name=f"Take this turn: {hero}").click()
            logged(page, f"{hero} spent a Turn token")
            if i == rnd - 1:
                page.get_by_role("button", name=f"Sins player reacts to {hero}", exact=True).click()
                logged(page, f"The Sins player reacts to {hero}")
                # A second tap changes nothing and says why.
                expect(page.get_by_text(f"already reacted to this turn of {hero}")).to_be_visible()
                page.get_by_role("button", name=f"Sins player reacts to {hero}", exact=True).click()
                expect(page.locator("#react .form-error")).to_contain_text("one reaction per hero turn")
                expect(page.get_by_role("img", name="Reaction tokens: 3 active of 4")).to_be_visible()
                check_page(page)
        expect(page.get_by_text("Every Turn token is spent.")).to_be_visible()
        expect(page.get_by_text("Marked tokens off the Acolyte board")).to_be_visible()
        page.get_by_role("button", name="One more: Apocalypse level").click()
        expect(page.locator("#apo-round-wrap output")).to_have_text(str(rnd))
        check_page(page)
        page.get_by_role("button", name=f"Reset tokens and start round {rnd + 1}").click()
        expect(page.get_by_role("heading", name=f"Round {rnd + 1} · Hero turns")).to_be_visible()
    # Out of order is there, behind the secondary control.
    page.locator("summary", has_text="Out of order, Extra Turns, corrections").click()
    page.locator(".ooo-row").filter(has_text="Bruiser 1").get_by_role("button", name="Take a turn out of order").click()
    logged(page, "Bruiser 1 spent a Turn token")
    expect(turn_row(page, "Fixer 1")).to_have_class(re.compile(r"\bnext\b"))
    check_page(page)


def test_a_ranged_fight(make_phone):
    page = make_phone().page
    started(page)
    tab(page, "Fight")
    expect(page.get_by_text("No Acolyte ability.")).to_be_visible()
    page.get_by_role("button", name="Ranged Fight: Sniper 1").click()
    expect(page.get_by_role("heading", name="Sniper 1: Ranged Fight")).to_be_visible()
    check_page(page)
    prep = page.locator("#prep")
    prep.get_by_role("spinbutton", name="Fight", exact=True).fill("2")
    prep.get_by_role("spinbutton", name="Base Defense").fill("2")
    prep.get_by_role("spinbutton", name="Extra Hits (ability, upgrades)").fill("2")
    prep.get_by_role("spinbutton", name="Fight stats of the monsters, added up").fill("5")
    prep.get_by_role("button", name="Count the dice").click()
    expect(page.locator(".dice-summary")).to_contain_text("2 Hero dice")
    roll = page.locator("#roll")
    roll.get_by_role("spinbutton", name="Hits").first.fill("1")
    roll.get_by_role("spinbutton", name="Defense").first.fill("1")
    roll.locator("[name=sin_hits]").fill("3")
    roll.locator("[name=sin_corruption]").fill("1")
    roll.get_by_role("button", name="Work it out").click()
    expect(page.get_by_text("3 Hits to share among the monsters")).to_be_visible()
    check_page(page)
    page.get_by_role("button", name="Apply to Sniper 1").click()
    logged(page, "Sniper 1: 0 wound(s) and 1 Corruption applied")
    check_page(page)


def kill_from_dashboard(page, hero):
    strip(page).get_by_role("link", name=re.compile(hero)).click()
    expect(dashboard(page, hero)).to_be_visible()
    for taken in range(1, 6):
        wound(page, hero)
        if taken < 5:  # the strip shows the count once the answer is in, so the next tap sees the new card
            expect(strip(page).get_by_role("link", name=re.compile(f"{hero} .*{taken}.5 wounds"))).to_be_visible()


def test_two_deaths_with_one_hero_in_the_reserve_end_in_the_sins_win(make_phone):
    page = make_phone().page
    started(page)
    tab(page, "Heroes")
    for hero in ("Leader", "Sniper 1"):
        kill_from_dashboard(page, hero)
        expect(page.get_by_role("heading", name=f"{hero} died")).to_be_visible()
        page.locator(".replace .choice-option").first.locator("input").check()
        page.get_by_role("button", name="Bring in the replacement").click()
        logged(page, re.compile(f"comes in for {hero}"))
    expect(page.locator("#reserve-h")).to_have_text("Hero Reserve (1)")
    check_page(page)
    kill_from_dashboard(page, "Bruiser 1")
    expect(page.get_by_role("heading", name="Bruiser 1 died")).to_be_visible()
    check_page(page)
    kill_from_dashboard(page, "Fixer 1")
    expect(page.get_by_role("heading", name="Sam, the Sins player, wins!")).to_be_visible()
    expect(page.get_by_text("nobody left there for them, the Sins player wins")).to_be_visible()
    expect(page.get_by_role("button", name="Bring in the replacement")).to_have_count(0)
    expect(page.get_by_text("Bruiser 1 died", exact=True)).to_have_count(0)
    check_page(page)


def test_a_heros_dashboard_fits_one_screen(make_phone):
    phone = make_phone()
    page = phone.page
    started(page, "Corruption")
    strip(page).get_by_role("link", name=re.compile("Sniper 1")).click()
    card = dashboard(page, "Sniper 1")
    expect(card).to_be_visible()
    expect(page.locator("section.dashboard")).to_have_count(1)
    card.get_by_role("button", name="Wound on slot 1").click()
    expect(strip(page).get_by_role("link", name=re.compile("Sniper 1"))).to_contain_text("1/5")
    # The wound section stays open: the next wound is a choice of slot and one button.
    expect(card.get_by_role("button", name="Take a wound", exact=True)).to_be_visible()
    expect(card.get_by_role("button", name="Heal slot 1")).to_be_visible()
    check_page(page)
    viewport = page.viewport_size
    if viewport["height"] >= 844:
        bottom = card.evaluate("el => el.getBoundingClientRect().bottom + window.scrollY")
        assert bottom <= viewport["height"], f"the dashboard ends at {bottom}px"
