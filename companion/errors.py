"""Friendly error pages (and JSON for the API), never a bare 500 with a stack trace."""
from __future__ import annotations

from flask import Flask, jsonify, make_response, render_template, request
from flask_babel import gettext as _
from flask_wtf.csrf import CSRFError

from .db import close_session


def _wants_json() -> bool:
    return request.path.startswith("/api/")


def _page(status: int, title: str, text: str):
    if _wants_json():
        return jsonify({"errors": {"request": [text]}}), status
    return make_response(render_template("error.html", status=status, title=title, text=text), status)


def init_app(app: Flask) -> None:
    @app.errorhandler(400)
    def bad_request(_e):
        return _page(400, _("Something in that request was wrong"),
                     _("The page sent something we could not read. Go back and try again."))

    @app.errorhandler(CSRFError)
    def csrf_error(_e):
        return _page(400, _("This page was out of date"),
                     _("Your page was open for a long time or came from elsewhere. Reload it and try again; "
                       "what you typed may need entering again."))

    @app.errorhandler(403)
    def forbidden(_e):
        return _page(403, _("This is a view-only link"),
                     _("This link shows the table but cannot change it. Ask a player for the table's own link."))

    @app.errorhandler(404)
    def not_found(_e):
        return _page(404, _("Nothing here"),
                     _("No table or page has this address. A table link must be copied whole."))

    @app.errorhandler(405)
    def method_not_allowed(_e):
        return _page(405, _("Not like that"), _("This address does not accept that kind of request."))

    @app.errorhandler(413)
    def too_large(_e):
        return _page(413, _("Too much at once"), _("That was more than this app accepts in one go."))

    @app.errorhandler(503)
    def busy(_e):
        return _page(503, _("Busy"), _("The table is changing very fast right now. Try again in a moment."))

    @app.errorhandler(500)
    def server_error(_e):
        close_session(exc=_e)
        return _page(500, _("Something broke"),
                     _("That should not have happened. Your table is safe; reload the page and try again."))
