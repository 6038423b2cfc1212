"""Groups, play history and exports: the routes.

- the group pages: groups.py
- /t/<token>/rematch (POST) the same game, players, seats and group, the game's first-player rule applied
- /t/<token>/group          put a finished or running table in a group
- /t/<token>/bgstats.json   one play in BG Stats' createPlay form; the page links it as "Send to BG Stats"
- /t/<token>/play.bgsplay   the same play as a BG Stats play file (bgsplay.py), which BG Stats opens
- /t/<token>/play (POST)    who played what and a note (details.py, a logged table action)
- /t/<token>/export.json    the whole table (document and history); /import makes a table from one
"""
from __future__ import annotations

import json
from datetime import datetime, timezone
from zoneinfo import ZoneInfo

from flask import (Blueprint, abort, current_app, flash, make_response, redirect, render_template, request,
                   url_for)
from flask_babel import format_date
from flask_babel import gettext as _
from flask_babel import ngettext
from sqlalchemy import delete, select, update

from ..db import get_session
from ..domain import N_, Invalid
from ..games import GAMES
from ..limits import new_tables
from ..models import Action, Group, Play, Table
from ..tables import players as players_mod
from ..tables import recent, store
from ..tables.live import open_table
from ..tables.tokens import token_from_link
from . import backup, bgsplay, export, rematch as rematch_mod, sync, transfer
from .forms import ImportForm, JoinGroupForm

bp = Blueprint("groups", __name__)

GROUPS_COOKIE = "groups"
KEEP = 20


# -- this phone's groups (a cookie, like its tables) -----------------------------------------------

def phone_groups() -> list[str]:
    from ..tables.tokens import looks_like_token

    raw = request.cookies.get(GROUPS_COOKIE, "")
    return [t for t in raw.split(".") if looks_like_token(t)][:KEEP]


def _set_groups(resp, toks: list[str]):
    resp.set_cookie(GROUPS_COOKIE, ".".join(toks[:KEEP]), max_age=recent.MAX_AGE, httponly=True, samesite="Lax",
                    secure=request.is_secure, path="/")
    return resp


def remember_group(resp, token: str):
    known = phone_groups()
    if known[:1] == [token]:
        return resp
    return _set_groups(resp, [token] + [t for t in known if t != token])


def groups_of_phone() -> list[tuple[str, object, bool]]:
    """(token, group, view-only) for the groups this phone opened, newest first."""
    toks = phone_groups()
    if not toks:
        return []
    from sqlalchemy import or_

    from ..models import Group

    rows = get_session().execute(select(Group).where(or_(Group.token.in_(toks), Group.view_token.in_(toks)))
                                 ).scalars().all()
    found = {}
    for g in rows:
        found[g.token] = (g, False)
        found[g.view_token] = (g, True)
    return [(t, *found[t]) for t in toks if t in found]


@bp.app_template_global()
def home_groups():
    return groups_of_phone()


# -- times shown to players ------------------------------------------------------------------------

def local(dt: datetime) -> datetime:
    """A stored UTC time in the group's time zone (config PLAY_TIMEZONE, default UTC), naive."""
    zone = ZoneInfo(current_app.config.get("PLAY_TIMEZONE") or "UTC")
    aware = dt if dt.tzinfo else dt.replace(tzinfo=timezone.utc)
    return aware.astimezone(zone).replace(tzinfo=None)


def short_date(dt: datetime) -> str:
    return format_date(local(dt), "EEE d MMM")


# -- the finished table's block (rendered inside the cached table page) ---------------------------

def play_of(table: Table) -> Play | None:
    """The table's play, made now if the sync after its last change did not run."""
    session = get_session()
    play = session.execute(select(Play).where(Play.table_id == table.id)).scalars().first()
    if table.status == "finished" and (play is None or play.table_version != table.version):
        play = sync.sync(session, table)
    return play


def play_id_of(table: Table, play: Play) -> str:
    """The play's export id: kept with the play since the sync, else worked out from the table."""
    return play.data.get("source_id") or export.play_id(table.state, table.view_token)


def bgstats_of(table: Table, play: Play) -> dict:
    """BG Stats' JSON of the play: its times in UTC, as BG Stats reads them (export.py)."""
    return export.bgstats(play.data, play_id_of(table, play), play.started_at, play.finished_at, _)


def outcome_term(game: str, key: str | None) -> str | None:
    if game == "fivesails" and key:
        from ..games.fivesails.rules import VICTORY_NAMES

        return _(VICTORY_NAMES[key]) if key in VICTORY_NAMES else None
    return None


