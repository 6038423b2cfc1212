"""The declared state of City of Five Sails and The Others (games/<game>/shape.py): every state the pure
rules reach validates, hostile values are refused, and whatever the models accept survives JSON."""
from __future__ import annotations

import copy
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games.fivesails import GAME as FIVESAILS
from companion.games.fivesails import duel as d
from companion.games.fivesails import rules
from companion.games.fivesails import shape as fs_shape
from companion.games.others import GAME as OTHERS
from companion.games.others import rules as orules
from companion.games.others import shape as ot_shape
from companion.games.others import state
from companion.tables.shape import ValidationError, first_error, validate_document

MODELS = {"fivesails": fs_shape.GameState, "others": ot_shape.GameState}


def seated(n: int) -> list[dict]:
    return [{"id": i, "name": f"P{i}", "colour": None} for i in range(1, n + 1)]


def document(game: str, n: int) -> dict:
    players = seated(n)
    new_state = rules.new_state if game == "fivesails" else state.new_state
    return {"name": "Table", "status": "setup", "state": {"players": players, "game": new_state(players)},
            "result": None}


def check(doc: dict, game: str, seen: list | None = None) -> None:
    """Valid as stored, and again after a JSON round trip (what the database keeps)."""
    first = validate_document(doc, MODELS[game])
    again = validate_document(json.loads(json.dumps(doc, allow_nan=False)), MODELS[game])
    assert first == again
    if seen is not None:
        seen.append(copy.deepcopy(doc))


def refused(doc: dict, game: str) -> ValidationError:
    with pytest.raises(ValidationError) as err:
        validate_document(doc, MODELS[game])
    return err.value


# -- a new table -----------------------------------------------------------------------------------

@pytest.mark.parametrize("game", [FIVESAILS, OTHERS], ids=lambda g: g.key)
def test_a_new_table_validates_for_every_player_count(game):
    assert game.shape is MODELS[game.key]
    for n in range(game.min_players, game.max_players + 1):
        check(document(game.key, n), game.key)


def test_the_models_player_counts_are_the_games():
    assert fs_shape.PLAYERS_MAX == FIVESAILS.max_players
    assert orules.HERO_PLAYERS_MAX + 1 == OTHERS.max_players


# -- whole games through the pure rules ----------------------------------------------------------

def _leader(name, stat, resolve, wounds=0, finesse=1):
    return {"name": name, "duel_stat": stat, "resolve": resolve, "wounds": wounds, "finesse": finesse}


def _fivesails_duel(doc, seen, setup_data, sides, cards):
    """A duel as views.py keeps it: set-up, rounds one by one, then closed onto the trackers."""
    gs = doc["state"]["game"]
    setup = d.read_setup(setup_data)
    for side, who in ((d.CHALLENGER, setup.challenger), (d.DEFENDER, setup.defender)):
        if sides[side]["leader"]:  # the duel's Resolve is the Leader's Resolve as it stands now
            rules.set_leader_resolve(gs, sides[side]["player"], who.resolve)
    gs["duel"] = {"setup": d.setup_data(setup), "rounds": [], "sides": sides}
    check(doc, "fivesails", seen)
    duel = d.resolve(setup, [])
    for rnd in cards:
        if duel.ended:
            break
        duel = d.play(duel, rnd)
        gs["duel"]["rounds"].append(d.round_data(rnd))
        check(doc, "fivesails", seen)
    while not duel.ended:
        duel = d.play(duel, d.Round(None))
        gs["duel"]["rounds"].append(d.round_data(d.Round(None)))
        check(doc, "fivesails", seen)
    leaders = []
    for side in d.SIDES:
        link, who = sides[side], duel.participant(side)
        if link["leader"]:
            leaders.append(rules.DuelWounds(link["player"], who.wounds, duel.wounds[side], who.resolve,
                                            duel.destroyed(side)))
    gs["duel"] = None
    gone = rules.close_duel(gs, leaders, rules.seat_ids(doc["state"]["players"]))
    assert gone is None or not gone.verdict.decided
    check(doc, "fivesails", seen)


