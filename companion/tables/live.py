"""Rendering a table and acting on it: the pieces every game's views use.

A table page is one *live region* (`#live`) holding the current page of the table. Every action
answers with a fresh live region (htmx swaps it) or, without JavaScript, a 303 back to the page.
Actions are declared in actions.py, the one door that changes a table. Other phones hear of a new
version by push (stream.py) and then fetch `?since=<version>`, or poll it every few seconds when
they cannot hold a stream; it answers 204 until something changes.
"""
from __future__ import annotations

import gzip
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from urllib.parse import parse_qsl, urlsplit

import brotli
from flask import (abort, current_app, flash, g, get_flashed_messages, make_response, render_template,
                   request, session, url_for)
from flask_babel import get_locale
from flask_babel import gettext as _
from flask_wtf.csrf import generate_csrf
from werkzeug.datastructures import MultiDict

from ..db import get_session
from ..domain import N_
from ..models import Table
from ..numbers import parse_int
from ..web import wants_fragment
from . import store
from .game import Game, Page, games

LIVE_ID = "live"
SETTINGS = Page("table", N_("Players & table"), "tables/_settings.html", tab=N_("Players"))


@dataclass
class Bound:
    """What a player submitted to one form, kept so an error re-renders it as typed."""

    key: str | None = None
    values: MultiDict = field(default_factory=MultiDict)
    errors: dict[str, list[str]] = field(default_factory=dict)
    general: list[str] = field(default_factory=list)
    # Field errors a field macro has shown; the rest (e.g. of hidden fields) show with the form.
    shown: set = field(default_factory=set)

    def value(self, key: str, name: str, default=None):
        if self.key is not None and key == self.key and name in self.values:
            return self.values.get(name)
        return default

    def checked(self, key: str, name: str, value: str, default: bool) -> bool:
        if self.key is not None and key == self.key:
            return value in self.values.getlist(name)
        return default

    def field_errors(self, key: str, name: str) -> list[str]:
        if key != self.key:
            return []
        self.shown.add(name)
        return self.errors.get(name, [])

    def form_errors(self, key: str) -> list[str]:
        """Messages not shown next to a field: call after the form's fields are rendered."""
        if key != self.key:
            return []
        rest = [m for name, msgs in self.errors.items() if name not in self.shown for m in msgs]
        return self.general + rest


@dataclass
class TableView:
    """Everything a table's templates need, as `t`."""

    table: Table
    game: Game
    page: Page
    readonly: bool
    tok: str  # the token this phone used: never show the edit token to a spectator

    @property
    def state(self) -> dict:
        return self.table.state

    @property
    def players(self) -> list[dict]:
        return self.table.state["players"]

    @property
    def gs(self) -> dict:
        """The game's own state."""
        return self.table.state.get("game", {})

    def player(self, player_id: int) -> dict | None:
        return next((p for p in self.players if p["id"] == player_id), None)

    def url(self, endpoint: str, **values) -> str:
        key = (endpoint, *sorted(values.items()))
        cache = self.__dict__.setdefault("_urls", {})
        if key not in cache:
            cache[key] = url_for(endpoint, token=self.tok, **values)
        return cache[key]

    def page_url(self, slug: str | None = None) -> str:
        return url_for("tables.page", token=self.tok, slug=slug or self.page.slug)

    def page_args(self) -> dict:
        """This page's own query as shown now (e.g. which round)."""
        if request.method == "GET":
            pairs = request.args.items()
        else:  # after an action, keep the query of the page it was taken from (htmx names that page)
            pairs = parse_qsl(urlsplit(request.headers.get("HX-Current-URL", "")[:2000]).query)
        # Only the page's own query: never a name url_for takes itself ("token", "_external"...).
        return {k: v for k, v in pairs if k not in ("since", "token", "slug") and not k.startswith("_")}

    def poll_url(self) -> str:
        """This page as shown now asking "changed since?"."""
        return url_for("tables.page", token=self.tok, slug=self.page.slug, **self.page_args(), since=self.table.version)

    def stream_url(self) -> str:
        """Where this page hears of changes, with its own live region pushed (tables/stream.py): the
        page and its query, as the poll names them (`_page`; the page's own names never start with _)."""
        return url_for("stream.events", token=self.tok, _page=self.page.slug, **self.page_args())

    @property
    def pages(self) -> tuple[Page, ...]:
        return self.game.pages + (SETTINGS,)


