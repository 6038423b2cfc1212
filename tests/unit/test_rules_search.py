"""The rules search engine on small fixture content: stems, prefixes, typos, synonyms, French,
ranking, highlighting and escaping. The real references have their own question set
(test_rules_questions.py)."""
from __future__ import annotations

import pathlib
import re
from concurrent.futures import ThreadPoolExecutor

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.rules import analysis
from companion.rules.content import Library
from companion.rules.learned import Example, Learned, read_questions
from companion.rules.search import LIMIT, MAX_QUERY, Index, Synonyms, player_count
from companion.rules.ranking import players_said

FIXTURE = pathlib.Path(__file__).resolve().parent.parent / "rules_fixture"
QUESTIONS = yaml.safe_load((FIXTURE / "questions.yaml").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def index():
    return Index(Library.read(FIXTURE / "content").all_sections(), Synonyms.read())


def found(result) -> list[str]:
    return [f"{h.game}/{h.slug}" for h in result.hits]


def marked(parts) -> list[str]:
    return [text for text, hit in parts if hit]


@pytest.mark.parametrize("case", [pytest.param(c, id=c["q"]) for c in QUESTIONS])
def test_fixture_question_finds_its_section_in_the_top_3(index, case):
    game = case["expect"].split("/")[0]
    result = index.search(case["q"], None if case.get("all") else [game], case.get("lang", "en"))
    assert case["expect"] in found(result)[:3], found(result)


# -- words as the engine reads them ---------------------------------------------------------------

@pytest.mark.parametrize("text, words", [
    pytest.param("Péchés CAPITAUX", ["peches", "capitaux"], id="accents-and-case"),
    pytest.param("l'Abysse des Âmes", ["l", "abysse", "des", "ames"], id="elision"),
    pytest.param("tie-break: 7+", ["tie", "break", "7"], id="punctuation"),
    pytest.param("Cœurs, ŒUVRE", ["coeurs", "oeuvre"], id="ligatures-as-typed"),
])
def test_words_are_folded(text, words):
    assert analysis.words(text) == words


def test_stop_words_of_both_languages_are_dropped_but_digits_stay():
    assert analysis.terms("how many stones with 4 players", "en") == ["stone", "4", "player"]
    assert analysis.terms("combien de pierres à 4 joueurs", "fr") == ["pierr", "4", "joueur"]


def test_word_spans_point_into_the_original_text():
    text = "Les Péchés d'Âme"
    spans = analysis.spans(text, "fr")
    assert [text[a:b] for a, b, _ in spans] == ["Les", "Péchés", "d", "Âme"]
    assert [s for _, _, s in spans] == [None, "pech", None, "ame"]


@pytest.mark.parametrize("typed, likely, unlikely", [
    pytest.param("gmes", "gems", "goes", id="swapped-letters"),
    pytest.param("hst", "hat", "hit", id="neighbouring-key"),
    pytest.param("wound", "wounds", "would", id="missing-letter"),
])
def test_typo_cost_prefers_the_likelier_slip(typed, likely, unlikely):
    assert analysis.typo_cost(typed, likely) < analysis.typo_cost(typed, unlikely)


# -- what players type ----------------------------------------------------------------------------

def test_stems_match_other_word_forms(index):
    hits = index.search("stone", ["sins"]).hits
    assert hits[0].slug == "setup-stones"
    assert "Stones" in marked(hits[0].title)


def test_the_word_being_typed_stands_for_the_words_it_starts(index):
    assert found(index.search("heartless mon", ["gibbon"]))[0] == "gibbon/heartless-monkey-hat"
    assert found(index.search("penitenz"))[0] == "sins/penitenziagite"


def test_a_finished_word_is_not_taken_as_a_prefix(index):
    """"play " (with a space after it) is the word play, not also player; while typing it is both."""
    def marks(query):
        return {w.casefold() for h in index.search(query, ["sins"]).hits for w in marked(h.title) + marked(h.snippet)}

    assert "play" in marks("play ") and not {"player", "players"} & marks("play ")
    assert {"player", "players"} & marks("play")


def test_an_unknown_start_of_a_word_stands_for_the_words_it_starts(index):
    assert found(index.search("dam ", ["fivesails"]))[0] == "fivesails/wounds"


@pytest.mark.parametrize("query, expect, correction", [
    pytest.param("stoens", "sins/setup-stones", ("stoens", "stones"), id="swap"),
    pytest.param("heartles monky", "gibbon/heartless-monkey-hat", ("monky", "monkey"), id="two-typos"),
    pytest.param("restricted hostilties", "fivesails/restricted-hostilities", ("hostilties", "hostilities"), id="long"),
    pytest.param("gmes", "sins/setup-stones", ("gmes", "gems"), id="typo-then-synonym"),
])
def test_small_typos_are_corrected_and_reported(index, query, expect, correction):
    result = index.search(query)
    assert found(result)[0] == expect
    assert result.corrections[correction[0]] == correction[1]


def test_a_short_unknown_word_is_not_guessed(index):
    """Three letters are too few to guess a typo from: "xyz" finds nothing rather than anything."""
    assert index.search("xyz ").hits == ()
    assert index.search("xyz ").corrections == {}


def test_a_word_of_the_other_language_is_not_corrected(index):
    """"pierres" is French: the English side does not bend it into some English word."""
    result = index.search("pierres", ["sins"], "en")
    assert result.corrections == {}
    assert result.hits[0].lang == "fr"


@pytest.mark.parametrize("query, game, expect, marks", [
    pytest.param("gems", "sins", "setup-stones", {"Stones", "Forgiveness"}, id="gems"),
    pytest.param("damage", "fivesails", "wounds", {"wound", "Wounds", "damage"}, id="damage-is-wounds"),
    pytest.param("hat", "gibbon", "heartless-monkey-hat", {"Heartless", "Monkey", "Hat"}, id="hat"),
    pytest.param("first player", "others", "first-hero", {"first", "hero"}, id="first-hero"),
    pytest.param("pride cards", "sins", None, set(), id="latin-sin-names"),
])
def test_synonyms_find_the_rules_words_and_highlight_them(index, query, game, expect, marks):
    hits = index.search(query, [game]).hits
    if expect is None:
        return  # the fixture has no Superbia section: the synonym must not break anything
    assert hits[0].slug == expect
    shown = set(marked(hits[0].title)) | set(marked(hits[0].snippet))
    assert marks & shown


def test_french_questions_find_the_french_sections(index):
    hit = index.search("combien de pierres à 4 joueurs ?", ["sins"], "fr").hits[0]
    assert (hit.slug, hit.lang) == ("setup-stones", "fr")
    assert hit.title_text == "Les Pierres de Pardon à la mise en place"
    assert {"pierres", "joueurs", "4"} <= {w.casefold() for w in marked(hit.snippet)}


def test_accents_are_optional(index):
    assert found(index.search("peches", ["sins"], "fr")) == found(index.search("péchés", ["sins"], "fr"))
    assert found(index.search("egalite", ["sins"], "fr"))[0] == "sins/scoring"


def test_a_french_question_on_an_english_page_shows_the_french_text(index):
    hit = index.search("combien de pierres", ["sins"], "en").hits[0]
    assert hit.lang == "fr" and hit.title_text.startswith("Les Pierres")


def test_a_french_readers_french_question_lists_french_pages_though_it_says_an_english_term(index):
    """"stones" is English, but the question and its reader are French: the pages listed are the
    French ones, not the English versions that say "stones" (issue 28: one French query listed an
    English page)."""
    hits = index.search("on met les stones dans l'abysse", ["sins"], "fr").hits[:2]
    assert [(h.slug, h.lang) for h in hits] == [("setup-stones", "fr"), ("abyss", "fr")]


def test_an_elision_typed_without_its_apostrophe_is_read_as_one(index):
    """Players type "labysse" for "l'abysse" and "dabysse" for "d'abysse": the elided letter is split
    off when the rest is a French word; a word that is known, or whose rest is not French, stays."""
    assert index.unelided("des cartes dans labysse ou dabysse") == "des cartes dans abysse ou abysse"
    assert index.unelided("the lover") == "the lover"
    assert found(index.search("on met les stones dans labysse", ["sins"], "fr")) == \
        found(index.search("on met les stones dans l'abysse", ["sins"], "fr"))


@pytest.mark.parametrize("chat", ["jsp", "pk", "ya", "jai", "tho", "idk", "im"])
def test_chat_words_are_dropped_like_stop_words(index, chat):
    """"jsp" (je sais pas), "pk" (pourquoi), "tho": they say nothing about which rule is meant, so a
    question reads the same with them as without."""
    assert analysis.is_stop(chat)
    assert found(index.search(f"{chat} combien de pierres a 4 joueurs", ["sins"], "fr")) == \
        found(index.search("combien de pierres a 4 joueurs", ["sins"], "fr"))


def test_an_english_reader_sees_english_when_both_match(index):
    hit = index.search("abyss", ["sins"], "en").hits[0]
    assert (hit.slug, hit.lang) == ("abyss", "en")
    hit = index.search("abyss", ["sins"], "fr").hits[0]
    assert (hit.slug, hit.lang) == ("abyss", "fr")


# -- ranking --------------------------------------------------------------------------------------

def test_a_title_match_ranks_above_a_passing_mention(index):
    assert found(index.search("lethal", ["fivesails"]))[0] == "fivesails/lethal"
    assert found(index.search("last judgment", ["sins"]))[0] == "sins/last-judgment"


def test_a_section_answering_every_word_ranks_first(index):
    """"stones" alone is everywhere in 7 - The Sins; with "4 players" the setup table wins."""
    assert found(index.search("stones 4 players", ["sins"]))[0] == "sins/setup-stones"
    assert found(index.search("stone count sin", ["sins"]))[0] == "sins/scoring"


def test_results_are_limited_and_scored_best_first(index):
    hits = index.search("the card of a player").hits
    assert 0 < len(hits) <= LIMIT
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
    assert len(index.search("card", limit=3).hits) == 3


def test_a_game_filter_keeps_other_games_out(index):
    assert {h.game for h in index.search("wounds", ["others"]).hits} == {"others"}
    assert {h.game for h in index.search("wounds").hits} == {"others", "fivesails"}


@pytest.mark.parametrize("question, players", [
    ("how many cards each with 7 ppl", 7), ("we are 3, how many cards", 3), ("we're 6 who deals", 6),
    ("setup for 4p", 4), ("three player game", 3), ("just 2 of us", 2),
    ("combien de cartes a 4 joueurs", 4), ("on est 6", 6), ("nous sommes sept", 7), ("partie a 5j", 5),
    ("on est a 6 combien de cartes", 6), ("on joue a 4 ce soir", 4), ("une pile a 4 cartes", None),
    ("what is 7 sins", None), ("points for 3 of a kind", None), ("my hero took a 5th wound", None),
])
def test_the_number_of_players_a_question_says(question, players):
    assert player_count(analysis.words(analysis.drop_idioms(analysis.fold(question)))) == players


@pytest.mark.parametrize("question, lang, players", [
    ("combien de pierre de pardon a 2", "fr", 2), ("combien de péchés à deux", "fr", 2),
    ("a 3 on prend combien de cartes", "fr", 3), ("les cartes pour 5", "fr", 5),
    ("il a 2 coeurs en main", "fr", None), ("j'ai 4 paresse", "fr", None),
    ("last card was called a 9, can i call a 7", "en", None), ("can i play a 7", "en", None),
])
def test_a_french_count_said_alone_after_a_or_pour_is_how_many_play(question, lang, players):
    """Issue 36: French tables say a player count alone ("pierres a 2"); English "a 7" is a card."""
    assert player_count(analysis.words(analysis.drop_idioms(analysis.fold(question))), lang) == players


@pytest.mark.parametrize("question, lang, said", [
    ("combien de pierres a 2", "fr", "combien de pierres a 2 joueurs"),
    ("on est cinq", "fr", "on est cinq joueurs"),
    ("we're 3 how many stones", "en", "we're 3 how many stones players"),
    ("combien de cartes a 4 joueurs", "fr", "combien de cartes a 4 joueurs"),
    ("il a 2 coeurs", "fr", "il a 2 coeurs"),
])
def test_a_count_without_the_word_players_is_read_with_it(question, lang, said):
    """Issue 36: "combien de pierre de pardon a 2" is about the setup for two players, so the question is
    read with the players' word in its language, and the sections set out by player count answer it."""
    assert players_said(analysis.fold(question), lang) == analysis.fold(said)


def test_a_count_typed_as_a_word_also_searches_its_digits():
    """Issue 36: "on est cinq" reads the "5" the rules print (synonyms.yaml, all/fr)."""
    pairs = dict(Synonyms.read().entries("sins", "fr"))
    assert pairs[("cinq",)] == [("5",)] and pairs[("deux",)] == [("2",)]
    assert pairs[("token",)] == [("jeton",)]


def test_across_games_a_player_count_a_rulebook_does_not_allow_leaves_that_game_out():
    def index_of(counts):
        return Index(Library.read(FIXTURE / "content").all_sections(), Synonyms.read(), player_counts=counts)

    unlimited = index_of({})
    # The fixture's Five Sails, made a game for two only for this test.
    index = index_of({"fivesails": (2, 2), "others": (2, 5), "sins": (2, 5), "gibbon": (3, 7)})
    assert found(unlimited.search("wounds with 3 players"))[0] == "fivesails/wounds"
    ranked = found(index.search("wounds with 3 players"))
    assert not ranked[0].startswith("fivesails/")
    assert ranked.index("others/taking-wounds") < ranked.index("fivesails/wounds")
    # A count every game allows, and a search within one game, change nothing.
    for query, games in (("wounds with 2 players", None), ("wounds with 3 players", ["fivesails"])):
        assert found(index.search(query, games)) == found(unlimited.search(query, games))
    # A question that names the game asks whether that many can play it: the game stays.
    def named(counts):
        return Index(Library.read(FIXTURE / "content").all_sections(), Synonyms.read(),
                     game_names={"fivesails": [("five", "sails")]}, player_counts=counts).search(
            "five sails wounds with 3 players").hits[0]
    assert named({"fivesails": (2, 2)}) == named({})


def test_the_app_reads_player_counts_against_each_game_s_own_range():
    from companion.rules import _index, content, player_counts
    assert _index(content.CONTENT).player_counts == player_counts() == {
        "sins": (2, 5), "gibbon": (3, 7), "fivesails": (2, 4), "others": (2, 5)}


@pytest.mark.parametrize("query", ["", "   ", "the of and", "?!", "le la les"])
def test_a_query_without_meaningful_words_finds_nothing(index, query):
    assert index.search(query).hits == ()


def test_a_very_long_query_is_cut_not_refused(index):
    result = index.search("stones " * 100)
    assert len(result.query) == MAX_QUERY and result.hits


# -- what a hit shows -----------------------------------------------------------------------------

def test_the_snippet_comes_from_the_part_that_matched_and_names_its_heading(index):
    hit = index.search("parry more than my threat", ["fivesails"]).hits[0]
    assert hit.slug == "duel-round" and hit.anchor == "h-parry-and-threat"
    assert hit.snippet_text.startswith("Parry can never take your pool below zero")


def test_a_long_passage_is_cut_around_the_match(index):
    hit = index.search("stone spare", ["sins"]).hits[0]
    assert hit.slug == "scoring"
    assert hit.snippet_text.startswith("… ") or hit.snippet_text.endswith(" …")
    assert len(hit.snippet_text.split()) <= 26


def test_stop_words_are_not_highlighted(index):
    hit = index.search("stones of forgiveness", ["sins"]).hits[0]
    assert "of" not in marked(hit.title) and {"Stones", "Forgiveness"} <= set(marked(hit.title))


def test_a_match_only_in_keywords_shows_the_summary(index):
    hit = index.search("objective", ["sins"]).hits[0]
    assert hit.slug == "overview" and hit.snippet_text.startswith("You collect sin cards")


def test_content_markup_is_escaped_in_the_snippet(index):
    hit = index.search("script escaping", ["others"]).hits[0]
    html = str(hit.snippet_html)
    assert "<script>" not in html and "&lt;<mark>script</mark>&gt;" in html and "&amp;" in html


@pytest.mark.parametrize("query", [
    '"><img src=x onerror=alert(1)>', "<mark>stones</mark>", 'stones" OR "x', "title:stones", "NEAR(stones abyss)",
    "stones*", "^stones", "stones AND NOT abyss", "(stones", "stones)", "-stones", "'; DROP TABLE docs; --",
    "\x00stones", "stones\u202e", "🎲 stones", "ｓｔｏｎｅｓ",
])
def test_query_syntax_and_markup_are_only_words(index, query):
    """Nothing typed reaches FTS5 as syntax or the page as HTML: quotes, operators, column filters."""
    result = index.search(query)
    for hit in result.hits:
        html = str(hit.snippet_html) + str(hit.title_html)
        assert re.sub(r"</?mark>", "", html).count("<") == 0


def test_full_width_letters_are_read_as_letters(index):
    assert found(index.search("ｓｔｏｎｅｓ", ["sins"]))[0] == "sins/setup-stones"


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=MAX_QUERY + 20))
def test_any_text_searches_safely(index, query):
    """Whatever is typed: no error, at most 10 hits, titles and snippets are the content's own text
    with only <mark> as markup."""
    result = index.search(query)
    assert len(result.hits) <= LIMIT
    for hit in result.hits:
        assert re.sub(r"</?mark>", "", str(hit.snippet_html) + str(hit.title_html)).count("<") == 0
        assert hit.title_text.strip()
        assert hit.snippet_text.strip(" …") in _shown_text(index, hit)


