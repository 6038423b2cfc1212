"""The rules reference through the test client, on the fixture content: search page and fragments,
the JSON API, tables of contents, section pages, term popovers and rule links, the header's search
entry on every page, and the offline pieces (service worker, manifest, offline page and index)."""
from __future__ import annotations

import json
import pathlib
import re

import pytest
from flask import render_template_string

from companion.rules import UnknownRule
from companion.rules.search import MAX_QUERY
from tests.conftest import HX, Tables, _database_url, make_app, text_of

FIXTURE = pathlib.Path(__file__).resolve().parent.parent / "rules_fixture" / "content"


@pytest.fixture
def app(app_with):
    """The app on the fixture content (the real references arrive with the game helpers' work)."""
    return app_with(RULES_CONTENT=str(FIXTURE))


@pytest.fixture
def empty_app(tmp_path, monkeypatch, request):
    """The app before any game's reference is written."""
    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path / "instance"))
    (tmp_path / "no-content").mkdir()
    app = make_app(_database_url("sqlite", request, tmp_path), tmp_path, RULES_CONTENT=str(tmp_path / "no-content"))
    yield app
    app.extensions["companion.engine"].dispose()


def frag(target):
    return {"HX-Request": "true", "HX-Target": target}


def html(resp) -> str:
    return resp.get_data(as_text=True)


# -- the search page ------------------------------------------------------------------------------

def test_rules_home_has_a_search_form_that_works_without_javascript(client):
    resp = client.get("/rules")
    page = html(resp)
    assert resp.status_code == 200
    form = re.search(r'<form class="search-form" id="rs-form"[^>]*>', page).group(0)
    assert 'method="get"' in form and 'action="/rules/search"' in form and 'hx-get="/rules/search"' in form
    assert 'name="q"' in page and f'maxlength="{MAX_QUERY}"' in page
    for key in ("sins", "gibbon", "fivesails", "others"):
        assert f'href="/rules/{key}"' in page
    assert "7 sections" in text_of(resp)


def test_rules_home_for_a_game_chooses_that_game(client):
    page = html(client.get("/rules?game=gibbon"))
    assert re.search(r'value="gibbon" checked', page)


def test_search_page_lists_hits_best_first_with_highlights_and_links(client):
    resp = client.get("/rules/search?q=stoens&game=sins")
    page = html(resp)
    assert resp.status_code == 200
    assert page.index('href="/rules/sins/setup-stones"') < page.index('href="/rules/sins/scoring#h-placing-stones"')
    assert "<mark>Stones</mark> of Forgiveness at setup" in page
    assert "Also searched for: stones" in text_of(resp)
    assert 'value="stoens"' in page and re.search(r'value="sins" checked', page)


def test_results_fragment_for_the_header_sheet(client):
    resp = client.get("/rules/search?q=gems&game=sins", headers=frag("hs-results"))
    page = html(resp)
    assert resp.status_code == 200
    assert "<html" not in page and "<form" not in page
    assert '<span id="hs-status" hx-swap-oob="innerHTML">' in page and "sections found" in page
    assert 'href="/rules/sins/setup-stones"' in page


def test_results_fragment_for_the_search_page(client):
    page = html(client.get("/rules/search?q=gems", headers=frag("rs-results")))
    assert 'id="rs-status"' in page and "<html" not in page
    assert 'class="hit-game"' in page  # every game: each hit names its game


def test_another_htmx_target_gets_the_whole_page(client):
    page = html(client.get("/rules/search?q=gems", headers=HX))
    assert "<html" in page


def test_nothing_in_this_game_offers_the_other_games(client):
    resp = client.get("/rules/search?q=wounds&game=sins", headers=frag("hs-results"))
    text = text_of(resp)
    assert "Nothing in 7 - The Sins matches “wounds”." in text
    assert "Found in the other games:" in text and 'href="/rules/fivesails/wounds"' in html(resp)


def test_nothing_anywhere_says_so(client):
    text = text_of(client.get("/rules/search?q=qqqqqq+zzzzzz"))
    assert "Nothing matches “qqqqqq zzzzzz”." in text and "browse the contents" in text


def test_an_empty_query_shows_the_hint_not_an_error(client):
    resp = client.get("/rules/search?q=", headers=frag("rs-results"))
    assert resp.status_code == 200 and "results show as you type" in text_of(resp)


