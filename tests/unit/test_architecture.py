"""The house keeps its shape: imports run one way, no module outgrows its room, and every table
action comes through the one door (tables/actions.py)."""
from __future__ import annotations

import pathlib
import re
import subprocess
import sys

import grimp
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "companion"
MAX_LINES = 500


def test_the_import_contracts_in_pyproject_are_kept():
    # In a child process: import-linter's CLI configures logging with dictConfig, which disables every
    # logger that already exists ("companion" included) for the rest of the test worker.
    lint = pathlib.Path(sys.executable).with_name("lint-imports")
    run = subprocess.run([str(lint), "--config", str(ROOT / "pyproject.toml"), "--no-cache"], cwd=ROOT,
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr


def _cycles(graph: grimp.ImportGraph) -> list[list[str]]:
    """The strongly connected groups of modules (Tarjan, iteratively), each a cycle of imports."""
    adjacency = {m: sorted(graph.find_modules_directly_imported_by(m)) for m in sorted(graph.modules)}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for root in adjacency:
        if root in index:
            continue
        work = [(root, iter(adjacency[root]))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(adjacency[child])))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    found.append(sorted(group))
    return found


def test_no_module_imports_itself_through_others():
    """Not even an import inside a function: a cycle anywhere in companion/ is a wrong arrow."""
    sys.path.insert(0, str(ROOT))
    try:
        graph = grimp.build_graph("companion", cache_dir=None)
    finally:
        sys.path.remove(str(ROOT))
    assert _cycles(graph) == []


def test_the_cycle_finder_finds_a_cycle():
    graph = grimp.ImportGraph()
    for name in ("a", "a.b", "a.c", "a.d"):
        graph.add_module(name)
    graph.add_import(importer="a.b", imported="a.c")
    graph.add_import(importer="a.c", imported="a.b")
    graph.add_import(importer="a.d", imported="a.b")
    assert _cycles(graph) == [["a.b", "a.c"]]


def _modules():
    return sorted(p for p in PACKAGE.rglob("*.py") if "__pycache__" not in p.parts)


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_module_passes_500_lines(path):
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_LINES, f"{path.relative_to(ROOT)} has {lines} lines: split it by what it holds"


OLD_DOORS = re.compile(r"\b(?:perform|act|act_simple)\(")


@pytest.mark.parametrize("path", [p for p in _modules() if "games" in p.parts],
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_games_change_tables_only_through_declared_actions(path):
    found = [line.strip() for line in path.read_text(encoding="utf-8").splitlines() if OLD_DOORS.search(line)]
    assert found == []