def _shown_text(index, hit) -> str:
    row = next(r for r in index.rows if (r.game, r.slug, r.lang) == (hit.game, hit.slug, hit.lang))
    return " ".join([row.summary.text] + [t.text for _, t, _ in row.blocks])


def test_every_thread_searches_its_own_copy_of_the_index(index):
    queries = ["stones", "hat", "damage", "penitenz", "pierres"] * 20
    with ThreadPoolExecutor(max_workers=8) as pool:
        results = list(pool.map(lambda q: found(index.search(q))[:1], queries))
    assert results == [found(index.search(q))[:1] for q in queries]


def test_an_empty_index_answers_nothing():
    empty = Index([], Synonyms.read())
    assert empty.search("stones").hits == () and empty.games == []


def test_a_synonym_without_words_is_refused():
    with pytest.raises(ValueError, match="no words"):
        Synonyms({"sins": {"en": {"the": ["stones"]}}})
    with pytest.raises(ValueError, match="unknown language"):
        Synonyms({"sins": {"de": {"steine": ["stones"]}}})


def _gibbon_sections(root, *sections: tuple[str, str, str, str]) -> list:
    """Sinful Gibbon sections written under `root`, each (slug, title, summary, body), in order."""
    folder = root / "gibbon"
    folder.mkdir()
    for order, (slug, title, summary, body) in enumerate(sections, start=1):
        (folder / f"{slug}.md").write_text(f"---\ntitle: {title}\nsource: Rulebook\nsummary: {summary}\n"
                                           f"group: Playing\norder: {order}\n---\n{body}\n", encoding="utf-8")
    return list(Library.read(root).all_sections())


