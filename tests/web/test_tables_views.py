"""Every shared route through the test client: full page, htmx fragment, bad input."""
import re

import pytest

from companion.games import GAMES
from tests.conftest import HX, text_of

XSS = "<script>alert(1)</script>"


# -- home and new tables --------------------------------------------------------------------------

def test_home_offers_the_four_games_and_lists_nothing_yet(client):
    resp = client.get("/")
    assert resp.status_code == 200
    page = text_of(resp)
    for game in GAMES.values():
        assert game.title in page
    assert "Tables you start or open on this phone are listed here." in page


def test_home_lists_this_phones_tables_newest_first(tables, client):
    first = tables.create("sins", ["Ana", "Bo"], name="Monday")
    second = tables.create("gibbon", ["Ana", "Bo", "Cy"], name="Tuesday")
    client.get(f"/t/{first}")  # opening moves a table to the top
    page = text_of(client.get("/"))
    assert page.index("Monday") < page.index("Tuesday")
    assert "Ana, Bo, Cy" in page and second


def test_home_shows_a_finished_tables_result(app, tables, client):
    tok = tables.create("sins", ["Ana", "Bo"], name="Done")
    from companion.db import get_session
    from companion.tables import store

    with app.app_context():
        table = store.by_token(get_session(), tok)[0]

        def finish(doc):
            doc["status"] = "finished"
            doc["result"] = {"winners": ["Bo"], "scores": [{"name": "Ana", "points": 3}, {"name": "Bo", "points": 9}]}
        store.apply(get_session(), table.id, None, store.Change("finish", "finished"), finish)
    page = text_of(client.get("/"))
    assert "Winner: Bo" in page and "Ana 3, Bo 9" in page


@pytest.mark.parametrize("game", list(GAMES))
def test_new_table_form_has_a_name_field_per_possible_player(client, game):
    resp = client.get(f"/new/{game}")
    assert resp.status_code == 200
    html = resp.get_data(as_text=True)
    assert len(re.findall(r'name="players-\d+"', html)) == GAMES[game].max_players


def test_unknown_game_is_a_friendly_404(client):
    resp = client.get("/new/chess")
    assert resp.status_code == 404 and "Nothing here" in text_of(resp)


@pytest.mark.parametrize("game", list(GAMES))
def test_creating_a_table_opens_it_and_remembers_it_on_this_phone(client, game):
    g = GAMES[game]
    names = {f"players-{i}": f"P{i}" for i in range(g.min_players)}
    resp = client.post(f"/new/{game}", data={"name": "Friday", **names})
    assert resp.status_code == 303
    token = resp.headers["Location"].rsplit("/", 1)[1]
    assert token in resp.headers.get("Set-Cookie", "")
    page = client.get(f"/t/{token}")
    assert page.status_code == 200 and "Friday" in text_of(page)


@pytest.mark.parametrize("data, message, kept", [
    pytest.param({"name": "T", "players-0": "Ana"}, "is for 2 to 5 players", "Ana", id="too-few-players"),
    pytest.param({"name": "T", "players-0": "Ana", "players-1": "ana"}, "Two players have this name.", "ana",
                 id="duplicate-names"),
    pytest.param({"name": "T", "players-0": "A" * 31, "players-1": "Bo"}, "Keep names to 30 characters.", "Bo",
                 id="name-too-long"),
    pytest.param({"name": "", "players-0": "Ana", "players-1": "Bo"}, "Give the table a name.", "Ana",
                 id="no-table-name"),
    pytest.param({"name": "T" * 41, "players-0": "Ana", "players-1": "Bo"}, "Keep the table name to 40 characters.",
                 "Ana", id="table-name-too-long"),
    pytest.param({"name": "T", "players-0": "Ana", "players-1": "Bo", "colours-1": "mauve"},
                 "Pick a colour from the list.", "Bo", id="unknown-colour"),
])
def test_bad_new_table_input_is_refused_next_to_the_field_and_kept(client, data, message, kept):
    resp = client.post("/new/sins", data=data)
    assert resp.status_code == 422
    assert message in text_of(resp)
    assert f'value="{kept}"' in resp.get_data(as_text=True)


def test_a_players_typed_markup_is_shown_as_text_everywhere(tables, client):
    tok = tables.create("sins", [XSS, "Bo"], name=XSS[:40])
    for url in ("/", f"/t/{tok}", f"/t/{tok}/table"):
        html = client.get(url).get_data(as_text=True)
        assert XSS not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    resp = tables.post(tok, "players/rename", {"player": 2, "name": XSS}, page="table")
    assert XSS not in resp.get_data(as_text=True)


