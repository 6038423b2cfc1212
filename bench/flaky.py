#!/usr/bin/env python3
"""Three phones on one table over three bad networks: is any tap lost or counted twice?

    .venv/bin/python bench/flaky.py [--taps 150] [--seed 33]

Starts gunicorn as deployed (gunicorn.conf.py, gevent, 2 workers, SQLite), creates a City of Five
Sails table and opens its Players page in three Chromium phones (390x844, each its own cookies),
each through its own link (bench/netem.py, so its pages, taps, stream and service worker all cross
it): Ana on a good one (20 ms), Bo on a slow one (300 ms round trip, 50 KB/s), Cy on a flaky one
(100 ms, 200 KB/s, 5% of connections cut within 5 s, and no network at all for 3 to 15 s every 5 to
15 s). `--taps` taps (0.2 to 0.7 s apart, a random phone each) are made as players make them:
+1 Influence (relative: always lands), +1 or -1 Renown (relative but judged on the state the phone
saw: a stale -1 that would take Renown below 0 on the table now is refused, its entry kept). Other
phones' changes reach each phone by push (its own live region on its stream, or a fetch when it
cannot be pushed), which is what an update between two taps goes through.

Counted at the end, once every phone's outbox is empty and every phone shows the server's version:
made (clicks), sent (distinct tap ids seen leaving the phones), applied (the server's action log),
refused (tap ids answered 409/422 and never applied), lost (made - applied - refused), doubled (a
tap id in the log twice, or the Influence on the table above the Influence taps made), and whether
each phone shows what the server holds. A benchmark, not a test: it prints its counts.
"""
from __future__ import annotations

import argparse
import collections
import contextlib
import json
import os
import random
import sqlite3
import sys
import tempfile
import threading
import time
import urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.netem import Proxy  # noqa: E402
from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from tests.servers import Browser, Gunicorn  # noqa: E402

THREE = ["Ana", "Bo", "Cy"]
LINKS = {  # name: Proxy settings
    "Ana (good)": {"latency_ms": 20},
    "Bo (300 ms, 50 KB/s)": {"latency_ms": 300, "rate": 50_000},
    "Cy (flaky)": {"latency_ms": 100, "rate": 200_000, "drop": 0.05, "drop_within": 5},
}

# Click the button with this label for this player; say what was tapped (or null when disabled).
CLICK = """([label, index]) => {
  const buttons = document.querySelectorAll(`button[aria-label^="${label}"]`);
  const button = buttons[index];
  if (!button || button.disabled) return null;
  button.click();
  return label;
}"""

STATE = """() => ({
  outbox: JSON.parse(localStorage.getItem('companion.outbox.v1') || '[]').length,
  version: +document.getElementById('live').getAttribute('data-version'),
  influence: [...document.querySelectorAll('[id^="infl-"][id$="-wrap"] output')].map(o => o.textContent.trim()),
})"""


