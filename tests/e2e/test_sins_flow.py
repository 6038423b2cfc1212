"""7 - The Sins in a phone's browser: a 4-player table from setup to a recorded result, with a stone
placement overridden and undone, and a bad count answered on the form. Runs at 390x844 and 360x640."""
from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.e2e.checks import check_page, fill_new_table, visit

PLAYERS = ["Margherita", "Bo", "Cy", "Di"]
SIX = ["Superbia", "Luxuria", "Invidia", "Ira", "Acedia", "Gula"]


def new_table(page, name="Sins night"):
    visit(page, "/new/sins")
    fill_new_table(page, PLAYERS, name)
    expect(page.get_by_role("heading", name="Setup checklist")).to_be_visible()
    check_page(page)


def region(page, name):
    return page.get_by_role("region", name=name, exact=True)


def fill_counts(box, counts: dict[str, int], stones: int | None = None):
    for sin, n in counts.items():
        box.get_by_label(sin, exact=True).fill(str(n))
    if stones is not None:
        box.get_by_label("Stones of Forgiveness", exact=True).fill(str(stones))


def test_a_four_player_table_from_setup_to_a_recorded_result(page):
    new_table(page)

    # Setup A: six sin types for four players, picked on chips.
    types = region(page, "Sin types in play")
    for sin in SIX:
        types.get_by_text(sin, exact=True).click()
    types.get_by_role("button", name="Play with these types").click()
    expect(types.get_by_text("In play:")).to_be_visible()
    expect(page.get_by_text("Take the 11 cards of each of 6 types (66 cards)")).to_be_visible()
    check_page(page)
    page.get_by_role("button", name=re.compile(r"^A · Choose the sin types")).click()
    expect(page.get_by_role("button", name=re.compile(r"^A · Choose the sin types"))).to_have_attribute("aria-pressed", "true")
    check_page(page)

    page.get_by_role("button", name="Start the game").click()
    expect(page.get_by_text("Now playing:")).to_be_visible()
    check_page(page)

    # Play: a turn passes, Margherita feeds the Abyss twice, the three Last Judgments come out.
    page.get_by_role("button", name="Margherita is done: next player").click()
    expect(page.get_by_role("button", name="Bo is done: next player")).to_be_visible()
    stones = region(page, "Stones of Forgiveness")
    for left in (7, 6):
        stones.get_by_role("button", name="One more: Margherita").click()
        expect(stones.get_by_text(f"{left} stones left in the supply")).to_be_visible()
    judgments = region(page, "Last Judgment cards")
    for n in (1, 2, 3):
        judgments.get_by_role("button", name="One more: Last Judgments revealed").click()
        expect(judgments.locator("output")).to_have_text(f"{n} / 3")
    expect(page.get_by_role("heading", name="The game is over")).to_be_visible()
    check_page(page)
    page.get_by_role("link", name="Go to scoring").first.click()

    # Score: the Abyss by type (one with a value chip), then each reserve.
    abyss = region(page, "Abyss of Souls")
    fill_counts(abyss, {"Invidia": 6, "Acedia": 1, "Ira": 1})
    abyss.get_by_role("group", name="Quick values: Gula").get_by_role("radio", name="2", exact=True).click()
    expect(abyss.get_by_label("Gula", exact=True)).to_have_value("2")
    check_page(page)
    abyss.get_by_role("button", name="Save the Abyss").click()
    expect(page.get_by_text("The Abyss scores −1: 7 or less, so the fewest points win.")).to_be_visible()
    check_page(page)

    reserves = {
        "Margherita": ({"Invidia": 2, "Acedia": 4, "Luxuria": 3, "Ira": 1}, 2),
        "Bo": ({"Superbia": 3, "Gula": 2}, None),
        "Cy": ({"Superbia": 2, "Luxuria": 2, "Ira": 3}, None),
        "Di": ({"Superbia": 1, "Luxuria": 1, "Ira": 1, "Acedia": 1}, None),
    }
    for name, (counts, held) in reserves.items():
        box = region(page, name)
        fill_counts(box, counts, held)
        box.get_by_role("button", name=f"Save {name}'s count").click()
        expect(box.get_by_text("Not counted yet.")).to_have_count(0)
    margherita = region(page, "Margherita")
    expect(margherita.get_by_text("Best placement when the fewest points win: Luxuria, Acedia.")).to_be_visible()
    expect(margherita.locator(".player-total")).to_have_text("0 points")
    expect(page.get_by_text("Winner: Margherita")).to_be_visible()
    check_page(page)

    # Margherita places her stones herself: the result changes.
    margherita.get_by_text("Place Margherita's stones yourself").click()
    for sin, on in (("Luxuria", False), ("Acedia", False), ("Invidia", True), ("Ira", True)):
        box = margherita.get_by_role("checkbox", name=re.compile(rf"^{sin}\b"))
        box.set_checked(on)
    check_page(page)
    margherita.get_by_role("button", name="Place the stones here").click()
    margherita = region(page, "Margherita")
    expect(margherita.locator(".player-total")).to_have_text("14 points")
    expect(margherita.get_by_text("The best placement (Luxuria, Acedia) would give 0.")).to_be_visible()
    expect(page.get_by_text("Winner: Di")).to_be_visible()
    check_page(page)

    # Undo puts the suggestion back.
    page.get_by_role("button", name="↶ Undo: Margherita put stones on Invidia, Ira").click()
    expect(page.get_by_text("Winner: Margherita")).to_be_visible()
    expect(region(page, "Margherita").locator(".player-total")).to_have_text("0 points")
    check_page(page)

    page.get_by_role("button", name="Record the result").click()
    expect(page.get_by_role("heading", name="Result", exact=True)).to_be_visible()
    expect(page.get_by_text("finished", exact=True)).to_be_visible()
    check_page(page)

    visit(page, "/")
    expect(page.get_by_text("Winner: Margherita")).to_be_visible()
    expect(page.get_by_text("Margherita 0, Di 4, Bo 9, Cy 12")).to_be_visible()


