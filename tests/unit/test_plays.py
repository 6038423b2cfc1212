"""Plays from finished tables, the group stats, and the BG Stats / CSV / share-text exports (pure)."""
from __future__ import annotations

import copy
import csv
import io
import random
from datetime import datetime, timedelta, timezone

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.games.fivesails import rules as fs_rules
from companion.games.gibbon import play as gibbon_play
from companion.games.others import state as others_state
from companion.games.sins import table as sins_table
from companion.plays import build, export, rematch, stats
from companion.plays.stats import PlayRecord
from companion.tables.players import make_players


def doc_for(game_new_state, names, colours=None):
    people = make_players(list(names), colours)
    return {"name": "Friday", "status": "playing", "state": {"players": people, "game": game_new_state(people)},
            "result": None}


def sins_doc(quick: dict, abyss_total: int, first=None):
    doc = doc_for(sins_table.new_state, list(quick))
    gs = doc["state"]["game"]
    ids = {p["name"]: p["id"] for p in doc["state"]["players"]}
    gs["score"]["mode"] = "quick"
    gs["score"]["abyss_total"] = abyss_total
    gs["score"]["quick"] = {str(ids[n]): {"points": pts, "cards": 5, "types": 3} for n, pts in quick.items()}
    if first:
        gs["first"] = ids[first]
    sins_table.finish(doc)
    return doc


CHIARA = {"Chiara": -8, "Margherita": 0, "Alberto": 1, "Luca": 8}


# -- a play for every game and result type ---------------------------------------------------------

def test_sins_fewest_points_win_when_the_abyss_scores_seven_or_less():
    play = build.build_play("sins", sins_doc(CHIARA, -1, first="Alberto"))
    assert play["highest_wins"] is False and play["no_points"] is False and play["measure"] == "points"
    assert play["outcome"] == {"most_wins": False, "abyss": -1}
    assert [(p["name"], p["score"], p["winner"], p["rank"], p["start"]) for p in play["players"]] == [
        ("Chiara", -8, True, 1, False), ("Margherita", 0, False, 2, False), ("Alberto", 1, False, 3, True),
        ("Luca", 8, False, 4, False)]


def test_sins_most_points_win_when_the_abyss_scores_above_seven():
    play = build.build_play("sins", sins_doc(CHIARA, 10))
    assert play["highest_wins"] is True
    assert [(p["name"], p["winner"], p["rank"]) for p in play["players"]] == [
        ("Chiara", False, 4), ("Margherita", False, 3), ("Alberto", False, 2), ("Luca", True, 1)]
    assert play["players"][0]["start"] is True  # a new table's first player is the first seat


def gibbon_doc():
    doc = doc_for(gibbon_play.new_state, ["Ana", "Bo", "Cy", "Di"])
    gibbon_play.start(doc["state"], 1, 2)
    doc["state"]["game"]["rounds"] = [{"seats": [1, 2, 3, 4], "dealer": 1, "bookkeeper": 2, "starter": 2,
                                       "tallies": {}, "swap": None}]
    doc["status"] = "finished"
    doc["result"] = {"winners": ["Di"], "scores": [{"name": "Di", "points": 10}, {"name": "Bo", "points": 20},
                                                   {"name": "Cy", "points": 20}, {"name": "Ana", "points": 1000}]}
    return doc


def test_gibbon_penalty_points_lowest_wins_and_ties_share_a_rank():
    play = build.build_play("gibbon", gibbon_doc())
    assert play["highest_wins"] is False and play["measure"] == "penalty"
    assert [(p["name"], p["score"], p["rank"], p["start"]) for p in play["players"]] == [
        ("Ana", 1000, 4, False), ("Bo", 20, 2, True), ("Cy", 20, 2, False), ("Di", 10, 1, False)]


def fivesails_doc(kind, winners, renown):
    doc = doc_for(fs_rules.new_state, ["Ana", "Bo", "Cy"])
    gs = doc["state"]["game"]
    for pid, r in renown.items():
        gs["players"].setdefault(str(pid), {})["renown"] = r
    doc["result"] = fs_rules.result_for(gs, doc["state"]["players"], fs_rules.Verdict(kind, tuple(winners)))
    doc["status"] = "finished"
    return doc


@pytest.mark.parametrize("kind, winners, expect", [
    pytest.param(fs_rules.ECONOMIC_WIN, ["2"], [("Ana", 3, 3), ("Bo", 7, 1), ("Cy", 5, 2)], id="economic"),
    pytest.param(fs_rules.ASSASSINATION, ["1"], [("Ana", 3, 1), ("Bo", 7, 2), ("Cy", 5, 3)], id="assassination"),
    pytest.param(fs_rules.DRAW, ["1", "2"], [("Ana", 3, 1), ("Bo", 7, 1), ("Cy", 5, 3)], id="draw"),
])
def test_fivesails_renown_and_the_victory_type(kind, winners, expect):
    play = build.build_play("fivesails", fivesails_doc(kind, winners, {1: 3, 2: 7, 3: 5}))
    assert play["highest_wins"] is True and play["measure"] == "renown"
    assert play["outcome"]["victory"] == kind
    assert [(p["name"], p["score"], p["rank"]) for p in play["players"]] == expect
    assert not any(p["start"] for p in play["players"])


