"""What a table of The Others: 7 Sins remembers (`state.game`), declared once.

- Setup: who plays the Sins (a seat), the Sin, Acolytes, Story, its type and the map as typed, and
  the setup checklist ticked so far.
- The team of seven heroes (ids 1-7 in team order: Leader, 2 Snipers, 2 Bruisers, 2 Fixers). Each
  has a name, a status (reserve, in play, dead), the hero player controlling it, its printed stats,
  Corruption (1-7), the wound markers on its track, Turn and Extra Turn tokens, the City Action
  token, Upgrades, Innocents, NPC tokens, its Dark Past card, a Voluntary Corruption bonus waiting
  for its roll (with what changing one's mind puts back) and, once dead, who replaced it.
- The lineup (heroes in play in turn order, a dead hero keeping its seat until replaced) and the
  Hero Number fixed at the start (3 or 4).
- The round: its number, the first hero, whose turn it is, the Reaction tokens spent and gained,
  the Sin card of this turn, the round checklist, Altars; and the turn bookkeeping that appears
  with the first Turn token spent (last seat, turn count, a hero killed in their own turn, the turn
  the Sins player reacted to).
- The current Mission (number, progress, target) and the notes of Missions done or branches chosen.
- The Apocalypse track: its level, the track as printed (or copied from a saved preset), the cards
  revealed and the levels still waiting for a card.
- The fight helper, when open: the hero, the kind (Fight, Ranged, Crisis), the numbers behind both
  dice pools, the roll entered and what it comes to.
- Reminders on screen (each a stored message), and once the game ends who won and why.

A finished table's `result` is the shared winners with an empty score list.

Pure: pydantic and the game's own rules modules, no Flask.
"""
from __future__ import annotations

from typing import Annotated, Literal, Union

from pydantic import Field, StringConstraints, model_validator

from ...tables.shape import BIG, Count, Seat, Signed, Strict
from . import rules, state

# The Hero Number: 3 with one or three hero players, 4 with two or four.
HERO_NUMBERS = tuple(sorted({rules.hero_number(n) for n in range(1, rules.HERO_PLAYERS_MAX + 1)}))
HEROES_MAX = max(HERO_NUMBERS)
HeroId = Annotated[int, Field(ge=1, le=rules.TEAM_SIZE)]
Level = Annotated[int, Field(ge=rules.CORRUPTION_MIN, le=rules.CORRUPTION_MAX)]
TrackLevel = Annotated[int, Field(ge=1, le=len(state.TRACK_LEVELS))]
Text = Annotated[str, StringConstraints(max_length=state.TEXT_MAX)]
Dice = Annotated[int, Field(ge=0, le=rules.DICE_MAX)]
STAT_MAX = 9  # a printed Fight, Skill or Defense (state.set_stats)
EXTRA_REACTIONS_MAX = 7  # state.add_extra_reactions
# The most a whole Corruption Track gives one roll (every slot uncovered at level 7).
BONUS_MAX = {k: sum(getattr(b, k) for b in rules.TRACK.values()) for k in ("dice", "defense", "hits", "choice")}
# Reaction tokens a round can hold: the Hero Number, every track level's extra, the extras gained.
REACTIONS_MAX = HEROES_MAX + len(state.TRACK_LEVELS) * state.TRACK_BONUS_MAX + EXTRA_REACTIONS_MAX


def _range(lo: int, hi: int):
    return Annotated[int, Field(ge=lo, le=hi)]


def _distinct(values: list, what: str) -> None:
    if len(set(values)) != len(values):
        raise ValueError(f"{what} lists a value twice")


def _in_order(values: list, order: tuple, what: str) -> None:
    if values != [v for v in order if v in values]:
        raise ValueError(f"{what} is kept in its fixed order, each once")


# -- stored messages (reminders) --------------------------------------------------------------------

class Term(Strict):
    term: Annotated[str, StringConstraints(max_length=200)]


class Message(Strict):
    """A sentence stored untranslated: a message id and its values, each a short text, a number, a
    term or another message (i18n.render_message)."""

    msg: Annotated[str, StringConstraints(max_length=500)]
    args: dict[str, MessageValue] = Field(default_factory=dict, max_length=20)


