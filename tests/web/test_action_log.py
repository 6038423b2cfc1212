"""The table's memory through the test client: no silent overwrite from a stale phone, retries that
never count twice, and the History page with "undo back to here".

The two overwrites of issue 13 are reproduced first, exactly as phones did them.
"""
from __future__ import annotations

import re

import pytest

from tests.conftest import HX, text_of
from tests.web.test_sins_pages import Sins

pytestmark = pytest.mark.both_databases  # the action log, its locks and retries


def stones(sins, name):
    return sins.gs["stones"].get(str(sins.ids()[name]), 0)


# -- the two overwrites -------------------------------------------------------------------------------

def test_a_stale_reserve_count_no_longer_wipes_stones_taken_since(tables):
    """Phone B opens Score (player 1 holds 0 stones); phone A takes two stones; B saves the reserve."""
    sins = Sins(tables)
    sins.ready()
    ids = sins.ids()
    seen_by_b = sins.doc.version
    for _ in range(2):
        assert sins.post("stone", {"player": ids["Margherita"], "delta": 1}, page="play").status_code == 200
    resp = sins.post("reserve", {"player": ids["Margherita"], "stones": 0, "invidia": 2}, page="score",
                     version=seen_by_b, form_key=f"sins-reserve-{ids['Margherita']}")
    assert resp.status_code == 409
    assert "The table changed on another phone" in text_of(resp)
    assert "took a Stone of Forgiveness" in text_of(resp)  # what changed is named
    assert stones(sins, "Margherita") == 2
    # The fresh page lets B save again, now knowingly.
    resp = sins.post("reserve", {"player": ids["Margherita"], "stones": 2, "invidia": 2}, page="score",
                     form_key=f"sins-reserve-{ids['Margherita']}")
    assert resp.status_code == 200 and stones(sins, "Margherita") == 2


def test_stale_increments_still_land_on_top_of_anything(tables):
    sins = Sins(tables)
    sins.ready()
    ids = sins.ids()
    stale = sins.doc.version
    assert sins.reserve("Bo", {"superbia": 1}).status_code == 200
    for _ in range(3):
        assert sins.post("stone", {"player": ids["Bo"], "delta": 1}, page="play", version=stale).status_code == 200
    assert stones(sins, "Bo") == 3


def others_post(tables, token, path, data=None, **kw):
    return tables.post(token, f"others/{path}", data or {}, **kw)


def test_a_stale_team_form_no_longer_blanks_a_hero_renamed_since(tables):
    token = tables.create("others", ("Sam", "Ana", "Bo"))
    team = {f"name_{h}": "" for h in range(1, 8)} | {f"controller_{h}": 0 for h in range(1, 8)}
    team.update(controller_1=2, controller_3=2, controller_5=3, controller_7=3)
    assert others_post(tables, token, "team", team, page="setup").status_code == 200
    seen_by_b = tables.version(token)
    resp = others_post(tables, token, "stats", {"hero": 1, "name": "Karl", "fight": 2, "skill": 2, "defense": 3},
                       page="heroes")
    assert resp.status_code == 200
    resp = others_post(tables, token, "team", team, page="setup", version=seen_by_b, form_key="team")
    assert resp.status_code == 409 and "The table changed on another phone" in text_of(resp)
    [karl] = [h for h in tables.table(token).state["game"]["heroes"] if h["id"] == 1]
    assert karl["name"] == "Karl"


# -- exactly once ---------------------------------------------------------------------------------------

def test_a_retried_submission_is_answered_again_but_applied_once(tables):
    sins = Sins(tables)
    sins.ready()
    ids = sins.ids()
    version = sins.doc.version
    data = {"v": version, "page": "play", "player": ids["Cy"], "delta": 1, "sid": "phone-a.7.sins-stone-3"}
    first = tables.client.post(f"/t/{sins.token}/sins/stone", data=data, headers=HX)
    again = tables.client.post(f"/t/{sins.token}/sins/stone", data=data, headers=HX)
    assert first.status_code == again.status_code == 200
    assert "1 Stone" in text_of(again) or stones(sins, "Cy") == 1
    assert stones(sins, "Cy") == 1 and sins.doc.version == version + 1
    # Without JavaScript the retry is a 303 back to the page, as the first answer was.
    nojs = tables.client.post(f"/t/{sins.token}/sins/stone", data=data)
    assert nojs.status_code == 303 and stones(sins, "Cy") == 1
    # A new submission (another id) is a new tap.
    assert tables.client.post(f"/t/{sins.token}/sins/stone", data={**data, "sid": "phone-a.8.x"},
                              headers=HX).status_code == 200
    assert stones(sins, "Cy") == 2