def share_text_of(play: Play) -> str:
    game = GAMES[play.game]
    return export.share_text(play.data, _(game.title), short_date(play.finished_at), _, outcome_term)


@bp.app_template_global()
def finished_block(table: Table) -> dict | None:
    """What the finished table's block shows: the play, its BG Stats link and its share text."""
    play = play_of(table)
    if play is None:
        return None
    data = bgstats_of(table, play)
    return {"play": play, "bgstats_link": export.bgstats_link(data), "share": share_text_of(play),
            "measure": play.data.get("measure")}


# -- per-table routes ------------------------------------------------------------------------------

def download(body: str, mimetype: str, filename: str):
    """A file the phone saves (the name is ours: no typed text goes in it)."""
    resp = make_response(body)
    resp.headers["Content-Type"] = f"{mimetype}; charset=utf-8"
    resp.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    return resp


@bp.post("/t/<token>/rematch")
@new_tables  # one new-table budget with /new and /import
def rematch(token):
    """One tap: a new table of the same game with the same players, seats, colours and group.

    A table has one rematch: tapping again (or a retried request) opens the one already made."""
    from ..tables.forms import EmptyForm

    table, _readonly = open_table(token, edit=True)
    if not EmptyForm().validate():
        abort(400)
    table, _readonly = open_table(token, edit=True)
    session = get_session()
    play = play_of(table)
    if play is None:
        flash(_("Finish the game first: a rematch starts from a finished table."))
        return redirect(url_for("tables.page", token=token), code=303)
    if play.rematch_table_id is not None:
        existing = session.get(Table, play.rematch_table_id)
        if existing is not None:
            return recent.remember(redirect(url_for("tables.page", token=existing.token), code=303), existing.token)
    game = GAMES[table.game]
    names, colours = rematch_mod.players_for({"state": table.state})
    people = players_mod.make_players(names, colours)
    state = {"players": people, "game": game.new_state(people)}
    rematch_mod.apply_first_player(table.game, {"state": table.state}, state)
    play_id = play.id
    with sync.writing(session):  # this request has read already: take the write lock first
        new = store.create(session, table.game, table.name, people, state["game"])
    new_id = new.id
    with sync.writing(session):
        claimed = session.execute(update(Play).where(Play.id == play_id, Play.rematch_table_id.is_(None))
                                  .values(rematch_table_id=new_id)).rowcount
        if claimed != 1:
            # Another tap made the rematch a moment ago: drop ours and open that one.
            session.execute(delete(Table).where(Table.id == new_id))
    if claimed != 1:
        new = session.get(Table, session.get(Play, play_id).rematch_table_id)
    else:
        group_id = sync.group_id_of(session, table.id)
        if group_id is not None:
            from ..models import Group

            sync.put_table_in_group(session, new, session.get(Group, group_id))
    return recent.remember(redirect(url_for("tables.page", token=new.token), code=303), new.token)


def _finished_play(token: str) -> tuple[Table, Play]:
    """The table behind a link (either link) and its play; 404 before the game has ended."""
    table, _readonly = open_table(token, edit=False)
    play = play_of(table)
    if play is None:
        abort(404)
    return table, play


@bp.get("/t/<token>/bgstats.json")
def bgstats_json(token):
    table, play = _finished_play(token)
    return download(json.dumps(bgstats_of(table, play), ensure_ascii=False, indent=2), "application/json",
                    f"bgstats-{table.game}-{play.id}.json")


def bgsplay_download(entries, filename: str):
    """A BG Stats play file. Not sent as JSON: a phone that knows the type would rename it
    ".json" on saving, and BG Stats opens the file by its own extension."""
    body = json.dumps(bgsplay.play_file(entries, datetime.now(timezone.utc), _), ensure_ascii=False)
    resp = make_response(body)
    resp.headers["Content-Type"] = "application/octet-stream"
    resp.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    return resp


@bp.get("/t/<token>/play.bgsplay")
def play_bgsplay(token):
    table, play = _finished_play(token)
    return bgsplay_download([(play_id_of(table, play), play.started_at, play.finished_at, play.data)],
                            f"{table.game}-{play.id}.bgsplay")


