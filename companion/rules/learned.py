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
probability over the hits being reordered. It reads a question as the search does (set phrases
dropped, elisions typed without an apostrophe split, counts in words as digits), and counts what
kind of question it is and a few everyday words (a tie, the end, an empty pile) as words both
languages share, so English questions teach French ones (issue 36).

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
# counts each kind as one word shared by English and French (issue 36). "si"/"if" asks what happens
# in a case, "quel"/"which" picks among things.
ASKS = {
    "count": ("combien", "cmb", "cbm", "cb", "cbien", "nombre", "nb", "nbr"),
    "who": ("qui", "ki", "who", "whos", "whom"),
    "when": ("quand", "qd", "kan", "when", "whens"),
    "why": ("pourquoi", "pk", "pq", "pkoi", "why"),
    "how": ("comment", "cmt", "how", "hows"),
    "can": ("can", "cant", "peux", "peut", "jpeux", "pouvons", "pouvez", "peuvent", "allowed"),
    "must": ("must", "dois", "doit", "jdois", "faut", "oblige", "obligatoire", "forced"),
    "where": ("where", "wheres"),  # and "ou" when it is "où" (see `asks`)
    "what": ("quoi", "koi", "what", "whats", "wat"),
    "if": ("if", "si", "sil", "sils"),
    "which": ("which", "quel", "quelle", "quels", "quelles", "lequel", "laquelle", "lesquels", "lesquelles",
              "kel", "kelle"),
}
# Everyday words of a rules question that both languages say of the same sections (ties, the end,
# the start, winning, an empty pile, what is left, points, the box): each set is one more word the
# model counts in both languages, so English questions teach French ones and the other way round.
SHARED = {
    "tie": ("tie", "tied", "ties", "tiebreak", "tiebreaker", "egalite", "egalites", "egaux", "aequo",
            "departage", "departager", "departagent"),
    "end": ("end", "ends", "ending", "over", "finish", "finished", "fin", "fini", "finit", "finie", "termine",
            "terminee", "finir", "terminer", "arrete", "sarrete"),
    "start": ("start", "starts", "begin", "begins", "beginning", "debut", "commence", "commencer", "demarre"),
    "win": ("win", "wins", "won", "winner", "winning", "victory", "gagne", "gagner", "gagnant", "gagnante",
            "victoire", "vainqueur"),
    "empty": ("empty", "vide", "vides", "epuise", "epuisee"),
    "left": ("left", "remaining", "remain", "remains", "reste", "restent", "restant", "restants"),
    "points": ("points", "point", "pts", "score", "scores", "scoring", "worth", "vaut", "valent", "rapporte",
               "rapportent"),
    "box": ("box", "components", "pieces", "boite", "materiel", "matos", "composants", "contenu"),
}
# A tie said without its word: "meme score", "same points".
TIE_PHRASES = {("meme", "score"), ("meme", "points"), ("same", "score"), ("same", "points")}
_SHARED = {w: f"={kind}" for kind, ws in SHARED.items() for w in ws}
# "ou pas", "ou bien", "ou plus": "or", not "where".
_OR_AFTER = frozenset({"pas", "non", "bien", "alors", "plutot", "meme", "moins", "plus"})
COUNT_PHRASES = (("how", "many"), ("how", "much"), ("how", "long"))
_ASKED = {w: f"?{kind}" for kind, ws in ASKS.items() for w in ws}


def asks(text: str | Sequence[str]) -> list[str]:
    """The kinds of question a text (or its folded words) asks, as pseudo-words ("?count", "?who"):
    "how many" is a count, not a "how". "ou" typed without its accent is "où" (where) except where it
    is plainly "or": before "pas", "non", "bien", "plus"... or next to a number ("on continue ou pas",
    "3 ou 4")."""
    words = analysis.words(text) if isinstance(text, str) else list(text)
    out = []
    for i, w in enumerate(words):
        if tuple(words[i:i + 2]) in COUNT_PHRASES:
            out.append("?count")
        elif w in _ASKED:
            out.append(_ASKED[w])
        elif w == "ou" and not (words[i + 1:i + 2] and (words[i + 1] in _OR_AFTER or words[i + 1].isdigit())
                                or i and words[i - 1].isdigit()):
            out.append("?where")
    return out


ELIDED = frozenset("cdjlmnst")  # French elides these before a vowel: l'abysse, j'ai, d'armure, qu'il


def said(text: str, known: frozenset[str] = frozenset()) -> list[str]:
    """The folded words of a question as the model reads them, the way the search reads them too:
    set phrases that only mean "how does it work" dropped ("du coup", "ca marche"), an elision typed
    without its apostrophe split off when the rest is a French word of the content (`known`, French
    stems: "labysse" is "abysse", "jpioche" is "pioche"), and a count said in words as its digits
    ("deux joueurs" is "2 joueurs", "on est cinq" is "on est 5"), so that each is one word in both
    languages (issue 36)."""
    out = []
    for w in analysis.words(analysis.drop_idioms(analysis.fold(text))):
        if known and not analysis.is_stop(w) and analysis.stem(w, "fr") not in known:
            cut = 2 if w.startswith("qu") else 1
            rest = w[cut:]
            if len(w) >= 3 and w[0] in ELIDED and rest[:1] in "aeiouyh" and analysis.stem(rest, "fr") in known:
                w = rest
            elif len(w) >= 5 and w[0] == "j" and rest[:1] not in "aeiouyh" and analysis.stem(rest, "fr") in known:
                w = rest
        n = analysis.NUMBER_WORDS.get(w, 0)
        out.append(str(n) if n > 1 else w)
    return out


def features(text: str, lang: str, known: frozenset[str] = frozenset()) -> list[str]:
    """What the model counts of a question: its stems, the kinds of question it asks ("?count"), and
    the everyday words both languages share ("=tie", "=empty"), each as read by `said`."""
    words = said(text, known if lang == "fr" else frozenset())
    return ([analysis.stem(w, lang) for w in words if not analysis.is_stop(w)] + asks(words)
            + [_SHARED[w] for w in words if w in _SHARED]
            + ["=tie" for pair in zip(words, words[1:]) if pair in TIE_PHRASES])


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
        known: set[str] = set()  # the French stems of the content, which an elision typed without its
        for sec in sections:     # apostrophe is cut onto ("labysse")
            named = (sec.title, *sec.terms, *sec.keywords, *(concepts or {}).get((sec.game, sec.lang, sec.slug), ()))
            bag = self.counts.setdefault((sec.game, sec.slug), Counter())
            for text in named:
                bag.update(analysis.terms(text, sec.lang))
            body = analysis.terms(f"{sec.summary} {sec.text}", sec.lang)
            for st, n in Counter(body).items():
                bag[st] += TEXT * n
            if sec.lang == "fr":
                known.update(analysis.terms(sec.title, "fr"), body)
        self.known = frozenset(known)
        for ex in examples:
            self.counts.setdefault((ex.game, ex.slug), Counter()).update(features(ex.text, ex.lang, self.known))
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
        stems = [s for s in features(question, lang, self.known) if s in self.rarity]
        logs = {}
        for key in keys:
            bag, total = self.counts.get(key, Counter()), self.totals.get(key, 0)
            denominator = total + SMOOTHING * VOCABULARY
            logs[key] = sum(self.rarity[s] * math.log((bag[s] + SMOOTHING) / denominator) for s in stems)
        top = max(logs.values())
        weights = {k: math.exp(v - top) for k, v in logs.items()}
        total = sum(weights.values())
        return {k: w / total for k, w in weights.items()}
