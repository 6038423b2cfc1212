"""Push: "this table is now at version N", as Server-Sent Events, with polling as the fallback.

A table page opens `/t/<token>/events?v=<version it shows>` (an `EventSource`). The answer is one
event per new version (`id: N`, `event: version`, `data: N`) and a comment every HEARTBEAT seconds;
on an event the phone fetches its own live region, exactly as a poll that found a change would, so
view-only links and per-phone parts stay right. A stream ends after STREAM_SECONDS and the phone
opens the next one with the version it has, so a phone back from sleep never misses a change.

How a worker learns of new versions (one hub per server process, shared by all its streams):

- a change made in this process wakes the table's streams at once (the `table_changed` signal);
- SQLite (one machine): one version query for every table this process has streams on, every
  LIVE_POLL_MS; no second server to run;
- PostgreSQL: LISTEN/NOTIFY on one connection per process (every change NOTIFYs), so workers on
  other machines hear it; the version query still runs, slowly, as a safety net;
- Redis pub/sub instead, when LIVE_REDIS_URL is set (and the `redis` package installed).

Held streams must never starve ordinary requests. A stream holds no database connection while it
waits, and it is only served where waiting is cheap: gevent workers (a greenlet each) or a
thread-per-request development server, at most LIVE_STREAMS_MAX per process (kept below gunicorn's
worker_connections). Anywhere else, or over the cap, the answer is 204 and the phone polls.
"""
from __future__ import annotations

import logging
import os
import threading
import time

from flask import Blueprint, Response, abort, current_app, g, request
from sqlalchemy import select, text

from ..db import get_session
from ..models import Table
from ..numbers import parse_int
from . import store

log = logging.getLogger("companion.stream")
bp = Blueprint("stream", __name__)

CHANNEL = "companion_tables"
HEARTBEAT = 15
STREAM_SECONDS = 300
SAFETY_POLL_SECONDS = 5.0


def defaults() -> dict:
    connections = int(os.environ.get("GUNICORN_CONNECTIONS", "500"))
    return {
        "LIVE_STREAM": True,                    # False: every phone polls
        "LIVE_POLL_MS": 50,                     # SQLite: how often a process asks for new versions
        "LIVE_STREAMS_MAX": max(0, connections - 100),  # per process; the rest is for requests
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
        self.redis_url = config["LIVE_REDIS_URL"]
        self.dialect = engine.dialect.name
        self.versions: dict[int, int] = {}
        self.waiters: dict[int, set[threading.Event]] = {}
        self.lock = threading.Lock()
        self.streams = 0
        self.started = False
        self.redis = None

    # -- streams --------------------------------------------------------------------------------

    def admit(self) -> bool:
        with self.lock:
            if self.streams >= self.max_streams:
                return False
            self.streams += 1
        self._start()
        return True

    def release(self) -> None:
        with self.lock:
            self.streams -= 1

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
        while True:
            try:
                with psycopg.connect(url, autocommit=True) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
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
                log.warning("LISTEN connection lost; reconnecting", exc_info=True)
                time.sleep(1)

    def _listen_redis(self) -> None:
        while True:
            try:
                pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
                pubsub.subscribe(CHANNEL)
                for message in pubsub.listen():
                    data = message.get("data")
                    if isinstance(data, bytes):
                        self._heard(data.decode())
            except Exception:  # noqa: BLE001 - reconnect; the safety poll covers the gap
                log.warning("Redis subscription lost; reconnecting", exc_info=True)
                time.sleep(1)


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


@bp.get("/t/<token>/events")
def events(token: str):
    """The table's versions as they come (see the module's docstring)."""
    found = store.version_by_token(get_session(), token)
    if found is None:
        abort(404)
    table_id, version = found
    # The stream holds no database connection while it waits.
    session = g.pop("db_session", None)
    if session is not None:
        session.close()
    if not current_app.config["LIVE_STREAM"] or not _cooperative():
        return _no_stream()
    live = hub()
    if not live.admit():
        return _no_stream()
    shown = parse_int(request.args.get("v", ""))
    if shown is None:  # EventSource's own reconnection says the last version it heard
        shown = parse_int(request.headers.get("Last-Event-ID", ""))
    try:
        event = live.subscribe(table_id, version)
    except BaseException:
        live.release()
        raise

    def stream():
        try:
            yield "retry: 2000\n\n"
            sent = shown if shown is not None else -1
            ends = time.monotonic() + STREAM_SECONDS
            while time.monotonic() < ends:
                event.clear()  # before reading: a version published from here on wakes the wait
                now = live.version(table_id)
                if now != sent and now >= 0:
                    sent = now
                    yield _event(now)
                if not event.wait(HEARTBEAT):
                    yield "event: ping\ndata: 1\n\n"  # a heartbeat the page can see
        finally:
            live.unsubscribe(table_id, event)
            live.release()

    resp = Response(stream(), mimetype="text/event-stream")
    resp.headers["Cache-Control"] = "no-cache, no-transform"
    resp.headers["X-Accel-Buffering"] = "no"
    return resp


def _no_stream():
    """No stream here (or no room for one): the phone polls instead."""
    resp = Response("", 204)
    resp.headers["Cache-Control"] = "no-store"
    return resp
