"""Groups, play history, rematch and exports through the test client (edit and view-only links,
bad input answered with a 4xx and never a 500)."""
from __future__ import annotations

import csv
import io
import json
import re
from urllib.parse import parse_qs, urlsplit

import pytest

from tests.conftest import HX, text_of

pytestmark = pytest.mark.both_databases  # plays' stored dates (time zones), ordering and counts on each database

NAMES = ("Chiara", "Margherita", "Alberto", "Luca")
QUICK = {"Chiara": -8, "Margherita": 0, "Alberto": 1, "Luca": 8}


def finish_sins(tables, token, scores=QUICK, abyss=-1):
    """Score a 7 - The Sins table on the quick path and finish it, as its phones would."""
    def post(path, data=None, page="setup"):
        resp = tables.post(token, f"sins/{path}", data or {}, page=page)
        assert resp.status_code == 200, text_of(resp)[:500]

    doc = tables.table(token)
    if doc.status == "setup":
        post("sins", {"sin": ["superbia", "luxuria", "invidia", "ira", "acedia", "gula"]})
        post("start")
    ids = {p["name"]: p["id"] for p in tables.table(token).state["players"]}
    post("mode", {"mode": "quick"}, page="score")
    for name, points in scores.items():
        post("quick", {"player": ids[name], "points": points, "cards": 5, "types": 3}, page="score")
    post("abyss/total", {"points": abyss}, page="score")
    post("finish", page="score")
    assert tables.table(token).status == "finished"


def new_group(client, name="Friday crew") -> tuple[str, str]:
    resp = client.post("/g", data={"name": name})
    assert resp.status_code == 303
    token = resp.headers["Location"].rsplit("/", 1)[1]
    html = client.get(f"/g/{token}").get_data(as_text=True)
    view = re.search(r'id="group-view-link" type="text" readonly value="[^"]*/g/([A-Za-z0-9_-]{24})"', html).group(1)
    return token, view


def group_table(tables, client, group):
    resp = client.post("/new/sins", data={"name": "Friday", "group": group,
                                          **{f"players-{i}": n for i, n in enumerate(NAMES)}})
    assert resp.status_code == 303
    return resp.headers["Location"].rsplit("/", 1)[1]


def play_rows(app, token):
    from sqlalchemy import select

    from companion.db import get_session
    from companion.models import Play, Table

    with app.app_context():
        return get_session().execute(select(Play).join(Table, Table.id == Play.table_id)
                                     .where(Table.token == token)).scalars().all()


# -- a play per finished table ---------------------------------------------------------------------

def test_finishing_makes_one_play_and_refinishing_updates_it(app, tables, client):
    token = tables.create("sins", names=NAMES)
    finish_sins(tables, token)
    first = play_rows(app, token)
    assert len(first) == 1 and first[0].data["players"][0]["winner"] is True
    assert tables.post(token, "status", {"status": "playing"}).status_code == 200
    assert play_rows(app, token) == []  # reopened: no play until it is finished again
    finish_sins(tables, token, {**QUICK, "Luca": -9})
    again = play_rows(app, token)
    assert len(again) == 1 and again[0].data["players"][3]["winner"] is True


def test_undo_of_the_finish_removes_the_play_and_redo_brings_the_same_export_id(app, tables, client):
    token = tables.create("sins", names=NAMES)
    finish_sins(tables, token)
    link = re.search(r'href="(https://app\.bgstatsapp\.com/[^"]+)"', client.get(f"/t/{token}").get_data(as_text=True))
    before = json.loads(parse_qs(urlsplit(link.group(1).replace("&amp;", "&")).query)["data"][0])
    assert tables.undo(token).status_code == 200
    assert play_rows(app, token) == []
    assert tables.post(token, "sins/finish", page="score").status_code == 200
    after = client.get(f"/t/{token}/bgstats.json").get_json()
    assert after["sourcePlayId"] == before["sourcePlayId"]


