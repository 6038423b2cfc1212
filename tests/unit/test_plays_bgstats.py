"""What leaves the app for BG Stats and spreadsheets (issue 29), pure: the createPlay JSON of every
game, the play's id, the `.bgsplay` file checked against the public example it follows, the CSV,
and the group stats that go with it (head to head in one game, one colour per player, per-role
win rates)."""
from __future__ import annotations

import csv
import io
import json
import re
from datetime import datetime, timezone
from zoneinfo import ZoneInfo

import pytest

from companion.games.fivesails import rules as fs_rules
from companion.plays import bgsplay, build, chart, export, stats, transfer
from companion.plays.stats import PlayRecord
from companion.tables.shape import PlayInfo
from tests.unit.test_plays import CHIARA, fivesails_doc, gibbon_doc, others_doc, sins_doc

ROME = ZoneInfo("Europe/Rome")
# 23:22 in Rome on 20 November is 22:22 UTC the same day: BG Stats gets UTC and shows it in the phone's time.
START = datetime(2026, 11, 20, 23, 22, 0, tzinfo=ROME)
END = datetime(2026, 11, 21, 0, 35, 30, tzinfo=ROME)


def fivesails_with_roles():
    doc = fivesails_doc(fs_rules.ECONOMIC_WIN, ["2"], {1: 3, 2: 7, 3: 5})
    doc["state"]["play"] = {"roles": {"1": {"faction": "Eisen", "leader": "Kaspar"}, "2": {"faction": "Castille"}},
                            "note": "Bo  took the Docks early."}
    return doc


def others_with_heroes(team):
    doc = others_doc(team)
    gs = doc["state"]["game"]
    gs["sin"] = "Pride"
    for h, name in zip((h for h in gs["heroes"] if h["controller"] is not None), ("Karl", "Rose", "Gail")):
        h["name"] = name
    return doc


def bgstats_of(game, doc):
    return export.bgstats(build.build_play(game, doc), "tc-" + "a" * 24, START, END)


# -- createPlay JSON, every game -------------------------------------------------------------------

@pytest.mark.parametrize("game, doc, bgg_id, highest", [
    pytest.param("sins", lambda: sins_doc(CHIARA, -1, first="Alberto"), None, False, id="sins"),
    pytest.param("gibbon", gibbon_doc, None, False, id="gibbon"),
    pytest.param("fivesails", fivesails_with_roles, 367584, True, id="fivesails"),
    pytest.param("others", lambda: others_with_heroes("heroes"), 172047, False, id="others"),
])
def test_the_bgstats_json_of_every_game_has_the_fields_bgstats_reads(game, doc, bgg_id, highest):
    data = bgstats_of(game, doc())
    assert {"sourceName", "sourcePlayId", "playDate", "durationMin", "game", "players"} <= set(data)
    assert data["sourceName"] == "Table Companion" and data["sourcePlayId"] == "tc-" + "a" * 24
    assert data["playDate"] == "2026-11-20 22:22:00"  # UTC, as BG Stats reads it
    assert data["durationMin"] == 74
    assert data["game"]["sourceGameId"] == f"tc-{game}" and data["game"]["highestWins"] is highest
    assert data["game"].get("bggId") == bgg_id
    assert data["game"]["noPoints"] is (game == "others")
    for p in data["players"]:
        assert {"name", "winner", "rank", "startPlayer", "sourcePlayerId"} <= set(p)
        assert isinstance(p["startPlayer"], bool) and isinstance(p["winner"], bool)
        assert ("score" in p) is (game != "others")
    json.dumps(data)  # plain JSON


def test_the_others_sends_no_score_a_real_role_and_the_sides_places():
    data = bgstats_of("others", others_with_heroes("heroes"))
    got = [(p["name"], p["winner"], p["rank"], p["role"]) for p in data["players"]]
    assert got == [("Sara", False, 2, "Sins: Pride"), ("Hugo", True, 1, "Heroes: Karl, Gail"),
                   ("Ines", True, 1, "Heroes: Rose")]
    sins_win = bgstats_of("others", others_with_heroes("sins"))
    assert [p["rank"] for p in sins_win["players"]] == [1, 2, 2]


def test_the_table_can_say_other_heroes_than_the_game_knew():
    doc = others_with_heroes("heroes")
    doc["state"]["play"] = {"roles": {"2": {"heroes": ["Karl", "Mi-Ja"]}, "1": {"sin": "Sloth"}}}
    roles = [p["role"] for p in bgstats_of("others", doc)["players"]]
    assert roles == ["Sins: Sloth", "Heroes: Karl, Mi-Ja", "Heroes: Rose"]


