"""7 - The Sins at one table: the game's part of the table document and every change to it.

Pure functions on plain data (the document is JSON): no Flask. Each change checks its input and
raises `Invalid` with the form field the problem belongs to; the views only translate and route.

    game = {
      "sins": ["superbia", ...],        Setup A: the types in play, in the rulebook's order
      "penitenziagite": false,          the advanced mode
      "done": ["A", "B", ...],          setup steps ticked
      "first": 3,                       the first player's id
      "turn": 3,                        whose turn it is (the light turn tracker)
      "judgments": 0,                   Last Judgment cards revealed (0-3)
      "third_on": null,                 whose turn it was when the third one came out
      "round_done": false,              Penitenziagite: the last player has finished since
      "stones": {"3": 1},               Stones of Forgiveness each player took (the rest is the supply)
      "score": {
        "mode": "detailed" | "quick",
        "abyss": {"invidia": 6, ...} | null,     the Abyss by type, or
        "abyss_total": -1 | null,                only its points, when the table counted them
        "reserves": {"3": {"invidia": 2, ...}},  each player's reserve by type (present = entered)
        "stones_on": {"3": ["ira", "luxuria"]},  a player's own placement (absent: the best one)
        "quick": {"3": {"points": 12, "cards": 9, "types": 4}},  the quick path's totals
        "most_wins": true | null                 the quick path's direction when no Abyss is given
      }
    }
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Callable, Mapping, Sequence

from ...domain import N_, Invalid, Problem, Problems
from . import checks, rules

MODES = ("detailed", "quick")
Label = Callable[[str], str]


def new_state(players: list[dict]) -> dict:
    first = players[0]["id"] if players else None
    return {
        "sins": list(rules.SINS) if rules.SIN_TYPES_FOR.get(len(players)) == len(rules.SINS) else [], "penitenziagite": False, "done": [], "first": first, "turn": first,
        "judgments": 0, "third_on": None, "round_done": False, "stones": {},
        "score": new_score(),
    }


def new_score() -> dict:
    return {"mode": "detailed", "abyss": None, "abyss_total": None, "reserves": {}, "stones_on": {},
            "quick": {}, "most_wins": None}


def ensure(state: dict) -> dict:
    """The game's state with every part present (older or hand-made documents may lack some)."""
    gs = state.setdefault("game", {})
    for key, value in new_state(state["players"]).items():
        gs.setdefault(key, value)
    score_state(gs)
    return gs


def score_state(gs: dict) -> dict:
    score = gs.setdefault("score", new_score())
    for key, value in new_score().items():
        score.setdefault(key, value)
    return score


def seat_ids(state: dict) -> list[int]:
    return [p["id"] for p in state["players"]]


def player_count(state: dict) -> int:
    return len(state["players"])


def _pid_ok(state: dict, pid: int, field: str = "who") -> str:
    if pid not in seat_ids(state):
        raise Invalid(Problem(field, N_("That player is not at this table.")))
    return str(pid)


def players_changed(state: dict) -> None:
    """A player joined or left during setup: forget what belonged to players no longer seated."""
    gs = state.setdefault("game", {})
    ids = seat_ids(state)
    keep = {str(i) for i in ids}
    if gs.get("first") not in ids:
        gs["first"] = ids[0] if ids else None
    if gs.get("turn") not in ids:
        gs["turn"] = gs.get("first")
    if gs.get("third_on") not in ids:
        gs["third_on"] = None
    gs["stones"] = {k: v for k, v in gs.get("stones", {}).items() if k in keep}
    if not gs.get("sins") and sins_needed(state) == len(rules.SINS):
        gs["sins"] = list(rules.SINS)  # Setup A at 5 players: all seven, nothing to choose
    score = score_state(gs)
    for part in ("reserves", "stones_on", "quick"):
        score[part] = {k: v for k, v in score[part].items() if k in keep}


# -- setup -----------------------------------------------------------------------------------------

def sins_needed(state: dict) -> int | None:
    return rules.SIN_TYPES_FOR.get(player_count(state))


