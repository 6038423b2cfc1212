"""The rules reference: own-words sections for the four games (content.py), their pages, search
(search.py: SQLite FTS5 + bm25, in its own in-memory database), rule links and tap-to-explain term
popovers for the game pages, and what keeps the reference readable offline (a service worker at
/sw.js and an installable web app manifest).

For the game pages (template globals):
    rule_url(game, slug)          the URL of a section; fails loudly in tests and debug if it is missing
    term(game, name, label=None)  a term with a tap-to-explain popover (details/summary, works without
                                  JavaScript); fails loudly in tests and debug if no section explains it;
                                  without a label, a French page shows the glossary's French term

The content folder is companion/rules/content unless the app's config sets RULES_CONTENT (tests).
"""
from __future__ import annotations

import hashlib
import pathlib
from functools import lru_cache
from urllib.parse import parse_qs, urlsplit

from flask import (Blueprint, abort, current_app, jsonify, make_response, render_template, request,
                   url_for)
from flask_babel import force_locale, get_locale
from flask_babel import gettext as _
from jinja2 import pass_context
from markupsafe import Markup

from ..api import api, errors
from ..games import GAMES
from ..web import wants_fragment
from . import content
from .search import LIMIT, MAX_QUERY, Index, Synonyms

bp = Blueprint("rules", __name__)

RESULT_TARGETS = ("hs", "rs")  # the header's search sheet and the search page: "<prefix>-results"


# -- content and index for the current app ---------------------------------------------------------

def content_root() -> pathlib.Path:
    return pathlib.Path(current_app.config.get("RULES_CONTENT") or content.CONTENT)


def library() -> content.Library:
    return content.library(content_root())


def player_counts() -> dict[str, tuple[int, int]]:
    """{game: (fewest, most players)}, from the game registry: what the search reads a question's
    player count against."""
    return {key: (game.min_players, game.max_players) for key, game in GAMES.items()}


@lru_cache(maxsize=8)
def _index(root: pathlib.Path) -> Index:
    return Index.of(content.library(root).all_sections(), player_counts())


def search_index() -> Index:
    """The search index of the current app's content (built once per process and content folder)."""
    return _index(content_root())


@bp.record_once
def _warm(state):
    """Read the content and build the index when the app starts, so a content error shows at once
    and the first search is as fast as the others."""
    with state.app.app_context():
        search_index()


@bp.app_context_processor
def _rules_context():
    return {"max_query": MAX_QUERY, "reader_lang": lang()}


def lang() -> str:
    """The reader's language (the interface's)."""
    return "fr" if str(get_locale()) == "fr" else "en"


def reading_lang() -> str:
    """The language of the rules text on this page: the reader's, unless ?lang= asks for the other."""
    asked = request.args.get("lang")
    return asked if asked in content.LANGS else lang()


def _game_or_404(key: str):
    game = GAMES.get(key)
    if game is None:
        abort(404)
    return game


def _section_url(game: str, slug: str, shown_lang: str, anchor: str | None = None) -> str:
    """A section's URL that opens it in `shown_lang` (adds ?lang= only where the default differs)."""
    default = lang() if library().translated(game, slug, lang()) else "en"
    extra = {"lang": shown_lang} if shown_lang != default else {}
    return url_for("rules.section", game=game, slug=slug, _anchor=anchor, **extra)


# -- pages -----------------------------------------------------------------------------------------

@bp.app_template_global()
@pass_context
def rules_scope(ctx):
    """The game a page is about, for the header's search: a table's game, the game of a rules page or
    of a page about one game (its view's `game`, its URL, or its rules_url block in base.html)."""
    t = ctx.get("t")
    if t is not None and getattr(t, "game", None) is not None:
        return t.game
    page_game = ctx.get("game")
    if getattr(page_game, "key", None) in GAMES:
        return page_game
    args = request.view_args or {}
    # A page may name its game through base.html's rules_url block (rules_home: "/rules?game=...").
    named = parse_qs(urlsplit(str(ctx.get("rules_home") or "")).query).get("game", [None])[0]
    for key in (args.get("game"), args.get("game_key"), request.args.get("game"), named):
        if key in GAMES:
            return GAMES[key]
    return None


