"""City of Five Sails duels, as pure functions, named in one place:

- threat.py: the duel as it stands and the threat arithmetic (the rulebook's readings are there);
- duel_data.py: a duel read from untrusted input and written back out as plain data;
- duel_story.py: one sentence per step of a duel, for the pages.

Each imports only those above it in this list. A duel is replayed from its set-up and its list of
rounds every time (`resolve`): the standalone calculator, the JSON API and a table's duel all share
this one fold, so they can never disagree.
"""
from __future__ import annotations

from .duel_data import (COMBAT_VALUE_MAX, DASHES, NAME_MAX, RESOLVE_MAX, ROUNDS_MAX, STAT_MAX, answer, card_data,
                        participant_data, read_participant, read_round, read_rounds, read_setup, round_data,
                        rounds_played, setup_data, setup_from_payload)
from .duel_story import Line, ngettext, opening_story, round_story
from .threat import (CHALLENGER, DEFENDER, SIDES, Card, Duel, Participant, Refusal, Round, RoundResult, Setup, other,
                     play, resolve, start)

__all__ = [
    # duel_data.py
    "COMBAT_VALUE_MAX", "DASHES", "NAME_MAX", "RESOLVE_MAX", "ROUNDS_MAX", "STAT_MAX", "answer", "card_data",
    "participant_data", "read_participant", "read_round", "read_rounds", "read_setup", "round_data", "rounds_played",
    "setup_data", "setup_from_payload",
    # duel_story.py
    "Line", "ngettext", "opening_story", "round_story",
    # threat.py
    "CHALLENGER", "DEFENDER", "SIDES", "Card", "Duel", "Participant", "Refusal", "Round", "RoundResult", "Setup",
    "other", "play", "resolve", "start",
]
