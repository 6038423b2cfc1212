"""The declared shapes of a table's state (tables/shape.py, games/<game>/shape.py): a new table fits
for every player count, documents built from the models fit and survive JSON and the games' own
reading, and what no table can hold is refused with the field named."""
from __future__ import annotations

import copy
import json
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.domain import Invalid
from companion.games import GAMES
from companion.games.gibbon import chart, play
from companion.games.gibbon import rules as gibbon_rules
from companion.games.gibbon.shape import ROUND_MAX
from companion.games.sins import pages, table
from companion.games.sins import rules as sins_rules
from companion.plays import transfer
from companion.tables.players import COLOURS
from companion.tables.shape import ValidationError, first_error, validate_document

relaxed = settings(deadline=None, max_examples=150)
SHAPED = sorted(key for key, g in GAMES.items() if g.shape is not None)


def players(ids, colours=None):
    return [{"id": pid, "name": f"Player {pid}", "colour": (colours or {}).get(pid)} for pid in ids]


def document(gs, ids, status="setup", result=None):
    return {"name": "Table", "status": status, "state": {"players": players(ids), "game": gs}, "result": result}


def refused(doc, key="sins"):
    with pytest.raises(ValidationError) as err:
        validate_document(doc, GAMES[key].shape)
    return first_error(err.value)


# -- a new table -----------------------------------------------------------------------------------

def test_the_two_games_declare_their_shape():
    assert {"sins", "gibbon"} <= set(SHAPED)


@pytest.mark.parametrize("key", SHAPED)
def test_a_new_table_fits_for_every_allowed_player_count(key):
    game = GAMES[key]
    for n in range(game.min_players, game.max_players + 1):
        ids = list(range(1, n + 1))
        parsed = validate_document(document(game.new_state(players(ids)), ids), game.shape)
        assert parsed.state.game.model_dump(mode="json", exclude_unset=True) == game.new_state(players(ids))


def test_the_gibbon_round_limit_is_the_round_forms():
    from companion.games.gibbon.forms import ROUND_MAX as FORM_MAX

    assert ROUND_MAX == FORM_MAX


# -- documents built from the models ---------------------------------------------------------------

seat_ids = st.lists(st.integers(1, 99), unique=True)


@st.composite
def by_type(draw, budget: dict, sins=sins_rules.SINS):
    """Cards by sin type (1-12 each), within what is left of each type's 12 cards."""
    out = {}
    for sin in draw(st.lists(st.sampled_from(sins), unique=True, max_size=len(sins))):
        if budget[sin] >= 1:
            out[sin] = draw(st.integers(1, budget[sin]))
            budget[sin] -= out[sin]
    return out


@st.composite
def sins_states(draw):
    ids = draw(seat_ids.filter(lambda xs: 2 <= len(xs) <= 5))
    keys = [str(i) for i in ids]
    budget = {s: sins_rules.cards_of_a_type(True) for s in sins_rules.SINS}
    seat = st.none() | st.sampled_from(ids)
    judgments = draw(st.integers(0, 3))
    stones, left = {}, 10
    for key in draw(st.lists(st.sampled_from(keys), unique=True)):
        if left:
            stones[key] = draw(st.integers(1, left))
            left -= stones[key]
    abyss = draw(st.none() | by_type(budget))
    score = {
        "mode": draw(st.sampled_from(table.MODES)),
        "abyss": abyss,
        "abyss_total": None if abyss is not None else draw(st.none() | st.integers(-42, 70)),
        "reserves": {k: draw(by_type(budget)) for k in draw(st.lists(st.sampled_from(keys), unique=True))},
        "stones_on": {k: draw(st.lists(st.sampled_from(sins_rules.SINS), unique=True))
                      for k in draw(st.lists(st.sampled_from(keys), unique=True))},
        "quick": {k: {"points": draw(st.integers(-42, 70)), "cards": draw(st.integers(0, 84)),
                      "types": draw(st.integers(0, 7))} for k in draw(st.lists(st.sampled_from(keys), unique=True))},
        "most_wins": draw(st.none() | st.booleans()),
    }
    gs = {
        "sins": list(sins_rules.in_rulebook_order(draw(st.lists(st.sampled_from(sins_rules.SINS), unique=True)))),
        "penitenziagite": draw(st.booleans()),
        "done": draw(st.lists(st.sampled_from(sins_rules.SETUP_STEPS + sins_rules.PENITENZIAGITE_STEPS), unique=True)),
        "first": draw(seat), "turn": draw(seat), "judgments": judgments,
        "third_on": draw(seat) if judgments == sins_rules.LAST_JUDGMENTS else None,
        "round_done": draw(st.booleans()), "stones": stones, "score": score,
    }
    return ids, gs


