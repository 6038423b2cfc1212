"""The Others: 7 Sins: the Corruption Track, wounds, the Hero Number and fights, with the rulebook's examples."""
from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.domain import Invalid
from companion.games.others import rules
from companion.games.others.rules import Bonus, HeroRoll, SinRoll

levels = st.integers(min_value=1, max_value=7)
slot_sets = st.sets(st.integers(min_value=1, max_value=7), max_size=4)


# -- Voluntary Corruption: the rulebook's examples ("Taking Corruption", "Taking Wounds") -------------

@pytest.mark.parametrize("level, wounds, new_level, bonus", [
    pytest.param(1, (), 2, Bonus(dice=1), id="example-1-level-1-to-2-one-die"),
    pytest.param(4, (), 5, Bonus(dice=2, defense=1, hits=1), id="example-2-level-4-to-5"),
    pytest.param(2, (), 3, Bonus(dice=1, defense=1), id="fight-example-rose-level-2-to-3"),
    pytest.param(4, (1, 3), 5, Bonus(dice=2, hits=1), id="api-example-slots-1-and-3"),
    pytest.param(5, (), 6, Bonus(dice=2, defense=1, hits=3), id="level-5-to-6"),
    pytest.param(6, (), 7, Bonus(dice=2, defense=1, hits=3, choice=1), id="level-6-to-7-choice"),
    pytest.param(6, (7,), 7, Bonus(dice=2, defense=1, hits=3), id="choice-covered"),
    pytest.param(1, (2,), 2, Bonus(), id="only-bonus-covered"),
])
def test_voluntary_corruption_adds_every_uncovered_bonus_up_to_the_new_level(level, wounds, new_level, bonus):
    step = rules.voluntary_corruption(level, wounds)
    assert step.new_level == new_level
    assert step.bonus == bonus
    assert not step.wound


# The four-wound example ("Taking Wounds"): with 4 markers placed, Voluntary Corruption from 4 to 5
# adds just one die and one Defense. The picture of where the markers sit is missing; any placement must
# cover the +1 Hit of level 4 and one of the two dice (level 2 or 5), leave level 3 open, and put the
# last marker on one of the levels that give nothing here (1, or 6 and 7 above the new level).
FOUR_WOUND_PLACEMENTS = [(1, 2, 4, 6), (1, 2, 4, 7), (1, 4, 5, 6), (1, 4, 5, 7), (2, 4, 6, 7), (4, 5, 6, 7)]


@pytest.mark.parametrize("wounds", [pytest.param(s, id="slots-" + "-".join(map(str, s)))
                                    for s in FOUR_WOUND_PLACEMENTS])
def test_four_wound_example_leaves_one_die_and_one_defense(wounds):
    step = rules.voluntary_corruption(4, wounds)
    assert step.new_level == 5
    assert step.bonus == Bonus(dice=1, defense=1)


def test_four_wound_example_has_no_other_placement():
    found = [s for s in itertools.combinations(rules.LEVELS, 4)
             if rules.voluntary_corruption(4, s).bonus == Bonus(dice=1, defense=1)]
    assert found == FOUR_WOUND_PLACEMENTS


def test_voluntary_corruption_is_refused_at_level_7():
    with pytest.raises(Invalid) as err:
        rules.voluntary_corruption(7, ())
    assert "level" in err.value.as_dict()


@pytest.mark.parametrize("level, bonus", [
    pytest.param(1, Bonus(), id="1-no-effect"),
    pytest.param(2, Bonus(dice=1), id="2-die"),
    pytest.param(3, Bonus(defense=1), id="3-defense"),
    pytest.param(4, Bonus(hits=1), id="4-hit"),
    pytest.param(5, Bonus(dice=1), id="5-die"),
    pytest.param(6, Bonus(hits=2), id="6-two-hits"),
    pytest.param(7, Bonus(choice=1), id="7-choice"),
])
def test_the_printed_track(level, bonus):
    assert rules.TRACK[level] == bonus


# -- Forced Corruption and Repent ---------------------------------------------------------------------

@pytest.mark.parametrize("level, new_level, wound", [
    pytest.param(1, 2, False, id="1-to-2"),
    pytest.param(6, 7, False, id="6-to-7"),
    pytest.param(7, 7, True, id="at-7-a-wound-instead"),
])
def test_forced_corruption(level, new_level, wound):
    step = rules.forced_corruption(level)
    assert (step.new_level, step.wound, step.bonus) == (new_level, wound, Bonus())


