"""Routes that belong to no game: health, a trivial route for the benchmark's baseline."""
from __future__ import annotations

import os
import shutil

from flask import Blueprint, current_app, jsonify
from sqlalchemy import text
from sqlalchemy.engine import make_url

from .db import get_session, normalize_url
from .models import Preset

bp = Blueprint("core", __name__)


@bp.get("/healthz")
def healthz():
    """200 when the app can reach its database and write to it; 503 with the reason otherwise.

    Writing is proved, not assumed: a row is inserted and rolled back (a read-only database, a
    read-only transaction or a lost permission fails here), and for SQLite the free space of the
    database's disk is checked against HEALTH_MIN_FREE_MB. A SQLite file opened read-only at start
    (db.read_only_reason) is unhealthy with its reason, though every page is served.
    """
    session = get_session()
    try:
        session.execute(text("SELECT 1")).scalar_one()
    except Exception as exc:  # any database failure means unhealthy, whatever its type
        session.rollback()
        current_app.logger.error("health check: database unreachable: %s", exc)
        return jsonify({"status": "error", "database": "unreachable"}), 503
    read_only = current_app.extensions.get("companion.read_only")
    if read_only:
        current_app.logger.error("health check: the database is read-only: %s", read_only)
        return jsonify({"status": "error", "database": "read-only",
                        "reason": f"database is read-only: {read_only}"}), 503
    try:
        session.add(Preset(game="health", kind="health", name="health", data={}))
        session.flush()
    except Exception as exc:
        current_app.logger.error("health check: database refuses writes: %s", exc)
        return jsonify({"status": "error", "database": "read-only"}), 503
    finally:
        session.rollback()
    free = _free_mb(current_app.config["DATABASE_URL"])
    if free is not None and free < current_app.config["HEALTH_MIN_FREE_MB"]:
        current_app.logger.error("health check: %d MB free on the database's disk", free)
        return jsonify({"status": "error", "database": "disk full", "free_mb": free}), 503
    return jsonify({"status": "ok", "database": "ok"})


def _free_mb(url: str) -> int | None:
    """Free space (MB) on the disk of a SQLite database file; None for other databases."""
    parsed = make_url(normalize_url(url))
    if parsed.get_backend_name() != "sqlite" or not parsed.database or parsed.database == ":memory:":
        return None
    folder = os.path.dirname(os.path.abspath(parsed.database))
    try:
        return shutil.disk_usage(folder).free // (1024 * 1024)
    except OSError:
        return None


@bp.get("/ping")
def ping():
    """The cheapest route there is: the benchmark's yardstick for everything else."""
    return "pong", 200, {"Content-Type": "text/plain; charset=utf-8"}