def walk_fivesails(n: int = 3) -> list[dict]:
    """Setup, five Days with Initiative, Renown, control, Leaders and duels, then the Fifth Day Victory."""
    seen: list[dict] = []
    doc = document("fivesails", n)
    gs = doc["state"]["game"]
    players = doc["state"]["players"]
    seats = rules.seat_ids(players)
    check(doc, "fivesails", seen)
    for step in rules.setup_steps(n):
        gs["setup_done"].append(step.key)
        check(doc, "fivesails", seen)
    gs["line"]["flipped"] = gs["line"]["gardens_with_inn"] = True
    doc["status"] = "playing"
    rules.start_game(gs)
    check(doc, "fivesails", seen)
    rng = random.Random(7)
    for day in range(1, rules.MAX_DAYS + 1):
        assert gs["day"] == day
        rules.advance(gs, seats)  # Planning
        for i, pid in enumerate(seats):
            rules.set_initiative(gs, pid, 5 if i < 2 else day)  # a tie between the first two
        rules.hand_out_first_player(gs, seats, rng)
        check(doc, "fivesails", seen)
        rules.advance(gs, seats)  # High Drama
        rules.set_control(gs, rules.DOCKS, seats[0])
        rules.set_control(gs, rules.FORUMS, seats[1])
        rules.add_renown(gs, seats[day % n], 1)
        rules.add_influence(gs, seats[1], 2)
        check(doc, "fivesails", seen)
        if day == 1:
            rules.set_leader_resolve(gs, seats[-1], 10)
            rules.add_leader_wounds(gs, seats[-1], 2)
            check(doc, "fivesails", seen)
            _fivesails_duel(doc, seen, {"challenger": _leader("Soline", 3, 6), "defender": _leader("Ole", 2, 10, 2),
                                        "technique_thrust": 1},
                            {"challenger": {"player": seats[0], "leader": True},
                             "defender": {"player": seats[-1], "leader": True}},
                            [d.Round(d.Card(1, 1, 0)), d.Round(d.Card(0, 1, 2), lethal=True)])
        if day == 2:  # refused, then an intervention abandoned half-way
            _fivesails_duel(doc, seen, {"challenger": _leader("A", 2, 4), "defender": _leader("B", 1, 3),
                                        "refused": True},
                            {"challenger": {"player": None, "leader": False},
                             "defender": {"player": seats[1], "leader": False}}, [])
            gs["duel"] = {"setup": d.setup_data(d.read_setup({"challenger": _leader("C", 4, 5),
                                                              "defender": _leader("E", 2, 5, finesse=2),
                                                              "intervened_for": "D"})),
                          "rounds": [d.round_data(d.Round(d.Card(0, 1, 1), gambled=True, absent=True))],
                          "sides": {"challenger": {"player": None, "leader": False},
                                    "defender": {"player": None, "leader": False}}}
            check(doc, "fivesails", seen)
            gs["duel"] = None
        if day == 3:  # a Leader destroyed by its tracker, then put back
            rules.set_leader_resolve(gs, seats[1], gs["players"][seats[1]]["leader_wounds"] + 3)
            rules.add_leader_wounds(gs, seats[1], 3)
            assert rules.reaches_resolve(gs, seats[1])
            rules.destroy_leaders(gs, [seats[1]], seats)
            check(doc, "fivesails", seen)
            rules.restore_leader(gs, seats[1])
            check(doc, "fivesails", seen)
        rules.advance(gs, seats)  # Plunder
        check(doc, "fivesails", seen)
        verdict = rules.advance(gs, seats)  # the checks, then Dusk
        if verdict.decided:
            doc["result"] = rules.result_for(gs, players, verdict)
            doc["status"] = "finished"
            check(doc, "fivesails", seen)
            break
        check(doc, "fivesails", seen)
        rules.advance(gs, seats)  # the next Day's Dawn
        check(doc, "fivesails", seen)
    assert doc["status"] == "finished" and doc["result"]["victory"] == rules.FIFTH_DAY_WIN
    return seen


def _hero_in_play(doc, skip=()) -> int:
    gs = doc["state"]["game"]
    return next(hid for hid in gs["lineup"] if state.hero(gs, hid)["status"] == "play" and hid not in skip)


