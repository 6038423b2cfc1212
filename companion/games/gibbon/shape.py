"""What a table of Sinful Gibbon remembers: `state.game`, declared once (tables/shape.py says how).

The table keeps inputs only; every sin, running total, the end and the result are worked out from
them (play.py). Every key is there from the new table on (play.new_state).

    dealer, bookkeeper  the first round's jobs, chosen at setup ("Startup"): both null until then,
                        both player ids after (the bookkeeper is the dealer unless chosen)
    drawn               the app drew the first dealer at random (a rematch always does); false
                        until then, or when the table chose the dealer (older tables lack it)
    checklist           setup steps ticked, each once (play.CHECKLIST)
    rounds              every counted round, oldest first (at most forms.ROUND_MAX), each with
      seats               the seat order during the round, clockwise: every player, once
      dealer, bookkeeper, starter   its jobs, players of the round
      tallies             what the bookkeeper counted, by player id: every player of the round, with
                          the seven counts up to what the deck holds (rules.COUNT_MAX) and the two
                          flags; one hat and one Braveheart at most
      swap                "Before next round": {"chooser", "partner"} (partner null: seats kept), or
                          null while not recorded; only the last round can lack it

Pure: pydantic, no Flask.
"""
from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, field_validator, model_validator

from ...tables.shape import Seat, SeatKey, Strict, distinct
from . import play, rules

Step = Literal[play.CHECKLIST]  # type: ignore[valid-type]
# forms.ROUND_MAX (the round form's number, kept here without importing the Flask forms).
ROUND_MAX = 500


Low = Annotated[int, Field(ge=0, le=rules.COUNT_MAX["low"])]
High = Annotated[int, Field(ge=0, le=rules.COUNT_MAX["high"])]
Cheats = Annotated[int, Field(ge=0, le=rules.COUNT_MAX["cheats"])]
Hearts = Annotated[int, Field(ge=0, le=rules.COUNT_MAX["hearts"])]
Accepted = Annotated[int, Field(ge=0, le=rules.COUNT_MAX["accepted_hearts"])]
Doubts = Annotated[int, Field(ge=0, le=rules.COUNT_MAX["wrongful_doubts"])]
Fattest = Annotated[int, Field(ge=0, le=rules.COUNT_MAX["fattest_pile"])]


class Tally(Strict):
    """One player's counts after a round (rules.Tally, as play._store writes it)."""

    low: Low
    high: High
    cheats: Cheats
    hearts: Hearts
    accepted_hearts: Accepted
    wrongful_doubts: Doubts
    fattest_pile: Fattest
    hat: bool
    braveheart: bool


class Swap(Strict):
    chooser: Seat
    partner: Seat | None  # null: the chooser kept the seats as they were

    @model_validator(mode="after")
    def _somebody_else(self):
        if self.partner == self.chooser:
            raise ValueError("a player swaps seats with themselves")
        return self


class Round(Strict):
    seats: Annotated[list[Seat], Field(min_length=rules.MIN_PLAYERS, max_length=rules.MAX_PLAYERS)]
    dealer: Seat
    bookkeeper: Seat
    starter: Seat
    tallies: Annotated[dict[SeatKey, Tally], Field(max_length=rules.MAX_PLAYERS)]
    swap: Swap | None

    @field_validator("seats")
    @classmethod
    def _each_once(cls, value):
        return distinct(value, "a player twice")

    @model_validator(mode="after")
    def _of_the_round(self):
        seats = set(self.seats)
        for job in ("dealer", "bookkeeper", "starter"):
            if getattr(self, job) not in seats:
                raise ValueError(f"{job}: not a player of the round")
        if {int(k) for k in self.tallies} != seats:
            raise ValueError("tallies: not exactly the players of the round")
        if self.swap is not None and not {self.swap.chooser, self.swap.partner or self.swap.chooser} <= seats:
            raise ValueError("swap: not a player of the round")
        for flag in ("hat", "braveheart"):
            if sum(getattr(t, flag) for t in self.tallies.values()) > 1:
                raise ValueError(f"tallies: more than one {flag}")
        return self


class GameState(Strict):
    dealer: Seat | None  # null until the first round's jobs are chosen
    bookkeeper: Seat | None
    drawn: bool = False  # the app drew the first dealer at random (play.start without a dealer)
    checklist: Annotated[list[Step], Field(max_length=len(play.CHECKLIST))]
    rounds: Annotated[list[Round], Field(max_length=ROUND_MAX)]

    @field_validator("checklist")
    @classmethod
    def _each_once(cls, value):
        return distinct(value, "a step twice")

    @model_validator(mode="after")
    def _jobs_then_rounds(self):
        if (self.dealer is None) != (self.bookkeeper is None):
            raise ValueError("dealer and bookkeeper: both chosen or neither")
        if self.rounds and self.dealer is None:
            raise ValueError("rounds are counted before the first dealer was chosen")
        if any(r.swap is None for r in self.rounds[:-1]):
            raise ValueError("rounds: a seat swap is missing before a later round")
        return self

    def check_players(self, ids: list[int]) -> None:
        """The jobs go to players at the table, and every round was played by exactly its players
        (players join or leave only before the first round)."""
        seated = set(ids)
        for job in ("dealer", "bookkeeper"):
            pid = getattr(self, job)
            if pid is not None and pid not in seated:
                raise ValueError(f"{job}: player {pid} is not at this table")
        for n, rnd in enumerate(self.rounds, start=1):
            if set(rnd.seats) != seated:
                raise ValueError(f"rounds.{n - 1}.seats: not the players at this table")
