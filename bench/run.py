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
import os
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


PLAYS = 500


def seed_group(db: Path, plays: int) -> str:
    """A group with `plays` finished 7 - The Sins tables and their plays, written straight into the
    server's database (finishing 500 tables through the pages would take longer than the benchmark).
    Five regulars, four at a time, scores spread over the rulebook's range, one play a day."""
    import random
    from datetime import datetime, timedelta, timezone

    from sqlalchemy import create_engine
    from sqlalchemy.orm import Session

    from companion.games.sins import table as sins_table
    from companion.models import Group, GroupTable, Play, Table
    from companion.plays import build
    from companion.tables import tokens
    from companion.tables.players import make_players

    rnd = random.Random(19)
    regulars = ["Chiara", "Margherita", "Alberto", "Luca", "Béa"]
    colours = ["red", "blue", "white", "black", "green"]
    engine = create_engine(f"sqlite:///{db}")
    start = datetime(2025, 1, 1, 20, tzinfo=timezone.utc)
    with Session(engine) as session:
        group = Group(token=tokens.new_token(), view_token=tokens.new_token(), name="Bench group")
        session.add(group)
        session.flush()
        for i in range(plays):
            seated = rnd.sample(range(5), 4)
            people = make_players([regulars[j] for j in seated], [colours[j] for j in seated])
            gs = sins_table.new_state(people)
            gs["score"].update(mode="quick", abyss_total=rnd.choice([-1, 3, 9, 12]),
                               quick={str(p["id"]): {"points": rnd.randint(-12, 20), "cards": rnd.randint(0, 20),
                                                     "types": rnd.randint(0, 7)} for p in people})
            doc = {"name": f"Night {i + 1}", "status": "playing", "state": {"players": people, "game": gs}, "result": None}
            sins_table.finish(doc)
            when = start + timedelta(days=i)
            table = Table(token=tokens.new_token(), view_token=tokens.new_token(), game="sins", name=doc["name"],
                          status="finished", version=1, state=doc["state"], result=doc["result"], created_at=when,
                          updated_at=when + timedelta(minutes=70))
            session.add(table)
            session.flush()
            session.add(GroupTable(table_id=table.id, group_id=group.id))
            session.add(Play(table_id=table.id, group_id=group.id, game="sins", started_at=when,
                             finished_at=when + timedelta(minutes=70), table_version=1,
                             data=build.build_play("sins", doc)))
        session.commit()
        token = group.token
    engine.dispose()
    return token


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
            group = seed_group(Path(tmp) / "companion.sqlite3", PLAYS)
            routes.append((f"group page, {PLAYS} plays", f"/g/{group}", None))
            routes.append((f"group page, {PLAYS} plays, one game", f"/g/{group}?game=sins", None))
            routes.append((f"group page, {PLAYS} plays, never cached", f"/g/{group}?bench={{n}}", None))
            for _label, path, extra in routes:  # warm up every worker and cache
                load(server.port, path, 1.0, args.concurrency, extra)
            measured = {label: [] for label, _p, _e in routes}
            trivial = routes[0]
            for label, path, extra in [trivial, *routes[1:], trivial]:
                measured[label].append(load(server.port, path, args.seconds, args.concurrency, extra))
        finally:
            server.stop()

    base = summarize(measured[trivial[0]])
    worker = os.environ.get("GUNICORN_WORKER_CLASS", "gevent")
    shape = "4 threads each" if worker == "gthread" else "one event loop each"
    print(f"gunicorn {worker}, {args.workers} workers ({shape}), SQLite; {args.concurrency} concurrent keep-alive "
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
