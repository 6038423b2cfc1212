#!/usr/bin/env python3
"""Contention benchmark: many phones tapping +1 back-to-back on ONE table, on the real server.

    .venv/bin/python bench/contention.py [--phones 16] [--taps 25] [--database sqlite|postgresql|both]
                                         [--streams 500 --stream-tables 100]

Starts gunicorn as deployed (gunicorn.conf.py), creates a 4-player City of Five Sails table and
starts it, then lets each phone (its own process, cookies and CSRF token, no JavaScript) tap
"+1 Renown" or "+1 Influence" on one of the eight counters, as fast as the answers come, each tap
with its own submission id and the version its last page showed. Afterwards it reads the table
and checks that the counters add up to exactly the taps that were answered 2xx/3xx.

Reports every status code seen (the target is zero 5xx, and zero 503 in particular), latency
percentiles, and whether the final count equals the acknowledged taps. PostgreSQL runs in a
private database created on TEST_DATABASE_URL's server (default postgresql://postgres@127.0.0.1:5432/test)
and dropped afterwards. A benchmark, not a test: nothing here asserts a time.

With --streams N (issue 26), each database is run twice: as above, then again while N open push
streams (`/t/<token>/events`, Server-Sent Events, held by one asyncio process) listen on
--stream-tables other tables and on the tapped one. It reports the streams refused or dropped
(the target is zero), how many version events they heard, the taps' p99 against the run without
streams, and the server's resident memory per open stream (the workers' RSS from /proc, before
and after the streams opened).
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


def run(database: str, phones: int, taps: int, streams: int = 0, stream_tables: int = 0) -> dict:
    env = {}
    with contextlib.ExitStack() as stack:
        if database == "postgresql":
            server = os.environ.get("TEST_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/test")
            env["DATABASE_URL"] = stack.enter_context(private_database(server, "companion_bench"))
        return _run(env, phones, taps, database, streams, stream_tables)


def worker_rss_kb(server: Gunicorn) -> int:
    """Resident memory of the server's worker processes (the master's children), from /proc."""
    total = 0
    children = Path(f"/proc/{server.proc.pid}/task/{server.proc.pid}/children").read_text().split()
    for pid in children:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                total += int(line.split()[1])
    return total


def hold_streams(base: str, paths: list[str], ready: mp.Queue, stop, out: mp.Queue) -> None:
    """Open one push stream per path and keep reading them until `stop` is set."""
    import asyncio
    from urllib.parse import urlsplit

    host, port = urlsplit(base).hostname, urlsplit(base).port
    counts = Counter()

    async def one(path: str, opened: asyncio.Event):
        try:
            reader, writer = await asyncio.open_connection(host, port)
            writer.write(f"GET {path} HTTP/1.1\r\nHost: {host}\r\nAccept: text/event-stream\r\n\r\n".encode())
            await writer.drain()
            status = (await reader.readline()).split()
            code = int(status[1]) if len(status) > 1 else 0
            counts[f"status {code}"] += 1
            opened.set()
            if code != 200:
                writer.close()
                return
            while True:
                line = await reader.readline()
                if not line:
                    counts["dropped"] += 1
                    return
                if line.startswith(b"event: version"):
                    counts["version events"] += 1
        except (OSError, asyncio.IncompleteReadError):
            counts["failed"] += 1
            opened.set()

    async def main():
        tasks = []
        for i, path in enumerate(paths):
            opened = asyncio.Event()
            tasks.append(asyncio.ensure_future(one(path, opened)))
            await opened.wait()
        ready.put(dict(counts))
        while not stop.is_set():
            await asyncio.sleep(0.2)
        out.put(dict(counts))
        for t in tasks:
            t.cancel()

    asyncio.run(main())


def _run(env: dict, phones: int, taps: int, database: str, streams: int = 0, stream_tables: int = 0) -> dict:
    env["COMPANION_RELAX_LIMITS"] = "1"  # many taps from one address is the point here
    # Every phone and stream here comes from one address: lift the per-address connection cap.
    env["GUNICORN_CLIENT_CONNECTIONS"] = str(max(50, 2 * (streams + phones)))
    with tempfile.TemporaryDirectory() as tmp:
        server = Gunicorn(Path(tmp), env=env).start()
        try:
            setup = Browser(server.url)
            token = setup.create_table("fivesails", FOUR)
            values = setup.table_form_values(token)
            status, _h, body = setup.post(f"/t/{token}/fivesails/start", {**values, "page": "day"})
            assert status in (200, 303), body[:300]
            held = None
            if streams:
                others = [setup.create_table("fivesails", FOUR, name=f"Listening {i}") for i in range(stream_tables)]
                paths = [f"/t/{(others + [token])[i % (len(others) + 1)]}/events" for i in range(streams)]
                time.sleep(2)
                rss_before = worker_rss_kb(server)
                ready, stop, heard = mp.Queue(), mp.Event(), mp.Queue()
                held = mp.Process(target=hold_streams, args=(server.url, paths, ready, stop, heard))
                held.start()
                opened = ready.get(timeout=300)
                time.sleep(2)
                rss_after = worker_rss_kb(server)
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
            stream_report = {}
            if held is not None:
                time.sleep(1)
                stop.set()
                stream_report = heard.get(timeout=60)
                held.join(30)
                stream_report.update(opened_at_start=opened.get("status 200", 0),
                                     kb_per_stream=(rss_after - rss_before) / max(1, opened.get("status 200", 0)))
        finally:
            server.stop()
    counted = sum(final.values())
    lat = sorted(latencies)
    return {"database": database, "phones": phones, "taps": phones * taps, "statuses": dict(sorted(statuses.items())),
            "acknowledged": sum(acked.values()), "counted": counted,
            "equal": counted == sum(acked.values()) and all(final[k] == acked[k] for k in acked),
            "p50": statistics.median(lat), "p99": lat[int(len(lat) * 0.99) - 1], "max": lat[-1],
            "taps_per_s": len(lat) / elapsed, "streams": stream_report}


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
    parser.add_argument("--streams", type=int, default=0, help="open push streams during a second run")
    parser.add_argument("--stream-tables", type=int, default=100, help="tables those streams listen on")
    args = parser.parse_args()
    databases = ["sqlite", "postgresql"] if args.database == "both" else [args.database]
    print(f"{args.phones} phones x {args.taps} taps of +1 on one table (gunicorn as deployed, CSRF on)\n")
    print("| database | open streams | taps | answers | acknowledged | counted | equal | p50 ms | p99 ms | max ms | taps/s |")
    print("| --- | ---: | ---: | --- | ---: | ---: | --- | ---: | ---: | ---: | ---: |")
    extra = []
    for database in databases:
        for streams in ([0, args.streams] if args.streams else [0]):
            r = run(database, args.phones, args.taps, streams, args.stream_tables if streams else 0)
            answers = ", ".join(f"{s}: {n}" for s, n in r["statuses"].items())
            print(f"| {database} | {streams} | {r['taps']} | {answers} | {r['acknowledged']} | {r['counted']} | "
                  f"{'yes' if r['equal'] else 'NO'} | {r['p50']:.1f} | {r['p99']:.1f} | {r['max']:.1f} | "
                  f"{r['taps_per_s']:.0f} |", flush=True)
            if streams:
                extra.append((database, r["streams"]))
    for database, report in extra:
        print(f"\n{database}, streams: {report}")


if __name__ == "__main__":
    main()