def game_of(table: Table) -> Game:
    return games()[table.game]


def open_table(token: str, *, edit: bool) -> tuple[Table, bool]:
    found = store.by_token(get_session(), token)
    if found is None:
        abort(404)
    table, readonly = found
    if _other_games_route(table):
        abort(404)  # a table of one game posted to another game's route: no such page for this table
    if edit and readonly:
        abort(403)
    if edit and archived(table) and request.endpoint not in WHILE_ARCHIVED:
        abort(423)  # archived: restore it first (tables/views.py)
    return found


# What an archived table still accepts: restoring it, its links, deleting it.
WHILE_ARCHIVED = {"tables.archive", "tables.rotate_link", "tables.delete_table"}


def archived(table: Table) -> bool:
    return bool((table.state or {}).get("archived"))


def _other_games_route(table: Table) -> bool:
    """True when this request is for a game's own route and the table is of another game
    (each game's blueprint is named after its game key)."""
    return request.blueprint in games() and request.blueprint != table.game


def resolve_page(game: Game, table: Table, slug: str | None) -> Page:
    if slug is None:
        return game.landing_page(table.status, table.state)
    if slug == SETTINGS.slug:
        return SETTINGS
    page = game.page(slug)
    if page is None:
        abort(404)
    return page


def view_for(table: Table, readonly: bool, tok: str, slug: str | None) -> TableView:
    game = game_of(table)
    return TableView(table=table, game=game, page=resolve_page(game, table, slug), readonly=readonly, tok=tok)


def form_view(table: Table, readonly: bool, token: str, slug: str | None = None) -> TableView:
    """The view an action re-renders: the page named in the form, if the game has it."""
    slug = slug or request.form.get("page") or None
    known = {p.slug for p in game_of(table).pages} | {SETTINGS.slug}
    return view_for(table, readonly, token, slug if slug in known else None)


class PageCache:
    """Rendered table pages by table version: a page is the same for everyone until the table changes.

    The CSRF token is the only per-phone part of a page; it is rendered as a placeholder and put
    in on the way out. Pages carrying a message for one phone (errors, conflicts, flashes) are
    never cached.
    """

    CSRF = "__csrf-token-placeholder-7c1e__"

    def __init__(self, size: int = 1024):
        self.size = size
        self.items: OrderedDict = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key):
        with self.lock:
            html = self.items.get(key)
            if html is not None:
                self.items.move_to_end(key)
            return html

    def put(self, key, html: str) -> None:
        with self.lock:
            self.items[key] = html
            self.items.move_to_end(key)
            while len(self.items) > self.size:
                self.items.popitem(last=False)


def page_cache() -> PageCache:
    return current_app.extensions.setdefault("companion.page_cache", PageCache())


def page_key(table_id: int, version: int, slug: str | None, tok: str, fragment: bool) -> tuple:
    """What a rendered table page depends on besides the table's version: the page asked for
    (None: the landing page, itself decided by the versioned state), the link used, language,
    theme, host, and the page's own query (`since` only asks "changed?")."""
    return (table_id, version, slug, tok, str(get_locale()), request.cookies.get("theme", "auto"), fragment,
            request.host_url, tuple(sorted((k, v) for k, v in request.args.items(multi=True) if k != "since")),
            None if fragment else request.full_path)


def cached_page(key: tuple, version: int):
    """The cached page for `key` as a response, or None. Costs no database work at all."""
    if "_flashes" in session:
        return None
    html = page_cache().get(key)
    return None if html is None else respond_page(html, 200, version, key)


def phone_csrf_token() -> str:
    """One signed CSRF token per phone (session), reused on every page it is shown.

    Flask-WTF signs a fresh token on each request; any of them is valid for the session (tokens do
    not expire here, see config), so reusing one makes a phone's copy of a page byte-identical from
    one request to the next, and its compressed form cacheable.
    """
    token = session.get("_csrf_page")
    if token is None or "csrf_token" not in session:
        session.pop("_csrf_page", None)
        token = session["_csrf_page"] = generate_csrf()
    g.csrf_token = token  # forms elsewhere in this request use the same token
    return token


def _encoding() -> str | None:
    accepted = request.headers.get("Accept-Encoding", "")
    return "br" if "br" in accepted else ("gzip" if "gzip" in accepted else None)