def test_a_sentence_that_says_the_words_together_outranks_words_scattered(tmp_path):
    """Both sections have "dealer" and "counts"; the one that says them in one sentence answers."""
    sections = _gibbon_sections(
        tmp_path, ("scattered", "Scattered", "Shuffle.", "The dealer shuffles. Everyone counts."),
        ("together", "Together", "At the end.", "At the very end of the round the dealer counts every card "
                                                "left in the hands of the other players. Then the next round begins."))
    index = Index(sections, Synonyms())
    assert found(index.search("who counts, the dealer?", ["gibbon"]))[0] == "gibbon/together"


def test_a_question_that_names_its_game_searches_that_game_first():
    index = Index(Library.read(FIXTURE / "content").all_sections(), Synonyms.read(),
                  game_names={"gibbon": [("gibbon",)], "others": [("the", "others")]},
                  everyday_names=[("the", "others")])
    assert {h.game for h in index.search("gibbon card overview").hits} == {"gibbon"}
    # The named game has nothing on it: the other games answer.
    assert {h.game for h in index.search("gibbon wounds").hits} >= {"fivesails", "others"}
    # "the others" is also everyday English: it weighs The Others up but keeps the other games in.
    assert "fivesails" in {h.game for h in index.search("the others wounds").hits}


def test_a_name_two_games_share_names_both():
    """"7 sins" is 7 - The Sins and The Others: 7 Sins: a question that says it searches both."""
    index = Index(Library.read(FIXTURE / "content").all_sections(), Synonyms.read(),
                  game_names={"sins": [("7", "sins")], "others": [("7", "sins"), ("the", "others")]})
    named, surely, rest = index._named_games("7 sins wounds", index.games)
    assert named == surely == {"sins", "others"} and rest.split() == ["wounds"]
    assert {h.game for h in index.search("7 sins wounds").hits} == {"others"}


