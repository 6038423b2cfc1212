"""Two phones with stale views acting through the real routes of every game, in random orders.

The oracle reads the table after every answer and diffs the documents itself (no store code): an
acknowledged change from a phone that had missed a change to an overlapping value would be a
silent overwrite, and must never happen; a refusal must name only changes the phone missed; and a
retry of the same submission must never count twice.
"""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.tables import store
from tests.conftest import HX
from tests.web.test_action_log_properties import GAMES, overlap, written

pytestmark = pytest.mark.both_databases  # concurrent stale phones: locking and the log

# Actions valid on a new table of each game: (route, form data builder, what the form sets).
SHARED = [
    ("players/rename", lambda n: {"player": n % 3 + 1, "name": f"P{n % 4}", "page": "table"}),
    ("rename", lambda n: {"name": f"Table {n % 3}", "page": "table"}),
]
OWN = {
    "sins": [("sins/tick", lambda n: {"step": "ABCDE"[n % 5], "done": n // 5 % 2, "page": "setup"}),
             ("sins/penitenziagite", lambda n: {"on": n % 2, "page": "setup"})],
    "gibbon": [("gibbon/tick", lambda n: {"step": ("deck", "hat", "mask")[n % 3], "done": n // 3 % 2, "page": "setup"})],
    "others": [("others/setup/tick", lambda n: {"step": ("roles", "sin", "story")[n % 3], "done": n // 3 % 2,
                                                "page": "setup"})],
    "fivesails": [],
}

step = st.tuples(st.integers(0, 1), st.integers(0, 10**4), st.booleans(), st.booleans())


@pytest.mark.parametrize("game", sorted(GAMES))
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=st.lists(step, min_size=2, max_size=14))
def test_real_actions_from_two_stale_phones_never_overwrite_silently(tables, game, steps):
    token = tables.create(game, GAMES[game])
    actions = SHARED + OWN[game]
    docs = {0: store.snapshot(tables.table(token))}
    wrote = {}
    seen = [0, 0]
    for phone, pick, look_first, retry in steps:
        if look_first:
            seen[phone] = max(docs)
        route, data = actions[pick % len(actions)]
        body = {"v": seen[phone], "sid": f"phone{phone}-{len(wrote)}-{pick}", **data(pick)}
        resp = tables.client.post(f"/t/{token}/{route}", data=body, headers=HX)
        if retry:  # the answer was lost: the phone sends the very same submission again
            again = tables.client.post(f"/t/{token}/{route}", data=body, headers=HX)
            assert again.status_code == resp.status_code
        table = tables.table(token)
        latest = max(docs)
        assert resp.status_code in (200, 409, 422), resp.get_data(as_text=True)[:300]
        if resp.status_code == 200:
            assert table.version in (latest, latest + 1), "a retry counted twice"
            if table.version == latest + 1:
                docs[table.version] = store.snapshot(table)
                wrote[table.version] = written(docs[latest], docs[table.version])
                missed = [v for v in range(seen[phone] + 1, table.version) if overlap(wrote[v], wrote[table.version])]
                assert not missed, f"{route} from a phone at v{seen[phone]} overwrote changes {missed} it never saw"
            seen[phone] = table.version
        elif resp.status_code == 409:
            assert table.version == latest and seen[phone] < latest, "refused with nothing missed"
            seen[phone] = latest
        else:
            assert table.version == latest
    assert store.snapshot(tables.table(token)) == docs[max(docs)]
