"""City of Five Sails deck check: the deck-building rules against pasted lists."""
from __future__ import annotations

import pytest

from companion.domain import Invalid
from companion.games.fivesails import decks

CHARACTERS = ["Sanjay", "Maya de La Rioja", "\"Padre\" Aníbal", "Makepeace Botwighte", "\"Madre\" Dolores"]
SCHEMES = ["Shifting Blame", "Marooned*", "The Cat's Embargo", "Parley Gone Wrong*", "Midnight Shipment*"]
FACTION = [f"Card {i} x2" for i in range(19)] + ["Throwing Knife x1*", "The Cat's Glass (Unique)"]


def deck_text(leader="Leader: Soline el Gato", characters=CHARACTERS, schemes=SCHEMES, faction=FACTION):
    return "\n".join([leader, "Characters:", *characters, "Schemes:", *schemes, "Faction:", *faction])


def messages(text):
    return [f.message % f.params if f.params else f.message for f in decks.check(decks.parse(text))]


def test_a_legal_deck_has_no_findings():
    deck = decks.parse(deck_text())
    assert deck.faction_total == 40 and deck.approach_total == 10
    assert decks.check(deck) == []


@pytest.mark.parametrize("kwargs, expected", [
    pytest.param({"leader": ""}, "No Leader", id="no-leader"),
    pytest.param({"characters": CHARACTERS[:4]}, "characters: it needs exactly 5", id="four-characters"),
    pytest.param({"schemes": SCHEMES + ["Let's Haggle"]}, "schemes: it needs exactly 5", id="six-schemes"),
    pytest.param({"characters": CHARACTERS[:4] + ["Sanjay"]}, "more than once", id="duplicate-character"),
    pytest.param({"faction": FACTION[:-1]}, "at least 40", id="39-cards"),
    pytest.param({"faction": FACTION[:-2] + ["Throwing Knife x3"]}, "at most 2 by name", id="three-copies"),
    pytest.param({"faction": FACTION[:-1] + ["The Cat's Glass x2 (Unique)"]}, "one copy only", id="two-uniques"),
    pytest.param({"faction": FACTION + ["card 0"]}, "at most 2 by name", id="names-match-whatever-the-case"),
])
def test_deck_building_violations(kwargs, expected):
    assert any(expected in m for m in messages(deck_text(**kwargs)))


def test_counts_before_or_after_the_name():
    deck = decks.parse("Faction:\n2x Taunt\nTaunt x1\n3 Boon")
    assert [(n, c) for n, c, _u in deck.faction] == [("Taunt", 2), ("Taunt", 1), ("Boon", 3)]


def test_the_rulebooks_mixed_approach_list_checks_the_total():
    text = "Leader: Kaspar\nApproach:\n" + "\n".join(CHARACTERS + SCHEMES[:4]) + "\nRisk:\n" + "\n".join(FACTION)
    assert any("Approach deck has 9 cards" in m for m in messages(text))


def test_lines_before_any_heading_are_reported():
    assert any("before any heading" in m for m in messages("Soline\n" + deck_text()))


@pytest.mark.parametrize("text", [
    pytest.param("", id="empty"),
    pytest.param("x" * 6001, id="too-long"),
    pytest.param("a\n" * 201, id="too-many-lines"),
])
def test_unusable_input_is_refused(text):
    with pytest.raises(Invalid):
        decks.parse(text)