def test_a_count_in_a_game_name_is_read_in_words_too():
    """"sept peches" and "seven sins" name the games "7 peches" and "7 sins" name (issue 36)."""
    index = Index(Library.read(FIXTURE / "content").all_sections(), Synonyms.read(),
                  game_names={"sins": [("7", "sins"), ("7", "peches")], "others": [("7", "sins")]})
    for question in ("a cinq on joue avec les sept peches", "seven sins wounds"):
        named, _, rest = index._named_games(question, index.games)
        assert "sins" in named, question
        assert not {"sept", "seven", "peches", "sins"} & set(rest.split()), rest
    assert index._named_games("seven wounds", index.games)[0] == set()


def test_the_kind_of_question_is_one_word_in_both_languages():
    """"combien", "cmb" and "how many" ask for a count; "qui" and "who" for a person: the learned model
    counts each kind as one word shared by English and French (issue 36)."""
    from companion.rules.learned import asks, features
    assert asks("how many stones at 4") == ["?count"]
    assert asks("on met cmb de pierres") == asks("combien de pierres") == ["?count"]
    assert asks("who starts") == asks("qui commence") == ["?who"]
    assert asks("how do i score") == ["?how"]
    assert asks("on la met ou") == asks("where does it go") == ["?where"]
    assert asks("on continue ou pas") == asks("a 3 ou 4") == []
    assert asks("et si la pioche est vide") == asks("if the deck is empty") == ["?if"]
    assert asks("quelle carte") == asks("which card") == ["?which"]
    assert "?count" in features("how many stones", "en") and "stone" in features("how many stones", "en")
    model = Learned([Example("g", "setup", "en", "how many cards each"), Example("g", "first", "en", "who starts")])
    odds = model.probabilities("combien de cartes", "fr", [("g", "setup"), ("g", "first")])
    assert odds[("g", "setup")] > odds[("g", "first")]