def test_an_over_long_query_is_refused_next_to_the_field_and_kept(client):
    long_q = "stones " * 30
    resp = client.get("/rules/search", query_string={"q": long_q})
    page = html(resp)
    assert resp.status_code == 422
    assert 'aria-invalid="true" aria-describedby="rs-q-err"' in page
    assert f"Keep it under {MAX_QUERY} characters." in text_of(resp)
    assert f'value="{long_q}"' in page
    resp = client.get("/rules/search", query_string={"q": long_q}, headers=frag("rs-results"))
    assert resp.status_code == 422 and "Keep it under" in text_of(resp)


def test_an_unknown_game_searches_every_game(client):
    resp = client.get("/rules/search?q=wounds&game=chess")
    assert resp.status_code == 200 and 'href="/rules/fivesails/wounds"' in html(resp)


@pytest.mark.parametrize("q", ['"><script>alert(1)</script>', "<mark>x</mark>", "' onfocus='alert(1)"])
def test_what_is_typed_is_escaped_everywhere(client, q):
    for headers in ({}, frag("rs-results"), frag("hs-results")):
        page = html(client.get("/rules/search", query_string={"q": q}, headers=headers))
        assert "<script>alert" not in page and "<mark>x</mark>" not in page and "onfocus='alert" not in page


def test_content_markup_in_a_snippet_is_escaped(client):
    page = html(client.get("/rules/search?q=script+escaping&game=others"))
    assert "<script>alert(1)" not in page
    assert "&lt;<mark>script</mark>&gt;alert(1)" in page


def test_a_french_reader_gets_french_titles_and_links(client):
    client.set_cookie("lang", "fr", domain="companion.test")
    page = html(client.get("/rules/search?q=pierres&game=sins"))
    assert "Les <mark>Pierres</mark> de Pardon" in page and 'href="/rules/sins/setup-stones"' in page


def test_a_french_hit_on_an_english_page_opens_in_french(client):
    page = html(client.get("/rules/search?q=combien+de+pierres&game=sins"))
    assert 'href="/rules/sins/setup-stones?lang=fr" hreflang="fr"' in page
    assert re.search(r'<span class="hit-title" id="rs-hit-1-t" lang="fr">', page)


# -- the JSON API ---------------------------------------------------------------------------------

def test_api_answers_hits_best_first(client):
    resp = client.get("/api/v1/rules/search?q=gems&game=sins")
    assert resp.status_code == 200 and resp.is_json
    results = resp.get_json()["results"]
    assert results[0] == {
        "game": "sins", "section": "setup-stones", "title": "Stones of Forgiveness at setup",
        "url": "/rules/sins/setup-stones", "lang": "en",
        "snippet": "Put out two Stones of Forgiveness per player next to the face-up cards.",
        "snippet_html": "Put out two <mark>Stones</mark> of <mark>Forgiveness</mark> per player next to the face-up cards.",
    }
    assert 0 < len(results) <= 10


def test_api_url_points_at_the_part_that_matched(client):
    results = client.get("/api/v1/rules/search?q=parry+more+than+threat&game=fivesails").get_json()["results"]
    assert results[0]["url"] == "/rules/fivesails/duel-round#h-parry-and-threat"


def test_api_french_reader(client):
    results = client.get("/api/v1/rules/search?q=combien+de+pierres&game=sins&lang=fr").get_json()["results"]
    assert results[0]["url"] == "/rules/sins/setup-stones" and results[0]["lang"] == "fr"
    results = client.get("/api/v1/rules/search?q=combien+de+pierres&game=sins&lang=en").get_json()["results"]
    assert results[0]["url"] == "/rules/sins/setup-stones?lang=fr"


def test_api_searches_every_game_without_a_game(client):
    games = {r["game"] for r in client.get("/api/v1/rules/search?q=wounds").get_json()["results"]}
    assert games == {"fivesails", "others"}


def test_api_snippet_html_is_escaped(client):
    result = client.get("/api/v1/rules/search?q=script&game=others").get_json()["results"][0]
    assert "<script>" in result["snippet"]  # plain text: the caller escapes it like any text
    assert "<script>" not in result["snippet_html"] and "&lt;<mark>script</mark>&gt;" in result["snippet_html"]


