"""Ranking the sections a query finds: bm25, then what else the question says about which answers it.

What it holds: the ranking constants (fitted on the tune questions by tests/rules_questions/fit.py,
which sets them here) and `RankingIndex`, the index that searches: FTS5 finds the sections with any
of the plan's alternatives (query.py) and scores them with bm25 (column weights WEIGHTS), then
- coverage: a section that answers more of the question's words moves up;
- phrase and proximity boosts: a title or term the question names in full, a title, term or keyword
  it says word for word, one of a section's situations it describes, one sentence that says several
  of its words together;
- a hub section counts less, and so does a section in the other language than the question's;
- across several games, game naming (a question that names its game searches that game alone, the
  others only when it has nothing; a count in its name may be said in words, "sept peches"), each
  game's share of the question's words and phrases, the game's own words it says (GAME_WORD), and
  player-count filtering (a game whose rulebook does not allow the number of players the question
  says counts less);
- what players asked (learned.py) reorders the best RERANK hits.
"""
from __future__ import annotations

import heapq
from collections import Counter
from typing import Mapping, Sequence

from . import analysis
from .analysis import NUMBER_WORDS, PLAYER_WORDS, fold, is_stop, player_count
from .hits import Hit, Result, highlight, snippet_of
from .indexing import FIELDS, Row
from .query import MAX_QUERY, Plan, ReadingIndex

LIMIT = 10
CANDIDATES = 60  # how many FTS5 matches are re-ranked by coverage
# bm25 column weights, per column of the table (indexing.FIELDS).
WEIGHTS = {"title": 8.0, "keywords": 6.0, "terms": 6.0, "grp": 1.5, "summary": 2.5, "body": 1.0}
COVERAGE = 1.0  # a section that answers all the query's words scores (1 + COVERAGE) times its bm25
# Searching several games: a section's score is multiplied by (1 + GAME_AFFINITY x its game's share
# of the query's words), a word found in k of the searched games giving each of them 1/k; a game the
# query names ("gibbon", "five sails") multiplies its sections by NAMED_GAME.
GAME_AFFINITY = 1.5
NAMED_GAME = 8.0
# ... and a game one of whose titles, terms or keywords of 2+ words the question says, by
# (1 + GAME_PHRASE x its length in words).
GAME_PHRASE = 0.25
# ... and a game one of whose own words the question says (a word of its section titles and terms
# that no other game's content has: "duel", "scheme", "abysse"), by (1 + GAME_WORD x how many).
GAME_WORD = 0.5
# A hub section (indexing.HUB_LINKS links or more) names many rules without answering them: its score
# counts this much, so the section it points to comes first.
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
# measured while left out of the model's training; lowered from 0.2 once batches 9 and 10 joined, as
# 0.15 does better on batches 4 to 7 and 10, each left out in turn). RERANK went from 10 to 20 in
# issue 36 (folds.py, batches 9-23 left out in turn: first across games +0.1 in both languages, top 3
# +0.1-0.2 in three cells, nothing lower; 6 did worse in every cell).
RERANK = 20
LEARNED = 0.15
# Across several games, a question about a number of players that a game's rulebook does not allow
# ("dealing to 7 ppl") is not about that game: its sections count this much.
WRONG_PLAYER_COUNT = 0.3

# Short words that only one language has: they say what language a question is written in when its
# rules words are the other's or both's ("la Riposte comment ca marche" is French, "what does en garde
# mean" English), so that a French question asked with the app in English is read as French (issue 36).
MARKERS = {w: "fr" for w in """le la les des du au aux est sont je jai tu il ils elle nous vous et
ou avec pour dans sur que qu quoi quel quelle quels quelles qui quand combien comment pourquoi cest ca
ya jpeux jsuis mon ma mes ta tes sa ses leur leurs une un pas ne peut peux faut dois""".split()}
MARKERS |= {w: "en" for w in """the is are was were do does did i you we they he she it of and with for
what which who when where why how can cant must should my your our their this that there""".split()}