def test_forced_corruption_never_gives_a_bonus_even_where_voluntary_would():
    assert rules.voluntary_corruption(4).bonus
    assert not rules.forced_corruption(4).bonus


@given(levels, st.integers(min_value=0, max_value=12))
def test_forced_corruptions_stop_at_7_and_turn_into_wounds(level, times):
    new_level, wounds = rules.forced_corruptions(level, times)
    assert new_level == min(7, level + times)
    assert wounds == max(0, level + times - 7)


def test_repent_lowers_one_level_but_not_below_1():
    assert rules.repent(5) == 4
    with pytest.raises(Invalid):
        rules.repent(1)


# -- Wounds -------------------------------------------------------------------------------------------

def test_fifth_wound_kills():
    result = rules.place_wound((1, 2, 3, 4), 7)
    assert result.killed and result.wound_slots == (1, 2, 3, 4, 7)
    assert not rules.place_wound((1, 2, 3), 4).killed


@pytest.mark.parametrize("wounds, slot", [
    pytest.param((1,), 1, id="slot-taken"),
    pytest.param((), 0, id="slot-0"),
    pytest.param((), 8, id="slot-8"),
    pytest.param((1, 2, 3, 4, 5), 6, id="already-dead"),
])
def test_bad_wound_placements_are_refused(wounds, slot):
    with pytest.raises(Invalid):
        rules.place_wound(wounds, slot)


def test_suggested_slot_is_level_1_first_then_the_lowest_free():
    assert rules.suggested_wound_slot(()) == 1
    assert rules.suggested_wound_slot((1, 2)) == 3
    assert rules.suggested_wound_slot((3,)) == 1
    assert rules.suggested_wound_slots((1,), 2) == (2, 3)


def test_heal_removes_the_chosen_marker():
    assert rules.heal((1, 4, 6), 4) == (1, 6)
    with pytest.raises(Invalid):
        rules.heal((1,), 3)


@given(slot_sets, levels)
def test_a_wound_never_adds_a_bonus(wounds, level):
    base = rules.corruption_bonus(level, wounds)
    for slot in set(rules.LEVELS) - wounds:
        covered = rules.corruption_bonus(level, wounds | {slot})
        assert covered.dice <= base.dice and covered.hits <= base.hits
        assert covered.defense <= base.defense and covered.choice <= base.choice


@given(slot_sets, st.integers(min_value=1, max_value=6))
def test_a_higher_level_never_gives_less(wounds, level):
    low, high = rules.corruption_bonus(level, wounds), rules.corruption_bonus(level + 1, wounds)
    assert (high.dice, high.defense, high.hits, high.choice) >= (low.dice, low.defense, low.hits, low.choice)
    assert high.dice >= low.dice and high.defense >= low.defense and high.hits >= low.hits


@given(slot_sets, st.integers(min_value=1, max_value=7))
def test_wound_then_heal_is_back_where_it_started(wounds, slot):
    if slot in wounds:
        return
    placed = rules.place_wound(tuple(sorted(wounds)), slot)
    if not placed.killed:
        assert rules.heal(placed.wound_slots, slot) == tuple(sorted(wounds))


@pytest.mark.parametrize("slots, field", [
    pytest.param([1, 1], "wound_slots.1", id="repeated"),
    pytest.param([0], "wound_slots.0", id="zero"),
    pytest.param([8], "wound_slots.0", id="eight"),
    pytest.param([1, 2, 3, 4, 5], "wound_slots", id="five-kills"),
    pytest.param("1,3", "wound_slots", id="a-string"),
    pytest.param([1.5], "wound_slots.0", id="a-fraction"),
    pytest.param([None], "wound_slots.0", id="null"),
    pytest.param([[1]], "wound_slots.0", id="nested"),
])
def test_bad_wound_slot_lists(slots, field):
    with pytest.raises(Invalid) as err:
        rules.check_wound_slots(slots)
    assert field in err.value.as_dict()


def test_good_wound_slot_list_is_sorted():
    assert rules.check_wound_slots([3, 1]) == (1, 3)
    assert rules.check_wound_slots(None) == ()


# -- the Hero Number ("Choose Heroes") ----------------------------------------------------------------

@pytest.mark.parametrize("hero_players, number, each", [
    pytest.param(1, 3, 3, id="one-hero-player-three-heroes"),
    pytest.param(2, 4, 2, id="two-hero-players-two-each"),
    pytest.param(3, 3, 1, id="three-hero-players-one-each"),
    pytest.param(4, 4, 1, id="four-hero-players-one-each"),
])
def test_hero_number(hero_players, number, each):
    assert rules.hero_number(hero_players) == number
    assert rules.heroes_per_player(hero_players) == each
    assert each * hero_players == number


