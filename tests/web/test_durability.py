"""Every acknowledged change survives a kill -9 of the real server (gunicorn on SQLite)."""
import re

import pytest

from tests.servers import Browser, Gunicorn

pytestmark = pytest.mark.slow


def names_on(browser, token):
    _s, _h, html = browser.get(f"/t/{token}/table")
    return re.findall(r'<strong class="player-name">([^<]*)</strong>', html)


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
