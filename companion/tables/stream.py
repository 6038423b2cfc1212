"""Push: the table's live region as it changes, as Server-Sent Events, with polling as the fallback.

A table page opens `/t/<token>/events?_page=<slug>&<the page's query>&_v=<version it shows>` (an
`EventSource`). The answer is one event per new version carrying this phone's own live region
(`id: N`, `event: region`, the HTML as `data:` lines): exactly what the phone's fetch of
`?since=` would have answered (same view function, same link, language, theme and CSRF token, from
the stream's own cookies), so a change costs one trip. The region is rendered once per (language,
page variant) per version: the page cache keeps it and a per-table lock makes the streams woken by
one change wait for the first one's render instead of rendering it each; a stream then only fills in
its phone's CSRF token. A stream that accepts gzip is compressed with one compressor for its whole
life, flushed after each event: each pushed region is compressed against the ones before it (and the
copy of the region the phone showed when the stream opened, sent once as an event no page
listens to), so on the wire a change costs about what a patch of the region would. When the region
cannot be pushed (this phone has a message waiting for it, or an old page names no `_page`) the event
is `event: version`, `data: N`, and the phone fetches its region as before. Every event carries the
whole region, so a phone that missed versions has no gap to repair. A comment every HEARTBEAT
seconds; a stream ends after STREAM_SECONDS and the phone opens the next one with the version it
has, so a phone back from sleep never misses a change.

How a worker learns of new versions (one hub per server process, shared by all its streams):

- a change made in this process wakes the table's streams at once (the `table_changed` signal);
- SQLite (one machine): one version query for every table this process has streams on, every
  LIVE_POLL_MS; no second server to run;
- PostgreSQL: LISTEN/NOTIFY on one connection per process (every change NOTIFYs), so workers on
  other machines hear it; the version query still runs, slowly, as a safety net;
- Redis pub/sub instead, when LIVE_REDIS_URL is set (and the `redis` package installed).

Held streams must never starve ordinary requests. A stream holds no database connection while it
waits, and it is only served where waiting is cheap: gevent workers (a greenlet each) or a
thread-per-request development server; anywhere else the answer is 204 and the phone polls. Streams
have caps of their own, apart from requests: at most LIVE_STREAMS_MAX per process (kept below
gunicorn's worker_connections) and LIVE_STREAMS_PER_ADDRESS per address and process. Over a cap the
answer is 503 with Retry-After, and the phone polls. The per-address connection cap of gunicorn's
worker leaves stream connections out (limits.streams_from), so streams never get a page refused.
"""
from __future__ import annotations

import logging
import os
import threading
import time
import zlib
from urllib.parse import urlencode

from flask import Blueprint, Response, abort, current_app, g, request, session
from sqlalchemy import select, text
from werkzeug.exceptions import HTTPException

from .. import limits
from ..db import get_session
from ..models import Table
from ..numbers import parse_int
from . import store
from .live import phone_csrf_token

log = logging.getLogger("companion.stream")
bp = Blueprint("stream", __name__)

CHANNEL = "companion_tables"
HEARTBEAT = 15
STREAM_SECONDS = 300
SAFETY_POLL_SECONDS = 5.0
BUSY_RETRY_SECONDS = 60
RECONNECT_MAX_SECONDS = 30  # the longest wait between tries to reach LISTEN/NOTIFY or Redis again


def defaults() -> dict:
    connections = int(os.environ.get("GUNICORN_CONNECTIONS", "500"))
    return {
        "LIVE_STREAM": True,                    # False: every phone polls
        # False: the push says only "version N" and each phone fetches its region (two trips)
        "LIVE_PUSH_REGION": os.environ.get("LIVE_PUSH_REGION", "1") != "0",
        "LIVE_POLL_MS": 50,                     # SQLite: how often a process asks for new versions
        # per process; the rest of worker_connections is for requests
        "LIVE_STREAMS_MAX": int(os.environ.get("LIVE_STREAMS_MAX") or max(0, connections - 100)),
        # per address and process: a game cafe's phones behind one router, each with a tab or two
        "LIVE_STREAMS_PER_ADDRESS": int(os.environ.get("LIVE_STREAMS_PER_ADDRESS") or "150"),
        "LIVE_REDIS_URL": os.environ.get("LIVE_REDIS_URL", ""),
    }


def _gevent_patched() -> bool:
    try:
        from gevent import monkey
    except ImportError:  # pragma: no cover - gevent is a dependency
        return False
    return monkey.is_module_patched("socket")


def _cooperative() -> bool:
    """Whether holding a stream open is cheap here: gevent (a greenlet per connection) or a
    development server with a thread per request. gthread workers have a few threads only."""
    return _gevent_patched() or request.environ.get("SERVER_SOFTWARE", "").startswith("Werkzeug")


