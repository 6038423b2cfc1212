"""Abuse limits: table creation per client, changes per table, saved tracks per table; 429 with
Retry-After and a friendly page; one environment variable relaxes them all."""
from __future__ import annotations

import pytest

from companion.config import defaults
from tests.conftest import HX, Tables, text_of

NEW = {"name": "T", "players-0": "Ana", "players-1": "Bo", "players-2": "Cy"}


@pytest.fixture
def limited(app_with):
    return app_with(RATELIMIT_ENABLED=True, LIMIT_NEW_TABLES="3 per minute", LIMIT_TABLE_ACTIONS="5 per minute",
                    LIMIT_PRESET_SAVES="1 per hour")


def test_table_creation_per_client(limited):
    client = limited.test_client()
    for _ in range(3):
        assert client.post("/new/sins", data=NEW).status_code == 303
    resp = client.post("/new/sins", data=NEW)
    assert resp.status_code == 429
    assert 1 <= int(resp.headers["Retry-After"]) <= 61
    assert "Slow down a little" in text_of(resp) and "Nothing was lost" in text_of(resp)
    # Another client is not held back by this one.
    other = limited.test_client()
    assert other.post("/new/sins", data=NEW, environ_base={"REMOTE_ADDR": "10.0.0.9"}).status_code == 303
    # Looking costs nothing.
    assert client.get("/new/sins").status_code == 200


def test_actions_per_table(limited):
    client = limited.test_client()
    tables = Tables(limited, client)
    busy, calm = tables.create("sins"), tables.create("sins")
    codes = [tables.post(busy, "rename", {"name": f"N{i}"}).status_code for i in range(6)]
    assert codes == [200] * 5 + [429]
    resp = tables.post(busy, "rename", {"name": "again"})
    assert resp.status_code == 429 and resp.headers["Retry-After"].isdigit()
    assert 'data-error-message' in resp.get_data(as_text=True)  # the page's script shows it as a toast
    assert tables.table(busy).name == "N4"
    # Another table has its own budget; reading the busy table is not limited.
    assert tables.post(calm, "rename", {"name": "Fine"}).status_code == 200
    assert client.get(f"/t/{busy}", headers=HX).status_code == 200


def test_preset_saves_per_table(limited):
    client = limited.test_client()
    tables = Tables(limited, client)
    token = tables.create("others", ("Sam", "Ana", "Bo"))
    track = {f"card_{n}": "y" for n in (2, 4)} | {f"reactions_{n}": 0 for n in range(1, 8)} | \
        {f"sin_dice_{n}": 0 for n in range(1, 8)}
    assert tables.post(token, "others/track", track, page="apocalypse").status_code == 200
    assert tables.post(token, "others/track/save", {"name": "One"}, page="apocalypse").status_code == 200
    resp = tables.post(token, "others/track/save", {"name": "Two"}, page="apocalypse")
    assert resp.status_code == 429 and "Retry-After" in resp.headers


def test_one_variable_relaxes_every_limit(monkeypatch, tmp_path):
    monkeypatch.setenv("COMPANION_RELAX_LIMITS", "1")
    assert defaults(str(tmp_path))["RATELIMIT_ENABLED"] is False
    monkeypatch.setenv("COMPANION_RELAX_LIMITS", "0")
    assert defaults(str(tmp_path))["RATELIMIT_ENABLED"] is True
    monkeypatch.setenv("LIMIT_NEW_TABLES", "2 per hour")
    monkeypatch.setenv("RATELIMIT_STORAGE_URI", "redis://cache:6379")
    config = defaults(str(tmp_path))
    assert config["LIMIT_NEW_TABLES"] == "2 per hour" and config["RATELIMIT_STORAGE_URI"] == "redis://cache:6379"


@pytest.mark.parametrize("lang, wait, said", [
    pytest.param("en", 1, "wait 1 second and try again", id="en-one"),
    pytest.param("en", 7, "wait 7 seconds and try again", id="en-many"),
    pytest.param("fr", 1, "attendez 1 seconde et réessayez", id="fr-one"),
    pytest.param("fr", 7, "attendez 7 secondes et réessayez", id="fr-many"),
])
def test_the_wait_is_said_in_the_right_number(limited, monkeypatch, lang, wait, said):
    """Issue 28, plurals: no "wait 1 seconds"."""
    monkeypatch.setattr("companion.limits.retry_after", lambda: wait)
    client = limited.test_client()
    client.set_cookie("lang", lang, domain="companion.test")
    for _ in range(3):
        client.post("/new/sins", data=NEW)
    resp = client.post("/new/sins", data=NEW)
    assert resp.status_code == 429
    assert said in " ".join(text_of(resp).replace("’", "'").split())
