"""Saved Apocalypse tracks, shared by every table on the server (models.Preset, kind "apocalypse").

The rulebook's picture of the track is missing, so the first table types it; the next one picks it.

Presets are user input shared between strangers, so two rules keep one table from spoiling another's:

- A preset is never changed once saved. Saving under a name that exists is refused (the unique
  constraint settles a race), and a corrected track is saved under a new name.
- Using a preset copies its levels into the table's own state. A table then edits its copy freely,
  and nothing done to presets later reaches a table that already copied one.

Everything read back is checked again (`state.clean_track`), as if typed.
"""
from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from ...domain import N_, Invalid, Problem
from ...models import Preset, utcnow
from . import state

GAME, KIND = "others", "apocalypse"
FORMAT = 1
LISTED = 50  # the newest presets offered on the page
STORED_MAX = 500  # a server-wide ceiling, so a script cannot fill the table


def listed(session: Session) -> list[Preset]:
    stmt = (select(Preset).where(Preset.game == GAME, Preset.kind == KIND)
            .order_by(Preset.created_at.desc(), Preset.id.desc()).limit(LISTED))
    return list(session.execute(stmt).scalars())


def save(session: Session, raw_name: str, levels: list[dict]) -> Preset:
    """Save a table's track under a new name. Raises Invalid (field "name") if the name is taken."""
    name = state.clean_text(raw_name, "name", state.TEXT_MAX, required=True,
                            message=N_("Give the saved track a name."))
    levels = state.clean_track(levels)
    if not any(lv["card"] or lv["effect"] or lv["reactions"] or lv["sin_dice"] for lv in levels):
        raise Invalid(Problem("name", N_("The track is empty: mark its card levels and effects first.")))
    taken = Invalid(Problem("name", N_("A saved track is already called “%(name)s”. Saved tracks never "
                                       "change: choose another name, e.g. “%(name)s 2”."), {"name": name}))
    existing = session.execute(select(Preset.id).where(Preset.game == GAME, Preset.kind == KIND,
                                                       func.lower(Preset.name) == name.lower())).first()
    if existing is not None:
        raise taken
    total = session.execute(select(func.count()).select_from(Preset)
                            .where(Preset.game == GAME, Preset.kind == KIND)).scalar_one()
    if total >= STORED_MAX:
        raise Invalid(Problem("name", N_("This server holds as many saved tracks as it allows.")))
    now = utcnow()
    preset = Preset(game=GAME, kind=KIND, name=name, data={"format": FORMAT, "levels": levels},
                    created_at=now, updated_at=now)
    session.add(preset)
    try:
        session.commit()
    except IntegrityError:  # another table took the name a moment ago
        session.rollback()
        raise taken from None
    return preset


def load(session: Session, preset_id) -> tuple[dict, list[dict]]:
    """A preset's reference ({"id", "name"}) and its levels, checked again before a table copies them."""
    preset = session.get(Preset, preset_id) if isinstance(preset_id, int) else None
    if preset is None or preset.game != GAME or preset.kind != KIND:
        raise Invalid(Problem("preset", N_("That saved track does not exist (any more).")))
    data = preset.data if isinstance(preset.data, dict) else {}
    try:
        levels = state.clean_track(data.get("levels"))
    except Invalid:
        raise Invalid(Problem("preset", N_("That saved track cannot be read."))) from None
    return {"id": preset.id, "name": preset.name}, levels
