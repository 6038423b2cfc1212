"""Groups, play history and exports: the routes.

- /g (POST)                 start a group; /g/<token> its page (plays, stats, charts), edit or view-only
- /g/<token>/plays.csv      the group's plays as CSV
- /t/<token>/rematch (POST) the same game, players, seats and group, the game's first-player rule applied
- /t/<token>/group          put a finished or running table in a group
- /t/<token>/bgstats.json   one play in BG Stats' createPlay form; the page links it as "Send to BG Stats"
- /t/<token>/export.json    the whole table (document and history); /import makes a table from one
"""
from __future__ import annotations

import json
import threading
from collections import OrderedDict
from datetime import datetime, timezone
from zoneinfo import ZoneInfo

from flask import (Blueprint, abort, current_app, flash, make_response, redirect, render_template, request,
                   url_for)
from flask import session as flask_session
from flask_babel import format_date, get_locale
from flask_babel import gettext as _
from markupsafe import Markup
from sqlalchemy import delete, select, update

from ..db import get_session
from ..domain import N_, Invalid
from ..games import GAMES
from ..models import Action, Group, Play, Table
from ..tables import players as players_mod
from ..tables import recent, store
from ..tables.live import PageCache, respond_page, cached_page, open_table, page_cache
from ..tables.tokens import token_from_link
from . import chart, export, rematch as rematch_mod, stats as stats_mod, sync, transfer
from .forms import GroupNameForm, ImportForm, JoinGroupForm, MergeForm, UnmergeForm

bp = Blueprint("groups", __name__)

_cache_lock = threading.Lock()
GROUPS_COOKIE = "groups"
KEEP = 20
PLAYS_SHOWN = 30


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


def bgstats_of(table: Table, play: Play) -> dict:
    return export.bgstats(play.data, export.source_play_id(table.token), local(play.started_at),
                          local(play.finished_at))


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


@bp.get("/t/<token>/bgstats.json")
def bgstats_json(token):
    table, _readonly = open_table(token, edit=False)
    play = play_of(table)
    if play is None:
        abort(404)
    return download(json.dumps(bgstats_of(table, play), ensure_ascii=False, indent=2), "application/json",
                    f"bgstats-{table.game}-{play.id}.json")


@bp.get("/t/<token>/export.json")
def export_table(token):
    table, _readonly = open_table(token, edit=False)
    actions = get_session().execute(select(Action).where(Action.table_id == table.id)
                                    .order_by(Action.version)).scalars().all()
    data = transfer.dump(table, actions, datetime.now(timezone.utc).isoformat(timespec="seconds"))
    return download(json.dumps(data, ensure_ascii=False, indent=1), "application/json",
                    f"table-{table.game}-{table.id}.json")


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

@bp.route("/import", methods=("GET", "POST"))
def import_table():
    request.max_content_length = transfer.MAX_BYTES + 16 * 1024
    form = ImportForm()
    errors: list[str] = []
    if request.method == "POST":
        if not form.validate():
            abort(400)
        upload = request.files.get("file")
        raw = upload.read(transfer.MAX_BYTES + 1) if upload and upload.filename else \
            (form.text.data or "").encode()
        if not raw.strip():
            errors.append(_("Choose a table file, or paste its contents."))
        else:
            try:
                game, doc = transfer.validate(transfer.parse(raw), GAMES)
                _trial_render(game, doc)
            except Invalid as err:
                errors = [p.text(_) for p in err.problems]
            else:
                session = get_session()
                with sync.writing(session):  # the trial render read: take the write lock first
                    table = store.create(session, game, doc["name"], doc["state"]["players"], doc["state"]["game"])
                if doc["status"] != store.SETTING_UP or doc["result"] is not None:
                    store.apply(session, table.id, table.version,
                                store.Change("table.import", N_("The table was imported from a file")),
                                lambda d: d.update(status=doc["status"], result=doc["result"]))
                    sync.sync(session, session.get(Table, table.id))
                flash(_("The table was imported: this is its new link."))
                return recent.remember(redirect(url_for("tables.page", token=table.token), code=303), table.token)
    return render_template("groups/import.html", form=form, errors=errors), (422 if errors else 200)


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