# -- opening by link ------------------------------------------------------------------------------

def test_open_by_pasted_link(tables, client):
    tok = tables.create()
    resp = client.post("/open", data={"link": f"https://somewhere/t/{tok}/table"})
    assert resp.status_code == 303 and resp.headers["Location"].endswith(f"/t/{tok}")


@pytest.mark.parametrize("link, message", [
    pytest.param("", "Paste the table's link.", id="empty"),
    pytest.param("not a link", "No table matches this link.", id="junk"),
    pytest.param("https://x/t/" + "A" * 24, "No table matches this link.", id="unknown-token"),
    pytest.param("x" * 301, "That is too long for a table link.", id="too-long"),
])
def test_open_by_bad_link_says_why_and_keeps_it(client, link, message):
    resp = client.post("/open", data={"link": link})
    assert resp.status_code == 422 and message in text_of(resp)
    assert f'value="{link}"' in resp.get_data(as_text=True)


def test_forgetting_a_table_removes_it_from_this_phones_list(tables, client):
    tok = tables.create(name="Gone")
    resp = client.post(f"/forget/{tok}")
    assert resp.status_code == 303
    assert "Gone" not in text_of(client.get("/"))


# -- the table page -------------------------------------------------------------------------------

def test_table_page_full_has_the_qr_code_links_and_pages(tables, client):
    tok = tables.create("fivesails", ["Ana", "Bo", "Cy"])
    table = tables.table(tok)
    resp = client.get(f"/t/{tok}")
    html = resp.get_data(as_text=True)
    assert resp.status_code == 200 and html.startswith("<!doctype html>")
    assert '<svg role="img"' in html and "QR code of this table" in html
    assert f"/t/{table.view_token}" in html and 'id="live"' in html
    assert resp.headers["X-Table-Version"] == "0"
    assert "HX-Request" in resp.headers["Vary"]


def test_table_page_fragment_is_only_the_live_region(tables, client):
    tok = tables.create()
    resp = client.get(f"/t/{tok}", headers=HX)
    html = resp.get_data(as_text=True)
    assert resp.status_code == 200 and html.lstrip().startswith('<div id="live"') and "<html" not in html


def test_a_boosted_navigation_gets_the_full_page(tables, client):
    tok = tables.create()
    resp = client.get(f"/t/{tok}", headers={"HX-Request": "true", "HX-Boosted": "true", "HX-Target": "live"})
    assert "<html" in resp.get_data(as_text=True)


def test_polling_answers_204_until_the_table_changes(tables, client):
    tok = tables.create()
    assert client.get(f"/t/{tok}?since=0", headers=HX).status_code == 204
    tables.post(tok, "players/rename", {"player": 1, "name": "Zed"})
    resp = client.get(f"/t/{tok}?since=0", headers=HX)
    assert resp.status_code == 200 and "Zed" in text_of(resp) and resp.headers["X-Table-Version"] == "1"
    assert client.get(f"/t/{tok}?since=1", headers=HX).status_code == 204


def test_polling_an_unknown_table_is_404(client):
    assert client.get("/t/" + "A" * 24 + "?since=0", headers=HX).status_code == 404


@pytest.mark.parametrize("path", ["/t/short", "/t/" + "A" * 24, "/t/" + "A" * 24 + "/table"])
def test_unknown_tables_get_a_friendly_404(client, path):
    resp = client.get(path)
    assert resp.status_code == 404 and "A table link must be copied whole." in text_of(resp)


def test_an_unknown_page_of_a_table_is_404(tables, client):
    tok = tables.create()
    assert client.get(f"/t/{tok}/nope").status_code == 404


def test_the_view_only_link_shows_the_table_without_controls_or_the_edit_token(tables, client):
    tok = tables.create()
    view = tables.table(tok).view_token
    for path in (f"/t/{view}", f"/t/{view}/table"):
        html = client.get(path).get_data(as_text=True)
        assert "<form" not in html.split('<footer')[0] and tok not in html and "view only" in html


def test_the_view_only_link_cannot_change_anything(tables, client):
    tok = tables.create()
    view = tables.table(tok).view_token
    resp = client.post(f"/t/{view}/players/rename", data={"v": 0, "player": 1, "name": "Zed"}, headers=HX)
    assert resp.status_code == 403
    assert tables.table(tok).state["players"][0]["name"] == "Ana"


