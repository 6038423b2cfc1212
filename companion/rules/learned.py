"""What players asked, and the section that answered: the search learns which words point where.

questions/<part>/<game>.yaml holds players' questions, written from the rulebooks the way players
type them at the table, each labelled with the section that answers it (`tune` and `dev`, the parts
the search is tuned on; the held-out questions that measure it live in the tests and are never read
here). A multinomial naive Bayes model is counted from them, together with every section's title,
terms, keywords and concept-map situations, and, weighing less, its summary and body: for each
section, how often each stem is said about it.

bm25 knows which words a section's text uses; this model knows which words players use when that
section is the answer, including words the section never says ("flip the whole pile" for Doubting).
The search (`search.Index`) asks it to reorder its best hits only, so it refines a ranking and never
brings in a section the question has no word of. A question's words are weighed by how rare they
are across sections (a word said about every section tells nothing), and the answer is a
probability over the hits being reordered.

Pure: no Flask import.
"""
from __future__ import annotations

import math
import pathlib
from collections import Counter
from dataclasses import dataclass
from typing import Iterable, Mapping, Sequence

from . import analysis, yamlfile
from .content import Section

QUESTIONS = pathlib.Path(__file__).resolve().parent / "questions"
PARTS = ("tune", "dev")
TEXT = 0.3  # what a section's summary and body say counts this much, against what is said about it
SMOOTHING = 0.1  # added to every stem's count (Lidstone), so an unseen stem is unlikely, not impossible
VOCABULARY = 5000  # the smoothing's vocabulary size: about the stems of all questions and sections

Key = tuple[str, str]  # (game, slug)

# What a question asks for, said in question words that are stop words to bm25 (they are in every
# language and every section): "combien"/"cmb"/"how many" ask for a count, "qui"/"who" for a person,
# "quand"/"when" for a moment... Players of both languages ask the same section with the same kind
# of question ("who starts" is the first player's section, "how many" a setup's), so the model
# counts each kind as one word shared by English and French (issue 36).
ASKS = {
    "count": ("combien", "cmb", "cbm", "cb", "cbien", "nombre", "nb", "nbr"),
    "who": ("qui", "ki", "who", "whos", "whom"),
    "when": ("quand", "qd", "kan", "when", "whens"),
    "why": ("pourquoi", "pk", "pq", "pkoi", "why"),
    "how": ("comment", "cmt", "how", "hows"),
    "can": ("can", "cant", "peux", "peut", "jpeux", "pouvons", "pouvez", "peuvent", "allowed"),
    "must": ("must", "dois", "doit", "jdois", "faut", "oblige", "obligatoire", "forced"),
    "where": ("ou", "where", "wheres"),
    "what": ("quoi", "koi", "what", "whats", "wat"),
}
COUNT_PHRASES = (("how", "many"), ("how", "much"), ("how", "long"))
_ASKED = {w: f"?{kind}" for kind, ws in ASKS.items() for w in ws}


def asks(text: str) -> list[str]:
    """The kinds of question a text asks, as pseudo-words ("?count", "?who"): "how many" is a count,
    not a "how"."""
    words = analysis.words(text)
    out = []
    for i, w in enumerate(words):
        if tuple(words[i:i + 2]) in COUNT_PHRASES:
            out.append("?count")
        elif w in _ASKED:
            out.append(_ASKED[w])
    return out


def features(text: str, lang: str) -> list[str]:
    """What the model counts of a question: its stems and the kinds of question it asks."""
    return analysis.terms(text, lang) + asks(text)


@dataclass(frozen=True)
class Example:
    game: str
    slug: str
    lang: str
    text: str


def read_questions(folder: pathlib.Path = QUESTIONS, parts: Sequence[str] = PARTS) -> list[Example]:
    """Every labelled question of `parts`: questions/<part>/<game>.yaml, lists of {q, expect, lang?}."""
    out = []
    for part in parts:
        for path in sorted((pathlib.Path(folder) / part).glob("*.yaml")):
            for item in yamlfile.load(path.read_text(encoding="utf-8")) or []:
                out.append(Example(path.stem, str(item["expect"]), str(item.get("lang", "en")), str(item["q"])))
    return out


class Learned:
    """Counts of the stems said about each section, and the probability a question is about each of
    a few sections."""

    def __init__(self, examples: Iterable[Example] = (), sections: Iterable[Section] = (),
                 concepts: Mapping[tuple[str, str, str], Sequence[str]] | None = None):
        self.counts: dict[Key, Counter] = {}
        for sec in sections:
            said = (sec.title, *sec.terms, *sec.keywords, *(concepts or {}).get((sec.game, sec.lang, sec.slug), ()))
            bag = self.counts.setdefault((sec.game, sec.slug), Counter())
            for text in said:
                bag.update(analysis.terms(text, sec.lang))
            for st, n in Counter(analysis.terms(f"{sec.summary} {sec.text}", sec.lang)).items():
                bag[st] += TEXT * n
        for ex in examples:
            self.counts.setdefault((ex.game, ex.slug), Counter()).update(features(ex.text, ex.lang))
        self.totals = {key: sum(bag.values()) for key, bag in self.counts.items()}
        sections_with = Counter(s for bag in self.counts.values() for s in bag)
        n = len(self.counts)
        self.rarity = {s: math.log(1 + n / k) for s, k in sections_with.items()}

    def __bool__(self) -> bool:
        return bool(self.counts)

    def probabilities(self, question: str, lang: str, keys: Sequence[Key]) -> dict[Key, float]:
        """{key: P(the question is about that section)}, over `keys` only."""
        if not keys:
            return {}
        stems = [s for s in features(question, lang) if s in self.rarity]
        logs = {}
        for key in keys:
            bag, total = self.counts.get(key, Counter()), self.totals.get(key, 0)
            denominator = total + SMOOTHING * VOCABULARY
            logs[key] = sum(self.rarity[s] * math.log((bag[s] + SMOOTHING) / denominator) for s in stems)
        top = max(logs.values())
        weights = {k: math.exp(v - top) for k, v in logs.items()}
        total = sum(weights.values())
        return {k: w / total for k, w in weights.items()}