@pytest.mark.parametrize("team", ["heroes", "sins"])
def test_the_others_is_a_team_result_without_points(team):
    doc = doc_for(others_state.new_state, ["Sara", "Hugo", "Ines"])
    doc["state"]["game"]["winner"] = team
    others_state._finish(doc)
    play = build.build_play("others", doc)
    assert play["no_points"] is True and play["highest_wins"] is None and play["outcome"] == {"team": team}
    got = [(p["name"], p["team"], p["winner"], p["rank"], p["score"]) for p in play["players"]]
    if team == "sins":
        assert got == [("Sara", "sins", True, 1, None), ("Hugo", "heroes", False, 2, None),
                       ("Ines", "heroes", False, 2, None)]
    else:
        assert got == [("Sara", "sins", False, 2, None), ("Hugo", "heroes", True, 1, None),
                       ("Ines", "heroes", True, 1, None)]


def test_an_unfinished_table_is_no_play():
    doc = sins_doc(CHIARA, -1)
    doc["status"] = "playing"
    assert build.build_play("sins", doc) is None


def test_re_finishing_makes_the_same_play_from_the_new_document():
    doc = sins_doc(CHIARA, -1)
    corrected = sins_doc({**CHIARA, "Luca": -9}, -1)
    assert build.build_play("sins", doc)["players"][3]["winner"] is False
    assert build.build_play("sins", corrected)["players"][3]["winner"] is True


@pytest.mark.parametrize("name, key", [("Béatrice", "beatrice"), ("  BEA  trice ", "bea trice"), ("Zoë", "zoe")])
def test_players_match_ignoring_case_accents_and_spacing(name, key):
    assert build.match_key(name) == key


@given(st.lists(st.integers(-50, 50), min_size=2, max_size=7), st.booleans())
def test_ranks_start_at_one_and_never_put_a_worse_score_ahead(scores, highest):
    players = [{"name": str(i), "score": s, "winner": False, "rank": 0} for i, s in enumerate(scores)]
    best = max(scores) if highest else min(scores)
    for p in players:
        p["winner"] = p["score"] == best
    build.competition_ranks(players, highest)
    assert min(p["rank"] for p in players) == 1
    for a in players:
        for b in players:
            if (a["score"] > b["score"]) == highest and a["score"] != b["score"]:
                assert a["rank"] < b["rank"]


# -- stats -----------------------------------------------------------------------------------------

T0 = datetime(2026, 11, 20, 20, 0, tzinfo=timezone.utc)


def record(i, play, days=0):
    return PlayRecord(i, T0 + timedelta(days=days), play)


def sins_play(scores: dict, abyss=-1):
    return build.build_play("sins", sins_doc(scores, abyss))


@pytest.fixture
def three_plays():
    return [record(1, sins_play(CHIARA), 0),
            record(2, sins_play({"Chiara": 3, "Margherita": -2, "Alberto": 1, "Luca": 8}), 7),
            record(3, build.build_play("gibbon", gibbon_doc()), 8)]


def test_wins_win_rate_averages_and_last_played(three_plays):
    s = stats.compute(three_plays)
    assert s.plays == 3
    sins = s.game("sins")
    chiara = next(ln for ln in sins.lines if ln.name == "Chiara")
    assert (chiara.plays, chiara.wins, chiara.win_rate, chiara.average, chiara.highest, chiara.lowest) == (
        2, 1, 0.5, -2.5, 3, -8)
    assert sins.highest_wins is False  # both plays were "fewest wins"
    assert sins.best(chiara) == -8 and sins.worst(chiara) == 3
    assert chiara.last_played == T0 + timedelta(days=7)
    gibbon = s.game("gibbon")
    assert [ln.name for ln in gibbon.lines][0] == "Di" and gibbon.best(gibbon.lines[0]) == 10
    assert [g.game for g in s.games] == ["sins", "gibbon"]  # most played first


def test_a_game_whose_direction_changes_names_no_best_score():
    plays = [record(1, sins_play(CHIARA, -1)), record(2, sins_play(CHIARA, 10), 1)]
    g = stats.compute(plays).game("sins")
    assert g.highest_wins is None and g.best(g.lines[0]) is None


