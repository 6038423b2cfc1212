"""Fit the rules search's ranking constants on the TUNE questions only, by coordinate descent.

    .venv/bin/python tests/rules_questions/fit.py [--rounds 2]

Each constant in turn is tried at a few multiples of its value; a change is kept when it raises the
score: the mean over (language, scope) of first-hit rate + half the top-3 rate, tune part only.
It prints what it would change; a person decides what goes into ranking.py. The held-out part is
never read here (it measures what fitting did, in report.py). What players asked (learned.py) is
trained on the tune questions, so it is left out here: the constants are fitted for bm25 and the
ranking signals alone, as they stand before it reorders the best hits.
"""
from __future__ import annotations

import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT.parent.parent))
sys.path.insert(0, str(ROOT))

import report  # noqa: E402

# The constants are set on ranking.py, the module whose code reads them.
from companion.rules import content, player_counts, ranking  # noqa: E402
from companion.rules.search import Index  # noqa: E402
from companion.rules.learned import Learned  # noqa: E402

SCALARS = ("COVERAGE", "GAME_AFFINITY", "NAMED_GAME", "GAME_PHRASE", "HUB", "OTHER_LANGUAGE", "TERM_MATCH",
           "PHRASE_MATCH", "PREFIX_ONLY", "SITUATION", "WRONG_PLAYER_COUNT")
COLUMNS = ("title", "keywords", "terms", "grp", "summary", "body")
STEPS = (0.5, 0.75, 1.33, 2.0)


def score(index, questions) -> float:
    figures = report.measure(index, questions)
    return sum(first / asked + 0.5 * top3 / asked for asked, first, top3, _ in figures.values()) / len(figures)


def build():
    index = Index.of(content.library().all_sections(), player_counts())
    index.learned = Learned()  # trained on these very questions: it would only echo them
    return index


def main(argv: list[str]) -> None:
    rounds = int(argv[argv.index("--rounds") + 1]) if "--rounds" in argv else 2
    questions = report.load("tune")
    index = build()
    best = score(index, questions)
    start = {n: getattr(ranking, n) for n in SCALARS} | {f"WEIGHTS.{c}": ranking.WEIGHTS[c] for c in COLUMNS}
    print(f"start {best:.4f}")
    for _ in range(rounds):
        improved = False
        for name in (*SCALARS, *(f"WEIGHTS.{c}" for c in COLUMNS)):
            column = name.split(".", 1)[1] if name.startswith("WEIGHTS.") else None
            now = ranking.WEIGHTS[column] if column else getattr(ranking, name)
            for step in STEPS:
                value = round(now * step, 3)
                if column:
                    ranking.WEIGHTS[column] = value
                    trial = build()  # the column weights are read when the index is built
                else:
                    setattr(ranking, name, value)
                    trial = index
                got = score(trial, questions)
                if got > best + 1e-9:
                    best, now, improved = got, value, True
                    index = trial
                    print(f"  {name} = {value}  -> {best:.4f}")
            if column:
                ranking.WEIGHTS[column] = now
            else:
                setattr(ranking, name, now)
        if not improved:
            break
    index = build()
    print(f"end {score(index, questions):.4f}")
    for name, was in start.items():
        column = name.split(".", 1)[1] if name.startswith("WEIGHTS.") else None
        now = ranking.WEIGHTS[column] if column else getattr(ranking, name)
        if now != was:
            print(f"{name}: {was} -> {now}")


if __name__ == "__main__":
    main(sys.argv[1:])
