"""Deck check: a pasted deck list against the deck-building rules (p. 30 "Deck Building Requirements";
p. 16-18 "Approach Deck" and "Faction Deck"; glossary "Unique").

The list is plain text in sections, like the rulebook's sample lists:

    Leader: Soline el Gato
    Characters:
    Maya de La Rioja
    Schemes:
    The Cat's Embargo
    Faction:
    Gallegos Blade x2
    2x Taunt
    The Cat's Glass (Unique)

"Risk:" or "Faction deck:" work for the Faction deck; "Approach:" takes characters and schemes mixed
(then only the total of ten can be checked). "*" marks a neutral card and is ignored; "(Unique)" marks
a Unique card. Pure: no Flask.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from ...domain import N_, Invalid, Problem

TEXT_MAX = 6000
LINES_MAX = 200
COPIES_MAX = 40
APPROACH_CHARACTERS = APPROACH_SCHEMES = 5
FACTION_MIN = 40
COPIES_BY_NAME = 2

LEADER, CHARACTERS, SCHEMES, APPROACH, FACTION = "leader", "characters", "schemes", "approach", "faction"
HEADERS = {
    "leader": LEADER, "characters": CHARACTERS, "character": CHARACTERS, "schemes": SCHEMES, "scheme": SCHEMES,
    "approach": APPROACH, "approach deck": APPROACH, "faction": FACTION, "faction deck": FACTION, "risk": FACTION,
    "risks": FACTION,
}
_COUNT_AFTER = re.compile(r"^(?P<name>.*?)\s*[x×]\s*(?P<n>\d+)$", re.I)
_COUNT_BEFORE = re.compile(r"^(?P<n>\d+)\s*[x×]?\s+(?P<name>.+)$", re.I)
_UNIQUE = re.compile(r"[\(\[]\s*unique\s*[\)\]]", re.I)


@dataclass(frozen=True)
class Finding:
    message: str  # message id
    params: dict = field(default_factory=dict)


@dataclass(frozen=True)
class DeckList:
    leaders: tuple[str, ...]
    characters: tuple[str, ...]
    schemes: tuple[str, ...]
    approach_mixed: tuple[str, ...]
    faction: tuple[tuple[str, int, bool], ...]  # (name, copies, unique) per line
    unreadable: tuple[Finding, ...] = ()

    @property
    def faction_total(self) -> int:
        return sum(n for _name, n, _u in self.faction)

    @property
    def approach_total(self) -> int:
        return len(self.characters) + len(self.schemes) + len(self.approach_mixed)


def _key(name: str) -> str:
    return " ".join(name.casefold().replace("’", "'").split())


def _line_entry(text: str) -> tuple[str, int, bool] | None:
    unique = bool(_UNIQUE.search(text))
    text = _UNIQUE.sub("", text).replace("*", "").strip(" -•\t")
    m = _COUNT_AFTER.match(text) or _COUNT_BEFORE.match(text)
    n = 1
    if m:
        text, n = m.group("name").strip(" -•\t"), int(m.group("n"))
    if not text:
        return None
    return text, n, unique


def parse(text: str) -> DeckList:
    """Read a deck list; lines that cannot be placed are reported, not guessed."""
    if len(text) > TEXT_MAX:
        raise Invalid(Problem("deck", N_("Keep the list to %(max)d characters."), {"max": TEXT_MAX}))
    lines = text.splitlines()
    if len(lines) > LINES_MAX:
        raise Invalid(Problem("deck", N_("Keep the list to %(max)d lines."), {"max": LINES_MAX}))
    if not text.strip():
        raise Invalid(Problem("deck", N_("Paste or type a deck list.")))
    out: dict[str, list] = {LEADER: [], CHARACTERS: [], SCHEMES: [], APPROACH: [], FACTION: []}
    unreadable: list[Finding] = []
    section = None
    for number, raw in enumerate(lines, start=1):
        line = raw.strip()
        if not line:
            continue
        head, sep, rest = line.partition(":")
        header = HEADERS.get(_key(head)) if sep else None
        if header is not None:
            section = header
            line = rest.strip()
            if not line:
                continue
        if section is None:
            unreadable.append(Finding(N_("Line %(n)d (%(text)s) comes before any heading: start with Leader:, "
                                         "Characters:, Schemes: or Faction:."), {"n": number, "text": line[:40]}))
            continue
        entry = _line_entry(line)
        if entry is None:
            continue
        name, n, unique = entry
        if not 1 <= n <= COPIES_MAX:
            unreadable.append(Finding(N_("Line %(n)d: %(copies)d copies of %(name)s cannot be right."),
                                      {"n": number, "copies": n, "name": name}))
            continue
        if section == FACTION:
            out[FACTION].append((name, n, unique))
        else:
            out[section].extend([name] * n)
    return DeckList(leaders=tuple(out[LEADER]), characters=tuple(out[CHARACTERS]), schemes=tuple(out[SCHEMES]),
                    approach_mixed=tuple(out[APPROACH]), faction=tuple(out[FACTION]), unreadable=tuple(unreadable))


def _duplicates(names) -> list[str]:
    counts = Counter(_key(n) for n in names)
    first = {}
    for n in names:
        first.setdefault(_key(n), n)
    return [first[k] for k, c in counts.items() if c > 1]


def check(deck: DeckList) -> list[Finding]:
    """Every deck-building rule the list breaks (p. 30): one Leader; an Approach deck of exactly ten
    cards, five characters and five schemes, one of each by title; a Faction deck of at least 40 cards,
    at most two copies by name, and one copy of a Unique card."""
    found: list[Finding] = list(deck.unreadable)
    if not deck.leaders:
        found.append(Finding(N_("No Leader: add a line \"Leader: name\".")))
    elif len(deck.leaders) > 1:
        found.append(Finding(N_("%(n)d Leaders listed: a player has exactly one."), {"n": len(deck.leaders)}))
    if deck.approach_mixed:
        if deck.characters or deck.schemes:
            found.append(Finding(N_("Use either Approach: or Characters: and Schemes:, not both.")))
        elif deck.approach_total != APPROACH_CHARACTERS + APPROACH_SCHEMES:
            found.append(Finding(N_("The Approach deck has %(n)d cards: it needs exactly 10 (5 characters and "
                                    "5 schemes)."), {"n": deck.approach_total}))
    else:
        if len(deck.characters) != APPROACH_CHARACTERS:
            found.append(Finding(N_("The Approach deck has %(n)d characters: it needs exactly 5."),
                                 {"n": len(deck.characters)}))
        if len(deck.schemes) != APPROACH_SCHEMES:
            found.append(Finding(N_("The Approach deck has %(n)d schemes: it needs exactly 5."),
                                 {"n": len(deck.schemes)}))
    for name in _duplicates(deck.characters + deck.schemes + deck.approach_mixed):
        found.append(Finding(N_("%(name)s is in the Approach deck more than once: one of each title."),
                             {"name": name}))
    total = deck.faction_total
    if total < FACTION_MIN:
        found.append(Finding(N_("The Faction deck has %(n)d cards: it needs at least 40."), {"n": total}))
    copies: Counter = Counter()
    names: dict[str, str] = {}
    unique: set[str] = set()
    for name, n, is_unique in deck.faction:
        copies[_key(name)] += n
        names.setdefault(_key(name), name)
        if is_unique:
            unique.add(_key(name))
    for key, n in copies.items():
        if key in unique and n > 1:
            found.append(Finding(N_("%(name)s is Unique: one copy only, not %(n)d."), {"name": names[key], "n": n}))
        elif n > COPIES_BY_NAME:
            found.append(Finding(N_("%(n)d copies of %(name)s: at most 2 by name."), {"name": names[key], "n": n}))
    return found