@bp.get("/t/<token>/export.json")
def export_table(token):
    table, _readonly = open_table(token, edit=False)
    actions = get_session().execute(select(Action).where(Action.table_id == table.id)
                                    .order_by(Action.version)).scalars().all()
    gid = sync.group_id_of(get_session(), table.id)
    group = get_session().get(Group, gid) if gid is not None else None
    data = transfer.dump(table, actions, datetime.now(timezone.utc).isoformat(timespec="seconds"),
                         group.token if group is not None else None)
    play = play_of(table)
    if play is not None:
        # The play as it is known outside the app goes with the backup: its id (BG Stats updates
        # that play when the restored table is sent again) and when it was played (a restored
        # table's own log starts with the import).
        state = data["document"]["state"] = dict(data["document"]["state"])
        state["play"] = {**(state.get("play") or {}), "id": play_id_of(table, play),
                         "started": export.iso_utc(play.started_at), "finished": export.iso_utc(play.finished_at)}
    return download(transfer.to_json(data), "application/json", f"table-{table.game}-{table.id}.json")


@bp.route("/t/<token>/group", methods=("GET", "POST"))
def table_group(token):
    """Put this table in one of this phone's groups, or a group whose link is pasted."""
    table, readonly = open_table(token, edit=request.method == "POST")
    session = get_session()
    form = JoinGroupForm()
    status = 200
    if request.method == "POST":
        from ..models import Group

        if form.validate():
            choice = request.form.get("choice", "")
            if choice == "none":
                sync.put_table_in_group(session, table, None)
                flash(_("The table is no longer in a group."))
                return redirect(url_for("tables.page", token=token), code=303)
            gtok = token_from_link(choice or form.group.data or "")
            found = sync.group_by_token(session, gtok) if gtok else None
            if found is not None and not found[1]:
                sync.put_table_in_group(session, table, found[0])
                flash(_("The table is now in the group %(name)s.", name=found[0].name))
                return remember_group(redirect(url_for("tables.page", token=token), code=303), gtok)
            form.group.errors = [_("That is not a group's own link (a view-only link cannot add tables).")
                                 if found else _("No group matches this link. Check that it was copied whole.")]
        status = 422
    from ..models import Group

    gid = sync.group_id_of(session, table.id)
    current = session.get(Group, gid) if gid else None
    return render_template("groups/table_group.html", table=table, tok=token, form=form, current=current,
                           mine=[g for g in groups_of_phone() if not g[2]], readonly=readonly), status


# -- import ----------------------------------------------------------------------------------------

@bp.url_value_preprocessor
def _import_takes_a_whole_export(endpoint, _values):
    """/import takes files up to transfer.MAX_BYTES. The cap must be raised before anything reads the
    body: URL value preprocessors run before every before_request function, CSRF's included, which
    would otherwise parse the form under the app's 64 KB cap and refuse a real export (413)."""
    if endpoint == "groups.import_table":
        request.max_content_length = transfer.MAX_BYTES + 16 * 1024
        request.max_form_memory_size = transfer.MAX_BYTES + 16 * 1024  # the pasted text is a form field


@bp.route("/import", methods=("GET", "POST"))
@new_tables  # POSTs only: one new-table budget with /new and rematch
def import_table():
    form = ImportForm()
    errors: list[str] = []
    if request.method == "GET" and request.args.get("group"):  # "Import a table into this group"
        form.group.data = request.args.get("group", "")[:300]
    if request.method == "POST":
        if not form.validate():
            if set(form.errors) - {"group"}:
                abort(400)
        upload = request.files.get("file")
        raw = upload.read(transfer.MAX_BYTES + 1) if upload and upload.filename else \
            (form.text.data or "").encode()
        if upload:
            upload.close()  # a large upload is spooled to a temporary file: let it go now
        group = _import_group(form)
        if not raw.strip():
            errors.append(_("Choose a table file, or paste its contents."))
        elif not form.group.errors:
            try:
                data = transfer.parse(raw)
                game, doc = transfer.validate(data, GAMES)
                history = transfer.history(data, doc, GAMES)
                _trial_render(game, doc)
            except Invalid as err:
                errors = [p.text(_) for p in err.problems]
            else:
                table = _restore(get_session(), game, doc, history)
                flash(_("The table was imported: this is its new link."))
                _import_notes(table, data, history, group)
                return recent.remember(redirect(url_for("tables.page", token=table.token), code=303), table.token)
    status = 422 if errors or form.group.errors else 200
    return render_template("groups/import.html", form=form, errors=errors), status


