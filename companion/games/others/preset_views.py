"""Saved Apocalypse tracks: correct or delete one (its table or phone only), and the share link.

The save and use buttons are in apocalypse_views.py; the rules of who sees what are in presets.py.
"""
from __future__ import annotations

from flask import abort, flash, make_response, redirect, render_template, request
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from wtforms import StringField
from wtforms.validators import InputRequired, NumberRange

from ...db import get_session
from ...domain import Invalid
from ...numbers import IntegerField
from ...tables import live, recent
from ...web import wants_fragment
from . import forms, presets
from .blueprint import bp

PAGE = "apocalypse"


class PresetForm(forms.OthersForm):
    SHOWN = frozenset({"preset"})
    preset = IntegerField(validators=[InputRequired(_l("Choose a saved track.")), NumberRange(min=1)])


class PresetRenameForm(PresetForm):
    SHOWN = frozenset({"preset", "name"})
    name = StringField(_l("New name"), validators=[InputRequired(_l("Give the saved track a name.")), forms.TEXT])


def _answer(token: str, form, work):
    """Run `work(session, viewer, table)` on a saved track of this table; answer like a table action."""
    table, readonly = live.open_table(token, edit=True)
    t = live.form_view(table, readonly, token, PAGE)
    key = request.form.get("form_key") or None
    try:
        if not form.validate():
            raise Invalid([])
        text = work(get_session(), presets.current_viewer(table.id), table)
    except Invalid as err:
        errors = form.place(err).as_dict(_) if err.problems else form.errors
        return live.render(t, status=422, bound=live.Bound(key, request.form.copy(), errors))
    if wants_fragment(live.LIVE_ID):
        return live.render(t, banner={"kind": "info", "text": text})
    flash(text)
    return redirect(t.page_url(), code=303)


@bp.post("/t/<token>/others/track/preset/rename")
def preset_rename(token):
    form = PresetRenameForm()

    def work(session, viewer, _table):
        saved = presets.correct(session, form.preset.data, viewer, raw_name=form.name.data)
        return _("The saved track is now called “%(name)s”.", name=saved.name)
    return _answer(token, form, work)


@bp.post("/t/<token>/others/track/preset/update")
def preset_update(token):
    form = PresetForm()

    def work(session, viewer, table):
        levels = table.state["game"]["apocalypse"]["track"]["levels"]
        saved = presets.correct(session, form.preset.data, viewer, levels=levels)
        return _("“%(name)s” now holds this table's track.", name=saved.name)
    return _answer(token, form, work)


@bp.post("/t/<token>/others/track/preset/delete")
def preset_delete(token):
    form = PresetForm()

    def work(session, viewer, _table):
        name = presets.delete(session, form.preset.data, viewer)
        return _("The saved track “%(name)s” was deleted. Tables that copied it keep their copy.", name=name)
    return _answer(token, form, work)


@bp.get("/others/track/<share>")
def preset_shared(share):
    """A track someone shared on purpose: show it, remember it on this phone, offer this phone's tables."""
    session = get_session()
    preset = presets.by_share(session, share)
    if preset is None:
        abort(404)
    try:
        _ref, levels = presets.load(session, preset.id, presets.Viewer(None, shared=(share,)))
    except Invalid:
        abort(404)
    from sqlalchemy import select

    from ...models import Table

    toks = recent.tokens()
    mine = session.execute(select(Table).where(Table.token.in_(toks), Table.game == presets.GAME)).scalars().all() \
        if toks else []
    html = render_template("others/shared_track.html", preset=preset, levels=levels,
                           tables=[t for t in mine if not live.archived(t)])
    resp = make_response(html)
    return presets.remember_share(resp, share, request.cookies.get(presets.SHARED_COOKIE, ""))
