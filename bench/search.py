#!/usr/bin/env python3
"""Rules search latency, in-process, on the real content: p50/p95/p99 in milliseconds.

    .venv/bin/python bench/search.py [--rounds 3] [--content DIR] [--http]

The query mix is what players send: the question files (tests/rules_questions/**/*.yaml and
companion/rules/questions/**/*.yaml), every
question again as typed letter by letter (results as you type), with a typo in one word, the
sections' titles, terms and keywords as term look-ups, and a fifth of it across all games. The
measures:
  engine, cold   Index.search with its query caches emptied before each query (a first-time query)
  engine, warm   the same mix through the caches, as a busy server sees repeated queries
  API            GET /api/v1/rules/search through the Flask app (test client, no network)
  API over HTTP  (--http) the same to gunicorn as deployed, over one keep-alive connection
Each is timed on the wall clock and on this thread's CPU clock: on a machine shared with other
work (load above the core count) the wall clock measures the queue for a core as much as the
search, and the CPU clock shows what the search itself costs.
Target: p95 under 10 ms on the server. A benchmark, not a test: it asserts nothing.
Until the games' references are merged the content folder is empty; it then uses the fixture
content of the tests and says so.
"""
from __future__ import annotations

import argparse
import os
import pathlib
import random
import statistics
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import yaml  # noqa: E402

from companion.rules import content  # noqa: E402
from companion.rules import player_counts  # noqa: E402
from companion.rules.learned import QUESTIONS  # noqa: E402
from companion.rules.search import Index  # noqa: E402

FIXTURE = ROOT / "tests" / "rules_fixture" / "content"


def typo(word: str, rng: random.Random) -> str:
    """Swap two neighbouring letters in the middle of a word (the commonest slip on a phone)."""
    if len(word) < 5:
        return word
    i = rng.randrange(1, len(word) - 2)
    return word[:i] + word[i + 1] + word[i] + word[i + 2:]


def query_mix(lib: content.Library, rng: random.Random) -> list[tuple[str, str | None, str]]:
    """(query, game or None, reader's language) as players send them."""
    asked: list[tuple[str, str, str]] = []
    files = [*(ROOT / "tests" / "rules_questions").glob("**/*.yaml"),
             *QUESTIONS.glob("**/*.yaml")]
    for path in sorted(files):
        for item in yaml.safe_load(path.read_text(encoding="utf-8")) or []:
            asked.append((str(item["q"]), path.stem, item.get("lang", "en")))
    for (game, lang), secs in lib.data.items():
        for sec in secs.values():
            asked.append((sec.title, game, lang))
            asked.extend((t, game, lang) for t in sec.terms)
            asked.extend((k, game, lang) for k in sec.keywords[:2])
    mix = []
    for q, game, lang in asked:
        scope = None if rng.random() < 0.2 else game
        mix.append((q, scope, lang))
        words = q.split()
        if len(words) > 1:
            i = rng.randrange(len(words))
            mix.append((" ".join(words[:i] + [typo(words[i], rng)] + words[i + 1:]), scope, lang))
        typed = ""
        for ch in q:  # as typed: a request per pause, roughly every third letter
            typed += ch
            if len(typed) >= 2 and rng.random() < 0.35:
                mix.append((typed, scope, lang))
    rng.shuffle(mix)
    return mix


