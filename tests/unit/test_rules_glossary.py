"""Each game's glossary (companion/rules/glossary/<game>.yaml) ties the French screens and the French
rules to the same words, and each French section is a twin of its English section."""
from __future__ import annotations

import pathlib
import re

import pytest

from companion.rules import content
from companion.rules.analysis import fold

GAMES = pathlib.Path(content.__file__).resolve().parent.parent / "games"


def _flat(text: str) -> str:
    return fold(text).replace("’", "'")


def _catalog(game: str) -> dict[str, str]:
    po = (GAMES / game / "translations" / "fr" / "LC_MESSAGES" / "messages.po").read_text(encoding="utf-8")
    return dict(re.findall(r'\nmsgid "(.*?)"\nmsgstr "(.*?)"', po))


def _words(game: str, lang: str) -> str:
    secs = content.library().data[(game, lang)].values()
    return _flat(" ".join(f"{s.title} {s.summary} {' '.join(s.terms)} {s.text}" for s in secs))


@pytest.mark.parametrize("game", content.GAME_KEYS)
def test_every_glossary_term_is_used_by_the_rules_in_both_languages(game):
    glossary = content.glossary(game)
    assert len(glossary.terms) >= 10
    english, french = _words(game, "en"), _words(game, "fr")
    assert [en for en, _ in glossary.terms if _flat(en) not in english] == []
    assert [fr for _, fr in glossary.terms if _flat(fr) not in french] == []


# A game whose French screens still differ from its glossary (strict xfail): none since Gibbon's
# "Gourmandise" became the French 7 Sins rulebook's "Gloutonnerie" (issue 28).
SCREENS_PENDING: set[str] = set()


@pytest.mark.parametrize("game", [pytest.param(g, marks=pytest.mark.xfail(strict=True, reason="catalog pending"))
                                  if g in SCREENS_PENDING else g for g in content.GAME_KEYS])
def test_the_screens_use_the_glossary_words(game):
    catalog = _catalog(game)
    differ = [(en, catalog[en], fr) for en, fr in content.glossary(game).terms
              if catalog.get(en) and _flat(catalog[en]) != _flat(fr)]
    assert differ == []


@pytest.mark.parametrize("game", content.GAME_KEYS)
def test_every_english_section_has_a_french_twin_with_the_same_links(game):
    lib = content.library()
    english, french = lib.data[(game, "en")], lib.data[(game, "fr")]
    assert sorted(english) == sorted(french)
    for slug, sec in french.items():
        assert sec.related == english[slug].related, slug
        assert sec.order == english[slug].order, slug


@pytest.mark.parametrize("game", [g for g in content.GAME_KEYS if not content.glossary(g).french_rulebook])
def test_a_translated_section_cites_the_same_rulebook_section_as_its_english_twin(game):
    lib = content.library()
    english = lib.data[(game, "en")]
    assert [s for s, sec in lib.data[(game, "fr")].items() if sec.source != english[s].source] == []


def test_only_the_sins_has_a_french_rulebook():
    assert [g for g in content.GAME_KEYS if content.glossary(g).french_rulebook] == ["sins"]


def test_glossary_lookup_ignores_case():
    assert content.glossary("fivesails").french("renown") == "Renommée"
    assert content.glossary("fivesails").french("nothing like it") is None
    assert content.glossary("chess").terms == ()


def test_every_concept_names_a_section_that_exists_in_its_language():
    from companion.rules.search import read_concepts

    lib = content.library()
    concepts = read_concepts()
    assert concepts
    unknown = [key for key in concepts if key[2] not in lib.data.get((key[0], key[1]), {})]
    assert unknown == []
    assert all(phrases for phrases in concepts.values())


def test_a_concept_is_read_as_a_keyword_of_its_section():
    """A situation written only in concepts/ (not in the section) finds its section."""
    from companion.rules.search import Index, read_concepts

    assert "nothing left to draw" not in " ".join(content.section("gibbon", "deck-runs-out").keywords)
    assert ("gibbon", "en", "deck-runs-out") in read_concepts()
    index = Index.of(content.library().all_sections())
    assert index.search("nothing left to draw", ["gibbon"]).hits[0].slug == "deck-runs-out"