@pytest.mark.parametrize("query, field", [
    pytest.param({}, "q", id="no-q"),
    pytest.param({"q": ""}, "q", id="empty"),
    pytest.param({"q": "   \t"}, "q", id="blank"),
    pytest.param({"q": "x" * (MAX_QUERY + 1)}, "q", id="over-long"),
    pytest.param({"q": "stones", "game": "chess"}, "game", id="unknown-game"),
    pytest.param({"q": "stones", "game": ""}, "game", id="empty-game"),
    pytest.param({"q": "stones", "game": "SINS"}, "game", id="game-case"),
    pytest.param({"q": "stones", "lang": "de"}, "lang", id="unknown-lang"),
])
def test_api_bad_input_is_a_400_naming_the_field(client, query, field):
    resp = client.get("/api/v1/rules/search", query_string=query)
    assert resp.status_code == 400
    body = resp.get_json()
    assert list(body) == ["errors"] and field in body["errors"]
    assert all(isinstance(m, str) and m for m in body["errors"][field])


def test_api_reports_every_problem_at_once(client):
    body = client.get("/api/v1/rules/search?q=&game=chess&lang=xx").get_json()
    assert set(body["errors"]) == {"q", "game", "lang"}


@pytest.mark.parametrize("q", [
    "null", "1e309", "99999999999999999999999", "{\"a\": [1, 2]}", "[[[]]]", "\x00", "\ud7ff", "🎲🎲",
    "NEAR(a b)", '"', "*", "a" * MAX_QUERY, "%00", "../../etc/passwd",
])
def test_api_odd_queries_never_fail(client, q):
    resp = client.get("/api/v1/rules/search", query_string={"q": q})
    assert resp.status_code in (200, 400) and resp.is_json
    if resp.status_code == 200:
        assert isinstance(resp.get_json()["results"], list)


def test_api_takes_the_first_of_repeated_parameters(client):
    resp = client.get("/api/v1/rules/search?q=gems&q=x&game=sins&game=chess")
    assert resp.status_code == 200 and resp.get_json()["results"][0]["section"] == "setup-stones"


def test_api_refuses_other_methods_in_json(client):
    resp = client.post("/api/v1/rules/search?q=gems")
    assert resp.status_code == 405 and "errors" in resp.get_json()


# -- tables of contents and sections --------------------------------------------------------------

def test_game_contents_grouped_in_reading_order(client):
    resp = client.get("/rules/sins")
    text = text_of(resp)
    assert resp.status_code == 200
    assert text.index("Basics") < text.index("Setup") < text.index("Playing") < text.index("Variants")
    assert text.index("Your turn") < text.index("The Abyss of Souls")
    assert 'data-saved-status="sins"' in html(resp)


def test_unknown_game_or_section_is_a_404(client):
    assert client.get("/rules/chess").status_code == 404
    assert client.get("/rules/sins/nothing-here").status_code == 404
    assert client.get("/rules/chess/setup-stones").status_code == 404


def test_a_game_without_sections_says_its_reference_is_coming(empty_app):
    client = empty_app.test_client()
    resp = client.get("/rules/gibbon")
    assert resp.status_code == 200 and "still being written" in text_of(resp)
    assert "Being written" in text_of(client.get("/rules"))
    assert "Nothing matches" in text_of(client.get("/rules/search?q=hat"))
    assert client.get("/api/v1/rules/search?q=hat").get_json() == {"results": []}
    assert client.get("/rules/offline.json").get_json()["games"][0]["sections"] == []


def test_section_page_shows_source_related_and_neighbours(client):
    resp = client.get("/rules/sins/setup-stones")
    page, text = html(resp), text_of(resp)
    assert resp.status_code == 200
    assert '<article class="card rule" id="setup-stones">' in page
    assert "<h1>Stones of Forgiveness at setup</h1>" in page
    assert "Sums up: Rulebook, Setup step E" in text
    assert 'href="/rules/sins/abyss"' in page and 'href="/rules/sins/scoring"' in page
    assert 'rel="prev" href="/rules/sins/overview"' in page and 'rel="next" href="/rules/sins/turn"' in page
    assert '<div class="table-scroll" tabindex="0"><table>' in page


def test_section_headings_are_anchors(client):
    page = html(client.get("/rules/fivesails/duel-round"))
    assert '<h2 id="h-parry-and-threat">Parry and threat</h2>' in page


def test_first_and_last_sections_have_one_neighbour(client):
    assert 'rel="prev"' not in html(client.get("/rules/sins/overview"))
    assert 'rel="next"' not in html(client.get("/rules/sins/penitenziagite"))


def test_sins_section_offers_french_and_a_french_reader_gets_it(client):
    page = html(client.get("/rules/sins/setup-stones"))
    assert 'href="/rules/sins/setup-stones?lang=fr" hreflang="fr">Lire en français' in page
    client.set_cookie("lang", "fr", domain="companion.test")
    resp = client.get("/rules/sins/setup-stones")
    page = html(resp)
    assert "<h1>Les Pierres de Pardon à la mise en place</h1>" in page
    assert 'href="/rules/sins/setup-stones?lang=en" hreflang="en">Read in English' in page
    assert "Résumé de : Livret, Mise en place étape E" in text_of(resp)


