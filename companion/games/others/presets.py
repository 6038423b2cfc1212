"""Saved Apocalypse tracks (models.Preset, kind "apocalypse").

The rulebook's picture of the track is missing, so a table types it once and saves it. A saved
track is user input, so it is not offered to strangers:

- It belongs to the table and the phone that saved it. It is offered on that table, and on any
  table of that phone; either of them may correct it (a new name, or the table's current track)
  or delete it.
- Anyone else sees it only through its share link (`/others/track/<share>`), which the maker
  passes on on purpose. Opening the link remembers the track on that phone (a cookie), so it is
  then offered on that phone's tables too.
- Using a saved track copies its levels into the table's own state. A table then edits its copy
  freely, and nothing done to the saved track later reaches a table that already copied it.

Everything read back is checked again (`state.clean_track`), as if typed.
"""
from __future__ import annotations

import secrets
from dataclasses import dataclass, field

from sqlalchemy import false, func, or_, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from ...domain import N_, Invalid, Problem
from ...models import Preset, utcnow
from . import state

GAME, KIND = "others", "apocalypse"
FORMAT = 1
LISTED = 50  # the newest presets offered on the page
PER_TABLE = 20  # saved tracks one table may keep
PER_PHONE = 50  # saved tracks one phone may keep, over all its tables
SHARED_KEPT = 20  # share links one phone remembers
SHARE_BYTES = 12


@dataclass(frozen=True)
class Viewer:
    """Who is asking: the table (its id), the phone (its id, or None) and the share links it opened."""

    table_id: int | None
    phone: str | None = None
    shared: tuple[str, ...] = field(default_factory=tuple)

    def may_see(self, preset: Preset) -> bool:
        return self.may_change(preset) or (preset.share is not None and preset.share in self.shared)

    def may_change(self, preset: Preset) -> bool:
        return ((preset.table_id is not None and preset.table_id == self.table_id)
                or (preset.owner is not None and preset.owner == self.phone))


def _ours():
    return (Preset.game == GAME, Preset.kind == KIND)


def _visible(viewer: Viewer):
    terms = []
    if viewer.table_id is not None:
        terms.append(Preset.table_id == viewer.table_id)
    if viewer.phone:
        terms.append(Preset.owner == viewer.phone)
    if viewer.shared:
        terms.append(Preset.share.in_(list(viewer.shared)))
    return or_(*terms) if terms else false()


@dataclass(frozen=True)
class Listed:
    """A saved track as a page lists it; `mine`: this table or phone saved it, so may change it."""

    id: int
    name: str
    share: str | None
    mine: bool


def listed(session: Session, viewer: Viewer) -> list[Listed]:
    """The saved tracks this table and phone may use, newest first."""
    stmt = (select(Preset).where(*_ours(), _visible(viewer))
            .order_by(Preset.created_at.desc(), Preset.id.desc()).limit(LISTED))
    return [Listed(p.id, p.name, p.share, viewer.may_change(p)) for p in session.execute(stmt).scalars()]


# -- who is asking, from the request (the only part of this module that knows about Flask) ----------

PHONE_KEY = "phone"
SHARED_COOKIE = "tracks"


def current_viewer(table_id: int | None, *, create_phone: bool = False) -> Viewer:
    """The viewer of this request: the table, this phone's id (made on its first save) and the
    share links this phone opened."""
    from flask import request, session

    phone = session.get(PHONE_KEY)
    if not isinstance(phone, str) or not phone:
        phone = None
        if create_phone:
            phone = session[PHONE_KEY] = secrets.token_urlsafe(12)
            session.permanent = True
    return Viewer(table_id, phone, shared_links(request.cookies.get(SHARED_COOKIE, "")))


def shared_links(raw: str) -> tuple[str, ...]:
    return tuple(s for s in (raw or "").split(".") if 8 <= len(s) <= 43 and s.replace("-", "").replace("_", "").isalnum()
                 and s.isascii())[:SHARED_KEPT]


def remember_share(resp, share: str, current: str):
    """Put a share link first in this phone's remembered list."""
    from flask import request

    value = ".".join([share] + [s for s in shared_links(current) if s != share][: SHARED_KEPT - 1])
    resp.set_cookie(SHARED_COOKIE, value, max_age=60 * 60 * 24 * 365, httponly=True, samesite="Lax",
                    secure=request.is_secure, path="/")
    return resp


def _clean_name(raw_name: str) -> str:
    return state.clean_text(raw_name, "name", state.TEXT_MAX, required=True,
                            message=N_("Give the saved track a name."))


