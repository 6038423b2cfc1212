"""Issue 14: each input that once answered HTTP 500 now answers a 4xx with a message, on SQLite and
PostgreSQL alike. One test (or one parametrized group) per cause found by the probe."""
from __future__ import annotations

import pytest

from companion.numbers import parse_int
from companion.text import clean_line
from tests.conftest import HX, text_of

pytestmark = pytest.mark.both_databases  # values a database refuses (NUL, out of range) must answer 4xx on each

ODD_DIGITS = ["²", "①", "٣", "１", "9" * 5000, "-0x1", "1e3", "1_000", " 3 4"]


def not_server_error(resp):
    assert resp.status_code < 500, (resp.status_code, resp.get_data(as_text=True)[:800])
    return resp


def refused(resp, *statuses):
    not_server_error(resp)
    assert resp.status_code in (statuses or (400, 404, 409, 422)), resp.status_code
    return resp


# -- the strict number parser ---------------------------------------------------------------------

@pytest.mark.parametrize("raw", ODD_DIGITS + ["", "+", "-", None, True, 1.5, "3.0", "\x003"])
def test_parse_int_refuses_anything_but_ascii_digits(raw):
    assert parse_int(raw) is None


@pytest.mark.parametrize("raw, signed, value", [("0", False, 0), (" 42 ", False, 42), ("-3", True, -3),
                                                 ("+7", True, 7), ("999999999", False, 999999999), (12, False, 12)])
def test_parse_int_reads_plain_numbers(raw, signed, value):
    assert parse_int(raw, signed=signed) == value


def test_parse_int_caps_length_and_sign():
    assert parse_int("1234567890") is None  # ten digits: past any integer a phone sends
    assert parse_int("-3") is None and parse_int(-3) is None
    assert parse_int(10**9) is None


# -- cause 1: Unicode digits and giant numbers in query strings -------------------------------------

@pytest.mark.parametrize("since", ODD_DIGITS)
def test_since_query_takes_odd_digits(client, tables, since):
    token = tables.create("sins")
    resp = not_server_error(client.get(f"/t/{token}?since={since}", headers=HX))
    assert resp.status_code == 200  # not "unchanged": the page itself


@pytest.mark.parametrize("number", ODD_DIGITS)
def test_gibbon_round_query_takes_odd_digits(client, tables, number):
    token = tables.create("gibbon", names=("Ana", "Bo", "Cy"))
    assert not_server_error(client.get(f"/t/{token}/round?round={number}")).status_code == 200


@pytest.mark.parametrize("number", ODD_DIGITS)
def test_others_hero_dashboard_query_takes_odd_digits(client, tables, number):
    """Found by the staged fuzz: `?hero=①` on The Others' Heroes page once answered 500. Odd digits
    name no hero, so every dashboard shows, as for any other hero not in play."""
    token = tables.create("others", ("Sam", "Ana", "Bo"))
    tables.post(token, "others/story", {"story": "S", "story_type": "corruption", "map": ""}, page="setup")
    assert tables.post(token, "others/start", page="setup").status_code == 200
    resp = not_server_error(client.get(f"/t/{token}/heroes", query_string={"hero": number}))
    assert resp.status_code == 200 and resp.get_data(as_text=True).count('class="card dashboard"') > 1
    # An action taken from a dashboard re-renders the page its phone was on (htmx names it).
    resp = client.post(f"/t/{token}/others/forced", data={"v": tables.version(token), "page": "heroes", "hero": 1},
                       headers={**HX, "HX-Current-URL": f"http://localhost/t/{token}/heroes?hero={number}"})
    assert not_server_error(resp).status_code == 200


# -- cause 2: Unicode digits and giant numbers in forms ------------------------------------------------

@pytest.mark.parametrize("raw", ODD_DIGITS)
def test_gibbon_dealer_swap_and_counts(tables, raw):
    token = tables.create("gibbon", names=("Ana", "Bo", "Cy"))
    refused(tables.post(token, "gibbon/start", {"dealer": raw, "bookkeeper": "1"}))
    assert tables.post(token, "gibbon/start", {"dealer": "1", "bookkeeper": "2"}).status_code == 200
    refused(tables.post(token, "gibbon/round", {"round": "1", "p1_low": raw, "hat": "", "braveheart": ""}))
    refused(tables.post(token, "gibbon/round", {"round": raw}))
    refused(tables.post(token, "gibbon/swap", {"chooser": raw, "partner": "0"}))