def _fight(doc, seen, hid, kind, roll, sin):
    state.start_fight(doc, hid, kind)
    check(doc, "others", seen)
    # The printed stats were never typed (None in the document, a valid shape): typed here, never 0.
    state.prepare_fight(doc, {"stat": 2, "base_defense": 0, "teammates": 1, "monsters": 3, "pentagrams": 1,
                              "extra_dice": 2})
    check(doc, "others", seen)
    state.resolve(doc, roll, sin)
    check(doc, "others", seen)
    if kind == state.CRISIS:
        state.close_fight(doc)
    else:
        gs = doc["state"]["game"]
        n = gs["fight"]["outcome"]["wounds_total"]
        state.apply_fight(doc, list(orules.suggested_wound_slots(state.hero(gs, hid)["wounds"], n)))
    check(doc, "others", seen)


def walk_others(heroes_win: bool = False) -> list[dict]:
    """Setup, rounds with turns, reactions, Corruption, fights, the Apocalypse track and missions; then a
    hero death after another until the reserve is empty (or the heroes' last Mission)."""
    seen: list[dict] = []
    doc = document("others", 4)  # the Sins player and three hero players: three heroes, one each
    gs = doc["state"]["game"]
    check(doc, "others", seen)
    state.set_roles(doc, 2)
    state.set_roles(doc, 1)
    state.set_sin(doc, "Pride", "Corrupted Nuns")
    state.set_story(doc, "The Fall", "corruption", "Old town")
    team = [{"id": hid, "name": f"Hero {hid}" if hid < 4 else "", "controller": {1: 2, 3: 3, 4: 4}.get(hid)}
            for hid in range(1, orules.TEAM_SIZE + 1)]
    state.set_team(doc, team)
    check(doc, "others", seen)
    for step in state.SETUP_STEPS:
        state.tick_setup(doc, step, True)
    levels = [{"card": lvl in (1, 3), "effect": f"Level {lvl}", "reactions": 1 if lvl == 2 else 0,
               "sin_dice": 1 if lvl == 4 else 0} for lvl in state.TRACK_LEVELS]
    state.set_track(doc, levels, {"id": 3, "name": "Printed"})
    check(doc, "others", seen)
    state.start_game(doc)
    check(doc, "others", seen)
    first = _hero_in_play(doc)
    state.set_stats(doc, first, 3, 2, 1)
    state.choose_first(doc, first)
    state.spend_turn(doc, first)
    check(doc, "others", seen)
    state.spend_reaction(doc, 1)
    state.add_extra_reactions(doc, 2)
    state.set_sin_card(doc, True)
    state.tick_round(doc, "summon", True)
    state.add_altars(doc, 2)
    check(doc, "others", seen)
    state.set_npc(doc, first, "commissioner", True)
    state.add_innocents(doc, first, 2)
    state.add_upgrades(doc, first, 1)
    state.add_extra_turns(doc, first, 1)
    state.take_voluntary(doc, first)
    check(doc, "others", seen)
    _fight(doc, seen, first, state.FIGHT, orules.HeroRoll(hits=2, defense=1, faith=1, flex_counter=1),
           orules.SinRoll(hits=3, corruption=2))
    while state.hero(gs, first)["corruption"] < orules.CORRUPTION_MAX:
        state.take_forced(doc, first)  # at 7 the Innocents carried are killed: a reminder
        check(doc, "others", seen)
    second = _hero_in_play(doc, skip={first})
    state.spend_turn(doc, second)  # the first hero's turn ends at 7: the Dark Past reminder
    check(doc, "others", seen)
    state.reveal_dark_past(doc, first)
    _fight(doc, seen, second, state.CRISIS, orules.HeroRoll(skill=2, faith=1, flex_skill=1), orules.SinRoll())
    state.raise_apocalypse(doc, 1)
    check(doc, "others", seen)
    state.note_card(doc, 1, "Plague", "Butcher")
    state.hell_club_killed(doc, 0)
    state.raise_apocalypse(doc, 1)
    state.raise_apocalypse(doc, 1)
    check(doc, "others", seen)
    state.skip_reveal(doc, 3)
    state.add_progress(doc, 2)
    state.set_target(doc, 5)
    state.next_mission(doc, "Took the left branch")
    state.add_mission_note(doc, "Summon the Avatar first")
    check(doc, "others", seen)
    state.end_round(doc)
    check(doc, "others", seen)
    if heroes_win:
        state.heroes_win(doc)
        check(doc, "others", seen)
        assert gs["win_reason"] == "missions"
        return seen
    while doc["status"] == "playing":
        hid = _hero_in_play(doc)
        if state.hero(gs, hid)["turns_spent"] >= 2:
            state.end_round(doc)
        state.spend_turn(doc, hid)
        while state.hero(gs, hid)["status"] == "play":
            state.take_wound(doc, hid, orules.suggested_wound_slot(state.hero(gs, hid)["wounds"]))
            check(doc, "others", seen)
        if doc["status"] == "playing":
            state.replace_hero(doc, hid, state.reserve(gs)[0]["id"])
            check(doc, "others", seen)
    assert gs["winner"] == "sins" and gs["win_reason"] == "reserve"
    return seen