def open_score_page(page, name):
    """A new four-player table with six types drawn, the game started, on the Score page."""
    new_table(page, name=name)
    page.get_by_role("button", name=re.compile(r"^Draw 6 types at random")).click()
    expect(page.get_by_text("In play:")).to_be_visible()
    page.get_by_role("button", name="Start the game").click()
    expect(page.get_by_text("Now playing:")).to_be_visible()
    page.get_by_role("link", name="Score", exact=True).click()


def test_a_bad_count_is_explained_on_the_form_and_kept_as_typed(page):
    open_score_page(page, "Typo table")

    bo = region(page, "Bo")
    first_type = bo.locator("[data-num] input[type=text]").first
    first_type.fill("12")
    bo.get_by_label("Stones of Forgiveness", exact=True).fill("9")
    bo.get_by_role("button", name="Save Bo's count").click()
    bo = region(page, "Bo")
    expect(bo.get_by_text("There are only 11 cards of each sin type.")).to_be_visible()
    expect(bo.get_by_text("Only 8 Stones of Forgiveness are in play.")).to_be_visible()
    expect(bo.locator("[data-num] input[type=text]").first).to_have_value("12")
    expect(bo.locator("[data-num] input[type=text]").first).to_have_attribute("aria-invalid", "true")
    check_page(page)


def test_the_french_score_page_reads_in_french(make_phone, live_server):
    phone = make_phone()
    page = phone.page
    new_table(page, name="Soirée")
    page.get_by_role("button", name=re.compile(r"^Draw 6 types at random")).click()
    expect(page.get_by_text("In play:")).to_be_visible()
    # The language a player picked in the footer, as its cookie.
    phone.context.add_cookies([{"name": "lang", "value": "fr", "url": live_server.url}])
    page.reload()
    expect(page.get_by_role("heading", name="Types de Péchés en jeu")).to_be_visible()
    check_page(page)
    page.get_by_role("link", name="Décompte", exact=True).click()
    expect(page.get_by_role("heading", name="Abysse des Âmes")).to_be_visible()
    check_page(page)


