"""Browser tests: a live server on a temporary SQLite database, Debian's Chromium driven by Playwright
at the two phone sizes, and checks every visited page must pass (axe, tap targets, no sideways
scrolling, no console or CSP errors)."""
from __future__ import annotations

import logging
import os
import pathlib
import threading

import pytest
from playwright.sync_api import sync_playwright
from werkzeug.serving import make_server

from companion import create_app
from companion.db import migrate

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage"]
PHONES = {"390x844": {"width": 390, "height": 844}, "360x640": {"width": 360, "height": 640}}


def pytest_collection_modifyitems(items):
    here = pathlib.Path(__file__).parent
    for item in items:
        if here in pathlib.Path(item.fspath).parents:
            item.add_marker(pytest.mark.e2e)


logging.getLogger("werkzeug").setLevel(logging.WARNING)


class LiveServer:
    def __init__(self, app):
        self.app = app
        self.server = make_server("127.0.0.1", 0, app, threaded=True)
        self.url = f"http://127.0.0.1:{self.server.server_port}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def start(self):
        self.thread.start()
        return self

    def stop(self):
        self.server.shutdown()
        self.thread.join(5)


@pytest.fixture(scope="session")
def live_server(tmp_path_factory):
    root = tmp_path_factory.mktemp("live")
    url = f"sqlite:///{root / 'live.sqlite3'}"
    migrate(url)
    os.environ.setdefault("COMPANION_INSTANCE", str(root / "instance"))
    app = create_app({"DATABASE_URL": url, "SECRET_KEY": "e2e-secret", "POLL_SECONDS": 1})
    server = LiveServer(app).start()
    yield server
    server.stop()
    app.extensions["companion.engine"].dispose()


@pytest.fixture(scope="session")
def playwright_instance():
    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="session")
def browser(playwright_instance):
    if not pathlib.Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: scripts/test installs Debian's chromium package")
    browser = playwright_instance.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    yield browser
    browser.close()


@pytest.fixture(params=list(PHONES), ids=list(PHONES))
def phone(request):
    return PHONES[request.param]


class Phone:
    """One phone at the table: a browser context with its own cookies, and checks on each page."""

    def __init__(self, browser, viewport, base_url, service_workers="allow"):
        # service_workers="block" for a test that routes a request: one the page's service worker
        # handles never reaches page.route.
        self.context = browser.new_context(viewport=viewport, device_scale_factor=2, is_mobile=True,
                                           has_touch=True, base_url=base_url, locale="en-GB",
                                           service_workers=service_workers)
        self.context.set_default_timeout(10_000)
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("console", self._console)
        self.page.on("pageerror", lambda exc: self.errors.append(f"page error: {exc}"))

    def _console(self, msg):
        # A 4xx answer to a form is expected and shown to the player; Chrome still logs it.
        if msg.type == "error" and "Failed to load resource" not in msg.text:
            self.errors.append(msg.text)

    def close(self):
        self.context.close()


@pytest.fixture
def make_phone(browser, phone, live_server):
    phones = []

    def factory(viewport=None, service_workers="allow"):
        p = Phone(browser, viewport or phone, live_server.url, service_workers)
        phones.append(p)
        return p

    yield factory
    errors = [e for p in phones for e in p.errors]
    for p in phones:
        p.close()
    assert not errors, f"console errors: {errors}"


@pytest.fixture
def page(make_phone):
    return make_phone().page