def test_a_whole_game_of_five_sails_validates_at_every_step():
    for n in range(FIVESAILS.min_players, FIVESAILS.max_players + 1):
        assert len(walk_fivesails(n)) > 20


def test_a_whole_game_of_the_others_validates_at_every_step():
    assert len(walk_others()) > 30
    assert len(walk_others(heroes_win=True)) > 20


# -- refusals --------------------------------------------------------------------------------------

def _playing(game: str) -> dict:
    """A table in the middle of its game: a duel under way / a fight open."""
    if game == "fivesails":
        return next(s for s in walk_fivesails(3) if s["state"]["game"]["duel"])
    return next(s for s in walk_others() if (s["state"]["game"]["fight"] or {}).get("kind") == state.FIGHT
                and s["state"]["game"]["fight"]["outcome"])


def _set(doc: dict, path: str, value) -> dict:
    doc = copy.deepcopy(doc)
    *parents, last = path.split(".")
    node = doc["state"]["game"]
    for key in parents:
        node = node[int(key)] if isinstance(node, list) else node[key]
    if value is DELETE:
        del node[int(last) if isinstance(node, list) else last]
    elif isinstance(node, list):
        node[int(last)] = value
    else:
        node[last] = value
    return doc


DELETE = object()

REFUSED = {
    "fivesails": [
        ("a list of {} for the rounds", "duel.rounds", [{}, {}], "duel.rounds.0"),
        ("a list of {} for the tied", "first_tied", [{}], "first_tied.0"),
        ("x as a Resolve", "players.1.leader_resolve", "x", "leader_resolve"),
        ("x as a duel's Resolve", "duel.setup.defender.resolve", "x", "defender.resolve"),
        ("-7 as a seat", "first_player", "-7", "first_player"),
        ("a seat as a number", "first_player", 1, "first_player"),
        ("-7 as a seat key", "initiative", {"-7": 3}, "initiative"),
        ("a seat not at the table", "control.docks", "9", "seat 9"),
        ("a record for a seat not at the table", "players.9", {"renown": 0, "influence": 0, "leader_wounds": 0,
                                                               "leader_resolve": None, "leader_destroyed": False,
                                                               "renown_lost": 0}, "one record per player"),
        ("a duel's side not at the table", "duel.sides.challenger.player", "4", "duel.sides"),
        ("10**400 Renown", "players.1.renown", 10 ** 400, "renown"),
        ("Renown past its maximum", "players.1.renown", rules.RENOWN_MAX + 1, "renown"),
        ("NaN as a Day", "day", float("nan"), "day"),
        ("a float as a Day", "day", 2.0, "day"),
        ("True as a Day", "day", True, "day"),
        ("a string of digits as Influence", "players.2.influence", "3", "influence"),
        ("a sixth Day", "day", 6, "day"),
        ("an unknown phase", "phase", "lunch", "phase"),
        ("a location not in play with three players", "control.gardens", None, "City locations"),
        ("a missing key", "day", DELETE, "day"),
        ("a missing key in a player", "players.1.renown", DELETE, "renown"),
        ("an extra key", "cheat", 1, "cheat"),
        ("an extra key in the duel", "duel.winner", "me", "duel.winner"),
        ("a duel that does not replay", "duel.rounds", [{"card": None, "lethal": False, "gambled": False}],
         "does not replay"),
        ("wounds at the Resolve of a Leader in play", "players.1.leader_wounds", 40, "fewer wounds"),
        ("a setup step twice", "setup_done", ["pool", "pool"], "setup_done"),
    ],
    "others": [
        ("a list of {} for the heroes", "heroes", [{}] * 7, "heroes.0"),
        ("a list of {} for the reminders", "alerts", [{}], "alerts.0"),
        ("a list of {} for the notes", "mission.notes", [{}], "notes.0"),
        ("x as a Corruption level", "heroes.0.corruption", "x", "corruption"),
        ("x as a stat", "heroes.0.stats.fight", "x", "stats.fight"),
        ("-7 as a seat", "sins_player", -7, "sins_player"),
        ("-7 as a controller", "heroes.0.controller", -7, "controller"),
        ("a seat not at the table", "sins_player", 9, "seat 9"),
        ("a controller not at the table", "heroes.0.controller", 9, "seat 9"),
        ("the Sins player controlling a hero", "heroes.0.controller", 1, "Sins player controls no hero"),
        ("10**400 rounds", "round", 10 ** 400, "round"),
        ("NaN Altars", "altars", float("nan"), "altars"),
        ("infinite dice", "fight.stat", float("inf"), "fight.stat"),
        ("an eighth Apocalypse level", "apocalypse.level", 8, "apocalypse.level"),
        ("a sixth wound", "heroes.0.wounds", [1, 2, 3, 4, 5, 6], "wounds"),
        ("a wound slot twice", "heroes.0.wounds", [2, 2], "wound slots"),
        ("a hero id out of the team", "first", 8, "first"),
        ("an unknown NPC", "heroes.0.npcs", ["batman"], "npcs"),
        ("an NPC held twice", "heroes.1.npcs", ["commissioner"], "NPC tokens"),
        ("a team in the wrong order", "heroes.0.cls", "fixer", "team order"),
        ("a track of six levels", "apocalypse.track.levels", [
            {"card": False, "effect": "", "reactions": 0, "sin_dice": 0}] * 6, "track.levels"),
        ("a crisis outcome for a fight", "fight.outcome",
         {"tokens": 1, "wounds_total": 0, "corruption": 0, "overflow": 0}, "Crisis outcome"),
        ("a winner without its reason", "winner", "heroes", "win_reason"),
        ("a reminder id not yet given", "alerts", [{"id": 10 ** 6, "msg": "Done", "args": {}}], "next_alert"),
        ("a reminder with a float in it", "alerts", [{"id": 1, "msg": "%(n)s", "args": {"n": 1.5}}], "args.n"),
        ("a missing key", "apocalypse", DELETE, "apocalypse"),
        ("a missing key in a hero", "heroes.0.pending", DELETE, "pending"),
        ("an extra key", "cheat", 1, "cheat"),
        ("an extra key in a hero", "heroes.0.hp", 3, "hp"),
    ],
}


