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

Each hit carries its title and a short snippet as (text, highlighted) parts: the web layer escapes
every part and wraps the highlighted ones in <mark>, so neither content nor query can inject HTML.
Pure: no Flask import.
"""
from __future__ import annotations

import bisect
import pathlib
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

from . import analysis
from .analysis import fold, is_stop, stem
from .content import Section

SYNONYMS = pathlib.Path(__file__).resolve().parent / "synonyms.yaml"
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
COVERAGE = 2.0  # a section that answers all the query's words scores (1 + COVERAGE) times its bm25
SNIPPET_WORDS = 22

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

    def __init__(self, table: Mapping[str, Mapping[str, Mapping[str, object]]] | None = None):
        self.table: dict[tuple[str, str], list[tuple[tuple[str, ...], list[tuple[str, ...]]]]] = {}
        self.words: dict[str, Counter] = {lang: Counter() for lang in analysis.LANGS}
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
    def read(cls, path: pathlib.Path = SYNONYMS) -> Synonyms:
        return cls(yaml.safe_load(path.read_text(encoding="utf-8")) or {})

    def entries(self, game: str, lang: str):
        return self.table.get((game, lang), []) + self.table.get(("all", lang), [])


class Index:
    """The search index of a set of sections (every game, every language)."""

    def __init__(self, sections: Iterable[Section], synonyms: Synonyms | None = None):
        self.synonyms = synonyms or Synonyms()
        self.rows: list[_Row] = []
        self.ranges: dict[tuple[str, str], tuple[int, int]] = {}  # (game, lang) -> rowid range
        vocab: dict[str, Counter] = {lang: Counter() for lang in analysis.LANGS}
        for lang in analysis.LANGS:
            for w in self.synonyms.words[lang]:
                vocab[lang][w] = max(vocab[lang][w], VOCAB_WEIGHTS["synonyms"] * 1000)
        ordered = sorted(sections, key=lambda s: (s.game, s.lang, s.order, s.slug))
        db = sqlite3.connect(":memory:")
        cols = ", ".join(WEIGHTS)
        db.execute(f"CREATE VIRTUAL TABLE docs USING fts5({cols}, tokenize='unicode61 remove_diacritics 2')")
        for rowid, sec in enumerate(ordered, start=1):
            lang = sec.lang
            fields = {
                "title": sec.title, "keywords": " ; ".join(sec.keywords), "terms": " ; ".join(sec.terms),
                "grp": sec.group, "summary": sec.summary, "body": sec.text,
            }
            for name, text in fields.items():
                for w in analysis.words(text):
                    if not is_stop(w):
                        vocab[lang][w] = max(vocab[lang][w], VOCAB_WEIGHTS[name] * 1000) + 1
            stemmed = {k: " ".join(analysis.terms(v, lang)) for k, v in fields.items()}
            db.execute(f"INSERT INTO docs(rowid, {cols}) VALUES (?, {', '.join('?' * len(WEIGHTS))})",
                       (rowid, *stemmed.values()))
            blocks = tuple(
                (b.anchor, _Text.of(b.text, lang), frozenset(analysis.terms(b.heading, lang)))
                for b in sec.blocks
            )
            self.rows.append(_Row(
                game=sec.game, slug=sec.slug, lang=lang, title=_Text.of(sec.title, lang),
                summary=_Text.of(sec.summary, lang), blocks=blocks,
                stems=frozenset(s for v in stemmed.values() for s in v.split()),
            ))
            first, _ = self.ranges.get((sec.game, lang), (rowid, rowid))
            self.ranges[(sec.game, lang)] = (first, rowid)
        db.execute("INSERT INTO docs(docs) VALUES ('optimize')")
        db.commit()
        self._image = db.serialize()
        db.close()
        self.vocab = vocab
        self.sorted_vocab = {lang: sorted(v) for lang, v in vocab.items()}
        self.vocab_list = {lang: list(v) for lang, v in vocab.items()}
        self.stems = {lang: {stem(w, lang) for w in v} for lang, v in vocab.items()}
        self._local = threading.local()
        self._plan = lru_cache(maxsize=4096)(self._plan_uncached)
        self._nearest = lru_cache(maxsize=4096)(self._nearest_uncached)
        self._sql = (f"SELECT rowid, bm25(docs, {', '.join(map(str, WEIGHTS.values()))}) AS score FROM docs "
                     f"WHERE docs MATCH ? AND rowid BETWEEN ? AND ? ORDER BY score LIMIT {CANDIDATES}")

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
        scored = []
        for lang in langs:
            found = process.extract(word, self.vocab_list[lang], scorer=OSA.distance, score_cutoff=limit, limit=20)
            scored.extend(((d, w[0] != word[0], analysis.typo_cost(word, w), -self.vocab[lang][w]), lang, w)
                          for w, d, _ in found)
        if not scored:
            return {}
        scored.sort()
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
        """The share of the query's words a section answers (directly or through a synonym)."""
        met = {i for i, g in enumerate(plan.groups) if g.stems & row.stems}
        for stems, covered in plan.phrases:
            if row.stems.issuperset(stems):
                met.update(covered)
        return len(met) / len(plan.groups)

    # -- searching ---------------------------------------------------------------------------------

    def search(self, query: str, games: Sequence[str] | None = None, lang: str = "en",
               limit: int = LIMIT) -> Result:
        """The sections that answer `query`, best first, in the given games (all when None).

        `lang` is the reader's language: a section written in it is shown in it (Hit.lang says which).
        """
        query = query[:MAX_QUERY]
        folded = fold(query)
        typing = bool(query) and not query[-1].isspace()
        found: dict[tuple[str, str], dict[str, tuple[float, float, _Plan, int]]] = {}
        corrections: dict[str, str] = {}
        db = self._db()
        for game in (games if games is not None else self.games):
            for row_lang in self.languages(game):
                plan = self._plan(folded, typing, game, row_lang)
                if not plan.groups:
                    continue
                first, last = self.ranges[(game, row_lang)]
                rows = db.execute(self._sql, (self._match_expression(plan), first, last)).fetchall()
                for rowid, bm25 in rows:
                    row = self.rows[rowid - 1]
                    coverage = self._coverage(plan, row)
                    score = -bm25 * (1 + COVERAGE * coverage)
                    found.setdefault((game, row.slug), {})[row_lang] = (score, coverage, plan, rowid)
                if rows:
                    for g in plan.groups:
                        if g.corrected:
                            corrections.setdefault(g.word, g.corrected)
        # A section found in several languages counts once, at its best score; it is shown in the
        # reader's language unless the other version answers more of the query's words (a French
        # question on an English page shows the French title and text, where its words are marked).
        ranked = sorted(found.items(), key=lambda kv: (-max(v[0] for v in kv[1].values()), kv[0]))[:limit]
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
