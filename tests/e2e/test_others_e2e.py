"""The Others: 7 Sins in a real browser at both phone sizes: a 3-player Corruption story from setup to a
dead hero's replacement, and the fight helper from the dice count to the wounds applied."""
from __future__ import annotations

import re
import uuid

from playwright.sync_api import expect

from tests.e2e.checks import check_page, fill_new_table, visit

TEAM = {"Leader": "Karl", "Sniper 1": "Rocco", "Sniper 2": "Brad", "Bruiser 1": "Thorley", "Bruiser 2": "Morgana",
        "Fixer 1": "Rose", "Fixer 2": "Leah"}


def create_table(page, names, table_name="Haven night"):
    visit(page, "/")
    page.get_by_role("link", name=re.compile("The Others: 7 Sins")).click()
    fill_new_table(page, names, table_name)
    expect(page.get_by_role("heading", name="1. Roles")).to_be_visible()
    check_page(page)


def logged(page, text):
    expect(page.locator(".log-list li").first).to_have_text(text)


def levels_shown(card, corruption, wounds):
    """The dashboard's big numbers: Corruption level, then wounds."""
    expect(card.locator(".corruption-line .big-number")).to_have_text([str(corruption), str(wounds)])


def tab(page, name):
    page.get_by_role("navigation", name="Table pages").get_by_role("link", name=name, exact=True).click()


def turn_row(page, hero):
    return page.locator(".turn-row").filter(has=page.locator(".hero-name", has_text=hero))


def dashboard(page, hero):
    return page.locator("section.dashboard").filter(has=page.get_by_role("heading", name=hero, exact=True))


def take_turn(page, hero):
    """The hero whose turn is next, with the main button the round page offers for them."""
    row = turn_row(page, hero)
    before = row.locator(".pip.spent").count()
    page.get_by_role("button", name=f"Take this turn: {hero}").click()
    expect(row.locator(".pip.spent")).to_have_count(before + 1)


def react(page, hero):
    page.get_by_role("button", name=f"Sins player reacts to {hero}").click()
    logged(page, f"The Sins player reacts to {hero}")


def wound(page, hero):
    """One wound: one tap when the rule decides the slot (level 1 free, or one slot left), else the
    suggested slot and Take a wound."""
    card = dashboard(page, hero)
    decided = card.get_by_role("button", name=re.compile(r"^Wound on slot \d$"))
    if decided.count():
        decided.click()
    else:
        card.get_by_role("button", name="Take a wound", exact=True).click()


