"""Eight phones tap while a ninth archives the table, replaces its edit link or deletes it (issue 27).

Archive, rotation and delete take the table's write lock, and every change checks again, under that
lock, the link it came through and the archived flag (tables/guard.py). So a tap that lost the race
is answered with a clear 4xx and writes nothing: zero writes after the lifecycle change was
acknowledged, zero 5xx. Runs on SQLite and, with TEST_DATABASE_URL, on PostgreSQL.

Two shapes of the race: a forced one, where every tap has opened the table (token and archived flag
checked) before the ninth phone acts and only asks for the lock after its answer; and a free one,
where the taps keep coming, bounded in count, around the lifecycle change.
"""
from __future__ import annotations

import threading

import pytest

from companion.db import get_session
from companion.models import Action, Table
from companion.tables import live
from tests.conftest import HX

pytestmark = pytest.mark.both_databases  # archive, rotation and delete under each database's table lock

PHONES = 8
LIFECYCLE = {
    # what the ninth phone does, what it posts, and what a tap that lost the race is answered
    "archive": ("archive", {"archive": 1, "page": "table"}, 423),
    "rotate": ("link/rotate", {"page": "table"}, 410),
    "delete": ("delete", {}, 410),
}


def _started_table(tables) -> str:
    token = tables.create("fivesails", names=("Ana", "Bo", "Cy"))
    assert tables.post(token, "fivesails/start", page="day").status_code == 200
    return token


def _tap(client, token, version, n):
    """+1 Influence: an increment, so eight phones' taps all land while nothing else happens."""
    return client.post(f"/t/{token}/fivesails/influence",
                       data={"v": version, "player": 1 + n % 3, "delta": 1, "page": "day", "sid": f"tap-{n}"},
                       headers=HX)


def _actions_after(app, table_id, version) -> list[str]:
    with app.app_context():
        return [a.kind for a in get_session().query(Action)
                .filter(Action.table_id == table_id, Action.version > version)]


def _version(app, table_id) -> int | None:
    with app.app_context():
        table = get_session().get(Table, table_id)
        return table.version if table else None


@pytest.mark.parametrize("what", sorted(LIFECYCLE))
def test_taps_that_checked_the_table_before_the_lifecycle_change_write_nothing_after_it(
        app, tables, monkeypatch, what):
    token = _started_table(tables)
    table = tables.table(token)
    version = table.version
    opened = threading.Semaphore(0)
    go = threading.Event()
    real_open = live.open_table

    def open_then_wait(tok, *, edit):
        found = real_open(tok, edit=edit)  # the link and the archived flag are checked here...
        if threading.current_thread() is threading.main_thread():
            return found  # the ninth phone
        opened.release()
        assert go.wait(60)  # ...and the lock is asked for only after the lifecycle change's answer
        return found

    monkeypatch.setattr(live, "open_table", open_then_wait)
    answers: list[int] = []

    def phone(n):
        answers.append(_tap(app.test_client(), token, version, n).status_code)

    threads = [threading.Thread(target=phone, args=(n,)) for n in range(PHONES)]
    for th in threads:
        th.start()
    try:
        for _ in range(PHONES):
            assert opened.acquire(timeout=60)
        path, data, refused = LIFECYCLE[what]
        ack = tables.post(token, path, data)
        assert ack.status_code in (200, 204), ack.get_data(as_text=True)[:300]
        acknowledged = _version(app, table.id)
    finally:
        go.set()
        for th in threads:
            th.join(60)
    assert answers == [refused] * PHONES
    if what == "delete":
        assert acknowledged is None and _version(app, table.id) is None
    else:
        assert _actions_after(app, table.id, acknowledged) == []
        assert _version(app, table.id) == acknowledged


@pytest.mark.parametrize("what", sorted(LIFECYCLE))
def test_eight_phones_tapping_through_a_lifecycle_change(app, tables, what):
    """Taps keep coming (40 per phone at most) while the ninth phone acts once eight have landed."""
    token = _started_table(tables)
    table = tables.table(token)
    version = table.version
    landed = threading.Semaphore(0)
    acked = threading.Event()
    answers: list[tuple[bool, int]] = []  # (sent after the acknowledgement?, status)
    lock = threading.Lock()

    def phone(n):
        client = app.test_client()
        after = 0
        for i in range(40):
            sent_after = acked.is_set()
            status = _tap(client, token, version, n * 100 + i).status_code
            with lock:
                answers.append((sent_after, status))
            if status == 200:
                landed.release()
            if sent_after:
                after += 1
                if after >= 5:
                    return

    threads = [threading.Thread(target=phone, args=(n,)) for n in range(PHONES)]
    for th in threads:
        th.start()
    try:
        for _ in range(PHONES):
            assert landed.acquire(timeout=60)
        path, data, _refused = LIFECYCLE[what]
        ack = tables.post(token, path, data)
        assert ack.status_code in (200, 204), ack.get_data(as_text=True)[:300]
        acknowledged = _version(app, table.id)
        acked.set()
    finally:
        acked.set()
        for th in threads:
            th.join(120)
    statuses = [s for _after, s in answers]
    assert not [s for s in statuses if s >= 500], statuses
    assert all(s in (200, 404, 409, 410, 423) for s in statuses), statuses
    # Sent after the answer: refused, every one.
    assert all(s != 200 for after, s in answers if after)
    if what == "delete":
        assert _version(app, table.id) is None
    else:
        assert _actions_after(app, table.id, acknowledged) == []
