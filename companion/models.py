"""What is stored: tables (saved game sessions), their action log, and reusable presets.

A table's whole document (name, status, players, the game's own state, the result) lives in a few
columns; every change is an Action row holding the JSON Patch that takes the document back to how
it was before, so any change can be undone and the log never loses one, for a few dozen bytes.
"""
from __future__ import annotations

from datetime import datetime, timezone

from sqlalchemy import JSON, Column, ForeignKey, Index, UniqueConstraint
from sqlmodel import Field, SQLModel

from .stored import Int, Moment, Text  # refuse on SQLite what PostgreSQL refuses (companion/stored.py)


def utcnow() -> datetime:
    return datetime.now(timezone.utc)


def _ts(**kw):
    return Field(default_factory=utcnow, sa_column=Column(Moment, nullable=False, **kw))


class Table(SQLModel, table=True):
    __tablename__ = "game_table"

    id: int | None = Field(default=None, primary_key=True)
    token: str = Field(sa_column=Column(Text(43), unique=True, nullable=False))
    view_token: str = Field(sa_column=Column(Text(43), unique=True, nullable=False))
    game: str = Field(sa_column=Column(Text(16), nullable=False))
    name: str = Field(sa_column=Column(Text(60), nullable=False))
    status: str = Field(sa_column=Column(Text(12), nullable=False))
    version: int = Field(default=0, sa_column=Column(Int, nullable=False))
    state: dict = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    result: dict | None = Field(default=None, sa_column=Column(JSON, nullable=True))
    created_at: datetime = _ts()
    updated_at: datetime = _ts()
    # A digest of the new-table form's submission id: sending the form again opens this table.
    submission: str | None = Field(default=None, sa_column=Column(Text(18), unique=True, nullable=True))


class Action(SQLModel, table=True):
    __tablename__ = "table_action"
    __table_args__ = (UniqueConstraint("table_id", "version", name="uq_action_table_version"),
                      Index("uq_action_table_submission", "table_id", "submission", unique=True))

    id: int | None = Field(default=None, primary_key=True)
    table_id: int = Field(sa_column=Column(Int, ForeignKey("game_table.id", ondelete="CASCADE"),
                                           nullable=False))
    # The table's version once this action applied; versions are dense, so "what happened since
    # version v" is a range query.
    version: int = Field(sa_column=Column(Int, nullable=False))
    kind: str = Field(sa_column=Column(Text(40), nullable=False))
    # A message id (translated when shown) and its values: "%(player)s +%(n)s renown".
    summary: str = Field(sa_column=Column(Text(200), nullable=False))
    args: dict = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    # The JSON Patch (RFC 6902) that turns the document after this action back into the one before.
    # Its paths are also what the action wrote, which is what conflicts are judged on.
    undo_patch: list = Field(default_factory=list, sa_column=Column(JSON, nullable=False))
    # For an undo: the action it took back. For an undo or an "undo back to here": the version
    # whose document it restored.
    undoes: int | None = Field(default=None, sa_column=Column(Int, nullable=True))
    reverts_to: int | None = Field(default=None, sa_column=Column(Int, nullable=True))
    # The undo or "back to here" after which this action no longer stands (shown struck through).
    undone_by: int | None = Field(default=None, sa_column=Column(Int, nullable=True))
    # A digest of the submission id the phone sent: a retried submission finds its action here.
    submission: str | None = Field(default=None, sa_column=Column(Text(18), nullable=True))
    created_at: datetime = _ts()