def test_a_corruption_story_over_two_rounds_with_a_death(make_phone):
    page = make_phone().page
    create_table(page, ["Sam", "Ana", "Bo"])

    # -- setup: roles, Sin, a Corruption story and the team of seven -----------------------------
    expect(page.get_by_text("2 hero players: 4 heroes in play, 2 each.")).to_be_visible()
    page.get_by_label("Sin", exact=True).select_option("Pride")
    page.get_by_role("textbox", name="Acolytes").fill("Corrupted Nuns")
    page.locator("#sin").get_by_role("button", name="Save").click()
    logged(page, "Sin: Pride; Acolytes: Corrupted Nuns")
    page.get_by_label("Story", exact=True).fill("Haven Burns Within")
    page.get_by_label("Corruption", exact=True).check()
    page.locator("#story").get_by_role("button", name="Save").click()
    logged(page, "Story: Haven Burns Within (Corruption)")
    check_page(page)
    for slot, name in TEAM.items():
        page.get_by_label(f"Name of {slot}").fill(name)
    page.get_by_role("button", name="Save the team").click()
    logged(page, "The team of heroes is set")
    expect(page.get_by_text("Cards 1, 3, 5, 6 to the starting heroes")).to_be_visible()
    page.get_by_role("button", name=re.compile("Dark Past cards dealt face down")).click()
    expect(page.locator("#setup-dark-past-item")).to_have_class(re.compile("done"))
    check_page(page)

    # -- the Apocalypse track, marked once and saved for the next table ----------------------------
    tab(page, "Apocalypse")
    expect(page.get_by_text("The track is not marked yet")).to_be_visible()
    check_page(page)
    levels = page.locator("fieldset.track-level")
    for level in (2, 4, 6):
        levels.nth(level - 1).get_by_label("Shows an Apocalypse card").check()
    levels.nth(0).get_by_label("Effect as printed").fill("Monsters roll +1 die near Altars")
    levels.nth(2).get_by_label("Extra Reaction tokens").select_option("1")
    page.get_by_role("button", name="Save the track").click()
    expect(page.get_by_text("Monsters roll +1 die near Altars")).to_be_visible()
    preset = f"Core track {uuid.uuid4().hex[:6]}"
    page.get_by_label("Save it for your next tables as").fill(preset)
    page.locator("#save-preset").get_by_role("button", name="Save").click()
    expect(page.get_by_text(f"This track is the saved track “{preset}”.")).to_be_visible()
    check_page(page)

    tab(page, "Setup")
    page.get_by_role("button", name="Start round 1").click()
    expect(page.get_by_role("heading", name="Round 1 · Hero turns")).to_be_visible()
    expect(page).to_have_url(re.compile(r"/round$"))
    check_page(page)

    # -- round 1: turns clockwise from Thorley, two reactions --------------------------------------
    page.get_by_role("group", name="First hero this round").get_by_role("button", name="Thorley").click()
    order = ["Thorley", "Rocco", "Rose", "Karl"]
    expect(page.locator(".turn-row .hero-name")).to_have_text(order)
    page.get_by_role("button", name=re.compile("Beginning of Round story tasks")).click()
    take_turn(page, "Thorley")
    react(page, "Thorley")
    check_page(page)
    for hero in order[1:]:
        take_turn(page, hero)
    react(page, "Karl")
    for hero in order:
        take_turn(page, hero)
    expect(page.get_by_role("img", name="Reaction tokens: 2 active of 4")).to_be_visible()
    page.get_by_role("button", name=re.compile("Summon up to 4 dead monsters")).click()
    page.get_by_role("button", name="One more: Altars with no hero in their space").click()
    expect(page.get_by_role("button", name=re.compile("Sins player draws 1 extra Sin card"))).to_be_visible()
    check_page(page)
    page.get_by_role("button", name="Reset tokens and start round 2").click()
    expect(page.get_by_role("heading", name="Round 2 · Hero turns")).to_be_visible()
    expect(page.get_by_role("img", name="Reaction tokens: 4 active of 4")).to_be_visible()
    expect(turn_row(page, "Rose").get_by_role("img", name="Turn tokens: 2 active of 2")).to_be_visible()
    check_page(page)

    # -- the Apocalypse rises past a card level ----------------------------------------------------
    tab(page, "Apocalypse")
    raise_level = page.get_by_role("button", name="One more: Apocalypse level")
    level = page.locator("#apo-wrap output")
    raise_level.click()
    expect(level).to_have_text("1/7")
    raise_level.click()
    expect(level).to_have_text("2/7")
    expect(page.get_by_role("heading", name="Level 2: reveal an Apocalypse card")).to_be_visible()
    check_page(page)
    page.get_by_label("Card (optional)").fill("Blood Moon")
    page.get_by_role("button", name="Note the card").click()
    expect(page.get_by_text("Level 2: Blood Moon", exact=True)).to_be_visible()
    raise_level.click()
    expect(level).to_have_text("3/7")
    expect(page.locator(".apo-level.active")).to_have_count(3)
    check_page(page)
    tab(page, "Round")
    expect(page.get_by_role("img", name="Reaction tokens: 5 active of 5")).to_be_visible()
    expect(page.get_by_text("Includes 1 from the Apocalypse track.")).to_be_visible()

    # -- round 2: turns, Voluntary and Forced Corruption, a death and a replacement ----------------
    take_turn(page, "Karl")
    react(page, "Karl")
    take_turn(page, "Thorley")
    tab(page, "Heroes")
    rose = dashboard(page, "Rose")
    voluntary = rose.get_by_role("button", name=re.compile("Voluntary Corruption → 2"))
    expect(voluntary).to_contain_text("This roll gets: +1 die")
    check_page(page)
    voluntary.click()
    expect(rose.locator(".roll-bonus")).to_contain_text("This roll: +1 die")
    check_page(page)
    rose.get_by_role("button", name="Rolled: bonus used").click()
    expect(rose.get_by_role("button", name=re.compile("Voluntary Corruption → 3"))).to_contain_text(
        "This roll gets: +1 die, +1 Defense")
    rose.get_by_role("button", name="Forced Corruption → 3").click()
    levels_shown(rose, 3, 0)
    expect(rose.get_by_role("button", name=re.compile("Voluntary Corruption → 4"))).to_contain_text(
        "This roll gets: +1 die, +1 Hit, +1 Defense")

    for n in range(4):
        wound(page, "Thorley")
        expect(dashboard(page, "Thorley").locator(".cslot.wounded")).to_have_count(n + 1)
    check_page(page)
    thorley = dashboard(page, "Thorley")
    expect(thorley.get_by_text("This is the fifth wound marker: the hero dies.")).to_be_visible()
    check_page(page)
    wound(page, "Thorley")
    expect(page.get_by_role("heading", name="Thorley died")).to_be_visible()
    expect(page.get_by_role("heading", name="Reminders")).to_be_visible()
    check_page(page)
    page.get_by_label("Morgana").check()
    page.get_by_role("button", name="Bring in the replacement").click()
    expect(dashboard(page, "Morgana")).to_be_visible()
    levels_shown(dashboard(page, "Morgana"), 1, 0)
    logged(page, "Morgana comes in for Thorley")
    expect(page.get_by_text("Thorley → Morgana")).to_be_visible()
    check_page(page)

    # Morgana takes Thorley's seat and his spent Turn token; the round finishes and a new one starts.
    tab(page, "Round")
    expect(page.locator(".turn-row .hero-name")).to_have_text(["Karl", "Morgana", "Rocco", "Rose"])
    expect(turn_row(page, "Morgana").get_by_role("img", name="Turn tokens: 1 active of 2")).to_be_visible()
    # Thorley died in his turn: play goes on with Rocco; Morgana plays from his seat when it comes round.
    for hero in ("Rocco", "Rose", "Karl", "Morgana", "Rocco", "Rose"):
        take_turn(page, hero)
    react(page, "Rose")
    check_page(page)
    page.get_by_role("button", name="Reset tokens and start round 3").click()
    expect(page.get_by_role("heading", name="Round 3 · Hero turns")).to_be_visible()
    check_page(page)