# -- shared actions -------------------------------------------------------------------------------

ACTIONS = [
    pytest.param("players/rename", {"player": 1, "name": "Zed"}, "Ana is now called Zed", id="rename"),
    pytest.param("players/colour", {"player": 1, "colour": "red"}, "Ana changed colour", id="colour"),
    pytest.param("players/move", {"player": 2, "step": -1}, "Bo moved one seat earlier", id="move"),
    pytest.param("players/add", {"name": "Ed"}, "Ed joined the table", id="add"),
    pytest.param("players/remove", {"player": 4}, "Di left the table", id="remove"),
    pytest.param("rename", {"name": "New name"}, "The table is now called New name", id="rename-table"),
    pytest.param("status", {"status": "playing"}, "The table is now playing", id="status"),
]


@pytest.mark.parametrize("path, data, logged", ACTIONS)
def test_each_action_answers_htmx_with_the_live_region_and_logs_itself(tables, path, data, logged):
    tok = tables.create()
    resp = tables.post(tok, path, data, page="table")
    assert resp.status_code == 200, text_of(resp)
    assert resp.get_data(as_text=True).lstrip().startswith('<div id="live"')
    assert logged in text_of(resp) and resp.headers["X-Table-Version"] == "1"


@pytest.mark.parametrize("path, data, logged", ACTIONS)
def test_each_action_without_javascript_redirects_back_to_its_page(tables, client, path, data, logged):
    tok = tables.create()
    resp = tables.post(tok, path, data, page="table", htmx=False, form_key="k")
    assert resp.status_code == 303 and resp.headers["Location"].endswith(f"/t/{tok}/table#k")
    assert logged in text_of(client.get(resp.headers["Location"]))


@pytest.mark.parametrize("path, data, form_key, message, kept", [
    pytest.param("players/rename", {"player": 1, "name": "x" * 31}, "rename-1", "Keep names to 30 characters.",
                 "x" * 31, id="rename-too-long"),
    pytest.param("players/rename", {"player": 1, "name": "  "}, "rename-1", "Enter a name.", None, id="rename-blank"),
    pytest.param("players/rename", {"player": 1, "name": "bo"}, "rename-1", "Another player already has this name.",
                 "bo", id="rename-duplicate"),
    pytest.param("players/rename", {"player": 42, "name": "Zed"}, "rename-1", "That player is not at this table.",
                 None, id="rename-unknown-player"),
    pytest.param("players/colour", {"player": 1, "colour": "mauve"}, "colour-1", "Not a valid choice", None,
                 id="colour-unknown"),
    pytest.param("players/move", {"player": 1, "step": -1}, "up-1", "That player cannot move further.", None,
                 id="move-past-the-end"),
    pytest.param("players/move", {"player": 1, "step": 3}, "up-1", "Invalid value", None, id="move-too-far"),
    pytest.param("players/add", {"name": "Ed"}, "add-player", None, None, id="add-ok-placeholder"),
    pytest.param("rename", {"name": ""}, "rename-table", "Give the table a name.", None, id="table-name-blank"),
    pytest.param("rename", {"name": "n" * 41}, "rename-table", "Keep the table name to 40 characters.", "n" * 41,
                 id="table-name-too-long"),
    pytest.param("status", {"status": "won"}, "status-x", "Not a valid choice", None, id="status-unknown"),
])
def test_bad_action_input_gets_a_message_next_to_the_field_and_keeps_what_was_typed(
        tables, path, data, form_key, message, kept):
    tok = tables.create()
    resp = tables.post(tok, path, data, page="table", form_key=form_key)
    if message is None:
        assert resp.status_code == 200
        return
    assert resp.status_code == 422, text_of(resp)
    assert message in text_of(resp)
    if kept:
        assert f'value="{kept}"' in resp.get_data(as_text=True)
    assert tables.version(tok) == 0


def test_a_missing_or_junk_version_is_refused(tables, client):
    tok = tables.create()
    for v in ("", "abc", "-1"):
        resp = client.post(f"/t/{tok}/players/rename", data={"v": v, "player": 1, "name": "Zed"}, headers=HX)
        assert resp.status_code == 422
    assert tables.version(tok) == 0


def test_players_can_only_join_or_leave_while_setting_up(tables):
    tok = tables.create()
    tables.post(tok, "status", {"status": "playing"})
    resp = tables.post(tok, "players/add", {"name": "Ed"}, page="table", form_key="add-player")
    assert resp.status_code == 422 and "only be added or removed while setting up" in text_of(resp)