def test_the_finished_table_offers_rematch_bgstats_share_and_export(tables, client):
    token = tables.create("sins", names=NAMES)
    finish_sins(tables, token)
    html = client.get(f"/t/{token}").get_data(as_text=True)
    assert "Rematch" in html and "Send to BG Stats" in html and 'data-share="share-text"' in html
    assert "Chiara wins with −8 (fewest points win: the Abyss scored −1). Margherita 0, Alberto 1, Luca 8." in html
    fragment = client.get(f"/t/{token}", headers=HX).get_data(as_text=True)
    assert "Send to BG Stats" in fragment and "<html" not in fragment


def test_a_view_only_table_shares_and_exports_but_offers_no_rematch(tables, client):
    token = tables.create("sins", names=NAMES)
    finish_sins(tables, token)
    view = tables.table(token).view_token
    html = client.get(f"/t/{view}").get_data(as_text=True)
    assert "Send to BG Stats" in html and "Rematch" not in html
    assert client.get(f"/t/{view}/bgstats.json").status_code == 200
    assert client.post(f"/t/{view}/rematch").status_code == 403


def test_bgstats_json_download_matches_the_link(tables, client):
    token = tables.create("sins", names=NAMES)
    finish_sins(tables, token)
    resp = client.get(f"/t/{token}/bgstats.json")
    assert resp.status_code == 200 and resp.mimetype == "application/json"
    assert "attachment" in resp.headers["Content-Disposition"]
    data = resp.get_json()
    assert data["game"] == {"name": "7 - The Sins", "sourceGameId": "tc-sins", "highestWins": False, "noPoints": False}
    assert all("startPlayer" in p for p in data["players"]) and sum(p["startPlayer"] for p in data["players"]) == 1
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", data["playDate"])
    assert client.get(f"/t/{token}/bgstats.json").get_json()["sourcePlayId"] == data["sourcePlayId"]


def test_an_unfinished_table_has_no_bgstats_export(tables, client):
    token = tables.create("sins", names=NAMES)
    assert client.get(f"/t/{token}/bgstats.json").status_code == 404
    assert client.get("/t/nonsense/bgstats.json").status_code == 404


# -- rematch ---------------------------------------------------------------------------------------

def test_rematch_starts_the_same_game_players_seats_and_group(app, tables, client):
    group, _view = new_group(client)
    token = group_table(tables, client, group)
    tables.post(token, "players/colour", {"player": 1, "colour": "red"})
    tables.post(token, "players/move", {"player": 4, "step": -1})
    finish_sins(tables, token)
    resp = client.post(f"/t/{token}/rematch")
    assert resp.status_code == 303
    new = resp.headers["Location"].rsplit("/", 1)[1]
    assert new != token
    doc = tables.table(new)
    assert doc.game == "sins" and doc.status == "setup"
    assert [(p["name"], p["colour"]) for p in doc.state["players"]] == [
        ("Chiara", "red"), ("Margherita", None), ("Luca", None), ("Alberto", None)]
    # A second tap (or a retried request) opens the same rematch instead of a third table.
    assert client.post(f"/t/{token}/rematch").headers["Location"].endswith(new)
    finish_sins(tables, new)
    page = text_of(client.get(f"/g/{group}"))
    assert "2 plays" in page


def finished_gibbon(tables):
    """Two rounds; Ana's 30+15+5+10 in the first round takes her over, the lowest total wins."""
    token = tables.create("gibbon", names=("Ana", "Bo", "Cy", "Di"))
    assert tables.post(token, "gibbon/start", {"dealer": "1", "bookkeeper": "1"}).status_code == 200
    heavy = dict(low=30, high=15, cheats=5, hearts=10)
    for n, rows in ((1, {1: heavy, 2: {"low": 2}, 3: {"low": 1}, 4: {}}),
                    (2, {1: {"low": 10}, 2: {}, 3: {"high": 1}, 4: {"low": 1}})):
        if n == 2:
            assert tables.post(token, "gibbon/swap", {"chooser": "1", "partner": "0"}).status_code == 200
        data = {"round": n, "braveheart": "", "hat": ""}
        for pid, row in rows.items():
            for k, v in row.items():
                data[f"p{pid}_{k}"] = v
        assert tables.post(token, "gibbon/round", data, page="round", form_key="round-new").status_code == 200
    assert tables.table(token).status == "finished"
    return token