def _import_group(form):
    """The group whose edit link came with the import (the form's field), or None; a link that is
    not a group's own link is an error on the field."""
    typed = (form.group.data or "").strip()
    if not typed or form.group.errors:
        return None
    gtok = token_from_link(typed)
    found = sync.group_by_token(get_session(), gtok) if gtok else None
    if found is None or found[1]:
        form.group.errors = [_("That is not a group's own link (a view-only link cannot add tables).")
                             if found else _("No group matches this link. Check that it was copied whole.")]
        return None
    return found[0]


def _restore(session, game: str, doc: dict, history):
    """The new table: with its log when the file carries one (tables/restore.py), else as a version
    1 file always came back (a fresh log that starts with the import)."""
    if history is not None:
        from ..tables import restore

        table = restore.restore(session, game, doc, history)
        sync.sync(session, table)
        return table
    with sync.writing(session):  # the trial render read: take the write lock first
        table = store.create(session, game, doc["name"], doc["state"]["players"], doc["state"]["game"])
    # What the players said of the play (its id, its dates, roles, notes) comes back
    # with it: the play keeps its date and its id (sync.play_times, export.play_id).
    said = doc["state"].get("play")

    def restore_doc(d):
        d.update(status=doc["status"], result=doc["result"])
        if isinstance(said, dict):
            d["state"]["play"] = said
    if doc["status"] != store.SETTING_UP or doc["result"] is not None or isinstance(said, dict):
        store.apply(session, table.id, table.version,
                    store.Change("table.import", N_("The table was imported from a file")), restore_doc)
        sync.sync(session, session.get(Table, table.id))
    return table


def _import_notes(table: Table, data: dict, history, group) -> None:
    """The result page says what came back: the history, and the group (the file's group only
    comes back with its edit link: typed in the form, or opened on this phone before)."""
    if history is None and data.get("history"):
        flash(_("This file was saved before backups kept what Undo needs: the table comes back without its "
                "history, which starts again here."))
    elif history:
        flash(ngettext("Its history came back: %(num)d change, which Undo can take back.",
                       "Its history came back: %(num)d changes, which Undo can take back.", len(history)))
    mark = data.get("group") if isinstance(data.get("group"), str) and backup.MARK.match(data["group"]) else None
    if group is None and mark:
        group = next((g for _t, g, view_only in groups_of_phone()
                      if not view_only and backup.group_mark(g.token) == mark), None)
    if group is not None:
        sync.put_table_in_group(get_session(), table, group)
        flash(_("The table is now in the group %(name)s.", name=group.name))
    if mark and (group is None or backup.group_mark(group.token) != mark):
        flash(_("The table was in a group, and that group's edit link did not come with it: it is not back "
                "in that group. Import it again with the group's link, or put it in a group from its page."))


def _trial_render(game_key: str, doc: dict) -> None:
    """Render every page of the game for the imported document before saving it: a document that
    validates in shape but that a page cannot show is refused here rather than breaking the table.
    Any failure means "not a table this app can show", so every exception is caught on purpose."""
    from ..domain import N_, Problem
    from ..tables import live

    table = Table(id=0, token="x" * 24, view_token="y" * 24, game=game_key, name=doc["name"], status=doc["status"],
                  version=0, state=doc["state"], result=doc["result"], created_at=datetime.now(timezone.utc),
                  updated_at=datetime.now(timezone.utc))
    game = GAMES[game_key]
    try:
        for page in game.pages + (live.SETTINGS,):
            t = live.TableView(table=table, game=game, page=page, readonly=False, tok=table.token)
            live.render(t, bound=live.Bound(), fragment=True)
    except Exception:  # noqa: BLE001 - see the docstring
        get_session().rollback()
        raise Invalid(Problem("file", N_("This table file does not fit the game: its pages cannot show it.")))


def listen_to_tables(app) -> None:
    """Plays follow their tables: a finished table's play follows its document after every change,
    and a table started from a group's page joins that group (the table machinery only announces)."""
    from ..tables.actions import table_changed, table_created

    table_changed.connect(_table_changed, sender=app)
    table_created.connect(_table_created, sender=app)


def _table_changed(app, table, session) -> None:
    sync.sync(session, table)


def _table_created(app, table, group) -> None:
    join_new_table(table, group)


def join_new_table(table: Table, group_token: str) -> None:
    """A table started from a group's page joins that group (its own link only; anything else is
    ignored: the table is made either way)."""
    found = sync.group_by_token(get_session(), group_token) if group_token else None
    if found is not None and not found[1]:
        sync.put_table_in_group(get_session(), table, found[0])
