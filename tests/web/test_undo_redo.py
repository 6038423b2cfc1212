"""Undo takes back an Undo, like any change (issue 27): through the web, the table page, its button,
the History page and the French screens, with and without JavaScript."""
from __future__ import annotations

import pytest

import re

from tests.conftest import text_of

pytestmark = pytest.mark.both_databases  # undo read back from the stored log


def names(tables, tok):
    return [p["name"] for p in tables.table(tok).state["players"]][:2]


def history_lines(client, tok, **headers):
    html = client.get(f"/t/{tok}/history", headers=headers).get_data(as_text=True)
    items = re.findall(r'<li class="history-item[^"]*">(.*?)</li>', html, flags=re.S)
    return [re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", i)).strip() for i in items]


def test_undo_twice_brings_the_change_back_and_says_redone(tables, client):
    tok = tables.create()
    tables.post(tok, "players/rename", {"player": 1, "name": "Zed"})

    resp = tables.undo(tok, page="table")
    assert resp.status_code == 200 and names(tables, tok) == ["Ana", "Bo"]
    page = text_of(resp)
    assert "Undone: Ana is now called Zed" in page and "↷ Redo: Ana is now called Zed" in page

    resp = tables.undo(tok, page="table")  # the Undo of the Undo
    assert resp.status_code == 200 and names(tables, tok) == ["Zed", "Bo"]
    page = text_of(resp)
    assert "Redone: Ana is now called Zed" in page and "↶ Undo: Ana is now called Zed" in page

    resp = tables.undo(tok, page="table")
    assert resp.status_code == 200 and names(tables, tok) == ["Ana", "Bo"]

    lines = history_lines(client, tok)
    assert [re.sub(r"^\S+ \S+ \S+ UTC ", "", line) for line in lines[:4]] == [
        "Undo: Ana is now called Zed",
        "Redone: Ana is now called Zed (undone)",  # taken back by the newest
        "Undo: Ana is now called Zed",
        "Ana is now called Zed (undone)",
    ]
    for html in (client.get(f"/t/{tok}/history").get_data(as_text=True),
                 client.get(f"/t/{tok}/table").get_data(as_text=True)):
        assert "Undo: Undo" not in html and "Redone: Undo" not in html and "Undo: Redone" not in html


def test_redo_without_javascript_redirects_and_flashes(tables, client):
    tok = tables.create()
    tables.post(tok, "players/rename", {"player": 1, "name": "Zed"})
    assert tables.undo(tok, htmx=False).status_code == 303
    resp = tables.undo(tok, htmx=False)
    assert resp.status_code == 303 and names(tables, tok) == ["Zed", "Bo"]
    assert "Redone: Ana is now called Zed" in text_of(client.get(resp.headers["Location"]))


def test_the_french_screens_say_refait_and_refaire(tables, client):
    tok = tables.create()
    tables.post(tok, "players/rename", {"player": 1, "name": "Zed"})
    client.set_cookie("lang", "fr", domain="companion.test")
    tables.undo(tok)
    page = text_of(client.get(f"/t/{tok}/table"))
    assert "Refaire : " in page and "Annuler : Annuler" not in page
    tables.undo(tok)
    lines = " ".join(history_lines(client, tok))
    assert "Refait : " in lines and "Annuler : Annuler" not in lines


def test_a_stale_redo_redoes_nothing_and_explains(tables):
    tok = tables.create()
    tables.post(tok, "players/rename", {"player": 1, "name": "Zed"})
    tables.undo(tok)
    seen = tables.latest_action_id(tok)  # the undo, as this phone's Redo button shows it
    tables.post(tok, "players/rename", {"player": 2, "name": "Yan"})  # another phone, meanwhile
    resp = tables.post(tok, "undo", {"action": seen})
    assert resp.status_code == 409 and "Nothing was undone" in text_of(resp)
    assert names(tables, tok) == ["Ana", "Yan"]


def test_undo_back_to_here_still_goes_back_past_undos_and_redos(tables, client):
    tok = tables.create()
    tables.post(tok, "players/rename", {"player": 1, "name": "Zed"})
    first = tables.latest_action_id(tok)
    tables.post(tok, "players/rename", {"player": 2, "name": "Yan"})
    tables.undo(tok)
    tables.undo(tok)  # Yan again
    assert names(tables, tok) == ["Zed", "Yan"]
    resp = tables.client.post(f"/t/{tok}/history/back-to",
                              data={"v": tables.version(tok), "action": first, "sid": "p.1.back"})
    assert resp.status_code == 303 and names(tables, tok) == ["Zed", "Bo"]
    assert "1 later change undone" in text_of(client.get(resp.headers["Location"]))
    assert tables.undo(tok).status_code == 200 and names(tables, tok) == ["Zed", "Yan"]
