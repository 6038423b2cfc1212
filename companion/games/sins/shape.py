"""What a table of 7 - The Sins remembers: `state.game`, declared once (tables/shape.py says how).

Every key is there from the new table on (table.new_state); nothing appears later in the game.

    sins            Setup A: the sin types in play, each once, in the rulebook's order; empty until
                    chosen (a table of five plays all seven and starts with them)
    penitenziagite  the advanced mode
    done            setup steps ticked (A-E, first, and the two Penitenziagite steps)
    first, turn     the first player, and whose turn the light tracker shows (player ids)
    judgments       Last Judgment cards revealed: 0 to 3
    third_on        whose turn the third card came out on; null until it is out
    round_done      Penitenziagite: the last player of the round has finished since
    stones          Stones of Forgiveness taken, by player id (1-10; a player with none is absent);
                    together never more than the ten stones of a five-player game
    score           the end of the game:
      mode            "detailed" (sorted by type) or "quick" (totals only)
      abyss           the Abyss of Souls by type, 1-12 cards of each type counted, or null
      abyss_total     or only its points (-42..70), when the table counted them by hand
      reserves        each player's reserve by type, by player id (present = entered)
      stones_on       the types a player put their stones on themselves (absent: the best placement)
      quick           the quick path's totals by player id: points, cards, types
      most_wins       the quick path's direction when no Abyss is given; null until said

Cards by type hold only the types with cards (1 to 12: a type's 11 cards and, with
Penitenziagite, its Penitenziagite card), and one type's cards across every reserve and the Abyss
add up to 12 at most (the rules refuse more on entry). Pure: pydantic, no Flask.
"""
from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, field_validator, model_validator

from ...tables.shape import Seat, SeatKey, Strict, distinct
from . import checks, rules, table

Sin = Literal[rules.SINS]  # type: ignore[valid-type]
Step = Literal[rules.SETUP_STEPS + rules.PENITENZIAGITE_STEPS]  # type: ignore[valid-type]
Mode = Literal[table.MODES]  # type: ignore[valid-type]

MAX_PLAYERS = rules.MAX_PLAYERS
MAX_STONES = checks.MAX_STONES  # Setup E at five players: the most stones a game has
CARDS = rules.cards_of_a_type(penitenziagite=True)  # one type's cards, its Penitenziagite card too
Cards = Annotated[int, Field(ge=1, le=CARDS)]
Total = Annotated[int, Field(ge=checks.MIN_TOTAL, le=checks.MAX_TOTAL)]
ByType = Annotated[dict[Sin, Cards], Field(max_length=len(rules.SINS))]


class Quick(Strict):
    """The quick path: a player's total, and the reserve's cards and types for the tie-breaks."""

    points: Total
    cards: Annotated[int, Field(ge=0, le=checks.MAX_CARDS)]
    types: Annotated[int, Field(ge=0, le=len(rules.SINS))]


class Score(Strict):
    mode: Mode
    abyss: ByType | None
    abyss_total: Total | None
    reserves: Annotated[dict[SeatKey, ByType], Field(max_length=MAX_PLAYERS)]
    stones_on: Annotated[dict[SeatKey, Annotated[list[Sin], Field(max_length=len(rules.SINS))]],
                         Field(max_length=MAX_PLAYERS)]
    quick: Annotated[dict[SeatKey, Quick], Field(max_length=MAX_PLAYERS)]
    most_wins: bool | None

    @field_validator("stones_on")
    @classmethod
    def _one_stone_per_type(cls, value):
        for placed in value.values():
            distinct(placed, "a sin type with two stones")
        return value

    @model_validator(mode="after")
    def _cards_exist(self):
        if self.abyss is not None and self.abyss_total is not None:
            raise ValueError("abyss and abyss_total: the Abyss is counted by type or by its points, not both")
        counts = list(self.reserves.values()) + [self.abyss or {}]
        for sin in rules.SINS:
            if sum(c.get(sin, 0) for c in counts) > CARDS:
                raise ValueError(f"more than {CARDS} {sin} cards in the reserves and the Abyss")
        return self


class GameState(Strict):
    sins: Annotated[list[Sin], Field(max_length=len(rules.SINS))]
    penitenziagite: bool
    done: Annotated[list[Step], Field(max_length=len(rules.SETUP_STEPS + rules.PENITENZIAGITE_STEPS))]
    first: Seat | None  # null only for a table without players
    turn: Seat | None
    judgments: Annotated[int, Field(ge=0, le=rules.LAST_JUDGMENTS)]
    third_on: Seat | None
    round_done: bool
    stones: Annotated[dict[SeatKey, Annotated[int, Field(ge=1, le=MAX_STONES)]], Field(max_length=MAX_PLAYERS)]
    score: Score

    @field_validator("sins", "done")
    @classmethod
    def _each_once(cls, value):
        return distinct(value, "an entry twice")

    @field_validator("stones")
    @classmethod
    def _stones_exist(cls, value):
        if sum(value.values()) > MAX_STONES:
            raise ValueError(f"more than {MAX_STONES} Stones of Forgiveness taken")
        return value

    @model_validator(mode="after")
    def _third_card_is_out(self):
        if self.third_on is not None and self.judgments < rules.LAST_JUDGMENTS:
            raise ValueError("third_on is set before the third Last Judgment card is out")
        return self

    def check_players(self, ids: list[int]) -> None:
        """Every player the state names sits at the table."""
        seated = set(ids)
        for key in ("first", "turn", "third_on"):
            pid = getattr(self, key)
            if pid is not None and pid not in seated:
                raise ValueError(f"{key}: player {pid} is not at this table")
        keyed = {"stones": self.stones, "score.reserves": self.score.reserves,
                 "score.stones_on": self.score.stones_on, "score.quick": self.score.quick}
        for where, found in keyed.items():
            for key in found:
                if int(key) not in seated:
                    raise ValueError(f"{where}.{key}: player {key} is not at this table")
