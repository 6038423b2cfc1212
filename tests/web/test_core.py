"""Health, the static files' caching and compression, the security headers, the API conventions."""
import gzip
import hashlib
import pathlib
import re

import brotli
import pytest

from companion import create_app
from tests.conftest import text_of

ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.mark.both_databases  # /healthz writes and rolls back a row on each database
def test_healthz_checks_the_database(client):
    resp = client.get("/healthz")
    assert resp.status_code == 200 and resp.json == {"status": "ok", "database": "ok"}


def test_healthz_says_503_when_the_database_is_unreachable(tmp_path, monkeypatch):
    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path))
    app = create_app({"TESTING": True, "SECRET_KEY": "x",
                      "DATABASE_URL": "postgresql://nobody@127.0.0.1:1/none?connect_timeout=1"})
    resp = app.test_client().get("/healthz")
    assert resp.status_code == 503 and resp.json["status"] == "error"


def test_ping_is_trivial(client):
    resp = client.get("/ping")
    assert resp.status_code == 200 and resp.data == b"pong"


def test_vendored_htmx_is_the_pinned_release():
    body = (ROOT / "static" / "htmx.min.js").read_bytes()
    pinned = re.search(r"\| htmx\.min\.js .*\| (2\.0\.\d+) \| ([0-9a-f]{64}) \|",
                       (ROOT / "static" / "VENDORED.md").read_text())
    assert pinned, "static/VENDORED.md must record the version and sha256"
    assert hashlib.sha256(body).hexdigest() == pinned.group(2)
    assert f'version:"{pinned.group(1)}"' in body.decode()


def asset_urls(html):
    return re.findall(r'(?:href|src)="(/static/[^"]+)"', html)


def test_a_page_loads_one_stylesheet_one_script_of_ours_and_htmx(client):
    html = client.get("/").get_data(as_text=True)
    code = sorted(u.split("?")[0] for u in asset_urls(html) if u.split("?")[0].endswith((".css", ".js")))
    assert code == ["/static/app.css", "/static/app.js", "/static/htmx.min.js"]


def test_static_files_are_compressed_and_cached_for_a_year_when_fingerprinted(client):
    html = client.get("/").get_data(as_text=True)
    for url in asset_urls(html):
        if not url.split("?")[0].endswith((".css", ".js")):
            continue
        resp = client.get(url, headers={"Accept-Encoding": "br, gzip"})
        assert resp.status_code == 200
        assert resp.headers["Cache-Control"] == "public, max-age=31536000, immutable"
        assert resp.headers["Content-Encoding"] == "br"
        plain = client.get(url.split("?")[0]).data
        assert brotli.decompress(resp.data) == plain
        gz = client.get(url, headers={"Accept-Encoding": "gzip"})
        assert gzip.decompress(gz.data) == plain
        again = client.get(url, headers={"If-None-Match": resp.headers["ETag"]})
        assert again.status_code == 304 and again.data == b""


def test_an_unfingerprinted_or_stale_static_url_is_revalidated(client):
    resp = client.get("/static/app.css?v=old")
    assert resp.status_code == 200 and resp.headers["Cache-Control"] == "public, no-cache"


def test_unknown_static_file_is_404(client):
    assert client.get("/static/nope.js").status_code == 404


def test_the_stylesheet_joins_every_parts_file(client):
    css = client.get("/static/app.css").get_data(as_text=True)
    for part in sorted((ROOT / "static" / "css").glob("*.css")):
        assert f"/* css/{part.name} */" in css


@pytest.mark.parametrize("path", ["/", "/new/sins", "/rules", "/healthz", "/t/" + "A" * 24])
def test_every_response_carries_the_security_headers(client, path):
    resp = client.get(path)
    csp = resp.headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "'unsafe-inline'" not in csp and "'unsafe-eval'" not in csp
    assert "frame-ancestors 'none'" in csp and "object-src 'none'" in csp
    assert resp.headers["Referrer-Policy"] == "no-referrer"
    assert resp.headers["X-Content-Type-Options"] == "nosniff"


def test_no_page_has_inline_script_style_or_event_handlers(tables, client):
    tok = tables.create()
    tables.post(tok, "players/rename", {"player": 1, "name": "Zed"})
    for path in ("/", "/new/gibbon", f"/t/{tok}", f"/t/{tok}/table", "/rules", "/nope"):
        html = client.get(path).get_data(as_text=True)
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html), path
        assert not re.search(r"\sstyle=", html), path
        assert not re.search(r"\son[a-z]+=", html), path
        assert "hx-on" not in html and "js:" not in html, path


def test_every_page_has_the_phone_viewport(client):
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in client.get("/").get_data(as_text=True)


def test_api_unknown_endpoint_answers_json(client):
    resp = client.get("/api/v1/nothing")
    assert resp.status_code == 404 and "errors" in resp.json


def test_errors_render_as_pages_not_tracebacks(client):
    resp = client.get("/t/" + "A" * 24)
    assert "Traceback" not in resp.get_data(as_text=True) and "Nothing here" in text_of(resp)
