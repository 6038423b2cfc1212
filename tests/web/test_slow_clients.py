"""Slow clients can't stall the server: while 8 connections trickle their request bodies a byte at
a time (and 8 more never finish their headers), a normal phone still gets its page.

Runs the real server (gunicorn.conf.py, as scripts/serve and the Dockerfile do)."""
from __future__ import annotations

import socket
import threading
import urllib.request

import pytest

from tests.servers import Gunicorn

pytestmark = pytest.mark.slow
TRICKLERS = 8


def _trickle(port: int, stop: threading.Event, body: bool) -> None:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=30) as s:
            if body:
                s.sendall(b"POST /new/sins HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                          b"Content-Length: 100000\r\n\r\n")
            else:
                s.sendall(b"GET /ping HTTP/1.1\r\n")
            while not stop.wait(0.5):
                s.sendall(b"a" if body else b"X-Slow: 1\r\n")
    except OSError:
        pass  # the server may close a connection it judges too slow: that is fine too


def test_trickling_clients_do_not_block_a_normal_request(tmp_path):
    server = Gunicorn(tmp_path, workers=1).start()
    stop = threading.Event()
    threads = [threading.Thread(target=_trickle, args=(server.port, stop, i % 2 == 0), daemon=True)
               for i in range(TRICKLERS * 2)]
    try:
        for t in threads:
            t.start()
        # Every slow connection is open and sending before the phone asks.
        stop.wait(2)
        for path in ("/ping", "/", "/new/sins", "/healthz"):
            # The timeout only keeps a broken server from hanging the suite; a stalled server fails here.
            with urllib.request.urlopen(server.url + path, timeout=10) as resp:
                assert resp.status == 200
    finally:
        stop.set()
        server.stop()


SWARM = 2000
SWARM_ADDRESS = "127.0.0.2"  # one client: all its connections come from one loopback address


def _open_swarm(port: int) -> list[socket.socket]:
    """2,000 connections from one address, each starting a request it never finishes: half a POST
    whose body trickles, half headers that never end."""
    swarm = []
    for i in range(SWARM):
        s = socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(SWARM_ADDRESS, 0))
        s.setblocking(False)
        try:
            s.send(b"POST /new/sins HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                   b"Content-Length: 100000\r\n\r\na" if i % 2 else b"GET /ping HTTP/1.1\r\nX-Slow: 1\r\n")
        except OSError:
            pass  # already answered and closed: over the cap
        swarm.append(s)
    return swarm


def _trickle_round(swarm: list[socket.socket]) -> int:
    """One more byte on every connection still open; returns how many the server has let go of
    (answered 429 and closed, or closed)."""
    let_go = 0
    for i, s in enumerate(swarm):
        try:
            data = s.recv(200)
            if data == b"" or data.startswith(b"HTTP/1.1 429"):
                let_go += 1
                continue
        except BlockingIOError:
            pass
        except OSError:
            let_go += 1
            continue
        try:
            s.send(b"a" if i % 2 else b"X-Slow: 1\r\n")
        except BlockingIOError:
            pass
        except OSError:
            let_go += 1
    return let_go


def test_two_thousand_trickling_connections_from_one_client_leave_room_for_a_phone(tmp_path):
    """The per-address cap (gunicorn.conf.py): one client's 2,000 slow connections hold at most
    GUNICORN_CLIENT_CONNECTIONS of a worker's slots, the rest are answered 429 and closed; a normal
    phone (another address) gets its page and its tap saved meanwhile."""
    from tests.servers import Browser

    server = Gunicorn(tmp_path, workers=1, env={"GUNICORN_CLIENT_CONNECTIONS": "50"}).start()
    swarm: list[socket.socket] = []
    try:
        phone = Browser(server.url)
        token = phone.create_table("sins", ["Ana", "Bo", "Cy"])
        swarm = _open_swarm(server.port)
        let_go = 0
        for _round in range(40):  # bounded: each round trickles a byte on every held connection
            let_go = _trickle_round(swarm)
            if let_go >= SWARM - 50:
                break
            threading.Event().wait(0.25)
        assert let_go >= SWARM - 50, let_go
        # The swarm still holds its 50 connections, trickling: a phone's page and tap go through.
        status, _h, _b = phone.get(f"/t/{token}/table")
        assert status == 200
        values = phone.table_form_values(token)
        status, _h, body = phone.post(f"/t/{token}/players/rename",
                                      {**values, "player": 1, "name": "Ana B", "page": "table"})
        assert status == 303, body[:300]
        assert _trickle_round(swarm) < SWARM  # some of the swarm is still held, as it should be
    finally:
        for s in swarm:
            s.close()
        server.stop()


def test_a_body_that_stops_arriving_is_a_4xx_not_a_500(client):
    """gunicorn's read timeout raises inside the app's body read (socket.timeout): the client's
    fault. werkzeug reads it as a client that went away: 400."""
    import io

    class Stalled(io.RawIOBase):
        def readable(self):
            return True

        def readinto(self, _buffer):
            raise TimeoutError("timed out")

    resp = client.post("/new/sins", data=b"", content_type="application/x-www-form-urlencoded",
                       environ_overrides={"wsgi.input": Stalled(), "CONTENT_LENGTH": "100"})
    assert resp.status_code == 400
