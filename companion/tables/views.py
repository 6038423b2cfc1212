"""Home, new tables, the table page and what every table shares: players, name, status, undo."""
from __future__ import annotations

import logging
from datetime import datetime, timezone
from functools import wraps

from sqlalchemy import or_, select, update
from flask import Blueprint, abort, current_app, flash, make_response, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import ngettext

from ..db import close_session, get_session
from ..domain import N_, Invalid
from ..errors import error_page
from ..i18n import render_message
from ..limits import new_tables
from ..models import Action, Table
from ..numbers import query_int
from ..text import clean_line
from ..web import local_path, wants_fragment
from . import players as players_mod
from . import qr, recent, store, tokens
from . import undo as undoing
from .forms import (AddPlayerForm, ArchiveForm, BackToForm, ColourForm, EmptyForm, MoveForm, NewTableForm, OpenLinkForm,
                    PlayerForm, PrefsForm, RenamePlayerForm, RenameTableForm, StatusForm, TableForm, UndoForm)
from .actions import action, after_change, declared_relative, table_created, table_changed
from .game import games
from .live import (LIVE_ID, Bound, cached_page, conflict_banner, form_view, open_table, page_key, render,
                   seen_version, submission, view_for)
from .tokens import new_token, token_from_link

bp = Blueprint("tables", __name__)


# -- home ------------------------------------------------------------------------------------------

@bp.get("/")
def home():
    return _home(OpenLinkForm())


def _home(open_form, status=200):
    toks = recent.tokens()
    tables = []
    if toks:
        session = get_session()
        rows = session.execute(
            select(Table).where(or_(Table.token.in_(toks), Table.view_token.in_(toks)))
        ).scalars().all()
        by_token = {}
        for row in rows:
            by_token[row.token] = (row, False)
            by_token[row.view_token] = (row, True)
        tables = [(tok, *by_token[tok]) for tok in toks if tok in by_token]
    return render_template("home.html", games=games().values(), tables=tables, open_form=open_form), status


@bp.post("/open")
def open_link():
    form = OpenLinkForm()
    if form.validate():
        token = token_from_link(form.link.data)
        if token and store.by_token(get_session(), token):
            return redirect(url_for("tables.page", token=token), code=303)
        form.link.errors.append(_("No table matches this link. Check that it was copied whole."))
    return _home(form, status=422)


@bp.post("/forget/<token>")
def forget(token):
    if not EmptyForm().validate():
        abort(400)
    return recent.forget(redirect(url_for("tables.home"), code=303), token)


# -- new table -------------------------------------------------------------------------------------

def _game_or_404(key):
    game = games().get(key)
    if game is None:
        abort(404)
    return game


@bp.get("/new/<game_key>")
def new(game_key):
    game = _game_or_404(game_key)
    return render_template("new_table.html", game=game, form=NewTableForm(),
                           names=[""] * game.max_players, colours=[""] * game.max_players,
                           player_errors={}, general_errors=[], sid=new_token())


def reverse_seats(names: list[str], colours: list[str]) -> tuple[list[str], list[str]]:
    """The players typed the other way round the table: the first player stays first and the
    others are read in the opposite direction (A B C D -> A D C B). Blank rows stay at the end."""
    filled = [(n, c) for n, c in zip(names, colours) if n.strip()]
    turned = filled[:1] + filled[:0:-1]
    pad = len(names) - len(turned)
    return [n for n, _c in turned] + [""] * pad, [c for _n, c in turned] + [""] * pad


@bp.post("/new/<game_key>")
@new_tables
def create(game_key):
    game = _game_or_404(game_key)
    form = NewTableForm()
    names = [request.form.get(f"players-{i}", "") for i in range(game.max_players)]
    colours = [request.form.get(f"colours-{i}", "") for i in range(game.max_players)]
    player_errors: dict[int, list[str]] = {}
    general: list[str] = []
    if request.form.get("reverse"):
        # "Reverse the order" (the form's second button; with JavaScript it happens on the phone).
        names, colours = reverse_seats(names, colours)
        return render_template("new_table.html", game=game, form=form, names=names, colours=colours,
                               player_errors={}, general_errors=[], reversed=True,
                               sid=request.form.get("sid", "")[:60] or new_token())
    filled = [(i, n) for i, n in enumerate(names) if n.strip()]
    if not game.min_players <= len(filled) <= game.max_players:
        general.append(_("%(game)s is for %(min)d to %(max)d players: enter %(min)d to %(max)d names.",
                         game=_(game.title), min=game.min_players, max=game.max_players))
    try:
        people = players_mod.make_players([n for _i, n in filled], [colours[i] or None for i, _n in filled])
    except Invalid as err:
        people = []
        for p in err.problems:
            index = filled[int(p.field.split(".")[1])][0]
            player_errors.setdefault(index, []).append(p.text(_))
    valid = form.validate()
    try:
        name = store.clean_table_name(clean_line(form.name.data))
    except Invalid as err:  # only spaces, or only invisible characters
        if valid or not form.name.errors:
            form.name.errors = list(form.name.errors) + [p.text(_) for p in err.problems]
        valid = False
    if valid and not player_errors and not general:
        table = store.create(get_session(), game.key, name, people, game.new_state(people),
                             submission=submission())
        # A table started from a group's page joins that group (the plays package listens).
        table_created.send(current_app._get_current_object(), table=table, group=request.form.get("group", ""))
        resp = redirect(url_for("tables.page", token=table.token), code=303)
        return recent.remember(resp, table.token)
    return render_template("new_table.html", game=game, form=form, names=names, colours=colours,
                           player_errors=player_errors, general_errors=general,
                           sid=request.form.get("sid", "")[:60] or new_token()), 422