MessageValue = Union[Annotated[str, StringConstraints(max_length=200)], Signed, Term, Message]
Message.model_rebuild()


class Alert(Strict):
    """A reminder shown until someone taps Done (state.add_alert)."""

    id: Annotated[int, Field(ge=1, le=BIG)]
    msg: Annotated[str, StringConstraints(min_length=1, max_length=500)]
    args: dict[str, MessageValue] = Field(max_length=20)
    # Only on the reminder to reveal a hero's Dark Past: that hero (its button reveals it).
    dark_past: HeroId | None = None


# -- heroes ---------------------------------------------------------------------------------------

class Stats(Strict):
    """The printed Fight, Skill and Defense, None until typed."""

    fight: _range(0, STAT_MAX) | None
    skill: _range(0, STAT_MAX) | None
    defense: _range(0, STAT_MAX) | None


class Undo(Strict):
    """What changing one's mind about a Voluntary Corruption puts back (state.cancel_voluntary)."""

    innocents: _range(0, state.INNOCENTS_MAX)
    alert: Annotated[int, Field(ge=1, le=BIG)] | None  # the reminder reaching 7 raised, if any
    trimmed: list[Alert] = Field(max_length=state.ALERTS_MAX)  # older reminders it pushed off the list


class Pending(Strict):
    """A Voluntary Corruption's bonus held for the next roll (rules.Bonus.as_dict)."""

    dice: _range(0, BONUS_MAX["dice"])
    defense: _range(0, BONUS_MAX["defense"])
    hits: _range(0, BONUS_MAX["hits"])
    choice: _range(0, BONUS_MAX["choice"])
    undo: Undo | None = None  # written with every bonus taken since changing one's mind came in


class Hero(Strict):
    id: HeroId
    cls: Literal[rules.CLASSES]  # type: ignore[valid-type]
    n: _range(1, max(rules.TEAM.count(c) for c in rules.CLASSES))  # "Sniper 2"
    name: Text  # "" until the table names the hero
    status: Literal["reserve", "play", "dead"]
    controller: Seat | None  # the hero player; None in the Hero Reserve
    stats: Stats
    corruption: Level
    wounds: list[Level] = Field(max_length=rules.WOUND_MARKERS)  # covered slots, ascending; the fifth kills
    turns_spent: _range(0, 2)  # two Turn tokens a round
    extra_turns: _range(0, state.EXTRA_TURNS_MAX)
    city_used: bool
    upgrades: _range(0, state.UPGRADES_MAX)
    innocents: _range(0, state.INNOCENTS_MAX)
    npcs: list[Literal[state.NPCS]] = Field(max_length=len(state.NPCS))  # type: ignore[valid-type]
    dark_past: Literal["hidden", "revealed"] | None  # a Corruption story's card; None otherwise
    pending: Pending | None
    replaced_by: HeroId | None

    @model_validator(mode="after")
    def _consistent(self):
        if self.wounds != sorted(set(self.wounds)):
            raise ValueError("wound slots are listed once each, in ascending order")
        _in_order(self.npcs, state.NPCS, "npcs")
        if (self.controller is None) != (self.status == "reserve"):
            raise ValueError("a hero has a controller exactly when it left the Hero Reserve")
        if self.replaced_by == self.id:
            raise ValueError("a hero is replaced by another hero")
        return self


# -- the round, missions and the Apocalypse track ------------------------------------------------

class Reactions(Strict):
    spent: _range(0, REACTIONS_MAX)
    extra: _range(0, EXTRA_REACTIONS_MAX)  # gained for this round only


class MissionNote(Strict):
    mission: Annotated[int, Field(ge=1, le=BIG)]
    text: Annotated[str, StringConstraints(max_length=state.NOTE_MAX)]
    kind: Literal["done", "note"]  # a Mission accomplished, or a branch or event noted


class Mission(Strict):
    # No story in the rulebook caps its Missions; each accomplished one moves this on by one.
    number: Annotated[int, Field(ge=1, le=BIG)]
    progress: _range(0, state.COUNT_MAX)
    target: _range(1, state.COUNT_MAX) | None  # None: the Hero Number
    notes: list[MissionNote] = Field(max_length=state.NOTES_MAX)


