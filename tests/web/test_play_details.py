"""Who played what and a note on a finished table, and where they go (issue 29): the logged action,
the CSV, BG Stats' JSON and play file, the group's win rates per faction and hero, and the play's
id through link rotation and backups."""
from __future__ import annotations

import csv
import io
import json
import re

import pytest

from tests.conftest import text_of
from tests.web.test_groups import finish_sins, group_table, new_group
from tests.web.test_others_web import ok, post as others_post, team_data

FORM = "play-details"


def details(tables, token, data, page, **kw):
    return tables.post(token, "play", data, page=page, form_key=FORM, **kw)


def others_in_group(tables, client, group):
    """The Others, in a group: Sam plays Pride; Ana takes Karl and Gail, Bo Thorley and Mi-Ja;
    the heroes win."""
    resp = client.post("/new/others", data={"name": "Haven", "group": group, "players-0": "Sam",
                                            "players-1": "Ana", "players-2": "Bo"})
    token = resp.headers["Location"].rsplit("/", 1)[1]
    ok(others_post(tables, token, "sin", {"sin": "Pride", "acolytes": "Cultists"}))
    ok(others_post(tables, token, "team", team_data(name_1="Karl", controller_1=2, name_3="Gail", controller_3=2,
                                                    name_5="Thorley", controller_5=3, name_7="Mi-Ja",
                                                    controller_7=3)))
    ok(others_post(tables, token, "story", {"story": "Haven's Last Stand", "story_type": "corruption", "map": ""}))
    ok(others_post(tables, token, "start"))
    ok(others_post(tables, token, "win"))
    assert tables.table(token).status == "finished"
    return token


def finished_fivesails(tables):
    """Ana's and Bo's Leaders destroyed: Cy wins by Assassination."""
    token = tables.create("fivesails", names=("Ana", "Bo", "Cy"))
    assert tables.post(token, "fivesails/start").status_code == 200
    tables.post(token, "fivesails/leader", {"player": 1, "destroyed": 1})
    tables.post(token, "fivesails/leader", {"player": 2, "destroyed": 1})
    assert tables.table(token).status == "finished"
    return token


def test_the_others_roles_and_note_reach_the_csv_bgstats_and_the_per_hero_stats(tables, client):
    group, view = new_group(client)
    token = others_in_group(tables, client, group)
    page = client.get(f"/t/{token}/round").get_data(as_text=True)
    # The form starts from what the game knows: the Sin, and the heroes each player controlled.
    assert 'name="played_1" type="text" maxlength="40" autocomplete="off" dir="auto"\n               value="Pride"' in page
    assert 'value="Karl, Gail"' in page and 'value="Thorley, Mi-Ja"' in page
    resp = details(tables, token, {"played_1": "Pride", "played_2": "Karl, Gail", "played_3": "Thorley, Rose",
                                   "note": "Rose came in when  Mi-Ja fell."}, page="round")
    assert resp.status_code == 200 and "Who played what and the note on the play were saved" in text_of(resp)
    play = tables.table(token).state["play"]
    # Only what differs from the game's own record is kept, with the play's export id.
    assert play["roles"] == {"3": {"heroes": ["Thorley", "Rose"]}} and play["note"] == "Rose came in when Mi-Ja fell."
    assert re.fullmatch(r"tc-[0-9a-f]{24}", play["id"])

    data = json.loads(client.get(f"/t/{token}/bgstats.json").get_data(as_text=True))
    assert data["sourcePlayId"] == play["id"] and data["game"]["bggId"] == 172047
    assert [(p["name"], p["rank"], p["winner"], p["role"]) for p in data["players"]] == [
        ("Sam", 2, False, "Sins: Pride"), ("Ana", 1, True, "Heroes: Karl, Gail"), ("Bo", 1, True, "Heroes: Thorley, Rose")]
    assert not any("score" in p for p in data["players"]) and data["comments"] == "Rose came in when Mi-Ja fell."

    body = client.get(f"/g/{view}/plays.csv").get_data()
    assert body.startswith("\ufeff".encode())
    rows = list(csv.DictReader(io.StringIO(body.decode("utf-8-sig"))))
    assert [(r["player"], r["team"], r["role"], r["rank"], r["score"]) for r in rows] == [
        ("Sam", "sins", "Sins: Pride", "2", ""), ("Ana", "heroes", "Heroes: Karl, Gail", "1", ""),
        ("Bo", "heroes", "Heroes: Thorley, Rose", "1", "")]
    assert {r["note"] for r in rows} == {"Rose came in when Mi-Ja fell."} and rows[0]["play_id"] == play["id"]

    text = text_of(client.get(f"/g/{view}?game=others"))
    assert "Win rate by hero" in text and "Win rate by Sin" in text
    assert "Rose 1 play · 1 win (100%)" in text and "Pride 1 play · 0 wins (0%)" in text
    assert "Rose came in when Mi-Ja fell." in text  # the note, under the play

    bgsplay = client.get(f"/g/{view}/plays.bgsplay")
    assert bgsplay.status_code == 200 and bgsplay.headers["Content-Type"] == "application/octet-stream"
    assert 'filename="plays.bgsplay"' in bgsplay.headers["Content-Disposition"]
    file = json.loads(bgsplay.get_data(as_text=True))
    scores = file["plays"][0]["playerScores"]
    assert [(s["role"], s["team"], s["rank"]) for s in scores] == [
        ("Sins: Pride", "Sins", 2), ("Heroes: Karl, Gail", "Heroes", 1), ("Heroes: Thorley, Rose", "Heroes", 1)]
    assert file["plays"][0]["uuid"] == file["plays"][0]["uuid"].upper()