# -- the table page --------------------------------------------------------------------------------

@bp.get("/t/<token>", defaults={"slug": None})
@bp.get("/t/<token>/<slug>")
def page(token, slug):
    # First only the table's id and version: enough to answer a poll, or to serve the page from
    # the cache, without loading the table's document.
    found = store.version_by_token(get_session(), token)
    if found is None:
        abort(404)
    table_id, version = found
    if query_int(request.args, "since") == version:
        # A phone polling for changes: answer with nothing until there is something.
        resp = make_response("", 204)
        resp.headers["X-Table-Version"] = str(version)
        return resp
    fragment = wants_fragment(LIVE_ID)
    resp = cached_page(page_key(table_id, version, slug, token, fragment), version)
    if resp is None:
        table, readonly = open_table(token, edit=False)
        resp = render(view_for(table, readonly, token, slug), fragment=fragment, requested=slug)
    return recent.remember(resp, token)


@bp.after_app_request
def _no_store_behind_a_link(resp):
    """A page or file whose address holds a link (a table's, a group's, a shared track's) is never
    kept by a browser's or a proxy's cache: `no-store`, not the app's default `private, no-cache`.
    (The service worker's offline copy is its own Cache Storage, which this does not touch.)"""
    if "Cache-Control" not in resp.headers and any(k in (request.view_args or {}) for k in ("token", "share")):
        resp.headers["Cache-Control"] = "no-store"
    return resp


bp.add_app_template_global(declared_relative, "relative_action")


@bp.app_template_global()
def table_qr(link: str):
    return qr.svg(link, _("QR code of this table's link"))


# -- shared table actions --------------------------------------------------------------------------

def _player_name(doc, player_id):
    return players_mod.find(doc["state"], player_id)["name"]


@action(bp, "/t/<token>/players/rename", form=RenamePlayerForm, kind="player.rename",
        summary=N_("%(old)s is now called %(new)s"))
def rename_player(doc, form, said):
    old, new = players_mod.rename(doc["state"], form.player.data, form.name.data)
    said(old=old, new=new)


@action(bp, "/t/<token>/players/colour", form=ColourForm, kind="player.colour",
        summary=N_("%(player)s changed colour"))
def colour_player(doc, form, said):
    said(player=_player_name(doc, form.player.data))
    players_mod.recolour(doc["state"], form.player.data, form.colour.data)


@action(bp, "/t/<token>/players/move", form=MoveForm, kind="player.move")
def move_player(doc, form, said):
    said(N_("%(player)s moved one seat earlier") if form.step.data < 0 else N_("%(player)s moved one seat later"),
         player=_player_name(doc, form.player.data))
    players_mod.move(doc["state"], form.player.data, form.step.data)


def _join_or_leave(doc: dict, said, operation) -> None:
    """Add or remove a player: only while setting up, within the game's player count."""
    if doc["status"] != store.SETTING_UP:
        raise Invalid(players_mod.Problem("name", N_("Players can only be added or removed while setting up.")))
    said(player=operation(doc["state"], said.game)["name"])
    if said.game.players_changed:
        said.game.players_changed(doc["state"])


@action(bp, "/t/<token>/players/add", form=AddPlayerForm, kind="player.add", summary=N_("%(player)s joined the table"))
def add_player(doc, form, said):
    _join_or_leave(doc, said, lambda state, game: players_mod.add(state, form.name.data, game.max_players))


@action(bp, "/t/<token>/players/remove", form=PlayerForm, kind="player.remove",
        summary=N_("%(player)s left the table"))