class RankingIndex(ReadingIndex):
    """The index, searching: it ranks the sections that answer a question."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._sql = (f"SELECT rowid, bm25(docs, {', '.join(str(WEIGHTS[f]) for f in FIELDS)}) AS score FROM docs "
                     f"WHERE docs MATCH ? AND rowid BETWEEN ? AND ? ORDER BY score LIMIT {CANDIDATES}")

    @staticmethod
    def _coverage(plan: Plan, row: Row) -> float:
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
        # A count in a game's name is said in words as often as in digits: "sept peches", "seven sins".
        spoken = [str(NUMBER_WORDS[w]) if NUMBER_WORDS.get(w, 0) > 1 else w for w in words]
        for name, games in self.game_names:
            games = games.intersection(searched)
            if not games:
                continue
            n = len(name)
            for i in range(len(kept) - n + 1):
                if tuple(kept[i:i + n]) == name or (all(kept[i:i + n]) and tuple(spoken[i:i + n]) == name):
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
        other does not, its short words (MARKERS) included; the reader's when that does not decide."""
        only = Counter()
        for w in analysis.words(folded):
            if w in MARKERS:
                only[MARKERS[w]] += 1
                continue
            if is_stop(w) or w.isdigit():
                continue
            known = [lang for lang in analysis.LANGS if w in self.vocab[lang]]
            if len(known) == 1:
                only[known[0]] += 1
        ranked = only.most_common()
        if not ranked or (len(ranked) > 1 and ranked[0][1] == ranked[1][1]):
            return reader
        return ranked[0][0]

    def _affinity(self, plans: Mapping[tuple[str, str], Plan], searched: Sequence[str]) -> dict[str, float]:
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
        folded = self.unelided(analysis.drop_idioms(fold(query)))
        typing = bool(query) and not query[-1].isspace()
        searched = list(games if games is not None else self.games)
        folded = players_said(folded, self._question_lang(folded, lang))
        named, surely, folded = self._named_games(folded, searched)
        if surely and len(searched) > 1 and not surely.issuperset(searched):
            # A question that names its game is about that game: other games come in only when it
            # has nothing ("what do you need to play sinful gibbon").
            own = self.search(query, sorted(surely), lang, limit)
            if own.hits:
                return own
        found: dict[tuple[str, str], dict[str, tuple[float, float, Plan, int]]] = {}
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
        players = player_count(question, asked) if len(searched) > 1 else None
        for (game, row_lang), plan in plans.items():
            if not plan.groups:
                continue
            factor = (1 + GAME_AFFINITY * affinity.get(game, 0.0)) * (NAMED_GAME if game in named else 1.0)
            if len(searched) > 1:
                factor *= 1 + GAME_PHRASE * game_said.get(game, 0)
                factor *= 1 + GAME_WORD * _own_words(plans, self.own_words, game)
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
        # A section found in several languages counts once, at its best score. A question in the
        # reader's language shows it in that language whenever that version answers any of its words
        # (a French reader's French question never lists an English page while the French one
        # exists, though "crew cap" typed in it is English); otherwise in the version that answers
        # more of the query's words, the reader's on a tie (a French question on an English page
        # shows the French title and text, where its words are marked).
        best = {key: max(v[0] for v in by_lang.values()) for key, by_lang in found.items()}
        self._learn(best, query, asked)
        ranked = [(key, found[key]) for key in heapq.nsmallest(limit, best, key=lambda k: (-best[k], k))]
        hits = []
        for (game, slug), by_lang in ranked:
            score = max(v[0] for v in by_lang.values())
            row_lang = max(by_lang, key=lambda k: (k == asked == lang and by_lang[k][1] > 0, by_lang[k][1],
                                                   k == lang, by_lang[k][0]))
            _, _, plan, rowid = by_lang[row_lang]
            row = self.rows[rowid - 1]
            marks = plan.highlight()
            snippet, anchor = snippet_of(row, marks)
            title = highlight(row.title, marks)
            hits.append(Hit(game, slug, row_lang, round(score, 4), title, snippet, anchor))
        return Result(query, tuple(hits), corrections)


def _own_words(plans: Mapping[tuple[str, str], Plan], own: Mapping[tuple[str, str], set[str]], game: str) -> int:
    """How many of the question's words are a game's own (in any of its languages)."""
    said = set()
    for (g, lang), plan in plans.items():
        if g == game:
            said.update(i for i, grp in enumerate(plan.groups) if grp.primary in own.get((g, lang), ()))
    return len(said)


def _together(plan: Plan, row: Row) -> float:
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


def _situation(row: Row, asked: set[str]) -> float:
    """How fully the question describes one of the section's situations, in any order and with other
    words between: the share of that situation's words the question has, for the best situation of
    which it has at least two words."""
    best = 0.0
    for s in row.situations:
        n = len(s & asked)
        if n >= 2:
            best = max(best, n / len(s))
    return best


def players_said(folded: str, lang: str) -> str:
    """A question that says how many play without naming players ("on est 5", "pierres a 2", "we're 3")
    is about that many players: the players' word is added in the question's language, so the
    sections set out by player count answer it in any game (issue 36)."""
    words = analysis.words(folded)
    if player_count(words, lang) is None or any(w in PLAYER_WORDS for w in words):
        return folded
    return f"{folded} {'joueurs' if lang == 'fr' else 'players'}"


def _runs(words: Sequence[str], longest: int = 8) -> set[tuple[str, ...]]:
    """Every run of up to `longest` consecutive words."""
    return {tuple(words[i:i + n]) for i in range(len(words)) for n in range(1, longest + 1) if i + n <= len(words)}