def test_the_french_version_can_be_asked_for_on_an_english_page(client):
    page = html(client.get("/rules/sins/setup-stones?lang=fr"))
    assert '<article class="card rule" id="setup-stones" lang="fr">' in page
    assert 'href="/rules/sins/setup-stones" hreflang="en">Read in English' in page


def test_a_section_without_translation_shows_english_marked_as_such(client):
    client.set_cookie("lang", "fr", domain="companion.test")
    page = html(client.get("/rules/sins/turn"))
    assert '<article class="card rule" id="turn" lang="en">' in page and "Lire en français" not in page
    page = html(client.get("/rules/gibbon/doubting"))
    assert 'lang="en"' in page


# -- the header's search entry --------------------------------------------------------------------

def test_every_page_has_the_search_entry(client):
    page = html(client.get("/"))
    assert '<details class="search-panel">' in page and 'id="hs-form"' in page
    assert 'action="/rules/search"' in page
    assert 'name="game"' not in page  # no game on the home page: every game


@pytest.fixture
def real_app(app_with):
    """The app on the package's own content: the game pages link into the real references."""
    return app_with()


def test_on_a_table_page_the_search_starts_with_the_tables_game(real_app):
    client = real_app.test_client()
    token = Tables(real_app, client).create("gibbon", names=("Ana", "Bo", "Cy"))
    page = html(client.get(f"/t/{token}"))
    assert re.search(r'<input type="radio" name="game" value="gibbon" checked>', page)
    assert re.search(r'<input type="radio" name="game" value=""\s*>', page)
    assert 'data-rules-game="gibbon"' in page and 'href="/rules/gibbon"' in page


def test_a_view_only_table_page_links_to_the_search_page_instead_of_a_form(real_app):
    client = real_app.test_client()
    tables = Tables(real_app, client)
    view = tables.table(tables.create("sins")).view_token
    page = html(client.get(f"/t/{view}"))
    assert '<a class="top-rules" href="/rules?game=sins">' in page and 'id="hs-form"' not in page
    assert "<form" not in page.split("<footer")[0]


def test_on_a_rules_page_the_search_starts_with_its_game(client):
    page = html(client.get("/rules/fivesails/lethal"))
    assert re.search(r'value="fivesails" checked', page) and 'data-rules-game="fivesails"' in page


def test_a_page_that_names_its_games_rules_gets_that_game_first(app):
    """Pages outside a table (a calculator) name their game by overriding base.html's rules_url."""
    source = ('{% extends "base.html" %}{% block rules_url %}{{ url_for("rules.index", game="others") }}'
              '{% endblock %}{% block main %}<h1>Tool</h1>{% endblock %}')
    page = render(app, source)
    assert re.search(r'value="others" checked', page) and 'data-rules-game="others"' in page


def test_the_search_page_has_no_second_search_sheet(client):
    page = html(client.get("/rules/search?q=x"))
    assert 'id="hs-form"' not in page and page.count('role="search"') == 1


def test_the_manifest_is_linked_from_every_page(client):
    page = html(client.get("/"))
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page
    assert 'data-sw="/sw.js"' in page


# -- rule links and term popovers for the game pages ----------------------------------------------

def render(app, source, **ctx):
    with app.test_request_context("/"):
        return render_template_string(source, **ctx)


def test_rule_url_links_to_the_section(app):
    assert render(app, "{{ rule_url('sins', 'setup-stones') }}") == "/rules/sins/setup-stones"


def test_rule_url_to_a_missing_section_fails_loudly_in_tests(app):
    with pytest.raises(UnknownRule, match="sins/nowhere"):
        render(app, "{{ rule_url('sins', 'nowhere') }}")


def test_rule_url_to_a_missing_section_falls_back_to_the_contents_in_production(app, caplog):
    app.config["TESTING"] = False
    assert render(app, "{{ rule_url('sins', 'nowhere') }}") == "/rules/sins"
    assert "missing section: sins/nowhere" in caplog.text


def test_term_is_a_details_popover_with_the_summary_and_a_link(app):
    out = render(app, "{{ term('fivesails', 'lethal') }}")
    assert out.startswith('<details class="term"><summary>lethal</summary>')
    assert '<span class="term-title">Lethal</span>' in out
    assert "ignore Restricted Hostilities" in out
    assert 'href="/rules/fivesails/lethal">Read the rule<span class="vh">: Lethal</span></a>' in out


