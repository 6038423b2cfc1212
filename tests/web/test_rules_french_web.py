"""The French rules reference on the real content: the translation notice on the three games with
no French rulebook (and not on 7 - The Sins), the glossary pages, the French section pages, the
French search from a game page, and a glossary page for a game that does not exist. The app is
tests/conftest.py's, on the real content."""
from __future__ import annotations

import pytest

from companion.rules import content
from tests.conftest import HX, text_of

NOTICE = "Le texte français est notre propre traduction"


@pytest.fixture
def fr(client):
    client.set_cookie("lang", "fr", domain="companion.test")
    return client


@pytest.mark.parametrize("game", ["gibbon", "fivesails", "others"])
def test_french_index_says_the_french_is_our_translation(fr, game):
    page = fr.get(f"/rules/{game}").get_data(as_text=True)
    assert NOTICE in page
    assert f'href="/rules/{game}/glossary"' in page


def test_the_sins_has_a_french_rulebook_so_no_notice(fr):
    page = fr.get("/rules/sins").get_data(as_text=True)
    assert NOTICE not in page


def test_english_reader_sees_no_french_notice(client):
    assert "our own translation" not in client.get("/rules/fivesails").get_data(as_text=True)


def test_french_section_cites_the_english_rulebook_and_offers_english(fr):
    page = fr.get("/rules/fivesails/victory-economic").get_data(as_text=True)
    assert "<h1>Victoire économique</h1>" in page
    english = content.section("fivesails", "victory-economic")
    assert english.source in page
    assert "notre traduction" in page
    assert 'href="/rules/fivesails/victory-economic?lang=en" hreflang="en"' in page


def test_glossary_pairs_terms_and_links_both_languages(fr):
    resp = fr.get("/rules/fivesails/glossary")
    assert resp.status_code == 200
    page = resp.get_data(as_text=True)
    assert "Renommée" in page and "Renown" in page
    assert 'href="/rules/fivesails/dusk?lang=fr" hreflang="fr">Crépuscule</a>' in page
    assert 'href="/rules/fivesails/dusk?lang=en" hreflang="en">Dusk</a>' in page


def test_glossary_of_an_unknown_game_is_a_404(client):
    assert client.get("/rules/chess/glossary").status_code == 404


def test_a_french_five_sails_victory_question_from_a_five_sails_page(fr):
    resp = fr.get("/rules/search", query_string={"q": "combien de Renommée pour gagner", "game": "fivesails"},
                  headers={**HX, "HX-Target": "rs-results"})
    assert resp.status_code == 200
    page = resp.get_data(as_text=True)
    first = page[page.index('href="/rules/'):]
    assert first.startswith('href="/rules/fivesails/victory-economic')
    assert "Victoire économique" in text_of(resp)


def test_api_french_question_across_all_games_lands_in_its_game(client):
    results = client.get("/api/v1/rules/search", query_string={"q": "qui porte le chapeau du singe", "lang": "fr"}).get_json()["results"]
    assert (results[0]["game"], results[0]["section"], results[0]["lang"]) == ("gibbon", "heartless-monkey-hat", "fr")


def test_a_term_on_a_french_page_shows_the_glossary_word(app):
    from flask import render_template_string

    with app.test_request_context(headers={"Cookie": "lang=fr"}):
        html = render_template_string("{{ term('fivesails', 'Lethal') }} {{ term('fivesails', 'Renown', 'Gloire') }}")
    assert "Létal" in html and "Lethal" not in html.split("<summary")[1].split("</summary>")[0]
    assert "Gloire" in html  # a label given by the page wins
    with app.test_request_context():
        assert "Lethal" in render_template_string("{{ term('fivesails', 'Lethal') }}")
