"""The tables this phone has opened, newest first, remembered in a cookie (no accounts)."""
from __future__ import annotations

from flask import request

from .tokens import looks_like_token

COOKIE = "tables"
KEEP = 30
MAX_AGE = 60 * 60 * 24 * 365


def tokens() -> list[str]:
    raw = request.cookies.get(COOKIE, "")
    return [t for t in raw.split(".") if looks_like_token(t)][:KEEP]


def remember(resp, token: str):
    """Put `token` first in this phone's list of tables."""
    known = tokens()
    if known[:1] == [token]:
        return resp  # already first: no need to send the cookie again
    current = [t for t in known if t != token]
    value = ".".join([token] + current[: KEEP - 1])
    resp.set_cookie(COOKIE, value, max_age=MAX_AGE, httponly=True, samesite="Lax",
                    secure=request.is_secure, path="/")
    return resp


def forget(resp, token: str):
    value = ".".join(t for t in tokens() if t != token)
    resp.set_cookie(COOKIE, value, max_age=MAX_AGE, httponly=True, samesite="Lax",
                    secure=request.is_secure, path="/")
    return resp


def replace(resp, old: str, new: str):
    """The table's edit link changed: this phone's list holds the new one, first, and not the old."""
    value = ".".join([new] + [t for t in tokens() if t not in (old, new)][: KEEP - 1])
    resp.set_cookie(COOKIE, value, max_age=MAX_AGE, httponly=True, samesite="Lax",
                    secure=request.is_secure, path="/")
    return resp