def test_five_sails_sends_faction_and_leader_as_one_role_and_the_note_as_comments():
    data = bgstats_of("fivesails", fivesails_with_roles())
    assert [p.get("role") for p in data["players"]] == ["Eisen / Kaspar", "Castille", None]
    assert data["comments"] == "Bo took the Docks early."


def test_seven_sins_keeps_the_tables_winners_and_says_which_way_the_play_went():
    most = bgstats_of("sins", sins_doc(CHIARA, 10))
    assert most["game"]["highestWins"] is False  # one direction for the game, as BG Stats keeps it
    assert [(p["name"], p["winner"], p["rank"]) for p in most["players"]] == [
        ("Chiara", False, 4), ("Margherita", False, 3), ("Alberto", False, 2), ("Luca", True, 1)]
    assert most["comments"] == "Most points won this play: the Abyss scored 10."
    fewest = bgstats_of("sins", sins_doc(CHIARA, -1))
    assert fewest["comments"] == "Fewest points won this play: the Abyss scored \u22121."


def test_a_naive_time_is_utc_and_the_link_decodes_to_the_json():
    data = export.bgstats(build.build_play("gibbon", gibbon_doc()), "tc-x", datetime(2026, 1, 2, 3, 4, 5),
                          datetime(2026, 1, 2, 4, 4, 5))
    assert data["playDate"] == "2026-01-02 03:04:05" and data["durationMin"] == 60
    link = export.bgstats_link(data)
    assert link.startswith("https://app.bgstatsapp.com/createPlay.html?data=")
    from urllib.parse import parse_qs, urlsplit

    assert json.loads(parse_qs(urlsplit(link).query)["data"][0]) == data


def test_the_translation_function_words_roles_and_comments():
    french = {"Sins: %(sin)s": "Péchés\u202f: %(sin)s", "Heroes: %(heroes)s": "Héros\u202f: %(heroes)s"}
    data = export.bgstats(build.build_play("others", others_with_heroes("sins")), "tc-x", START, END,
                          lambda m: french.get(m, m))
    assert data["players"][0]["role"] == "Péchés\u202f: Pride"


# -- the play's id ---------------------------------------------------------------------------------

def test_the_play_id_is_stable_across_link_rotation_export_and_import():
    doc = sins_doc(CHIARA, -1)
    view = "V" * 24
    first = export.play_id(doc["state"], view)
    # Replacing the edit link keeps the view-only link: the id is worked out from that one.
    assert export.play_id(doc["state"], view) == first and first.startswith("tc-") and view not in first
    # Once written down (the players described the play), the document carries it...
    doc["state"]["play"] = {"id": first, "note": "", "roles": {}}
    # ...into a backup, which an import reads back as the same document, under new links.
    data = {"format": transfer.FORMAT, "version": transfer.VERSION, "game": "sins", "exported_at": "x",
            "document": json.loads(json.dumps(doc)), "history": []}
    from companion.games import GAMES

    _game, restored = transfer.validate(transfer.parse(json.dumps(data).encode()), GAMES)
    assert export.play_id(restored["state"], "N" * 24) == first
    assert export.derived_play_id("N" * 24) != first
    PlayInfo.model_validate(restored["state"]["play"], strict=True)


def test_players_keep_their_ids_across_plays():
    assert export.source_player_id("Béa") == export.source_player_id("bea")
    assert export.source_player_id("Bea") != export.source_player_id("Bo")


# -- the .bgsplay file, against the public example it follows --------------------------------------

# The keys ctuncan/bga_bgstats (main.py, which writes output.bgsplay) puts on each object, and what a
# play file written by BG Stats itself adds (pastebin.com/iDbHyBui): the `about` line, and each
# player's, location's and game's `modificationDate`.
EXAMPLE_TOP = {"games", "plays", "locations", "players", "userInfo"}
EXAMPLE_PLAY = {"uuid", "ignored", "rating", "scoringSetting", "playerScores", "playDate", "manualWinner",
                "locationRefId", "rounds", "usesTeams", "playImages", "durationMin", "gameRefId"}
EXAMPLE_SCORE = {"winner", "seatOrder", "score", "startPlayer", "playerRefId", "rank", "newPlayer"}
EXAMPLE_LOCATION = {"id", "name", "uuid"}
EXAMPLE_PLAYER = {"id", "isAnonymous", "name", "uuid"}
EXAMPLE_GAME = {"id", "uuid", "noPoints", "highestWins", "cooperative", "usesTeams", "bggId", "bggYear", "name"}
UUID = re.compile(r"^[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}$")
STAMP = re.compile(r"^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$")