def _search(q: str, game: str | None):
    """(result, fallback): the hits in the chosen game, and the other games' when it has none."""
    result = search_index().search(q, [game] if game else None, lang())
    fallback = None
    if game and not result.hits:
        others = [g for g in search_index().games if g != game]
        fallback = search_index().search(q, others, lang()) if others else None
    return result, fallback


def _hit_view(hit):
    return {
        "hit": hit,
        "game": GAMES[hit.game],
        "url": _section_url(hit.game, hit.slug, hit.lang, hit.anchor),
        "foreign": hit.lang != lang(),
    }


def _query_problem(q: str) -> str | None:
    if len(q) > MAX_QUERY:
        return _("Keep it under %(max)d characters.", max=MAX_QUERY)
    return None


@bp.get("/rules")
def index():
    game = request.args.get("game")
    return render_template("rules/search.html", games=list(GAMES.values()), q="", game=game if game in GAMES else None,
                           result=None, fallback=None, error=None, view=_hit_view, counts=_counts())


@bp.get("/rules/search")
def search():
    """Search the rules: the whole page, or (htmx) the results for the header sheet or the page."""
    q = request.args.get("q", "")
    game = request.args.get("game") or None
    if game not in GAMES:
        game = None  # a stale or hand-made link searches every game rather than failing
    error = _query_problem(q)
    result = fallback = None
    if not error and q.strip():
        result, fallback = _search(q, game)
    status = 422 if error else 200
    for prefix in RESULT_TARGETS:
        if wants_fragment(f"{prefix}-results"):
            html = render_template("rules/_results.html", prefix=prefix, q=q, game=game, result=result,
                                   fallback=fallback, error=error, view=_hit_view, oob=True)
            return html, status
    html = render_template("rules/search.html", games=list(GAMES.values()), q=q, game=game, result=result,
                           fallback=fallback, error=error, view=_hit_view, counts=_counts())
    return html, status


def _counts() -> dict[str, int]:
    return {key: len(library().sections(key)) for key in GAMES}


@bp.get("/rules/<game>")
def game_index(game):
    g = _game_or_404(game)
    secs = list(library().sections(game, lang()).values())
    groups: dict[str, list] = {}
    for s in secs:
        groups.setdefault(s.group, []).append(s)
    return render_template("rules/game.html", game=g, groups=groups, count=len(secs),
                           our_translation=_our_translation(game), glossary=content.glossary(game))


def _our_translation(game: str) -> bool:
    """True when the reader reads French and this game's French text is our own translation
    (the publisher printed no French rulebook for it)."""
    return lang() == "fr" and (game, "fr") in library().data and not content.glossary(game).french_rulebook


@bp.get("/rules/<game>/glossary")
def glossary(game):
    """The game's French and English terms side by side, each linked to the section explaining it."""
    g = _game_or_404(game)
    lib = library()
    rows = []
    for en, fr in content.glossary(game).terms:
        sec = lib.find_term(game, en, lang()) or lib.find_term(game, fr, lang())
        rows.append({"en": en, "fr": fr, "section": sec})
    return render_template("rules/glossary.html", game=g, rows=rows,
                           our_translation=_our_translation(game))


@bp.get("/rules/<game>/<slug>")
def section(game, slug):
    g = _game_or_404(game)
    shown = reading_lang()
    lib = library()
    sec = lib.section(game, slug, shown)
    if sec is None:
        abort(404)
    related = [s for s in (lib.section(game, r, shown) for r in sec.related) if s]
    order = list(lib.sections(game, shown).values())
    i = next(n for n, s in enumerate(order) if s.slug == slug)
    others = [x for x in content.LANGS if x != sec.lang and lib.translated(game, slug, x)]
    switch = [(x, _section_url(game, slug, x)) for x in others]
    return render_template(
        "rules/section.html", game=g, section=sec, related=related, switch=switch,
        our_translation=sec.lang == "fr" and not content.glossary(game).french_rulebook,
        previous=order[i - 1] if i > 0 else None, next=order[i + 1] if i + 1 < len(order) else None,
    )


