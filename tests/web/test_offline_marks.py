"""What the phone's offline play reads from the server (issue 33), through the test client: which
forms post to an action declared a plain increment (data-relative, rendered from the @action
declaration, so the phone never decides it), and the mark on a refused CSRF token that lets a queued
tap fetch a fresh token and go again (nothing was applied)."""
from __future__ import annotations

import re

import pytest

from companion.tables.actions import declared
from tests.conftest import HX


@pytest.fixture
def fivesails(tables):
    token = tables.create("fivesails", names=("Ana", "Bo", "Cy"))
    assert tables.post(token, "fivesails/start").status_code == 200
    return token


def forms_of(html: str) -> dict[str, bool]:
    """Each table form's id, and whether it carries data-relative."""
    out = {}
    for tag in re.findall(r"<form [^>]*>", html):
        key = re.search(r'id="([^"]+)"', tag)
        if key:
            out[key.group(1)] = " data-relative" in tag
    return out


@pytest.mark.parametrize("fragment", [False, True])
def test_only_forms_of_actions_declared_relative_outright_say_so(client, fivesails, fragment):
    resp = client.get(f"/t/{fivesails}/players", headers=HX if fragment else {})
    assert resp.status_code == 200
    forms = forms_of(resp.get_data(as_text=True))
    assert forms["infl-1"] and forms["renown-2"]  # relative=True
    assert not forms["wounds-3"]  # relative only for some taps (a function of the form): never guessed
    assert not forms["resolve-1"] and not forms["leader-1"]  # absolute


def test_the_declaration_decides(app):
    specs = declared()
    assert specs["fivesails.influence"].relative is True
    assert callable(specs["fivesails.wounds"].relative)
    assert specs["fivesails.leader_resolve"].relative is False


def test_a_view_only_link_has_no_table_forms_to_mark(client, tables, fivesails):
    view = tables.table(fivesails).view_token
    html = client.get(f"/t/{view}/players").get_data(as_text=True)
    assert "data-relative" not in html and 'hx-post="' not in html


def test_a_refused_csrf_token_is_marked_so_a_queued_tap_can_go_again(csrf_app, tables):
    client = csrf_app.test_client()
    html = client.get("/new/fivesails").get_data(as_text=True)
    token = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', html).group(1)
    resp = client.post("/new/fivesails", data={"csrf_token": token, "name": "T", "players-0": "Ana", "players-1": "Bo"})
    table = resp.headers["Location"].rsplit("/", 1)[1]
    resp = client.post(f"/t/{table}/fivesails/influence", headers=HX,
                       data={"csrf_token": "stale", "player": "1", "delta": "1", "sid": "tap-0123456789abcdef"})
    assert resp.status_code == 400 and resp.headers.get("X-Refused") == "csrf"
    assert "This page was out of date" in resp.get_data(as_text=True)
    resp = client.get(f"/t/{table}/players")
    assert resp.headers.get("X-Refused") is None