def group_file():
    entries = [("tc-" + "1" * 24, START, END, build.build_play("sins", sins_doc(CHIARA, -1))),
               ("tc-" + "2" * 24, START, END, build.build_play("others", others_with_heroes("heroes"))),
               ("tc-" + "3" * 24, START, END, build.build_play("fivesails", fivesails_with_roles()))]
    return bgsplay.play_file(entries, datetime(2026, 11, 22, 9, 0, tzinfo=timezone.utc))


def test_the_bgsplay_file_has_the_structure_of_the_public_example():
    data = json.loads(json.dumps(group_file()))
    assert EXAMPLE_TOP | {"about"} <= set(data)
    assert data["about"].startswith("This is a Play file that can be read by Board Game Stats.")
    assert set(data["userInfo"]) == {"meRefId"}
    for key, want in (("plays", EXAMPLE_PLAY), ("locations", EXAMPLE_LOCATION | {"modificationDate"}),
                      ("players", EXAMPLE_PLAYER | {"modificationDate"}), ("games", EXAMPLE_GAME | {"modificationDate"})):
        assert data[key], key
        for item in data[key]:
            assert want <= set(item), (key, want - set(item))
            if "uuid" in item:
                assert UUID.match(item["uuid"]), item["uuid"]
    for play in data["plays"]:
        assert STAMP.match(play["playDate"]) and play["playDate"] == "2026-11-20 22:22:00"
        assert isinstance(play["playImages"], str) and play["playImages"] == "[]"
        for score in play["playerScores"]:
            assert EXAMPLE_SCORE <= set(score) and isinstance(score["score"], str)


def test_every_reference_in_the_file_points_at_something_in_it():
    data = group_file()
    ids = {key: {x["id"] for x in data[key]} for key in ("players", "games", "locations")}
    for key in ids:
        assert len(ids[key]) == len(data[key])  # ids are unique
    for play in data["plays"]:
        assert play["gameRefId"] in ids["games"] and play["locationRefId"] in ids["locations"]
        assert {s["playerRefId"] for s in play["playerScores"]} <= ids["players"]
        assert [s["seatOrder"] for s in play["playerScores"]] == list(range(1, len(play["playerScores"]) + 1))


def test_the_file_says_games_roles_teams_and_notes():
    data = group_file()
    games = {g["name"]: g for g in data["games"]}
    assert games["The Others: 7 Sins"]["bggId"] == 172047 and games["The Others: 7 Sins"]["usesTeams"] is True
    assert games["7th Sea: City of Five Sails"]["bggId"] == 367584 and games["7 - The Sins"]["bggId"] == 0
    sins, others, fivesails = data["plays"]
    assert sins["manualWinner"] is True and others["manualWinner"] is True and fivesails["manualWinner"] is False
    assert [s["score"] for s in sins["playerScores"]] == ["-8", "0", "1", "8"]
    assert [s["score"] for s in others["playerScores"]] == ["", "", ""]
    assert [(s.get("team"), s.get("role")) for s in others["playerScores"]] == [
        ("Sins", "Sins: Pride"), ("Heroes", "Heroes: Karl, Gail"), ("Heroes", "Heroes: Rose")]
    assert fivesails["playerScores"][0]["role"] == "Eisen / Kaspar" and fivesails["comments"] == "Bo took the Docks early."


def test_the_same_things_get_the_same_uuids_in_every_file():
    one, two = group_file(), group_file()
    assert [p["uuid"] for p in one["plays"]] == [p["uuid"] for p in two["plays"]]
    assert [p["uuid"] for p in one["players"]] == [p["uuid"] for p in two["players"]]
    names = [p["name"] for p in one["players"]]
    assert len(names) == len({n.casefold() for n in names})  # one entry per player over all plays


# -- CSV -------------------------------------------------------------------------------------------

def test_the_csv_is_utf8_with_a_bom_and_semicolons_when_asked():
    play = build.build_play("fivesails", fivesails_with_roles())
    play["players"][0]["name"] = "Zoé"
    body = export.plays_csv([("tc-1", START, END, play)], sep=";")
    assert body.startswith("\ufeff") and "Zoé" in body.encode("utf-8").decode("utf-8")
    rows = list(csv.DictReader(io.StringIO(body.removeprefix("\ufeff")), delimiter=";"))
    assert [(r["player"], r["role"]) for r in rows] == [("Zoé", "Eisen / Kaspar"), ("Bo", "Castille"), ("Cy", "")]
    assert rows[0]["note"] == "Bo took the Docks early."
    assert export.plays_csv([("tc-1", START, END, play)]).splitlines()[0].count(",") == len(export.CSV_COLUMNS) - 1


# -- the group's stats -----------------------------------------------------------------------------

