"""After a City of Five Sails game, on a phone (issue 29): who played which faction and Leader, and
a note, set in one screen on the finished table; then the group's page shows the win rate per
faction and per Leader. Runs at 390x844 and 360x640 with axe, 44 px tap targets and no sideways
scroll on every page state."""
from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.e2e.checks import check_page, fill_new_table, visit


def new_group(page, name: str) -> str:
    visit(page, "/")
    page.get_by_role("link", name="Start a group").click()
    page.get_by_label("Group name").fill(name)
    page.get_by_role("button", name="Start the group").click()
    expect(page.get_by_role("heading", name=name)).to_be_visible()
    check_page(page)
    return page.url


def finish_by_assassination(page):
    """Two players: Ana's Leader is destroyed, so Bo is the only one with a Leader in play and wins."""
    version = page.locator("#live").get_attribute("data-version")
    page.get_by_role("button", name="Start Day 1").click()
    expect(page.locator("#live")).not_to_have_attribute("data-version", version)  # Day 1 began
    page.get_by_role("link", name="Renown & Leaders").click()
    page.get_by_text("Ana's Leader is destroyed…").click()
    page.get_by_role("button", name="Yes: destroy Ana's Leader").click()
    expect(page.get_by_role("heading", name="After the game")).to_be_visible()


def test_roles_and_a_note_on_a_finished_five_sails_table_then_the_per_faction_stats(make_phone):
    page = make_phone().page
    group_url = new_group(page, "Five Sails club")
    page.get_by_text("Start a table in this group").click()
    page.get_by_role("link", name="7th Sea: City of Five Sails").click()
    fill_new_table(page, ["Ana", "Bo"], "Docks night")
    finish_by_assassination(page)
    check_page(page)

    # One screen: each player's faction (suggested from the rulebook's five) and Leader, and a note.
    form = page.locator("#play-details")
    expect(form.get_by_role("heading", name="Who played what")).to_be_visible()
    ana = form.get_by_role("group", name="Ana")
    bo = form.get_by_role("group", name="Bo")
    ana.get_by_label("Faction").fill("Eisen")
    ana.get_by_label("Leader").fill("Kaspar Dietrich")
    bo.get_by_label("Faction").fill("Castille")
    bo.get_by_label("Leader").fill("Soline el Gato")
    form.get_by_label("Note on the play").fill("Soline never left the Docks.")
    check_page(page)
    version = page.locator("#live").get_attribute("data-version")
    form.get_by_role("button", name="Save").click()
    expect(page.locator("#live")).not_to_have_attribute("data-version", version)
    expect(page.locator(".log")).to_contain_text("Who played what and the note on the play were saved")
    expect(page.locator("#play-details").get_by_role("group", name="Bo").get_by_label("Faction")).to_have_value("Castille")
    check_page(page)

    # BG Stats gets the roles and the note.
    link = page.get_by_role("link", name="Send to BG Stats").get_attribute("href")
    assert "Eisen%20%2F%20Kaspar%20Dietrich" in link and "Soline%20never%20left%20the%20Docks." in link

    # The group's page, this game only: the win rate per faction and per Leader.
    visit(page, group_url + "?game=fivesails")
    stats = page.locator(".group-stats")
    expect(stats.get_by_role("heading", name="Win rate by faction")).to_be_visible()
    factions = stats.locator(".role-list").first
    expect(factions.locator("li").first).to_contain_text(re.compile(r"Castille\s*1 play · 1 win \(100%\)"))
    expect(factions.locator("li").nth(1)).to_contain_text(re.compile(r"Eisen\s*1 play · 0 wins \(0%\)"))
    expect(stats.get_by_role("heading", name="Win rate by Leader")).to_be_visible()
    expect(page.locator(".play-item")).to_contain_text("Soline never left the Docks.")
    expect(page.locator(".play-item")).to_contain_text("(Castille / Soline el Gato)")
