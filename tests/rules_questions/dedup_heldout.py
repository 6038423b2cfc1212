"""Take out of tune and dev every question a held-out set has word for word, before it is measured.

    .venv/bin/python tests/rules_questions/dedup_heldout.py tests/rules_questions/heldout11

Questions are compared folded (case and runs of spaces ignored), game by game. Only the item lines
go; the batch headers and comments stay. Prints how many went from each file, never the questions,
so the engineer running it reads none of the held-out set.
"""
from __future__ import annotations

import pathlib
import re
import sys

import yaml

QUESTIONS = pathlib.Path(__file__).resolve().parents[2] / "companion" / "rules" / "questions"


def fold(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().casefold()


def without(lines: list[str], held: set[str]) -> tuple[list[str], int]:
    """The file's lines less the items (a "- q:" line and its indented lines) whose question is held."""
    out, gone, i = [], 0, 0
    while i < len(lines):
        if not lines[i].startswith("- q:"):
            out.append(lines[i])
            i += 1
            continue
        j = i + 1
        while j < len(lines) and lines[j].startswith("  "):
            j += 1
        if fold(yaml.safe_load("".join(lines[i:j]))[0]["q"]) in held:
            gone += 1
        else:
            out.extend(lines[i:j])
        i = j
    return out, gone


def main(held_folder: pathlib.Path) -> None:
    held = {f.stem: {fold(i["q"]) for i in yaml.safe_load(f.read_text(encoding="utf-8"))}
            for f in held_folder.glob("*.yaml")}
    total = 0
    for path in sorted(QUESTIONS.glob("*/*.yaml")):
        lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
        out, gone = without(lines, held.get(path.stem, set()))
        if gone:
            assert len(yaml.safe_load("".join(lines))) - len(yaml.safe_load("".join(out))) == gone
            path.write_text("".join(out), encoding="utf-8")
        print(f"{path.relative_to(QUESTIONS)}: {gone}")
        total += gone
    print(f"in all: {total}")


if __name__ == "__main__":
    main(pathlib.Path(sys.argv[1]))
