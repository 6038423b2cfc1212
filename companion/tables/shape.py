"""What a table remembers, declared: the document every table shares, and the pieces each game's
own state model (`games/<game>/shape.py`) is built from. Pure: pydantic, no Flask.

A document is `{"name", "status", "state": {"players": [...], "game": {...}}, "result"}`. Each game
declares its `state.game` as a model of `Strict` pieces: every key, its type and its range. The
same declaration checks an imported backup (plays/transfer.py), every document the test suite
reaches (tables/actions.py, with CHECK_SHAPES on), and tells a reader what a table holds.

Numbers are checked strictly: an int is an int (never a bool, a float or a string of digits), and
every count has its real maximum, so no file can hold a value that would make a page fall over.
"""
from __future__ import annotations

from typing import Annotated, Any, Generic, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationError, model_validator

from .players import COLOURS, NAME_MAX

__all__ = ["Strict", "Open", "Player", "Result", "Score", "Document", "Count", "Seat", "SeatKey", "Name", "Line",
           "Small", "Signed", "ValidationError", "validate_document", "first_error", "distinct", "PlayInfo", "PlayRole"]

# A whole number of a table: at most nine digits, as every number a phone can send (numbers.py).
BIG = 999_999_999
Count = Annotated[int, Field(ge=0, le=BIG)]
Signed = Annotated[int, Field(ge=-BIG, le=BIG)]
Small = Annotated[int, Field(ge=0, le=999)]
# A player's id at a table (players.py numbers seats from 1; added players take the next free id).
Seat = Annotated[int, Field(ge=1, le=99)]
# The same id as a JSON object's key ("3"), where a game keeps something per player.
SeatKey = Annotated[str, StringConstraints(pattern=r"^[1-9][0-9]?$")]
Name = Annotated[str, StringConstraints(min_length=1, max_length=NAME_MAX)]
# A short line a player typed, e.g. a hero's or a scenario's name.
Line = Annotated[str, StringConstraints(max_length=200)]


def distinct(values: list, what: str = "an entry twice") -> list:
    """A list whose entries are each there once (for a field validator)."""
    if len(set(values)) != len(values):
        raise ValueError(f"holds {what}")
    return values


class Strict(BaseModel):
    """A piece of a table's state: exactly these keys, each of exactly its type."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=False, allow_inf_nan=False,
                              validate_default=False)


class Open(Strict):
    """A piece whose keys are ids: use as `dict[str, Model]` values; kept for symmetry of names."""


class Player(Strict):
    id: Seat
    name: Name
    colour: Literal[COLOURS] | None  # type: ignore[valid-type]


class WithExtras(Strict):
    """A piece a game may add keys to (what decided a place, how the game ended), each a plain JSON
    value with finite, nine-digit numbers."""

    model_config = ConfigDict(extra="allow", strict=True, allow_inf_nan=False)

    @model_validator(mode="after")
    def _extras_are_plain(self):
        for key, value in (self.model_extra or {}).items():
            if not _plain(value):
                raise ValueError(f"{key}: not a plain value")
        return self


class Score(WithExtras):
    name: str
    points: Signed | None = None


class Result(WithExtras):
    """What a finished table's home-page line and its play are read from."""

    winners: list[str] = Field(max_length=99)
    scores: list[Score] = Field(default_factory=list, max_length=99)


def plain_scalar(value: Any) -> bool | None:
    """Whether a JSON scalar may be stored (null, a bool, a finite nine-digit number); None when the
    value is not one of those, for the caller to judge."""
    if value is None or isinstance(value, bool):
        return True
    if isinstance(value, int):
        return -BIG <= value <= BIG
    if isinstance(value, float):
        return value == value and abs(value) <= BIG
    return None


