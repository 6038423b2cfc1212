"""The Others: 7 Sins: the arithmetic of the rules, pure (no Flask, no database).

Section names refer to the work-in-progress English rulebook (../shared/rulebooks/the-others-7-sins.en.txt):
"Taking Corruption" (p. 36), "Taking Wounds" (p. 37), "Hero Death" (p. 38), "Choose Heroes" (p. 10),
"Rolling Dice" (p. 30) and "Fight" (p. 31). Everything here works on plain values and frozen
dataclasses; `state.py` applies it to a table's document.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Iterable

from ...domain import N_, Invalid, Problem, Problems, count

CORRUPTION_MIN = 1
CORRUPTION_MAX = 7
LEVELS = tuple(range(CORRUPTION_MIN, CORRUPTION_MAX + 1))
WOUND_MARKERS = 5  # the fifth wound marker placed kills the hero
TEAM_SIZE = 7
HERO_PLAYERS_MAX = 4
DICE_MAX = 40  # far above anything a table rolls; bounds every dice count typed in


@dataclass(frozen=True)
class Bonus:
    """What a Corruption Track adds to one roll: dice before rolling, results after."""

    dice: int = 0
    defense: int = 0
    hits: int = 0
    choice: int = 0  # level 7: one result of the player's choice (Hit, Skill, Defense or Counter-Corruption)

    def __add__(self, other: "Bonus") -> "Bonus":
        return Bonus(self.dice + other.dice, self.defense + other.defense, self.hits + other.hits,
                     self.choice + other.choice)

    def as_dict(self) -> dict[str, int]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict | None) -> "Bonus":
        data = data or {}
        return cls(**{k: int(data.get(k, 0)) for k in ("dice", "defense", "hits", "choice")})

    def __bool__(self) -> bool:
        return any((self.dice, self.defense, self.hits, self.choice))


# "Taking Corruption", p. 36: the bonus printed under each slot of every hero's Corruption Track.
TRACK: dict[int, Bonus] = {
    1: Bonus(),
    2: Bonus(dice=1),
    3: Bonus(defense=1),
    4: Bonus(hits=1),
    5: Bonus(dice=1),
    6: Bonus(hits=2),
    7: Bonus(choice=1),
}


def check_level(level, field: str = "level", problems: Problems | None = None) -> int:
    """A Corruption level read from input: a whole number from 1 to 7."""
    own = problems is None
    problems = problems if problems is not None else Problems()
    value = count(level, field, problems, minimum=CORRUPTION_MIN, maximum=CORRUPTION_MAX)
    if own:
        problems.raise_if_any()
    return value


def check_wound_slots(slots, field: str = "wound_slots", problems: Problems | None = None,
                      most: int = WOUND_MARKERS - 1) -> tuple[int, ...]:
    """Wound markers on a living hero's track: distinct slots 1-7, at most four (a fifth kills)."""
    own = problems is None
    problems = problems if problems is not None else Problems()
    if slots is None:
        slots = []
    if not isinstance(slots, (list, tuple)):
        problems.add(field, N_("Give the covered slots as a list of levels, e.g. [1, 3]."))
        slots = []
    if len(slots) > most:
        problems.add(field, N_("A living hero carries at most %(max)d wound markers: the fifth one kills."),
                     max=most)
    seen: list[int] = []
    for i, raw in enumerate(slots[:TEAM_SIZE]):
        before = len(problems.items)
        slot = count(raw, f"{field}.{i}", problems, minimum=CORRUPTION_MIN, maximum=CORRUPTION_MAX)
        if len(problems.items) > before:
            continue
        if slot in seen:
            problems.add(f"{field}.{i}", N_("Slot %(slot)d is listed twice: one marker per slot."), slot=slot)
            continue
        seen.append(slot)
    if own:
        problems.raise_if_any()
    return tuple(sorted(seen))


def corruption_bonus(level: int, wound_slots: Iterable[int] = ()) -> Bonus:
    """Every bonus still visible at or below `level` ("Voluntary Corruption", p. 36; "Taking Wounds", p. 37).

    A wound marker hides the bonus of the slot it sits on.
    """
    covered = set(wound_slots)
    total = Bonus()
    for lvl in range(CORRUPTION_MIN, level + 1):
        if lvl not in covered:
            total = total + TRACK[lvl]
    return total


@dataclass(frozen=True)
class CorruptionStep:
    """The outcome of taking one Corruption: the new level, what it grants this roll, and any wound instead."""

    new_level: int
    bonus: Bonus = Bonus()
    wound: bool = False