# -- groups ----------------------------------------------------------------------------------------

def open_group(token: str, *, edit: bool):
    found = sync.group_by_token(get_session(), token)
    if found is None:
        abort(404)
    if edit and found[1]:
        abort(403)
    return found


@bp.post("/g")
def create_group():
    form = GroupNameForm()
    if form.validate():
        try:
            group = sync.create_group(get_session(), form.name.data)
        except Invalid as err:
            form.name.errors = [p.text(_) for p in err.problems]
        else:
            return remember_group(redirect(url_for("groups.page", token=group.token), code=303), group.token)
    return render_template("groups/new.html", form=form), 422


@bp.get("/g")
def new_group():
    return render_template("groups/new.html", form=GroupNameForm())


def _records(session, group_id: int) -> list[stats_mod.PlayRecord]:
    rows = session.execute(select(Play.id, Play.finished_at, Play.data).where(Play.group_id == group_id)).all()
    return [stats_mod.PlayRecord(r.id, r.finished_at, r.data) for r in rows]


@bp.get("/g/<token>")
def page(token):
    session = get_session()
    group, readonly = open_group(token, edit=False)

    def key():
        return ("group", group.id, group.version, token, str(get_locale()), request.cookies.get("theme", "auto"),
                request.host_url, tuple(sorted(request.args.items(multi=True))))

    # The page is kept per group version (a play or merge changing bumps it): one light query, then memory.
    resp = cached_page(key(), group.version)  # None when this phone has a message waiting
    if resp is None:
        # Before rendering: catch up any play that fell behind its table (normally none).
        if sync.repair_group(session, group.id):
            session.refresh(group)
        flashed = "_flashes" in flask_session
        html = _render_group(group, readonly, token)
        if not flashed:
            page_cache().put(key(), html)
        resp = respond_page(html, 200, group.version, None if flashed else key())
    return remember_group(resp, token)


def _group_data(group) -> tuple[list[stats_mod.PlayRecord], list, dict, stats_mod.Stats]:
    """A group's plays, merges and stats, kept per group version: the page's filters and head to
    head are new renders of the same numbers, so they are read and counted once per change."""
    cache = current_app.extensions.setdefault("companion.group_stats", OrderedDict())
    key = (group.id, group.version)
    found = cache.get(key)
    if found is None:
        session = get_session()
        records = _records(session, group.id)
        merges = [{"id": m.id, "alias": m.alias, "into": m.into} for m in sync.merges(session, group.id)]
        mapping = {m["alias"]: m["into"] for m in merges}
        found = (records, merges, mapping, stats_mod.compute(records, mapping))
        with _cache_lock:
            cache[key] = found
            while len(cache) > 32:
                cache.popitem(last=False)
    return found


