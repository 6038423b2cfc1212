"""Words as the search engine sees them: folded (no case, no accents), stop words dropped, stemmed
with the Snowball stemmer of the text's language (English or French).

The same steps run on the content when the index is built and on what the player types, so
"Stones", "stone" and "STONES" meet, and so do "péchés", "peches" and "péché".
Pure: no Flask import.
"""
from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import Sequence

import Stemmer

LANGS = ("en", "fr")
_STEMMERS = {"en": Stemmer.Stemmer("english"), "fr": Stemmer.Stemmer("french")}

# A word: letters and digits of any script (apostrophes and hyphens split words: "l'Abysse" is
# "l" + "Abysse", "tie-break" is "tie" + "break").
WORD_RE = re.compile(r"[^\W_](?:[^\W_]|[\u0300-\u036f])*")

# Words that carry no meaning for a rules question, in their folded form. Both languages' lists
# apply to every query: a French "de" must not be read as the start of the English "deck".
# Game words stay searchable even when common ("first", "last", "end", "most", "turn"...).
STOP_WORDS = frozenset("""
a about am an and any are as at be been being but by can cannot could did do does doing done for
from had has have having he her here hers him his how i if in into is it its itself just let me my
myself of on or our ours should so such than that the their theirs them then there these they this
those to too very was we were what whats when where which while who whom whose why will with would
you your yours ll re ve isn aren doesn don didn wasn weren won wouldn shouldn couldn hasn haven
many much please happens happen tell explain mean means
au aux avec ce ces cet cette ci dans de des du elle elles en et eux il ils je la le les leur leurs
lui ma mais me meme mes moi mon ne nos notre nous on ou par pas pour qu que quel quelle quelles quels
qui sa se ses son sur ta te tes toi ton tu un une vos votre vous c d j l m n s t y est sont suis es
ai avons avez ont etre ete peut peux puis combien comment quoi quand pourquoi ca cela si dois doit
faut fait faire
""".split()) | frozenset(
    # What players type in a chat instead of the words above, or as filler: "im", "u", "tho", "idk";
    # "jai" (j'ai), "ya" (il y a), "jsp" (je sais pas), "pk" (pourquoi), "cest", "chui", "stp".
    """
im ive id u ur r tho tbh idk lol gonna wanna pls plz ok okay yeah yep dunno dont doesnt
isnt didnt wont hows wheres theres thats whos wat wut
jai ya yen jsp jsais jsuis chui pk pq pcq pcke cest ct sil quil jpeux jdois ptet tkt stp svp bah ben
genre truc trucs qd ds pr mm tt qqn qqch
""".split())


# Set phrases that only mean "what happens" or "how does it work", whose words would otherwise count
# ("passe" is a round of a City of Five Sails duel; "ca marche", "does that work", is no walk; "du
# coup", "so", is no blow): dropped from questions, in folded form.
IDIOMS = re.compile(r"\b(?:(?:ca |cela )?se passe(?: t il)?|passe t il|comment ca marche|ca marche(?: comment)?|du coup)\b")


def drop_idioms(folded: str) -> str:
    """A folded question without the set phrases of IDIOMS."""
    return IDIOMS.sub(" ", re.sub(r"[-']", " ", folded))


# Letters that no accent-stripping splits, spelled as phones type them: "cœur" is typed "coeur".
_LIGATURES = str.maketrans({"œ": "oe", "æ": "ae"})


def fold(text: str) -> str:
    """Lowercase without accents, ligatures spelled out: "Péchés" -> "peches", "Cœur" -> "coeur"."""
    if text.isascii():  # most English text: nothing to decompose, and casefold is lower for ASCII
        return text.lower()
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold().translate(_LIGATURES)


def words(text: str) -> list[str]:
    """The folded words of a text."""
    return WORD_RE.findall(fold(text))


def is_stop(word: str) -> bool:
    """A folded word that is left out of the index and of queries."""
    return word in STOP_WORDS or (len(word) == 1 and not word.isdigit())


@lru_cache(maxsize=50_000)
def stem(word: str, lang: str) -> str:
    """The Snowball stem of a folded word in `lang` ("forgiveness" -> "forgiv")."""
    if word.isdigit():
        return word
    return _STEMMERS[lang].stemWord(word)


def terms(text: str, lang: str) -> list[str]:
    """The stems of a text's meaningful words, in order."""
    return [stem(w, lang) for w in words(text) if not is_stop(w)]


