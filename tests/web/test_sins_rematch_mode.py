"""7 - The Sins: a rematch plays the way the last game did (issue 28): Penitenziagite stays on."""
from __future__ import annotations

import pytest

from tests.web.test_groups import NAMES, finish_sins


@pytest.mark.parametrize("on", [pytest.param(True, id="penitenziagite-on"), pytest.param(False, id="off")])
def test_a_rematch_keeps_penitenziagite_as_the_last_game_had_it(tables, client, on):
    token = tables.create("sins", names=NAMES)
    resp = tables.post(token, "sins/penitenziagite", {"on": 1 if on else 0}, page="setup")
    assert resp.status_code == 200
    finish_sins(tables, token)
    new = client.post(f"/t/{token}/rematch").headers["Location"].rsplit("/", 1)[1]
    assert tables.table(new).state["game"]["penitenziagite"] is on