class Hub:
    """This process's view of table versions, and the streams waiting on them."""

    def __init__(self, engine, config):
        self.engine = engine
        self.poll = max(0.02, config["LIVE_POLL_MS"] / 1000)
        self.max_streams = config["LIVE_STREAMS_MAX"]
        self.per_address = config["LIVE_STREAMS_PER_ADDRESS"]
        self.by_address: dict[str, int] = {}
        self.render_locks: dict[int, threading.Lock] = {}
        self.redis_url = config["LIVE_REDIS_URL"]
        self.dialect = engine.dialect.name
        self.versions: dict[int, int] = {}
        self.waiters: dict[int, set[threading.Event]] = {}
        self.lock = threading.Lock()
        self.streams = 0
        self.started = False
        self.redis = None

    # -- streams --------------------------------------------------------------------------------

    def admit(self, address: str) -> bool:
        """Room for one more stream from `address` (in this process, and for this address)?"""
        with self.lock:
            if self.streams >= self.max_streams or self.by_address.get(address, 0) >= self.per_address:
                return False
            self.streams += 1
            self.by_address[address] = self.by_address.get(address, 0) + 1
        self._start()
        return True

    def release(self, address: str) -> None:
        with self.lock:
            self.streams -= 1
            left = self.by_address.get(address, 0) - 1
            if left > 0:
                self.by_address[address] = left
            else:
                self.by_address.pop(address, None)

    def render_lock(self, table_id: int) -> threading.Lock:
        """One render of a table's region at a time in this process: the streams one change wakes
        find the first one's render in the page cache instead of each rendering it again."""
        with self.lock:
            return self.render_locks.setdefault(table_id, threading.Lock())

    def subscribe(self, table_id: int, version: int) -> threading.Event:
        event = threading.Event()
        with self.lock:
            self.waiters.setdefault(table_id, set()).add(event)
            if self.versions.get(table_id, -1) < version:
                self.versions[table_id] = version
        return event

    def unsubscribe(self, table_id: int, event: threading.Event) -> None:
        with self.lock:
            events = self.waiters.get(table_id)
            if events is not None:
                events.discard(event)
                if not events:
                    del self.waiters[table_id]
                    self.versions.pop(table_id, None)
                    self.render_locks.pop(table_id, None)

    def version(self, table_id: int) -> int:
        return self.versions.get(table_id, -1)

    # -- news -----------------------------------------------------------------------------------

    def publish(self, table_id: int, version: int) -> None:
        """A table reached `version` (heard from anywhere): wake its streams here."""
        with self.lock:
            if table_id not in self.waiters or self.versions.get(table_id, -1) >= version:
                return
            self.versions[table_id] = version
            events = list(self.waiters[table_id])
        for event in events:
            event.set()

    def changed(self, table_id: int, version: int) -> None:
        """A change was saved in this process: wake this process's streams, and tell the others."""
        self.publish(table_id, version)
        payload = f"{table_id}:{version}"
        try:
            if self.redis is not None:
                self.redis.publish(CHANNEL, payload)
            elif self.dialect == "postgresql":
                with self.engine.connect() as conn:
                    conn.execute(text("SELECT pg_notify(:channel, :payload)"), {"channel": CHANNEL, "payload": payload})
                    conn.commit()
        except Exception:  # noqa: BLE001 - the change is saved; the others' version query will see it
            log.warning("could not announce table %s version %s", table_id, version, exc_info=True)

    # -- listening ------------------------------------------------------------------------------

    def _start(self) -> None:
        with self.lock:
            if self.started:
                return
            self.started = True
        if self.redis_url:
            try:
                import redis  # optional: only when configured

                self.redis = redis.Redis.from_url(self.redis_url)
                threading.Thread(target=self._listen_redis, daemon=True, name="live-redis").start()
            except ImportError:
                log.error("LIVE_REDIS_URL is set but the redis package is not installed: using the database")
        if self.redis is None and self.dialect == "postgresql":
            threading.Thread(target=self._listen_postgres, daemon=True, name="live-listen").start()
        slow = self.redis is not None or self.dialect == "postgresql"
        threading.Thread(target=self._watch, args=(SAFETY_POLL_SECONDS if slow else self.poll,), daemon=True,
                         name="live-watch").start()

    def _watch(self, every: float) -> None:
        """One version query for every table this process has streams on."""
        while True:
            time.sleep(every)
            ids = list(self.waiters)
            if not ids:
                continue
            try:
                with self.engine.connect() as conn:
                    rows = conn.execute(select(Table.id, Table.version).where(Table.id.in_(ids))).all()
                    conn.rollback()
            except Exception:  # noqa: BLE001 - a busy or missing database: try again next time
                log.debug("version query failed", exc_info=True)
                continue
            for table_id, version in rows:
                self.publish(table_id, version)

    def _heard(self, payload: str) -> None:
        table_id, _sep, version = payload.partition(":")
        tid, ver = parse_int(table_id), parse_int(version)
        if tid is not None and ver is not None:
            self.publish(tid, ver)

    def _listen_postgres(self) -> None:
        import select as select_module

        import psycopg

        url = self.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
        failures = 0
        while True:
            try:
                with psycopg.connect(url, autocommit=True) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    failures = 0
                    pgconn = conn.pgconn
                    while True:
                        ready, _w, _x = select_module.select([conn.fileno()], [], [], HEARTBEAT)
                        if not ready:
                            conn.execute("SELECT 1")  # a dead connection shows here
                            continue
                        pgconn.consume_input()
                        while (note := pgconn.notifies()) is not None:
                            self._heard(note.extra.decode())
            except Exception:  # noqa: BLE001 - reconnect; the safety poll covers the gap
                failures += 1
                log.warning("LISTEN connection lost; reconnecting", exc_info=failures == 1)
                time.sleep(_backoff(failures))

    def _listen_redis(self) -> None:
        failures = 0
        while True:
            try:
                pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
                pubsub.subscribe(CHANNEL)
                failures = 0
                for message in pubsub.listen():
                    data = message.get("data")
                    if isinstance(data, bytes):
                        self._heard(data.decode())
            except Exception:  # noqa: BLE001 - reconnect; the safety poll covers the gap
                failures += 1
                log.warning("Redis subscription lost; reconnecting", exc_info=failures == 1)
                time.sleep(_backoff(failures))