class TrackStep(Strict):
    """One printed level of the Apocalypse track."""

    card: bool  # reaching it reveals an Apocalypse card
    effect: Annotated[str, StringConstraints(max_length=state.EFFECT_MAX)]
    reactions: _range(0, state.TRACK_BONUS_MAX)
    sin_dice: _range(0, state.TRACK_BONUS_MAX)


class PresetRef(Strict):
    """The saved track this table's track was copied from or saved as (presets.py)."""

    id: Annotated[int, Field(ge=1, le=BIG)]
    name: Annotated[str, StringConstraints(min_length=1, max_length=state.TEXT_MAX)]


class Track(Strict):
    levels: list[TrackStep] = Field(min_length=len(state.TRACK_LEVELS), max_length=len(state.TRACK_LEVELS))
    preset: PresetRef | None


class ApocalypseCard(Strict):
    level: TrackLevel
    name: Text
    hell_club: Text  # the Hell Club monster it brings, "" for none
    gone: bool  # that monster was killed


class Apocalypse(Strict):
    level: _range(0, len(state.TRACK_LEVELS))
    track: Track
    cards: list[ApocalypseCard] = Field(max_length=state.CARDS_MAX)
    reveal_due: list[TrackLevel] = Field(max_length=len(state.TRACK_LEVELS))  # levels waiting for a card

    @model_validator(mode="after")
    def _due_reached(self):
        _distinct(self.reveal_due, "reveal_due")
        if any(lv > self.level for lv in self.reveal_due):
            raise ValueError("a card is due only at a level the track has reached")
        return self


# -- the fight helper -------------------------------------------------------------------------------

class Roll(Strict):
    """Both rolls as entered (rules.HeroRoll and rules.SinRoll)."""

    hits: Dice
    defense: Dice
    counter: Dice
    skill: Dice
    faith: Dice
    flex_hits: Dice
    flex_defense: Dice
    flex_counter: Dice
    flex_skill: Dice
    sin_hits: Dice
    sin_corruption: Dice


D = rules.DICE_MAX


class FightOutcome(Strict):
    """What a Fight (or a Ranged Fight) comes to (rules.FightOutcome, with the forced-Corruption overflow)."""

    defense: _range(0, 4 * D + BONUS_MAX["defense"])  # base, extra, rolled, FAITH, bonus
    counter: _range(0, 2 * D)
    hits: _range(0, 3 * D + BONUS_MAX["hits"])
    wounds: _range(0, D)
    corruption: _range(0, D)
    cancelled_hits: _range(0, D)
    cancelled_corruption: _range(0, D)
    unused_flex: _range(0, D + BONUS_MAX["choice"])
    overflow: _range(0, D)  # Forced Corruption past 7, taken as wounds
    wounds_total: _range(0, rules.WOUND_MARKERS)


class CrisisOutcome(Strict):
    """Resolve a Crisis: the Exploration tokens removed; nothing reaches the hero."""

    tokens: _range(0, 2 * D)
    wounds_total: Literal[0]
    corruption: Literal[0]
    overflow: Literal[0]


class Fight(Strict):
    hero: HeroId
    kind: Literal[state.FIGHT_KINDS]  # type: ignore[valid-type]
    stat: Dice | None  # None: the hero's printed stat was never typed (asked for, never counted as 0)
    base_defense: Dice | None
    teammates: Dice
    extra_dice: Dice
    extra_defense: Dice
    extra_hits: Dice
    monsters: Dice
    pentagrams: Dice
    sin_extra: Dice
    roll: Roll | None
    outcome: FightOutcome | CrisisOutcome | None

    @model_validator(mode="after")
    def _outcome_fits(self):
        if self.outcome is not None:
            if self.roll is None:
                raise ValueError("an outcome comes from a roll")
            if isinstance(self.outcome, CrisisOutcome) != (self.kind == state.CRISIS):
                raise ValueError("a Crisis has a Crisis outcome, a Fight a Fight outcome")
        return self


# -- the table -----------------------------------------------------------------------------------

