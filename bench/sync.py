#!/usr/bin/env python3
"""Tap to other phone: how long after a tap on phone A does phone B show the table's new version?

    .venv/bin/python bench/sync.py [--taps 40] [--latency 300] [--rate 50000] [--only ROW ...]

Starts gunicorn as deployed (gunicorn.conf.py, gevent), creates a City of Five Sails table, and
opens its Players page in two real Chromium phones (Debian's chromium through Playwright, 390x844,
each its own cookies). At random moments (0.3 to 1.5 s apart) phone A taps "+1 Influence"; the time
runs from the click on A (A's clock) to the moment B's page holds the new version (a
MutationObserver on B, B's clock; both are the machine's clock through performance.timeOrigin). B
hears of it by push (Server-Sent Events): the push carries B's own live region (one trip), or, in
the "version only" row, says only the version and B fetches its region (two trips, as before issue
33). For scale, the time from the click to A showing its own answer is reported too.

Rows, all in one run (each its own fresh server and database):
- sqlite / postgresql: the deployed shape (one gunicorn, 2 workers: A and B may be on either);
- postgresql, one process / two processes: one gunicorn with 1 worker for both phones, against two
  gunicorns of 1 worker each on one database, A on the first and B on the second (the change crosses
  by LISTEN/NOTIFY); the ratio of their p95s is printed;
- through the proxy (bench/netem.py): each phone on its own link of --latency ms round trip and
  --rate bytes/s each way, so its pages, taps, stream and service worker all cross the slow link.
  The floor of a tap is what that link implies for one trip: half the round trip up for A's tap,
  half down for B's push, plus the bytes of both at the link's rate (counted by the proxies, per
  tap: all of A's bytes up, B's bytes down on its stream); p50/p95 are printed beside it and as a
  ratio of it. In the "version only" row B's fetch is a second trip the floor leaves out on purpose.
  Before the first tap each link is left to go quiet: a phone's first visit also fetches the rules
  reference for offline use (its service worker), which takes a while at 50 KB/s.
A benchmark, not a test: it reports figures only, with the load average, since a busy machine
shows in every row.
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

from bench.netem import Proxy  # noqa: E402
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


ROWS = {
    # name: (database, servers, workers per server, through the proxy, the push carries the region)
    "sqlite": ("sqlite", 1, 2, False, True),
    "postgresql": ("postgresql", 1, 2, False, True),
    "postgresql, one process": ("postgresql", 1, 1, False, True),
    "postgresql, two processes": ("postgresql", 2, 1, False, True),
    "sqlite, proxy": ("sqlite", 1, 2, True, True),
    "sqlite, proxy, version only": ("sqlite", 1, 2, True, False),
}


def run(row: str, taps: int, seed: int, latency: float, rate: float) -> dict:
    from playwright.sync_api import sync_playwright

    database, servers, workers, throttled, region = ROWS[row]
    env = {} if region else {"LIVE_PUSH_REGION": "0"}
    with contextlib.ExitStack() as stack:
        if database == "postgresql":
            server = os.environ.get("TEST_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/test")
            env["DATABASE_URL"] = stack.enter_context(private_database(server, "companion_sync"))
        started = []
        for n in range(servers):
            tmp = Path(stack.enter_context(tempfile.TemporaryDirectory()))
            if n and database == "sqlite":
                raise ValueError("two servers share a database only on PostgreSQL")
            started.append(Gunicorn(tmp, workers=workers, env=env).start(timeout=300))  # a loaded machine boots slowly
            stack.callback(started[-1].stop)
        token = Browser(started[0].url).create_table("fivesails", THREE, name="Sync bench")
        targets = [started[0], started[-1]]  # A on the first server, B on the last
        proxies = []
        if throttled:
            for target in targets:
                proxies.append(Proxy(target.port, latency_ms=latency, rate=rate, seconds=taps * 4 + 120).start())
                stack.callback(proxies[-1].stop)
        urls = [p.url for p in proxies] if proxies else [t.url for t in targets]
        p = stack.enter_context(sync_playwright())
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        stack.callback(browser.close)
        phones = []
        for url in urls:
            context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True,
                                          base_url=url)
            page = context.new_page()
            page.goto(f"/t/{token}/players", timeout=60_000)
            phones.append(page)
        a, b = phones
        fetches = []  # B fetching its region (a second trip): none when the push carries it
        b.on("request", lambda r: fetches.append(r.url) if "since=" in r.url else None)
        time.sleep(3)  # both phones' streams open (and primed)
        for proxy in proxies:
            proxy.quiet()  # the service worker's first fetch of the rules for offline use is done
        fetches.clear()
        rng = random.Random(seed)
        latencies, own, floors, pushed = [], [], [], []
        for i in range(taps):
            time.sleep(rng.uniform(0.3, 1.5))
            target = int(b.locator("#live").get_attribute("data-version")) + 1
            b.evaluate(WATCH, target)  # B starts watching before A taps
            a.evaluate(WATCH, target)
            if proxies:
                up, down = proxies[0].up.bytes, proxies[1].stream_bytes
            tapped = a.evaluate(TAP, i)
            shown = b.evaluate("() => window.__shown")
            latencies.append(shown - tapped)
            own.append(a.evaluate("() => window.__shown") - tapped)
            if proxies:
                sent, received = proxies[0].up.bytes - up, proxies[1].stream_bytes - down
                pushed.append(received)
                floors.append(latency + (sent + received) / rate * 1000)
        load = os.getloadavg()
    out = {"row": row, "taps": len(latencies), "p50": statistics.median(latencies),
           "p95": percentile(latencies, 95), "max": max(latencies), "own_p50": statistics.median(own),
           "own_p95": percentile(own, 95), "load": load, "fetches": len(fetches)}
    if floors:
        out.update(floor=statistics.median(floors), to_b=statistics.median(pushed))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--taps", type=int, default=40)
    parser.add_argument("--latency", type=float, default=300, help="the proxy's round trip, ms")
    parser.add_argument("--rate", type=float, default=50_000, help="the proxy's bytes per second each way")
    parser.add_argument("--only", nargs="*", choices=list(ROWS), help="some rows only (default: all)")
    parser.add_argument("--seed", type=int, default=26)
    args = parser.parse_args()
    print(f"gunicorn gevent; two Chromium phones at 390x844; {args.taps} taps 0.3-1.5 s apart; proxy rows: "
          f"{args.latency:g} ms round trip, {args.rate / 1000:g} KB/s each way, per phone; load average at start "
          f"{', '.join(f'{x:.1f}' for x in os.getloadavg())} on {os.cpu_count()} cores\n")
    print("| row | taps | p50 ms | p95 ms | max ms | A's own answer p50 / p95 ms | B's fetches | "
          "floor ms (bytes to B) | p50 / p95 vs floor | load average after |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
    results = {}
    for row in args.only or list(ROWS):
        r = results[row] = run(row, args.taps, args.seed, args.latency, args.rate)
        floor = (f"{r['floor']:.0f} ({r['to_b']:.0f} B)", f"{r['p50'] / r['floor']:.2f}x / {r['p95'] / r['floor']:.2f}x") \
            if "floor" in r else ("", "")
        print(f"| {row} | {r['taps']} | {r['p50']:.0f} | {r['p95']:.0f} | {r['max']:.0f} | "
              f"{r['own_p50']:.0f} / {r['own_p95']:.0f} | {r['fetches']} | {floor[0]} | {floor[1]} | "
              f"{', '.join(f'{x:.1f}' for x in r['load'])} |", flush=True)
    one, two = results.get("postgresql, one process"), results.get("postgresql, two processes")
    if one and two:
        print(f"\ntwo processes on one PostgreSQL database vs one process: p95 {two['p95'] / one['p95']:.2f}x, "
              f"p50 {two['p50'] / one['p50']:.2f}x")
    print("\ntargets (idle machine): p95 <= 100 ms on sqlite and postgresql; proxy p95 <= 1.3x the floor; "
          "two processes p95 <= 1.5x one process")


if __name__ == "__main__":
    main()