class Preset(SQLModel, table=True):
    """Something a table typed once that the next table should not retype (e.g. a printed track).

    A preset belongs to the table and the phone that saved it (either may correct or delete it) and
    is offered to them only; anyone else gets it through its share link (`share`).
    """

    __tablename__ = "preset"
    __table_args__ = (UniqueConstraint("table_id", "kind", "name", name="uq_preset_table_kind_name"),
                      UniqueConstraint("share", name="uq_preset_share"))

    id: int | None = Field(default=None, primary_key=True)
    table_id: int | None = Field(default=None, sa_column=Column(
        Int, ForeignKey("game_table.id", ondelete="SET NULL"), nullable=True, index=True))
    # The phone that saved it: a random id kept in that phone's signed session cookie.
    owner: str | None = Field(default=None, sa_column=Column(Text(32), nullable=True, index=True))
    share: str | None = Field(default=None, sa_column=Column(Text(43), nullable=True))
    game: str = Field(sa_column=Column(Text(16), nullable=False))
    kind: str = Field(sa_column=Column(Text(40), nullable=False))
    name: str = Field(sa_column=Column(Text(60), nullable=False))
    data: dict = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    created_at: datetime = _ts()
    updated_at: datetime = _ts()


# -- play history and groups (issue 19) ------------------------------------------------------------

class Group(SQLModel, table=True):
    """A group of players who meet again: a link like a table's (no accounts), with a view-only link.

    `version` goes up whenever one of its plays or player merges changes, so its rendered page can
    be kept until then."""

    __tablename__ = "play_group"

    id: int | None = Field(default=None, primary_key=True)
    token: str = Field(sa_column=Column(Text(43), unique=True, nullable=False))
    view_token: str = Field(sa_column=Column(Text(43), unique=True, nullable=False))
    name: str = Field(sa_column=Column(Text(60), nullable=False))
    version: int = Field(default=0, sa_column=Column(Int, nullable=False))
    created_at: datetime = _ts()


class GroupTable(SQLModel, table=True):
    """A table played in a group (a table belongs to at most one group)."""

    __tablename__ = "group_table"

    table_id: int = Field(sa_column=Column(Int, ForeignKey("game_table.id", ondelete="CASCADE"),
                                           primary_key=True))
    group_id: int = Field(sa_column=Column(Int, ForeignKey("play_group.id", ondelete="CASCADE"),
                                           nullable=False, index=True))


class Play(SQLModel, table=True):
    """A finished table, as a play log keeps it: derived from the table's document, one per table
    (re-finishing a table updates its play). `data` is what companion.plays.build makes."""

    __tablename__ = "play"

    id: int | None = Field(default=None, primary_key=True)
    table_id: int = Field(sa_column=Column(Int, ForeignKey("game_table.id", ondelete="CASCADE"),
                                           unique=True, nullable=False))
    group_id: int | None = Field(default=None, sa_column=Column(
        Int, ForeignKey("play_group.id", ondelete="SET NULL"), nullable=True, index=True))
    game: str = Field(sa_column=Column(Text(16), nullable=False))
    started_at: datetime = Field(sa_column=Column(Moment, nullable=False))
    finished_at: datetime = Field(sa_column=Column(Moment, nullable=False, index=True))
    table_version: int = Field(default=0, sa_column=Column(Int, nullable=False))
    # The table a Rematch started from this one: tapping Rematch again (or a retried tap) opens it.
    rematch_table_id: int | None = Field(default=None, sa_column=Column(
        Int, ForeignKey("game_table.id", ondelete="SET NULL"), nullable=True))
    data: dict = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))


class PlayerMerge(SQLModel, table=True):
    """In a group's stats, one spelling of a player's name counted as another ("Bea" as "Béatrice").
    Deleting the row undoes the merge."""

    __tablename__ = "player_merge"
    __table_args__ = (UniqueConstraint("group_id", "alias", name="uq_merge_group_alias"),)

    id: int | None = Field(default=None, primary_key=True)
    group_id: int = Field(sa_column=Column(Int, ForeignKey("play_group.id", ondelete="CASCADE"),
                                           nullable=False))
    alias: str = Field(sa_column=Column(Text(60), nullable=False))  # the matching key of the spelling
    into: str = Field(sa_column=Column(Text(60), nullable=False))  # the name it counts as
    created_at: datetime = _ts()
