"""Play history in a phone's browser: a 7 - The Sins table finished in a group, a rematch finished
again, the group opened on a second phone with both plays and the chart, and one play sent to BG Stats.
Runs at 390x844 and 360x640 with axe, 44 px tap targets and no sideways scroll on every page."""
from __future__ import annotations

import json
import re
from urllib.parse import parse_qs, urlsplit

from playwright.sync_api import expect

from bench.tapjobs.history import finish_sins_by_totals
from tests.e2e.checks import check_page, fill_new_table, visit

PLAYERS = ["Chiara", "Margherita", "Alberto", "Luca"]


def finish_quickly(page, totals: dict[str, int], abyss: int):
    """Score by totals only and record the result, checking each screen on the way."""
    finish_sins_by_totals(page, totals, abyss, after_each=check_page)


def test_a_group_plays_twice_and_a_second_phone_sees_both(make_phone):
    first = make_phone()
    page = first.page
    visit(page, "/")
    page.get_by_role("link", name="Start a group").click()
    check_page(page)
    page.get_by_label("Group name").fill("Friday crew")
    page.get_by_role("button", name="Start the group").click()
    expect(page.get_by_role("heading", name="Friday crew")).to_be_visible()
    check_page(page)
    view_link = page.get_by_label("View-only link").input_value()

    page.get_by_text("Start a table in this group").click()
    page.get_by_role("link", name="7 - The Sins").click()
    fill_new_table(page, PLAYERS, "Friday")
    expect(page.get_by_role("heading", name="Setup checklist")).to_be_visible()
    finish_quickly(page, {"Chiara": -8, "Margherita": 0, "Alberto": 1, "Luca": 8}, -1)
    share = page.get_by_label("Result for the group chat")
    expect(share).to_have_value(re.compile(r"Chiara wins with −8 \(fewest points win: the Abyss scored −1\)\. "
                                           r"Margherita 0, Alberto 1, Luca 8\.$"))

    # Rematch: one tap, the same players in the same seats, in the same group.
    first_url = page.url
    page.get_by_role("button", name="Rematch").click()
    expect(page.get_by_role("heading", name="Setup checklist")).to_be_visible()
    assert page.url != first_url
    check_page(page)
    finish_quickly(page, {"Chiara": 3, "Margherita": -2, "Alberto": 1, "Luca": 8}, 3)

    # A second phone opens the group's view-only link: both plays, the chart, no forms.
    second = make_phone()
    other = second.page
    visit(other, view_link)
    plays = other.locator(".play-item")
    expect(plays).to_have_count(2)
    expect(plays.first).to_contain_text("Margherita -2")
    expect(plays.nth(1)).to_contain_text("Chiara -8")
    expect(other.get_by_role("img", name="Wins per player")).to_be_visible()
    expect(other.get_by_role("img", name=re.compile(r"^Scores in the last 2 plays"))).to_be_visible()
    expect(other.get_by_role("button", name="Merge")).to_have_count(0)
    box = other.get_by_role("img", name="Wins per player").bounding_box()
    assert box["width"] >= 300  # readable on the narrowest phone
    check_page(other)

    # Head to head on the second phone.
    other.get_by_label("Player", exact=True).select_option("Chiara")
    other.get_by_label("against").select_option("Margherita")
    other.get_by_role("button", name="Compare").click()
    result = other.locator(".h2h-result")
    expect(result).to_contain_text("In 2 plays together:")
    expect(result.get_by_role("listitem")).to_have_text(["Chiara finished ahead 1 time", "Margherita finished ahead 1 time",
                                                          "level 0 times"])
    check_page(other)


def test_send_one_play_to_bgstats(make_phone):
    page = make_phone().page
    visit(page, "/new/sins")
    fill_new_table(page, PLAYERS, "BG Stats night")
    expect(page.get_by_role("heading", name="Setup checklist")).to_be_visible()
    finish_quickly(page, {"Chiara": -8, "Margherita": 0, "Alberto": 1, "Luca": 8}, -1)
    link = page.get_by_role("link", name="Send to BG Stats")
    href = link.get_attribute("href")
    parts = urlsplit(href)
    assert f"{parts.scheme}://{parts.netloc}{parts.path}" == "https://app.bgstatsapp.com/createPlay.html"
    data = json.loads(parse_qs(parts.query)["data"][0])
    assert data["sourceName"] == "Table Companion" and data["sourcePlayId"].startswith("tc-")
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", data["playDate"]) and data["durationMin"] >= 0
    assert data["game"] == {"name": "7 - The Sins", "sourceGameId": "tc-sins", "highestWins": False, "noPoints": False}
    assert [(p["name"], p["score"], p["winner"], p["rank"]) for p in data["players"]] == [
        ("Chiara", -8, True, 1), ("Margherita", 0, False, 2), ("Alberto", 1, False, 3), ("Luca", 8, False, 4)]
    assert all(isinstance(p["startPlayer"], bool) and p["sourcePlayerId"] for p in data["players"])
    # The tap opens BG Stats in a new tab; that site is not reachable here, so the tab is not loaded.
    page.context.route("https://app.bgstatsapp.com/**", lambda route: route.fulfill(status=200, body="ok"))
    with page.context.expect_page() as opened:
        link.click()
    assert opened.value.url == href
    # The same play exported again keeps its id.
    again = page.request.get(page.url.split("/t/")[0] + "/t/" + page.url.split("/t/")[1].split("/")[0] + "/bgstats.json")
    assert again.json()["sourcePlayId"] == data["sourcePlayId"]