def _plain(value: Any, depth: int = 0) -> bool:
    """A JSON value with finite, nine-digit numbers, short strings and a shallow nesting."""
    if depth > 6:
        return False
    if (scalar := plain_scalar(value)) is not None:
        return scalar
    if isinstance(value, str):
        return len(value) <= 2000
    if isinstance(value, list):
        return len(value) <= 200 and all(_plain(v, depth + 1) for v in value)
    if isinstance(value, dict):
        return len(value) <= 200 and all(isinstance(k, str) and _plain(v, depth + 1) for k, v in value.items())
    return False


G = TypeVar("G", bound=BaseModel)


class Links(Strict):
    edit_replaced: Count = 0  # how many times the edit link was replaced (each one logged)


# -- what the players say about a finished table's play (plays/details.py) ----------------------------

PLAY_NOTE_MAX = 500
ROLE_MAX = 40
RoleText = Annotated[str, StringConstraints(max_length=ROLE_MAX)]
# "tc-" and 24 hex digits: the play's id outside the app (BG Stats' sourcePlayId), kept once given.
PlayId = Annotated[str, StringConstraints(pattern=r"^tc-[0-9a-f]{24}$")]
# When the play started and finished, in UTC, as a backup carries them ("2026-11-23T20:05:09+00:00").
Moment = Annotated[str, StringConstraints(pattern=r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$")]


class PlayRole(Strict):
    """What one player played: City of Five Sails' faction and Leader; in The Others, the Sin (the
    Sins player) or the heroes (a hero player). Each game writes only its own keys."""

    faction: RoleText = ""
    leader: RoleText = ""
    sin: RoleText = ""
    heroes: list[Annotated[str, StringConstraints(min_length=1, max_length=ROLE_MAX)]] = Field(
        default_factory=list, max_length=7)


class PlayInfo(Strict):
    """A finished table's play as its players describe it, beside the game's own state."""

    id: PlayId | None = None
    note: Annotated[str, StringConstraints(max_length=PLAY_NOTE_MAX)] = ""
    roles: dict[SeatKey, PlayRole] = Field(default_factory=dict, max_length=99)
    started: Moment | None = None
    finished: Moment | None = None


class State(Strict, Generic[G]):
    players: list[Player] = Field(min_length=1, max_length=99)
    game: G
    # Set by the table's lifecycle (tables/views.py: archive, link rotation), not by a game.
    archived: bool | None = None
    links: Links | None = None
    # Set on a finished table (plays/details.py), carried by a backup. A role kept for a seat that
    # has since left the table is ignored (plays/build.py), not refused: removing a player must
    # not make the table's document invalid.
    play: PlayInfo | None = None


class Document(Strict, Generic[G]):
    name: Annotated[str, StringConstraints(max_length=200)]
    status: Literal["setup", "playing", "finished"]
    state: State[G]
    result: Result | None = None

    @model_validator(mode="after")
    def _seats_are_distinct(self):
        ids = [p.id for p in self.state.players]
        if len(set(ids)) != len(ids):
            raise ValueError("two players share an id")
        names = [p.name.casefold() for p in self.state.players]
        if len(set(names)) != len(names):
            raise ValueError("two players share a name")
        return self


def validate_document(doc: Any, game_model: type[BaseModel]) -> Document:
    """The document as its game declares it, or pydantic's ValidationError naming the field.

    A game model may also check the state against the players (a seat that exists) with a
    `check_players(players)` method; its ValueError comes back as a ValidationError too."""
    model = Document[game_model]  # type: ignore[valid-type]
    parsed = model.model_validate(doc, strict=True)
    checker = getattr(parsed.state.game, "check_players", None)
    if checker is not None:
        try:
            checker([p.id for p in parsed.state.players])
        except ValueError as err:
            raise ValidationError.from_exception_data(
                "Document", [{"type": "value_error", "loc": ("state", "game"), "input": None,
                              "ctx": {"error": str(err)}}]) from None
    return parsed


def first_error(err: ValidationError) -> tuple[str, str]:
    """(dotted path, message) of the first problem, for a message that names the field."""
    first = err.errors(include_url=False)[0]
    path = ".".join(str(p) for p in first["loc"])
    return path, first["msg"]