def choose_sins(state: dict, sins: Sequence[str]) -> tuple[str, ...]:
    """Setup A, chosen by the table: exactly the number of types the player count plays with."""
    gs = state["game"]
    unknown = [s for s in sins if s not in rules.SINS]
    if unknown:
        raise Invalid(Problem("sin", N_("Pick sin types from the list.")))
    chosen = rules.in_rulebook_order(sins)
    needed = sins_needed(state)
    if needed is not None and len(chosen) != needed:
        raise Invalid(Problem("sin", N_("With %(players)d players, pick exactly %(n)d sin types (%(picked)d picked)."),
                              {"players": player_count(state), "n": needed, "picked": len(chosen)}))
    _check_sins_cover_counts(gs, chosen)
    gs["sins"] = list(chosen)
    return chosen


def draw_sins(state: dict, rng: random.Random | None = None) -> tuple[str, ...]:
    """Setup A, drawn at random by the app."""
    needed = sins_needed(state)
    if needed is None:
        raise Invalid(Problem("draw", N_("7 - The Sins is for 2 to 5 players.")))
    if _counted_sins(state["game"]):
        raise Invalid(Problem("draw", N_("Cards are already counted for scoring: pick the types by hand instead.")))
    chosen = rules.draw_sins(player_count(state), rng)
    state["game"]["sins"] = list(chosen)
    return chosen


def _counted_sins(gs: dict) -> set[str]:
    score = score_state(gs)
    counts = list(score["reserves"].values()) + [score["abyss"] or {}]
    return {s for c in counts for s, n in c.items() if n}


def _check_sins_cover_counts(gs: dict, chosen: Sequence[str]) -> None:
    """Changing the types in play must not silently throw away counts already entered."""
    orphaned = _counted_sins(gs) - set(chosen)
    if orphaned:
        raise Invalid(Problem("sin", N_("Cards of a type you left out are already counted for scoring; "
                                        "set those counts to 0 first.")))


def tick(state: dict, step: str, done: bool) -> None:
    allowed = rules.SETUP_STEPS + rules.PENITENZIAGITE_STEPS
    if step not in allowed:
        raise Invalid(Problem("tick", N_("There is no such setup step.")))
    gs = state["game"]
    ticked = [s for s in gs.get("done", []) if s != step]
    if done:
        ticked.append(step)
    gs["done"] = [s for s in allowed if s in ticked]


def set_penitenziagite(state: dict, on: bool) -> None:
    state["game"]["penitenziagite"] = bool(on)


def set_first(state: dict, pid: int) -> None:
    """Gameplay: the player who sinned most recently starts; the turn tracker starts with them."""
    _pid_ok(state, pid)
    gs = state["game"]
    gs["first"] = pid
    gs["turn"] = pid


def draw_first(state: dict, rng: random.Random | None = None) -> int:
    rng = rng or random.SystemRandom()
    pid = rng.choice(seat_ids(state))
    set_first(state, pid)
    return pid


def start_problems(state: dict) -> list[Problem]:
    """What stops the game from starting: the sin types in play must be chosen."""
    needed = sins_needed(state)
    if needed is None:
        return [Problem("start", N_("7 - The Sins is for 2 to 5 players."))]
    if len(state["game"].get("sins", [])) != needed:
        return [Problem("start", N_("Choose the %(n)d sin types in play first (step A)."), {"n": needed})]
    return []


def start(state: dict) -> None:
    problems = start_problems(state)
    if problems:
        raise Invalid(problems)
    gs = state["game"]
    if gs.get("first") not in seat_ids(state):
        gs["first"] = seat_ids(state)[0]
    gs["turn"] = gs["first"]


# -- during play -----------------------------------------------------------------------------------

def order(state: dict) -> list[int]:
    return rules.turn_order(seat_ids(state), state["game"].get("first"))


