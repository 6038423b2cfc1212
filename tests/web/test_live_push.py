"""The live table on a real network (issue 26), through the test client: exactly once per tap, and
the push stream "this table is now at version N"."""
from __future__ import annotations

import pytest

from companion.tables import stream

pytestmark = pytest.mark.both_databases  # LISTEN/NOTIFY on PostgreSQL, the version query on SQLite

FIVE = ("Ana", "Bo", "Cy")


def influence(tables, token, pid=1):
    return tables.table(token).state["game"]["players"][str(pid)]["influence"]


def tap(tables, token, sid, version=None):
    return tables.post(token, "fivesails/influence", {"player": 1, "delta": 1, "sid": sid}, version=version)


def test_two_taps_with_their_own_ids_count_twice_even_from_one_page_version(tables):
    """Two tabs of one phone (one CSRF token, one page version), +1 in each: +2."""
    token = tables.create("fivesails", names=FIVE)
    seen = tables.version(token)
    assert tap(tables, token, "tap-aaaa", seen).status_code == 200
    assert tap(tables, token, "tap-bbbb", seen).status_code == 200
    assert tables.version(token) == seen + 2


def test_a_retried_tap_counts_once_even_after_the_page_was_refreshed(tables):
    """The answer was lost; the phone refreshed (a newer version) and sent the same tap again."""
    token = tables.create("fivesails", names=FIVE)
    seen = tables.version(token)
    assert tap(tables, token, "tap-cccc", seen).status_code == 200
    again = tap(tables, token, "tap-cccc", seen + 1)
    assert again.status_code == 200 and 'id="live"' in again.get_data(as_text=True)
    assert tables.version(token) == seen + 1


def test_a_retried_tap_from_a_stale_view_is_answered_as_the_first_time(tables):
    token = tables.create("fivesails", names=FIVE)
    seen = tables.version(token)
    assert tap(tables, token, "tap-dddd", seen).status_code == 200
    assert tap(tables, token, "tap-eeee").status_code == 200
    assert tap(tables, token, "tap-dddd", seen).status_code == 200
    assert tables.version(token) == seen + 2


# -- the stream ------------------------------------------------------------------------------------

def test_the_stream_of_an_unknown_table_is_404(client):
    assert client.get("/t/" + "A" * 24 + "/events").status_code == 404


def test_where_streams_are_not_cheap_the_phone_is_told_to_poll(tables):
    """The test client is neither gevent nor a thread-per-request server: 204, poll instead."""
    token = tables.create("fivesails", names=FIVE)
    resp = tables.client.get(f"/t/{token}/events")
    assert resp.status_code == 204


def test_the_table_page_says_where_to_listen_and_where_to_poll(tables):
    token = tables.create("fivesails", names=FIVE)
    html = tables.client.get(f"/t/{token}").get_data(as_text=True)
    assert f'data-live-stream="/t/{token}/events?_page=' in html
    assert "data-live-poll=" in html and "since=" in html


def read_events(body, count):
    """The first `count` events (name, data) of a stream, heartbeats left out."""
    out, buffer = [], ""
    for chunk in body:
        buffer += chunk.decode() if isinstance(chunk, bytes) else chunk
        while "\n\n" in buffer:
            block, buffer = buffer.split("\n\n", 1)
            lines = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line)
            if lines.get("event") == "version":
                out.append(int(lines["data"]))
                if len(out) == count:
                    return out
    return out


@pytest.fixture
def streams(app, monkeypatch):
    monkeypatch.setattr(stream, "_cooperative", lambda: True)
    monkeypatch.setattr(stream, "STREAM_SECONDS", 5)  # a test that waits for nothing ends soon
    # PostgreSQL's (and Redis') version query is a safety net every 5 s, as long as a test's stream:
    # quicker here, so a change that sends no NOTIFY is heard before the stream ends.
    monkeypatch.setattr(stream, "SAFETY_POLL_SECONDS", 0.05)
    app.config["LIVE_POLL_MS"] = 20
    return app


def test_the_stream_says_the_version_at_once_then_each_new_one(streams, tables):
    token = tables.create("fivesails", names=FIVE)
    assert tap(tables, token, "tap-0000").status_code == 200
    seen = tables.version(token)
    resp = tables.client.get(f"/t/{token}/events?v={seen - 1}", buffered=False)
    assert resp.status_code == 200 and resp.mimetype == "text/event-stream"
    body = resp.response
    assert read_events(body, 1) == [seen]
    assert tap(tables, token, "tap-ffff").status_code == 200
    assert read_events(body, 1) == [seen + 1]
    resp.close()
    assert stream.hub(streams).streams == 0  # the stream let go of its place


def test_a_change_made_outside_this_process_reaches_the_stream(streams, tables):
    """Another worker's change: only the database says so (the shared version query)."""
    from sqlalchemy import update

    from companion.db import get_session
    from companion.models import Table

    token = tables.create("fivesails", names=FIVE)
    seen = tables.version(token)
    resp = tables.client.get(f"/t/{token}/events?v={seen}", buffered=False)
    body = resp.response
    with streams.app_context():
        session = get_session()
        session.execute(update(Table).where(Table.token == token).values(version=seen + 5))
        session.commit()
    assert read_events(body, 1) == [seen + 5]
    resp.close()


def test_no_more_streams_than_the_cap(streams, tables):
    streams.config["LIVE_STREAMS_MAX"] = 0
    stream.hub(streams).max_streams = 0
    token = tables.create("fivesails", names=FIVE)
    resp = tables.client.get(f"/t/{token}/events")
    assert resp.status_code == 503 and int(resp.headers["Retry-After"]) > 0  # the phone polls


def test_on_postgresql_a_notify_from_another_machine_reaches_the_stream(streams, tables, db_backend):
    """LISTEN/NOTIFY: the news arrives without the table's row saying so (no query could find it)."""
    if db_backend != "postgresql":
        pytest.skip("LISTEN/NOTIFY is PostgreSQL's")
    from sqlalchemy import text

    token = tables.create("fivesails", names=FIVE)
    table = tables.table(token)
    resp = tables.client.get(f"/t/{token}/events?v={table.version}", buffered=False)
    body = resp.response
    next(body)  # the stream is open; its process's LISTEN connection may still be connecting
    import threading

    engine = streams.extensions["companion.engine"]
    heard = threading.Event()

    def notify_until_heard():
        # Waits for the event instead of a fixed sleep: the same NOTIFY again every 0.1 s until the
        # stream has answered (a NOTIFY sent before LISTEN is lost, as on a real network).
        while not heard.is_set():
            with engine.connect() as conn:
                conn.execute(text("SELECT pg_notify(:c, :p)"),
                             {"c": stream.CHANNEL, "p": f"{table.id}:{table.version + 7}"})
                conn.commit()
            heard.wait(0.1)

    sender = threading.Thread(target=notify_until_heard, daemon=True)
    sender.start()
    try:
        assert read_events(body, 1) == [table.version + 7]
    finally:
        heard.set()
        sender.join(5)
    resp.close()


@pytest.mark.parametrize("failures, seconds", [(1, 1), (2, 2), (3, 4), (5, 16), (6, 30), (50, 30)])
def test_a_lost_listen_connection_is_tried_again_sooner_first_then_every_30_seconds(failures, seconds):
    # A database or Redis that is down (or a test's database dropped while its app's listener lives
    # on) is not asked every second by every process; the safety poll covers the gap.
    assert stream._backoff(failures) == seconds