def test_a_penitenziagite_game_in_french_to_a_scored_finish(make_phone, live_server):
    """In French: Penitenziagite on, the third Last Judgment recorded after "done" was tapped (the
    app asks whose turn it was), the round played out, twelve cards of a type with the
    Penitenziagite card, an empty reserve warned about, and the result recorded."""
    phone = make_phone()
    page = phone.page
    visit(page, "/new/sins")
    fill_new_table(page, PLAYERS, "Soirée Pénitence")
    expect(page.get_by_role("heading", name="Setup checklist")).to_be_visible()
    phone.context.add_cookies([{"name": "lang", "value": "fr", "url": live_server.url}])
    page.goto(page.url)
    expect(page.get_by_role("heading", name="Types de Péchés en jeu")).to_be_visible()
    check_page(page)

    types = region(page, "Types de Péchés en jeu")
    for sin in ("Orgueil", "Luxure", "Envie", "Colère", "Paresse", "Gloutonnerie"):
        types.get_by_text(sin, exact=True).click()
    types.get_by_role("button", name="Jouer avec ces types").click()
    expect(types.get_by_text(re.compile("En jeu"))).to_be_visible()
    page.get_by_role("button", name="Jouer avec la Pénitence").click()
    expect(page.get_by_role("button", name="Jouer avec la Pénitence")).to_have_attribute("aria-pressed", "true")
    expect(page.get_by_text(re.compile("une carte Pénitence compte comme une carte de plus de son péché"))).to_be_visible()
    check_page(page)
    page.get_by_role("button", name="Commencer la partie").click()
    expect(page.get_by_text(re.compile("Joue maintenant"))).to_be_visible()
    expect(page.get_by_text("dernier de chaque tour de table")).to_be_visible()
    check_page(page)

    # Margherita plays, then Bo; two Last Judgments are out; Bo's "done" is tapped before the third.
    page.get_by_role("button", name=re.compile("^Margherita a fini")).click()
    judgments = region(page, "Cartes Jugement Dernier")
    for n in (1, 2):
        judgments.get_by_role("button", name=re.compile("^Un de plus.*Jugements Derniers révélés")).click()
        expect(judgments.locator("output")).to_have_text(f"{n} / 3")
    page.get_by_role("button", name=re.compile("^Bo a fini")).click()
    expect(page.get_by_text(re.compile("La troisième carte est sortie"))).to_be_visible()
    check_page(page)
    page.get_by_role("button", name=re.compile("^Tour de jeu précédent.*Bo")).click()
    expect(page.get_by_role("heading", name="Le dernier tour de table")).to_be_visible()
    expect(page.get_by_text(re.compile("Cy, Di"))).to_be_visible()
    check_page(page)
    page.get_by_role("button", name=re.compile("^Cy a fini")).click()
    page.get_by_role("button", name=re.compile("^Di a fini")).click()
    expect(page.get_by_role("heading", name="La partie est finie")).to_be_visible()
    expect(page.get_by_text("joue maintenant")).to_have_count(0)
    check_page(page)
    page.get_by_role("link", name="Passer au décompte").first.click()

    abyss = region(page, "Abysse des Âmes")
    fill_counts(abyss, {"Envie": 6, "Paresse": 1, "Colère": 1, "Gloutonnerie": 2})
    abyss.get_by_role("button", name="Enregistrer l'Abysse").click()
    expect(page.get_by_text(re.compile("L'Abysse vaut −1"))).to_be_visible()
    expect(page.get_by_text(re.compile("une carte Pénitence compte comme une carte de plus"))).to_be_visible()
    check_page(page)
    reserves = {
        "Margherita": {"Envie": 2, "Paresse": 4, "Luxure": 3, "Colère": 1},
        "Bo": {"Orgueil": 12},  # eleven Orgueil cards and its Penitenziagite card
        "Cy": {"Luxure": 2, "Colère": 3},
        "Di": {},  # counted empty: warned about, still scored
    }
    for name, counts in reserves.items():
        box = region(page, name)
        fill_counts(box, counts)
        if name == "Margherita":
            box.get_by_label("Pierres de Pardon", exact=True).fill("2")
        box.get_by_role("button", name=re.compile(f"^{name}.*enregistrer le compte")).click()
        expect(region(page, name).get_by_text("Pas encore compté.")).to_have_count(0)
    expect(region(page, "Bo").locator(".player-total")).to_have_text("10 points")
    expect(page.get_by_text(re.compile("Di.*réserve vide")).first).to_be_visible()
    check_page(page)
    page.get_by_role("button", name="Enregistrer le résultat").click()
    expect(page.get_by_role("heading", name="Résultat", exact=True)).to_be_visible()
    check_page(page)


def test_with_javascript_a_box_of_spaces_is_refused_in_view_and_nothing_is_counted(page):
    """Issue 36: with JavaScript the refused save is swapped in where the player stands, and the box's
    message sat above the screen, so a box holding only spaces looked silently ignored. Without
    JavaScript the page reloads at its top, message first. Now the refused box comes into view with
    "Enter a number (0 if none).", takes the focus, and nothing is counted."""
    open_score_page(page, "Spaces")

    bo = region(page, "Bo")
    first_type = bo.locator("[data-num] input[type=text]").first
    first_type.fill("   ")
    bo.get_by_role("button", name="Save Bo's count").click()
    bo = region(page, "Bo")
    message = bo.get_by_text("Enter a number (0 if none).")
    expect(message).to_be_in_viewport()
    box = bo.locator("[data-num] input[type=text]").first
    expect(box).to_be_focused()
    expect(box).to_have_attribute("aria-invalid", "true")
    expect(bo.get_by_text("Not counted yet.")).to_be_visible()
    expect(page.locator(".history, #history, body").first).not_to_contain_text("Bo's reserve counted")
    check_page(page)