def test_a_gibbon_rematch_draws_the_first_dealer_and_one_tap_changes_it(tables, client):
    """Rulebook, Startup (and our own Dealing page): the first dealer is random. A rematch draws one,
    says who, and one tap on another name (or on "Draw again") changes it."""
    token = finished_gibbon(tables)
    new = client.post(f"/t/{token}/rematch").headers["Location"].rsplit("/", 1)[1]
    gs = tables.table(new).state["game"]
    names = {p["id"]: p["name"] for p in tables.table(new).state["players"]}
    assert gs["drawn"] is True and gs["dealer"] == gs["bookkeeper"]
    drawn = names[gs["dealer"]]
    page = text_of(client.get(f"/t/{new}/setup"))
    assert f"Drawn at random, as the rules say: {drawn} deals the first round and {drawn} keeps the books" in page
    assert "Another first dealer, in one tap:" in page and "Draw again" in page
    other = next(pid for pid in names if pid != gs["dealer"])
    resp = tables.post(new, "gibbon/start", {"dealer": other, "bookkeeper": ""}, page="setup",
                       form_key=f"start-dealer-{other}")
    assert resp.status_code == 200
    gs = tables.table(new).state["game"]
    assert gs["dealer"] == other and gs["drawn"] is False
    assert "Drawn at random" not in text_of(resp)
    assert f"{names[other]} deals the first round and {names[other]} keeps the books" in text_of(resp)
    # "Draw again": the app draws (any player) and says so again.
    assert tables.post(new, "gibbon/start", {"dealer": "", "bookkeeper": ""}, page="setup",
                       form_key="start-redraw").status_code == 200
    assert tables.table(new).state["game"]["drawn"] is True
    assert "Drawn at random, as the rules say" in text_of(client.get(f"/t/{new}/setup"))


def test_rematch_of_an_unfinished_table_says_to_finish_first(tables, client):
    token = tables.create("sins", names=NAMES)
    resp = client.post(f"/t/{token}/rematch")
    assert resp.status_code == 303 and resp.headers["Location"].endswith(token)
    assert "Finish the game first" in text_of(client.get(f"/t/{token}"))


# -- groups ----------------------------------------------------------------------------------------

def test_a_group_lists_its_plays_newest_first_with_stats_and_charts(tables, client):
    group, view = new_group(client)
    one = group_table(tables, client, group)
    finish_sins(tables, one)
    two = group_table(tables, client, group)
    finish_sins(tables, two, {"Chiara": 3, "Margherita": -2, "Alberto": 1, "Luca": 8})
    html = client.get(f"/g/{group}").get_data(as_text=True)
    assert html.count('class="play-item"') == 2
    first, second = html.index("<bdi>Margherita</bdi> -2"), html.index("<bdi>Chiara</bdi> -8")
    assert first < second  # newest first
    assert html.count("<svg class=\"chart") == 2 and "style=" not in html
    text = text_of(client.get(f"/g/{group}"))
    assert "2 plays · 1 win (50%)" in text and "average -2.5" in text
    home = text_of(client.get("/"))
    assert "Your groups" in home and "Friday crew" in home


def test_the_group_filters_by_game(tables, client):
    group, _view = new_group(client)
    finish_sins(tables, group_table(tables, client, group))
    assert "No plays yet" in text_of(client.get(f"/g/{group}?game=gibbon"))
    assert text_of(client.get(f"/g/{group}?game=sins")).count("Chiara") >= 1
    assert client.get(f"/g/{group}?game=<script>").status_code == 200