@pytest.mark.parametrize("raw", ODD_DIGITS)
def test_sins_count_boxes(tables, raw):
    token = tables.create("sins")
    refused(tables.post(token, "sins/abyss", {"superbia": raw}, page="score"))
    refused(tables.post(token, "sins/reserve", {"player": "1", "stones": raw}, page="score"))


@pytest.mark.parametrize("raw", ODD_DIGITS)
def test_fivesails_initiative(tables, raw):
    token = tables.create("fivesails", names=("Ana", "Bo", "Cy"))
    assert tables.post(token, "fivesails/start").status_code == 200
    refused(tables.post(token, "fivesails/initiative", {"init-1": raw, "init-2": "3", "init-3": "4"}, page="day"))


@pytest.mark.parametrize("raw", ODD_DIGITS)
def test_others_fight_slots_and_numbers(tables, raw):
    token = tables.create("others", ("Sam", "Ana", "Bo"))
    refused(tables.post(token, "others/fight/apply", {"slots": raw}))
    refused(tables.post(token, "others/wound", {"hero": "1", "slot": raw}))


@pytest.mark.parametrize("raw", ["²", "9" * 5000, "99999999999999999999"])
def test_the_table_version_field(tables, raw):
    token = tables.create("sins")
    refused(tables.post(token, "rename", {"name": "New"}, version=raw))
    assert tables.table(token).name == "Test table"


# -- cause 3: Unicode digits in the JSON APIs -------------------------------------------------------

@pytest.mark.parametrize("raw", ODD_DIGITS)
def test_duel_and_corruption_apis(client, raw):
    resp = refused(client.post("/api/v1/others/corruption", json={"level": raw}), 422)
    assert resp.get_json()["errors"]["level"]
    resp = refused(client.post("/api/v1/fivesails/duel", json={"setup": {"challenger": {"renown": raw}}}), 422)
    assert resp.get_json()["errors"]


def test_gibbon_api_takes_odd_digits(client):
    rows = [{"low": "²"}, {"low": "9" * 5000}, {"low": 3}]
    resp = refused(client.post("/api/v1/gibbon/round", json={"players": rows}), 422)
    assert resp.get_json()["errors"]


# -- cause 4: a table name of only (odd) spaces --------------------------------------------------------

@pytest.mark.parametrize("name", [" ", "\t\t", "\u00a0\u00a0", "\u3000", "\u200b\u200b", "\u202e", "\u3164"])
def test_a_table_name_of_nothing_visible(client, name):
    data = {"name": name, "players-0": "Ana", "players-1": "Bo"}
    resp = refused(client.post("/new/sins", data=data), 422)
    assert "Give the table a name." in text_of(resp)
    assert 'value="Ana"' in resp.get_data(as_text=True)  # nothing typed is lost


def test_renaming_a_table_to_spaces(tables):
    token = tables.create("sins")
    resp = refused(tables.post(token, "rename", {"name": "\u00a0\u3000"}, page="table", form_key="rename-table"), 422)
    assert "Give the table a name." in text_of(resp)


# -- cause 5: nested brackets in the duel calculator --------------------------------------------------

def test_nested_brackets_in_the_duel_field(client):
    resp = refused(client.post("/fivesails/duel", data={"duel": "[" * 5000 + "]" * 5000, "action": "play"}))
    assert "could not be read" in text_of(resp) or resp.status_code == 400


# -- cause 6: a line break in form_key without htmx ----------------------------------------------------

@pytest.mark.parametrize("key", ["a\r\nSet-Cookie: x=1", "a\nb", "x" * 60 + "\n", "é#?/"])
def test_form_key_never_breaks_the_redirect(tables, key):
    token = tables.create("sins")
    version = tables.version(token)
    resp = tables.post(token, "rename", {"name": "Renamed"}, htmx=False, form_key=key)
    not_server_error(resp)
    if resp.status_code == 303:
        location = resp.headers["Location"]
        assert "\n" not in location and "\r" not in location and "Set-Cookie" not in location
    table = tables.table(token)
    # Saved at most once, and a retry does not apply it twice.
    assert table.version <= version + 1
    tables.post(token, "rename", {"name": "Renamed"}, htmx=False, form_key=key, version=version)
    assert tables.table(token).version <= version + 1