def test_a_word_only_one_game_has_in_its_titles_weighs_that_game_up(index):
    """A word of one game's section titles and terms that no other game's content has ("duel") is
    that game's own (issue 36)."""
    own = {game for (game, _), words in index.own_words.items() if "duel" in words}
    have = {game for (game, _), stems in index.game_stems.items() if "duel" in stems}
    assert any(index.own_words.values()) and (own == have or not own)
    for (game, lang), words in index.own_words.items():
        for (other, other_lang), stems in index.game_stems.items():
            if other != game and other_lang == lang:
                assert not words & stems


def _two_sections(tmp_path):
    """Two sections that both say "card" and "pile" once, and nothing that tells them apart for a
    question about who takes the pile."""
    return _gibbon_sections(
        tmp_path, ("doubting", "Doubting", "Judge it.", "Turn the doubted card of the pile face up for everyone at "
                                                        "the table to see."),
        ("braveheart", "Braveheart", "Go out.", "Throw your final card on a pile."))


def test_what_players_asked_reorders_the_best_hits(tmp_path):
    """The text alone cannot tell which section says who takes the pile; players who asked it meant
    Doubting."""
    sections = _two_sections(tmp_path)
    asked = [Example("gibbon", "doubting", "en", "i lost the doubt, do i take the whole pile"),
             Example("gibbon", "doubting", "fr", "qui prend la pile quand on doute")]
    question = "who takes the pile"
    assert found(Index(sections, Synonyms()).search(question)) == ["gibbon/braveheart", "gibbon/doubting"]
    learned = Index(sections, Synonyms(), learned=Learned(asked, sections))
    assert found(learned.search(question)) == ["gibbon/doubting", "gibbon/braveheart"]
    # It only reorders what the question's words found: a section the question has no word of never
    # comes in, however much players said that word about it: "whole" was said about Doubting, whose
    # text has no word of "whole throw".
    assert found(learned.search("final")) == ["gibbon/braveheart"]
    assert found(learned.search("whole throw")) == ["gibbon/braveheart"]