def test_head_to_head_counts_who_finished_ahead(three_plays):
    h = stats.head_to_head(three_plays, "Chiara", "Margherita")
    assert (h.plays, h.a_ahead, h.b_ahead, h.level) == (2, 1, 1, 0)
    assert stats.head_to_head(three_plays, "Chiara", "Di").plays == 0


def test_two_spellings_merge_and_the_merge_undoes(three_plays):
    extra = record(4, sins_play({"Kiara": -9, "Margherita": 0, "Alberto": 1, "Luca": 8}), 9)
    plays = three_plays + [extra]
    apart = stats.compute(plays)
    assert {ln.name for ln in apart.game("sins").lines} == {"Chiara", "Kiara", "Margherita", "Alberto", "Luca"}
    merged = stats.compute(plays, {"Kiara": "Chiara"})
    chiara = next(ln for ln in merged.game("sins").lines if ln.name == "Chiara")
    assert (chiara.plays, chiara.wins) == (3, 2)
    assert "Kiara" not in {ln.name for ln in merged.players}
    assert stats.head_to_head(plays, "Kiara", "Margherita", {"Kiara": "Chiara"}).plays == 3
    # Undoing is dropping the mapping: the same numbers as before the merge.
    again = stats.compute(plays, {})
    assert [(ln.name, ln.plays, ln.wins) for ln in again.players] == [(ln.name, ln.plays, ln.wins) for ln in apart.players]


def test_accents_and_case_are_one_player_without_any_merge():
    plays = [record(1, sins_play(CHIARA)), record(2, sins_play({"chíara": 0, "Margherita": -3, "Alberto": 1, "Luca": 8}), 1)]
    lines = stats.compute(plays).game("sins").lines
    assert [ln.plays for ln in lines if ln.key == "chiara"] == [2]


def test_merge_chains_are_followed_and_cycles_cut():
    key = stats.resolver({"a": "b", "b": "c", "c": "a"})
    assert key("a") in {"a", "b", "c"}


def test_score_series_keeps_the_last_plays_oldest_first(three_plays):
    chosen, series = stats.score_series(three_plays, "sins")
    assert [r.id for r in chosen] == [1, 2]
    assert series["chiara"] == [(0, -8), (1, 3)]


# -- charts ----------------------------------------------------------------------------------------

def test_the_charts_are_svg_with_escaped_names_and_colour_classes(three_plays):
    from companion.plays import chart

    three_plays[0].data["players"][0]["name"] = "<b>Chi&ara</b>"
    three_plays[0].data["players"][0]["colour"] = "red"
    s = stats.compute(three_plays)
    svg = str(chart.wins_chart(s.players, "Wins", lambda ln: ln.name))
    assert svg.startswith("<svg") and "<b>" not in svg and "&lt;b&gt;Chi&amp;ara" in svg
    assert 'class="c-red"' in svg and "style=" not in svg
    chosen, series = stats.score_series(three_plays, "sins")
    lines = {ln.key: ln for ln in s.game("sins").lines}
    svg = str(chart.scores_chart(chosen, series, lines, "Scores", "older → newer"))
    assert svg.count("<polyline") == len(series) and "style=" not in svg


# -- BG Stats (the exports themselves: tests/unit/test_plays_bgstats.py) ------------------------------

START, END = datetime(2026, 11, 20, 20, 5, 9), datetime(2026, 11, 20, 21, 17, 40)


def others_doc(team):
    doc = doc_for(others_state.new_state, ["Sara", "Hugo", "Ines"])
    doc["state"]["game"]["winner"] = team
    others_state._finish(doc)
    return doc


# -- CSV and the chat text -------------------------------------------------------------------------

def test_the_csv_has_a_line_per_player_and_keeps_formulas_as_text():
    play = build.build_play("sins", sins_doc(CHIARA, -1))
    play["players"][1]["name"] = "=HYPERLINK(1)"
    rows = list(csv.DictReader(io.StringIO(export.plays_csv([("tc-1", START, END, play)]).removeprefix("\ufeff"))))
    assert len(rows) == 4 and rows[0]["player"] == "Chiara" and rows[0]["score"] == "-8"
    assert rows[0]["winner"] == "yes" and rows[0]["duration_min"] == "73" and rows[0]["game"] == "7 - The Sins"
    assert rows[1]["player"] == "'=HYPERLINK(1)"


def test_the_share_text_reads_like_the_issue_example():
    play = build.build_play("sins", sins_doc(CHIARA, -1))
    text = export.share_text(play, "7 - The Sins", "Fri 20 Nov", lambda m: m)
    assert text == ("7 - The Sins, Fri 20 Nov: Chiara wins with −8 (fewest points win: the Abyss scored −1). "
                    "Margherita 0, Alberto 1, Luca 8.")