@pytest.mark.parametrize("hero_players", [0, 5])
def test_hero_number_needs_1_to_4_hero_players(hero_players):
    with pytest.raises(Invalid):
        rules.hero_number(hero_players)


def test_dark_past_cards_for_the_starting_heroes():
    assert rules.starting_dark_past(3) == (1, 3, 5)
    assert rules.starting_dark_past(4) == (1, 3, 5, 6)


def test_the_team_is_one_leader_two_snipers_two_bruisers_two_fixers():
    assert sorted(rules.TEAM) == sorted(["leader", "sniper", "sniper", "bruiser", "bruiser", "fixer", "fixer"])
    assert rules.BASE_COLOURS == {"leader": "yellow", "sniper": "blue", "bruiser": "red", "fixer": "green"}


# -- dice and fights ----------------------------------------------------------------------------------

def test_fight_example_rose_dice():
    # Rose: Fight 2, Ice Blade +1 die, Thorley in the space +1, Corruption 2 -> 3 (+1 die and +1 defense).
    bonus = rules.voluntary_corruption(2).bonus
    assert rules.hero_dice(2, teammates=1, extra=1, bonus=bonus) == 5
    # An Acolyte (2 dice) and an Abomination (3 dice) with a Pentagram in the space.
    assert rules.sin_dice(2 + 3, pentagrams=1) == 6


def test_fight_example_rose_outcome():
    # Sins: 4 Hits and 1 Corruption. Rose: 4 Hits and a FAITH made into a Counter-Corruption.
    # Defense: base 1, Ice Blade +1, Corruption +1 = 3: one Hit gets through.
    bonus = rules.voluntary_corruption(2).bonus
    out = rules.resolve_fight(HeroRoll(hits=4, faith=1, flex_counter=1), SinRoll(hits=4, corruption=1),
                              base_defense=1, extra_defense=1, bonus=bonus)
    assert (out.wounds, out.corruption, out.hits, out.defense) == (1, 0, 4, 3)
    assert out.cancelled_hits == 3 and out.cancelled_corruption == 1 and out.unused_flex == 0


def test_ranged_fight_example_rocco():
    # Rocco rolls a Hit and a Defense, Killshot adds 2 Hits; the survivors roll 3 Hits and 1 Corruption
    # against base Defense 2 plus the rolled Defense.
    out = rules.resolve_fight(HeroRoll(hits=1, defense=1), SinRoll(hits=3, corruption=1), base_defense=2,
                              extra_hits=2)
    assert (out.hits, out.wounds, out.corruption) == (3, 0, 1)


def test_commissioner_adds_a_die():
    assert rules.hero_dice(2, commissioner=True) == 3


def test_level_7_choice_can_be_any_result():
    bonus = Bonus(choice=1)
    out = rules.resolve_fight(HeroRoll(flex_defense=1), SinRoll(hits=1), bonus=bonus)
    assert out.wounds == 0
    assert rules.resolve_crisis(HeroRoll(skill=1, flex_skill=1), bonus) == 2


def test_more_faith_assigned_than_rolled_is_refused():
    with pytest.raises(Invalid) as err:
        rules.resolve_fight(HeroRoll(faith=1, flex_hits=1, flex_defense=1), SinRoll())
    assert "flex_hits" in err.value.as_dict()


def test_crisis_counts_skill_results():
    assert rules.resolve_crisis(HeroRoll(skill=2, hits=3, faith=1, flex_skill=1)) == 3


@given(st.integers(0, 10), st.integers(0, 10), st.integers(0, 10), st.integers(0, 10), st.integers(0, 5))
def test_fight_wounds_are_what_defense_leaves(sin_hits, sin_corr, defense, counter, base):
    out = rules.resolve_fight(HeroRoll(defense=defense, counter=counter), SinRoll(sin_hits, sin_corr),
                              base_defense=base)
    assert out.wounds == max(0, sin_hits - defense - base)
    assert out.wounds + out.cancelled_hits == sin_hits
    assert out.corruption + out.cancelled_corruption == sin_corr
    more = rules.resolve_fight(HeroRoll(defense=defense + 1, counter=counter), SinRoll(sin_hits, sin_corr),
                               base_defense=base)
    assert more.wounds <= out.wounds