def test_what_players_asked_weighs_rare_words_and_gives_probabilities(tmp_path):
    sections = _two_sections(tmp_path)
    learned = Learned([Example("gibbon", "doubting", "en", "take the pile after a doubt"),
                       Example("gibbon", "braveheart", "en", "where does my final card go")], sections)
    keys = [("gibbon", "doubting"), ("gibbon", "braveheart")]
    p = learned.probabilities("who takes the pile", "en", keys)
    assert p[keys[0]] > 0.5 > p[keys[1]] and sum(p.values()) == pytest.approx(1)
    # A question of words nobody said about either section says nothing: even odds.
    assert learned.probabilities("zebra", "en", keys) == {keys[0]: 0.5, keys[1]: 0.5}
    assert learned.probabilities("who takes the pile", "en", []) == {}
    assert not Learned() and learned


def test_every_question_the_search_learns_from_points_at_a_real_section():
    from companion.rules import content
    real = {(s.game, s.slug) for s in content.library().all_sections()}
    examples = read_questions()
    assert len(examples) > 1000
    wrong = [e for e in examples if (e.game, e.slug) not in real or e.lang not in analysis.LANGS]
    assert not wrong, wrong[:5]


@pytest.fixture(scope="module")
def two_sections(tmp_path_factory):
    return _two_sections(tmp_path_factory.mktemp("content"))


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=MAX_QUERY))
def test_what_players_asked_answers_any_text_with_probabilities(two_sections, text):
    learned = Learned([Example("gibbon", "doubting", "en", "take the pile")], two_sections)
    p = learned.probabilities(text, "fr", [("gibbon", "doubting"), ("gibbon", "braveheart")])
    assert all(0 <= v <= 1 for v in p.values()) and sum(p.values()) == pytest.approx(1)


