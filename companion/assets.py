"""Static files: fingerprinted URLs, compressed once at start-up, cached for a year.

A page needs one CSS file, htmx and our small script; after the first visit the phone has them all
and never asks again until they change (the URL carries a hash of the content).
"""
from __future__ import annotations

import functools
import gzip
import hashlib
import mimetypes
import pathlib
from dataclasses import dataclass

import brotli
from flask import Flask, abort, request, Response

ROOT = pathlib.Path(__file__).resolve().parent.parent / "static"
COMPRESSIBLE = {".css", ".js", ".svg", ".json", ".webmanifest", ".txt", ".map", ".html"}
YEAR = 60 * 60 * 24 * 365
mimetypes.add_type("application/manifest+json", ".webmanifest")
mimetypes.add_type("text/javascript", ".js")


@dataclass(frozen=True)
class Asset:
    body: bytes
    br: bytes | None
    gz: bytes | None
    digest: str
    mimetype: str


# Bundles: a page loads one stylesheet and one script of ours. Each part of the app (the core, each
# game, the rules reference) keeps its own file under static/css or static/js; they are joined in
# name order (00-base first) into the single file a page asks for.
BUNDLES = {"app.css": "css/*.css", "app.js": "js/*.js"}


# Brotli at quality 11 is most of the cost of making an app: the same bytes compress once per
# process, however many apps it makes (the test suite makes thousands, `flask` commands one each).
@functools.lru_cache(maxsize=256)
def _asset(name: str, body: bytes) -> Asset:
    squeeze = pathlib.Path(name).suffix in COMPRESSIBLE and len(body) > 600
    mimetype = mimetypes.guess_type(name)[0] or "application/octet-stream"
    if mimetype.startswith("text/") or mimetype.endswith(("javascript", "json", "+xml")):
        mimetype += "; charset=utf-8"
    return Asset(
        body=body,
        br=brotli.compress(body, quality=11) if squeeze else None,
        gz=gzip.compress(body, 9, mtime=0) if squeeze else None,
        digest=hashlib.sha256(body).hexdigest()[:12],
        mimetype=mimetype,
    )


def load(root: pathlib.Path = ROOT) -> dict[str, Asset]:
    assets = {}
    bundled = set()
    for name, pattern in BUNDLES.items():
        parts = sorted(root.glob(pattern))
        bundled.update(parts)
        body = b"\n".join(f"/* {p.relative_to(root).as_posix()} */\n".encode() + p.read_bytes() for p in parts)
        assets[name] = _asset(name, body)
    for path in sorted(root.rglob("*")):
        if not path.is_file() or path.name.startswith(".") or path.suffix == ".md" or path in bundled:
            continue
        assets[path.relative_to(root).as_posix()] = _asset(path.name, path.read_bytes())
    return assets


def serve(app: Flask, filename: str, assets: dict[str, Asset], immutable_ok: bool = True) -> Response:
    asset = assets.get(filename)
    if asset is None:
        abort(404)
    etag = f'"{asset.digest}"'
    accepted = request.headers.get("Accept-Encoding", "")
    body, encoding = asset.body, None
    if asset.br and "br" in accepted:
        body, encoding = asset.br, "br"
    elif asset.gz and "gzip" in accepted:
        body, encoding = asset.gz, "gzip"
    status = 304 if etag in request.headers.get("If-None-Match", "") else 200
    resp = Response(b"" if status == 304 else body, status=status, mimetype=None)
    resp.headers["Content-Type"] = asset.mimetype
    resp.headers["ETag"] = etag
    resp.headers["Vary"] = "Accept-Encoding"
    if encoding:
        resp.headers["Content-Encoding"] = encoding
    if immutable_ok and request.args.get("v") == asset.digest:
        resp.headers["Cache-Control"] = f"public, max-age={YEAR}, immutable"
    else:
        resp.headers["Cache-Control"] = "public, no-cache"
    return resp


def init_app(app: Flask) -> None:
    assets = load()
    app.extensions["companion.assets"] = assets

    def static(filename):
        return serve(app, filename, assets)

    app.add_url_rule("/static/<path:filename>", endpoint="static", view_func=static)

    @app.template_global()
    def asset_url(filename: str) -> str:
        """The URL of a static file, with its content hash so it can be cached forever."""
        from flask import url_for

        found = assets.get(filename)
        return url_for("static", filename=filename, v=found.digest if found else None)