def next_turn(state: dict) -> int:
    """The light turn tracker: the next player counter-clockwise. Under Penitenziagite, after the
    third Last Judgment, the last player finishing ends the round (and the game)."""
    gs = state["game"]
    seq = order(state)
    if ending_of(state) is not None and ending_of(state).over:
        raise Invalid(Problem("turn", N_("The game is over: go to scoring.")))
    current = gs.get("turn") if gs.get("turn") in seq else seq[0]
    if gs.get("judgments", 0) >= rules.LAST_JUDGMENTS and current == seq[-1]:
        gs["round_done"] = True
        return current
    nxt = seq[(seq.index(current) + 1) % len(seq)]
    gs["turn"] = nxt
    return nxt


def previous_player(state: dict) -> int | None:
    """The player before the one the turn tracker shows (counter-clockwise order, wrapping round)."""
    seq = order(state)
    current = state["game"].get("turn")
    if current not in seq or len(seq) < 2:
        return None
    return seq[seq.index(current) - 1]


def judgment_choices(state: dict) -> tuple[int, ...]:
    """Whose turn the next Last Judgment can be tied to: the player the tracker shows, and the one
    before (when the table tapped "done" before recording the card)."""
    seq = order(state)
    current = state["game"].get("turn") if state["game"].get("turn") in seq else (seq[0] if seq else None)
    prev = previous_player(state)
    return tuple(p for p in (current, prev) if p is not None)


def add_judgment(state: dict, delta: int, on: int | None = None) -> int:
    """Last Judgment cards revealed, 0 to 3. The third one is tied to the turn it came out on.

    `on` is whose turn that was: the player the tracker shows, or the one before when the table
    tapped "done" before recording the card (the card comes out while refilling the middle at the
    end of a turn, so both orders happen). Without `on` it is the player the tracker shows. The
    tracker itself stays where it is, so the turns already passed are not played again.
    """
    gs = state["game"]
    n = gs.get("judgments", 0) + delta
    if n > rules.LAST_JUDGMENTS:
        raise Invalid(Problem("judgments", N_("All three Last Judgment cards are already out.")))
    if n < 0:
        raise Invalid(Problem("judgments", N_("No Last Judgment card is out yet.")))
    if on is not None and (delta <= 0 or n != rules.LAST_JUDGMENTS or on not in judgment_choices(state)):
        raise Invalid(Problem("judgments", N_("Choose the player who was playing now or the one before.")))
    gs["judgments"] = n
    if n == rules.LAST_JUDGMENTS:
        if on is None:
            on = gs.get("turn") if gs.get("turn") in seat_ids(state) else order(state)[0]
        gs["third_on"] = on
        gs["round_done"] = False
    else:
        gs["third_on"] = None
        gs["round_done"] = False
    return n


def set_third_on(state: dict, pid: int) -> None:
    """Correct whose turn it was when the third Last Judgment card came out; the tracker goes back
    to that player, and the players after them in the round still play (nobody after the last)."""
    gs = state["game"]
    if gs.get("judgments", 0) < rules.LAST_JUDGMENTS:
        raise Invalid(Problem("third", N_("The third Last Judgment card is not out yet.")))
    _pid_ok(state, pid)
    gs["third_on"] = pid
    gs["turn"] = pid
    gs["round_done"] = False


def ending_of(state: dict) -> rules.Ending | None:
    """None while fewer than three Last Judgment cards are out."""
    gs = state["game"]
    if gs.get("judgments", 0) < rules.LAST_JUDGMENTS:
        return None
    return rules.ending(seat_ids(state), gs.get("first"), gs.get("third_on"), bool(gs.get("penitenziagite")),
                        current=gs.get("turn"), round_done=bool(gs.get("round_done")))


def supply(state: dict) -> int:
    """Stones of Forgiveness left next to the Abyss: the setup's stones minus those taken."""
    total = rules.STONES_FOR.get(player_count(state), 0)
    return total - sum(state["game"].get("stones", {}).values())


def stones_of(state: dict, pid: int) -> int:
    return state["game"].get("stones", {}).get(str(pid), 0)


