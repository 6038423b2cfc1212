#!/usr/bin/env python3
"""Bytes on disk per acknowledged change: a The Others game of 200 ordinary changes, on SQLite.

    .venv/bin/python bench/storage.py [--changes 200]

Creates a 4-player The Others table in a fresh SQLite file, vacuums it and notes its size, then
plays rounds the way a table does (each hero's turn, a Sins reaction, upgrades and Innocents picked
up and dropped, the Apocalypse track, a wound and its healing, the End of Round reset) through the
app's own routes until `--changes` changes have been acknowledged. It vacuums again and reports
(size after - size before) / changes, with the log's own share (its rows and indexes, from SQLite's
dbstat table). The target is at most 400 bytes per change.
"""
from __future__ import annotations

import argparse
import itertools
import os
import sqlite3
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

HX = {"HX-Request": "true", "HX-Target": "live"}


def vacuumed_size(path: Path) -> int:
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.execute("VACUUM")
    conn.close()
    return path.stat().st_size


def log_bytes(path: Path) -> int:
    conn = sqlite3.connect(path)
    try:
        rows = conn.execute("SELECT name, SUM(pgsize) FROM dbstat GROUP BY name").fetchall()
    except sqlite3.OperationalError:  # SQLite built without dbstat
        return -1
    finally:
        conn.close()
    return sum(size for name, size in rows if "action" in name)


def play(client, token: str, wanted: int) -> int:
    """Acknowledged changes made, playing ordinary rounds until `wanted` is reached."""
    def post(path, data=None):
        version = client.get(f"/t/{token}/round").headers["X-Table-Version"]
        resp = client.post(f"/t/{token}/others/{path}", data={"v": version, "page": "round", **(data or {})},
                           headers=HX)
        return resp.status_code == 200

    assert post("story", {"story": "Haven's Last Stand", "story_type": "corruption", "map": ""})
    assert post("start")
    done = 2
    from companion.db import get_session
    from companion.tables import store

    for round_no in itertools.count(1):
        with client.application.app_context():
            lineup = store.by_token(get_session(), token)[0].state["game"]["lineup"]
        moves = []
        for i, hid in enumerate(lineup):
            moves.append(("turn", {"hero": hid, "value": 0}))
            if i == 0:
                moves.append(("reaction", {"delta": 1}))
        moves += [("upgrades", {"hero": lineup[round_no % len(lineup)], "delta": 1}),
                  ("innocents", {"hero": lineup[0], "delta": 1}), ("innocents", {"hero": lineup[0], "delta": -1}),
                  ("apocalypse", {"delta": 1}), ("apocalypse", {"delta": -1}),
                  ("wound", {"hero": lineup[1], "slot": 1, "cause": "wound"}), ("heal", {"hero": lineup[1], "slot": 1}),
                  ("round/end", {})]
        for path, data in moves:
            if done >= wanted:
                return done
            done += post(path, data)
        if round_no > wanted:
            raise RuntimeError("the rounds stopped making changes")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--changes", type=int, default=200)
    args = parser.parse_args()
    from companion import create_app
    from companion.db import migrate

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "storage.sqlite3"
        url = f"sqlite:///{path}"
        migrate(url)
        os.environ.setdefault("COMPANION_INSTANCE", f"{tmp}/instance")
        os.environ["COMPANION_RELAX_LIMITS"] = "1"
        app = create_app({"DATABASE_URL": url, "SECRET_KEY": "bench", "WTF_CSRF_ENABLED": False})
        client = app.test_client()
        resp = client.post("/new/others", data={"name": "Storage", **{f"players-{i}": n for i, n in
                                                                         enumerate(["Sam", "Ana", "Bo", "Cy"])}})
        token = resp.headers["Location"].rsplit("/", 1)[1]
        app.extensions["companion.engine"].dispose()
        before, log_before = vacuumed_size(path), log_bytes(path)
        made = play(client, token, args.changes)
        app.extensions["companion.engine"].dispose()
        after, log_after = vacuumed_size(path), log_bytes(path)
        if os.environ.get("STORAGE_SAMPLE"):
            conn = sqlite3.connect(path)
            for row in conn.execute("SELECT kind, summary, args, undo_patch, length(undo_patch), created_at "
                                    "FROM table_action ORDER BY version DESC LIMIT 12"):
                print(row)
            conn.close()
    print(f"The Others, 4 players: {made} acknowledged changes on a vacuumed SQLite file\n")
    print("| measure | bytes |")
    print("| --- | ---: |")
    print(f"| file before | {before:,} |")
    print(f"| file after | {after:,} |")
    print(f"| **per change (whole file)** | **{(after - before) / made:.0f}** |")
    if log_before >= 0:
        print(f"| per change (the log's rows and indexes) | {(log_after - log_before) / made:.0f} |")


if __name__ == "__main__":
    main()