def test_every_table_form_carries_a_submission_id_per_phone_version_and_form(tables, client):
    sins = Sins(tables)
    html = sins.page("setup").get_data(as_text=True)
    forms = re.findall(r"<form\b.*?</form>", html, flags=re.S)
    table_forms = [f for f in forms if 'name="v"' in f]
    assert table_forms
    sids = [re.search(r'name="sid" value="([^"]+)"', f).group(1) for f in table_forms]
    assert len(set(sids)) == len(sids)
    version = sins.doc.version
    assert all(f".{version}." in s for s in sids)
    other_phone = tables.app.test_client().get(f"/t/{sins.token}/setup").get_data(as_text=True)
    assert not set(sids) & set(re.findall(r'name="sid" value="([^"]+)"', other_phone))


def test_a_retried_undo_undoes_once(tables):
    sins = Sins(tables)
    sins.ready()
    ids = sins.ids()
    for _ in range(2):
        sins.post("stone", {"player": ids["Di"], "delta": 1}, page="play")
    action = tables.latest_action_id(sins.token)
    data = {"v": sins.doc.version, "page": "play", "action": action, "sid": "phone-b.9.undo"}
    for _ in range(2):
        assert tables.client.post(f"/t/{sins.token}/undo", data=data, headers=HX).status_code == 200
    assert stones(sins, "Di") == 1


# -- the History page ------------------------------------------------------------------------------------

def sins_with_history(tables, n=5):
    sins = Sins(tables)
    sins.ready()
    ids = sins.ids()
    for i in range(n):  # the supply holds 8 stones: past that, alternate taking and giving back
        delta = 1 if i < 8 else (-1 if i % 2 == 0 else 1)
        assert sins.post("stone", {"player": ids["Bo"], "delta": delta}, page="play").status_code == 200
    return sins


def history(tables, token, **query):
    return tables.client.get(f"/t/{token}/history", query_string=query)


def test_history_is_one_tap_from_every_table_page(tables):
    sins = sins_with_history(tables, 1)
    for slug in ("setup", "play", "score", "table"):
        html = sins.page(slug).get_data(as_text=True)
        assert f'href="/t/{sins.token}/history"' in html, slug
        assert "Undo: " in html  # the one-tap Undo stays where it was