def voluntary_corruption(level: int, wound_slots: Iterable[int] = ()) -> CorruptionStep:
    """Take one Voluntary Corruption before a roll ("Voluntary Corruption", p. 36).

    The level goes up by one and the roll gets every uncovered bonus up to the new level. Not allowed
    at level 7 (the hero must lower the level first, e.g. with Repent).
    """
    if level >= CORRUPTION_MAX:
        raise Invalid(Problem("level", N_("At Corruption level 7 a hero cannot take Voluntary Corruption: "
                                          "lower the level first (Repent).")))
    new_level = level + 1
    return CorruptionStep(new_level, corruption_bonus(new_level, wound_slots))


def forced_corruption(level: int) -> CorruptionStep:
    """Take one Forced Corruption ("Forced Corruption", p. 36): one level up, no bonus; at 7, a wound instead."""
    if level >= CORRUPTION_MAX:
        return CorruptionStep(CORRUPTION_MAX, Bonus(), wound=True)
    return CorruptionStep(level + 1)


def forced_corruptions(level: int, times: int) -> tuple[int, int]:
    """Several Forced Corruptions in a row: (new level, wounds taken instead once at 7)."""
    wounds = 0
    for _ in range(times):
        step = forced_corruption(level)
        level = step.new_level
        wounds += step.wound
    return level, wounds


def repent(level: int) -> int:
    """Repent (a City Action, p. 14): the Corruption level goes down one, never below 1."""
    if level <= CORRUPTION_MIN:
        raise Invalid(Problem("level", N_("The Corruption level is already at 1.")))
    return level - 1


def suggested_wound_slot(wound_slots: Iterable[int]) -> int:
    """Where to put the next wound marker: slot 1 first (its bonus is "no effect"), then the lowest free slot.

    The rulebook ("Taking Wounds", p. 37) advises slot 1 for the first marker and leaves the rest to
    the player; the lowest free slot is only a default the player can change.
    """
    covered = set(wound_slots)
    return next(lvl for lvl in LEVELS if lvl not in covered)


def suggested_wound_slots(wound_slots: Iterable[int], n: int) -> tuple[int, ...]:
    covered = list(wound_slots)
    out = []
    for _ in range(min(n, len(LEVELS) - len(covered))):
        slot = suggested_wound_slot(covered + out)
        out.append(slot)
    return tuple(out)


@dataclass(frozen=True)
class WoundResult:
    wound_slots: tuple[int, ...]
    killed: bool


def place_wound(wound_slots: Iterable[int], slot: int, field: str = "slot") -> WoundResult:
    """Put one wound marker on a free bonus slot ("Taking Wounds", p. 37); the fifth marker kills ("Hero Death", p. 38)."""
    current = tuple(wound_slots)
    if len(current) >= WOUND_MARKERS:
        raise Invalid(Problem(field, N_("This hero is already dead.")))
    if not isinstance(slot, int) or not CORRUPTION_MIN <= slot <= CORRUPTION_MAX:
        raise Invalid(Problem(field, N_("Choose a slot from 1 to 7.")))
    if slot in current:
        raise Invalid(Problem(field, N_("Slot %(slot)d already has a wound marker: choose a free slot."),
                              {"slot": slot}))
    placed = tuple(sorted(current + (slot,)))
    return WoundResult(placed, len(placed) >= WOUND_MARKERS)


def heal(wound_slots: Iterable[int], slot: int, field: str = "slot") -> tuple[int, ...]:
    """Heal one wound: the player removes the marker of their choice ("Taking Wounds", p. 37)."""
    current = tuple(wound_slots)
    if slot not in current:
        raise Invalid(Problem(field, N_("There is no wound marker on slot %(slot)s."), {"slot": slot}))
    return tuple(s for s in current if s != slot)


# -- the team ---------------------------------------------------------------------------------------

LEADER, SNIPER, BRUISER, FIXER = "leader", "sniper", "bruiser", "fixer"
CLASSES = (LEADER, SNIPER, BRUISER, FIXER)
# "Advanced Team Building", p. 10: every team is 1 Leader, 2 Snipers, 2 Bruisers and 2 Fixers.
TEAM: tuple[str, ...] = (LEADER, SNIPER, SNIPER, BRUISER, BRUISER, FIXER, FIXER)
BASE_COLOURS = {LEADER: "yellow", SNIPER: "blue", BRUISER: "red", FIXER: "green"}


def hero_number(hero_players: int) -> int:
    """Heroes in play ("Choose Heroes", p. 10): 3 with 1 or 3 hero players, 4 with 2 or 4."""
    if not 1 <= hero_players <= HERO_PLAYERS_MAX:
        raise Invalid(Problem("players", N_("The Others needs 1 to 4 hero players besides the Sins player.")))
    return 3 if hero_players % 2 else 4


def heroes_per_player(hero_players: int) -> int:
    """How many heroes each hero player controls: 3 alone, 2 each for two players, otherwise 1."""
    return hero_number(hero_players) // hero_players