def kind_of(url: str) -> str | None:
    path = urllib.parse.urlsplit(url).path
    for kind in ("influence", "renown"):
        if path.endswith(f"/fivesails/{kind}"):
            return kind
    return None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--taps", type=int, default=150)
    ap.add_argument("--seed", type=int, default=33)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    from playwright.sync_api import sync_playwright

    load_before = os.getloadavg()
    with contextlib.ExitStack() as stack:
        tmp = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        server = Gunicorn(tmp, workers=2).start(timeout=300)  # a loaded machine boots slowly
        stack.callback(server.stop)
        token = Browser(server.url).create_table("fivesails", THREE, name="Flaky night")
        limit = args.taps * 3 + 300
        proxies = {name: Proxy(server.port, seconds=limit, seed=args.seed + n, **link).start()
                   for n, (name, link) in enumerate(LINKS.items())}
        for proxy in proxies.values():
            stack.callback(proxy.stop)
        flaky = proxies["Cy (flaky)"]
        p = stack.enter_context(sync_playwright())
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        stack.callback(browser.close)

        sent: dict[str, str] = {}  # tap id -> kind
        answers: dict[str, set] = collections.defaultdict(set)

        def on_request(request):
            kind = kind_of(request.url)
            if kind and request.method == "POST":
                sid = urllib.parse.parse_qs(request.post_data or "").get("sid", [""])[0]
                sent[sid] = kind

        def on_response(response):
            if kind_of(response.url) and response.request.method == "POST":
                sid = urllib.parse.parse_qs(response.request.post_data or "").get("sid", [""])[0]
                answers[sid].add(response.status)

        phones = {}
        fetches = collections.Counter()  # regions fetched (a poll, or a push that could not carry one)
        for name, proxy in proxies.items():
            context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True,
                                          base_url=proxy.url)
            context.set_default_timeout(60_000)
            page = context.new_page()
            page.on("request", on_request)
            page.on("response", on_response)
            page.on("request", lambda r, name=name: fetches.update([name]) if "since=" in r.url else None)
            page.goto(f"/t/{token}/players", timeout=60_000)
            phones[name] = page
        time.sleep(3)

        stop = threading.Event()
        outages = []

        def cut_now_and_then():
            while not stop.wait(rng.uniform(5, 15)):
                seconds = rng.uniform(3, 15)
                outages.append(seconds)
                flaky.outage(seconds)
        cutter = threading.Thread(target=cut_now_and_then, daemon=True)
        cutter.start()

        made = collections.Counter()
        offline_taps = 0
        started = time.monotonic()
        while sum(made.values()) < args.taps:
            time.sleep(rng.uniform(0.2, 0.7))
            name = rng.choice(list(phones))
            roll, who = rng.random(), rng.randrange(len(THREE))
            if roll < 0.6:
                label, kind = "One more: Influence", "influence"
            elif roll < 0.8:
                label, kind = "One more: Renown", "renown"
            else:
                label, kind = "One less: Renown", "renown"
            if phones[name].evaluate(CLICK, [label, who]) is None:
                continue  # a disabled button (Renown already 0 on this phone): not a tap
            made[kind] += 1
            offline_taps += name == "Cy (flaky)" and flaky.offline()
        tapping = time.monotonic() - started
        stop.set()
        cutter.join()

        # Every outbox empties and every phone shows the server's version (a bounded wait).
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline:
            states = {name: page.evaluate(STATE) for name, page in phones.items()}
            if not any(s["outbox"] for s in states.values()):
                break
            time.sleep(1)
        db = sqlite3.connect(tmp / "companion.sqlite3")
        table_id, version, state = db.execute("SELECT id, version, state FROM game_table WHERE token = ?",
                                              (token,)).fetchone()
        while time.monotonic() < deadline:
            states = {name: page.evaluate(STATE) for name, page in phones.items()}
            if all(s["version"] == version for s in states.values()):
                break
            time.sleep(1)
        rows = db.execute("SELECT kind, submission FROM table_action WHERE table_id = ? AND submission IS NOT NULL",
                          (table_id,)).fetchall()
        db.close()
        state = json.loads(state) if isinstance(state, str) else state
        counts = {name: dict(proxy.counts) for name, proxy in proxies.items()}

    applied = collections.Counter(kind for kind, _sub in rows)
    doubled_ids = sum(n - 1 for n in collections.Counter(sub for _k, sub in rows).values() if n > 1)
    refused = collections.Counter(sent[sid] for sid, codes in answers.items()
                                  if sid in sent and codes & {409, 422} and 200 not in codes)
    influence_total = sum(p["influence"] for p in state["game"]["players"].values())
    server_influence = [str(state["game"]["players"][str(i + 1)]["influence"]) for i in range(len(THREE))]
    print(f"3 Chromium phones at 390x844, gunicorn gevent 2 workers, SQLite; {sum(made.values())} taps in "
          f"{tapping:.0f} s; Cy had {len(outages)} outages ({sum(outages):.0f} s in all); load average "
          f"{', '.join(f'{x:.1f}' for x in load_before)} before, {', '.join(f'{x:.1f}' for x in os.getloadavg())} after\n")
    print("| kind | made | sent (tap ids) | applied | refused (entry kept) | lost | doubled |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    sent_by_kind = collections.Counter(sent.values())
    for kind in ("influence", "renown"):
        lost = made[kind] - applied[kind] - refused[kind]
        print(f"| {kind} | {made[kind]} | {sent_by_kind[kind]} | {applied[kind]} | {refused[kind]} | {lost} | "
              f"{max(0, applied[kind] - made[kind])} |")
    print(f"\ntaps Cy made with no network: {offline_taps}; tap ids in the log twice: {doubled_ids}; Influence on the "
          f"table {influence_total} for {made['influence']} +1 taps")
    for name, s in states.items():
        equal = s["version"] == version and s["influence"] == server_influence
        print(f"- {name}: outbox {s['outbox']}, shows version {s['version']} of {version}, Influence {s['influence']} "
              f"(server {server_influence}): {'equal to the server' if equal else 'NOT equal'}; regions fetched "
              f"{fetches[name]}, the rest pushed; link {counts[name]}")


if __name__ == "__main__":
    main()
