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
     a shared word never pulls in another game;
   - across several games, a question that says how many play ("dealing to 7 ppl", "on est 6")
     leaves out, mostly, the games whose rulebook does not allow that many (the games' own ranges,
     which the caller passes: `Index.of(sections, player_counts)`).
6. What players asked: a naive Bayes model counted from players' questions, each labelled with the
   section that answers it (learned.py, questions/), says how likely the question is about each of
   the best RERANK hits, and reorders them by it ("do we flip the whole pile" is Doubting, though
   only Braveheart's text says "flip").

Each hit carries its title and a short snippet as (text, highlighted) parts: the web layer escapes
every part and wraps the highlighted ones in <mark>, so neither content nor query can inject HTML.
Pure: no Flask import.
"""
from __future__ import annotations

import bisect
import heapq
import pathlib
import re
import sqlite3
import threading
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Iterable, Mapping, Sequence

import yaml
from markupsafe import Markup, escape
from rapidfuzz import process
from rapidfuzz.distance import OSA

from . import analysis, content
from .analysis import fold, is_stop, stem
from .content import Section
from .learned import Learned, read_questions

SYNONYMS = pathlib.Path(__file__).resolve().parent / "synonyms.yaml"
GLOSSARY = content.GLOSSARY
CONCEPTS = pathlib.Path(__file__).resolve().parent / "concepts"
MAX_QUERY = 120  # characters: a question, not an essay
MAX_WORDS = 12
LIMIT = 10
CANDIDATES = 60  # how many FTS5 matches are re-ranked by coverage
PREFIX_ALTERNATIVES = 8  # content words a word being typed may stand for, most frequent first
# bm25 column weights, in the table's column order.
WEIGHTS = {"title": 8.0, "keywords": 6.0, "terms": 6.0, "grp": 1.5, "summary": 2.5, "body": 1.0}
# Which content words to prefer when guessing a typo or the end of a word being typed: the words of
# titles, terms and keywords (then the synonym table, summaries, bodies) are what players look for;
# among equals, the more frequent. A word's weight is 1000 x its best place + its occurrences.
VOCAB_WEIGHTS = {"title": 5, "keywords": 5, "terms": 5, "grp": 1, "summary": 2, "body": 1, "synonyms": 3}
COVERAGE = 1.0  # a section that answers all the query's words scores (1 + COVERAGE) times its bm25
SNIPPET_WORDS = 22
# Searching several games: a section's score is multiplied by (1 + GAME_AFFINITY x its game's share
# of the query's words), a word found in k of the searched games giving each of them 1/k; a game the
# query names ("gibbon", "five sails") multiplies its sections by NAMED_GAME.
GAME_AFFINITY = 1.5
NAMED_GAME = 8.0
# ... and a game one of whose titles, terms or keywords of 2+ words the question says, by
# (1 + GAME_PHRASE x its length in words).
GAME_PHRASE = 0.25
# A hub section (HUB_LINKS links or more) names many rules without answering them: its score counts
# this much, so the section it points to comes first.
HUB_LINKS = 5
HUB = 0.8
# A section found through the other language than the question's counts for this much.
OTHER_LANGUAGE = 0.6
# A section whose title or one of whose terms the question names in full (all their words, in any
# order): its score is multiplied by (1 + TERM_MATCH x the share of the question's words they are).
TERM_MATCH = 1.0
# A section whose title, term or keyword stands word for word in the question ("in play", "en
# garde", "hand limit"), stop words included: (1 + PHRASE_MATCH x the phrase's length in words).
PHRASE_MATCH = 0.5
# A word being typed also stands for the longer words it starts; a section that has only those
# answers it this much.
PREFIX_ONLY = 0.5
# A section one of whose situations (a keyword or concept with 2+ words besides the section's own
# name) the question says at least two words of, in any order and with other words between: its
# score is multiplied by (1 + SITUATION x the share of that situation's words said). bm25 reads all
# of a section's keywords as one field, so a section with many situations would otherwise get less
# for matching one of them well than a section with few.
SITUATION = 0.5
# A section with a sentence that says several of the question's words together answers it more
# surely than one that has them scattered: (1 + TOGETHER x the share of the question's words its best
# sentence has), counted from two words on.
TOGETHER = 0.75
# What players asked (learned.py) reorders the best RERANK hits: each one's score is multiplied by the
# probability that the question is about it, to the power LEARNED (chosen on dev batches 3 to 6, each
# measured while left out of the model's training).
RERANK = 10
LEARNED = 0.2
SENTENCE_END = re.compile(r"(?<=[.;:!?·])\s+|\s+[–-]\s+")
# Across several games, a question about a number of players that a game's rulebook does not allow
# ("dealing to 7 ppl") is not about that game: its sections count this much.
WRONG_PLAYER_COUNT = 0.3
PLAYER_WORDS = frozenset({"player", "players", "ppl", "people", "persons", "peeps", "joueur", "joueurs",
                          "joueuse", "joueuses", "personnes", "pers"})
SAYS_HOW_MANY = {("we", "are"), ("we", "re"), ("we", "were"), ("on", "est"), ("nous", "sommes")}  # ... 3
NUMBER_WORDS = {w: n for n, ws in enumerate((
    (), ("one", "un", "une"), ("two", "deux"), ("three", "trois"), ("four", "quatre"), ("five", "cinq"),
    ("six",), ("seven", "sept"), ("eight", "huit"), ("nine", "neuf"), ("ten", "dix"))) for w in ws}

Part = tuple[str, bool]  # a piece of shown text, and whether it matched the query


def parts_text(parts: Sequence[Part]) -> str:
    return "".join(text for text, _ in parts)


def parts_html(parts: Sequence[Part]) -> Markup:
    """The parts as safe HTML: every piece escaped, matches wrapped in <mark>."""
    return Markup("").join(Markup("<mark>%s</mark>") % t if hit else escape(t) for t, hit in parts)


@dataclass(frozen=True)
class Hit:
    game: str
    slug: str
    lang: str  # the language of the snippet
    score: float
    title: tuple[Part, ...]
    snippet: tuple[Part, ...]
    anchor: str | None  # the heading of the part that matched, None for the top of the section

    @property
    def title_text(self) -> str:
        return parts_text(self.title)

    @property
    def snippet_text(self) -> str:
        return parts_text(self.snippet)

    @property
    def title_html(self) -> Markup:
        return parts_html(self.title)

    @property
    def snippet_html(self) -> Markup:
        return parts_html(self.snippet)


@dataclass(frozen=True)
class Result:
    query: str
    hits: tuple[Hit, ...] = ()
    # Words the player typed that were read as other words: {"stoens": "stones"}.
    corrections: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class _Text:
    """A shown text, its words (start, end, stem or None) and the set of its stems."""

    text: str
    words: tuple[tuple[int, int, str | None], ...]
    stems: frozenset[str]

    @classmethod
    def of(cls, text: str, lang: str) -> _Text:
        words = analysis.spans(text, lang)
        return cls(text, words, frozenset(s for _, _, s in words if s))


@dataclass(frozen=True)
class _Row:
    game: str
    slug: str
    lang: str
    title: _Text
    summary: _Text
    blocks: tuple[tuple[str | None, _Text, frozenset[str]], ...]  # anchor, text, heading stems
    stems: frozenset[str]
    names: tuple[frozenset[str], ...] = ()  # the stems of its title and of each of its terms
    phrases: tuple[tuple[str, ...], ...] = ()  # its title, terms and keywords as folded words
    gists: tuple[tuple[str, ...], ...] = ()  # the same without stop words, where 2+ words are left
    hub: bool = False  # a section that mostly points to others (5+ links): it names everything
    # The stems of each of its keywords and concepts, less those of its own title and terms, where
    # 2+ are left: the situations it governs.
    situations: tuple[frozenset[str], ...] = ()
    # stem -> a bit mask of the sentences of its summary and body that have it
    sentences: Mapping[str, int] = field(default_factory=dict)


@dataclass
class _Group:
    """One word of the query and the stems that satisfy it."""

    word: str
    primary: str
    stems: set[str]
    corrected: str | None = None


@dataclass
class _Plan:
    groups: list[_Group]
    phrases: list[tuple[tuple[str, ...], tuple[int, ...]]]  # stems in a row, and the groups they satisfy

    def highlight(self) -> set[str]:
        out = {s for g in self.groups for s in g.stems}
        out.update(s for stems, _ in self.phrases for s in stems)
        return out


class Synonyms:
    """Players' words and the rules' words, per game ("all" for every game) and language.

    Both sides are stemmed, so a key matches whatever ending the player uses.
    """

    def __init__(self, table: Mapping[str, Mapping[str, Mapping[str, object]]] | None = None,
                 foreign: Mapping[str, Iterable[str]] | None = None):
        self.table: dict[tuple[str, str], list[tuple[tuple[str, ...], list[tuple[str, ...]]]]] = {}
        self.words: dict[str, Counter] = {lang: Counter() for lang in analysis.LANGS}
        # Words of the other language that a glossary lets a question use (a French term in an
        # English question): known, so never "corrected", but never a typo's correction either.
        self.foreign: dict[str, set[str]] = {lang: set() for lang in analysis.LANGS}
        for lang, texts in (foreign or {}).items():
            self.foreign[lang].update(w for t in texts for w in analysis.words(t) if not is_stop(w))
        for game, by_lang in (table or {}).items():
            for lang, entries in (by_lang or {}).items():
                if lang not in analysis.LANGS:
                    raise ValueError(f"synonyms: unknown language {lang!r} for {game}")
                for key, targets in (entries or {}).items():
                    targets = [targets] if isinstance(targets, str) else list(targets or ())
                    key_stems = tuple(analysis.terms(str(key), lang))
                    target_stems = [t for t in (tuple(analysis.terms(str(x), lang)) for x in targets) if t]
                    if not key_stems or not target_stems:
                        raise ValueError(f"synonyms: {game}/{lang}: {key!r} has no words to match or add")
                    self.table.setdefault((game, lang), []).append((key_stems, target_stems))
                    for text in [str(key), *map(str, targets)]:
                        self.words[lang].update(w for w in analysis.words(text) if not is_stop(w))

    @classmethod
    def read(cls, path: pathlib.Path = SYNONYMS, glossary: pathlib.Path | None = GLOSSARY) -> Synonyms:
        """The synonym table, plus each game's glossary read both ways: an English term in a question
        also searches the French sections for the French term, and the other way round."""
        table = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        foreign: dict[str, list[str]] = {lang: [] for lang in analysis.LANGS}
        for game, pairs in (read_glossary(glossary) if glossary else {}).items():
            by_lang = table.setdefault(game, {})
            for en, fr in pairs.items():
                if fold(en) == fold(fr):
                    continue
                for lang, key, target in (("fr", en, fr), ("en", fr, en)):
                    entries = by_lang.setdefault(lang, {}) or {}
                    by_lang[lang] = entries
                    old = entries.get(key) or []
                    entries[key] = ([old] if isinstance(old, str) else list(old)) + [target]
                    foreign[lang].append(key)
        return cls(table, foreign)

    def entries(self, game: str, lang: str):
        return self.table.get((game, lang), []) + self.table.get(("all", lang), [])


def read_concepts(folder: pathlib.Path = CONCEPTS) -> dict[tuple[str, str, str], tuple[str, ...]]:
    """{(game, lang, slug): situations}: concepts/<game>.yaml, the situations each section governs,
    in players' words, written from the rulebooks. The index reads them with the keywords."""
    out: dict[tuple[str, str, str], tuple[str, ...]] = {}
    for path in sorted(pathlib.Path(folder).glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        for lang, by_slug in data.items():
            for slug, phrases in (by_slug or {}).items():
                out[(path.stem, str(lang), str(slug))] = tuple(str(p) for p in phrases or ())
    return out


def read_glossary(folder: pathlib.Path = GLOSSARY) -> dict[str, dict[str, str]]:
    """{game: {English term: French term}} from the games' glossaries."""
    return {g: dict(content.glossary(g, folder).terms) for g in content.GAME_KEYS}


def read_everyday_names(folder: pathlib.Path = GLOSSARY) -> set[tuple[str, ...]]:
    """The folded words of the games' names that are also everyday phrases."""
    return {tuple(analysis.words(n)) for g in content.GAME_KEYS for n in content.glossary(g, folder).everyday_names}


def read_game_names(folder: pathlib.Path = GLOSSARY) -> dict[str, list[tuple[str, ...]]]:
    """{game: [folded words of a name players call it by]}, longest first."""
    out = {}
    for game in content.GAME_KEYS:
        names = {tuple(analysis.words(n)) for n in content.glossary(game, folder).names}
        out[game] = sorted((n for n in names if n), key=len, reverse=True)
    return out


class Index:
    """The search index of a set of sections (every game, every language)."""

    def __init__(self, sections: Iterable[Section], synonyms: Synonyms | None = None,
                 game_names: Mapping[str, Sequence[tuple[str, ...]]] | None = None,
                 concepts: Mapping[tuple[str, str, str], Sequence[str]] | None = None,
                 player_counts: Mapping[str, tuple[int, int]] | None = None,
                 everyday_names: Iterable[tuple[str, ...]] = (), learned: Learned | None = None):
        self.synonyms = synonyms or Synonyms()
        self.learned = learned or Learned()
        self.everyday_names = set(everyday_names)
        self.player_counts = dict(player_counts or {})
        concepts = concepts or {}
        # Each name players call a game by, and the games it names, longest first: "7 sins" is both
        # 7 - The Sins and The Others: 7 Sins.
        by_name: dict[tuple[str, ...], set[str]] = {}
        for g, names in (game_names or {}).items():
            for n in names:
                by_name.setdefault(tuple(n), set()).add(g)
        self.game_names = sorted(by_name.items(), key=lambda x: (-len(x[0]), x[0]))
        self.game_stems: dict[tuple[str, str], set[str]] = {}
        self.phrase_rows: dict[tuple[str, ...], set[int]] = {}  # a title, term or keyword -> its rows
        self.rows: list[_Row] = []
        self.ranges: dict[tuple[str, str], tuple[int, int]] = {}  # (game, lang) -> rowid range
        vocab: dict[str, Counter] = {lang: Counter() for lang in analysis.LANGS}
        for lang in analysis.LANGS:
            for w in self.synonyms.words[lang]:
                vocab[lang][w] = max(vocab[lang][w], VOCAB_WEIGHTS["synonyms"] * 1000)
        ordered = sorted(sections, key=lambda s: (s.game, s.lang, s.order, s.slug))
        written: dict[str, set[str]] = {lang: set() for lang in analysis.LANGS}  # words of the content
        db = sqlite3.connect(":memory:")
        cols = ", ".join(WEIGHTS)
        db.execute(f"CREATE VIRTUAL TABLE docs USING fts5({cols}, tokenize='unicode61 remove_diacritics 2')")
        for rowid, sec in enumerate(ordered, start=1):
            lang = sec.lang
            keywords = (*sec.keywords, *concepts.get((sec.game, lang, sec.slug), ()))
            fields = {
                "title": sec.title, "keywords": " ; ".join(keywords), "terms": " ; ".join(sec.terms),
                "grp": sec.group, "summary": sec.summary, "body": sec.text,
            }
            for name, text in fields.items():
                for w in analysis.words(text):
                    if not is_stop(w):
                        vocab[lang][w] = max(vocab[lang][w], VOCAB_WEIGHTS[name] * 1000) + 1
                        written[lang].add(w)
            stemmed = {k: " ".join(analysis.terms(v, lang)) for k, v in fields.items()}
            db.execute(f"INSERT INTO docs(rowid, {cols}) VALUES (?, {', '.join('?' * len(WEIGHTS))})",
                       (rowid, *stemmed.values()))
            blocks = tuple(
                (b.anchor, _Text.of(b.text, lang), frozenset(analysis.terms(b.heading, lang)))
                for b in sec.blocks
            )
            own = {s for n in (sec.title, *sec.terms) for s in analysis.terms(n, lang)}
            self.rows.append(_Row(
                game=sec.game, slug=sec.slug, lang=lang, title=_Text.of(sec.title, lang),
                summary=_Text.of(sec.summary, lang), blocks=blocks,
                stems=frozenset(s for v in stemmed.values() for s in v.split()),
                names=tuple(n for n in (frozenset(analysis.terms(t, lang)) for t in (sec.title, *sec.terms)) if n),
                phrases=tuple(p for p in (tuple(analysis.words(t)) for t in (sec.title, *sec.terms, *keywords))
                              if len(p) > 1 or (p and not is_stop(p[0]))),
                hub=sec.body.count("](") >= HUB_LINKS,
                situations=tuple(s for s in (frozenset(analysis.terms(t, lang)) - own for t in keywords)
                                 if len(s) > 1),
                gists=tuple(g for g in (tuple(w for w in analysis.words(t) if not is_stop(w))
                                        for t in (sec.title, *sec.terms, *keywords)) if len(g) > 1),
                sentences=_sentence_masks((sec.summary, *(b.text for b in sec.blocks)), lang),
            ))
            self.game_stems.setdefault((sec.game, lang), set()).update(self.rows[-1].stems)
            for phrase in (*self.rows[-1].phrases, *self.rows[-1].gists):
                self.phrase_rows.setdefault(phrase, set()).add(rowid)
            first, _ = self.ranges.get((sec.game, lang), (rowid, rowid))
            self.ranges[(sec.game, lang)] = (first, rowid)
        db.execute("INSERT INTO docs(docs) VALUES ('optimize')")
        db.commit()
        self._image = db.serialize()
        db.close()
        self.vocab = vocab
        self.sorted_vocab = {lang: sorted(v) for lang, v in vocab.items()}
        # A typo is corrected toward this language's words: a glossary's word of the other language
        # counts only where this language's own content also uses it.
        self.vocab_list = {lang: [w for w in v if w in written[lang] or w not in self.synonyms.foreign[lang]]
                           for lang, v in vocab.items()}
        self.stems = {lang: {stem(w, lang) for w in v} for lang, v in vocab.items()}
        self._local = threading.local()
        self._plan = lru_cache(maxsize=4096)(self._plan_uncached)
        self._nearest = lru_cache(maxsize=4096)(self._nearest_uncached)
        self._sql = (f"SELECT rowid, bm25(docs, {', '.join(map(str, WEIGHTS.values()))}) AS score FROM docs "
                     f"WHERE docs MATCH ? AND rowid BETWEEN ? AND ? ORDER BY score LIMIT {CANDIDATES}")

    @classmethod
    def of(cls, sections: Iterable[Section], player_counts: Mapping[str, tuple[int, int]] | None = None) -> Index:
        """The index of `sections` with the package's synonyms, glossaries and game names, and the
        games' player ranges ({game: (fewest, most)}, from the game registry) when given."""
        sections = list(sections)
        concepts = read_concepts()
        learned = Learned(read_questions(), sections, concepts)
        return cls(sections, Synonyms.read(), read_game_names(), concepts, player_counts,
                   read_everyday_names(), learned)

    # -- the database ------------------------------------------------------------------------------

    def _db(self) -> sqlite3.Connection:
        """This thread's copy of the index (an in-memory database is private to its connection)."""
        conn = getattr(self._local, "conn", None)
        if conn is None:
            conn = sqlite3.connect(":memory:")
            conn.deserialize(self._image)
            self._local.conn = conn
        return conn

    def languages(self, game: str) -> list[str]:
        return [lang for lang in analysis.LANGS if (game, lang) in self.ranges]

    @property
    def games(self) -> list[str]:
        return sorted({g for g, _ in self.ranges})

    # -- reading the query -------------------------------------------------------------------------

    def _known(self, word: str, lang: str) -> bool:
        return word in self.vocab[lang] or stem(word, lang) in self.stems[lang]

    def _starting_with(self, prefix: str, lang: str) -> list[str]:
        """The content's most frequent words that start with `prefix`."""
        words = self.sorted_vocab[lang]
        found = []
        for i in range(bisect.bisect_left(words, prefix), len(words)):
            if not words[i].startswith(prefix):
                break
            found.append(words[i])
        found.sort(key=lambda w: -self.vocab[lang][w])
        return found[:PREFIX_ALTERNATIVES]

    def _nearest_uncached(self, word: str, langs: tuple[str, ...]) -> dict[str, str]:
        """The best correction of an unknown word, per language whose content has it: {lang: word}.

        The fewest edits win, then a word that keeps the first letter (typos rarely hit it), then
        the likeliest slip (two letters swapped, a neighbouring key), then the word that matters
        most in the content. A language whose best guess is worse than
        another's gets none ("gmes" is "gems" in English, not "âmes" in French).
        """
        if word.isdigit() or len(word) < 4:
            return {}
        limit = 1 if len(word) < 6 else 2
        rough = []
        for lang in langs:
            found = process.extract(word, self.vocab_list[lang], scorer=OSA.distance, score_cutoff=limit, limit=20)
            rough.extend(((d, w[0] != word[0]), lang, w) for w, d, _ in found)
        if not rough:
            return {}
        # Only the candidates that are fewest edits away (keeping the first letter if any does) go
        # on to the finer, slower comparison.
        top = min(key for key, _, _ in rough)
        scored = sorted(((*key, analysis.typo_cost(word, w), -self.vocab[lang][w]), lang, w)
                        for key, lang, w in rough if key == top)
        best = scored[0][0][:2]
        out: dict[str, str] = {}
        for key, lang, w in scored:
            if key[:2] == best:
                out.setdefault(lang, w)
        return out

    def _plan_uncached(self, folded: str, typing: bool, game: str, lang: str) -> _Plan:
        words = [w for w in analysis.words(folded) if not is_stop(w)][:MAX_WORDS]
        others = [o for o in analysis.LANGS if o != lang]
        groups = []
        for i, w in enumerate(words):
            own = stem(w, lang)
            group = _Group(w, own, {own})
            being_typed = typing and i == len(words) - 1
            if self._known(w, lang):
                if being_typed:
                    group.stems.update(stem(x, lang) for x in self._starting_with(w, lang))
            elif any(self._known(w, o) for o in others):
                pass  # a word of the other language: no guessing in this one
            elif (starting := self._starting_with(w, lang)) and (being_typed or len(w) >= 3):
                group.stems.update(stem(x, lang) for x in starting)
            elif near := self._nearest(w, tuple(self.languages(game))).get(lang):
                group.corrected = near
                group.primary = stem(near, lang)
                group.stems = {group.primary}
            groups.append(group)
        phrases: list[tuple[tuple[str, ...], tuple[int, ...]]] = []
        primaries = [g.primary for g in groups]
        for key, targets in self.synonyms.entries(game, lang):
            n = len(key)
            for start in range(len(primaries) - n + 1):
                if tuple(primaries[start:start + n]) == key:
                    covered = tuple(range(start, start + n))
                    phrases.extend((t, covered) for t in targets)
        for i in range(len(groups) - 1):
            phrases.append(((groups[i].primary, groups[i + 1].primary), (i, i + 1)))
        return _Plan(groups, phrases)

    @staticmethod
    def _match_expression(plan: _Plan) -> str:
        def quoted(stems: Iterable[str]) -> str:
            return '"' + " ".join(stems).replace('"', '""') + '"'

        alternatives = {quoted([s]) for g in plan.groups for s in g.stems}
        alternatives.update(quoted(stems) for stems, _ in plan.phrases)
        return " OR ".join(sorted(alternatives))

    @staticmethod
    def _coverage(plan: _Plan, row: _Row) -> float:
        """The share of the query's words a section answers (directly or through a synonym); a word
        answered only by a longer word it starts counts PREFIX_ONLY."""
        met = {i: 1.0 if g.primary in row.stems else PREFIX_ONLY
               for i, g in enumerate(plan.groups) if g.stems & row.stems}
        for stems, covered in plan.phrases:
            if row.stems.issuperset(stems):
                met.update(dict.fromkeys(covered, 1.0))
        return sum(met.values()) / len(plan.groups)

    # -- searching ---------------------------------------------------------------------------------

    def _named_games(self, folded: str, searched: Sequence[str]) -> tuple[set[str], set[str], str]:
        """The searched games the question names, those it names by a name that is not also an
        everyday phrase, and the question without their names (kept when the name is all there is:
        "gibbon" alone searches for the word)."""
        words = analysis.words(folded)
        named: set[str] = set()
        surely: set[str] = set()
        kept = list(words)
        for name, games in self.game_names:
            games = games.intersection(searched)
            if not games:
                continue
            n = len(name)
            for i in range(len(kept) - n + 1):
                if tuple(kept[i:i + n]) == name:
                    named.update(games)
                    if name not in self.everyday_names:
                        surely.update(games)
                    kept[i:i + n] = [""] * n
        rest = [w for w in kept if w]
        if not named or not any(not is_stop(w) for w in rest):
            return named, surely, folded
        return named, surely, " ".join(rest)

    def _question_lang(self, folded: str, reader: str) -> str:
        """The language the question is written in: the one that knows more of its words that the
        other does not; the reader's when that does not decide."""
        only = Counter()
        for w in analysis.words(folded):
            if is_stop(w) or w.isdigit():
                continue
            known = [lang for lang in analysis.LANGS if w in self.vocab[lang]]
            if len(known) == 1:
                only[known[0]] += 1
        ranked = only.most_common()
        if not ranked or (len(ranked) > 1 and ranked[0][1] == ranked[1][1]):
            return reader
        return ranked[0][0]

    def _affinity(self, plans: Mapping[tuple[str, str], _Plan], searched: Sequence[str]) -> dict[str, float]:
        """Each searched game's share of the question's words: a word its content has and k of the
        searched games have gives it 1/k; averaged over the question's words."""
        present: dict[str, set[int]] = {g: set() for g in searched}
        size = 0
        for (game, row_lang), plan in plans.items():
            size = max(size, len(plan.groups))
            have = self.game_stems.get((game, row_lang), set())
            for i, g in enumerate(plan.groups):
                if g.stems & have:
                    present[game].add(i)
        if not size:
            return {}
        counts = Counter(i for ids in present.values() for i in ids)
        return {g: sum(1 / counts[i] for i in ids) / size for g, ids in present.items()}

    def _learn(self, best: dict[tuple[str, str], float], query: str, lang: str) -> None:
        """Reorder the best RERANK hits by what players asked (`learned`): each one's score is
        multiplied by the probability the question is about it, to the power LEARNED. The hits after
        them take the smallest of those factors, so none of them overtakes a reordered one."""
        if not self.learned or len(best) < 2:
            return
        keys = heapq.nsmallest(RERANK, best, key=lambda k: (-best[k], k))
        factors = {k: max(p, 1e-12) ** LEARNED for k, p in self.learned.probabilities(query, lang, keys).items()}
        rest = min(factors.values())
        for key in best:
            best[key] *= factors.get(key, rest)

    def search(self, query: str, games: Sequence[str] | None = None, lang: str = "en",
               limit: int = LIMIT) -> Result:
        """The sections that answer `query`, best first, in the given games (all when None).

        `lang` is the reader's language: a section written in it is shown in it (Hit.lang says which).
        """
        query = query[:MAX_QUERY]
        folded = analysis.drop_idioms(fold(query))
        typing = bool(query) and not query[-1].isspace()
        searched = list(games if games is not None else self.games)
        named, surely, folded = self._named_games(folded, searched)
        if surely and len(searched) > 1 and not surely.issuperset(searched):
            # A question that names its game is about that game: other games come in only when it
            # has nothing ("what do you need to play sinful gibbon").
            own = self.search(query, sorted(surely), lang, limit)
            if own.hits:
                return own
        found: dict[tuple[str, str], dict[str, tuple[float, float, _Plan, int]]] = {}
        corrections: dict[str, str] = {}
        db = self._db()
        plans = {(game, row_lang): self._plan(folded, typing, game, row_lang)
                 for game in searched for row_lang in self.languages(game)}
        asked = self._question_lang(folded, lang)
        question = analysis.words(folded)
        said: dict[int, int] = {}  # rowid -> the longest title, term or keyword the question says
        for run in _runs(question) | _runs([w for w in question if not is_stop(w)]):
            for rowid in self.phrase_rows.get(run, ()):
                said[rowid] = max(said.get(rowid, 0), len(run))
        game_said: dict[str, int] = {}  # game -> the longest phrase of 2+ words of its own said
        for rowid, n in said.items():
            if n > 1:
                g = self.rows[rowid - 1].game
                game_said[g] = max(game_said.get(g, 0), n)
        affinity = self._affinity(plans, searched) if len(searched) > 1 else {}
        players = player_count(question) if len(searched) > 1 else None
        for (game, row_lang), plan in plans.items():
            if not plan.groups:
                continue
            factor = (1 + GAME_AFFINITY * affinity.get(game, 0.0)) * (NAMED_GAME if game in named else 1.0)
            if len(searched) > 1:
                factor *= 1 + GAME_PHRASE * game_said.get(game, 0)
            if row_lang != asked:
                factor *= OTHER_LANGUAGE
            if players is not None and game in self.player_counts and game not in named:
                fewest, most = self.player_counts[game]
                if not fewest <= players <= most:
                    factor *= WRONG_PLAYER_COUNT
            asked_stems = {s for g in plan.groups for s in g.stems}
            primaries = {g.primary for g in plan.groups}
            first, last = self.ranges[(game, row_lang)]
            rows = db.execute(self._sql, (self._match_expression(plan), first, last)).fetchall()
            for rowid, bm25 in rows:
                row = self.rows[rowid - 1]
                coverage = self._coverage(plan, row)
                score = -bm25 * (1 + COVERAGE * coverage) * factor
                named_share = max((len(n) for n in row.names if n <= asked_stems), default=0)
                score *= 1 + TERM_MATCH * min(1.0, named_share / len(plan.groups))
                score *= 1 + PHRASE_MATCH * said.get(rowid, 0)
                score *= 1 + SITUATION * _situation(row, primaries)
                score *= 1 + TOGETHER * _together(plan, row)
                if row.hub:
                    score *= HUB
                found.setdefault((game, row.slug), {})[row_lang] = (score, coverage, plan, rowid)
            if rows:
                for g in plan.groups:  # the question's own language says what a typo meant
                    if g.corrected and (row_lang == asked or g.word not in corrections):
                        corrections[g.word] = g.corrected
        # A section found in several languages counts once, at its best score; it is shown in the
        # reader's language unless the other version answers more of the query's words (a French
        # question on an English page shows the French title and text, where its words are marked).
        best = {key: max(v[0] for v in by_lang.values()) for key, by_lang in found.items()}
        self._learn(best, query, asked)
        ranked = [(key, found[key]) for key in heapq.nsmallest(limit, best, key=lambda k: (-best[k], k))]
        hits = []
        for (game, slug), by_lang in ranked:
            score = max(v[0] for v in by_lang.values())
            row_lang = max(by_lang, key=lambda k: (by_lang[k][1], k == lang, by_lang[k][0]))
            _, _, plan, rowid = by_lang[row_lang]
            row = self.rows[rowid - 1]
            marks = plan.highlight()
            snippet, anchor = _snippet(row, marks)
            title = _highlight(row.title, marks)
            hits.append(Hit(game, slug, row_lang, round(score, 4), title, snippet, anchor))
        return Result(query, tuple(hits), corrections)


def _sentence_masks(texts: Iterable[str], lang: str) -> dict[str, int]:
    """{stem: bit mask of the sentences that have it}, the sentences of `texts` numbered in order."""
    masks: dict[str, int] = {}
    n = 0
    for text in texts:
        for sentence in SENTENCE_END.split(text):
            for st in set(analysis.terms(sentence, lang)):
                masks[st] = masks.get(st, 0) | 1 << n
            n += 1
    return masks


def _together(plan: _Plan, row: _Row) -> float:
    """The share of the question's words that one sentence of the section has, its best sentence's,
    from two words on."""
    if len(plan.groups) < 2:
        return 0.0
    per_sentence: Counter = Counter()
    for g in plan.groups:
        mask = 0
        for st in g.stems:
            mask |= row.sentences.get(st, 0)
        while mask:
            low = mask & -mask
            per_sentence[low] += 1
            mask ^= low
    best = max(per_sentence.values(), default=0)
    return best / len(plan.groups) if best >= 2 else 0.0


def _situation(row: _Row, asked: set[str]) -> float:
    """How fully the question describes one of the section's situations, in any order and with other
    words between: the share of that situation's words the question has, for the best situation of
    which it has at least two words."""
    best = 0.0
    for s in row.situations:
        n = len(s & asked)
        if n >= 2:
            best = max(best, n / len(s))
    return best


def player_count(words: Sequence[str]) -> int | None:
    """The number of players a question is about, when it says one: "7 ppl", "4p", "three players",
    "3 of us", "we are 3", "on est 6", "nous sommes 4"."""
    def number(w: str) -> int | None:
        return int(w) if w.isdigit() and len(w) <= 2 else NUMBER_WORDS.get(w)

    for i, w in enumerate(words):
        if w[:-1].isdigit() and w[-1] in "pj" and len(w) <= 3:  # "4p", "5j"
            return int(w[:-1])
        n = number(w)
        if n is None:
            continue
        after, before = words[i + 1:i + 3], tuple(words[max(0, i - 2):i])
        if after[:1] and after[0] in PLAYER_WORDS or after[:2] == ["of", "us"]:
            return n
        if before in SAYS_HOW_MANY:
            return n
    return None


def _runs(words: Sequence[str], longest: int = 8) -> set[tuple[str, ...]]:
    """Every run of up to `longest` consecutive words."""
    return {tuple(words[i:i + n]) for i in range(len(words)) for n in range(1, longest + 1) if i + n <= len(words)}


def _highlight(text: _Text, marks: set[str], start: int = 0, end: int | None = None) -> tuple[Part, ...]:
    """The text from `start` to `end` cut into parts, the words whose stem is in `marks` highlighted."""
    end = len(text.text) if end is None else end
    parts: list[Part] = []
    pos = start
    for a, b, s in text.words:
        if a < start or b > end or s is None or s not in marks:
            continue
        if a > pos:
            parts.append((text.text[pos:a], False))
        parts.append((text.text[a:b], True))
        pos = b
    if pos < end:
        parts.append((text.text[pos:end], False))
    return tuple(parts)


def _window(text: _Text, marks: set[str], size: int) -> tuple[int, int, int]:
    """(score, first word, last word) of the best run of `size` words: distinct matches count most."""
    n = len(text.words)
    if n == 0 or text.stems.isdisjoint(marks):
        return (0, 0, min(size, n) - 1)
    flags = [s if s is not None and s in marks else None for _, _, s in text.words]
    counts: dict[str, int] = {}
    matches = distinct = 0
    best = (0, 0, min(size, n) - 1)
    for i, f in enumerate(flags):
        if f:
            matches += 1
            seen = counts.get(f, 0)
            distinct += seen == 0
            counts[f] = seen + 1
        if i >= size and (gone := flags[i - size]):
            matches -= 1
            counts[gone] -= 1
            distinct -= counts[gone] == 0
        if i >= size - 1 or i == n - 1:
            score = 3 * distinct + matches
            if score > best[0]:
                best = (score, max(0, i - size + 1), i)
    return best


def _cut(text: _Text, marks: set[str], first: int, last: int) -> tuple[Part, ...]:
    if not text.words:
        return ((text.text, False),) if text.text else ()
    start = 0 if first == 0 else text.words[first][0]
    end = len(text.text) if last >= len(text.words) - 1 else text.words[last][1]
    if end < len(text.text) and not text.text[end].isspace():
        end += 1  # keep the punctuation that ends the last word
    parts = list(_highlight(text, marks, start, end))
    if first > 0:
        parts.insert(0, ("… ", False))
    if end < len(text.text.rstrip()):
        parts.append((" …", False))
    return tuple(parts)


def _snippet(row: _Row, marks: set[str]) -> tuple[tuple[Part, ...], str | None]:
    """The short passage of a section that best shows why it matched, and the heading it is under."""
    candidates = [(None, row.summary, frozenset())] + list(row.blocks)
    best = None
    for anchor, text, heading in candidates:
        score, first, last = _window(text, marks, SNIPPET_WORDS)
        score += 3 * len(heading & marks)
        if best is None or score > best[0]:
            best = (score, anchor, text, first, last)
    score, anchor, text, first, last = best
    if score == 0:
        text, anchor, first, last = row.summary, None, 0, SNIPPET_WORDS + 8
    return _cut(text, marks, first, last), anchor