@st.composite
def tally(draw, hat=False, braveheart=False):
    return {**{c: draw(st.integers(0, gibbon_rules.COUNT_MAX[c])) for c in gibbon_rules.COUNTS},
            "hat": hat, "braveheart": braveheart}


@st.composite
def gibbon_states(draw):
    ids = draw(seat_ids.filter(lambda xs: 3 <= len(xs) <= 7))
    started = draw(st.booleans())
    dealer = draw(st.sampled_from(ids)) if started else None
    gs = {"dealer": dealer, "bookkeeper": draw(st.sampled_from(ids)) if started else None,
          "drawn": draw(st.booleans()) if started else False,
          "checklist": draw(st.lists(st.sampled_from(play.CHECKLIST), unique=True)), "rounds": []}
    n_rounds = draw(st.integers(0, 6)) if started else 0
    for n in range(n_rounds):
        seats = draw(st.permutations(ids))
        hat, bh = draw(st.none() | st.sampled_from(ids)), draw(st.none() | st.sampled_from(ids))
        chooser = draw(st.sampled_from(ids))
        partner = draw(st.none() | st.sampled_from([i for i in ids if i != chooser]))
        swap = {"chooser": chooser, "partner": partner}
        if n == n_rounds - 1:
            swap = draw(st.none() | st.just(swap))
        gs["rounds"].append({
            "seats": list(seats), "dealer": draw(st.sampled_from(ids)), "bookkeeper": draw(st.sampled_from(ids)),
            "starter": draw(st.sampled_from(ids)),
            "tallies": {str(pid): draw(tally(hat=pid == hat, braveheart=pid == bh)) for pid in ids}, "swap": swap})
    return ids, gs


@relaxed
@given(sins_states(), st.sampled_from(("setup", "playing", "finished")))
def test_a_sins_state_built_from_the_model_fits_survives_json_and_every_page_reads_it(built, status):
    ids, gs = built
    doc = document(gs, ids, status)
    parsed = validate_document(doc, GAMES["sins"].shape)
    again = json.loads(json.dumps(doc))
    assert again == doc and validate_document(again, GAMES["sins"].shape) == parsed
    assert parsed.model_dump(mode="json")["state"]["game"] == gs  # nothing was coerced on the way
    for slug in ("setup", "play", "score"):
        view = pages.build(slug, None, copy.deepcopy(doc["state"]))
        assert view.n == len(ids)
    state = copy.deepcopy(doc["state"])
    assert table.supply(state) >= -10 and table.finish_problems(state) is not None


@relaxed
@given(gibbon_states())
def test_a_gibbon_state_built_from_the_model_fits_survives_json_and_play_reads_it(built):
    ids, gs = built
    doc = document(gs, ids, "playing" if gs["rounds"] else "setup")
    parsed = validate_document(doc, GAMES["gibbon"].shape)
    again = json.loads(json.dumps(doc))
    assert again == doc and validate_document(again, GAMES["gibbon"].shape) == parsed
    assert parsed.model_dump(mode="json")["state"]["game"] == gs
    state = copy.deepcopy(doc["state"])
    found = play.scores(state)
    assert len(found) == len(gs["rounds"]) and len(play.standings(state)) == len(ids)
    jobs = play.upcoming_jobs(state)
    assert (jobs is None) == (gs["dealer"] is None)
    if jobs is not None:
        assert {jobs.dealer, jobs.bookkeeper, jobs.starter} <= set(ids)
    play.swap_pending(state)
    chart.running_chart(ids, sorted(ids), [s.totals for s in found], {})


# -- what no table holds ---------------------------------------------------------------------------

def sins_doc(n=4):
    ids = list(range(1, n + 1))
    return document(table.new_state(players(ids)), ids)


def gibbon_doc():
    ids = [1, 2, 3, 4]
    gs = play.new_state(players(ids))
    gs.update(dealer=1, bookkeeper=2)
    tallies = {str(i): {**{c: 0 for c in gibbon_rules.COUNTS}, "hat": False, "braveheart": False} for i in ids}
    gs["rounds"] = [{"seats": ids, "dealer": 1, "bookkeeper": 2, "starter": 2, "tallies": tallies, "swap": None}]
    return document(gs, ids, "playing")