def take_stone(state: dict, pid: int, delta: int) -> int:
    """Gameplay: feeding the Abyss earns a stone while any are left (delta -1 corrects a mistake)."""
    key = _pid_ok(state, pid)
    gs = state["game"]
    held = stones_of(state, pid)
    if delta > 0 and supply(state) < delta:
        raise Invalid(Problem("supply", N_("No Stones of Forgiveness are left in the supply.")))
    if held + delta < 0:
        raise Invalid(Problem("supply", N_("This player holds no Stones of Forgiveness.")))
    stones = dict(gs.get("stones", {}))
    stones[key] = held + delta
    if not stones[key]:
        del stones[key]
    gs["stones"] = stones
    _drop_illegal_placement(state, pid)
    return held + delta


# -- scoring ---------------------------------------------------------------------------------------

def set_mode(state: dict, mode: str) -> None:
    if mode not in MODES:
        raise Invalid(Problem("how", N_("Pick how to score from the list.")))
    score_state(state["game"])["mode"] = mode


def in_play(state: dict) -> tuple[str, ...]:
    return tuple(state["game"].get("sins", ()))


def _others_counts(state: dict, skip_player: str | None, skip_abyss: bool) -> list[Mapping[str, int]]:
    score = score_state(state["game"])
    out = [v for k, v in score["reserves"].items() if k != skip_player]
    if not skip_abyss and score["abyss"]:
        out.append(score["abyss"])
    return out


def _check_cards_left(state: dict, mine: Mapping[str, int], problems: Problems, label: Label,
                      skip_player: str | None = None, skip_abyss: bool = False) -> None:
    """Components: with everything already entered, no type may go over its 11 cards. The problem
    goes next to the box of that type on the form being saved."""
    others = _others_counts(state, skip_player, skip_abyss)
    checks.check_card_totals(others + [mine], problems, label, field=lambda sin: sin,
                             penitenziagite=bool(state["game"].get("penitenziagite")))


def save_abyss(state: dict, raw: Mapping[str, str], label: Label) -> dict[str, int]:
    """End of the game: the Abyss of Souls sorted by type (only the types in play)."""
    sins = in_play(state)
    if not sins:
        raise Invalid(Problem("abyss", N_("Choose the sin types in play first (setup step A).")))
    problems = Problems()
    counts = checks.read_sin_counts({s: raw.get(s, "") for s in sins}, "", problems, strict=False, allowed=sins,
                                   penitenziagite=bool(state["game"].get("penitenziagite")))
    if not problems:
        _check_cards_left(state, counts, problems, label, skip_abyss=True)
    problems.raise_if_any()
    score = score_state(state["game"])
    score["abyss"] = counts
    score["abyss_total"] = None
    return counts


def save_abyss_total(state: dict, raw: str) -> int:
    """The Abyss's points when the table counted them by hand."""
    problems = Problems()
    points = checks.read_count(raw, "points", problems, minimum=checks.MIN_TOTAL, maximum=checks.MAX_TOTAL, strict=False)
    problems.raise_if_any()
    score = score_state(state["game"])
    score["abyss_total"] = points
    score["abyss"] = None
    return points


def set_direction(state: dict, most_wins: bool) -> None:
    """The quick path without any Abyss count: the table says which way the Abyss went."""
    score = score_state(state["game"])
    score["most_wins"] = bool(most_wins)


