"""Every reading of an ambiguous rule the app states is in the rules pages in the same words."""
from __future__ import annotations

from pathlib import Path

import pytest

from companion.games.others.readings import READINGS

CONTENT = Path(__file__).resolve().parents[2] / "companion" / "rules" / "content" / "others"


def flat(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize("key", sorted(READINGS))
def test_the_reading_is_in_its_rules_section_word_for_word(key):
    slug, sentence = READINGS[key]
    assert flat(sentence) in flat((CONTENT / f"{slug}.md").read_text(encoding="utf-8"))


def test_the_rocco_example_has_the_acolyte_already_there():
    text = flat((CONTENT / "ranged-fight.md").read_text(encoding="utf-8"))
    assert "the Acolyte that was already there" in text and "comes over with an Acolyte" not in text


def test_the_reset_reading_names_the_marked_tokens():
    assert "Marked tokens" in READINGS["reset"][1]
