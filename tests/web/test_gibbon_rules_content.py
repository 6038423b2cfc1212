"""Sinful Gibbon's rules reference: every section renders, links between sections resolve, the terms
the game's pages use are explained, and the rules questions point at real sections."""
from __future__ import annotations

import pathlib
import re

import pytest
import yaml

from companion.rules import content

SECTIONS = content.sections("gibbon")
QUESTIONS = pathlib.Path(__file__).resolve().parents[1] / "rules_questions" / "gibbon.yaml"


def test_the_reference_covers_the_rulebook():
    wanted = {"overview", "requirements", "startup", "cards", "pick-play-promise", "heartful-promise", "doubting",
              "heartless-monkey-hat", "braveheart", "deck-runs-out", "after-the-round", "sins", "pride", "sloth",
              "lust", "envy", "wrath", "gluttony", "jealousy", "special-cases", "counting-table", "seat-swap",
              "game-end", "app-bookkeeping"}
    assert wanted <= set(SECTIONS)


@pytest.mark.parametrize("slug", sorted(SECTIONS))
def test_every_section_renders_and_links_only_to_real_sections(client, slug):
    resp = client.get(f"/rules/gibbon/{slug}")
    assert resp.status_code == 200
    sec = SECTIONS[slug]
    assert sec.source.startswith("Sinful Gibbon v4.0")
    for target in re.findall(r"\]\(([^)]+)\)", sec.body):
        assert target in SECTIONS, f"{slug} links to a missing section {target}"
    for rel in sec.related:
        assert rel in SECTIONS


@pytest.mark.parametrize("name", ["Pride", "Sloth", "Lust", "Envy", "Wrath", "Gluttony", "Jealousy", "Dealer",
                                  "Bookkeeper", "Hell", "Braveheart", "Heartless Monkey Hat"])
def test_terms_on_the_game_pages_are_explained(name):
    assert content.find_term("gibbon", name) is not None


def test_the_readings_are_stated_and_the_rulebooks_own_rule_is_not_called_one():
    text = SECTIONS["special-cases"].body
    stated, _sep, open_points = text.partition("Two points the rulebook leaves open")
    assert "The rulebook: when no pile has a face-down card, nobody gets Gluttony." in stated
    assert "Gluttony" not in open_points.split("At the seat swap")[0].replace("for Gluttony", "")
    assert "Our reading: when nobody doubted wrongly, nobody gets Wrath." in open_points
    assert "Our reading: the Braveheart's own accepted hearts still count" in open_points


def test_the_rules_questions_point_at_real_sections():
    questions = yaml.safe_load(QUESTIONS.read_text(encoding="utf-8"))
    assert len(questions) >= 15
    for item in questions:
        assert item["q"].strip() and item["expect"] in SECTIONS