def _clean_levels(levels: list[dict]) -> list[dict]:
    levels = state.clean_track(levels)
    if not any(lv["card"] or lv["effect"] or lv["reactions"] or lv["sin_dice"] for lv in levels):
        raise Invalid(Problem("name", N_("The track is empty: mark its card levels and effects first.")))
    return levels


def _taken(name: str) -> Invalid:
    return Invalid(Problem("name", N_("This table already saved a track called “%(name)s”: choose another "
                                      "name, e.g. “%(name)s 2”."), {"name": name}))


def _name_taken(session: Session, table_id: int, name: str, except_id: int | None = None) -> bool:
    stmt = select(Preset.id).where(*_ours(), Preset.table_id == table_id, func.lower(Preset.name) == name.lower())
    if except_id is not None:
        stmt = stmt.where(Preset.id != except_id)
    return session.execute(stmt).first() is not None


def save(session: Session, raw_name: str, levels: list[dict], viewer: Viewer) -> Preset:
    """Save a table's track under a new name. Raises Invalid (field "name") when it can't."""
    name = _clean_name(raw_name)
    levels = _clean_levels(levels)
    if _name_taken(session, viewer.table_id, name):
        raise _taken(name)
    count = select(func.count()).select_from(Preset).where(*_ours())
    if session.execute(count.where(Preset.table_id == viewer.table_id)).scalar_one() >= PER_TABLE or (
            viewer.phone and session.execute(count.where(Preset.owner == viewer.phone)).scalar_one() >= PER_PHONE):
        raise Invalid(Problem("name", N_("You have saved as many tracks as a table may keep: delete one you no "
                                         "longer need first.")))
    now = utcnow()
    preset = Preset(game=GAME, kind=KIND, name=name, data={"format": FORMAT, "levels": levels},
                    table_id=viewer.table_id, owner=viewer.phone, share=secrets.token_urlsafe(SHARE_BYTES),
                    created_at=now, updated_at=now)
    session.add(preset)
    try:
        session.commit()
    except IntegrityError:  # a second phone of this table took the name a moment ago
        session.rollback()
        raise _taken(name) from None
    return preset


def _get(session: Session, preset_id) -> Preset | None:
    preset = session.get(Preset, preset_id) if isinstance(preset_id, int) else None
    if preset is None or preset.game != GAME or preset.kind != KIND:
        return None
    return preset


def _missing() -> Invalid:
    return Invalid(Problem("preset", N_("That saved track does not exist (any more).")))


def load(session: Session, preset_id, viewer: Viewer) -> tuple[dict, list[dict]]:
    """A preset's reference ({"id", "name"}) and its levels, checked again before a table copies them."""
    preset = _get(session, preset_id)
    if preset is None or not viewer.may_see(preset):
        raise _missing()
    data = preset.data if isinstance(preset.data, dict) else {}
    try:
        levels = state.clean_track(data.get("levels"))
    except Invalid:
        raise Invalid(Problem("preset", N_("That saved track cannot be read."))) from None
    return {"id": preset.id, "name": preset.name}, levels


def by_share(session: Session, share: str) -> Preset | None:
    if not isinstance(share, str) or not 8 <= len(share) <= 43:
        return None
    return session.execute(select(Preset).where(*_ours(), Preset.share == share)).scalars().first()


def _mine(session: Session, preset_id, viewer: Viewer) -> Preset:
    preset = _get(session, preset_id)
    if preset is None or not viewer.may_see(preset):
        raise _missing()
    if not viewer.may_change(preset):
        raise Invalid(Problem("preset", N_("Only the table or phone that saved this track can change it.")))
    return preset


def correct(session: Session, preset_id, viewer: Viewer, *, raw_name: str | None = None,
            levels: list[dict] | None = None) -> Preset:
    """Rename a saved track and/or replace its levels (with the table's current track)."""
    preset = _mine(session, preset_id, viewer)
    if raw_name is not None:
        name = _clean_name(raw_name)
        if preset.table_id is not None and _name_taken(session, preset.table_id, name, except_id=preset.id):
            raise _taken(name)
        preset.name = name
    if levels is not None:
        preset.data = {"format": FORMAT, "levels": _clean_levels(levels)}
    preset.updated_at = utcnow()
    try:
        session.commit()
    except IntegrityError:
        session.rollback()
        raise _taken(preset.name) from None
    return preset


def delete(session: Session, preset_id, viewer: Viewer) -> str:
    """Delete a saved track; tables that copied it keep their copy. Returns its name."""
    preset = _mine(session, preset_id, viewer)
    name = preset.name
    session.delete(preset)
    session.commit()
    return name
