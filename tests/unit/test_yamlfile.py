"""The rules package reads its YAML with libyaml's C parser where PyYAML has it
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