def test_an_able_word_is_read_as_its_verb_before_any_typo_guess(index):
    """"jouable" is "jouer" (not "double", two edits away); "playable" is "play"."""
    plan = index._plan("on est 3 c jouable", False, "gibbon", "fr")
    assert [g.primary for g in plan.groups][-1] == analysis.stem("jouer", "fr")
    assert not any(g.corrected for g in plan.groups)
    plan = index._plan("is it playable with 3", False, "gibbon", "en")
    assert analysis.stem("play", "en") in {g.primary for g in plan.groups}


def test_je_said_as_j_before_a_consonant_is_split_off(index):
    assert index.unelided("cest a mon tour jpioche et jpose") == "cest a mon tour pioche et pose"
    assert index.unelided("jeton") == "jeton"  # a word of the content stays whole


def test_the_learned_model_reads_a_question_as_the_search_does():
    """The model counts what the search reads: "du coup" is filler, "labysse" is "l'abysse" when
    "abysse" is a French word of the content, and "deux" is "2" (issue 36)."""
    from companion.rules.learned import features
    known = frozenset({analysis.stem("abysse", "fr")})
    assert features("du coup jai mis labysse", "fr", known) == features("j'ai mis l'abysse", "fr", known)
    assert features("on est deux", "fr") == features("on est 2", "fr")
    # Everyday words of a question that both languages say of the same sections are one word too.
    assert "=tie" in features("egalite on departage comment", "fr") and "=tie" in features("tied who wins", "en")
    assert "=empty" in features("la pioche est vide", "fr") and "=empty" in features("deck is empty", "en")
    assert "=tie" in features("meme score qui gagne", "fr") and "=tie" in features("same points who wins", "en")
    assert features("labysse", "en", known) == [analysis.stem("labysse", "en")]


def test_a_question_s_short_words_say_its_language(index):
    """A French question of game terms is French, whichever language the reader's app is in."""
    for question, lang in (("la Riposte comment ça marche", "fr"), ("on est 4 on rajoute quelles locations", "fr"),
                           ("what does en garde mean", "en")):
        for reader in ("en", "fr"):
            assert index._question_lang(analysis.fold(question), reader) == lang, (question, reader)