def spans(text: str, lang: str) -> tuple[tuple[int, int, str | None], ...]:
    """Each word of a text as shown: (start, end, stem), stem None for a stop word.

    Offsets are into the original text (folding can change a string's length, so each word is
    folded on its own), which lets a snippet highlight words without touching anything else.
    """
    out = []
    for m in WORD_RE.finditer(text):
        w = fold(m.group())
        out.append((m.start(), m.end(), None if is_stop(w) else stem(w, lang)))
    return tuple(out)


# Keys next to each other on QWERTY and AZERTY phones: hitting the neighbour is the likeliest slip.
_ROWS = ("qwertyuiop", "asdfghjkl", "zxcvbnm", "azertyuiop", "qsdfghjklm", "wxcvbn")


def _neighbours() -> dict[str, set[str]]:
    near: dict[str, set[str]] = {}
    for row in _ROWS:
        for a, b in zip(row, row[1:]):
            near.setdefault(a, set()).add(b)
            near.setdefault(b, set()).add(a)
    for upper, lower in (("qwertyuiop", "asdfghjkl"), ("asdfghjkl", "zxcvbnm"),
                         ("azertyuiop", "qsdfghjklm"), ("qsdfghjklm", "wxcvbn")):
        for i, a in enumerate(upper):
            for b in lower[max(0, i - 1):i + 1]:
                near.setdefault(a, set()).add(b)
                near.setdefault(b, set()).add(a)
    return near


NEIGHBOURS = _neighbours()


def typo_cost(typed: str, word: str) -> float:
    """How likely `typed` is a slip for `word`: an edit distance where swapping two letters (0.5)
    or hitting a neighbouring key (0.6) costs less than any other substitution (1), a missing
    or extra letter costing 0.8. Only used to choose between candidates equally far by count."""
    n, m = len(typed), len(word)
    d = [[0.0] * (m + 1) for _ in range(n + 1)]
    for i in range(n + 1):
        d[i][0] = i * 0.8
    for j in range(m + 1):
        d[0][j] = j * 0.8
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            a, b = typed[i - 1], word[j - 1]
            sub = 0.0 if a == b else (0.6 if b in NEIGHBOURS.get(a, ()) else 1.0)
            d[i][j] = min(d[i - 1][j] + 0.8, d[i][j - 1] + 0.8, d[i - 1][j - 1] + sub)
            if i > 1 and j > 1 and a == word[j - 2] and typed[i - 2] == b:
                d[i][j] = min(d[i][j], d[i - 2][j - 2] + 0.5)
    return d[n][m]


# How many play, as questions say it (the search's player-count filter and the learned model read it).
PLAYER_WORDS = frozenset({"player", "players", "ppl", "people", "persons", "peeps", "joueur", "joueurs",
                          "joueuse", "joueuses", "personnes", "pers"})
SAYS_HOW_MANY = {("we", "are"), ("we", "re"), ("we", "were"), ("on", "est"), ("nous", "sommes"),  # ... 3
                 ("est", "a"), ("sommes", "a"), ("joue", "a"), ("jouer", "a"), ("jouons", "a")}  # "on est a 6", "on joue a 4"
# French says a count alone after "à" (typed "a") or "pour": "combien de pierres a 2". English "a 7" is a card.
ALONE_COUNT = frozenset({"a", "pour"})
NUMBER_WORDS = {w: n for n, ws in enumerate((
    (), ("one", "un", "une"), ("two", "deux"), ("three", "trois"), ("four", "quatre"), ("five", "cinq"),
    ("six",), ("seven", "sept"), ("eight", "huit"), ("nine", "neuf"), ("ten", "dix"))) for w in ws}


def player_count(words: Sequence[str], lang: str | None = None) -> int | None:
    """The number of players a question is about, when it says one: "7 ppl", "4p", "three players",
    "3 of us", "we are 3", "on est 6", "nous sommes 4"; in a French question (`lang` "fr") also a count
    said alone after "à" or "pour" ("pierres a 2")."""
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
        # "a 2", "à 2", "a deux", "pour 4": a count said on its own, at the end of the question or before
        # a word that is no noun ("a 3 on prend combien"), is how many play (issue 36).
        if lang == "fr" and before[-1:] and before[-1] in ALONE_COUNT and (not after or is_stop(after[0])):
            return n
    return None
