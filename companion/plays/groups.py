"""A group's pages: start one, its page (plays, stats per player and game, the win rate per
faction, Leader, Sin and hero, head to head, charts), rename, merge and unmerge names, forget it on
this phone, and its plays as CSV (`?sep=;` for a spreadsheet in French) and as one BG Stats play
file. Routes on the plays blueprint (views.py), which holds the per-table routes.
"""
from __future__ import annotations

import threading
from collections import OrderedDict

from flask import abort, current_app, flash, redirect, render_template, request, url_for
from flask import session as flask_session
from flask_babel import get_locale, ngettext
from flask_babel import gettext as _
from markupsafe import Markup
from sqlalchemy import select, update

from ..db import get_session
from ..domain import Invalid
from ..games import GAMES
from ..limits import new_groups
from ..models import Group, Play, Table
from ..text import clean_line
from ..tables.live import PageCache, cached_page, page_cache, respond_page
from . import chart, details, export, images, stats as stats_mod, sync  # noqa: F401  (details, images: routes)
from .forms import GroupNameForm, MergeForm, UnmergeForm

from .views import (_set_groups, bgsplay_download, bp, download, local, phone_groups, remember_group,
                    short_date)

_cache_lock = threading.Lock()
PLAYS_SHOWN = 30


# -- groups ----------------------------------------------------------------------------------------

def open_group(token: str, *, edit: bool):
    found = sync.group_by_token(get_session(), token)
    if found is None:
        abort(404)
    if edit and found[1]:
        abort(403)
    return found


@bp.post("/g")
@new_groups
def create_group():
    form = GroupNameForm()
    if form.validate():
        try:
            group = sync.create_group(get_session(), clean_line(form.name.data))  # typed: cleaned (text.py)
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


def _wins_label(ln) -> str:
    """A bar's spoken text: "Chiara: 3 wins in 5 plays", each count with its own plural."""
    return _("%(name)s: %(wins)s in %(plays)s", name=ln.name,
             wins=ngettext("%(num)d win", "%(num)d wins", ln.wins),
             plays=ngettext("%(num)d play", "%(num)d plays", ln.plays))


def _render_group(group, readonly: bool, token: str, status_form=None, merge_errors=None) -> str:
    session = get_session()
    records, merges, mapping, st = _group_data(group)
    game = request.args.get("game")
    game = game if game in GAMES else None
    shown = sorted((r for r in records if game is None or r.data["game"] == game),
                   key=lambda r: (r.finished_at, r.id), reverse=True)
    show_all = request.args.get("all") == "1"
    lines = st.game(game).lines if game and st.game(game) else st.players
    # One colour per player for the whole group: the same in both charts and every filter.
    classes = chart.player_classes(st.players)
    wins_svg = chart.wins_chart(lines, _("Wins per player"), _wins_label, classes)
    score_game = game or next((g.game for g in st.games if g.has_scores), None)
    scores_svg = Markup("")
    legend = []
    if score_game:
        chosen, series = stats_mod.score_series(records, score_game, mapping)
        by_key = {ln.key: ln for ln in (st.game(score_game).lines if st.game(score_game) else [])}
        scores_svg = chart.scores_chart(chosen, series, by_key,
                                        ngettext("Scores in the last play of %(game)s",
                                                 "Scores in the last %(num)d plays of %(game)s", len(chosen),
                                                 game=_(GAMES[score_game].title)),
                                        _("older → newer"), classes)
        legend = [(by_key[k], classes.get(k, "")) for k in series if k in by_key]
    a, b = request.args.get("a", "")[:60], request.args.get("b", "")[:60]
    # Head to head over the plays shown: with a game chosen, that game's plays only.
    h2h = stats_mod.head_to_head(records, a, b, mapping, game) if a and b else None
    roles = {g.game: stats_mod.role_stats(records, g.game) for g in st.games
             if g.game in stats_mod.ROLE_KINDS and (game is None or g.game == game)}
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
        h2h=h2h, roles=roles, role_text=lambda p: export.role_text(p, _), merges=merges, local=local, short_date=short_date, csrf_token=lambda: PageCache.CSRF,
        merge_errors=merge_errors or [], name_form=status_form or GroupNameForm(data={"name": group.name}))


@bp.post("/g/<token>/rename")
def rename(token):
    group, _ro = open_group(token, edit=True)
    form = GroupNameForm()
    if form.validate():
        try:
            name = sync.clean_group_name(clean_line(form.name.data))
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
            # Cleaned as the names they match were (NUL, overrides, invisible-only: "Choose two players.").
            spelling, into = clean_line(form.spelling.data), clean_line(form.into.data)
            sync.merge(get_session(), group, spelling, into)
        except Invalid as err:
            return respond_page(_render_group(group, False, token, merge_errors=[p.text(_) for p in err.problems]),
                            422, group.version)
        flash(_("%(a)s now counts as %(b)s in this group's stats.", a=spelling, b=into))
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


def _group_plays(token: str) -> list[tuple[str, Play]]:
    """(export id, play) for every play of a group, oldest first (plays behind their table caught up)."""
    session = get_session()
    group, _ro = open_group(token, edit=False)
    sync.repair_group(session, group.id)
    rows = session.execute(select(Play, Table.view_token, Table.state).join(Table, Table.id == Play.table_id)
                           .where(Play.group_id == group.id).order_by(Play.finished_at, Play.id)).all()
    return [(p.data.get("source_id") or export.play_id(state, view), p) for p, view, state in rows]


@bp.get("/g/<token>/plays.csv")
def plays_csv(token):
    """Every play, one line per player, dates in the group's time zone. `?sep=;` separates with
    semicolons, for a spreadsheet in French (the French page links it)."""
    sep = ";" if request.args.get("sep") == ";" else ","
    body = export.plays_csv(((pid, local(p.started_at), local(p.finished_at), p.data) for pid, p in _group_plays(token)),
                            sep=sep, _=_)
    return download(body, "text/csv", "plays.csv")


@bp.get("/g/<token>/plays.bgsplay")
def plays_bgsplay(token):
    """The group's whole history as one BG Stats play file."""
    return bgsplay_download([(pid, p.started_at, p.finished_at, p.data) for pid, p in _group_plays(token)],
                            "plays.bgsplay")