@bp.get("/rules/offline")
def offline():
    """What the service worker shows for a rules page it has not saved, when the network is gone."""
    return render_template("rules/offline.html")


@bp.get("/rules/offline.json")
def offline_index():
    """Every game's sections (URLs and titles in the reader's language): the service worker saves
    these pages, and the offline table of contents lists the ones saved on this phone."""
    games = []
    for key, g in GAMES.items():
        secs = library().sections(key, lang()).values()
        games.append({
            "key": key, "title": _(g.title), "url": url_for("rules.game_index", game=key),
            "sections": [{"slug": s.slug, "title": s.title, "group": s.group,
                          "url": url_for("rules.section", game=key, slug=s.slug)} for s in secs],
        })
    resp = jsonify({"lang": lang(), "games": games})
    resp.headers["Cache-Control"] = "no-cache"
    return resp


# -- offline: service worker and manifest ----------------------------------------------------------

ICONS = (("icons/icon-192.png", "192x192", "any"), ("icons/icon-512.png", "512x512", "any"),
         ("icons/maskable-512.png", "512x512", "maskable"))


def _fingerprint(*parts: str) -> str:
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:16]


@bp.get("/sw.js")
def service_worker():
    """The service worker, at the site root so its scope covers /rules and /static."""
    assets = current_app.extensions["companion.assets"]
    asset_url = current_app.jinja_env.globals["asset_url"]
    static = ["app.css", "app.js", "htmx.min.js", "icon.svg"] + [name for name, _, _ in ICONS]
    precache = [asset_url(name) for name in static if name in assets]
    pages = [url_for("rules.index"), url_for("rules.offline"), url_for("rules.offline_index")]
    sections = _content_digest(content_root())

    def render(version: str) -> str:
        return render_template(
            "rules/sw.js", version=version, precache=precache + pages, offline_url=url_for("rules.offline"),
            index_url=url_for("rules.offline_index"), rules_root=url_for("rules.index"),
            search_url=url_for("rules.search"), static_root=url_for("static", filename=""),
        )

    # A new version (new static files, changed content, a changed worker) makes the phone install
    # the new worker, which saves everything afresh and drops the old caches.
    body = render(_fingerprint(render(""), sections))
    resp = make_response(body)
    resp.headers["Content-Type"] = "text/javascript; charset=utf-8"
    resp.headers["Cache-Control"] = "no-cache"
    return resp


@lru_cache(maxsize=8)
def _content_digest(root: pathlib.Path) -> str:
    """A fingerprint of every section's text: changed content means a new service worker."""
    return _fingerprint(*(f"{s.game}/{s.lang}/{s.slug}\n{s.title}\n{s.summary}\n{s.source}\n{s.body}"
                          for s in content.library(root).all_sections()))


@bp.get("/manifest.webmanifest")
def manifest():
    """The web app manifest: add the app to the home screen and open it full screen.

    In the phone's language: `?lang=` says which (base.html adds it for French), since a browser
    fetches the manifest without the page's cookies, so the language chosen in the app's footer
    would not reach it. The `id` stays the same in every language: one installed app."""
    asset_url = current_app.jinja_env.globals["asset_url"]
    asked = request.args.get("lang")
    if asked in content.LANGS and asked != lang():
        with force_locale(asked):
            return manifest()
    body = {
        "id": url_for("tables.home"),
        "name": _("Table Companion"),
        "short_name": _("Companion"),
        "description": _("Setup, trackers, scoring and rules for your board game table."),
        "lang": lang(),
        "start_url": url_for("tables.home"),
        "scope": url_for("tables.home"),
        "display": "standalone",
        "background_color": "#1d1b22",
        "theme_color": "#1d1b22",
        "icons": [{"src": asset_url(name), "sizes": size, "type": "image/png", "purpose": purpose}
                  for name, size, purpose in ICONS],
        "shortcuts": [{"name": _("Rules"), "url": url_for("rules.index")}],
    }
    resp = jsonify(body)
    resp.headers["Content-Type"] = "application/manifest+json"
    resp.headers["Cache-Control"] = "no-cache"
    return resp