def save_reserve(state: dict, pid: int, raw: Mapping[str, str], raw_stones: str, label: Label) -> dict[str, int]:
    """End of the game: one player's reserve sorted by type, and the stones they hold."""
    key = _pid_ok(state, pid)
    sins = in_play(state)
    if not sins:
        raise Invalid(Problem("reserve", N_("Choose the sin types in play first (setup step A).")))
    problems = Problems()
    counts = checks.read_sin_counts({s: raw.get(s, "") for s in sins}, "", problems, strict=False, allowed=sins,
                                   penitenziagite=bool(state["game"].get("penitenziagite")))
    n = player_count(state)
    total = rules.STONES_FOR.get(n, checks.MAX_STONES)
    stones = checks.read_count(raw_stones, "stones", problems, maximum=total, strict=False,
                               too_many=N_("Only %(max)d Stones of Forgiveness are in play."))
    if not problems:
        _check_cards_left(state, counts, problems, label, skip_player=key)
        others = sum(v for k, v in state["game"].get("stones", {}).items() if k != key)
        if others + stones > total:
            problems.add("stones", N_("Only %(supply)d stones are in play and the others hold %(others)d: "
                                      "this player can hold at most %(left)d."),
                         supply=total, others=others, left=total - others)
    problems.raise_if_any()
    gs = state["game"]
    score = score_state(gs)
    score["reserves"][key] = counts
    stones_map = dict(gs.get("stones", {}))
    if stones:
        stones_map[key] = stones
    else:
        stones_map.pop(key, None)
    gs["stones"] = stones_map
    _drop_illegal_placement(state, pid)
    return counts


def _drop_illegal_placement(state: dict, pid: int) -> None:
    """A player's own stone placement stays only while it is still legal for their reserve."""
    score = score_state(state["game"])
    key = str(pid)
    chosen = score["stones_on"].get(key)
    if chosen is None:
        return
    reserve = score["reserves"].get(key, {})
    if rules.placement_problem(reserve, stones_of(state, pid), chosen):
        del score["stones_on"][key]


def place_stones(state: dict, pid: int, stones_on: Sequence[str], label: Label) -> tuple[str, ...]:
    """Stones of Forgiveness, placed by the player instead of the suggestion."""
    key = _pid_ok(state, pid)
    score = score_state(state["game"])
    if key not in score["reserves"]:
        raise Invalid(Problem("stones_on", N_("Enter this player's reserve first.")))
    problems = Problems()
    checks.check_placement(score["reserves"][key], stones_of(state, pid), list(stones_on), "stones_on", problems, label)
    problems.raise_if_any()
    placed = tuple(sorted(stones_on))
    score["stones_on"][key] = list(placed)
    return placed


def best_stones(state: dict, pid: int) -> None:
    """Back to the suggested placement."""
    key = _pid_ok(state, pid)
    score_state(state["game"])["stones_on"].pop(key, None)


def save_quick(state: dict, pid: int, raw_points: str, raw_cards: str, raw_types: str) -> None:
    """The quick path: a player's total, with the reserve's cards and types for the tie-breaks."""
    key = _pid_ok(state, pid)
    problems = Problems()
    points = checks.read_count(raw_points, "points", problems, minimum=checks.MIN_TOTAL, maximum=checks.MAX_TOTAL, strict=False)
    cards = checks.read_count(raw_cards, "cards", problems, maximum=checks.MAX_CARDS, strict=False)
    n_types = len(in_play(state)) or len(rules.SINS)
    types = checks.read_count(raw_types, "types", problems, maximum=n_types, strict=False,
                              too_many=N_("Only %(max)d sin types are in play."))
    if not problems and types > cards:
        problems.add("types", N_("A reserve cannot hold more types than cards."))
    if not problems and cards and not types:
        problems.add("types", N_("A reserve with cards holds at least one type."))
    problems.raise_if_any()
    score_state(state["game"])["quick"][key] = {"points": points, "cards": cards, "types": types}


# -- the table's score -----------------------------------------------------------------------------

@dataclass(frozen=True)
class TableScore:
    """What the score page shows: who is still missing, and the count once everyone is in."""

    mode: str
    missing: tuple[int, ...]  # player ids still to enter
    abyss_known: bool
    abyss_points: int | None
    most_points_wins: bool | None
    game: rules.GameScore | None  # the detailed path, when complete
    quick: rules.QuickScore | None  # the quick path, when complete

    @property
    def complete(self) -> bool:
        return self.game is not None or self.quick is not None

    @property
    def winners(self) -> list[str]:
        found = self.game or self.quick
        return found.winners if found else []

    @property
    def decided_by(self) -> str | None:
        found = self.game or self.quick
        return found.decided_by if found else None