def _render_group(group, readonly: bool, token: str, status_form=None, merge_errors=None) -> str:
    session = get_session()
    records, merges, mapping, st = _group_data(group)
    game = request.args.get("game")
    game = game if game in GAMES else None
    shown = sorted((r for r in records if game is None or r.data["game"] == game),
                   key=lambda r: (r.finished_at, r.id), reverse=True)
    show_all = request.args.get("all") == "1"
    lines = st.game(game).lines if game and st.game(game) else st.players
    wins_svg = chart.wins_chart(lines, _("Wins per player"),
                                lambda ln: _("%(name)s: %(wins)d wins in %(plays)d plays", name=ln.name,
                                             wins=ln.wins, plays=ln.plays))
    score_game = game or next((g.game for g in st.games if g.has_scores), None)
    scores_svg = Markup("")
    legend = []
    if score_game:
        chosen, series = stats_mod.score_series(records, score_game, mapping)
        by_key = {ln.key: ln for ln in (st.game(score_game).lines if st.game(score_game) else [])}
        scores_svg = chart.scores_chart(chosen, series, by_key,
                                        _("Scores in the last %(n)d plays of %(game)s", n=len(chosen),
                                          game=_(GAMES[score_game].title)),
                                        _("older → newer"))
        order = list(by_key)
        legend = [(by_key[k], chart.colour_class(by_key[k].colour, order.index(k))) for k in series if k in by_key]
    a, b = request.args.get("a", "")[:60], request.args.get("b", "")[:60]
    h2h = stats_mod.head_to_head(records, a, b, mapping) if a and b else None
    tables = {r.table_id: r for r in session.execute(
        select(Play.id, Play.table_id).where(Play.id.in_([r.id for r in shown[:None if show_all else PLAYS_SHOWN]]))
    ).all()}
    table_tokens = dict(session.execute(select(Table.id, Table.view_token if readonly else Table.token)
                                        .where(Table.id.in_(list(tables)))).all()) if tables else {}
    play_table = {row.id: table_tokens.get(row.table_id) for row in tables.values()}
    return render_template(
        "groups/group.html", group=group, readonly=readonly, tok=token, stats=st, game_filter=game,
        plays=shown if show_all else shown[:PLAYS_SHOWN], total_shown=len(shown), show_all=show_all,
        play_table=play_table, wins_svg=wins_svg, scores_svg=scores_svg, score_game=score_game, legend=legend,
        h2h=h2h, merges=merges, local=local, short_date=short_date, csrf_token=lambda: PageCache.CSRF,
        merge_errors=merge_errors or [], name_form=status_form or GroupNameForm(data={"name": group.name}))


@bp.post("/g/<token>/rename")
def rename(token):
    group, _ro = open_group(token, edit=True)
    form = GroupNameForm()
    if form.validate():
        try:
            name = sync.clean_group_name(form.name.data)
            with sync.writing(get_session()):
                get_session().execute(update(Group).where(Group.id == group.id)
                                      .values(name=name, version=Group.version + 1))
            return redirect(url_for("groups.page", token=token), code=303)
        except Invalid as err:
            form.name.errors = [p.text(_) for p in err.problems]
    return respond_page(_render_group(group, False, token, status_form=form), 422, group.version)


@bp.post("/g/<token>/merge")
def merge(token):
    group, _ro = open_group(token, edit=True)
    form = MergeForm()
    if form.validate():
        try:
            sync.merge(get_session(), group, form.spelling.data, form.into.data)
        except Invalid as err:
            return respond_page(_render_group(group, False, token, merge_errors=[p.text(_) for p in err.problems]),
                            422, group.version)
        flash(_("%(a)s now counts as %(b)s in this group's stats.", a=form.spelling.data, b=form.into.data))
        return redirect(url_for("groups.page", token=token) + "#merge-h", code=303)
    errors = [str(m) for ms in form.errors.values() for m in ms]
    return respond_page(_render_group(group, False, token, merge_errors=errors), 422, group.version)


@bp.post("/g/<token>/unmerge")
def unmerge(token):
    group, _ro = open_group(token, edit=True)
    form = UnmergeForm()
    if not form.validate():
        abort(400)
    row = sync.unmerge(get_session(), group, form.merge.data)
    if row is not None:
        flash(_("Undone: the two spellings count as two players again."))
    return redirect(url_for("groups.page", token=token) + "#merge-h", code=303)


@bp.post("/g/<token>/forget")
def forget(token):
    from ..tables.forms import EmptyForm

    if not EmptyForm().validate():
        abort(400)
    return _set_groups(redirect(url_for("tables.home"), code=303), [t for t in phone_groups() if t != token])


@bp.get("/g/<token>/plays.csv")
def plays_csv(token):
    session = get_session()
    group, _ro = open_group(token, edit=False)
    sync.repair_group(session, group.id)
    rows = session.execute(select(Play, Table.token).join(Table, Table.id == Play.table_id)
                           .where(Play.group_id == group.id).order_by(Play.finished_at, Play.id)).all()
    body = export.plays_csv((export.source_play_id(tok), local(p.started_at), local(p.finished_at), p.data)
                            for p, tok in rows)
    return download(body, "text/csv", "plays.csv")


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