def tied_sins_doc(totals: dict, abyss_total: int):
    """A finished 7 Sins table counted on the quick path: name -> (points, cards, types)."""
    doc = doc_for(sins_table.new_state, list(totals))
    ids = {p["name"]: p["id"] for p in doc["state"]["players"]}
    score = doc["state"]["game"]["score"]
    score["mode"], score["abyss_total"] = "quick", abyss_total
    score["quick"] = {str(ids[n]): {"points": p, "cards": c, "types": t} for n, (p, c, t) in totals.items()}
    sins_table.finish(doc)
    return doc


@pytest.mark.parametrize("totals, head", [
    pytest.param({"Ana": (-8, 9, 4), "Bo": (-8, 8, 5), "Cy": (3, 9, 4)},
                 "Ana wins: tied on points (−8), the most cards decide (9 to 8)", id="cards"),
    pytest.param({"Ana": (-8, 9, 3), "Bo": (-8, 9, 4), "Cy": (3, 9, 4)},
                 "Bo wins: tied on points (−8) and cards (9), the most different sin types decide (4 to 3)",
                 id="types"),
    pytest.param({"Ana": (-8, 9, 4), "Bo": (-8, 9, 4), "Cy": (3, 9, 4)},
                 "Ana, Bo win: tied on points (−8), cards (9) and sin types (4), they share the win", id="shared"),
])
def test_after_a_tie_on_points_the_share_text_says_what_decided(totals, head):
    """Issue 28. Rulebook, End of the game: on equal points the most cards win, then the most
    different types; still level, the tied players share it. Points first, then the tie-break."""
    play = build.build_play("sins", tied_sins_doc(totals, -1))
    text = export.share_text(play, "7 - The Sins", "Fri 20 Nov", lambda m: m)
    assert text.startswith(f"7 - The Sins, Fri 20 Nov: {head} (fewest points win: the Abyss scored −1).")


def test_the_tie_share_text_is_french_in_french(app):
    from flask_babel import force_locale, gettext

    play = build.build_play("sins", tied_sins_doc({"Ana": (-8, 9, 4), "Bo": (-8, 8, 5)}, -1))
    with app.test_request_context(), force_locale("fr"):
        text = export.share_text(play, "7 - The Sins", "ven. 20 nov.", gettext)
    assert "Ana gagne : égalité de points (−8), le plus de cartes départage (9 contre 8)" in text


def test_the_share_text_of_a_team_game_names_the_side():
    play = build.build_play("others", others_doc("sins"))
    assert export.share_text(play, "The Others: 7 Sins", "Fri 20 Nov", lambda m: m) == \
        "The Others: 7 Sins, Fri 20 Nov: the Sins player, Sara, wins."


# -- rematch ---------------------------------------------------------------------------------------

class Fixed(random.Random):
    """Draws the given seat (by index), whatever the choice."""

    def __init__(self, index):
        super().__init__(0)
        self.index = index

    def choice(self, seq):
        return seq[self.index]


@pytest.mark.parametrize("index", range(4))
def test_a_gibbon_rematch_draws_the_first_dealer_at_random_as_startup_says(index):
    """Rulebook, Startup: the first dealer is chosen at random. A rematch draws too (any seat, the
    last game's first dealer included), the dealer keeps the books, and the table knows it drew."""
    old = gibbon_doc()
    names, colours = rematch.players_for(old)
    people = make_players(names, colours)
    new = {"players": people, "game": gibbon_play.new_state(people)}
    rematch.apply_first_player("gibbon", old, new, Fixed(index))
    assert new["game"]["dealer"] == people[index]["id"] and new["game"]["bookkeeper"] == people[index]["id"]
    assert new["game"]["drawn"] is True


def test_a_rematch_after_a_swap_keeps_the_seats_the_game_ended_with():
    old = gibbon_doc()
    old["state"]["players"] = [old["state"]["players"][i] for i in (1, 0, 2, 3)]  # Bo and Ana swapped
    names, _c = rematch.players_for(old)
    assert names == ["Bo", "Ana", "Cy", "Di"]
    people = make_players(names)
    new = {"players": people, "game": gibbon_play.new_state(people)}
    rematch.apply_first_player("gibbon", old, new, Fixed(2))
    assert new["players"][[p["id"] for p in new["players"]].index(new["game"]["dealer"])]["name"] == "Cy"


def test_a_7_sins_rematch_starts_as_a_new_table_keeping_only_the_mode():
    """The first player is chosen anew; Penitenziagite is how the table plays, so it stays as it was."""
    old = sins_doc(CHIARA, -1)
    new = {"players": copy.deepcopy(old["state"]["players"]), "game": {}}
    rematch.apply_first_player("sins", old, new)
    assert new["game"] == {"penitenziagite": False}
    old["state"]["game"]["penitenziagite"] = True
    again = {"players": copy.deepcopy(old["state"]["players"]), "game": {}}
    rematch.apply_first_player("sins", old, again)
    assert again["game"] == {"penitenziagite": True}