def test_the_details_are_undone_like_any_change_and_changed_afterwards(tables, client):
    token = finished_fivesails(tables)
    ok(details(tables, token, {"faction_1": "Eisen", "leader_1": "Kaspar", "faction_3": "Vodacce"}, page="players"))
    assert tables.table(token).state["play"]["roles"] == {"1": {"faction": "Eisen", "leader": "Kaspar"},
                                                          "3": {"faction": "Vodacce"}}
    ok(details(tables, token, {"faction_1": "Eisen", "leader_1": "Kaspar", "faction_3": "Castille",
                               "note": "Cy won on the last Day"}, page="players"))
    assert tables.table(token).state["play"]["roles"]["3"] == {"faction": "Castille"}
    ok(tables.undo(token))
    assert tables.table(token).state["play"]["roles"]["3"] == {"faction": "Vodacce"}
    assert tables.table(token).state["play"]["note"] == ""
    history = text_of(client.get(f"/t/{token}/history"))
    assert "Who played what was saved" in history


def test_saving_the_same_details_again_logs_nothing(tables):
    token = tables.create("sins", names=("Chiara", "Margherita", "Alberto", "Luca"))
    finish_sins(tables, token)
    ok(details(tables, token, {"note": "Tight"}, page="score"))
    version = tables.version(token)
    ok(details(tables, token, {"note": "Tight"}, page="score"))
    assert tables.version(token) == version


@pytest.mark.parametrize("data, field, message", [
    pytest.param({"note": "x" * 501}, "note", "Keep it to 500 characters.", id="note-too-long"),
    pytest.param({"faction_1": "F" * 41}, "faction_1", "Keep it to 40 characters.", id="faction-too-long"),
])
def test_bad_details_are_answered_next_to_the_field(tables, data, field, message):
    token = finished_fivesails(tables)
    resp = details(tables, token, data, page="players")
    assert resp.status_code == 422
    html = resp.get_data(as_text=True)
    assert f'id="{FORM}-{field}-err">{message}</p>' in html
    assert "play" not in tables.table(token).state


def test_too_many_heroes_are_refused(tables, client):
    group, _view = new_group(client)
    token = others_in_group(tables, client, group)
    resp = details(tables, token, {"played_2": ", ".join(f"Hero {i}" for i in range(8))}, page="round")
    assert resp.status_code == 422 and "At most 7 heroes." in text_of(resp)


def test_a_table_not_finished_yet_cannot_be_described(tables):
    token = tables.create("sins", names=("Ana", "Bo"))
    resp = details(tables, token, {"note": "early"}, page="setup")
    assert resp.status_code == 422 and "Finish the game first" in text_of(resp)


def test_the_view_only_link_shows_the_details_and_cannot_change_them(tables, client):
    token = tables.create("sins", names=("Chiara", "Margherita", "Alberto", "Luca"))
    finish_sins(tables, token)
    ok(details(tables, token, {"note": "Chiara's Abyss gamble"}, page="score"))
    view = tables.table(token).view_token
    shown = client.get(f"/t/{view}/score")
    assert "Chiara&#39;s Abyss gamble" in shown.get_data(as_text=True) and 'id="play-details"' not in \
        shown.get_data(as_text=True)
    assert client.post(f"/t/{view}/play", data={"v": tables.version(token), "note": "x"}).status_code == 403


def test_the_play_id_survives_link_rotation_and_the_backup_carries_it(tables, client):
    token = tables.create("sins", names=("Chiara", "Margherita", "Alberto", "Luca"))
    finish_sins(tables, token)
    before = json.loads(client.get(f"/t/{token}/bgstats.json").get_data(as_text=True))["sourcePlayId"]
    resp = tables.post(token, "link/rotate", htmx=False)
    new = resp.headers["Location"].split("/t/")[1].split("/")[0]
    assert new != token
    after = json.loads(client.get(f"/t/{new}/bgstats.json").get_data(as_text=True))
    assert after["sourcePlayId"] == before
    backup = json.loads(client.get(f"/t/{new}/export.json").get_data(as_text=True))
    kept = backup["document"]["state"]["play"]
    assert kept["id"] == before and kept["started"].endswith("+00:00") and kept["finished"].endswith("+00:00")
    assert after["playDate"] == kept["started"].replace("T", " ")[:19]


