"""Streams have caps of their own (issue 33), on the real server (gunicorn, gevent, the per-address
connection cap of gunicorn.conf.py): 300 open streams from one address and that address still gets
its pages and its taps; over the process's stream cap a new stream is answered 503 with Retry-After.

Runs on the server's own SQLite file: the caps count connections, whatever the database."""
from __future__ import annotations

import socket

import pytest

from tests.servers import Browser, Gunicorn

STREAMS = 300


def open_stream(port: int, path: str) -> tuple[socket.socket, bytes]:
    """A held stream as a phone's EventSource opens it: the answer's head, the connection kept."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=20)
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".encode())
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = sock.recv(4096)
        if not chunk:
            break
        head += chunk
    return sock, head


@pytest.fixture
def server(tmp_path):
    # One worker, so the process's stream cap is exactly the server's; CLIENT_CONNECTIONS stays at
    # its default (50 per address), far below the streams this address holds.
    gunicorn = Gunicorn(tmp_path, workers=1, env={"LIVE_STREAMS_MAX": str(STREAMS),
                                                  "LIVE_STREAMS_PER_ADDRESS": str(STREAMS)}).start()
    yield gunicorn
    gunicorn.stop()


def test_300_open_streams_from_one_address_never_refuse_its_pages_or_taps_and_one_more_gets_503(server):
    phone = Browser(server.url)
    token = phone.create_table("fivesails", ["Ana", "Bo", "Cy"], name="Caps")
    held = []
    try:
        for _ in range(STREAMS):
            sock, head = open_stream(server.port, f"/t/{token}/events?_page=players&_v=0")
            held.append(sock)
            assert head.startswith(b"HTTP/1.1 200") and b"text/event-stream" in head, head[:200]
        # The same address: a page, a fragment, a tap, each answered as usual.
        status, _h, _body = phone.get(f"/t/{token}/players")
        assert status == 200
        status, _h, _body = phone.get(f"/t/{token}/players", headers={"HX-Request": "true", "HX-Target": "live"})
        assert status == 200
        form = phone.table_form_values(token)
        status, _h, body = phone.post(f"/t/{token}/fivesails/influence",
                                      {**form, "player": 1, "delta": 1, "sid": "tap-caps-000001"},
                                      headers={"HX-Request": "true", "HX-Target": "live"})
        assert status == 200, body[:300]
        # One stream more than the process holds: said honestly, and the phone polls.
        sock, head = open_stream(server.port, f"/t/{token}/events?_page=players&_v=0")
        sock.close()
        assert head.startswith(b"HTTP/1.1 503") and b"Retry-After:" in head, head[:300]
        # Polling works meanwhile.
        status, _h, _body = phone.get(f"/t/{token}/players?since=0", headers={"HX-Request": "true", "HX-Target": "live"})
        assert status == 200
    finally:
        for sock in held:
            sock.close()
