"""Building the rules search index: documents, their fields, stems and vocabulary.

What it holds:
- the synonym table (`Synonyms`, synonyms.yaml plus each game's glossary read both ways) and the
  package's other data the index reads: concept maps (`read_concepts`), glossaries and game names;
- `BuiltIndex`, the index as built from a set of sections: an FTS5 table with one row per section and
  language (its fields stemmed by `analysis`), the `Row` kept for each (its shown texts, stems, names,
  phrases, situations, sentences), each language's vocabulary of the content and the synonyms (what
  prefixes and typos are read against), the rowid range of each game and language, and a copy of the
  database per thread.

Reading a query is query.py's job, scoring the sections ranking.py's; neither is imported here.
"""
from __future__ import annotations

import pathlib
import re
import sqlite3
import threading
from collections import Counter
from dataclasses import dataclass, field
from typing import Iterable, Mapping, Sequence

from . import analysis, content, yamlfile
from .analysis import fold, is_stop, stem
from .content import Section
from .learned import Learned

SYNONYMS = pathlib.Path(__file__).resolve().parent / "synonyms.yaml"
GLOSSARY = content.GLOSSARY
CONCEPTS = pathlib.Path(__file__).resolve().parent / "concepts"
# The FTS5 table's columns, in order (their bm25 weights are ranking.py's WEIGHTS).
FIELDS = ("title", "keywords", "terms", "grp", "summary", "body")
# Which content words to prefer when guessing a typo or the end of a word being typed: the words of
# titles, terms and keywords (then the synonym table, summaries, bodies) are what players look for;
# among equals, the more frequent. A word's weight is 1000 x its best place + its occurrences.
VOCAB_WEIGHTS = {"title": 5, "keywords": 5, "terms": 5, "grp": 1, "summary": 2, "body": 1, "synonyms": 3}
# A section with HUB_LINKS links or more is a hub: it names many rules without answering them (its
# score counts ranking.py's HUB).
HUB_LINKS = 5
SENTENCE_END = re.compile(r"(?<=[.;:!?·])\s+|\s+[–-]\s+")


@dataclass(frozen=True)
class Text:
    """A shown text, its words (start, end, stem or None) and the set of its stems."""

    text: str
    words: tuple[tuple[int, int, str | None], ...]
    stems: frozenset[str]

    @classmethod
    def of(cls, text: str, lang: str) -> Text:
        words = analysis.spans(text, lang)
        return cls(text, words, frozenset(s for _, _, s in words if s))


@dataclass(frozen=True)
class Row:
    """A section in one language as the index keeps it, to rank it and show it."""

    game: str
    slug: str
    lang: str
    title: Text
    summary: Text
    blocks: tuple[tuple[str | None, Text, frozenset[str]], ...]  # anchor, text, heading stems
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
        table = yamlfile.load(path.read_text(encoding="utf-8")) or {}
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
        data = yamlfile.load(path.read_text(encoding="utf-8")) or {}
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


class BuiltIndex:
    """The search index of a set of sections (every game, every language), as built."""

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
        self.rows: list[Row] = []
        self.ranges: dict[tuple[str, str], tuple[int, int]] = {}  # (game, lang) -> rowid range
        vocab: dict[str, Counter] = {lang: Counter() for lang in analysis.LANGS}
        for lang in analysis.LANGS:
            for w in self.synonyms.words[lang]:
                vocab[lang][w] = max(vocab[lang][w], VOCAB_WEIGHTS["synonyms"] * 1000)
        ordered = sorted(sections, key=lambda s: (s.game, s.lang, s.order, s.slug))
        written: dict[str, set[str]] = {lang: set() for lang in analysis.LANGS}  # words of the content
        db = sqlite3.connect(":memory:")
        cols = ", ".join(FIELDS)
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
            db.execute(f"INSERT INTO docs(rowid, {cols}) VALUES (?, {', '.join('?' * len(FIELDS))})",
                       (rowid, *(stemmed[f] for f in FIELDS)))
            blocks = tuple(
                (b.anchor, Text.of(b.text, lang), frozenset(analysis.terms(b.heading, lang)))
                for b in sec.blocks
            )
            own = {s for n in (sec.title, *sec.terms) for s in analysis.terms(n, lang)}
            self.rows.append(Row(
                game=sec.game, slug=sec.slug, lang=lang, title=Text.of(sec.title, lang),
                summary=Text.of(sec.summary, lang), blocks=blocks,
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
        # The words of a game's own section titles and terms that no other game's content has
        # ("duel", "scheme", "abysse"): a question that says one is about that game.
        self.own_words: dict[tuple[str, str], set[str]] = {}
        for row in self.rows:
            self.own_words.setdefault((row.game, row.lang), set()).update(s for n in row.names for s in n)
        for (game, lang), mine in self.own_words.items():
            for (other, other_lang), theirs in self.game_stems.items():
                if other != game and other_lang == lang:
                    mine -= theirs
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