def _compress(body: bytes, encoding: str | None) -> bytes:
    if encoding == "br":
        return brotli.compress(body, quality=5, lgwin=18)
    if encoding == "gzip":
        return gzip.compress(body, 6, mtime=0)
    return body


def respond_page(html: str, status: int, version: int, key: tuple | None = None):
    """Answer with a page, its CSRF placeholder filled in; a cached page is also compressed once per
    phone and encoding, then served from memory."""
    token = phone_csrf_token()
    encoding = _encoding()
    body = None
    if key is not None and status == 200:
        body_key = (key, token, encoding)
        body = page_cache().get(body_key)
        if body is None:
            body = _compress(html.replace(PageCache.CSRF, token).encode(), encoding)
            page_cache().put(body_key, body)
    if body is None:
        resp = make_response(html.replace(PageCache.CSRF, token), status)
    else:
        resp = make_response(body, status)
        resp.headers["Content-Type"] = "text/html; charset=utf-8"
        if encoding:
            resp.headers["Content-Encoding"] = encoding
    resp.headers["X-Table-Version"] = str(version)
    return resp


def render(t: TableView, *, status: int = 200, bound: Bound | None = None, banner: dict | None = None,
           fragment: bool | None = None, requested: str | None = ...):
    """The table page, or only its live region when htmx asked for it.

    `requested` is the page slug the URL named (None for the landing page); it defaults to the page
    shown. Pages without a message for one phone are kept in the page cache for their version.
    """
    if fragment is None:
        fragment = wants_fragment(LIVE_ID)
    if banner is None and bound is not None and (bound.errors or bound.general):
        # The messages also go at the top: on a phone the field may be off screen, and the fresh
        # page may no longer show the form at all (another phone moved the game on).
        details = list(dict.fromkeys(bound.general + [m for msgs in bound.errors.values() for m in msgs]))
        banner = {"kind": "error", "text": _("That was not saved:"), "details": details}
    db = get_session()
    actions = store.recent_actions(db, t.table.id)
    # What the one-tap Undo takes back (store.latest_undoable): an undo too, which redoes its change.
    latest = next((a for a in actions if a.undone_by is None and a.kind not in store.NOT_UNDOABLE), None)
    if latest is None and len(actions) == store.RECENT:
        latest = store.latest_undoable(db, t.table.id)
    extra = t.game.context(t.page.slug, t.table, t.state) if t.game.context else {}
    flashed = get_flashed_messages()
    notices = [banner] if banner is not None else [{"kind": "info", "text": m} for m in flashed]
    ctx = dict(t=t, bound=bound or Bound(), notices=notices, actions=actions, latest=latest,
               poll_seconds=current_app.config["POLL_SECONDS"], csrf_token=lambda: PageCache.CSRF, **extra)
    html = render_template("tables/_live.html" if fragment else "tables/table.html", **ctx)
    key = None
    if bound is None and banner is None and not flashed and t.page.cache:
        slug = t.page.slug if requested is ... else requested
        key = page_key(t.table.id, t.table.version, slug, t.tok, fragment)
        page_cache().put(key, html)
    return respond_page(html, status, t.table.version, key)


def seen_version() -> int | None:
    """The table version the acting phone's page showed (strict digits, see numbers.py; else unknown)."""
    return parse_int(request.form.get("v", ""))


def submission() -> str | None:
    """The stored key of this request's one-time submission id (`sid`, sent by every table form)."""
    return store.submission_key(request.form.get("sid"))


def conflict_banner(conflict: store.Conflict) -> dict:
    from ..i18n import render_message

    what = [render_message(a.summary, a.args) for a in conflict.actions]
    if conflict.reason == "undo-moved":
        text = _("Another phone changed the table, so the latest change is no longer the one you saw. "
                 "Nothing was undone: check the log and tap Undo again if you still want to.")
    elif conflict.reason == "history-moved":
        text = _("Another phone changed the table since this list was loaded. Nothing was undone yet: "
                 "check the changes below and confirm if you still want to go back.")
    else:
        text = _("The table changed on another phone, so your change was not applied. "
                 "Here is the fresh state; your entry is kept below.")
    return {"kind": "conflict", "text": text, "details": what}


__all__ = ["Bound", "TableView", "open_table", "render", "view_for", "form_view", "conflict_banner", "flash"]
