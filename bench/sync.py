#!/usr/bin/env python3
"""Tap to other phone: how long after a tap on phone A does phone B show the table's new version?

    .venv/bin/python bench/sync.py [--taps 40] [--database sqlite|postgresql|both]

Starts gunicorn as deployed (gunicorn.conf.py, gevent, 2 workers), creates a City of Five Sails
table, and opens its Players page in two real Chromium phones (Debian's chromium through
Playwright, 390x844, each its own cookies). At random moments (0.3 to 1.5 s apart) phone A taps
"+1 Influence"; the time runs from the click on A (A's clock) to the moment B's page holds the new
version (a MutationObserver on B, B's clock; both are the machine's clock through
performance.timeOrigin). B hears of it by push (Server-Sent Events) and fetches its live region;
the two phones may be served by different workers, which hear of each other's changes through the
database. For scale, the time from the click to A showing its own answer is reported too. A
benchmark, not a test: it reports figures only.
"""
from __future__ import annotations

import argparse
import contextlib
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from tests.servers import Browser, Gunicorn, private_database  # noqa: E402

THREE = ["Ana", "Bo", "Cy"]

WATCH = """target => { window.__shown = new Promise(resolve => {
  const seen = () => +document.getElementById('live').getAttribute('data-version') >= target;
  if (seen()) return resolve(performance.timeOrigin + performance.now());
  const obs = new MutationObserver(() => {
    if (seen()) { obs.disconnect(); resolve(performance.timeOrigin + performance.now()); }
  });
  obs.observe(document.querySelector('main'), {subtree: true, childList: true, attributes: true,
                                               attributeFilter: ['data-version']});
}); }"""

TAP = """i => {
  const buttons = document.querySelectorAll('button[aria-label^="One more: Influence"]');
  const at = performance.timeOrigin + performance.now();
  buttons[i % buttons.length].click();
  return at;
}"""


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * len(ordered)) - 1))]


def run(database: str, taps: int, seed: int) -> dict:
    from playwright.sync_api import sync_playwright

    env = {}
    with contextlib.ExitStack() as stack:
        if database == "postgresql":
            server = os.environ.get("TEST_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/test")
            env["DATABASE_URL"] = stack.enter_context(private_database(server, "companion_sync"))
        tmp = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        server = Gunicorn(tmp, workers=2, env=env).start()
        stack.callback(server.stop)
        token = Browser(server.url).create_table("fivesails", THREE, name="Sync bench")
        p = stack.enter_context(sync_playwright())
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        stack.callback(browser.close)
        phones = []
        for _ in range(2):
            context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True,
                                          base_url=server.url)
            page = context.new_page()
            page.goto(f"/t/{token}/players")
            phones.append(page)
        a, b = phones
        time.sleep(2)  # both phones' streams open
        rng = random.Random(seed)
        latencies, own = [], []
        for i in range(taps):
            time.sleep(rng.uniform(0.3, 1.5))
            target = int(b.locator("#live").get_attribute("data-version")) + 1
            b.evaluate(WATCH, target)  # B starts watching before A taps
            a.evaluate(WATCH, target)
            tapped = a.evaluate(TAP, i)
            shown = b.evaluate("() => window.__shown")
            latencies.append(shown - tapped)
            own.append(a.evaluate("() => window.__shown") - tapped)
        load = os.getloadavg()
    return {"database": database, "taps": len(latencies), "p50": statistics.median(latencies),
            "p95": percentile(latencies, 95), "max": max(latencies), "mean": statistics.fmean(latencies),
            "own_p50": statistics.median(own), "own_p95": percentile(own, 95), "load": load}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--taps", type=int, default=40)
    parser.add_argument("--database", choices=["sqlite", "postgresql", "both"], default="both")
    parser.add_argument("--seed", type=int, default=26)
    args = parser.parse_args()
    databases = ["sqlite", "postgresql"] if args.database == "both" else [args.database]
    print("gunicorn gevent, 2 workers; two Chromium phones at 390x844; taps 0.3-1.5 s apart\n")
    print("| database | taps | p50 ms | p95 ms | max ms | mean ms | A's own answer p50 / p95 ms | load average after |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
    for database in databases:
        r = run(database, args.taps, args.seed)
        print(f"| {database} | {r['taps']} | {r['p50']:.0f} | {r['p95']:.0f} | {r['max']:.0f} | {r['mean']:.0f} | "
              f"{r['own_p50']:.0f} / {r['own_p95']:.0f} | {', '.join(f'{x:.1f}' for x in r['load'])} |", flush=True)


if __name__ == "__main__":
    main()
