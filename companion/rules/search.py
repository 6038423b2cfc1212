"""Rules search: an SQLite FTS5 index of every section, ranked with bm25, that understands players.

The index lives in its own in-memory SQLite database, built from the content when first needed and
copied into each thread that searches (the tables' database, SQLite or PostgreSQL, is never involved,
so every deployment searches the same way).

What a query goes through, for each language a game's reference is written in:

1. Words are folded, stop words dropped and the rest stemmed (`analysis`): "Stones" finds "stone".
2. Each word becomes a group of alternatives, all drawn from the vocabulary of the content:
   - the word being typed (the last one, while the query does not end with a space) and any unknown
     word of 3+ letters also stand for the content words it starts ("forgiv" -> "forgiveness");
   - an unknown word of 4+ letters is corrected to the nearest content words (1 edit for 4-5
     letters, 2 from 6: "heartles monky" -> "heartless monkey"), with RapidFuzz's optimal string
     alignment distance (a swap of two letters is one edit);
   - players' words from the synonym table (synonyms.yaml) add the rules' words: "gems" also
     searches "stones of forgiveness", "damage" also searches "wounds".
3. FTS5 finds every section with any alternative and ranks them with bm25, a title match weighing
   most, then keywords and terms, the summary, the body. Adjacent query words also count as a
   phrase, so sections where they stand together rank higher.
4. Among those, a section that answers more of the query's words moves up (coverage), so "stones 4
   players" prefers the section that has all three over one that repeats "players".
5. Meaning, not only words (issue 20):
   - concept maps (concepts/<game>.yaml): the situations each section governs, in players' words,
     written from the rulebooks, are read as the section's keywords ("fewer wounds than threat"
     finds Restricted Hostilities);
   - a section whose title or term the question names in full, or whose title, term, keyword or
     concept the question says word for word (stop words or not), moves up;
   - a section one sentence of which says several of the question's words together moves up over
     one that has them scattered (the sentence that answers, not a passing mention);
   - the question's language is read from its words: sections in the other language count less,
     so a French question finds the French section first and the English one only as a fallback;
     each game's glossary (glossary/<game>.yaml) is a two-way synonym table between the languages;
   - across several games, a question that names its game ("gibbon", "five sails") searches that
     game alone, the others only when it has nothing (a name that is also everyday English, "the
     others", only weighs its game up); a game whose own words the question uses weighs heavily, so
     a shared word never pulls in another game, and a word of one game's titles and terms that no
     other game has ("duel", "abysse") weighs that game up;
   - across several games, a question that says how many play ("dealing to 7 ppl", "on est 6")
     leaves out, mostly, the games whose rulebook does not allow that many (the games' own ranges,
     which the caller passes: `Index.of(sections, player_counts)`).
6. What players asked: a naive Bayes model counted from players' questions, each labelled with the
   section that answers it (learned.py, questions/), says how likely the question is about each of
   the best RERANK hits, and reorders them by it ("do we flip the whole pile" is Doubting, though
   only Braveheart's text says "flip"). It also counts the kind of question ("combien", "cmb", "how
   many" ask for a count; "qui", "who" for a person), which bm25 drops as stop words, as one word
   shared by both languages.

Each hit carries its title and a short snippet as (text, highlighted) parts: the web layer escapes
every part and wraps the highlighted ones in <mark>, so neither content nor query can inject HTML.
Pure: no Flask import.

This module is the search's public face: `Index`, and the names callers import from here. The work
is done in modules that import one way (each only from those listed before it):
- analysis.py: folding, stop words and stemming (step 1);
- learned.py: the model counted from players' questions (step 6);
- indexing.py: building the index: documents and their fields, stems, vocabulary, the synonym table,
  concept maps and game names, all that the other steps read;
- hits.py: what a search returns (`Hit`, `Result`), its highlighted title and snippet;
- query.py: reading the query (step 2) into an FTS5 MATCH expression;
- ranking.py: scoring (steps 3 to 5, and the reordering of step 6) in `RankingIndex.search`.
The constants are re-exported here to be read; the code reads those of its own module (the ranking
constants ranking.py's, which is where fit.py sets them).
"""
from __future__ import annotations

from typing import Iterable, Mapping

from .analysis import NUMBER_WORDS, PLAYER_WORDS, SAYS_HOW_MANY, player_count
from .content import Section
from .hits import SNIPPET_WORDS, Hit, Part, Result, parts_html, parts_text
from .indexing import (CONCEPTS, FIELDS, GLOSSARY, HUB_LINKS, SENTENCE_END, SYNONYMS, VOCAB_WEIGHTS, Synonyms,
                       read_concepts, read_everyday_names, read_game_names, read_glossary)
from .learned import Learned, read_questions
from .query import MAX_QUERY, MAX_WORDS, PREFIX_ALTERNATIVES
from .ranking import (CANDIDATES, COVERAGE, GAME_AFFINITY, GAME_PHRASE, HUB, LEARNED, LIMIT, NAMED_GAME,
                      OTHER_LANGUAGE, PHRASE_MATCH, PREFIX_ONLY, RERANK, SITUATION, TERM_MATCH, TOGETHER, WEIGHTS,
                      WRONG_PLAYER_COUNT, RankingIndex)

__all__ = [
    "Index", "Synonyms", "Hit", "Result", "Part", "parts_text", "parts_html", "player_count",
    "read_concepts", "read_glossary", "read_everyday_names", "read_game_names",
    "SYNONYMS", "GLOSSARY", "CONCEPTS", "FIELDS", "VOCAB_WEIGHTS", "HUB_LINKS", "SENTENCE_END",
    "MAX_QUERY", "MAX_WORDS", "PREFIX_ALTERNATIVES", "SNIPPET_WORDS",
    "LIMIT", "CANDIDATES", "WEIGHTS", "COVERAGE", "GAME_AFFINITY", "NAMED_GAME", "GAME_PHRASE", "HUB",
    "OTHER_LANGUAGE", "TERM_MATCH", "PHRASE_MATCH", "PREFIX_ONLY", "SITUATION", "TOGETHER", "RERANK",
    "LEARNED", "WRONG_PLAYER_COUNT", "PLAYER_WORDS", "SAYS_HOW_MANY", "NUMBER_WORDS",
]


class Index(RankingIndex):
    """The search index of a set of sections (every game, every language)."""

    @classmethod
    def of(cls, sections: Iterable[Section], player_counts: Mapping[str, tuple[int, int]] | None = None) -> Index:
        """The index of `sections` with the package's synonyms, glossaries and game names, and the
        games' player ranges ({game: (fewest, most)}, from the game registry) when given."""
        sections = list(sections)
        concepts = read_concepts()
        learned = Learned(read_questions(), sections, concepts)
        return cls(sections, Synonyms.read(), read_game_names(), concepts, player_counts,
                   read_everyday_names(), learned)
