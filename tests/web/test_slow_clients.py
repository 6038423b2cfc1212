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
