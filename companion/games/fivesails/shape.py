"""What a table of 7th Sea: City of Five Sails remembers (`state.game`), declared once.

- The setup checklist ticked so far (`setup_done`) and how the City line lies (`line`).
- Where the game is: the Day (1-5) and its phase (Dawn ... Dusk).
- Initiative: each player's scheme value this Planning, who holds the First Player token, why
  (highest / tie passed left / tie drawn at random), who was tied, who held it when this Planning
  began, and the random draw a repeated tie must give again.
- Per player (keyed by seat id as a string): Renown, Influence, the Leader's wounds and Resolve on
  its tracker, whether it is destroyed and the Renown that took away (given back on a restore).
- Who controls each City location in play (three to five of them, by player count).
- A duel under way, if any: its set-up (both characters, Technique, refused or intervened), the
  rounds played so far (each a combat card or none, Lethal, gambled, adversary away), and which
  player and Leader each side stands for. The duel is replayed from these on every page, so a
  stored duel must replay without a refusal.
- The duel last finished (`last_duel`, set-up and rounds only), for its page to tell once it is over.

A finished table's `result` adds "victory" and "decided_by" (plain strings) to the shared winners
and scores (tables/shape.Result allows them).

Pure: pydantic and the game's own rules modules, no Flask.
"""
from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, StringConstraints, model_validator

from ...domain import Invalid
from ...tables.shape import SeatKey, Strict
from . import duel as d
from . import rules

# Game(max_players=4) in __init__.py: the rulebook's two to four players (a test holds the two together).
PLAYERS_MAX = 4
SetupKey = Literal[tuple(s.key for s in rules.setup_steps(PLAYERS_MAX))]  # type: ignore[valid-type]
Location = Literal[rules.locations_for(PLAYERS_MAX)]  # type: ignore[valid-type]
Phase = Literal[rules.PHASES]  # type: ignore[valid-type]
Reason = Literal["highest", "tie-left", "tie-random"]


def _range(lo: int, hi: int):
    return Annotated[int, Field(ge=lo, le=hi)]


def _distinct(values: list, what: str) -> None:
    if len(set(values)) != len(values):
        raise ValueError(f"{what} lists a value twice")


# -- the City line and the players -----------------------------------------------------------------

class CityLine(Strict):
    """How the table laid out the City line (rules.city_line)."""

    flipped: bool
    swapped: bool
    gardens_with_inn: bool


class PlayerState(Strict):
    renown: _range(0, rules.RENOWN_MAX)
    influence: _range(0, rules.INFLUENCE_MAX)
    leader_wounds: _range(0, rules.WOUNDS_MAX)
    # The Leader's Resolve as last told (by hand or by a duel); None until then.
    leader_resolve: _range(1, rules.WOUNDS_MAX) | None
    leader_destroyed: bool
    # Renown the destruction took away (half, rounded up, with 3-4 players), given back on a restore.
    renown_lost: _range(0, rules.renown_loss(rules.RENOWN_MAX))

    @model_validator(mode="after")
    def _tracker_agrees(self):
        if not self.leader_destroyed:
            if self.renown_lost:
                raise ValueError("a Leader in play has lost no Renown to its destruction")
            if self.leader_resolve is not None and self.leader_wounds >= self.leader_resolve:
                raise ValueError("a Leader in play has fewer wounds than its Resolve (the tracker destroys it)")
        return self


class FirstDraw(Strict):
    """A tie with nobody holding the token yet, drawn at random: the same tie drawn again this Day
    gives the same player."""

    tied: list[SeatKey] = Field(min_length=2, max_length=PLAYERS_MAX)
    player: SeatKey

    @model_validator(mode="after")
    def _player_is_tied(self):
        _distinct(self.tied, "first_draw.tied")
        if self.player not in self.tied:
            raise ValueError("the drawn player is one of the tied players")
        return self


# -- a duel under way (duel.py's plain data) ----------------------------------------------------------

CharacterName = Annotated[str, StringConstraints(min_length=1, max_length=d.NAME_MAX)]


class Character(Strict):
    name: CharacterName
    duel_stat: _range(0, d.STAT_MAX)
    resolve: _range(1, d.RESOLVE_MAX)
    wounds: _range(0, d.RESOLVE_MAX)
    finesse: _range(0, d.STAT_MAX)

    @model_validator(mode="after")
    def _not_destroyed(self):
        if self.wounds >= self.resolve:
            raise ValueError("a character with wounds at its Resolve is destroyed and cannot duel")
        return self


class DuelSetup(Strict):
    challenger: Character
    defender: Character
    technique_thrust: _range(0, d.COMBAT_VALUE_MAX)
    technique_lethal: bool
    refused: bool
    # The character first challenged, when another intervened and took the challenge.
    intervened_for: CharacterName | None

    @model_validator(mode="after")
    def _refused_or_intervened(self):
        if self.refused and self.intervened_for:
            raise ValueError("a challenge is refused or taken by an intervening character, not both")
        return self


