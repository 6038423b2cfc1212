"""The result as an image (issue 35): the routes and the words, around the pure drawing in picture.py.

- /t/<token>/result.png  the finished table's standings as a PNG (either link; `?link=1` adds the
                         table's view-only link, never the edit link; `?dl=1` answers it as a download)
- /t/<token>/result.svg  the SVG the PNG is drawn from (its text nodes are the words of the picture)
- /g/<token>/plays/<id>/result.png  the same picture of one of the group's plays (no link in it)

Every route is GET only and reads: nothing here changes a table. A picture is drawn once per
(play, table version, language, link) and kept in memory; the ETag says the same, so a client
that asks with it gets 304 (browsers are told no-store, as for every page behind a link). Drawing counts against LIMIT_RESULT_IMAGES (limits.py); a cache hit or a 304 does not.
"""
from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict

from flask import abort, current_app, make_response, request, url_for
from flask_babel import format_date, get_locale
from flask_babel import gettext as _
from werkzeug.exceptions import HTTPException

from ..db import get_session
from ..games import GAMES
from ..limits import result_images
from ..models import Play
from . import export, picture, sync
from .views import _finished_play, bp, local, outcome_term

KEPT = 64  # pictures kept in memory per process (about 40 KB each)
_lock = threading.Lock()


def words_for(play: Play) -> picture.Words:
    """What the picture says, in the reader's language (the share text's own words for the result)."""
    data = play.data
    head, detail = export.result_words(data, _, outcome_term)
    measure = {"points": _("Points"), "penalty": _("Penalty points"), "renown": _("Renown")}.get(data.get("measure") or "")
    when = format_date(local(play.finished_at), "EEE d MMM y")
    table = picture.clean(data.get("table"))
    return picture.Words(game=_(GAMES[play.game].title), when=f"{table} · {when}" if table else when,
                         headline=_capital(head), detail=_capital(detail) if detail else None,
                         measure=None if data.get("no_points") else measure,
                         sides={"sins": _("Sins player"), "heroes": _("Hero")},
                         link_label=_("See the table (view only):"), footer=_("Table Companion"))


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def rows_for(data: dict) -> list[picture.Row]:
    """The players by rank, seat order among equals, as the picture lists them."""
    players = data.get("players") or []
    ordered = sorted(range(len(players)), key=lambda i: (players[i].get("rank") or 0, i))
    return [picture.Row(name=p.get("name") or "", colour=p.get("colour"), rank=p.get("rank") or 0,
                        winner=bool(p.get("winner")),
                        score=export.signed(p["score"]) if isinstance(p.get("score"), int) else None,
                        side=p.get("team") if data.get("no_points") else None,
                        role=export.role_text(p, _) if not data.get("no_points") else _role_only(p))
            for p in (players[i] for i in ordered)]


def _role_only(p: dict) -> str:
    """The Others: the side is in its own column, so the role line says only the Sin or the heroes."""
    role = p.get("role") or {}
    return role.get("sin") or ", ".join(role.get("heroes") or [])


def _key(play: Play, link: str | None) -> tuple:
    return (play.id, play.table_version, str(get_locale()), link, picture.RENDER_VERSION)


def etag_of(key: tuple) -> str:
    return hashlib.sha256(repr(key).encode()).hexdigest()[:32]


def drawing(play: Play, link: str | None) -> tuple[str, bytes, str]:
    """(svg, png, etag) of a play's picture: from memory, or drawn now (and counted)."""
    key = _key(play, link)
    cache = current_app.extensions.setdefault("companion.result_images", OrderedDict())
    with _lock:
        found = cache.get(key)
        if found is not None:
            cache.move_to_end(key)
    if found is None:
        svg = picture.result_svg(words_for(play), rows_for(play.data), link)
        found = (svg, picture.render_png(svg))
        with _lock:
            cache[key] = found
            while len(cache) > KEPT:
                cache.popitem(last=False)
    return found[0], found[1], etag_of(key)


@bp.app_template_global()
def result_image_height(play: Play) -> int:
    """The picture's height in CSS pixels at its width (picture.WIDTH), for the page's <img>."""
    svg = picture.result_svg(words_for(play), rows_for(play.data))
    return int(svg.split('height="', 1)[1].split('"', 1)[0])


def _flag(name: str) -> bool:
    """A yes/no query value: absent or "" is no, "1" is yes; anything else is a bad request."""
    value = request.args.get(name, "")
    if value not in ("", "1"):
        abort(400)
    return value == "1"


def _answer(play: Play, link: str | None, kind: str, download: bool = False):
    key = _key(play, link)
    etag = etag_of(key)
    if etag in request.if_none_match:
        resp = make_response("", 304)
    else:
        svg, png, etag = drawing(play, link)
        resp = make_response(png if kind == "png" else svg)
        resp.headers["Content-Type"] = "image/png" if kind == "png" else "image/svg+xml; charset=utf-8"
    resp.set_etag(etag)
    # The URL holds a table's or a group's link: like every such page, never kept by a browser's
    # or a proxy's cache (issue 27; tables/views.py). The service worker's offline copy is its own
    # Cache Storage. What saves the CPU is the memory cache above; the ETag still answers a client
    # that asks with If-None-Match.
    resp.headers["Cache-Control"] = "no-store"
    resp.headers["Vary"] = "Cookie, Accept-Language"
    name = f"result-{play.game}-{play.id}.{kind}"
    resp.headers["Content-Disposition"] = f'{"attachment" if download else "inline"}; filename="{name}"'
    return resp


def _which() -> tuple[Play, str | None, str]:
    """The play this request is about, the link to put in its picture (or None), and the kind."""
    args = request.view_args or {}
    kind = "svg" if request.endpoint == "groups.result_svg" else "png"
    if request.endpoint == "groups.group_result_png":
        found = sync.group_by_token(get_session(), args.get("token", ""))  # either of the group's links
        play = get_session().get(Play, args.get("play_id")) if found is not None else None
        if play is None or play.group_id != found[0].id:
            abort(404)
        return play, None, kind
    table, play = _finished_play(args.get("token", ""))  # 404 before the game ends; either link may look
    link = url_for("tables.page", token=table.view_token, _external=True) if _flag("link") else None
    return play, link, kind


def _already_drawn() -> bool:
    """Answered without drawing: the picture is in memory, or the phone has it (304). A request
    refused anyway (404, 400) draws nothing either."""
    try:
        play, link, _kind = _which()
    except HTTPException:
        return True
    key = _key(play, link)
    return key in current_app.extensions.get("companion.result_images", {}) or etag_of(key) in request.if_none_match


limited = result_images(_already_drawn)


def _picture():
    play, link, kind = _which()
    return _answer(play, link, kind, download=_flag("dl"))


@bp.get("/t/<token>/result.png")
@limited
def result_png(token):
    return _picture()


@bp.get("/t/<token>/result.svg")
@limited
def result_svg(token):
    return _picture()


@bp.get("/g/<token>/plays/<int:play_id>/result.png")
@limited
def group_result_png(token, play_id):
    return _picture()
