"""Reading a query: its words into groups of alternatives, each drawn from the index's vocabulary.

What it holds: `Group` (one word of the question and the stems that satisfy it) and `Plan` (the
groups, and the runs of stems that count as phrases), and `ReadingIndex`, the built index that reads
a question into a plan per game and language:
- the word being typed, and an unknown word of 3+ letters, also stand for the content words it starts;
- an unknown word of 4+ letters is corrected to the nearest content words (1 edit for 4-5 letters, 2
  from 6), with RapidFuzz's optimal string alignment distance;
- players' words from the synonym table add the rules' words, as phrases; adjacent words also count
  as a phrase;
- the plan becomes an FTS5 MATCH expression (`_match_expression`).

Scoring what the expression finds is ranking.py's job.
"""
from __future__ import annotations

import bisect
from dataclasses import dataclass
from functools import lru_cache
from typing import Iterable

from rapidfuzz import process
from rapidfuzz.distance import OSA

from . import analysis
from .analysis import is_stop, stem
from .indexing import BuiltIndex

MAX_QUERY = 120  # characters: a question, not an essay
MAX_WORDS = 12
PREFIX_ALTERNATIVES = 8  # content words a word being typed may stand for, most frequent first
ELIDED = frozenset("cdjlmnst")  # the letters French elides before a vowel: l'abysse, j'ai, d'armure, qu'il
ELIDED_ONTO = frozenset({"ai", "as", "avais", "avait", "il", "ils", "elle", "elles", "on", "en", "est", "etait", "y", "un", "une"})


@dataclass
class Group:
    """One word of the query and the stems that satisfy it."""

    word: str
    primary: str
    stems: set[str]
    corrected: str | None = None


@dataclass
class Plan:
    """A question as read for one game and language."""

    groups: list[Group]
    phrases: list[tuple[tuple[str, ...], tuple[int, ...]]]  # stems in a row, and the groups they satisfy

    def highlight(self) -> set[str]:
        out = {s for g in self.groups for s in g.stems}
        out.update(s for stems, _ in self.phrases for s in stems)
        return out


class ReadingIndex(BuiltIndex):
    """The index, reading questions against its vocabulary and synonyms (each reading cached)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._plan = lru_cache(maxsize=4096)(self._plan_uncached)
        self._nearest = lru_cache(maxsize=4096)(self._nearest_uncached)

    def unelided(self, folded: str) -> str:
        """The folded question with each elision typed without its apostrophe split off: "labysse" is
        "l abysse", "jai" is "j ai", "darmure" is "d armure". Only a word no language knows, whose
        rest after the elided letter (or "qu") is a word of the French content or one of the short
        words elided onto ("ai", "il", "en"...); and "je" typed as "j" before a consonant, as it is said
        ("jpioche" is "je pioche"), when the rest is a word of the French content."""
        out = []
        for w in analysis.words(folded):
            cut = 2 if w.startswith("qu") else 1
            rest = w[cut:]
            unknown = not is_stop(w) and not any(self._known(w, lang) for lang in analysis.LANGS)
            if (len(w) >= 3 and w[0] in ELIDED and rest[:1] in "aeiouyh" and unknown
                    and (rest in ELIDED_ONTO or self._known(rest, "fr"))):
                w = rest
            elif len(w) >= 5 and w[0] == "j" and rest[:1] not in "aeiouyh" and unknown and self._known(rest, "fr"):
                w = rest  # "je" said as "j'" before a consonant too: "jpioche", "jpose", "jcompte"
            out.append(w)
        return " ".join(out)

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

    def _derived_from(self, word: str, lang: str) -> str | None:
        """The verb of the content an unknown "-able" word is made from: "jouable" is "jouer",
        "piochable" "piocher", "playable" "play", "usable" "use" (before any typo guess, which would
        read "jouable" as "double")."""
        for suffix in ("ables", "able", "ibles", "ible"):
            if word.endswith(suffix) and len(word) - len(suffix) >= 3:
                root = word[:-len(suffix)]
                for base in ((root + "er", root + "ir") if lang == "fr" else (root, root + "e")):
                    if base in self.vocab[lang]:
                        return base
        return None

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

    def _plan_uncached(self, folded: str, typing: bool, game: str, lang: str) -> Plan:
        words = [w for w in analysis.words(folded) if not is_stop(w)][:MAX_WORDS]
        others = [o for o in analysis.LANGS if o != lang]
        groups = []
        for i, w in enumerate(words):
            own = stem(w, lang)
            group = Group(w, own, {own})
            being_typed = typing and i == len(words) - 1
            if self._known(w, lang):
                if being_typed:
                    group.stems.update(stem(x, lang) for x in self._starting_with(w, lang))
            elif any(self._known(w, o) for o in others):
                pass  # a word of the other language: no guessing in this one
            elif (starting := self._starting_with(w, lang)) and (being_typed or len(w) >= 3):
                group.stems.update(stem(x, lang) for x in starting)
            elif base := self._derived_from(w, lang):
                group.primary = stem(base, lang)
                group.stems = {group.primary}
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
        return Plan(groups, phrases)

    @staticmethod
    def _match_expression(plan: Plan) -> str:
        def quoted(stems: Iterable[str]) -> str:
            return '"' + " ".join(stems).replace('"', '""') + '"'

        alternatives = {quoted([s]) for g in plan.groups for s in g.stems}
        alternatives.update(quoted(stems) for stems, _ in plan.phrases)
        return " OR ".join(sorted(alternatives))
