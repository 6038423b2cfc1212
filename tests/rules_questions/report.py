"""Measure the rules search on the question sets: first and top-3 hit rates per part, language
and scope (within the game, across all games).

    .venv/bin/python tests/rules_questions/report.py [--misses] [--part tune|dev|heldout|heldout4]

Three parts: tune/*.yaml (in companion/rules/questions/, like dev/), which the ranking and concept maps were tuned on (with the first held-out
set, once it had been measured at checkpoints, and the first set, <game>.yaml); dev/*.yaml, written
by people who never saw the search, whose misses are read while tuning (batches 1, 2 and 4, and batch
3, the second held-out set, once it was spent); and heldout/*.yaml, the third held-out set, written
the same way by others and committed before the tuning that followed it, only ever measured (its
misses are not read). fit.py fits the ranking constants on tune/ alone.
"""
from __future__ import annotations

import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT.parent.parent))
from companion.rules.learned import QUESTIONS, read_questions  # noqa: E402

PARTS = ("tune", "dev", "heldout")
# Held-out sets 4 to 11 (issues 28 and 36, heldout4/ to heldout11/, each with its BRIEF.md) are measured only when
# named: `--part heldout9`.
NAMED_ONLY = ("heldout4", "heldout5", "heldout6", "heldout7", "heldout8", "heldout9", "heldout10", "heldout11")
SCOPES = ("game", "all")


def load(part: str) -> list[dict]:
    """The questions of a part as {q, expect, game, lang}. tune/ and dev/ are in the package
    (companion/rules/questions/), as the search learns from them; the held-out part stays here, where
    the search never reads it."""
    folder = ROOT if part.startswith("heldout") else QUESTIONS
    return [{"q": e.text, "expect": e.slug, "game": e.game, "lang": e.lang} for e in read_questions(folder, (part,))]


def measure(index, questions: list[dict]) -> dict:
    """{(lang, scope): [asked, first, top3, misses]}."""
    figures: dict = {}
    for item in questions:
        for scope in SCOPES:
            games = [item["game"]] if scope == "game" else None
            hits = index.search(str(item["q"]), games, item["lang"]).hits
            ranked = [(h.game, h.slug) for h in hits]
            want = (item["game"], item["expect"])
            row = figures.setdefault((item["lang"], scope), [0, 0, 0, []])
            row[0] += 1
            row[1] += ranked[:1] == [want]
            row[2] += want in ranked[:3]
            if ranked[:1] != [want]:
                row[3].append(f"{item['game']}/{item['lang']}/{scope}: {item['q']!r} wants {item['expect']}, "
                              f"got {[f'{g}/{s}' for g, s in ranked[:3]]}")
    return figures


def main(argv: list[str]) -> None:
    from companion.rules import content, player_counts
    from companion.rules.search import Index, Synonyms

    unknown = [a for a in argv if a.startswith("-") and a not in ("--misses", "--part")]
    if unknown or ("--part" in argv and argv[-1] == "--part"):
        sys.exit(__doc__)  # never measure (the held-out part included) on a mistyped command
    index = Index.of(content.library().all_sections(), player_counts())
    parts = [argv[argv.index("--part") + 1]] if "--part" in argv else PARTS
    if any(p not in PARTS + NAMED_ONLY for p in parts):
        sys.exit(__doc__)
    for part in parts:
        figures = measure(index, load(part))
        for (lang, scope), (asked, first, top3, misses) in sorted(figures.items()):
            print(f"{part:8} {lang} {scope:4}  first {first / asked:6.1%}  top-3 {top3 / asked:6.1%}  ({asked})")
            if "--misses" in argv:
                for m in misses:
                    print("    " + m)


if __name__ == "__main__":
    main(sys.argv[1:])