def test_the_view_only_group_link_shows_but_cannot_change(tables, client):
    group, view = new_group(client)
    finish_sins(tables, group_table(tables, client, group))
    html = client.get(f"/g/{view}").get_data(as_text=True)
    assert "Chiara" in html and "view only" in html and group not in html and "Merge" not in html
    for path, data in (("rename", {"name": "x"}), ("merge", {"spelling": "a", "into": "b"}),
                       ("unmerge", {"merge": 1})):
        assert client.post(f"/g/{view}/{path}", data=data).status_code == 403
    token = tables.create("sins", names=NAMES)
    resp = client.post(f"/t/{token}/group", data={"group": f"https://x/g/{view}"})
    assert resp.status_code == 422 and "view-only link cannot add tables" in text_of(resp)


def test_a_table_is_added_to_a_group_later_and_its_play_follows(app, tables, client):
    group, _view = new_group(client)
    token = tables.create("sins", names=NAMES)
    finish_sins(tables, token)
    assert "No plays yet" in text_of(client.get(f"/g/{group}"))
    assert group in client.get(f"/t/{token}/group").get_data(as_text=True)  # offered: this phone's group
    resp = client.post(f"/t/{token}/group", data={"choice": group})
    assert resp.status_code == 303
    assert "1 play" in text_of(client.get(f"/g/{group}"))
    client.post(f"/t/{token}/group", data={"choice": "none"})
    assert "No plays yet" in text_of(client.get(f"/g/{group}"))


@pytest.mark.parametrize("data, message", [
    pytest.param({"group": "not a link"}, "No group matches this link", id="junk"),
    pytest.param({"group": "x" * 301}, "too long", id="too-long"),
])
def test_a_bad_group_link_is_answered_next_to_the_field(tables, client, data, message):
    token = tables.create("sins", names=NAMES)
    resp = client.post(f"/t/{token}/group", data=data)
    assert resp.status_code == 422 and message in text_of(resp)
    assert 'aria-invalid="true"' in resp.get_data(as_text=True)


@pytest.mark.parametrize("name, message", [
    pytest.param("", "Give the group a name.", id="empty"),
    pytest.param("x" * 41, "Keep the group name to 40 characters.", id="too-long"),
])
def test_a_bad_group_name_keeps_what_was_typed(client, name, message):
    resp = client.post("/g", data={"name": name})
    assert resp.status_code == 422 and message in text_of(resp)


def test_two_spellings_merge_and_unmerge(tables, client):
    group, _view = new_group(client)
    finish_sins(tables, group_table(tables, client, group))
    resp = client.post("/new/sins", data={"name": "F", "group": group, "players-0": "Kiara", "players-1": "Margherita",
                                          "players-2": "Alberto", "players-3": "Luca"})
    finish_sins(tables, resp.headers["Location"].rsplit("/", 1)[1],
                {"Kiara": -9, "Margherita": 0, "Alberto": 1, "Luca": 8})
    assert "Kiara" in text_of(client.get(f"/g/{group}?game=sins")).split("Head to head")[0]
    assert client.post(f"/g/{group}/merge", data={"spelling": "Kiara", "into": "Chiara"}).status_code == 303
    page = text_of(client.get(f"/g/{group}"))
    assert "Kiara now counts as Chiara in this group" in page  # said once, then the numbers:
    stats_text = text_of(client.get(f"/g/{group}")).split("Head to head")[0]
    assert "Kiara" not in stats_text and "Chiara 2 plays · 2 wins" in stats_text
    resp = client.post(f"/g/{group}/merge", data={"spelling": "Kiara", "into": "Luca"})
    assert resp.status_code == 422 and "already merged" in text_of(resp)
    html = client.get(f"/g/{group}").get_data(as_text=True)
    merge_id = re.search(r'name="merge" value="(\d+)"', html).group(1)
    assert client.post(f"/g/{group}/unmerge", data={"merge": merge_id}).status_code == 303
    assert "Kiara" in text_of(client.get(f"/g/{group}")).split("Head to head")[0]
    assert client.post(f"/g/{group}/unmerge", data={"merge": "x"}).status_code == 400