def test_player_count_limits_hold_when_adding_and_removing(tables):
    tok = tables.create("sins", ["Ana", "Bo"])
    resp = tables.post(tok, "players/remove", {"player": 1}, page="table", form_key="remove-1")
    assert resp.status_code == 422 and "at least 2 players" in text_of(resp)
    for name in ("Cy", "Di", "Ed"):
        assert tables.post(tok, "players/add", {"name": name}).status_code == 200
    resp = tables.post(tok, "players/add", {"name": "Fay"}, page="table", form_key="add-player")
    assert resp.status_code == 422 and "at most 5 players" in text_of(resp)


def test_a_stale_phone_changing_the_same_thing_gets_the_fresh_table_and_keeps_its_entry(tables):
    tok = tables.create()
    tables.post(tok, "players/rename", {"player": 1, "name": "Zed"})
    resp = tables.post(tok, "players/rename", {"player": 1, "name": "Yan"}, version=0, page="table",
                       form_key="rename-1")
    assert resp.status_code == 409
    page = text_of(resp)
    assert "The table changed on another phone" in page and "Ana is now called Zed" in page
    assert 'value="Yan"' in resp.get_data(as_text=True)
    assert tables.table(tok).state["players"][0]["name"] == "Zed"


def test_a_stale_phone_changing_something_else_just_lands(tables):
    tok = tables.create()
    tables.post(tok, "players/rename", {"player": 1, "name": "Zed"})
    resp = tables.post(tok, "players/rename", {"player": 2, "name": "Yan"}, version=0)
    assert resp.status_code == 200
    assert [p["name"] for p in tables.table(tok).state["players"]][:2] == ["Zed", "Yan"]


# -- undo -----------------------------------------------------------------------------------------

def test_undo_reverts_the_latest_change_and_says_so(tables):
    tok = tables.create()
    tables.post(tok, "players/rename", {"player": 1, "name": "Zed"})
    resp = tables.undo(tok, page="table")
    assert resp.status_code == 200
    page = text_of(resp)
    assert "Undone: Ana is now called Zed" in page and "Undo: Ana is now called Zed" in page  # the log line
    assert tables.table(tok).state["players"][0]["name"] == "Ana"


def test_undo_without_javascript_redirects_and_flashes(tables, client):
    tok = tables.create()
    tables.post(tok, "players/rename", {"player": 1, "name": "Zed"})
    resp = tables.undo(tok, htmx=False)
    assert resp.status_code == 303
    assert "Undone: Ana is now called Zed" in text_of(client.get(resp.headers["Location"]))


def test_undo_with_nothing_to_undo_says_so(tables):
    tok = tables.create()
    resp = tables.post(tok, "undo", {"action": ""})
    assert resp.status_code == 409 and "There is nothing left to undo." in text_of(resp)


def test_undo_from_a_stale_phone_undoes_nothing_and_explains(tables):
    tok = tables.create()
    tables.post(tok, "players/rename", {"player": 1, "name": "Zed"})
    seen = tables.latest_action_id(tok)
    tables.post(tok, "players/rename", {"player": 2, "name": "Yan"})
    resp = tables.post(tok, "undo", {"action": seen})
    assert resp.status_code == 409 and "Nothing was undone" in text_of(resp)
    assert [p["name"] for p in tables.table(tok).state["players"]][:2] == ["Zed", "Yan"]


def test_undo_with_a_junk_action_id_is_refused(tables):
    tok = tables.create()
    assert tables.post(tok, "undo", {"action": "abc"}).status_code == 422


# -- preferences, language, CSRF, limits ----------------------------------------------------------

def test_french_is_chosen_from_the_browser_or_the_switch(tables, client):
    tok = tables.create()
    assert "Vos tables" in text_of(client.get("/", headers={"Accept-Language": "fr-FR,fr;q=0.9"}))
    resp = client.post("/prefs", data={"lang": "fr", "next": f"/t/{tok}"})
    assert resp.status_code == 303 and resp.headers["Location"].endswith(f"/t/{tok}")
    page = text_of(client.get(f"/t/{tok}/table"))
    assert "Joueurs, dans l’ordre des places" in page and "Annuler" not in page  # nothing to undo yet
    tables.post(tok, "players/rename", {"player": 1, "name": "Zed"})
    assert "Annuler : Ana s’appelle maintenant Zed" in text_of(client.get(f"/t/{tok}/table"))


