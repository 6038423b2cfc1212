"""Friendly error pages (and JSON for the API), never a bare 500 with a stack trace."""
from __future__ import annotations

import logging

from flask import Flask, jsonify, make_response, render_template, request
from flask_babel import gettext as _, ngettext
from flask_wtf.csrf import CSRFError
from sqlalchemy.exc import DataError, InternalError, OperationalError, StatementError

from .db import Unavailable, close_session, unavailable
from .domain import Invalid
from .stored import Refused

log = logging.getLogger(__name__)


def _wants_json() -> bool:
    return request.path.startswith("/api/")


def _page(status: int, title: str, text: str, headers: dict | None = None):
    if _wants_json():
        resp = make_response(jsonify({"errors": {"request": [text]}}), status)
    else:
        resp = make_response(render_template("error.html", status=status, title=title, text=text), status)
    resp.headers.update(headers or {})
    return resp


error_page = _page  # for the packages that answer errors of their own (tables/views.py)


def _fresh_connections() -> None:
    """After a read-only refusal, let the pool go: a PostgreSQL connection opened while the database
    was read-only (default_transaction_read_only, a standby) stays read-only for its whole life, so
    pooled ones would keep refusing after the database accepts writes again. New connections
    (made as needed, checked by pre-ping) take the database as it is now."""
    from flask import current_app

    engine = current_app.extensions.get("companion.engine")
    if engine is not None and engine.dialect.name == "postgresql":
        engine.dispose()


def cannot_save(exc: Exception | None = None, reason: str = "error"):
    """503: the database cannot take the write now (a lock held too long, a full disk, a read-only
    file or transaction). Nothing was written; say so plainly, and log it for whoever runs the
    server: a full disk or a read-only file does not fix itself."""
    close_session(exc=exc or RuntimeError("cannot save"))
    if reason == "readonly":
        _fresh_connections()
    log.error("a write could not be saved: %s %s: %s", request.method, request.path, exc)
    if reason == "locked":
        text = _("The table was busy for too long, so that change was not saved. Nothing was lost: "
                 "try again in a moment.")
    else:
        text = _("The server can't save anything right now, so that change was not saved. Nothing that "
                 "was saved before is lost: try again in a few minutes.")
    return _page(503, _("Not saved"), text, {"Retry-After": "5" if reason == "locked" else "60"})


def init_app(app: Flask) -> None:
    @app.errorhandler(400)
    def bad_request(_e):
        return _page(400, _("Something in that request was wrong"),
                     _("The page sent something we could not read. Go back and try again."))

    @app.errorhandler(CSRFError)
    def csrf_error(_e):
        # X-Refused tells the live table's outbox (static/js/10-live.js) that nothing was applied and
        # only the token was refused, so it fetches the phone's token and sends the same tap again.
        return _page(400, _("This page was out of date"),
                     _("Your page was open for a long time or came from elsewhere. Reload it and try again; "
                       "what you typed may need entering again."), {"X-Refused": "csrf"})

    @app.errorhandler(403)
    def forbidden(_e):
        return _page(403, _("This is a view-only link"),
                     _("This link shows the table but cannot change it. Ask a player for the table's own link."))

    @app.errorhandler(404)
    def not_found(_e):
        return _page(404, _("Nothing here"),
                     _("No table or page has this address. A table link must be copied whole."))

    @app.errorhandler(423)
    def archived(_e):
        return _page(423, _("This table is archived"),
                     _("An archived table can be read but not changed. Restore it on its “Players & table” "
                       "page to play on."))

    @app.errorhandler(405)
    def method_not_allowed(_e):
        return _page(405, _("Not like that"), _("This address does not accept that kind of request."))

    @app.errorhandler(413)
    def too_large(_e):
        return _page(413, _("Too much at once"), _("That was more than this app accepts in one go."))

    @app.errorhandler(503)
    def busy(e):
        return cannot_save(e, "locked")

    @app.errorhandler(Unavailable)
    def store_unavailable(err):
        # The store names what stopped the write ("locked", "full", "readonly"); it rolled back.
        return cannot_save(err, err.reason)

    @app.errorhandler(OperationalError)
    def database_unavailable(e):
        # The same outside the store (e.g. saved tracks): disk full, read-only, locked, unreachable.
        return cannot_save(e, unavailable(e).reason)

    @app.errorhandler(InternalError)
    def database_internal(e):
        # PostgreSQL: a read-only transaction (class 25, e.g. a standby or a read-only switch),
        # out of resources (53) or shut down (57): the server cannot save. Anything else is a bug.
        state = str(getattr(e.orig, "sqlstate", "") or "")
        if state[:2] in ("25", "53", "57", "58"):
            return cannot_save(e, "readonly" if state[:2] == "25" else "error")
        raise e

    @app.errorhandler(DataError)
    def database_refused_input(e):
        # A value the database refuses (an out-of-range number, a NUL byte on PostgreSQL): the
        # input's fault, so a 4xx; the parsers and cleaners should have caught it first.
        close_session(exc=e)
        log.warning("database refused input: %s %s: %s", request.method, request.path, getattr(e, "orig", e))
        return _page(400, _("Something in that request was wrong"),
                     _("The page sent something we could not read. Go back and try again."))

    @app.errorhandler(StatementError)
    def column_refused_value(e):
        # The same refusal made by our column types before the driver (companion/stored.py), on
        # SQLite as on PostgreSQL. Any other statement error is a bug.
        if isinstance(e.orig, Refused):
            return database_refused_input(e)
        raise e

    @app.errorhandler(Refused)
    def json_refused_value(e):
        # psycopg calls the JSON serializer itself, and SQLAlchemy passes on what it raises as is.
        return database_refused_input(e)

    @app.errorhandler(Invalid)
    def refused(e):
        # Pages and the API answer their own refusals next to the field; this catches the rest.
        close_session(exc=e)
        if _wants_json():
            return jsonify({"errors": e.as_dict(_)}), 422
        return _page(422, _("That was not saved"), " ".join(m for ms in e.as_dict(_).values() for m in ms))

    @app.errorhandler(429)
    def too_many(e):
        from .limits import retry_after

        retry = retry_after()
        return _page(429, _("Slow down a little"),
                     ngettext("This is more than the app accepts in a short time. Nothing was lost: "
                              "wait %(num)d second and try again.",
                              "This is more than the app accepts in a short time. Nothing was lost: "
                              "wait %(num)d seconds and try again.", int(retry)),
                     {"Retry-After": str(int(retry))})

    @app.errorhandler(500)
    def server_error(_e):
        close_session(exc=_e)
        return _page(500, _("Something broke"),
                     _("That should not have happened. Your table is safe; reload the page and try again."))
