"""City of Five Sails: setup, the Day and its phases, Initiative, Renown, Leaders and victory.

Pure: no Flask. Works on the table's game state (`state["game"]`, plain JSON) and raises
`domain.Invalid` on what the rules cannot accept. One module a chapter of the rulebook, each
importing only those above it in this list; this module names them all in one place:

- readings.py: how the app reads what the rulebook leaves open;
- city.py: "Game Setup" (p. 3): the City locations, the City line, the setup checklist;
- trackers.py: the players' state: Renown, Influence, the Leader's wounds and Resolve, control;
- victory.py: "Achieving Victory" (p. 2): the four victories, the Day Limit, the result;
- leaders.py: Leaders destroyed, a duel's wounds onto their trackers, a Leader put back;
- day.py: "Phases of the Day" (p. 11-15): its steps, moving through it, Initiative (p. 8, p. 12).

Duels are in duel.py, deck building in decks.py.
"""
from __future__ import annotations

from .city import (BAZAAR, CORE, DOCKS, FORUMS, GARDENS, LOCATION_NAMES, OLES_INN, Step, city_line, locations_for,
                   setup_steps)
from .day import (ACTIONS, DAWN, DAY_STEPS, DEAL, DOMINANCE, DUSK, ECONOMIC, FIFTH_DAY, HIGH_DRAMA, INITIATIVE,
                  INITIATIVE_MAX, PHASE_NAMES, PHASES, PLANNING, PLUNDER, RENOWN, UNCONTROL, DayStep, FirstPlayer,
                  advance, clockwise_from, current_phase, day_position, determine_initiative, game_over,
                  hand_out_first_player, jump, new_state, phase_steps, set_initiative, start_game, step_at)
from .leaders import (Destruction, DuelWounds, close_duel, decides_game, destroy_leader, destroy_leaders,
                      leader_wounds_for_duel, renown_loss, restore_leader)
from .readings import READINGS, reading
from .trackers import (INFLUENCE_MAX, RENOWN_MAX, WOUNDS_MAX, add_influence, add_leader_wounds, add_renown,
                       controlled_by, new_player_state, player_state, reaches_resolve, seat_ids, set_control,
                       set_leader_resolve, sync_players)
from .victory import (ASSASSINATION, BY_INFLUENCE, BY_LOCATIONS, BY_NOTHING, BY_RENOWN, BY_WOUNDS, DOMINANCE_WIN, DRAW,
                      ECONOMIC_RENOWN, ECONOMIC_WIN, FIFTH_DAY_WIN, MAX_DAYS, NO_WINNER, TIEBREAK_NAMES, VICTORY_NAMES,
                      Verdict, check_assassination, check_dominance, check_economic, check_fifth_day, plunder_verdict,
                      result_for)

__all__ = [
    # city.py
    "BAZAAR", "CORE", "DOCKS", "FORUMS", "GARDENS", "LOCATION_NAMES", "OLES_INN", "Step", "city_line", "locations_for",
    "setup_steps",
    # day.py
    "ACTIONS", "DAWN", "DAY_STEPS", "DEAL", "DOMINANCE", "DUSK", "ECONOMIC", "FIFTH_DAY", "HIGH_DRAMA", "INITIATIVE",
    "INITIATIVE_MAX", "PHASE_NAMES", "PHASES", "PLANNING", "PLUNDER", "RENOWN", "UNCONTROL", "DayStep", "FirstPlayer",
    "advance", "clockwise_from", "current_phase", "day_position", "determine_initiative", "game_over",
    "hand_out_first_player", "jump", "new_state", "phase_steps", "set_initiative", "start_game", "step_at",
    # leaders.py
    "Destruction", "DuelWounds", "close_duel", "decides_game", "destroy_leader", "destroy_leaders", "leader_wounds_for_duel",
    "renown_loss", "restore_leader",
    # readings.py
    "READINGS", "reading",
    # trackers.py
    "INFLUENCE_MAX", "RENOWN_MAX", "WOUNDS_MAX", "add_influence", "add_leader_wounds", "add_renown", "controlled_by",
    "new_player_state", "player_state", "reaches_resolve", "seat_ids", "set_control", "set_leader_resolve",
    "sync_players",
    # victory.py
    "ASSASSINATION", "BY_INFLUENCE", "BY_LOCATIONS", "BY_NOTHING", "BY_RENOWN", "BY_WOUNDS", "DOMINANCE_WIN", "DRAW",
    "ECONOMIC_RENOWN", "ECONOMIC_WIN", "FIFTH_DAY_WIN", "MAX_DAYS", "NO_WINNER", "TIEBREAK_NAMES", "VICTORY_NAMES",
    "Verdict", "check_assassination", "check_dominance", "check_economic", "check_fifth_day", "plunder_verdict",
    "result_for",
]
