"""The question set: players' questions about the real references, each with the section that must
come up in the top 3 when searching its game. One file per game, written by the game's helper:

    tests/rules_questions/<game>.yaml     - q: "how many stones with 4 players?"
                                            expect: setup-stones
                                            lang: fr        # optional (7 - The Sins has French)

At least 15 questions per game and 60 in all; the top-3 hit rate over all of them must be at least
95%. A game whose file is not there yet is skipped (and says so), so the suite runs before the
games' references are merged; the misses are printed to tune the synonyms and keywords.
"""
from __future__ import annotations

import pathlib

import pytest
import yaml

from companion.rules import content
from companion.rules.search import Index, Synonyms

QUESTIONS = pathlib.Path(__file__).resolve().parent.parent / "rules_questions"
PER_GAME = 15
IN_ALL = 60
HIT_RATE = 0.95


def _load(game: str) -> list[dict] | None:
    path = QUESTIONS / f"{game}.yaml"
    if not path.exists():
        return None
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or []
    assert isinstance(data, list), f"{path.name}: a list of {{q, expect, lang?}}"
    for item in data:
        assert isinstance(item, dict) and {"q", "expect"} <= set(item) <= {"q", "expect", "lang"}, \
            f"{path.name}: each question is {{q, expect, lang?}}, not {item!r}"
        assert item.get("lang", "en") in content.LANGS, f"{path.name}: unknown lang in {item!r}"
    return data


QUESTION_SETS = {game: _load(game) for game in content.GAME_KEYS}
MISSING = [game for game, qs in QUESTION_SETS.items() if qs is None]


def _not_yet(game: str) -> str:
    return (f"tests/rules_questions/{game}.yaml is not there yet: the {game} content helper writes it "
            f"with the game's reference; run again once it is merged")


@pytest.fixture(scope="module")
def index():
    return Index(content.library().all_sections(), Synonyms.read())


@pytest.mark.parametrize("game", content.GAME_KEYS)
def test_each_game_has_enough_questions_about_sections_that_exist(game):
    questions = QUESTION_SETS[game]
    if questions is None:
        pytest.skip(_not_yet(game))
    assert len(questions) >= PER_GAME, f"{game}: {len(questions)} questions, want at least {PER_GAME}"
    slugs = content.library().sections(game)
    unknown = sorted({q["expect"] for q in questions} - set(slugs))
    assert not unknown, f"{game}: questions expect sections that do not exist: {unknown}"


def test_there_are_enough_questions_in_all():
    if MISSING:
        pytest.skip("; ".join(_not_yet(g) for g in MISSING))
    total = sum(len(qs) for qs in QUESTION_SETS.values())
    assert total >= IN_ALL, f"{total} questions in all, want at least {IN_ALL}"


def test_top_3_hit_rate(index):
    present = {g: qs for g, qs in QUESTION_SETS.items() if qs}
    if not present:
        pytest.skip("; ".join(_not_yet(g) for g in MISSING))
    asked = hits = 0
    misses = []
    for game, questions in present.items():
        for item in questions:
            result = index.search(str(item["q"]), [game], item.get("lang", "en"))
            top = [h.slug for h in result.hits[:3]]
            asked += 1
            if item["expect"] in top:
                hits += 1
            else:
                misses.append(f"  {game}: {item['q']!r} expects {item['expect']}, got {top}")
    rate = hits / asked
    report = f"top-3 hit rate {rate:.1%} ({hits}/{asked}) over {', '.join(present)}"
    print(report)
    if misses:
        print("misses:\n" + "\n".join(misses))
    assert rate >= HIT_RATE, report + "\nmisses:\n" + "\n".join(misses)
