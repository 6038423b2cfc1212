"""Routes that belong to no game: health, a trivial route for the benchmark's baseline."""
from __future__ import annotations

from flask import Blueprint, current_app, jsonify
from sqlalchemy import text

from .db import get_session

bp = Blueprint("core", __name__)


@bp.get("/healthz")
def healthz():
    """200 when the app can reach its database; 503 with the reason otherwise."""
    try:
        get_session().execute(text("SELECT 1")).scalar_one()
    except Exception as exc:  # any database failure means unhealthy, whatever its type
        current_app.logger.warning("health check failed: %s", exc)
        return jsonify({"status": "error", "database": "unreachable"}), 503
    return jsonify({"status": "ok", "database": "ok"})


@bp.get("/ping")
def ping():
    """The cheapest route there is: the benchmark's yardstick for everything else."""
    return "pong", 200, {"Content-Type": "text/plain; charset=utf-8"}