def _backoff(failures: int) -> float:
    """Seconds before the next try after this many failed in a row: 1, 2, 4 ... up to 30. A server
    that is down is not asked every second by every process (the safety poll covers the gap), and
    the first try after a lost connection is still at once plus one second."""
    return float(min(RECONNECT_MAX_SECONDS, 2 ** (failures - 1)))


def hub(app=None) -> Hub:
    app = app or current_app._get_current_object()
    found = app.extensions.get("companion.live_hub")
    if found is None:
        found = app.extensions.setdefault("companion.live_hub", Hub(app.extensions["companion.engine"], app.config))
    return found


def init_app(app) -> None:
    for key, value in defaults().items():
        app.config.setdefault(key, value)
    app.register_blueprint(bp)
    from .actions import table_changed

    def on_change(sender, table=None, **_extra):
        if table is None:
            return
        # Even a process with no stream of its own tells the others (NOTIFY or Redis).
        announce = hub(sender).changed
        if _gevent_patched():
            # After this request's own answer is rendered (when its greenlet next waits): the other
            # phones then find the fresh region already in the page cache.
            import gevent

            gevent.spawn(announce, table.id, table.version)
        else:
            announce(table.id, table.version)
    table_changed.connect(on_change, app, weak=False)


def _event(version: int) -> str:
    return f"id: {version}\nevent: version\ndata: {version}\n\n"


def _region_event(version: int, html: str) -> str:
    lines = html.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    return f"id: {version}\nevent: region\n" + "".join(f"data: {line}\n" for line in lines) + "\n"


def _primer(html: str) -> str:
    """The region the phone shows, as an event no page listens to (and with no id, so the phone's
    last event id stays): it only primes the stream's compressor. Its lines are written exactly as a
    region's are, so the next region finds every line of it in the compressor's window."""
    return "event: shown\n" + _region_event(0, html).split("\n", 2)[2]


class Region:
    """This phone's live region, rendered as its fetch of the page's fragment would answer it: the
    same view function, in a request made of the stream's own (cookies, language, host, link) with
    the page's path and query and htmx's fragment headers."""

    def __init__(self, app, token: str, slug: str, args: dict):
        self.app = app
        environ = {k: v for k, v in request.environ.items()
                   if k not in ("werkzeug.request", "HTTP_ACCEPT_ENCODING", "HTTP_LAST_EVENT_ID", "HTTP_ACCEPT")}
        environ.update(REQUEST_METHOD="GET", PATH_INFO=f"/t/{token}/{slug}", QUERY_STRING=urlencode(args),
                       HTTP_HX_REQUEST="true", HTTP_HX_TARGET="live", CONTENT_LENGTH="0")
        self.environ = environ
        # The phone's CSRF token as the stream's own answer gives it (it may be setting it just now).
        self.csrf = {k: session[k] for k in ("csrf_token", "_csrf_page") if k in session}

    def render(self) -> tuple[int, str] | None:
        """(version, HTML) now, or None when it cannot be pushed (the phone fetches it instead)."""
        with self.app.request_context(dict(self.environ)):
            for key, value in self.csrf.items():
                session.setdefault(key, value)
            if request.endpoint != "tables.page" or "_flashes" in session:
                # Not a table page's address; or a message for this phone only: its fetch shows it, once.
                return None
            try:
                resp = self.app.dispatch_request()
            except HTTPException:
                return None
            if not hasattr(resp, "status_code") or resp.status_code != 200:
                return None
            version = parse_int(resp.headers.get("X-Table-Version", ""))
            return None if version is None else (version, resp.get_data(as_text=True))


