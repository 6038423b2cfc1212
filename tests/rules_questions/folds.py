"""Measure the rules search on the dev batches, each left out of the learned model's training.

    .venv/bin/python tests/rules_questions/folds.py [--batches 9-23] [--group 9-15,16-21,22,23] [--misses]

The learned model (companion/rules/learned.py) is counted from tune and dev, so report.py's dev
figures say only that the search still knows what it was taught. Here each fold's questions are
asked of a search whose model was counted from tune and every dev batch except that fold's: the
nearest the dev batches come to a new set of questions. (The concept maps, keywords and synonyms
were written with every batch's misses read, so this is still kinder than a held-out set.)

A batch is the run of questions after a "# DEV batch N" header in companion/rules/questions/dev/
<game>.yaml ("# DEV" alone is batch 1, "second batch" 2, "batches 5 and 6" 5). By default each
batch is its own fold (leave one batch out); `--group` joins batches into folds ("16-21" is one
fold), and `--batches` measures only those (default 9 on: the batches written the way players
type at a table). It prints first / top 3 per fold and in all, per language and scope (within the
question's game, across all games), in percent, and with `--misses` the questions not found first.

The index (FTS5, synonyms, concept maps) is built once; only the model is counted again per fold.
"""
from __future__ import annotations

import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT.parent.parent))
sys.path.insert(0, str(ROOT))
import report  # noqa: E402
from companion.rules.learned import QUESTIONS, Example, Learned, read_questions  # noqa: E402

HEADER = re.compile(r"^# DEV\b(.*)")


def batch_of(header: str) -> int:
    """The batch number a "# DEV ..." header line names."""
    if m := re.search(r"batch(?:es)? (\d+)", header):
        return int(m.group(1))
    return 2 if "second batch" in header else 1


def dev_batches(folder: pathlib.Path = QUESTIONS) -> list[tuple[int, Example]]:
    """Every dev question with its batch, in file order."""
    out = []
    for path in sorted((folder / "dev").glob("*.yaml")):
        batches, batch = [], 1
        for line in path.read_text(encoding="utf-8").splitlines():
            if m := HEADER.match(line):
                batch = batch_of(m.group(0))
            elif line.startswith("- q:"):
                batches.append(batch)
        examples = [e for e in read_questions(folder, ("dev",)) if e.game == path.stem]
        assert len(examples) == len(batches), f"{path}: {len(examples)} questions, {len(batches)} '- q:' lines"
        out.extend(zip(batches, examples))
    return out


def numbers(spec: str) -> list[int]:
    """'9-15' -> [9, ..., 15]; '22' -> [22]."""
    low, _, high = spec.partition("-")
    return list(range(int(low), int(high or low) + 1))


def main(argv: list[str]) -> None:
    from companion.rules import content, player_counts
    from companion.rules.indexing import read_concepts
    from companion.rules.search import Index

    def option(name: str, default: str) -> str:
        return argv[argv.index(name) + 1] if name in argv and argv.index(name) + 1 < len(argv) else default

    wanted = {n for part in option("--batches", "9-99").split(",") for n in numbers(part)}
    batches = dev_batches()
    dev = [(b, e) for b, e in batches if b in wanted]
    present = sorted({b for b, _ in dev})
    folds: list[list[int]] = [[b] for b in present]
    if "--group" in argv:
        folds = [[n for n in numbers(part) if n in present] for part in option("--group", "").split(",")]
        folds = [f for f in folds if f]
    sections = list(content.library().all_sections())
    index = Index.of(sections, player_counts())
    tune = read_questions(QUESTIONS, ("tune",))
    concepts = read_concepts()
    total: dict = {}
    lines = []
    for fold in folds:
        left_out = [e for b, e in dev if b in fold]
        index.learned = Learned(tune + [e for b, e in batches if b not in fold], sections, concepts)
        asked = [{"q": e.text, "expect": e.slug, "game": e.game, "lang": e.lang} for e in left_out]
        figures = report.measure(index, asked)
        name = f"{fold[0]}-{fold[-1]}" if len(fold) > 1 else str(fold[0])
        lines.append(f"batch {name:6} " + row(figures))
        for cell, (n, first, top3, misses) in figures.items():
            t = total.setdefault(cell, [0, 0, 0, []])
            t[0] += n
            t[1] += first
            t[2] += top3
            t[3].extend(f"[{name}] {m}" for m in misses)
    print("first / top 3, %: EN within | EN across | FR within | FR across   (questions EN, FR)")
    print("\n".join(lines))
    print(f"{'all':12} " + row(total))
    if "--misses" in argv:
        for cell in sorted(total):
            for m in total[cell][3]:
                print("   ", m)


def row(figures: dict) -> str:
    cells = []
    for cell in (("en", "game"), ("en", "all"), ("fr", "game"), ("fr", "all")):
        n, first, top3, _ = figures.get(cell, [0, 0, 0, []])
        cells.append(f"{100 * first / n:5.1f} / {100 * top3 / n:5.1f}" if n else f"{'-':>13}")
    counts = (figures.get(("en", "game"), [0])[0], figures.get(("fr", "game"), [0])[0])
    return " | ".join(cells) + f"   ({counts[0]}, {counts[1]})"


if __name__ == "__main__":
    main(sys.argv[1:])