def test_head_to_head(tables, client):
    group, _view = new_group(client)
    finish_sins(tables, group_table(tables, client, group))
    text = text_of(client.get(f"/g/{group}?a=Chiara&b=Luca"))
    assert ("In 1 play together: Chiara finished ahead 1 time Luca finished ahead 0 times level 0 times"
            in text)


def test_unknown_groups_are_404(client):
    assert client.get("/g/AAAAAAAAAAAAAAAAAAAAAAAA").status_code == 404
    assert client.get("/g/short").status_code == 404
    assert client.get("/g/AAAAAAAAAAAAAAAAAAAAAAAA/plays.csv").status_code == 404


# -- exports ---------------------------------------------------------------------------------------

def test_the_group_csv_has_every_player_of_every_play(tables, client):
    group, view = new_group(client)
    finish_sins(tables, group_table(tables, client, group))
    resp = client.get(f"/g/{view}/plays.csv")
    assert resp.status_code == 200 and resp.mimetype == "text/csv"
    rows = list(csv.DictReader(io.StringIO(resp.get_data().decode("utf-8-sig"))))
    assert [(r["player"], r["score"], r["winner"], r["rank"]) for r in rows] == [
        ("Chiara", "-8", "yes", "1"), ("Margherita", "0", "no", "2"), ("Alberto", "1", "no", "3"), ("Luca", "8", "no", "4")]
    assert rows[0]["play_id"].startswith("tc-")


def test_a_table_exports_as_json_and_imports_as_a_new_table(tables, client):
    token = tables.create("sins", names=NAMES)
    finish_sins(tables, token)
    resp = client.get(f"/t/{token}/export.json")
    assert resp.status_code == 200
    data = resp.get_json()
    assert data["format"] == "table-companion/table" and data["document"]["status"] == "finished"
    assert len(data["history"]) == tables.table(token).version and token not in resp.get_data(as_text=True)
    resp = client.post("/import", data={"text": json.dumps(data)})
    assert resp.status_code == 303, text_of(resp)[:400]
    new = resp.headers["Location"].rsplit("/", 1)[1]
    doc = tables.table(new)
    # The state comes back whole; the import adds the play's id and dates (state.play), so a play
    # sent to BG Stats again updates the first one.
    imported = {k: v for k, v in doc.state.items() if k != "play"}
    original = {k: v for k, v in tables.table(token).state.items() if k != "play"}
    assert new != token and doc.status == "finished" and imported == original
    assert {"id", "started", "finished"} <= set(doc.state["play"])
    assert doc.result == tables.table(token).result


def _exported(tables, client):
    token = tables.create("sins", names=NAMES)
    return client.get(f"/t/{token}/export.json").get_json()


def _mutate(path, value):
    def change(data):
        target = data
        for key in path[:-1]:
            target = target[key]
        if value is KeyError:
            del target[path[-1]]
        else:
            target[path[-1]] = value
        return data
    return change


