"""The rules reference: own-words sections for the four games (content.py), their pages, rule links
and tap-to-explain term popovers for the game pages."""
from __future__ import annotations

from flask import Blueprint, abort, current_app, render_template, request, url_for
from flask_babel import get_locale
from markupsafe import Markup

from ..games import GAMES
from . import content

bp = Blueprint("rules", __name__)


def lang() -> str:
    return "fr" if str(get_locale()) == "fr" else "en"


@bp.get("/rules")
def index():
    current = GAMES.get(request.args.get("game", ""))
    return render_template("rules/index.html", games=GAMES.values(), current=current)


@bp.get("/rules/<game>")
def game_index(game):
    g = GAMES.get(game)
    if g is None:
        abort(404)
    secs = list(content.sections(game, lang()).values())
    groups: dict[str, list] = {}
    for s in secs:
        groups.setdefault(s.group, []).append(s)
    return render_template("rules/game.html", game=g, groups=groups)


@bp.get("/rules/<game>/<slug>")
def section(game, slug):
    g = GAMES.get(game)
    sec = content.section(game, slug, lang())
    if g is None or sec is None:
        abort(404)
    related = [s for s in (content.section(game, r, lang()) for r in sec.related) if s]
    return render_template("rules/section.html", game=g, section=sec, related=related)


class UnknownRule(LookupError):
    pass


@bp.app_template_global()
def rule_url(game: str, slug: str) -> str:
    """Link to a rules section. A link to a section that does not exist fails loudly in tests and
    debug; in production it falls back to the game's table of contents and is logged."""
    if content.section(game, slug) is None:
        if current_app.testing or current_app.debug:
            raise UnknownRule(f"no rules section {game}/{slug}")
        current_app.logger.error("rule link to a missing section: %s/%s", game, slug)
        return url_for("rules.game_index", game=game)
    return url_for("rules.section", game=game, slug=slug)


@bp.app_template_global()
def term(game: str, name: str, label: str | None = None) -> Markup:
    """A term the player can tap to see what it means, from the same content as the reference."""
    sec = content.find_term(game, name, lang())
    if sec is None:
        if current_app.testing or current_app.debug:
            raise UnknownRule(f"no rules section explains the term {game}/{name!r}")
        return Markup.escape(label or name)
    return Markup(render_template("rules/_term.html", game=game, name=label or name, section=sec))
