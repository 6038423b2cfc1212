"""The French rules in the browser, on the real content: a French City of Five Sails table asks a
victory question in French from its table page, opens the French section, and reads the French
rules again with the network off. Every page state passes check_page (axe, 44 px targets, no
sideways scroll), at 390x844 and 360x640."""
from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.e2e.checks import check_page, fill_new_table, visit, wait_saved


def test_a_french_five_sails_table_finds_the_victory_rule_in_french_and_reads_it_offline(make_phone, live_server):
    phone = make_phone()
    page = phone.page
    visit(page, "/new/fivesails")
    fill_new_table(page, ("Ana", "Bo", "Chloé"))
    expect(page).to_have_url(re.compile(r"/t/"))
    phone.context.add_cookies([{"name": "lang", "value": "fr", "url": live_server.url}])
    page.reload()
    check_page(page)

    page.locator("summary").filter(has_text="Règles").click()
    box = page.get_by_role("searchbox")
    expect(box).to_be_focused()
    box.fill("combien de Renommée pour gagner")
    results = page.locator("#hs-results")
    first = results.get_by_role("link").first
    expect(first).to_contain_text("Victoire économique")
    expect(results.locator("mark").first).to_be_visible()
    check_page(page)

    first.click()
    heading = page.get_by_role("heading", level=1)
    expect(heading).to_have_text("Victoire économique")
    expect(page.get_by_text("7 de Renommée ou plus").first).to_be_visible()
    expect(page.get_by_text(re.compile("notre traduction"))).to_be_visible()
    check_page(page)
    wait_saved(page, "/rules/fivesails/victory-economic", "/rules/fivesails/victory-fifth-day")

    phone.context.set_offline(True)
    page.reload()
    expect(heading).to_have_text("Victoire économique")
    check_page(page)
    page.get_by_role("link", name="Le cinquième Jour et les départages").first.click()
    expect(heading).to_have_text("Le cinquième Jour et les départages")
    check_page(page)


def test_the_french_glossary_links_each_term_to_its_section(make_phone, live_server):
    phone = make_phone()
    page = phone.page
    phone.context.add_cookies([{"name": "lang", "value": "fr", "url": live_server.url}])
    visit(page, "/rules/gibbon")
    expect(page.get_by_text(re.compile("notre propre traduction"))).to_be_visible()
    check_page(page)
    page.get_by_role("link", name=re.compile("Glossaire")).click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Glossaire")
    check_page(page)
    page.get_by_role("link", name="Chapeau du Singe sans cœur").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Le Chapeau du Singe sans cœur")
    check_page(page)
