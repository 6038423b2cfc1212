"""Start the real server (gunicorn with gunicorn.conf.py) and talk to it like a phone does.

Used by the durability test and by bench/run.py.
"""
from __future__ import annotations

import contextlib
import http.cookiejar
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Gunicorn:
    """gunicorn in its own process group, so a test can kill -9 every process of it at once."""

    def __init__(self, instance: Path, port: int | None = None, workers: int = 2, env: dict | None = None):
        self.instance = instance
        self.port = port or free_port()
        self.workers = workers
        self.env = env or {}
        self.proc: subprocess.Popen | None = None
        self.url = f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 90, ready: str = "/healthz") -> "Gunicorn":
        """Start and wait for `ready` (/healthz; a server meant to be unhealthy, e.g. on a read-only
        database, waits for /ping) to answer 200. The wait is generous (a loaded 2-core CI box runs
        the migrations and boots gevent workers slowly); it bounds a hang, it measures nothing."""
        env = {**os.environ, "COMPANION_RELAX_LIMITS": "1",  # benchmarks and tests go faster than any table
               "COMPANION_INSTANCE": str(self.instance), "HOST": "127.0.0.1", "PORT": str(self.port),
               "WEB_CONCURRENCY": str(self.workers), **self.env}
        if "DATABASE_URL" not in self.env:
            env.pop("DATABASE_URL", None)  # this server's own SQLite file, whatever the shell says
        self.log = open(self.instance / "gunicorn.log", "ab")
        self.proc = subprocess.Popen([sys.executable, "-m", "gunicorn", "-c", str(ROOT / "gunicorn.conf.py")],
                                     cwd=ROOT, env=env, stdout=self.log, stderr=self.log, start_new_session=True)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                self.stop()
                raise RuntimeError(f"gunicorn exited: {self.log_tail()}")
            try:
                with urllib.request.urlopen(self.url + ready, timeout=1) as resp:
                    if resp.status == 200:
                        return self
            except (urllib.error.URLError, ConnectionError, socket.timeout):
                time.sleep(0.1)
        self.stop()  # no server or open log left behind for the next test to trip on
        raise RuntimeError(f"gunicorn did not answer {ready} within {timeout:.0f} s: {self.log_tail()}")

    def log_tail(self) -> str:
        return (self.instance / "gunicorn.log").read_text(errors="replace")[-2000:]

    def kill9(self) -> None:
        """SIGKILL every process of the server at once: no shutdown code runs."""
        os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)
        self.log.close()

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(5)
        if not self.log.closed:
            self.log.close()


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


class Browser:
    """A phone without JavaScript: cookies, CSRF tokens read from the page, no redirects followed."""

    def __init__(self, base: str):
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar), _NoRedirect)

    def request(self, method: str, path: str, data: dict | None = None, headers: dict | None = None):
        body = urllib.parse.urlencode(data).encode() if data is not None else None
        req = urllib.request.Request(self.base + path, data=body, method=method, headers=headers or {})
        try:
            resp = self.opener.open(req, timeout=10)
        except urllib.error.HTTPError as err:
            resp = err
        with resp:
            return resp.status, dict(resp.headers), resp.read().decode("utf-8", "replace")

    def get(self, path, **kw):
        return self.request("GET", path, **kw)

    def post(self, path, data, **kw):
        return self.request("POST", path, data=data, **kw)

    def csrf(self, path: str) -> str:
        _status, _headers, html = self.get(path)
        return re.search(r'name="csrf_token"[^>]*value="([^"]+)"', html).group(1)

    def create_table(self, game: str, names: list[str], name: str = "Bench") -> str:
        token = self.csrf(f"/new/{game}")
        data = {"csrf_token": token, "name": name, **{f"players-{i}": n for i, n in enumerate(names)}}
        status, headers, body = self.post(f"/new/{game}", data)
        assert status == 303, body[:500]
        return headers["Location"].rstrip("/").rsplit("/", 1)[1]

    def table_form_values(self, table_token: str) -> dict:
        """CSRF token and version as a fresh page carries them."""
        _status, _headers, html = self.get(f"/t/{table_token}/table")
        return {"csrf_token": re.search(r'name="csrf_token" value="([^"]+)"', html).group(1),
                "v": re.search(r'data-version="(\d+)"', html).group(1)}


@contextlib.contextmanager
def private_database(server_url: str, prefix: str = "companion_test", *, migrate_to: str | None = "head"):
    """A PostgreSQL database of its own on `server_url`'s server, dropped afterwards: yields its URL.

    `migrate_to` is the Alembic revision to bring it to (None: leave it empty)."""
    from alembic import command
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    from companion.db import alembic_config, normalize_url

    server = make_url(normalize_url(server_url))
    name = f"{prefix}_{uuid.uuid4().hex[:12]}"
    admin = create_engine(server, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    url = server.set(database=name).render_as_string(hide_password=False)
    try:
        if migrate_to:
            command.upgrade(alembic_config(url), migrate_to)
        yield url
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()