@pytest.fixture(scope="module")
def playing():
    return {game: _playing(game) for game in MODELS}


@pytest.mark.parametrize("game, path, value, named", [(g, *case[1:]) for g, cases in REFUSED.items() for case in cases],
                         ids=[f"{g}: {case[0]}" for g, cases in REFUSED.items() for case in cases])
def test_a_state_that_breaks_its_declaration_is_refused(playing, game, path, value, named):
    """Refused, and for the reason meant (the first problem names it), not by chance."""
    base = playing[game]
    check(base, game)
    if game == "others" and path == "heroes.1.npcs":
        base = _set(base, "heroes.0.npcs", ["commissioner"])
        check(base, game)
    where, why = first_error(refused(_set(base, path, value), game))
    assert named in f"{where}: {why}"


def test_a_player_leaving_the_others_after_going_back_to_setup_leaves_a_valid_table():
    doc = next(s for s in walk_others() if s["state"]["game"]["round"] == 2)
    doc["status"] = "setup"  # the table's status form allows it
    doc["state"]["players"] = [p for p in doc["state"]["players"] if p["id"] != 1]  # the Sins player leaves
    state.players_changed(doc["state"])
    check(doc, "others")


def test_a_player_leaving_five_sails_after_a_tie_leaves_no_seat_behind():
    doc = document("fivesails", 3)
    gs, seats = doc["state"]["game"], ["1", "2", "3"]
    rules.start_game(gs)
    for pid, value in zip(seats, (5, 5, 1)):
        rules.set_initiative(gs, pid, value)
    rules.hand_out_first_player(gs, seats, random.Random(3))  # a tie between seats 1 and 2, drawn at random
    doc["status"] = "setup"  # the table's status form allows it; then seat 2 leaves
    doc["state"]["players"] = [p for p in doc["state"]["players"] if p["id"] != 2]
    rules.sync_players(gs, doc["state"]["players"])
    check(doc, "fivesails")
    assert "2" not in gs["first_tied"] and gs["first_reason"] is None  # the tie it was in is gone with it