# -- cause 7: a preset id past any integer -----------------------------------------------------------

@pytest.mark.parametrize("preset", ["99999999999999999999", "9" * 5000, "²", "-1"])
def test_a_preset_id_past_any_integer(tables, preset):
    token = tables.create("others", ("Sam", "Ana", "Bo"))
    resp = refused(tables.post(token, "others/track/use", {"preset": preset}, form_key="use-preset"), 422)
    assert resp.status_code == 422


# -- cause 8: NUL bytes (PostgreSQL refuses them in text) ---------------------------------------------

def test_a_nul_byte_in_names(client, tables):
    resp = client.post("/new/sins", data={"name": "Fri\x00day", "players-0": "A\x00na", "players-1": "Bo"})
    assert resp.status_code == 303
    token = resp.headers["Location"].rsplit("/", 1)[1]
    table = tables.table(token)
    assert table.name == "Friday" and table.state["players"][0]["name"] == "Ana"
    assert tables.post(token, "rename", {"name": "\x00\x00"}).status_code == 422
    assert tables.post(token, "players/rename", {"player": "2", "name": "B\x00o2"}).status_code == 200
    assert tables.table(token).state["players"][1]["name"] == "Bo2"
    other = tables.create("others", ("Sam", "Ana", "Bo"))
    not_server_error(tables.post(other, "others/story", {"story": "St\x00ory", "story_type": "corruption"}))


# -- cause 9: a table's token on another game's routes ------------------------------------------------

GAME_POSTS = {
    "sins": ["sins/start", "sins/turn", "sins/finish"],
    "gibbon": ["gibbon/start", "gibbon/round/remove"],
    "fivesails": ["fivesails/start", "fivesails/day/next", "fivesails/duel/start"],
    "others": ["others/start", "others/round/end", "others/track/use"],
}


@pytest.mark.parametrize("table_game", list(GAME_POSTS))
def test_another_games_route_is_404(tables, table_game):
    names = ("Ana", "Bo", "Cy")
    token = tables.create(table_game, names=names)
    before = tables.table(token)
    for game, paths in GAME_POSTS.items():
        if game == table_game:
            continue
        for path in paths:
            resp = tables.post(token, path, {"round": "1", "at": "0", "preset": "1"})
            assert resp.status_code == 404, (path, resp.status_code)
    after = tables.table(token)
    assert (after.version, after.status, after.state) == (before.version, before.status, before.state)


# -- names: invisible and right-to-left ----------------------------------------------------------------

@pytest.mark.parametrize("raw, clean", [
    ("\u200bAna\u200b", "Ana"), ("\u202eanA", "anA"), ("A\u2066n\u2069a", "Ana"), ("  Bo \u00a0 Cy ", "Bo Cy"),
    ("\u200b\u200c\u200d", ""), ("\u3164", ""), ("سارا", "سارا"), ("Zoë", "Zoë"), ("👨\u200d👩", "👨\u200d👩"),
])
def test_clean_line(raw, clean):
    assert clean_line(raw) == clean


def test_an_invisible_player_is_refused(client):
    data = {"name": "T", "players-0": "\u200b\u200b", "players-1": "Bo", "players-2": "Cy"}
    resp = refused(client.post("/new/sins", data=data), 422)
    assert "Enter a name." in text_of(resp)


def test_a_right_to_left_name_stays_in_its_box(client, tables):
    token = tables.create("sins", names=("\u202eevil", "سارا"))
    html = client.get(f"/t/{token}/table").get_data(as_text=True)
    assert "\u202e" not in html
    assert '<strong class="player-name" dir="auto">سارا</strong>' in html
    tables.post(token, "players/rename", {"player": "2", "name": "مريم"})
    html = client.get(f"/t/{token}/table").get_data(as_text=True)
    assert "\u2068سارا\u2069" in html  # the log line isolates the name
