#!/usr/bin/env python3
"""Contention benchmark: many phones tapping +1 back-to-back on ONE table, on the real server.

    .venv/bin/python bench/contention.py [--phones 16] [--taps 25] [--database sqlite|postgresql|both]

Starts gunicorn as deployed (gunicorn.conf.py), creates a 4-player City of Five Sails table and
starts it, then lets each phone (its own process, cookies and CSRF token, no JavaScript) tap
"+1 Renown" or "+1 Influence" on one of the eight counters, as fast as the answers come, each tap
with its own submission id and the version its last page showed. Afterwards it reads the table
and checks that the counters add up to exactly the taps that were answered 2xx/3xx.

Reports every status code seen (the target is zero 5xx, and zero 503 in particular), latency
percentiles, and whether the final count equals the acknowledged taps. PostgreSQL runs in a
private database created on TEST_DATABASE_URL's server (default postgresql://postgres@127.0.0.1:5432/test)
and dropped afterwards. A benchmark, not a test: nothing here asserts a time.
"""
from __future__ import annotations

import argparse
import contextlib
import json
import multiprocessing as mp
import os
import re
import statistics
import sys
import tempfile
import time
import uuid
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.servers import Browser, Gunicorn, private_database  # noqa: E402

FOUR = ["Ana", "Bo", "Cy", "Di"]
HX = {"HX-Request": "true", "HX-Target": "live"}


def phone(base: str, token: str, index: int, taps: int, start_at: float, out: mp.Queue) -> None:
    me = Browser(base)
    values = me.table_form_values(token)
    pid, what = index % 4 + 1, ("renown" if index % 8 < 4 else "influence")
    statuses, latencies = Counter(), []
    while time.time() < start_at:
        time.sleep(0.001)
    for n in range(taps):
        data = {**values, "player": pid, "delta": 1, "page": "day", "sid": f"bench-{index}-{n}-{uuid.uuid4().hex[:6]}"}
        begin = time.perf_counter()
        status, _headers, body = me.post(f"/t/{token}/fivesails/{what}", data, headers=HX)
        latencies.append((time.perf_counter() - begin) * 1000)
        statuses[status] += 1
        found = re.search(r'data-version="(\d+)"', body)
        if found:
            values["v"] = found.group(1)  # the page this phone now shows
    out.put((pid, what, statuses, latencies))


def run(database: str, phones: int, taps: int) -> dict:
    env = {}
    with contextlib.ExitStack() as stack:
        if database == "postgresql":
            server = os.environ.get("TEST_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/test")
            env["DATABASE_URL"] = stack.enter_context(private_database(server, "companion_bench"))
        return _run(env, phones, taps, database)


def _run(env: dict, phones: int, taps: int, database: str) -> dict:
    env["COMPANION_RELAX_LIMITS"] = "1"  # many taps from one address is the point here
    with tempfile.TemporaryDirectory() as tmp:
        server = Gunicorn(Path(tmp), env=env).start()
        try:
            setup = Browser(server.url)
            token = setup.create_table("fivesails", FOUR)
            values = setup.table_form_values(token)
            status, _h, body = setup.post(f"/t/{token}/fivesails/start", {**values, "page": "day"})
            assert status in (200, 303), body[:300]
            out = mp.Queue()
            start_at = time.time() + 1.0
            procs = [mp.Process(target=phone, args=(server.url, token, i, taps, start_at, out)) for i in range(phones)]
            began = time.perf_counter()
            for p in procs:
                p.start()
            results = [out.get(timeout=600) for _ in procs]
            for p in procs:
                p.join(30)
            elapsed = time.perf_counter() - began - 1.0
            statuses, latencies, acked = Counter(), [], Counter()
            for pid, what, st, lat in results:
                statuses.update(st)
                latencies.extend(lat)
                acked[(pid, what)] += sum(n for s, n in st.items() if 200 <= s < 400)
            final = read_counters(server, token)
        finally:
            server.stop()
    counted = sum(final.values())
    lat = sorted(latencies)
    return {"database": database, "phones": phones, "taps": phones * taps, "statuses": dict(sorted(statuses.items())),
            "acknowledged": sum(acked.values()), "counted": counted,
            "equal": counted == sum(acked.values()) and all(final[k] == acked[k] for k in acked),
            "p50": statistics.median(lat), "p99": lat[int(len(lat) * 0.99) - 1], "max": lat[-1],
            "taps_per_s": len(lat) / elapsed}


def read_counters(server: Gunicorn, token: str) -> Counter:
    """The eight counters as stored, read straight from the server's database."""
    from sqlalchemy import create_engine, text

    url = server.env.get("DATABASE_URL") or f"sqlite:///{server.instance / 'companion.sqlite3'}"
    from companion.db import normalize_url

    engine = create_engine(normalize_url(url))
    with engine.connect() as conn:
        state = conn.execute(text("SELECT state FROM game_table WHERE token = :t"), {"t": token}).scalar_one()
    engine.dispose()
    state = json.loads(state) if isinstance(state, str) else state
    players = state["game"]["players"]
    out = Counter()
    for pid, ps in players.items():
        for what in ("renown", "influence"):
            out[(int(pid), what)] = ps[what]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--phones", type=int, default=16)
    parser.add_argument("--taps", type=int, default=25, help="taps per phone")
    parser.add_argument("--database", choices=["sqlite", "postgresql", "both"], default="both")
    args = parser.parse_args()
    databases = ["sqlite", "postgresql"] if args.database == "both" else [args.database]
    print(f"{args.phones} phones x {args.taps} taps of +1 on one table (gunicorn as deployed, CSRF on)\n")
    print("| database | taps | answers | acknowledged | counted | equal | p50 ms | p99 ms | max ms | taps/s |")
    print("| --- | ---: | --- | ---: | ---: | --- | ---: | ---: | ---: | ---: |")
    for database in databases:
        r = run(database, args.phones, args.taps)
        answers = ", ".join(f"{s}: {n}" for s, n in r["statuses"].items())
        print(f"| {database} | {r['taps']} | {answers} | {r['acknowledged']} | {r['counted']} | "
              f"{'yes' if r['equal'] else 'NO'} | {r['p50']:.1f} | {r['p99']:.1f} | {r['max']:.1f} | {r['taps_per_s']:.0f} |")


if __name__ == "__main__":
    main()
