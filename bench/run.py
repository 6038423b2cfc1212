#!/usr/bin/env python3
"""Latency benchmark: the table pages against a trivial route, in one run, on the real server.

    .venv/bin/python bench/run.py [--seconds 8] [--concurrency 8] [--clients 2]

Starts gunicorn (gunicorn.conf.py, SQLite in a temporary folder), creates a 4-player table of each
game, then loads each route in turn with concurrent keep-alive clients that behave like phones
(Accept-Encoding: br, gzip; cookies kept). The trivial route (/ping) is measured before and after the others and
its two runs pooled, so drift during the run shows up in the baseline rather than in a ratio.
Prints p50/p99 latency and requests/s per route and the ratio of each route's p50 to the
trivial route's. A table page is rendered once per table version and kept; the "never cached" row
asks for a different page each time, so it shows the cost of the first view after every change. A benchmark, not a test: nothing here asserts a time.
"""
from __future__ import annotations

import argparse
import http.client
import multiprocessing as mp
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.servers import Browser, Gunicorn  # noqa: E402

HEADERS = {"Accept-Encoding": "br, gzip", "Accept-Language": "en-GB,en;q=0.9",
           "User-Agent": "Mozilla/5.0 (Linux; Android 14) bench"}
FOUR = ["Ana", "Bo", "Cy", "Di"]


def _client(port: int, path: str, seconds: float, extra: dict, out: mp.Queue) -> None:
    """One phone: keeps its cookies (session, tables list) as a browser does."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    cookies: dict[str, str] = {}
    latencies = []
    errors = 0
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        start = time.perf_counter()
        try:
            headers = {**HEADERS, **extra}
            if cookies:
                headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in cookies.items())
            # "{n}" in a path makes every request a different page: a cache miss each time.
            conn.request("GET", path.replace("{n}", str(len(latencies) + errors)) + "", headers=headers)
            resp = conn.getresponse()
            resp.read()
            for header in resp.msg.get_all("Set-Cookie") or []:
                name, _, rest = header.partition("=")
                cookies[name.strip()] = rest.split(";", 1)[0]
            if resp.status >= 400:
                errors += 1
            if resp.getheader("Connection", "").lower() == "close":
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        except (OSError, http.client.HTTPException):
            errors += 1
            conn.close()
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            continue
        latencies.append(time.perf_counter() - start)
    conn.close()
    out.put((latencies, errors))


def load(port: int, path: str, seconds: float, concurrency: int, extra: dict | None = None) -> dict:
    out: mp.Queue = mp.Queue()
    procs = [mp.Process(target=_client, args=(port, path, seconds, extra or {}, out)) for _ in range(concurrency)]
    started = time.perf_counter()
    for p in procs:
        p.start()
    results = [out.get() for _ in procs]
    for p in procs:
        p.join()
    elapsed = time.perf_counter() - started
    latencies = sorted(x for lat, _e in results for x in lat)
    return {"latencies": latencies, "errors": sum(e for _l, e in results), "elapsed": elapsed}


def summarize(runs: list[dict]) -> dict:
    latencies = sorted(x for r in runs for x in r["latencies"])
    n = len(latencies)
    q = statistics.quantiles(latencies, n=100, method="inclusive") if n > 1 else [latencies[0]] * 99
    return {"n": n, "p50": q[49] * 1000, "p99": q[98] * 1000,
            "rps": n / sum(r["elapsed"] for r in runs), "errors": sum(r["errors"] for r in runs)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=8)
    ap.add_argument("--concurrency", type=int, default=8)
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        server = Gunicorn(Path(tmp), workers=args.workers).start()
        try:
            phone = Browser(server.url)
            routes = [("trivial: /ping", "/ping", None)]
            for game, names in (("sins", FOUR), ("gibbon", FOUR), ("fivesails", FOUR), ("others", FOUR)):
                token = phone.create_table(game, names, name=f"Bench {game}")
                routes.append((f"table page: {game}", f"/t/{token}", None))
            routes.append(("table page: others, never cached", f"/t/{token}?bench={{n}}", None))
            routes.append(("poll, unchanged (204)", f"/t/{token}?since=0", {"HX-Request": "true", "HX-Target": "live"}))
            for _label, path, extra in routes:  # warm up every worker and cache
                load(server.port, path, 1.0, args.concurrency, extra)
            measured = {label: [] for label, _p, _e in routes}
            trivial = routes[0]
            for label, path, extra in [trivial, *routes[1:], trivial]:
                measured[label].append(load(server.port, path, args.seconds, args.concurrency, extra))
        finally:
            server.stop()

    base = summarize(measured[trivial[0]])
    print(f"gunicorn gthread, {args.workers} workers x 4 threads, SQLite; {args.concurrency} concurrent keep-alive "
          f"clients, {args.seconds:g} s per route (trivial route measured before and after); "
          f"headers: Accept-Encoding br, gzip")
    print()
    print("| route | requests | p50 ms | p99 ms | req/s | p50 vs trivial | errors |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for label, _path, _extra in routes:
        s = summarize(measured[label])
        print(f"| {label} | {s['n']} | {s['p50']:.2f} | {s['p99']:.2f} | {s['rps']:.0f} | "
              f"{s['p50'] / base['p50']:.2f}x | {s['errors']} |")


if __name__ == "__main__":
    main()