@pytest.mark.parametrize("make", [
    pytest.param(lambda d: "{not json", id="not-json"),
    pytest.param(lambda d: "[1, 2]", id="not-an-object"),
    pytest.param(lambda d: "[" * 5000 + "]" * 5000, id="deep-nesting"),
    pytest.param(_mutate(["format"], "other"), id="wrong-format"),
    pytest.param(_mutate(["version"], 99), id="wrong-version"),
    pytest.param(_mutate(["game"], "chess"), id="unknown-game"),
    pytest.param(_mutate(["document", "status"], "won"), id="bad-status"),
    pytest.param(_mutate(["document", "name"], ""), id="empty-name"),
    pytest.param(_mutate(["document", "state", "players"], []), id="no-players"),
    pytest.param(_mutate(["document", "state", "players", 0, "name"], "<script>" * 10), id="long-name"),
    pytest.param(_mutate(["document", "state", "players", 0, "id"], "1"), id="text-id"),
    pytest.param(_mutate(["document", "state", "players", 1, "id"], 1), id="same-ids"),
    pytest.param(_mutate(["document", "state", "players", 0, "colour"], "mauve"), id="bad-colour"),
    pytest.param(_mutate(["document", "state", "game", "score"], KeyError), id="missing-key"),
    pytest.param(_mutate(["document", "state", "game", "evil"], 1), id="unknown-key"),
    pytest.param(_mutate(["document", "state", "game", "sins"], "superbia"), id="wrong-kind"),
    pytest.param(_mutate(["document", "state", "game", "score", "mode"], 3), id="wrong-nested-kind"),
    pytest.param(_mutate(["document", "state", "game", "turn"], [1]), id="list-for-an-id"),
    pytest.param(_mutate(["document", "state", "game", "stones"], {"1": "many"}), id="page-cannot-show"),
    pytest.param(_mutate(["document", "result"], {"winners": "Chiara"}), id="bad-result"),
])
def test_a_broken_or_hostile_import_is_refused_with_a_message(tables, client, make):
    data = _exported(tables, client)
    body = make(data)
    resp = client.post("/import", data={"text": body if isinstance(body, str) else json.dumps(body)})
    assert resp.status_code == 422, text_of(resp)[:300]
    assert 'role="alert"' in resp.get_data(as_text=True)


def test_an_import_too_big_is_refused(client):
    resp = client.post("/import", data={"text": " " * (600 * 1024)})
    assert 400 <= resp.status_code < 500


def test_the_import_page_and_an_empty_import(client):
    assert client.get("/import").status_code == 200
    resp = client.post("/import", data={"text": ""})
    assert resp.status_code == 422 and "Choose a table file" in text_of(resp)


def test_an_import_as_a_file_upload(tables, client):
    data = _exported(tables, client)
    resp = client.post("/import", data={"file": (io.BytesIO(json.dumps(data).encode()), "t.json")},
                       content_type="multipart/form-data")
    assert resp.status_code == 303


def test_the_play_times_come_from_the_log_and_back_to_here_removes_the_play(app, tables, client):
    from sqlalchemy import select

    from companion.db import get_session
    from companion.models import Action, Table

    token = tables.create("sins", names=NAMES)
    finish_sins(tables, token)
    with app.app_context():
        table = get_session().execute(select(Table).where(Table.token == token)).scalars().one()
        actions = get_session().execute(select(Action).where(Action.table_id == table.id)
                                        .order_by(Action.version)).scalars().all()
        started = next(a for a in actions if a.kind == "sins.start")
        finished = actions[-1]
        before_finish = actions[-2].id
    play = play_rows(app, token)[0]
    assert play.started_at.replace(tzinfo=None) == started.created_at.replace(tzinfo=None)
    assert play.finished_at.replace(tzinfo=None) == finished.created_at.replace(tzinfo=None)
    resp = client.post(f"/t/{token}/history/back-to", data={"v": tables.version(token), "action": before_finish})
    assert resp.status_code == 303
    assert tables.table(token).status != "finished" and play_rows(app, token) == []


def test_two_phones_tapping_rematch_at_once_make_one_table(app, tables, client):
    import threading

    from sqlalchemy import func, select

    from companion.db import get_session
    from companion.models import Table

    token = tables.create("sins", names=NAMES)
    finish_sins(tables, token)
    client.get(f"/t/{token}")  # the play exists, as on the phones that saw the finished table
    answers = []

    def tap():
        resp = app.test_client().post(f"/t/{token}/rematch")
        answers.append((resp.status_code, resp.headers.get("Location"), resp.get_data(as_text=True)[-300:]))

    taps = [threading.Thread(target=tap) for _ in range(4)]
    for t in taps:
        t.start()
    for t in taps:
        t.join()
    assert {a[0] for a in answers} == {303}, answers
    assert len({a[1] for a in answers}) == 1
    with app.app_context():
        assert get_session().execute(select(func.count()).select_from(Table)).scalar() == 2