def test_term_label_and_french(app):
    with app.test_request_context("/", headers={"Cookie": "lang=fr"}):
        out = render_template_string("{{ term('sins', 'Stones of Forgiveness', label='pierres') }}")
    assert "<summary>pierres</summary>" in out and "Posez deux Pierres de Pardon" in out


def test_term_text_is_escaped(app):
    out = render(app, "{{ term('fivesails', 'Lethal', label=label) }}", label="<b>x</b>")
    assert "<b>x</b>" not in out and "&lt;b&gt;x&lt;/b&gt;" in out


def test_a_term_no_section_explains_fails_loudly_in_tests_and_is_plain_text_in_production(app, caplog):
    with pytest.raises(UnknownRule, match="Flying"):
        render(app, "{{ term('fivesails', 'Flying') }}")
    app.config["TESTING"] = False
    assert render(app, "{{ term('fivesails', 'Flying') }}") == "Flying"
    assert "term without a rules section" in caplog.text


# -- offline: service worker, manifest, offline page ----------------------------------------------

def test_service_worker_is_served_at_the_root_uncached(client):
    resp = client.get("/sw.js")
    body = html(resp)
    assert resp.status_code == 200
    assert resp.headers["Content-Type"] == "text/javascript; charset=utf-8"
    assert resp.headers["Cache-Control"] == "no-cache"
    version = re.search(r'const VERSION = "([0-9a-f]{16})";', body).group(1)
    precache = json.loads(re.search(r"const PRECACHE = (\[.*?\]);", body).group(1))
    assert any(u.startswith("/static/app.css?v=") for u in precache)
    assert any(u.startswith("/static/app.js?v=") for u in precache)
    assert {"/rules", "/rules/offline", "/rules/offline.json"} <= set(precache)
    for url in precache:
        assert client.get(url).status_code == 200, url
    assert version == re.search(r'const VERSION = "([0-9a-f]{16})";', html(client.get("/sw.js"))).group(1)


def test_service_worker_version_follows_the_content(client, empty_app):
    ours = re.search(r'VERSION = "(\w+)"', html(client.get("/sw.js"))).group(1)
    theirs = re.search(r'VERSION = "(\w+)"', html(empty_app.test_client().get("/sw.js"))).group(1)
    assert ours != theirs


def test_manifest_makes_the_app_installable(client):
    resp = client.get("/manifest.webmanifest")
    assert resp.headers["Content-Type"] == "application/manifest+json"
    assert resp.headers["Cache-Control"] == "no-cache"
    m = json.loads(html(resp))
    assert m["name"] == "Table Companion" and m["display"] == "standalone" and m["start_url"] == "/"
    sizes = {(i["sizes"], i["purpose"]) for i in m["icons"]}
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= sizes
    for icon in m["icons"]:
        got = client.get(icon["src"])
        assert got.status_code == 200 and got.headers["Content-Type"] == "image/png"
        assert got.data[:8] == b"\x89PNG\r\n\x1a\n"


def test_manifest_speaks_the_readers_language(client):
    client.set_cookie("lang", "fr", domain="companion.test")
    assert json.loads(html(client.get("/manifest.webmanifest")))["lang"] == "fr"


def test_offline_page_explains_and_holds_the_saved_contents(client):
    resp = client.get("/rules/offline")
    assert resp.status_code == 200 and "No connection" in text_of(resp)
    assert "data-offline-toc" in html(resp)


def test_offline_index_lists_every_section_url(client):
    resp = client.get("/rules/offline.json")
    body = resp.get_json()
    assert resp.headers["Cache-Control"] == "no-cache"
    sins = next(g for g in body["games"] if g["key"] == "sins")
    assert sins["url"] == "/rules/sins" and sins["title"] == "7 - The Sins"
    assert {"slug": "setup-stones", "title": "Stones of Forgiveness at setup", "group": "Setup",
            "url": "/rules/sins/setup-stones"} in sins["sections"]
    for game in body["games"]:
        for sec in game["sections"]:
            assert client.get(sec["url"]).status_code == 200


def test_offline_index_in_french(client):
    client.set_cookie("lang", "fr", domain="companion.test")
    body = client.get("/rules/offline.json").get_json()
    sins = next(g for g in body["games"] if g["key"] == "sins")
    assert body["lang"] == "fr" and any(s["title"].startswith("Les Pierres") for s in sins["sections"])