def test_the_fight_helper_from_dice_to_wounds(make_phone):
    page = make_phone().page
    create_table(page, ["Sam", "Ana"], table_name="Quick fight")
    page.get_by_label("Story", exact=True).fill("Haven's Last Stand")
    page.get_by_label("Terror").check()
    page.locator("#story").get_by_role("button", name="Save").click()
    logged(page, "Story: Haven's Last Stand (Terror)")
    page.get_by_role("button", name="Start round 1").click()
    expect(page.get_by_role("heading", name="Round 1 · Hero turns")).to_be_visible()

    tab(page, "Fight")
    check_page(page)
    page.get_by_role("button", name="Fight: Leader", exact=True).click()
    expect(page.get_by_role("heading", name="Leader fights")).to_be_visible()
    check_page(page)
    prep = page.locator("#prep")
    prep.get_by_role("spinbutton", name="Fight", exact=True).fill("2")
    prep.get_by_role("button", name="One more: Other heroes in the space").click()
    prep.get_by_role("spinbutton", name="Base Defense").fill("1")
    prep.get_by_role("spinbutton", name="Fight stats of the monsters, added up").fill("5")
    prep.get_by_role("button", name="One more: Pentagrams in the space").click()
    prep.get_by_role("button", name="Count the dice").click()
    expect(page.locator(".dice-count").first).to_contain_text("3 Hero dice")
    expect(page.locator(".dice-count").nth(1)).to_contain_text("6 Sin dice")
    page.get_by_role("button", name=re.compile("Voluntary Corruption → 2")).click()
    expect(page.locator(".dice-count").first).to_contain_text("4 Hero dice")
    check_page(page)

    roll = page.locator("#roll")
    roll.locator("#roll-hits").fill("2")
    roll.get_by_role("spinbutton", name="FAITH", exact=True).fill("1")
    roll.locator("#roll-flex_defense").fill("2")
    roll.locator("#roll-sin_hits").fill("4")
    roll.locator("#roll-sin_corruption").fill("1")
    roll.get_by_role("button", name="Work it out").click()
    expect(roll.get_by_text("Only 1 result(s) can be turned into others")).to_be_visible()
    expect(roll.locator("#roll-sin_hits")).to_have_value("4")
    check_page(page)
    roll.locator("#roll-flex_defense").fill("1")
    roll.get_by_role("button", name="Work it out").click()
    outcome = page.locator("section.outcome")
    expect(outcome).to_contain_text("Defense 2 cancels 2 of 4 Sin Hits: 2 wounds")
    expect(outcome).to_contain_text("2 Hits to share among the monsters")
    check_page(page)
    outcome.get_by_label("3 · +1 Defense").check()
    outcome.get_by_role("button", name="Apply to Leader").click()
    expect(outcome.get_by_text("Choose exactly 2 slot(s) for the wound markers.")).to_be_visible()
    check_page(page)
    outcome.get_by_label("3 · +1 Defense").uncheck()
    outcome.get_by_role("button", name="Apply to Leader").click()
    expect(page.get_by_role("heading", name="Who rolls?")).to_be_visible()
    tab(page, "Heroes")
    leader = dashboard(page, "Leader")
    levels_shown(leader, 3, 2)
    check_page(page)

    # A spectator's phone on the view-only link sees the same dashboard, without a single control.
    tab(page, "Players & table")
    page.get_by_text("Invite players").click()
    view_link = page.get_by_label("View-only link (for a screen or a spectator)").input_value()
    watcher = make_phone().page
    visit(watcher, view_link + "/heroes")
    levels_shown(dashboard(watcher, "Leader"), 3, 2)
    assert watcher.locator("main form").count() == 0
    tab(watcher, "Round")
    expect(watcher.get_by_role("heading", name="Round 1 · Hero turns")).to_be_visible()
    check_page(watcher)
