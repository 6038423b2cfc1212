"""Abuse limits (Flask-Limiter): how fast one client may create tables, one table may change, one
table may save Apocalypse tracks. Over a limit the answer is 429 with Retry-After and a friendly
page (a toast on a table page, as for every error; JSON under /api/).

Settings (environment variables; the same names work in instance/config.py):

- RATELIMIT_STORAGE_URI: where the counters live. "memory://" (default: per server process, so with
  N gunicorn workers a client gets up to N times the limit) or "redis://host:6379" (shared by every
  worker and machine; needs `pip install redis`).
- LIMIT_NEW_TABLES: tables one client (IP address) may create, one budget for every way a table is
  made: /new, /import and a rematch. Default "10 per minute; 60 per day".
- LIMIT_NEW_GROUPS: groups one client may create. Default "10 per minute; 60 per day".
- LIMIT_TABLE_ACTIONS: changes one table accepts, whoever sends them. Default "60 per 10 seconds;
  2000 per hour": a busy table taps a few times a second at most.
- LIMIT_PRESET_SAVES: Apocalypse tracks one table may save. Default "5 per hour; 20 per day".
- LIMIT_RESULT_IMAGES: result images (issue 35) one client may have drawn: drawing one costs the
  server tens of milliseconds of CPU. Only a real drawing counts; an image answered from the memory
  cache or as "not modified" (304) is free. Default "60 per minute; 600 per hour": a group page
  shows at most 30.
- COMPANION_RELAX_LIMITS=1: no limits at all, for load tests, benchmarks and the test suite.

Behind a proxy set TRUST_PROXY=1, or every phone looks like the proxy's one address.

Open streams (tables/stream.py) are not requests: they have caps of their own there (per address and
per process, LIVE_STREAMS_PER_ADDRESS and LIVE_STREAMS_MAX), and the gevent worker's per-address
connection cap (gunicorn.conf.py) leaves out the connections holding a stream (`streams_from`), so
a page or a tap is never refused because the same address holds many streams.
"""
from __future__ import annotations

import collections
import os
import threading

from flask import Flask, current_app, request
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address

DEFAULTS = {
    "LIMIT_NEW_TABLES": "10 per minute; 60 per day",
    "LIMIT_NEW_GROUPS": "10 per minute; 60 per day",
    "LIMIT_TABLE_ACTIONS": "60 per 10 seconds; 2000 per hour",
    "LIMIT_PRESET_SAVES": "5 per hour; 20 per day",
    "LIMIT_RESULT_IMAGES": "60 per minute; 600 per hour",
}


def relaxed() -> bool:
    return os.environ.get("COMPANION_RELAX_LIMITS", "") not in ("", "0")


def settings() -> dict:
    """The limit settings from the environment, for config.defaults()."""
    out = {name: os.environ.get(name) or value for name, value in DEFAULTS.items()}
    out["RATELIMIT_STORAGE_URI"] = os.environ.get("RATELIMIT_STORAGE_URI") or "memory://"
    out["RATELIMIT_ENABLED"] = not relaxed()
    out["RATELIMIT_HEADERS_ENABLED"] = True  # Retry-After (and X-RateLimit-*) on a 429
    out["RATELIMIT_STRATEGY"] = "moving-window"
    return out


def _setting(name: str):
    return lambda: current_app.config[name]


def _table_token() -> str:
    return (request.view_args or {}).get("token", "")


def _not_a_table_change() -> bool:
    return request.method != "POST" or not _table_token() or request.endpoint in ("tables.forget",)


limiter = Limiter(key_func=get_remote_address)

# One budget, whichever way the table is made (/new, /import, rematch): a shared limit counts the
# POSTs of every route it decorates together.
new_tables = limiter.shared_limit(_setting("LIMIT_NEW_TABLES"), scope="new-table", key_func=get_remote_address,
                                  methods=["POST"])
new_groups = limiter.shared_limit(_setting("LIMIT_NEW_GROUPS"), scope="new-group", key_func=get_remote_address,
                                  methods=["POST"])
preset_saves = limiter.shared_limit(_setting("LIMIT_PRESET_SAVES"), scope="preset-save", key_func=_table_token)


def result_images(already_drawn):
    """The limit on drawing result images, per client: `already_drawn()` says whether this request
    is answered without drawing (from memory, or 304), which costs nothing and is never held back."""
    return limiter.shared_limit(_setting("LIMIT_RESULT_IMAGES"), scope="result-image", key_func=get_remote_address,
                                exempt_when=already_drawn)


def init_app(app: Flask) -> None:
    limiter.init_app(app)


_limited_blueprints: set[str] = set()


def limit_table_actions(app: Flask, blueprint_names) -> None:
    """Every POST to /t/<token>/... of these blueprints counts against that table's one budget.

    The blueprints are module-level objects shared by every app made in this process (the tests
    make many): each gets its limit once, and the limit reads the current app's setting.
    """
    shared = limiter.shared_limit(_setting("LIMIT_TABLE_ACTIONS"), scope="table-actions", key_func=_table_token,
                                  exempt_when=_not_a_table_change)
    for name in blueprint_names:
        if name not in _limited_blueprints:
            shared(app.blueprints[name])
            _limited_blueprints.add(name)


def retry_after() -> int:
    """Seconds until the limit this request broke lets it through again (at least 1)."""
    import time

    current = limiter.current_limit
    if current is None:
        return 60
    return max(1, int(current.reset_at - time.time()) + 1)


# Connections of this process holding a stream, by the address the connection comes from (the peer
# address, before any TRUST_PROXY rewriting: the one gunicorn's worker sees).
_stream_peers: collections.Counter = collections.Counter()
_stream_lock = threading.Lock()


def peer_address() -> str:
    """The address this request's connection comes from, as the server's worker saw it."""
    orig = request.environ.get("werkzeug.proxy_fix.orig") or {}
    return orig.get("REMOTE_ADDR") or request.environ.get("REMOTE_ADDR") or ""


def stream_opened(peer: str) -> None:
    with _stream_lock:
        _stream_peers[peer] += 1


def stream_closed(peer: str) -> None:
    with _stream_lock:
        _stream_peers[peer] -= 1
        if _stream_peers[peer] <= 0:
            del _stream_peers[peer]


def streams_from(peer: str) -> int:
    """Open streams from `peer` in this process (read by the gevent worker's connection cap)."""
    return _stream_peers.get(peer, 0)
