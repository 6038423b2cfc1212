"""What is stored: tables (saved game sessions), their action log, and reusable presets.

A table's whole document (name, status, players, the game's own state, the result) lives in a few
columns; every change is an Action row holding the document as it was before, so any change can
be undone and the log never loses one.
"""
from __future__ import annotations

from datetime import datetime, timezone

from sqlalchemy import JSON, Column, DateTime, ForeignKey, Integer, String, UniqueConstraint
from sqlmodel import Field, SQLModel


def utcnow() -> datetime:
    return datetime.now(timezone.utc)


def _ts(**kw):
    return Field(default_factory=utcnow, sa_column=Column(DateTime(timezone=True), nullable=False, **kw))


class Table(SQLModel, table=True):
    __tablename__ = "game_table"

    id: int | None = Field(default=None, primary_key=True)
    token: str = Field(sa_column=Column(String(43), unique=True, nullable=False))
    view_token: str = Field(sa_column=Column(String(43), unique=True, nullable=False))
    game: str = Field(sa_column=Column(String(16), nullable=False))
    name: str = Field(sa_column=Column(String(60), nullable=False))
    status: str = Field(sa_column=Column(String(12), nullable=False))
    version: int = Field(default=0, sa_column=Column(Integer, nullable=False))
    state: dict = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    result: dict | None = Field(default=None, sa_column=Column(JSON, nullable=True))
    created_at: datetime = _ts()
    updated_at: datetime = _ts()


class Action(SQLModel, table=True):
    __tablename__ = "table_action"
    __table_args__ = (UniqueConstraint("table_id", "version", name="uq_action_table_version"),)

    id: int | None = Field(default=None, primary_key=True)
    table_id: int = Field(sa_column=Column(Integer, ForeignKey("game_table.id", ondelete="CASCADE"),
                                           nullable=False))
    # The table's version once this action applied; versions are dense, so "what happened since
    # version v" is a range query.
    version: int = Field(sa_column=Column(Integer, nullable=False))
    kind: str = Field(sa_column=Column(String(40), nullable=False))
    # A message id (translated when shown) and its values: "%(player)s +%(n)s renown".
    summary: str = Field(sa_column=Column(String(200), nullable=False))
    args: dict = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    # The parts of the document this action read or wrote, e.g. ["players.3.name"]. An action
    # made on a stale view is refused only when someone else changed one of these meanwhile.
    keys: list = Field(default_factory=list, sa_column=Column(JSON, nullable=False))
    before: dict = Field(sa_column=Column(JSON, nullable=False))
    undoes: int | None = Field(default=None, sa_column=Column(Integer, nullable=True))
    undone_by: int | None = Field(default=None, sa_column=Column(Integer, nullable=True))
    created_at: datetime = _ts()


class Preset(SQLModel, table=True):
    """Something a table typed once that the next table should not retype (e.g. a printed track)."""

    __tablename__ = "preset"
    __table_args__ = (UniqueConstraint("game", "kind", "name", name="uq_preset_game_kind_name"),)

    id: int | None = Field(default=None, primary_key=True)
    game: str = Field(sa_column=Column(String(16), nullable=False))
    kind: str = Field(sa_column=Column(String(40), nullable=False))
    name: str = Field(sa_column=Column(String(60), nullable=False))
    data: dict = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    created_at: datetime = _ts()
    updated_at: datetime = _ts()