def rec(i, game, doc, day=0):
    return PlayRecord(i, datetime(2026, 11, 1 + day, 20, tzinfo=timezone.utc), build.build_play(game, doc))


def ranked(i, game, ranks: dict, day=0):
    """A stored play with just what head to head reads: each player's place."""
    players = [{"name": n, "rank": r, "winner": r == 1, "score": None} for n, r in ranks.items()]
    return PlayRecord(i, datetime(2026, 11, 1 + day, 20, tzinfo=timezone.utc), {"game": game, "players": players})


def test_head_to_head_honours_the_game_filter():
    records = [ranked(1, "sins", {"Chiara": 1, "Luca": 2}), ranked(2, "sins", {"Chiara": 1, "Luca": 3, "Cy": 2}),
               ranked(3, "sins", {"Chiara": 2, "Luca": 1}), ranked(4, "gibbon", {"Chiara": 2, "Luca": 1}),
               ranked(5, "gibbon", {"Chiara": 1, "Luca": 1}), ranked(6, "gibbon", {"Chiara": 1, "Cy": 2})]
    every = stats.head_to_head(records, "Chiara", "Luca")
    assert (every.plays, every.a_ahead, every.b_ahead, every.level) == (5, 2, 2, 1)
    sins = stats.head_to_head(records, "Chiara", "Luca", game="sins")
    assert (sins.plays, sins.a_ahead, sins.b_ahead, sins.level) == (3, 2, 1, 0)
    gibbon = stats.head_to_head(records, "chiara", "LUCA", game="gibbon")
    assert (gibbon.plays, gibbon.a_ahead, gibbon.b_ahead, gibbon.level) == (2, 0, 1, 1)
    assert stats.head_to_head(records, "Chiara", "Luca", game="fivesails").plays == 0


def test_win_rates_per_faction_leader_sin_and_hero():
    records = [rec(1, "fivesails", fivesails_with_roles()), rec(2, "fivesails", fivesails_with_roles(), 1),
               rec(3, "others", others_with_heroes("heroes"), 2), rec(4, "others", others_with_heroes("sins"), 3)]
    five = stats.role_stats(records, "fivesails")
    assert [(r.name, r.plays, r.wins) for r in five["faction"]] == [("Castille", 2, 2), ("Eisen", 2, 0)]
    assert [(r.name, r.plays, r.wins) for r in five["leader"]] == [("Kaspar", 2, 0)]
    others = stats.role_stats(records, "others")
    assert [(r.name, r.plays, r.wins) for r in others["sin"]] == [("Pride", 2, 1)]
    assert [(r.name, r.plays, r.wins, round(r.win_rate, 2)) for r in others["heroes"]] == [
        ("Gail", 2, 1, 0.5), ("Karl", 2, 1, 0.5), ("Rose", 2, 1, 0.5)]
    assert stats.role_stats(records, "sins") == {}


def line(key, colour=None):
    return stats.Line(key, key.title(), colour)


@pytest.mark.parametrize("colours", [
    pytest.param([None] * 8, id="nobody-has-a-colour"),
    pytest.param(["red"] * 8, id="everybody-played-red"),
    pytest.param(["red", None, "blue", None, "red", "green", None, "blue"], id="mixed"),
])
def test_eight_players_get_eight_different_colours(colours):
    lines = [line(f"p{i}", c) for i, c in enumerate(colours)]
    classes = chart.player_classes(lines)
    assert len(set(classes.values())) == 8
    if colours[0]:
        assert classes["p0"] == f"c-{colours[0]}"  # the first keeps the colour they played with


def test_a_player_has_one_colour_in_every_chart():
    records = [rec(i, "sins", sins_doc(CHIARA, -1), i) for i in range(3)]
    st = stats.compute(records)
    classes = chart.player_classes(st.players)
    wins = str(chart.wins_chart(st.players, "Wins", lambda ln: ln.name, classes))
    chosen, series = stats.score_series(records, "sins")
    lines = {ln.key: ln for ln in st.game("sins").lines}
    scores = str(chart.scores_chart(chosen, series, lines, "Scores", "older → newer", classes))
    for ln in st.players:
        cls = classes[ln.key]
        assert f'<g class="{cls}"><title>{ln.name}</title>' in wins
        assert f'<g class="{cls}"><title>{ln.name}</title><polyline' in scores
    # Only the group's order decides: the wins chart of one game keeps everyone's colour.
    one_game = str(chart.wins_chart(st.game("sins").lines, "Wins", lambda ln: ln.name, classes))
    assert sorted(re.findall(r'<g class="(c-[a-z0-9]+)"', one_game)) == sorted(classes.values())