def at(doc, *path):
    target = doc
    for key in path[:-1]:
        target = target[key]
    return target, path[-1]


def changed(doc, path, value):
    doc = copy.deepcopy(doc)
    target, key = at(doc, *path)
    if value is KeyError:
        del target[key]
    else:
        target[key] = value
    return doc


def test_the_examples_fit_before_they_are_broken():
    validate_document(sins_doc(), GAMES["sins"].shape)
    validate_document(gibbon_doc(), GAMES["gibbon"].shape)


G, T = ("state", "game"), ("state", "game", "rounds", 0, "tallies", "1")
CASES = [
    # a list of {} where the setup steps belong
    ("sins", G + ("done",), [{}], "state.game.done.0"),
    ("gibbon", G + ("checklist",), [{}, {}], "state.game.checklist.0"),
    ("sins", G + ("sins",), [{}], "state.game.sins.0"),
    # "x" as a count
    ("sins", G + ("judgments",), "x", "state.game.judgments"),
    ("sins", G + ("stones",), {"1": "x"}, "state.game.stones.1"),
    ("gibbon", T + ("low",), "x", "state.game.rounds.0.tallies.1.low"),
    ("gibbon", T + ("low",), "3", "state.game.rounds.0.tallies.1.low"),
    ("gibbon", T + ("hat",), 1, "state.game.rounds.0.tallies.1.hat"),
    # -7 as a seat
    ("sins", G + ("first",), -7, "state.game.first"),
    ("gibbon", G + ("dealer",), -7, "state.game.dealer"),
    ("gibbon", G + ("rounds", 0, "starter"), -7, "state.game.rounds.0.starter"),
    ("sins", ("state", "players", 0, "id"), -7, "state.players.0.id"),
    # 10**400, and counts past what the box holds
    ("sins", G + ("judgments",), 10**400, "state.game.judgments"),
    ("gibbon", T + ("fattest_pile",), 10**400, "state.game.rounds.0.tallies.1.fattest_pile"),
    ("sins", G + ("judgments",), 4, "state.game.judgments"),
    ("gibbon", T + ("high",), gibbon_rules.HIGH_CARDS + 1, "state.game.rounds.0.tallies.1.high"),
    ("sins", G + ("score", "abyss_total"), 71, "state.game.score.abyss_total"),
    # NaN, Infinity and floats for whole numbers
    ("sins", G + ("judgments",), math.nan, "state.game.judgments"),
    ("gibbon", T + ("cheats",), math.inf, "state.game.rounds.0.tallies.1.cheats"),
    ("sins", G + ("score", "abyss_total"), 2.0, "state.game.score.abyss_total"),
    # a missing key, an extra key
    ("sins", G + ("score",), KeyError, "state.game.score"),
    ("gibbon", T + ("braveheart",), KeyError, "state.game.rounds.0.tallies.1.braveheart"),
    ("sins", G + ("evil",), 1, "state.game.evil"),
    ("gibbon", G + ("rounds", 0, "evil"), 1, "state.game.rounds.0.evil"),
    ("sins", ("evil",), 1, "evil"),
    # enumerations
    ("sins", G + ("score", "mode"), "fast", "state.game.score.mode"),
    ("sins", G + ("done",), ["A", "A"], "state.game.done"),
    ("sins", G + ("score", "reserves"), {"1": {"pigritia": 2}}, "state.game.score.reserves.1.pigritia"),
    ("sins", G + ("stones",), {"01": 1}, "state.game.stones.01"),
]


@pytest.mark.parametrize("key, path, value, where", CASES,
                         ids=[f"{c[0]}-{'.'.join(map(str, c[1][2:] or c[1]))}-{str(c[2])[:12]}" for c in CASES])
def test_what_no_table_holds_is_refused_with_its_field_named(key, path, value, where):
    doc = changed(sins_doc() if key == "sins" else gibbon_doc(), path, value)
    found, _message = refused(doc, key)
    assert found == where or found.startswith(where + "."), (found, _message)