def test_history_lists_every_change_newest_first_with_its_time(tables):
    sins = sins_with_history(tables, 3)
    resp = history(tables, sins.token)
    assert resp.status_code == 200
    html = resp.get_data(as_text=True)
    items = re.findall(r'<li class="history-item[^"]*">(.*?)</li>', html, flags=re.S)
    texts = [re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", i)).strip() for i in items]
    assert len(items) == sins.doc.version
    assert "Bo took a Stone of Forgiveness" in texts[0] and "Sin types in play" in texts[-1]
    assert re.search(r'<time datetime="\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ" data-local-time>', html)
    # Every change but the newest can be gone back to.
    assert html.count("↶ Undo back to here</button>") == len(items) - 1


def test_undo_back_to_here_reverts_every_later_change_as_one_undoable_action(tables):
    sins = sins_with_history(tables, 4)
    log = tables.table(sins.token)
    version = sins.doc.version
    html = history(tables, sins.token).get_data(as_text=True)
    # The change two stones ago: its form carries the action id.
    ids = re.findall(r'name="action" value="(\d+)"', html)
    target = ids[2]  # newest first: the newest has no form, so [2] is three changes back
    resp = tables.client.post(f"/t/{sins.token}/history/back-to",
                              data={"v": version, "action": target, "sid": "p.1.back"})
    assert resp.status_code == 303
    assert stones(sins, "Bo") == 1
    page = history(tables, sins.token)
    text = text_of(page)
    assert "Went back to" in text and "3 later changes undone" in text
    assert page.get_data(as_text=True).count("<del>") == 3
    # The one-tap Undo takes the whole step back.
    assert tables.undo(sins.token).status_code == 200
    assert stones(sins, "Bo") == 4
    assert history(tables, sins.token).get_data(as_text=True).count("<del>") == 1  # only the undone revert
    del log


def test_undo_back_to_here_asks_first_when_another_phone_acted(tables):
    sins = sins_with_history(tables, 3)
    loaded = sins.doc.version
    html = history(tables, sins.token).get_data(as_text=True)
    target = re.findall(r'name="action" value="(\d+)"', html)[0]
    sins.post("stone", {"player": sins.ids()["Cy"], "delta": 1}, page="play")  # another phone, meanwhile
    resp = tables.client.post(f"/t/{sins.token}/history/back-to", data={"v": loaded, "action": target})
    assert resp.status_code == 409
    text = text_of(resp)
    assert "changed the table since this list was loaded" in text and "Cy took a Stone" in text
    assert stones(sins, "Cy") == 1
    confirm = re.search(r'<form method="post" action="[^"]+" class="confirm-back">(.*?)</form>',
                        resp.get_data(as_text=True), flags=re.S).group(1)
    data = dict(re.findall(r'name="(\w+)" value="([^"]*)"', confirm))
    assert tables.client.post(f"/t/{sins.token}/history/back-to", data=data).status_code == 303
    assert stones(sins, "Cy") == 0 and stones(sins, "Bo") == 2


@pytest.mark.parametrize("data, status", [
    ({"action": "abc"}, 422), ({"action": "²"}, 422), ({"action": ""}, 422), ({"action": "9" * 5000}, 422),
    ({"action": "999999"}, 404),
])
def test_bad_back_to_requests_are_refused_clearly(tables, data, status):
    sins = sins_with_history(tables, 2)
    resp = tables.client.post(f"/t/{sins.token}/history/back-to", data={"v": sins.doc.version, **data})
    assert resp.status_code == status
    assert stones(sins, "Bo") == 2


def test_going_back_to_the_newest_change_is_nothing_to_undo(tables):
    sins = sins_with_history(tables, 2)
    newest = tables.latest_action_id(sins.token)
    resp = tables.client.post(f"/t/{sins.token}/history/back-to", data={"v": sins.doc.version, "action": newest})
    assert resp.status_code == 409 and "Nothing after this change" in text_of(resp)


def test_history_pages_through_a_long_log(tables):
    sins = sins_with_history(tables, 40)
    first = history(tables, sins.token).get_data(as_text=True)
    second = history(tables, sins.token, page=2).get_data(as_text=True)
    assert first.count('class="history-item') == 30 and 'rel="next"' in first
    assert second.count('class="history-item') == sins.doc.version - 30 and 'rel="prev"' in second
    for bad in ("0", "x", "²", "9" * 50):
        assert history(tables, sins.token, page=bad).status_code == 200  # read as the first page
    assert history(tables, sins.token, page=99).status_code == 404


def test_the_view_only_link_reads_the_history_and_cannot_go_back(tables):
    sins = sins_with_history(tables, 2)
    view = sins.doc.view_token
    resp = tables.client.get(f"/t/{view}/history")
    assert resp.status_code == 200 and "Undo back to here" not in resp.get_data(as_text=True)
    assert "Bo took a Stone of Forgiveness" in text_of(resp)
    assert sins.token not in resp.get_data(as_text=True)
    newest = tables.latest_action_id(sins.token)
    assert tables.client.post(f"/t/{view}/history/back-to", data={"v": 1, "action": newest}).status_code == 403
    assert tables.client.get("/t/not-a-real-token-at-all-xxxxxxxxxxxxxxxxxxx/history").status_code == 404


def test_an_action_of_another_table_cannot_be_gone_back_to(tables):
    a = sins_with_history(tables, 2)
    b = sins_with_history(tables, 2)
    foreign = tables.latest_action_id(a.token)
    resp = tables.client.post(f"/t/{b.token}/history/back-to", data={"v": b.doc.version, "action": foreign})
    assert resp.status_code == 404 and stones(b, "Bo") == 2 and stones(a, "Bo") == 2


def test_a_write_lock_held_too_long_is_a_503_that_says_nothing_was_lost(tables, db_backend):
    """Another process holds SQLite's write lock: the phone waits a few seconds, then is told."""
    if db_backend != "sqlite":
        pytest.skip("holds SQLite's own file lock")
    import sqlite3

    sins = Sins(tables)
    sins.ready()
    version = sins.doc.version
    path = tables.app.config["DATABASE_URL"].removeprefix("sqlite:///")
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        resp = sins.post("stone", {"player": sins.ids()["Bo"], "delta": 1}, page="play")
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert resp.status_code == 503 and resp.headers["Retry-After"] == "5"
    assert "was not saved. Nothing was lost" in text_of(resp)
    assert sins.doc.version == version
    assert sins.post("stone", {"player": sins.ids()["Bo"], "delta": 1}, page="play").status_code == 200


def test_a_new_table_form_sent_twice_makes_one_table(client):
    data = {"name": "Friday", "players-0": "Ana", "players-1": "Bo", "players-2": "Cy", "sid": "new-form-1"}
    first = client.post("/new/sins", data=data)
    again = client.post("/new/sins", data=data)
    assert first.status_code == again.status_code == 303
    assert first.headers["Location"] == again.headers["Location"]
    other = client.post("/new/sins", data={**data, "sid": "new-form-2"})
    assert other.headers["Location"] != first.headers["Location"]
    page = client.get("/new/sins").get_data(as_text=True)
    assert re.search(r'name="sid" value="[\w-]{20,}"', page)


@pytest.mark.parametrize("query", ["token=x", "slug=y", "_external=1", "_anchor=z", "since=abc&round=2"])
def test_a_page_query_naming_url_parts_is_harmless(tables, query):
    sins = Sins(tables)
    assert tables.client.get(f"/t/{sins.token}/setup?{query}").status_code == 200
    resp = tables.client.post(f"/t/{sins.token}/sins/penitenziagite", data={"v": sins.doc.version, "on": 1,
                                                                            "page": "setup"},
                              headers={**HX, "HX-Current-URL": f"http://companion.test/t/{sins.token}/setup?{query}"})
    assert resp.status_code == 200
