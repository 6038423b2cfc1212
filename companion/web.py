"""Small helpers for views: what htmx asked for, and safe redirects."""
from __future__ import annotations

from urllib.parse import urlsplit

from flask import request

from .extensions import htmx


def wants_fragment(target: str) -> bool:
    """True when htmx asked to swap the element with id `target`.

    Boosted navigations and history restores send HX-Request too but want a full page; only a
    request aimed at our fragment gets the fragment.
    """
    return bool(htmx) and not htmx.boosted and not htmx.history_restore_request and htmx.target == target


def local_path(value: str | None, default: str = "/") -> str:
    """A redirect target that stays on this site (no scheme, no host, no protocol-relative //)."""
    if not value:
        return default
    parts = urlsplit(value)
    if parts.scheme or parts.netloc or not value.startswith("/") or value.startswith("//") or "\\" in value:
        return default
    return value
