"""YAML as the rules package reads it (section front matter, concepts, synonyms, glossaries and the
question sets the learned model counts): PyYAML's safe loader, on libyaml's C parser when PyYAML was
built with it (the wheels on PyPI are). Reading every section and building the search index took
about three times as long on the pure-Python parser, and every server process does it at start.
Both give the same values for our files (tests/unit/test_rules_startup.py checks every one)."""
from __future__ import annotations

import yaml

LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def load(text: str):
    return yaml.load(text, Loader=LOADER)