class Wire:
    """What a stream writes: gzip-compressed with one compressor for the whole stream when the phone
    accepts it (each event flushed at once), else plain text."""

    def __init__(self, gzip: bool):
        self.compressor = zlib.compressobj(6, zlib.DEFLATED, 31) if gzip else None

    def __call__(self, text_: str) -> bytes:
        data = text_.encode()
        if self.compressor is None:
            return data
        return self.compressor.compress(data) + self.compressor.flush(zlib.Z_SYNC_FLUSH)

    def end(self) -> bytes:
        return self.compressor.flush() if self.compressor is not None else b""


@bp.get("/t/<token>/events")
def events(token: str):
    """The table's live region as it changes (see the module's docstring)."""
    found = store.version_by_token(get_session(), token)
    if found is None:
        abort(404)
    table_id, version = found
    if not current_app.config["LIVE_STREAM"] or not _cooperative():
        return _no_stream()
    slug = request.args.get("_page", "")[:40]
    region = None
    if slug and current_app.config["LIVE_PUSH_REGION"]:
        phone_csrf_token()  # this phone's token is in its session (a cookie set now, if it was not)
        args = {k: v for k, v in request.args.items() if not k.startswith("_") and k != "v"}
        region = Region(current_app._get_current_object(), token, slug, args)
    # The stream holds no database connection while it waits.
    db = g.pop("db_session", None)
    if db is not None:
        db.close()
    live = hub()
    address, peer = request.remote_addr or "", limits.peer_address()
    if not live.admit(address):
        return _busy()
    limits.stream_opened(peer)
    shown = parse_int(request.args.get("_v" if slug else "v", ""))
    if shown is None:  # EventSource's own reconnection says the last version it heard
        shown = parse_int(request.headers.get("Last-Event-ID", ""))
    try:
        event = live.subscribe(table_id, version)
    except BaseException:
        live.release(address)
        limits.stream_closed(peer)
        raise
    wire = Wire("gzip" in request.headers.get("Accept-Encoding", ""))

    def rendered():
        with live.render_lock(table_id):
            return region.render() if region is not None else None

    def stream():
        try:
            yield wire("retry: 2000\n\n")
            sent = shown if shown is not None else -1
            if region is not None and wire.compressor is not None and shown == live.version(table_id):
                primer = rendered()
                if primer is not None and primer[0] == shown:
                    yield wire(_primer(primer[1]))
            ends = time.monotonic() + STREAM_SECONDS
            while time.monotonic() < ends:
                event.clear()  # before reading: a version published from here on wakes the wait
                now = live.version(table_id)
                if now != sent and now >= 0:
                    pushed = rendered()
                    if pushed is not None and pushed[0] >= now:
                        sent = pushed[0]
                        yield wire(_region_event(*pushed))
                    else:
                        sent = now
                        yield wire(_event(now))
                if not event.wait(HEARTBEAT):
                    yield wire("event: ping\ndata: 1\n\n")  # a heartbeat the page can see
            yield wire.end()
        finally:
            live.unsubscribe(table_id, event)
            live.release(address)
            limits.stream_closed(peer)

    resp = Response(stream(), mimetype="text/event-stream")
    resp.headers["Cache-Control"] = "no-cache, no-transform"
    resp.headers["X-Accel-Buffering"] = "no"
    resp.headers["Vary"] = "Accept-Encoding"
    if wire.compressor is not None:
        resp.headers["Content-Encoding"] = "gzip"
    return resp


def _no_stream():
    """No stream here: the phone polls instead."""
    resp = Response("", 204)
    resp.headers["Cache-Control"] = "no-store"
    return resp


def _busy():
    """No room for one more stream (this process's cap, or this address's): said honestly, and the
    phone polls instead (an EventSource gives up on any answer but 200 with text/event-stream)."""
    resp = Response("", 503)
    resp.headers["Retry-After"] = str(BUSY_RETRY_SECONDS)
    resp.headers["Cache-Control"] = "no-store"
    return resp