def remove_player(doc, form, said):
    _join_or_leave(doc, said, lambda state, game: players_mod.remove(state, form.player.data, game.min_players))


@action(bp, "/t/<token>/rename", form=RenameTableForm, kind="table.rename",
        summary=N_("The table is now called %(name)s"))
def rename_table(doc, form, said):
    doc["name"] = store.clean_table_name(clean_line(form.name.data))
    said(name=doc["name"])


@action(bp, "/t/<token>/status", form=StatusForm, kind="table.status", summary=N_("The table is now %(status)s"))
def set_status(doc, form, said):
    doc["status"] = form.status.data
    said(status={"term": store.STATUS_NAMES[form.status.data]})


@bp.post("/t/<token>/undo")
def undo(token):
    table, readonly = open_table(token, edit=True)
    form = UndoForm()
    t = form_view(table, readonly, token)
    if not form.validate():
        return render(t, status=422, bound=Bound("undo", request.form.copy(), {},
                                                   [str(m) for ms in form.errors.values() for m in ms]))
    try:
        t.table, target = undoing.undo(get_session(), table.id, form.action.data, submission=submission())
    except store.NothingToUndo:
        return render(t, status=409, banner={"kind": "info", "text": _("There is nothing left to undo.")})
    except store.Conflict as conflict:
        t.table = conflict.table
        return render(t, status=409, banner=conflict_banner(conflict))
    except store.AlreadyDone as done:  # a retried tap whose first answer was lost
        t.table, target = done.table, done.action
    what = undoing.what_it_took_back(target)
    what = render_message(what["msg"], what["args"])
    # Taking back an undo does its change again: say so, never "Undone: Undo: ...".
    flash(_("Redone: %(what)s", what=what) if target.kind == undoing.UNDO else _("Undone: %(what)s", what=what))
    return after_change(t)


# -- links, archive, delete -----------------------------------------------------------------------
#
# Whoever holds the edit link can replace it (the old link stops opening the table; the view-only
# link keeps working), archive the table (read-only until restored) or delete it for good. The first
# two are logged in the table's history like any change; a deletion goes to the server's log.

log = logging.getLogger("companion")


def _edit_link_table(token):
    """The table for a link-management button: the edit link and a valid form (CSRF, version) only."""
    table, _readonly = open_table(token, edit=True)
    if not TableForm().validate():
        abort(400)
    return table


def _navigate(target: str):
    """Leave the table page: htmx follows HX-Redirect, a page without JavaScript the 303."""
    if wants_fragment(LIVE_ID):
        resp = make_response("", 204)
        resp.headers["HX-Redirect"] = target
        return resp
    return redirect(target, code=303)


@bp.post("/t/<token>/link/rotate")
def rotate_link(token):
    table = _edit_link_table(token)
    session = get_session()
    change = store.Change("table.link", N_("The table's edit link was replaced: the old one no longer opens it"),
                          {})

    def mutate(doc):
        links = doc["state"].setdefault("links", {})
        links["edit_replaced"] = links.get("edit_replaced", 0) + 1
    new = tokens.new_token()
    # The log line and the new link land together, or neither, under the table's lock: a tap through
    # the old link waiting for that lock finds the link replaced (410), never lands after this.
    with store.lifecycle(session), store.write_transaction(session):
        store.apply(session, table.id, None, change, mutate)
        session.execute(update(Table).where(Table.id == table.id, Table.token == token).values(token=new))
    log.info("table %s: edit link replaced", table.id)
    flash(_("This table has a new edit link. The old one no longer works: share this one."))
    return recent.replace(_navigate(url_for("tables.page", token=new, slug="table")), token, new)


def _lifecycle(view):
    """Archiving and restoring are accepted by an archived table (store.lifecycle)."""
    @wraps(view)
    def wrapped(*args, **kwargs):
        with store.lifecycle(get_session()):
            return view(*args, **kwargs)
    return wrapped


@action(bp, "/t/<token>/archive", form=ArchiveForm, kind="table.archive", page="table", decorators=(_lifecycle,))
def archive(doc, form, said):
    if form.archive.data:
        said(N_("The table was archived: it can be read but not changed"))
        doc["state"]["archived"] = True
    else:
        said(N_("The table was restored"))
        doc["state"].pop("archived", None)


@bp.post("/t/<token>/delete")
def delete_table(token):
    table = _edit_link_table(token)
    # Under the table's lock: a tap waiting for it then finds the table gone (410), none lands after.
    store.delete_table(get_session(), table.id)
    log.info("table %s deleted through its edit link", table.id)
    flash(_("The table “%(name)s” was deleted.", name=table.name))
    return recent.forget(_navigate(url_for("tables.home")), token)