def test_an_imported_backup_keeps_the_play_id_and_when_it_was_played(tables, client):
    token = tables.create("sins", names=("Chiara", "Margherita", "Alberto", "Luca"))
    finish_sins(tables, token)
    original = json.loads(client.get(f"/t/{token}/bgstats.json").get_data(as_text=True))
    backup = client.get(f"/t/{token}/export.json").get_data(as_text=True)
    resp = client.post("/import", data={"text": backup})
    assert resp.status_code == 303
    restored = resp.headers["Location"].rsplit("/", 1)[1]
    again = json.loads(client.get(f"/t/{restored}/bgstats.json").get_data(as_text=True))
    assert again["sourcePlayId"] == original["sourcePlayId"] and again["playDate"] == original["playDate"]
    assert again["durationMin"] == original["durationMin"]


def test_the_play_file_of_one_table_and_the_exports_of_an_unfinished_one(tables, client):
    token = tables.create("sins", names=("Chiara", "Margherita", "Alberto", "Luca"))
    assert client.get(f"/t/{token}/play.bgsplay").status_code == 404
    finish_sins(tables, token)
    resp = client.get(f"/t/{token}/play.bgsplay")
    assert resp.status_code == 200 and re.search(r'filename="sins-\d+\.bgsplay"', resp.headers["Content-Disposition"])
    data = json.loads(resp.get_data(as_text=True))
    assert len(data["plays"]) == 1 and data["plays"][0]["manualWinner"] is True
    page = client.get(f"/t/{token}/score").get_data(as_text=True)
    assert f'href="/t/{token}/play.bgsplay" download>BG Stats file</a>' in page
    assert 'data-copied="Result copied."' in page


def test_the_group_page_head_to_head_honours_the_game_filter_and_counts_read_right(tables, client):
    group, _view = new_group(client)
    finish_sins(tables, group_table(tables, client, group))
    finish_sins(tables, group_table(tables, client, group), {"Chiara": 9, "Margherita": 0, "Alberto": 1, "Luca": -3})
    everything = text_of(client.get(f"/g/{group}?a=Chiara&b=Luca"))
    assert "In 2 plays together: Chiara finished ahead 1 time Luca finished ahead 1 time level 0 times" in everything
    gibbon = text_of(client.get(f"/g/{group}?game=gibbon&a=Chiara&b=Luca"))
    assert "Chiara and Luca have not played Sinful Gibbon together in this group yet." in gibbon
    sins = text_of(client.get(f"/g/{group}?game=sins&a=Chiara&b=Luca"))
    assert "In 2 plays of 7 - The Sins together:" in sins
    assert "Chiara: 1 win in 2 plays" in client.get(f"/g/{group}").get_data(as_text=True)


def test_the_french_group_page_offers_a_semicolon_csv_and_prints_french_numbers(tables, client):
    group, _view = new_group(client)
    finish_sins(tables, group_table(tables, client, group))
    finish_sins(tables, group_table(tables, client, group), {"Chiara": 3, "Margherita": -2, "Alberto": 1, "Luca": 8})
    client.set_cookie("lang", "fr", domain="companion.test")
    html = client.get(f"/g/{group}").get_data(as_text=True)
    assert f'href="/g/{group}/plays.csv?sep=;"' in html
    text = text_of(client.get(f"/g/{group}"))
    assert "moyenne -2,5" in text and "(50 %)" in text
    assert "(50\u00a0%)" in client.get(f"/g/{group}").get_data(as_text=True)  # a no-break space before %
    body = client.get(f"/g/{group}/plays.csv?sep=;").get_data().decode("utf-8-sig")
    assert body.splitlines()[0].startswith("play_id;date;game;")
    english = client.get(f"/g/{group}/plays.csv?sep=,").get_data().decode("utf-8-sig")
    assert english.splitlines()[0].startswith("play_id,date,game,")


def test_hostile_input_in_every_box_is_answered_never_a_500(tables, client):
    from tests.web.test_fuzz import MUTATIONS

    group, _view = new_group(client)
    token = others_in_group(tables, client, group)
    five = finished_fivesails(tables)
    for tok, fields, page in ((token, ("played_1", "played_2", "played_3", "note"), "round"),
                              (five, ("faction_1", "leader_2", "note"), "players")):
        for field in fields:
            for value in MUTATIONS:
                resp = details(tables, tok, {field: value}, page=page)
                assert resp.status_code in (200, 400, 409, 413, 422), (field, value[:40], resp.status_code)
                kept = json.dumps(tables.table(tok).state.get("play") or {}, ensure_ascii=False)
                assert "\x00" not in kept and "\u202e" not in kept and "\u200b" not in kept  # cleaned when kept
    assert "<script>" not in client.get(f"/t/{five}/players").get_data(as_text=True)  # and escaped when shown
