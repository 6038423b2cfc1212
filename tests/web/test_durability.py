"""Every acknowledged change survives a kill -9 of the real server (gunicorn on SQLite)."""
import json
import re
import sqlite3

import pytest

from tests.servers import Browser, Gunicorn

pytestmark = pytest.mark.slow


def names_on(browser, token):
    _s, _h, html = browser.get(f"/t/{token}/table")
    return re.findall(r'<strong class="player-name"[^>]*>([^<]*)</strong>', html)


def test_acknowledged_changes_survive_kill_9(tmp_path):
    server = Gunicorn(tmp_path, workers=2).start()
    try:
        phone = Browser(server.url)
        token = phone.create_table("sins", ["Ana", "Bo", "Cy", "Di"])
        acknowledged = []
        for i in range(12):
            pid = i % 4 + 1
            values = phone.table_form_values(token)
            new = f"P{pid}-{i}"
            status, _h, _body = phone.post(f"/t/{token}/players/rename",
                                           {**values, "player": pid, "name": new, "page": "table"},
                                           headers={"HX-Request": "true", "HX-Target": "live"})
            assert status == 200
            acknowledged.append((pid, new))
        # The last answer has just arrived: kill every server process without warning.
        server.kill9()
    finally:
        server.stop()

    expected = {}
    for pid, new in acknowledged:
        expected[pid] = new
    restarted = Gunicorn(tmp_path, port=server.port, workers=2).start()
    try:
        phone = Browser(restarted.url)
        assert names_on(phone, token) == [expected[1], expected[2], expected[3], expected[4]]
        _s, _h, html = phone.get(f"/t/{token}/table")
        assert html.count("is now called") >= 6  # the log shows the latest changes, none lost
        assert re.search(r'data-version="12"', html)
    finally:
        restarted.stop()


def test_kill_9_in_a_burst_of_retried_taps_loses_none_and_applies_none_twice(tmp_path):
    """A phone taps +1 Renown 30 times, each tap sent twice (a retry after a lost answer); the server
    is killed mid-burst. After the restart the phone retries every tap it never saw answered, as a
    phone would. Each tap then counts exactly once: no acknowledged tap is lost, none counts twice."""
    import threading

    server = Gunicorn(tmp_path, workers=2).start()
    phone = Browser(server.url)
    token = phone.create_table("fivesails", ["Ana", "Bo", "Cy"])
    values = phone.table_form_values(token)
    status, _h, _b = phone.post(f"/t/{token}/fivesails/start", {**values, "page": "day"})
    assert status in (200, 303)
    values = phone.table_form_values(token)
    taps = [{**values, "player": 1, "delta": 1, "page": "day", "sid": f"tap-{i}"} for i in range(30)]
    acknowledged: set[int] = set()
    twelve_in = threading.Event()

    def burst():
        for i, data in enumerate(taps):
            for _attempt in range(2):
                try:
                    status, _h, _b = phone.post(f"/t/{token}/fivesails/renown", data, headers=HX)
                except OSError:
                    continue  # the server is gone: the phone will retry later
                if status == 200:
                    acknowledged.add(i)
            if len(acknowledged) >= 12:
                twelve_in.set()

    worker = threading.Thread(target=burst)
    try:
        worker.start()
        assert twelve_in.wait(60)
        server.kill9()
        worker.join(120)
    finally:
        server.stop()
    assert 12 <= len(acknowledged) < 30, "the kill must land in the middle of the burst"

    restarted = Gunicorn(tmp_path, port=server.port, workers=2).start()
    try:
        for i, data in enumerate(taps):  # every tap again: acknowledged ones must not count twice
            status, _h, _b = phone.post(f"/t/{token}/fivesails/renown", data, headers=HX)
            assert status == 200
    finally:
        restarted.stop()
    db = sqlite3.connect(tmp_path / "companion.sqlite3")
    state = json.loads(db.execute("SELECT state FROM game_table WHERE token = ?", (token,)).fetchone()[0])
    taps_logged = db.execute("SELECT COUNT(*) FROM table_action WHERE kind = 'renown'").fetchone()[0]
    db.close()
    assert state["game"]["players"]["1"]["renown"] == 30 and taps_logged == 30


HX = {"HX-Request": "true", "HX-Target": "live"}