class CombatCard(Strict):
    riposte: _range(0, d.COMBAT_VALUE_MAX)
    parry: _range(0, d.COMBAT_VALUE_MAX)
    thrust: _range(0, d.COMBAT_VALUE_MAX)


class DuelRound(Strict):
    card: CombatCard | None  # None: no card played
    lethal: bool
    gambled: bool
    # Written only when true: the adversary was away from the actor's location this round.
    adversary_absent: bool = False


class SideLink(Strict):
    """Which player a duelling character belongs to, and whether it is that player's Leader."""

    player: SeatKey | None
    leader: bool

    @model_validator(mode="after")
    def _leader_has_player(self):
        if self.leader and self.player is None:
            raise ValueError("a Leader in a duel belongs to a player")
        return self


class Sides(Strict):
    challenger: SideLink
    defender: SideLink


class FinishedDuel(Strict):
    """The duel the table last finished, kept so its duel page can still tell it once it is over (its
    wounds are on the trackers already). No seats: nothing is read from it but its story."""

    setup: DuelSetup
    rounds: list[DuelRound] = Field(max_length=d.ROUNDS_MAX)

    @model_validator(mode="after")
    def _replays(self):
        """Every page replays the duel (views.table_duel): a stored duel the rules refuse would
        break them, so it is refused here."""
        data = self.model_dump()
        try:
            d.resolve(d.read_setup(data["setup"]), d.read_rounds(data["rounds"]))
        except Invalid as err:
            raise ValueError(f"the duel does not replay: {err.problems[0].field}") from None
        return self


class TableDuel(FinishedDuel):
    """The duel being fought, with the seats of its two sides."""

    sides: Sides


# -- the table -----------------------------------------------------------------------------------

class GameState(Strict):
    """A City of Five Sails table's `state.game` at any stage: setup, a Day, a duel, finished."""

    setup_done: list[SetupKey] = Field(max_length=len(rules.setup_steps(PLAYERS_MAX)))
    line: CityLine
    day: _range(1, rules.MAX_DAYS)
    phase: Phase
    # Tables saved before the Day went by phase kept an index into rules.DAY_STEPS; the next phase
    # change drops it (rules.current_phase still reads it).
    step: _range(0, len(rules.DAY_STEPS) - 1) | None = None
    initiative: dict[SeatKey, _range(0, rules.INITIATIVE_MAX)] = Field(max_length=PLAYERS_MAX)
    first_player: SeatKey | None
    first_reason: Reason | None
    # Appears once the First Player is first handed out (or a new Day begins): who was tied for it.
    first_tied: list[SeatKey] = Field(default_factory=list, max_length=PLAYERS_MAX)
    # Whoever held the token when this Planning began: ties are passed on from them.
    planning_holder: SeatKey | None
    first_draw: FirstDraw | None
    players: dict[SeatKey, PlayerState] = Field(min_length=1, max_length=PLAYERS_MAX)
    control: dict[Location, SeatKey | None]
    duel: TableDuel | None
    # Appears once a duel is finished; a new duel drops it.
    last_duel: FinishedDuel | None = None
    notes: None  # kept since the first tables; nothing writes it

    @model_validator(mode="after")
    def _consistent(self):
        _distinct(self.setup_done, "setup_done")
        _distinct(self.first_tied, "first_tied")
        return self

    def check_players(self, ids: list[int]) -> None:
        """Every seat the state names is one of the table's players, every player has a record, and
        the setup checklist and the City locations are the ones for this many players."""
        seats = {str(i) for i in ids}
        if set(self.players) != seats:
            raise ValueError("players: one record per player at the table")
        named = [("first_player", self.first_player), ("planning_holder", self.planning_holder)]
        named += [("first_tied", s) for s in self.first_tied]
        named += [("initiative", s) for s in self.initiative]
        named += [("control", s) for s in self.control.values()]
        if self.first_draw is not None:
            named += [("first_draw", s) for s in [*self.first_draw.tied, self.first_draw.player]]
        if self.duel is not None:
            named += [("duel.sides", link.player) for link in (self.duel.sides.challenger, self.duel.sides.defender)]
        for where, seat in named:
            if seat is not None and seat not in seats:
                raise ValueError(f"{where}: seat {seat} is not at this table")
        if set(self.control) != set(rules.locations_for(len(ids))):
            raise ValueError("control: the City locations in play for this many players")
        steps = {s.key for s in rules.setup_steps(len(ids))}
        if not set(self.setup_done) <= steps:
            raise ValueError("setup_done: a step this many players does not have")
