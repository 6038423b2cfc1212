"""The Others: 7 Sins: a table's game state and every change to it, pure (no Flask, no database).

This is the face of the chapters, which follow the rulebook: every name from one module, so
`state.spend_turn(doc, hid)` reads the same wherever it is called. Each chapter imports only the
ones before it (core.py describes the document they share):

- core.py: the table's stages, typed text, the lookups and the reminders;
- setup.py: Game Setup (p. 8-11), a new table and the start of the first round;
- rounds.py: the round (p. 13-16): the first hero, hero turns, reactions, the reset of tokens;
- apocalypse.py: the Missions (p. 20), Victory and Defeat (p. 12), the Apocalypse track (p. 23);
- heroes.py: Corruption and wounds (p. 36-38), death and replacement, what heroes carry, fights.
"""
from __future__ import annotations

from .core import (ALERTS_MAX, CLASS_NAMES, FINISHED, NUMBERED_CLASS_NAMES, PLAYING, SETTING_UP, TEXT_MAX,
                   TRACK_LEVELS, add_alert, alive, apocalypse_bonus, awaiting_replacement, clean_text,
                   dark_past_alert, dismiss_alert, empty_track, hero, hero_label, hero_player_ids, in_play,
                   is_corruption_story, living_hero, require_playing, require_setting_up, reserve)
from .setup import (ACOLYTE_NAMES, ALL_SINS, CORE_ACOLYTES, CORE_SINS, SETUP_STEPS, SETUP_STEP_NAMES,
                    SIN_NAMES, STORY_TYPES, STORY_TYPE_NAMES, default_team, new_hero, new_state,
                    players_changed, set_roles, set_sin, set_story, set_team, setup_problems, start_game,
                    tick_setup)
from .rounds import (ALTARS_MAX, END_STEPS, EXTRA_TURNS_MAX, START_STEPS, add_altars, add_extra_reactions,
                     add_extra_turns, can_react, choose_first, end_round, next_hero, reactions_total,
                     set_city_action, set_sin_card, spend_reaction, spend_turn, tick_round, turn_order,
                     unspend_turn)
from .apocalypse import (CARDS_MAX, COUNT_MAX, EFFECT_MAX, NOTES_MAX, NOTE_MAX, TRACK_BONUS_MAX,
                         add_mission_note, add_progress, clean_track, finish, hell_club_killed, heroes_win,
                         mission_target, next_mission, note_card, raise_apocalypse, set_target, set_track,
                         sins_win, skip_reveal, track_defined)
from .heroes import (CRISIS, FIGHT, FIGHT_KINDS, INNOCENTS_KILLED, INNOCENTS_MAX, MISSING_STAT, NPCS, NPC_EFFECTS,
                     NPC_NAMES, PREP_FIELDS, RANGED, UPGRADES_MAX, add_innocents, add_upgrades, apply_fight,
                     cancel_voluntary, close_fight, fight_dice, fight_of, heal, kill, missing_stats, prepare_fight,
                     rename_hero, repent, replace_hero, resolve, reveal_dark_past, roll_done, set_npc,
                     set_stats, start_fight, take_forced, take_voluntary, take_wound, unreplaceable,
                     would_be_bonus)

_finish = finish  # its name before the split (tests/unit/test_plays.py ends a game with it)