def percentiles(samples: list[float]) -> str:
    cuts = statistics.quantiles(samples, n=100, method="inclusive")
    return (f"p50 {cuts[49]:6.2f} ms   p95 {cuts[94]:6.2f} ms   p99 {cuts[98]:6.2f} ms   "
            f"max {max(samples):6.2f} ms   ({len(samples)} queries)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=3, help="passes over the query mix (default 3)")
    ap.add_argument("--content", type=pathlib.Path, default=content.CONTENT)
    ap.add_argument("--http", action="store_true",
                    help="also time the API over HTTP against gunicorn as deployed (real content only)")
    args = ap.parse_args()

    root = args.content
    lib = content.library(root)
    if not any(lib.data.values()):
        print(f"{root} has no sections yet: measuring on the test fixture content instead.")
        root = FIXTURE
        lib = content.library(root)
    sections = sum(len(v) for v in lib.data.values())
    started = time.perf_counter()
    index = Index.of(lib.all_sections(), player_counts())
    print(f"content: {root} ({sections} sections in {len(lib.data)} game/language sets); "
          f"index built in {(time.perf_counter() - started) * 1000:.0f} ms")
    mix = query_mix(lib, random.Random(7))
    print(f"query mix: {len(mix)} queries x {args.rounds} rounds\n")

    cold, cold_cpu = [], []
    for q, game, lang in mix:
        index._plan.cache_clear()
        index._nearest.cache_clear()
        t, c = time.perf_counter(), time.thread_time()
        index.search(q, [game] if game else None, lang)
        cold.append((time.perf_counter() - t) * 1000)
        cold_cpu.append((time.thread_time() - c) * 1000)
    print("engine, cold   ", percentiles(cold))
    print("   CPU only    ", percentiles(cold_cpu))

    warm, warm_cpu = [], []
    for _ in range(args.rounds):
        for q, game, lang in mix:
            t, c = time.perf_counter(), time.thread_time()
            index.search(q, [game] if game else None, lang)
            warm.append((time.perf_counter() - t) * 1000)
            warm_cpu.append((time.thread_time() - c) * 1000)
    print("engine, warm   ", percentiles(warm))
    print("   CPU only    ", percentiles(warm_cpu))

    os.environ.setdefault("COMPANION_INSTANCE", tempfile.mkdtemp(prefix="bench-search-"))
    from companion import create_app  # noqa: E402

    app = create_app({"RULES_CONTENT": str(root), "DATABASE_URL": "sqlite://", "SECRET_KEY": "bench"})
    client = app.test_client()
    api, api_cpu = [], []
    for q, game, lang in mix:
        params = {"q": q, "lang": lang, **({"game": game} if game else {})}
        t, c = time.perf_counter(), time.thread_time()
        resp = client.get("/api/v1/rules/search", query_string=params)
        api.append((time.perf_counter() - t) * 1000)
        api_cpu.append((time.thread_time() - c) * 1000)
        assert resp.status_code in (200, 400), (resp.status_code, q)
    print("API            ", percentiles(api))
    print("   CPU only    ", percentiles(api_cpu))
    if args.http:
        http_api, ping = over_http(mix)
        print("API over HTTP  ", percentiles(http_api))
        print("trivial /ping  ", percentiles(ping))
    print(f"\nload average when done: {', '.join(f'{x:.1f}' for x in os.getloadavg())} on {os.cpu_count()} cores")
    judged = http_api if args.http else api
    verdict = "under" if statistics.quantiles(judged, n=100)[94] < 10 else "OVER"
    print(f"\nAPI p95{' over HTTP' if args.http else ''} is {verdict} the 10 ms target.")


def over_http(mix) -> tuple[list[float], list[float]]:
    """The same queries to gunicorn as deployed (the repository's own rules content), one phone on
    one keep-alive connection, one request at a time: the latency a player waits for, with the
    trivial route between queries for comparison."""
    import http.client
    import urllib.parse

    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))
    from tests.servers import Gunicorn

    with tempfile.TemporaryDirectory() as tmp:
        server = Gunicorn(pathlib.Path(tmp)).start()
        try:
            conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)

            def timed(path: str) -> float:
                t = time.perf_counter()
                conn.request("GET", path, headers={"Accept-Encoding": "br, gzip"})
                resp = conn.getresponse()
                resp.read()
                assert resp.status in (200, 400), (resp.status, path)
                return (time.perf_counter() - t) * 1000

            api, ping = [], []
            for q, game, lang in mix:
                params = {"q": q, "lang": lang, **({"game": game} if game else {})}
                api.append(timed("/api/v1/rules/search?" + urllib.parse.urlencode(params)))
                ping.append(timed("/ping"))
            conn.close()
        finally:
            server.stop()
    return api, ping


if __name__ == "__main__":
    main()