def test_the_legacy_step_index_is_accepted_within_the_day():
    doc = document("fivesails", 2)
    check(_set(doc, "step", 3), "fivesails")
    refused(_set(doc, "step", len(rules.DAY_STEPS)), "fivesails")


def test_a_result_with_the_games_own_keys_is_accepted():
    seen = walk_fivesails(2)
    final = seen[-1]
    assert set(final["result"]) == {"winners", "scores", "victory", "decided_by"}
    check(final, "fivesails")
    others = walk_others()[-1]
    assert others["result"] == {"winners": ["P1"], "scores": []}


# -- anything accepted survives JSON -------------------------------------------------------------

def _paths(node, prefix=()):
    """Every key path inside a game state (containers and leaves)."""
    out = []
    items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    for key, value in items:
        out.append(prefix + (str(key),))
        out += _paths(value, prefix + (str(key),))
    return out


@pytest.fixture(scope="module")
def corpus():
    out = []
    for game, walk in (("fivesails", walk_fivesails), ("others", walk_others)):
        states = walk()
        out += [(game, s) for s in states[:: max(1, len(states) // 12)]]
    return out


SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(-10, 100), st.integers(-10 ** 12, 10 ** 12), st.just(10 ** 400),
    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=40), st.sampled_from(["1", "2", "9", "-7", ""]),
)
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=8), st.dictionaries(st.sampled_from(["1", "2", "id", "x", "card"]), inner, max_size=4)),
    max_leaves=12)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_whatever_the_models_accept_survives_a_json_round_trip(corpus, data):
    game, base = data.draw(st.sampled_from(corpus))
    doc = copy.deepcopy(base)
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from(_paths(doc["state"]["game"])))
        if data.draw(st.booleans()):  # a key of its own beside an existing one
            path = path[:-1] + (data.draw(st.sampled_from(["1", "9", "extra", "id"])),)
        # a value copied from elsewhere in the state (valid-looking), anything at all, or no value
        value = data.draw(st.one_of(st.sampled_from(_values(doc)).map(copy.deepcopy), VALUES, st.just(DELETE)))
        try:
            doc = _set(doc, ".".join(path), value)
        except (KeyError, IndexError, ValueError, TypeError):
            continue  # a new key inside a list
    try:
        parsed = validate_document(doc, MODELS[game])
    except ValidationError:
        return
    text = json.dumps(doc, allow_nan=False)  # nothing accepted needs NaN, Infinity or a non-JSON type
    back = json.loads(text)
    assert back == doc  # no int keys, tuples or other values JSON would change
    assert validate_document(back, MODELS[game]) == parsed
    dumped = json.loads(json.dumps(parsed.model_dump(mode="json"), allow_nan=False))
    assert validate_document(dumped, MODELS[game]) == parsed


def _values(doc):
    game = doc["state"]["game"]
    out = []
    for path in _paths(game)[:200]:
        node = game
        for key in path:
            node = node[int(key)] if isinstance(node, list) else node[key]
        out.append(node)
    return out or [None]
