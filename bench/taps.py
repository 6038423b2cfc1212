"""Count the taps and typed characters each table job costs a player, at 390x844 in Chromium.

    .venv/bin/python bench/taps.py                 # every job, a table to paste into the README
    .venv/bin/python bench/taps.py --only gibbon   # jobs whose name contains "gibbon"

A *job* is one thing a table does with the app ("enter a Gibbon round", "a wound to a named hero"),
performed the way a player would, through a `Thumb`. Jobs live in `bench/tapjobs/<area>.py`, one
module per area so that nobody edits another's file; each module has a list `JOBS` of `Job`s:

    from bench.taps import Job

    def wound_from_round(thumb, start):
        page = start("others", ["Ana", "Bo", "Cy", "Di"])   # a new table, not counted
        thumb.tap(page.get_by_role("button", name="Wound Ana"))
        thumb.tap(page.get_by_role("button", name="Take the wound"))

    JOBS = [Job("others: a wound to a named hero", 2, wound_from_round)]

What counts:
- `thumb.tap(locator)`: one tap (a click, a check, a chip, a tab, Next, Save).
- `thumb.type(locator, text)`: one tap to put the cursor in the box unless it already has it, one
  more to clear it when it holds something, then one per character typed.
- `thumb.choose(locator, value)`: a native select: one tap to open it, one to pick.
- Whatever a job does with `page` directly (setting a table up before the job starts, reading the
  page to check the result) is not counted. A job must check that it reached the outcome it claims
  (assert on the page), or its count means nothing.

The budget is the issue's: taps and typed characters together. `tests/e2e/test_taps.py` runs every
job and fails when one goes over its budget or stops working, so a count in the README can't rot.
"""
from __future__ import annotations

import argparse
import importlib
import os
import pkgutil
import sys
import tempfile
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

VIEWPORT = {"width": 390, "height": 844}
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage"]


@dataclass
class Job:
    name: str
    budget: int | None  # taps + typed characters; None: measured, no budget given
    run: Callable  # run(thumb, start) -> None; raises when the job didn't reach its outcome


@dataclass
class Thumb:
    """The player's thumb on one page: every tap and key press goes through here and is counted."""

    page: object
    taps: int = 0
    typed: int = 0
    steps: list[str] = field(default_factory=list)

    def tap(self, locator, note: str = "") -> None:
        locator.click()
        self.taps += 1
        self.steps.append(f"tap {note or _describe(locator)}")

    def type(self, locator, text: str) -> None:
        focused = locator.evaluate("el => el === document.activeElement")
        if not focused:
            locator.click()  # the tap that puts the cursor in the box
            self.taps += 1
        # Clearing what is there costs a tap, unless the tap selected it all (a box that selects its
        # value on focus: typing then replaces it).
        if locator.input_value() and not locator.evaluate(
                "el => el.selectionStart === 0 && el.selectionEnd === el.value.length"):
            self.taps += 1
        locator.fill(str(text))
        self.typed += len(str(text))
        self.steps.append(f"type {text!r} in {_describe(locator)}")

    def choose(self, locator, value: str) -> None:
        locator.select_option(value)
        self.taps += 2
        self.steps.append(f"choose {value!r} in {_describe(locator)}")

    @property
    def total(self) -> int:
        return self.taps + self.typed


def _describe(locator) -> str:
    try:
        return (locator.get_attribute("aria-label") or locator.inner_text() or "?").strip()[:40]
    except Exception:  # noqa: BLE001 - only a label for the trace
        return "?"


def load_jobs(only: str | None = None) -> list[Job]:
    import bench.tapjobs as pkg

    jobs = []
    for info in sorted(pkgutil.iter_modules(pkg.__path__), key=lambda m: m.name):
        module = importlib.import_module(f"bench.tapjobs.{info.name}")
        jobs.extend(getattr(module, "JOBS", []))
    return [j for j in jobs if not only or only.lower() in j.name.lower()]


def new_table(page, base_url: str, game: str, players: list[str], name: str = "Friday", **fields) -> None:
    """Create a table through the new-table form, as a player would, uncounted; land on its page."""
    page.goto(f"{base_url}/new/{game}")
    page.get_by_label("Table name").fill(name)
    for i, player in enumerate(players):
        page.locator(f"[name='players-{i}']").fill(player)
    for key, value in fields.items():
        page.locator(f"[name='{key}']").fill(str(value))
    page.get_by_role("button", name="Create table").click()
    page.wait_for_url("**/t/**")


def run_job(browser, base_url: str, job: Job, viewport=VIEWPORT) -> Thumb:
    context = browser.new_context(viewport=viewport, device_scale_factor=2, is_mobile=True, has_touch=True,
                                  locale="en-GB")
    context.set_default_timeout(10_000)
    page = context.new_page()
    thumb = Thumb(page)

    def start(game: str, players: list[str], **fields):
        new_table(page, base_url, game, players, **fields)
        return page

    try:
        job.run(thumb, start)
    finally:
        context.close()
    return thumb


class Server:
    """The app on a fresh SQLite file, served from a thread; rate limits relaxed as for benchmarks."""

    def __init__(self):
        from werkzeug.serving import make_server

        from companion import create_app
        from companion.db import migrate

        self.dir = tempfile.TemporaryDirectory(prefix="taps-", ignore_cleanup_errors=True)  # the hub may still write
        url = f"sqlite:///{self.dir.name}/taps.sqlite3"
        migrate(url)
        os.environ.setdefault("COMPANION_INSTANCE", f"{self.dir.name}/instance")
        os.environ.setdefault("COMPANION_RELAX_LIMITS", "1")
        self.app = create_app({"DATABASE_URL": url, "SECRET_KEY": "taps", "POLL_SECONDS": 30})
        self.server = make_server("127.0.0.1", 0, self.app, threaded=True)
        self.url = f"http://127.0.0.1:{self.server.server_port}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self):
        self.server.shutdown()
        self.app.extensions["companion.engine"].dispose()
        self.dir.cleanup()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", help="run the jobs whose name contains this")
    parser.add_argument("--steps", action="store_true", help="print each job's taps")
    args = parser.parse_args(argv)

    import logging

    from playwright.sync_api import sync_playwright

    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    jobs = load_jobs(args.only)
    server = Server()
    rows, failed = [], 0
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            for job in jobs:
                try:
                    thumb = run_job(browser, server.url, job)
                except Exception as exc:  # noqa: BLE001 - report and go on with the other jobs
                    failed += 1
                    rows.append((job.name, "-", "-", "-", job.budget, f"broke: {type(exc).__name__}: {exc}"[:120]))
                    continue
                within = job.budget is None or thumb.total <= job.budget
                failed += not within
                verdict = "no budget" if job.budget is None else ("within" if within else "OVER")
                rows.append((job.name, thumb.taps, thumb.typed, thumb.total, job.budget, verdict))
                if args.steps:
                    print(f"{job.name}:\n  " + "\n  ".join(thumb.steps))
            browser.close()
    finally:
        server.close()
    print(f"Chromium at {VIEWPORT['width']}x{VIEWPORT['height']}; taps and typed characters per job\n")
    print("| job | taps | typed | total | budget | |")
    print("| --- | ---: | ---: | ---: | ---: | --- |")
    for name, taps, typed, total, budget, verdict in rows:
        print(f"| {name} | {taps} | {typed} | {total} | {budget if budget is not None else '-'} | {verdict} |")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
