"""What the rules read at start, made quicker, must read the same.

The rules package reads its YAML with libyaml's C parser where PyYAML has it
(companion/rules/yamlfile.py). Every YAML text it reads must give the same values as PyYAML's
pure-Python safe loader: each section's front matter, the concepts, synonyms, glossaries and
question sets."""
from __future__ import annotations

import pathlib
import re

import pytest
import yaml

from companion.rules import yamlfile

RULES = pathlib.Path(yamlfile.__file__).resolve().parent


def texts():
    for path in sorted(RULES.rglob("*.yaml")):
        yield path.relative_to(RULES).as_posix(), path.read_text(encoding="utf-8")
    for path in sorted((RULES / "content").rglob("*.md")):
        front = re.match(r"^---\n(.*?)\n---\n", path.read_text(encoding="utf-8"), flags=re.S)
        if front:
            yield path.relative_to(RULES).as_posix(), front.group(1)


def test_the_c_parser_is_used_where_pyyaml_has_it():
    assert yamlfile.LOADER is (yaml.CSafeLoader if yaml.__with_libyaml__ else yaml.SafeLoader)


def test_every_yaml_text_the_rules_read_gives_the_same_values_on_both_parsers():
    seen = 0
    for name, text in texts():
        assert yamlfile.load(text) == yaml.load(text, Loader=yaml.SafeLoader), name
        seen += 1
    assert seen > 350  # 376 sections (four games, two languages) and the YAML files, on 2026-11-29


@pytest.mark.parametrize("bad", ["title: [unclosed", "a: b: c", "key: 'open"])
def test_a_broken_text_is_refused_by_both(bad):
    with pytest.raises(yaml.YAMLError):
        yaml.load(bad, Loader=yaml.SafeLoader)
    with pytest.raises(yaml.YAMLError):
        yamlfile.load(bad)


# The index build's other hot spot: fold() has a quick path for ASCII text (most English), which
# must give exactly what the full one gives. (Here with the other start-up speed-up of the rules.)
from hypothesis import given, strategies as st  # noqa: E402
import unicodedata  # noqa: E402

from companion.rules import analysis  # noqa: E402


def _full_fold(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold().translate(analysis._LIGATURES)


@given(st.text(alphabet=st.characters(max_codepoint=127)))
def test_folding_ascii_text_takes_the_quick_path_to_the_same_result(text):
    assert analysis.fold(text) == _full_fold(text)


@given(st.text())
def test_folding_any_text_gives_what_it_gave(text):
    assert analysis.fold(text) == _full_fold(text)