@pytest.mark.parametrize("key, make, words", [
    ("sins", lambda d: changed(d, G + ("turn",), 9), "turn: player 9"),
    ("sins", lambda d: changed(d, G + ("score", "quick"), {"8": {"points": 1, "cards": 1, "types": 1}}), "quick.8"),
    ("sins", lambda d: changed(d, G + ("third_on",), 1), "third_on"),
    ("sins", lambda d: changed(d, G + ("stones",), {"1": 6, "2": 5}), "Stones"),
    ("sins", lambda d: changed(changed(d, G + ("score", "abyss"), {"ira": 2}), G + ("score", "abyss_total"), 3),
     "not both"),
    ("sins", lambda d: changed(changed(d, G + ("score", "abyss"), {"ira": 7}), G + ("score", "reserves"),
                               {"1": {"ira": 6}}), "12 ira"),
    ("gibbon", lambda d: changed(d, G + ("bookkeeper",), None), "both"),
    ("gibbon", lambda d: changed(d, G + ("rounds", 0, "seats"), [1, 2, 3]), "tallies"),
    ("gibbon", lambda d: changed(d, G + ("rounds", 0, "dealer"), 5), "dealer"),
    ("gibbon", lambda d: changed(d, G + ("rounds", 0, "swap"), {"chooser": 1, "partner": 1}), "themselves"),
    ("gibbon", lambda d: changed(d, G + ("rounds",), [d["state"]["game"]["rounds"][0]] * 2), "swap"),
    ("gibbon", lambda d: changed(changed(d, T + ("hat",), True), G + ("rounds", 0, "tallies", "2", "hat"), True),
     "more than one hat"),
])
def test_what_the_rules_never_write_together_is_refused(key, make, words):
    _where, message = refused(make(sins_doc() if key == "sins" else gibbon_doc()), key)
    assert words in message


def test_players_and_the_result_are_checked_too():
    doc = sins_doc()
    doc["state"]["players"][1]["id"] = 1
    assert "share an id" in refused(doc)[1]
    doc = changed(sins_doc(), ("state", "players", 0, "colour"), "mauve")
    assert refused(doc)[0].startswith("state.players.0.colour")
    assert "mauve" not in COLOURS
    doc = changed(sins_doc(), ("result",), {"winners": ["Player 1"], "scores": [{"name": "Player 1", "points": 10**10}]})
    assert refused(doc)[0] == "result.scores.0.points"
    doc = changed(sins_doc(), ("result",), {"winners": ["Player 1"], "scores": [], "why": [[[[[[[[1]]]]]]]]})
    assert refused(doc)[0] == "result"
    doc = changed(sins_doc(), ("result",), {"winners": ["Player 1"], "scores": [{"name": "Player 1", "points": 3,
                                                                                 "cards": 9}]})
    validate_document(doc, GAMES["sins"].shape)  # a game may say more about a score


# -- the file itself -------------------------------------------------------------------------------

@pytest.mark.parametrize("text", ["NaN", "Infinity", "-Infinity", "1e400", "-1e999"])
def test_a_file_with_a_number_json_does_not_have_is_not_json(text):
    raw = '{"format": "table-companion/table", "version": 1, "x": %s}' % text
    with pytest.raises(Invalid) as err:
        transfer.parse(raw.encode())
    assert "not valid JSON" in err.value.problems[0].text()


def test_a_refused_document_names_the_field_in_the_files_terms():
    data = {"format": transfer.FORMAT, "version": transfer.VERSION, "game": "sins",
            "document": changed(sins_doc(), G + ("judgments",), 10**400)}
    with pytest.raises(Invalid) as err:
        transfer.validate(data, GAMES)
    problem = err.value.problems[0]
    assert problem.field == "file" and "document.state.game.judgments" in problem.text()
    data["document"] = sins_doc()
    assert transfer.validate(data, GAMES)[0] == "sins"


# -- what a rule writes that its model refuses (findings: the rule is to fix, not the model) --------

def test_the_bookkeeper_leaving_before_the_first_round_leaves_a_state_that_fits():
    ids = [1, 2, 3, 4]
    state = {"players": players(ids), "game": play.new_state(players(ids))}
    play.start(state, 1, 2)
    state["players"] = [p for p in state["players"] if p["id"] != 2]
    play.players_changed(state)
    validate_document({"name": "Table", "status": "setup", "state": state, "result": None}, GAMES["gibbon"].shape)
    assert (state["game"]["dealer"], state["game"]["bookkeeper"]) == (1, 1)  # the dealer keeps the books