# -- the JSON API ----------------------------------------------------------------------------------

@api.get("/rules/search")
def api_search():
    """GET /api/v1/rules/search?q=...&game=...&lang=...

    {"results": [{"game", "section", "title", "url", "snippet", "snippet_html", "lang"}]}, best first,
    at most 10. `game` (sins, gibbon, fivesails, others) limits the search to one game; `lang` (en, fr)
    is the reader's language (default: the request's). `snippet` is plain text; `snippet_html` is the
    same text escaped, with <mark> around the words that matched. A missing, blank or over-long query,
    an unknown game or language answers 400 {"errors": {"q" | "game" | "lang": [message]}}.
    """
    problems: dict[str, list[str]] = {}
    q = request.args.get("q", "")
    game = request.args.get("game")
    reader = request.args.get("lang") or lang()
    if not q.strip():
        problems["q"] = [_("Type what you are looking for.")]
    elif len(q) > MAX_QUERY:
        problems["q"] = [_("Keep it under %(max)d characters.", max=MAX_QUERY)]
    if game is not None and game not in GAMES:
        problems["game"] = [_("Unknown game: use one of %(keys)s.", keys=", ".join(GAMES))]
    if reader not in content.LANGS:
        problems["lang"] = [_("Unknown language: use en or fr.")]
    if problems:
        return errors(problems, 400)
    result = search_index().search(q, [game] if game else None, reader)
    out = []
    for hit in result.hits[:LIMIT]:
        default = reader if library().translated(hit.game, hit.slug, reader) else "en"
        extra = {"lang": hit.lang} if hit.lang != default else {}
        out.append({
            "game": hit.game, "section": hit.slug, "title": hit.title_text,
            "url": url_for("rules.section", game=hit.game, slug=hit.slug, _anchor=hit.anchor, **extra),
            "snippet": hit.snippet_text, "snippet_html": str(hit.snippet_html), "lang": hit.lang,
        })
    return jsonify({"results": out})


# -- for the game pages ----------------------------------------------------------------------------

class UnknownRule(LookupError):
    pass


@bp.app_template_global()
def rule_url(game: str, slug: str) -> str:
    """Link to a rules section. A link to a section that does not exist fails loudly in tests and
    debug; in production it falls back to the game's table of contents and is logged."""
    if library().section(game, slug) is None:
        if current_app.testing or current_app.debug:
            raise UnknownRule(f"no rules section {game}/{slug}")
        current_app.logger.error("rule link to a missing section: %s/%s", game, slug)
        return url_for("rules.game_index", game=game)
    return url_for("rules.section", game=game, slug=slug)


@bp.app_template_global()
def term(game: str, name: str, label: str | None = None) -> Markup:
    """A term the player can tap to see what it means, from the same content as the reference."""
    if label is None and lang() == "fr":
        label = content.glossary(game).french(name)  # the French screens' word for the term
    sec = library().find_term(game, name, lang())
    if sec is None:
        if current_app.testing or current_app.debug:
            raise UnknownRule(f"no rules section explains the term {game}/{name!r}")
        current_app.logger.error("term without a rules section: %s/%s", game, name)
        return Markup.escape(label or name)
    return Markup(render_template("rules/_term.html", game=game, name=label or name, section=sec,
                                  foreign=sec.lang != lang()))
