"""Home, new tables, the table page and what every table shares: players, name, status, undo."""
from __future__ import annotations

from sqlalchemy import or_, select
from flask import Blueprint, abort, current_app, flash, make_response, redirect, render_template, request, url_for
from flask_babel import gettext as _

from ..db import get_session
from ..domain import N_, Invalid
from ..games import GAMES
from ..i18n import render_message
from ..models import Table
from ..web import local_path, wants_fragment
from . import players as players_mod
from . import qr, recent, store
from .forms import (AddPlayerForm, ColourForm, EmptyForm, MoveForm, NewTableForm, OpenLinkForm, PlayerForm, PrefsForm,
                    RenamePlayerForm, RenameTableForm, StatusForm, UndoForm)
from .live import (LIVE_ID, Bound, after_change, cached_page, conflict_banner, form_view, open_table, page_key,
                   perform, render, view_for)
from .tokens import token_from_link

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
    return render_template("home.html", games=GAMES.values(), tables=tables, open_form=open_form), status


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
    game = GAMES.get(key)
    if game is None:
        abort(404)
    return game


@bp.get("/new/<game_key>")
def new(game_key):
    game = _game_or_404(game_key)
    return render_template("new_table.html", game=game, form=NewTableForm(),
                           names=[""] * game.max_players, colours=[""] * game.max_players,
                           player_errors={}, general_errors=[])


@bp.post("/new/<game_key>")
def create(game_key):
    game = _game_or_404(game_key)
    form = NewTableForm()
    names = [request.form.get(f"players-{i}", "") for i in range(game.max_players)]
    colours = [request.form.get(f"colours-{i}", "") for i in range(game.max_players)]
    player_errors: dict[int, list[str]] = {}
    general: list[str] = []
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
    if form.validate() and not player_errors and not general:
        table = store.create(get_session(), game.key, form.name.data, people, game.new_state(people))
        resp = redirect(url_for("tables.page", token=table.token), code=303)
        return recent.remember(resp, table.token)
    return render_template("new_table.html", game=game, form=form, names=names, colours=colours,
                           player_errors=player_errors, general_errors=general), 422


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
    since = request.args.get("since", "")
    if since.isdigit() and int(since) == version:
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


@bp.app_template_global()
def table_qr(link: str):
    return qr.svg(link, _("QR code of this table's link"))


# -- shared table actions --------------------------------------------------------------------------

def _player_name(doc, player_id):
    return players_mod.find(doc["state"], player_id)["name"]


@bp.post("/t/<token>/players/rename")
def rename_player(token):
    def build(form, t):
        pid = form.player.data

        def mutate(doc):
            old, new = players_mod.rename(doc["state"], pid, form.name.data)
            change.args.update(old=old, new=new)

        change = store.Change("player.rename", N_("%(old)s is now called %(new)s"), {},
                              keys=(f"players.{pid}.name",))
        return change, mutate
    return perform(token, RenamePlayerForm(), build)


@bp.post("/t/<token>/players/colour")
def colour_player(token):
    def build(form, t):
        pid = form.player.data
        change = store.Change("player.colour", N_("%(player)s changed colour"), {}, keys=(f"players.{pid}.colour",))

        def mutate(doc):
            change.args["player"] = _player_name(doc, pid)
            players_mod.recolour(doc["state"], pid, form.colour.data)
        return change, mutate
    return perform(token, ColourForm(), build)


@bp.post("/t/<token>/players/move")
def move_player(token):
    def build(form, t):
        pid, step = form.player.data, form.step.data
        msg = N_("%(player)s moved one seat earlier") if step < 0 else N_("%(player)s moved one seat later")
        change = store.Change("player.move", msg, {}, keys=("players.order",))

        def mutate(doc):
            change.args["player"] = _player_name(doc, pid)
            players_mod.move(doc["state"], pid, step)
        return change, mutate
    return perform(token, MoveForm(), build)


def _join_or_leave(token, form, kind, summary, operation):
    """Add or remove a player: only while setting up, within the game's player count."""
    def build(form, t):
        change = store.Change(kind, summary, {}, keys=("players",))

        def mutate(doc):
            if doc["status"] != store.SETTING_UP:
                raise Invalid(players_mod.Problem("name", N_("Players can only be added or removed while setting up.")))
            player = operation(doc["state"], form, t.game)
            if t.game.players_changed:
                t.game.players_changed(doc["state"])
            change.args["player"] = player["name"]
        return change, mutate
    return perform(token, form, build)


@bp.post("/t/<token>/players/add")
def add_player(token):
    return _join_or_leave(token, AddPlayerForm(), "player.add", N_("%(player)s joined the table"),
                          lambda state, form, game: players_mod.add(state, form.name.data, game.max_players))


@bp.post("/t/<token>/players/remove")
def remove_player(token):
    return _join_or_leave(token, PlayerForm(), "player.remove", N_("%(player)s left the table"),
                          lambda state, form, game: players_mod.remove(state, form.player.data, game.min_players))


@bp.post("/t/<token>/rename")
def rename_table(token):
    def build(form, t):
        change = store.Change("table.rename", N_("The table is now called %(name)s"), {}, keys=("name",))

        def mutate(doc):
            doc["name"] = store.clean_table_name(form.name.data)
            change.args["name"] = doc["name"]
        return change, mutate
    return perform(token, RenameTableForm(), build)


@bp.post("/t/<token>/status")
def set_status(token):
    def build(form, t):
        status = form.status.data
        change = store.Change("table.status", N_("The table is now %(status)s"),
                              {"status": {"term": store.STATUS_NAMES[status]}}, keys=("status",))

        def mutate(doc):
            doc["status"] = status
        return change, mutate
    return perform(token, StatusForm(), build)


@bp.post("/t/<token>/undo")
def undo(token):
    table, readonly = open_table(token, edit=True)
    form = UndoForm()
    t = form_view(table, readonly, token)
    if not form.validate():
        return render(t, status=422, bound=Bound("undo", request.form.copy(), {},
                                                   [str(m) for ms in form.errors.values() for m in ms]))
    try:
        t.table, target = store.undo(get_session(), table.id, form.action.data)
    except store.NothingToUndo:
        return render(t, status=409, banner={"kind": "info", "text": _("There is nothing left to undo.")})
    except store.Conflict as conflict:
        t.table = conflict.table
        return render(t, status=409, banner=conflict_banner(conflict))
    except store.Busy:
        abort(503)
    flash(_("Undone: %(what)s", what=render_message(target.summary, target.args)))
    return after_change(t)


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