def test_theme_switch_is_rendered_without_a_flash(client):
    client.post("/prefs", data={"theme": "dark", "next": "/"})
    assert 'data-theme="dark"' in client.get("/").get_data(as_text=True)
    client.post("/prefs", data={"theme": "auto", "next": "/"})
    assert 'data-theme="auto"' in client.get("/").get_data(as_text=True)


@pytest.mark.parametrize("target", ["https://evil.example/", "//evil.example/", "/\\evil", "javascript:alert(1)"])
def test_prefs_never_redirect_off_site(client, target):
    resp = client.post("/prefs", data={"theme": "dark", "next": target})
    assert resp.status_code == 303 and resp.headers["Location"] in ("/", "http://companion.test/")


def test_prefs_refuse_unknown_values(client):
    assert client.post("/prefs", data={"theme": "neon"}).status_code == 400


@pytest.fixture
def csrf_client(csrf_app):
    return csrf_app.test_client()


def test_state_changing_forms_need_the_csrf_token(csrf_app, csrf_client):
    resp = csrf_client.post("/new/sins", data={"name": "T", "players-0": "Ana", "players-1": "Bo"})
    assert resp.status_code == 400 and "This page was out of date" in text_of(resp)
    html = csrf_client.get("/new/sins").get_data(as_text=True)
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', html).group(1)
    resp = csrf_client.post("/new/sins", data={"csrf_token": token, "name": "T", "players-0": "Ana", "players-1": "Bo"})
    assert resp.status_code == 303
    tok = resp.headers["Location"].rsplit("/", 1)[1]
    resp = csrf_client.post(f"/t/{tok}/players/rename", data={"v": 0, "player": 1, "name": "Zed"}, headers=HX)
    assert resp.status_code == 400
    page = csrf_client.get(f"/t/{tok}/table").get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    resp = csrf_client.post(f"/t/{tok}/players/rename", data={"csrf_token": token, "v": 0, "player": 1, "name": "Zed"},
                            headers=HX)
    assert resp.status_code == 200


def test_oversized_requests_are_refused_politely(client):
    resp = client.post("/new/sins", data={"name": "x" * 70_000})
    assert resp.status_code == 413 and "Too much at once" in text_of(resp)


def test_wrong_method_is_405_not_500(client):
    assert client.post("/").status_code == 405


def test_a_cached_page_still_carries_each_phones_own_csrf_token(csrf_app):
    first, second = csrf_app.test_client(), csrf_app.test_client()
    html = first.get("/new/sins").get_data(as_text=True)
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', html).group(1)
    resp = first.post("/new/sins", data={"csrf_token": token, "name": "T", "players-0": "Ana", "players-1": "Bo"})
    tok = resp.headers["Location"].rsplit("/", 1)[1]
    tokens = []
    for phone in (first, second, second):  # the third render comes from the page cache
        page = phone.get(f"/t/{tok}/table").get_data(as_text=True)
        assert "placeholder" not in page
        tokens.append(re.search(r'name="csrf_token" value="([^"]+)"', page).group(1))
    for phone, token, name in ((first, tokens[0], "Zed"), (second, tokens[2], "Yan")):
        v = re.search(r'data-version="(\d+)"', phone.get(f"/t/{tok}/table").get_data(as_text=True)).group(1)
        resp = phone.post(f"/t/{tok}/players/rename", data={"csrf_token": token, "v": v, "player": 1, "name": name},
                          headers=HX)
        assert resp.status_code == 200, text_of(resp)
    # A token from one phone's session does not work for another.
    resp = first.post(f"/t/{tok}/players/rename", data={"csrf_token": tokens[2], "v": 2, "player": 2, "name": "Q"},
                      headers=HX)
    assert resp.status_code == 400


def test_the_page_a_phone_sees_is_never_stale_after_a_change(tables, client):
    tok = tables.create()
    assert "Zed" not in text_of(client.get(f"/t/{tok}/table"))
    tables.post(tok, "players/rename", {"player": 1, "name": "Zed"})
    assert "Zed" in text_of(client.get(f"/t/{tok}/table"))
    tables.undo(tok, htmx=False)
    first = text_of(client.get(f"/t/{tok}/table"))
    assert "Undone: Ana is now called Zed" in first  # the flash shows once
    assert "Undone:" not in text_of(client.get(f"/t/{tok}/table"))
