"""Response headers that keep the pages locked down: a strict CSP with no inline script, no framing,
no referrer (table links are secrets), and no caching of pages that carry a table's token."""
from __future__ import annotations

from flask import Flask, request

CSP = "; ".join([
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "manifest-src 'self'",
    "worker-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
])


def init_app(app: Flask) -> None:
    @app.after_request
    def headers(resp):
        h = resp.headers
        h.setdefault("Content-Security-Policy", CSP)
        h.setdefault("X-Content-Type-Options", "nosniff")
        h.setdefault("Referrer-Policy", "no-referrer")
        h.setdefault("X-Frame-Options", "DENY")
        h.setdefault("Cross-Origin-Opener-Policy", "same-origin")
        h.setdefault("Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=()")
        if request.is_secure:
            h.setdefault("Strict-Transport-Security", "max-age=31536000")
        if "Cache-Control" not in h:
            h["Cache-Control"] = "private, no-cache"
        if request.endpoint == "static":
            return resp
        # Pages differ by whether htmx asked for a fragment and by the language chosen.
        vary = {v.strip() for v in h.get("Vary", "").split(",") if v.strip()}
        vary |= {"HX-Request", "HX-Target", "Cookie"}
        h["Vary"] = ", ".join(sorted(vary))
        return resp
