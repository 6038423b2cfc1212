"""Limits on every way in (issue 27): one new-table budget per client shared by /new, /import and a
rematch; groups a budget of their own; a table joining or leaving a group counts as a table action."""
from __future__ import annotations

import pytest

from tests.conftest import Tables, text_of

NEW = {"name": "T", "players-0": "Ana", "players-1": "Bo", "players-2": "Cy"}


@pytest.fixture
def limited(app_with):
    return app_with(RATELIMIT_ENABLED=True, LIMIT_NEW_TABLES="3 per minute", LIMIT_NEW_GROUPS="2 per minute",
                    LIMIT_TABLE_ACTIONS="4 per minute")


def _too_many(resp):
    assert resp.status_code == 429, resp.status_code
    assert resp.headers["Retry-After"].isdigit() and "Slow down a little" in text_of(resp)


def test_new_import_and_rematch_share_one_budget(limited):
    client = limited.test_client()
    tables = Tables(limited, client)
    token = tables.create("sins", names=("Ana", "Bo", "Cy"))  # 1
    exported = client.get(f"/t/{token}/export.json").get_data(as_text=True)
    assert client.post("/import", data={"text": exported}).status_code == 303  # 2
    assert client.post("/new/sins", data=NEW).status_code == 303  # 3
    _too_many(client.post("/import", data={"text": exported}))
    _too_many(client.post(f"/t/{token}/rematch", data={}))
    _too_many(client.post("/new/sins", data=NEW))
    # Looking costs nothing; another client has its own budget.
    assert client.get("/import").status_code == 200
    other = limited.test_client()
    assert other.post("/import", data={"text": exported}, environ_base={"REMOTE_ADDR": "10.0.0.9"}).status_code == 303


def test_groups_have_their_own_budget(limited):
    client = limited.test_client()
    for _ in range(2):
        assert client.post("/g", data={"name": "Friday"}).status_code == 303
    _too_many(client.post("/g", data={"name": "Friday"}))
    assert client.get("/g").status_code == 200
    # Tables are another budget.
    assert client.post("/new/sins", data=NEW).status_code == 303


def test_joining_and_leaving_a_group_counts_as_table_actions(limited):
    client = limited.test_client()
    tables = Tables(limited, client)
    token = tables.create("sins", names=("Ana", "Bo", "Cy"))
    group = client.post("/g", data={"name": "Friday"}).headers["Location"].rsplit("/", 1)[1]
    codes = [client.post(f"/t/{token}/group", data={"choice": "none" if i % 2 else "", "group": group}).status_code
             for i in range(4)]
    assert all(c in (303, 422) for c in codes), codes
    _too_many(client.post(f"/t/{token}/group", data={"choice": "none"}))
    _too_many(tables.post(token, "rename", {"name": "More"}))  # one budget with the table's other changes
