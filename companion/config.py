"""Configuration: safe defaults, then the instance folder, then the environment, then a test dict."""
from __future__ import annotations

import os
import pathlib
import secrets


def _secret_key(instance_path: str) -> str:
    """SECRET_KEY from the environment, else one generated once and kept in the instance folder.

    A deployment with several machines must set SECRET_KEY so they agree.
    """
    if os.environ.get("SECRET_KEY"):
        return os.environ["SECRET_KEY"]
    path = pathlib.Path(instance_path) / "secret_key"
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        path.parent.mkdir(parents=True, exist_ok=True)
        key = secrets.token_urlsafe(48)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as fh:
            fh.write(key)
        return key


def defaults(instance_path: str) -> dict:
    from .limits import settings as limit_settings

    return {
        **limit_settings(),
        "DATABASE_URL": os.environ.get("DATABASE_URL")
        or f"sqlite:///{pathlib.Path(instance_path) / 'companion.sqlite3'}",
        # Every request body is small: names, counts, a pasted deck list at most.
        "MAX_CONTENT_LENGTH": 64 * 1024,
        "MAX_FORM_PARTS": 400,
        "SESSION_COOKIE_SAMESITE": "Lax",
        "SESSION_COOKIE_HTTPONLY": True,
        "SESSION_COOKIE_SECURE": os.environ.get("SESSION_COOKIE_SECURE", "") == "1",
        "PERMANENT_SESSION_LIFETIME": 60 * 60 * 24 * 90,
        # A table page stays open all evening: a CSRF token must not expire after an hour.
        "WTF_CSRF_TIME_LIMIT": None,
        "WTF_CSRF_SSL_STRICT": False,
        "BABEL_DEFAULT_LOCALE": "en",
        "LANGUAGES": ("en", "fr"),
        "TRUST_PROXY": os.environ.get("TRUST_PROXY", "") == "1",
        "COMPRESS_MIMETYPES": ["text/html", "text/css", "application/json", "image/svg+xml",
                               "text/javascript", "application/javascript", "application/manifest+json"],
        "COMPRESS_ALGORITHM": ["br", "gzip"],
        # Pages are small (a few KB): quality 1 costs a fifth of quality 4 for nearly the same size.
        "COMPRESS_BR_LEVEL": 1,
        "COMPRESS_BR_WINDOW": 18,
        "COMPRESS_LEVEL": 6,
        "COMPRESS_MIN_SIZE": 600,
        # Static files are compressed once at start-up by companion.assets, not per request.
        "COMPRESS_STREAMS": False,
        "POLL_SECONDS": 3,
        # /healthz reports unhealthy when the SQLite database's disk has less free space than this.
        "HEALTH_MIN_FREE_MB": int(os.environ.get("HEALTH_MIN_FREE_MB") or 50),
        # Retention (`flask --app companion retention`): a table nobody changed for this many days
        # is archived; an archived table untouched for this many more days is deleted.
        "RETENTION_ARCHIVE_DAYS": int(os.environ.get("RETENTION_ARCHIVE_DAYS") or 180),
        "RETENTION_DELETE_DAYS": int(os.environ.get("RETENTION_DELETE_DAYS") or 365),
    }