def warnings(state: dict) -> list[Problem]:
    """Impossible counts entered for scoring, shown before the result is recorded but never refused
    (see checks.count_warnings). Fields: "reserve.<player id>" and "abyss"."""
    score = score_state(state["game"])
    if score["mode"] != "detailed":
        return []
    reserves = [(f"reserve.{p['id']}", p["name"], score["reserves"][str(p["id"])])
                for p in state["players"] if str(p["id"]) in score["reserves"]]
    held = sum(state["game"].get("stones", {}).values())
    return checks.count_warnings(reserves, held, score["abyss"])


def abyss_value(score: dict) -> int | None:
    if score.get("abyss") is not None:
        return rules.abyss_points(score["abyss"])
    return score.get("abyss_total")


def table_score(state: dict) -> TableScore:
    gs = state["game"]
    score = score_state(gs)
    players = state["players"]
    abyss = abyss_value(score)
    if abyss is not None:
        most: bool | None = rules.most_points_wins(abyss)
    else:
        most = score.get("most_wins")
    if score["mode"] == "quick":
        missing = tuple(p["id"] for p in players if str(p["id"]) not in score["quick"])
        quick = None
        if not missing and most is not None:
            standings = [rules.Standing(p["name"], **score["quick"][str(p["id"])]) for p in players]
            quick = rules.score_totals(standings, most, abyss)
        return TableScore("quick", missing, most is not None, abyss, most, None, quick)
    missing = tuple(p["id"] for p in players if str(p["id"]) not in score["reserves"])
    game = None
    if not missing and abyss is not None:
        entries = [(p["name"], score["reserves"][str(p["id"])], stones_of(state, p["id"]),
                    score["stones_on"].get(str(p["id"]))) for p in players]
        game = rules.score_game(entries, abyss)
    return TableScore("detailed", missing, abyss is not None, abyss, most, game, None)


def player_score(state: dict, pid: int, most_wins: bool) -> rules.PlayerScore | None:
    """One player's count as entered so far (shown before everyone is in)."""
    score = score_state(state["game"])
    reserve = score["reserves"].get(str(pid))
    if reserve is None:
        return None
    player = next(p for p in state["players"] if p["id"] == pid)
    return rules.score_player(player["name"], reserve, stones_of(state, pid), most_wins,
                              score["stones_on"].get(str(pid)))


def result(state: dict) -> dict:
    """doc["result"] for a finished table: winners and every player's points, best first."""
    ts = table_score(state)
    if ts.game is not None:
        scores = [{"name": p.name, "points": p.points} for p in ts.game.ranked]
    elif ts.quick is not None:
        scores = [{"name": s.name, "points": s.points} for s, _r in ts.quick.ranked]
    else:
        raise Invalid(Problem("finish", N_("Enter every player's count first.")))
    return {"winners": ts.winners, "scores": scores}


def finish_problems(state: dict) -> list[Problem]:
    ts = table_score(state)
    if ts.complete:
        return []
    if ts.missing:
        return [Problem("finish", N_("Still to enter: %(names)s."),
                        {"names": ", ".join(p["name"] for p in state["players"] if p["id"] in ts.missing)})]
    if ts.mode == "quick":
        return [Problem("finish", N_("Say whether the most or the fewest points win (or count the Abyss)."))]
    return [Problem("finish", N_("Count the Abyss of Souls first."))]


def finish(doc: dict) -> dict:
    """End of the game: record the result so the table list shows it."""
    problems = finish_problems(doc["state"])
    if problems:
        raise Invalid(problems)
    doc["result"] = result(doc["state"])
    doc["status"] = "finished"
    return doc["result"]


def refresh_result(doc: dict) -> None:
    """A finished table whose count is corrected keeps its recorded result in step."""
    if doc.get("status") == "finished" and table_score(doc["state"]).complete:
        doc["result"] = result(doc["state"])