# A change that lost the race to archive, rotation or delete (found under the lock, see guard.py).

@bp.app_errorhandler(store.Archived)
def archived_meanwhile(e):
    # The table was archived while this change waited for its lock (guard.py): nothing was written.
    close_session(exc=e)
    return error_page(423, _("This table was archived"),
                      _("The table was archived before this change reached it, so it was not saved. Restore "
                        "the table on its “Players & table” page to play on."))


@bp.app_errorhandler(store.Gone)
def gone(e):
    # Deleted, or the link replaced, while this change waited for the table's lock: not saved.
    close_session(exc=e)
    if e.reason == "link-replaced":
        return error_page(410, _("This link was replaced"),
                          _("The table's edit link was replaced, so this change was not saved. Ask a player "
                            "for the new link."))
    return error_page(410, _("This table was deleted"),
                      _("The table was deleted, so this change was not saved."))


# -- history ---------------------------------------------------------------------------------------

HISTORY_PAGE = 30


def _utc(when: datetime) -> datetime:
    """A stored time in UTC (SQLite gives it back without its zone; it was written in UTC)."""
    return when.replace(tzinfo=timezone.utc) if when.tzinfo is None else when.astimezone(timezone.utc)


def _history(token: str, table, readonly: bool, *, status: int = 200, banner: dict | None = None,
             confirm=None, page: int | None = None):
    """The whole log of a table, newest first, a page at a time; each change that has later ones
    standing offers "undo back to here"."""
    if page is None:
        raw = request.args.get("page", "1")
        page = int(raw) if raw.isascii() and raw.isdigit() and 0 < len(raw) <= 6 and int(raw) > 0 else 1
    db = get_session()
    actions, total = store.history(db, table.id, page, HISTORY_PAGE)
    pages = max(1, -(-total // HISTORY_PAGE))
    if page > pages and total:
        abort(404)
    # A change can be gone back to when a later change (not an undo) still stands.
    newest_standing = db.execute(select(Action.version).where(
        Action.table_id == table.id, Action.undone_by.is_(None), Action.reverts_to.is_(None))
        .order_by(Action.version.desc()).limit(1)).scalar()
    t = view_for(table, readonly, token, None)
    resp = make_response(render_template(
        "tables/history.html", t=t, actions=actions, total=total, page=page, pages=pages,
        newest_standing=newest_standing or 0, banner=banner, confirm=confirm, per_page=HISTORY_PAGE,
        utc=_utc), status)
    return recent.remember(resp, token)


@bp.get("/t/<token>/history")
def history(token):
    table, readonly = open_table(token, edit=False)
    return _history(token, table, readonly)


@bp.post("/t/<token>/history/back-to")
def undo_back_to(token):
    table, readonly = open_table(token, edit=True)
    form = BackToForm()
    if not form.validate():
        return _history(token, table, readonly, status=422, banner={
            "kind": "error", "text": _("That was not saved:"),
            "details": [str(m) for ms in form.errors.values() for m in ms]})
    try:
        fresh, target, n = undoing.undo_back_to(get_session(), table.id, form.action.data, seen_version(),
                                                submission=submission())
    except store.Gone:
        raise  # deleted or link replaced meanwhile: errors.py says which
    except LookupError:
        abort(404)
    except store.NothingToUndo:
        return _history(token, table, readonly, status=409,
                        banner={"kind": "info", "text": _("Nothing after this change is left to undo.")})
    except store.Conflict as conflict:
        target = get_session().get(Action, form.action.data)
        return _history(token, conflict.table, readonly, status=409, banner=conflict_banner(conflict),
                        confirm=target)
    except store.AlreadyDone:
        return redirect(url_for("tables.history", token=token), code=303)
    table_changed.send(current_app._get_current_object(), table=fresh, session=get_session())
    flash(ngettext("Went back to “%(what)s”: %(num)d later change undone.",
                   "Went back to “%(what)s”: %(num)d later changes undone.", n,
                   what=render_message(target.summary, target.args)))
    return redirect(url_for("tables.history", token=token), code=303)


# -- preferences -----------------------------------------------------------------------------------

@bp.post("/prefs")
def prefs():
    form = PrefsForm()
    back = local_path(form.next.data, url_for("tables.home"))
    if not form.validate():
        abort(400)
    resp = redirect(back, code=303)
    for name in ("theme", "lang"):
        value = getattr(form, name).data
        if value and value != "auto":
            resp.set_cookie(name, value, max_age=recent.MAX_AGE, samesite="Lax", secure=request.is_secure)
        elif value == "auto":
            resp.delete_cookie(name)
    return resp
