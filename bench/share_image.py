"""What the result image (issue 35) costs the server: drawing one, answering one from memory, and a
304, each against the trivial /ping in the same run; and the sizes of each game's PNG and SVG.

    .venv/bin/python bench/share_image.py

One finished table of each game is made through the test client (the tests' own helpers), on a
fresh SQLite file, with the rate limits relaxed. Medians of 15 requests (50 for /ping).
"""
import gzip
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ["COMPANION_RELAX_LIMITS"] = "1"
d = tempfile.mkdtemp(); os.environ["COMPANION_INSTANCE"] = d + "/instance"
from companion import create_app
from companion.db import migrate
url = f"sqlite:///{d}/m.sqlite3"; migrate(url)
app = create_app({"DATABASE_URL": url, "SECRET_KEY": "s", "WTF_CSRF_ENABLED": False})
client = app.test_client()
from tests.conftest import Tables
from tests.web.test_result_image import finished
tables = Tables(app, client)
toks = {g: finished(g, tables, client) for g in ("sins", "gibbon", "fivesails", "others")}
def t(fn, n=15):
    out = []
    for _ in range(n):
        s = time.perf_counter(); fn(); out.append(time.perf_counter() - s)
    return statistics.median(out)
ping = t(lambda: client.get("/ping"), 50)
print(f"/ping median {ping*1000:.2f} ms")
for g, tok in toks.items():
    def drawn():
        app.extensions.get("companion.result_images", {}).clear()
        r = client.get(f"/t/{tok}/result.png"); assert r.status_code == 200
    draw = t(drawn)
    hit = t(lambda: client.get(f"/t/{tok}/result.png"))
    r = client.get(f"/t/{tok}/result.png"); etag = r.headers["ETag"]
    nm = t(lambda: client.get(f"/t/{tok}/result.png", headers={"If-None-Match": etag}))
    svg = client.get(f"/t/{tok}/result.svg").get_data()
    link = len(client.get(f"/t/{tok}/result.png?link=1").get_data())
    page = client.get(f"/t/{tok}").get_data()
    print(f"{g}: png {len(r.get_data())} B (with link {link} B), svg {len(svg)} B ({len(gzip.compress(svg))} B gz); "
          f"drawn {draw*1000:.1f} ms = {draw/ping:.0f}x /ping; memory hit {hit/ping:.1f}x; 304 {nm/ping:.1f}x")
