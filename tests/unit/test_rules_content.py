"""The rules content format: front matter, Markdown rendering, anchors, languages, terms, consistency."""
from __future__ import annotations

import pathlib

import pytest

from companion.rules import content
from companion.rules.content import ContentError, Library

FIXTURE = pathlib.Path(__file__).resolve().parent.parent / "rules_fixture" / "content"


def write(root: pathlib.Path, rel: str, meta: str, body: str = "Some words.") -> pathlib.Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"---\n{meta}\n---\n{body}\n", encoding="utf-8")
    return path


META = "title: A title\nsource: Rulebook p. 1\nsummary: One sentence.\ngroup: Setup\norder: 1"


@pytest.fixture
def lib():
    return Library.read(FIXTURE)


def test_the_package_content_loads_and_is_consistent():
    """The real references (written by the game helpers) parse and link only to sections that exist."""
    library = content.library()
    assert library.problems() == []
    for sec in library.all_sections():
        assert sec.game in content.GAME_KEYS and sec.title and sec.source and sec.summary


def test_fixture_content_is_consistent(lib):
    assert lib.problems() == []


@pytest.mark.parametrize("meta, message", [
    pytest.param("title: x\nsource: y\nsummary: z\ngroup: g", "lacks order", id="missing-order"),
    pytest.param("title: [unclosed", "not valid YAML", id="bad-yaml"),
    pytest.param("- a list", "must be a mapping", id="not-a-mapping"),
    pytest.param(META + "\nterms: Lethal", "terms must be a list", id="terms-not-a-list"),
])
def test_bad_front_matter_is_refused_with_the_file_named(tmp_path, meta, message):
    path = write(tmp_path, "sins/bad.md", meta)
    with pytest.raises(ContentError, match=message) as err:
        content.parse(path, "sins", "en")
    assert "bad.md" in str(err.value)


def test_a_file_without_front_matter_is_refused(tmp_path):
    path = tmp_path / "sins" / "plain.md"
    path.parent.mkdir(parents=True)
    path.write_text("Just text.\n", encoding="utf-8")
    with pytest.raises(ContentError, match="no front matter"):
        content.parse(path, "sins", "en")


@pytest.mark.parametrize("name", ["Setup.md", "setup_stones.md", "-setup.md", "setup--stones.md"])
def test_a_slug_must_be_lowercase_hyphenated(tmp_path, name):
    with pytest.raises(ContentError, match="slug"):
        content.parse(write(tmp_path, f"sins/{name}", META), "sins", "en")


def test_headings_get_stable_anchors_and_start_at_h2(tmp_path):
    body = "Intro.\n\n# Who wins\n\nText.\n\n## Ties, then more ties\n\nMore.\n\n# Who wins\n\nAgain."
    sec = content.parse(write(tmp_path, "sins/x.md", META, body), "sins", "en")
    assert '<h2 id="h-who-wins">Who wins</h2>' in sec.html
    assert '<h3 id="h-ties-then-more-ties">' in sec.html
    assert '<h2 id="h-who-wins-2">' in sec.html
    assert [b.anchor for b in sec.blocks] == [None, "h-who-wins", "h-ties-then-more-ties", "h-who-wins-2"]
    assert sec.blocks[1].heading == "Who wins" and sec.blocks[1].text == "Text."


def test_accented_headings_get_ascii_anchors(tmp_path):
    sec = content.parse(write(tmp_path, "sins/fr/x.md", META, "## Égalité à la fin\n\nTexte."), "sins", "fr")
    assert 'id="h-egalite-a-la-fin"' in sec.html


def test_html_in_content_is_shown_as_text(tmp_path):
    sec = content.parse(write(tmp_path, "sins/x.md", META, "Beware <script>alert(1)</script> & <b>bold</b>."),
                        "sins", "en")
    assert "<script>" not in sec.html and "&lt;script&gt;" in sec.html
    assert "<b>" not in sec.html


def test_tables_scroll_in_their_own_box_and_read_as_words(tmp_path):
    body = "| Players | Stones |\n| --- | --- |\n| 2 | 4 |\n| 3 | 6 |"
    sec = content.parse(write(tmp_path, "sins/x.md", META, body), "sins", "en")
    assert '<div class="table-scroll" tabindex="0"><table>' in sec.html and "</table></div>" in sec.html
    assert sec.blocks[0].text == "Players – Stones · 2 – 4 · 3 – 6 ·"


def test_plain_text_drops_markdown_syntax(tmp_path):
    sec = content.parse(write(tmp_path, "sins/x.md", META, "Take **all** the `cards` of [one sin](scoring)."),
                        "sins", "en")
    assert sec.text == "Take all the cards of one sin."


def test_sections_are_in_reading_order(lib):
    assert list(lib.sections("sins"))[:3] == ["overview", "setup-stones", "turn"]


def test_french_falls_back_to_english_where_no_translation_exists(lib):
    fr = lib.sections("sins", "fr")
    assert fr["setup-stones"].lang == "fr" and fr["setup-stones"].title.startswith("Les Pierres")
    assert fr["turn"].lang == "en"
    assert list(fr) == list(lib.sections("sins"))
    assert lib.languages("sins") == ("en", "fr") and lib.languages("gibbon") == ("en",)
    assert lib.translated("sins", "abyss", "fr") and not lib.translated("sins", "turn", "fr")


@pytest.mark.parametrize("game, term, lang, slug, shown_lang", [
    pytest.param("fivesails", "lethal", "en", "lethal", "en", id="case-insensitive"),
    pytest.param("sins", "Stones of Forgiveness", "fr", "setup-stones", "fr", id="english-term-french-text"),
    pytest.param("sins", "Pierres de Pardon", "fr", "setup-stones", "fr", id="french-term"),
    pytest.param("sins", "Last Judgment", "fr", "last-judgment", "en", id="no-translation"),
])
def test_find_term(lib, game, term, lang, slug, shown_lang):
    sec = lib.find_term(game, term, lang)
    assert sec.slug == slug and sec.lang == shown_lang


def test_an_unknown_term_is_not_found(lib):
    assert lib.find_term("fivesails", "Flying") is None


def test_problems_name_broken_links_orphan_translations_and_double_terms(tmp_path):
    write(tmp_path, "sins/a.md", META + "\nrelated: [b, nowhere]\nterms: [Abyss]")
    write(tmp_path, "sins/b.md", META + "\nterms: [abyss]")
    write(tmp_path, "sins/fr/c.md", META)
    problems = Library.read(tmp_path).problems()
    assert "sins/a: related section 'nowhere' does not exist" in problems
    assert "sins/fr/c: translated section has no English original" in problems
    assert any("explained by both a and b" in p for p in problems)
    assert len(problems) == 3


def test_an_empty_content_folder_is_an_empty_library(tmp_path):
    lib = Library.read(tmp_path)
    assert lib.sections("sins") == {} and lib.section("sins", "x") is None and lib.problems() == []