def starting_dark_past(heroes_in_play: int) -> tuple[int, ...]:
    """Dark Past cards dealt to the starting heroes in a Corruption story ("Dark Past Cards", p. 27)."""
    return (1, 3, 5) if heroes_in_play == 3 else (1, 3, 5, 6)


# -- dice and fights --------------------------------------------------------------------------------

def hero_dice(stat: int, teammates: int = 0, commissioner: bool = False, extra: int = 0,
              bonus: Bonus = Bonus()) -> int:
    """Hero dice for a Fight or a Crisis ("Hero Preparation", p. 31; "Resolve a Crisis", p. 13).

    The Fight (or Skill) stat, +1 per other hero in the space (Teamwork), +1 with the Commissioner
    (fights only: the caller passes False for a crisis), extras from abilities and upgrades, and the
    dice of a Voluntary Corruption taken just before.
    """
    return max(0, stat + teammates + (1 if commissioner else 0) + extra + bonus.dice)


def sin_dice(monster_fight: int, pentagrams: int = 0, extra: int = 0) -> int:
    """Sin dice for a Fight ("Sin Preparation", p. 31): the monsters' Fight stats, +1 per Pentagram, extras."""
    return max(0, monster_fight + pentagrams + extra)


@dataclass(frozen=True)
class HeroRoll:
    """What the hero's dice show once every extra die is rolled. `flex_*` say what each FAITH result
    (and a level 7 choice bonus) was turned into."""

    hits: int = 0
    defense: int = 0
    counter: int = 0
    skill: int = 0
    faith: int = 0
    flex_hits: int = 0
    flex_defense: int = 0
    flex_counter: int = 0
    flex_skill: int = 0

    @property
    def flex_used(self) -> int:
        return self.flex_hits + self.flex_defense + self.flex_counter + self.flex_skill


@dataclass(frozen=True)
class SinRoll:
    hits: int = 0
    corruption: int = 0


@dataclass(frozen=True)
class FightOutcome:
    """The result of a Fight for the hero: what reaches them and what they deal ("Fight Resolution", p. 31)."""

    defense: int
    counter: int
    hits: int
    wounds: int
    corruption: int
    cancelled_hits: int
    cancelled_corruption: int
    unused_flex: int

    def as_dict(self) -> dict[str, int]:
        return asdict(self)


def _check_flex(roll: HeroRoll, bonus: Bonus) -> None:
    available = roll.faith + bonus.choice
    if roll.flex_used > available:
        raise Invalid(Problem("flex_hits", N_("Only %(n)d result(s) can be turned into others (FAITH and the "
                                              "level 7 choice), but %(used)d were assigned."),
                              {"n": available, "used": roll.flex_used}))


def resolve_fight(roll: HeroRoll, sin: SinRoll, base_defense: int = 0, extra_defense: int = 0,
                  extra_hits: int = 0, bonus: Bonus = Bonus()) -> FightOutcome:
    """Compare both rolls ("Fight Resolution", p. 31).

    Each Defense cancels one Sin Hit; each Counter-Corruption cancels one Sin Corruption. What is
    left wounds and corrupts the hero. The hero's Hits (rolled, from FAITH, upgrades and the
    Corruption bonus) are distributed among the monsters by the player. Skill results do nothing in a
    fight.
    """
    _check_flex(roll, bonus)
    defense = base_defense + extra_defense + roll.defense + roll.flex_defense + bonus.defense
    counter = roll.counter + roll.flex_counter
    hits = roll.hits + roll.flex_hits + extra_hits + bonus.hits
    wounds = max(0, sin.hits - defense)
    corruption = max(0, sin.corruption - counter)
    return FightOutcome(defense=defense, counter=counter, hits=hits, wounds=wounds, corruption=corruption,
                        cancelled_hits=sin.hits - wounds, cancelled_corruption=sin.corruption - corruption,
                        unused_flex=roll.faith + bonus.choice - roll.flex_used)


def resolve_crisis(roll: HeroRoll, bonus: Bonus = Bonus()) -> int:
    """Resolve a Crisis ("Resolve a Crisis", p. 13): one face-up Exploration token removed per Skill result."""
    _check_flex(roll, bonus)
    return roll.skill + roll.flex_skill


def roll_from(data: dict, problems: Problems, prefix: str = "") -> tuple[HeroRoll, SinRoll]:
    """Read both rolls from untrusted input, every count bounded."""
    def n(name):
        return count(data.get(name, 0), prefix + name, problems, maximum=DICE_MAX)

    hero = HeroRoll(hits=n("hits"), defense=n("defense"), counter=n("counter"), skill=n("skill"),
                    faith=n("faith"), flex_hits=n("flex_hits"), flex_defense=n("flex_defense"),
                    flex_counter=n("flex_counter"), flex_skill=n("flex_skill"))
    sin = SinRoll(hits=n("sin_hits"), corruption=n("sin_corruption"))
    return hero, sin
