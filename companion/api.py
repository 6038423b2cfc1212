"""The JSON API: stateless rule calculators under /api/v1, no cookie or CSRF needed.

Games add their endpoints to `api` with `@json_endpoint`, which reads the body safely and turns
domain `Invalid` errors into 422 `{"errors": {"field.path": ["message"]}}`. No input gives a 500.
"""
from __future__ import annotations

from functools import wraps

from flask import Blueprint, jsonify, request
from flask_babel import gettext

from .domain import Invalid

api = Blueprint("api", __name__, url_prefix="/api/v1")


def errors(body: dict[str, list[str]], status: int):
    return jsonify({"errors": body}), status


def json_endpoint(view):
    """Wrap `view(payload: dict) -> dict` as a JSON POST endpoint."""

    @wraps(view)
    def wrapper(*args, **kwargs):
        if not request.is_json:
            return errors({"body": ["Send a JSON object with Content-Type: application/json."]}, 415)
        try:
            payload = request.get_json(silent=True)
        except RecursionError:  # "[[[[...]]]]" nested past Python's limit: bad input, not a server error
            payload = None
        if not isinstance(payload, dict):
            return errors({"body": ["The body must be a JSON object."]}, 400)
        try:
            return jsonify(view(payload, *args, **kwargs))
        except Invalid as err:
            return errors(err.as_dict(gettext), 422)

    return wrapper


@api.errorhandler(404)
def api_not_found(_err):
    return errors({"url": ["No such API endpoint."]}, 404)


@api.errorhandler(405)
def api_method(_err):
    return errors({"method": ["This endpoint does not accept that method."]}, 405)