class GameState(Strict):
    """A table's `state.game` at any stage: setup, a round, a fight open, finished."""

    sins_player: Seat | None
    sin: Text
    acolytes: Text
    story: Text
    story_type: Literal[("", *state.STORY_TYPES)]  # type: ignore[valid-type]  # "" until chosen
    map: Text
    setup_done: list[Literal[state.SETUP_STEPS]] = Field(max_length=len(state.SETUP_STEPS))  # type: ignore[valid-type]
    heroes: list[Hero] = Field(min_length=rules.TEAM_SIZE, max_length=rules.TEAM_SIZE)
    lineup: list[HeroId] = Field(max_length=HEROES_MAX)
    hero_number: Literal[(0, *HERO_NUMBERS)]  # type: ignore[valid-type]  # 0 before the start
    # Nothing in the rules caps the rounds; 0 before the start.
    round: Annotated[int, Field(ge=0, le=BIG)]
    first: HeroId | None
    current: HeroId | None  # the hero whose turn it is (or who just finished it)
    reactions: Reactions
    sin_card: bool
    round_done: list[Literal[state.START_STEPS + state.END_STEPS]] = Field(  # type: ignore[valid-type]
        max_length=len(state.START_STEPS + state.END_STEPS))
    altars: _range(0, state.ALTARS_MAX)
    mission: Mission
    apocalypse: Apocalypse
    fight: Fight | None
    alerts: list[Alert] = Field(max_length=state.ALERTS_MAX)
    next_alert: Annotated[int, Field(ge=1, le=BIG)]
    winner: Literal["heroes", "sins"] | None
    # Appears when a side wins: the last Mission, a death with the reserve empty, or the table's word.
    win_reason: Literal["missions", "reserve", "declared"] | None = None
    # Appear with the first Turn token spent (state.spend_turn), cleared at the end of each round:
    last_seat: _range(0, HEROES_MAX - 1) | None = None  # the lineup seat that played last
    turn_no: Count = 0  # hero turns taken, counted over the game
    turn_killed: HeroId | None = None  # a hero killed during their own turn (no reaction to it)
    reacted: Count | None = None  # the turn_no the Sins player reacted to

    @model_validator(mode="after")
    def _consistent(self):
        for i, h in enumerate(self.heroes):
            if (h.id, h.cls) != (i + 1, rules.TEAM[i]) or h.n != rules.TEAM[:i + 1].count(h.cls):
                raise ValueError("heroes: the team of seven in team order (Leader, Snipers, Bruisers, Fixers)")
        _in_order(self.setup_done, state.SETUP_STEPS, "setup_done")
        _in_order(self.round_done, state.START_STEPS + state.END_STEPS, "round_done")
        _distinct(self.lineup, "lineup")
        status = {h.id: h.status for h in self.heroes}
        if any(status[hid] == "reserve" for hid in self.lineup):
            raise ValueError("lineup: a hero in the Hero Reserve is not in play")
        if any(h.status == "play" and h.id not in self.lineup for h in self.heroes):
            raise ValueError("lineup: every hero in play has a seat in it")
        names = [h.name.casefold() for h in self.heroes if h.name]
        _distinct(names, "heroes' names")
        _distinct([n for h in self.heroes for n in h.npcs], "NPC tokens (one of each)")
        ids = [a.id for a in self.alerts]
        _distinct(ids, "alerts")
        if any(i >= self.next_alert for i in ids):
            raise ValueError("alerts: every reminder's id comes before next_alert")
        reasons = {"heroes": {"missions"}, "sins": {"reserve", "declared"}, None: {None}}
        if self.win_reason not in reasons[self.winner]:
            raise ValueError("win_reason: how that side won")
        if self.reacted is not None and self.reacted > self.turn_no:
            raise ValueError("reacted: a turn already taken")
        return self

    def check_players(self, ids: list[int]) -> None:
        """The Sins player and every hero's controller are players at the table; no hero is the
        Sins player's."""
        seats = set(ids)
        if self.sins_player is not None and self.sins_player not in seats:
            raise ValueError(f"sins_player: seat {self.sins_player} is not at this table")
        for h in self.heroes:
            if h.controller is not None and h.controller not in seats:
                raise ValueError(f"heroes.{h.id}.controller: seat {h.controller} is not at this table")
            if h.controller is not None and h.controller == self.sins_player:
                raise ValueError(f"heroes.{h.id}.controller: the Sins player controls no hero")
