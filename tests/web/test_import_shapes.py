"""A table played to the end through the test client exports, imports back and shows every page:
for each game that declares its state (games/<game>/shape.py), so a finished table of any game is a
backup that comes back (issue 25). `exports()` plays each game and keeps its export at each stage;
tests/web/test_hostile_imports.py starts from them."""
from __future__ import annotations

import html
import json
import re

import pytest

from companion.games import GAMES
from tests.conftest import HX, text_of

pytestmark = pytest.mark.both_databases  # every game's full document stored and read back

SHAPED = [key for key in sorted(GAMES) if GAMES[key].shape is not None]
SIX = ["superbia", "luxuria", "invidia", "ira", "acedia", "gula"]
ZERO = dict(low=0, high=0, cheats=0, hearts=0, accepted_hearts=0, wrongful_doubts=0, fattest_pile=0)


def landed(resp):
    assert resp.status_code in (200, 303), text_of(resp)[:600]
    return resp


class Flow:
    """One table of a game driven the way its phones drive it, exported at each stage."""

    def __init__(self, tables, key, names):
        self.tables, self.key = tables, key
        self.token = tables.create(key, names=names)
        self.exports: dict[str, dict] = {}

    def post(self, path, data=None, page=None, **kw):
        return landed(self.tables.post(self.token, f"{self.key}/{path}", data or {}, page=page, **kw))

    def ids(self):
        return {p["name"]: p["id"] for p in self.tables.table(self.token).state["players"]}

    def gs(self):
        return self.tables.table(self.token).state["game"]

    def export(self, stage):
        resp = self.tables.client.get(f"/t/{self.token}/export.json")
        assert resp.status_code == 200
        self.exports[stage] = resp.get_json()
        return self.exports[stage]


def play_sins(tables):
    f = Flow(tables, "sins", ("Margherita", "Bo", "Cy", "Di"))
    f.post("tick", {"step": "B", "done": 1}, page="setup")
    f.export("setup")
    f.post("sins", {"sin": SIX}, page="setup")
    f.post("first", {"player": f.ids()["Bo"]}, page="setup")
    f.post("start", page="setup")
    f.post("turn", page="play")
    f.post("stone", {"player": f.ids()["Margherita"], "delta": 1}, page="play")
    f.post("judgment", {"delta": 1}, page="play")
    f.export("playing")
    for _ in range(2):
        f.post("judgment", {"delta": 1}, page="play")
    f.post("abyss", {"invidia": 6, "gula": 2, "acedia": 1, "ira": 1}, page="score")
    ids = f.ids()
    f.post("reserve", {"player": ids["Margherita"], "stones": 2, "invidia": 2, "acedia": 4, "luxuria": 3, "ira": 1},
           page="score")
    f.post("reserve", {"player": ids["Bo"], "stones": 1, "superbia": 3, "gula": 2}, page="score")
    f.export("scoring")
    f.post("reserve", {"player": ids["Cy"], "superbia": 2, "luxuria": 2, "ira": 3}, page="score")
    f.post("reserve", {"player": ids["Di"], "superbia": 1, "luxuria": 1, "ira": 1, "acedia": 1}, page="score")
    f.post("stones", {"player": ids["Margherita"], "stones_on": ["invidia", "ira"]}, page="score")
    f.post("finish", page="score")
    assert tables.table(f.token).status == "finished"
    f.export("finished")
    return f


def gibbon_round(rows: dict, braveheart="", hat="", number=1) -> dict:
    data = {"round": number, "braveheart": str(braveheart), "hat": str(hat)}
    for pid, row in rows.items():
        for count, value in {**ZERO, **row}.items():
            data[f"p{pid}_{count}"] = value
    return data


def play_gibbon(tables):
    f = Flow(tables, "gibbon", ("Ana", "Bo", "Cy", "Di"))
    f.post("tick", {"step": "deck", "done": 1}, page="setup")
    f.export("setup")
    f.post("start", {"dealer": "1", "bookkeeper": "2"}, page="setup")
    example = {1: dict(low=5, high=1, cheats=2, hearts=1, wrongful_doubts=3, fattest_pile=2),
               2: dict(low=4, hearts=1, accepted_hearts=1, wrongful_doubts=1, fattest_pile=4),
               3: dict(low=3, high=1, cheats=1, hearts=2, accepted_hearts=1, wrongful_doubts=2, fattest_pile=4),
               4: dict(low=1, hearts=1, accepted_hearts=2)}
    f.post("round", gibbon_round(example, braveheart=2, hat=3, number=1), page="round", form_key="round-new")
    f.export("playing")
    f.post("swap", {"chooser": "2", "partner": "3"}, page="round")
    f.post("round", gibbon_round({1: {"low": 10}, 2: {}, 3: {"high": 1}, 4: {"low": 1}}, number=2),
           page="round", form_key="round-new")
    f.post("swap", {"chooser": "1", "partner": "0"}, page="round")
    f.post("round", gibbon_round({1: dict(low=30, high=15, cheats=5, hearts=10), 2: {"low": 2}, 3: {"low": 1}, 4: {}},
                                 number=3), page="round", form_key="round-new")
    assert tables.table(f.token).status == "finished"
    f.export("finished")
    return f


def play_fivesails(tables):
    f = Flow(tables, "fivesails", ("Ana", "Bo", "Cy"))
    f.export("setup")
    f.post("start")
    f.post("renown", {"player": 3, "delta": 1})
    f.post("influence", {"player": 2, "delta": 1})
    f.export("playing")
    f.post("leader", {"player": 1, "destroyed": 1})
    f.post("leader", {"player": 2, "destroyed": 1})
    assert tables.table(f.token).status == "finished"
    f.export("finished")
    return f


def play_others(tables):
    f = Flow(tables, "others", ("Sam", "Ana", "Bo"))
    f.post("story", {"story": "Haven's Last Stand", "story_type": "corruption", "map": ""}, page="setup")
    f.export("setup")
    f.post("start", page="setup")
    f.export("playing")
    f.post("win", page="round")
    assert tables.table(f.token).status == "finished"
    f.export("finished")
    return f


PLAY = {"sins": play_sins, "gibbon": play_gibbon, "fivesails": play_fivesails, "others": play_others}


def exports(tables, key) -> dict[str, dict]:
    """The game played to the end, its export at each stage: setup, playing (...), finished."""
    return PLAY[key](tables).exports


def slugs(key) -> list[str]:
    return [p.slug for p in GAMES[key].pages] + ["table", "history"]


def import_(client, data) -> str:
    resp = client.post("/import", data={"text": json.dumps(data)})
    assert resp.status_code == 303, text_of(resp)[:600]
    return resp.headers["Location"].rsplit("/", 1)[1]


@pytest.mark.parametrize("key", SHAPED)
def test_a_finished_table_exports_imports_back_and_shows_every_page(tables, client, key):
    f = PLAY[key](tables)
    data = f.exports["finished"]
    assert data["document"]["status"] == "finished" and data["document"]["result"]["winners"]
    token = import_(client, data)
    new, old = tables.table(token), tables.table(f.token)
    # The import carries the play's id and dates the export wrote into state.play (issue 27: the play
    # keeps its date); the rest of the state is the table's own.
    kept = {k: v for k, v in new.state.items() if k != "play"}
    assert token != f.token and (new.status, kept, new.result) == (old.status, old.state, old.result)
    assert new.state["play"] == data["document"]["state"]["play"]
    for slug in slugs(key):
        assert client.get(f"/t/{token}/{slug}").status_code == 200, slug
        assert client.get(f"/t/{token}/{slug}", headers=HX).status_code == 200, slug
    assert client.get(f"/t/{token}/bgstats.json").status_code == 200
    again = client.get(f"/t/{token}/export.json").get_json()
    assert again["document"] == data["document"]


@pytest.mark.parametrize("key", SHAPED)
def test_every_stage_of_a_game_imports_back(tables, client, key):
    for stage, data in exports(tables, key).items():
        token = import_(client, data)
        assert tables.table(token).status == data["document"]["status"], stage
        assert client.get(f"/t/{token}").status_code == 200, stage


def test_a_refused_document_is_answered_next_to_the_field_naming_it_and_keeps_the_text(tables, client):
    data = exports(tables, "sins")["playing"]
    data["document"]["state"]["game"]["judgments"] = 10**400
    body = json.dumps(data)
    resp = client.post("/import", data={"text": body})
    assert resp.status_code == 422
    page = resp.get_data(as_text=True)
    assert "document.state.game.judgments" in text_of(resp) and 'role="alert"' in page
    kept = re.search(r'<textarea id="text"[^>]*>(.*?)</textarea>', page, re.S).group(1)
    assert html.unescape(kept) == body


@pytest.mark.parametrize("raw", ["NaN", "Infinity", "-Infinity", "1e400"])
def test_numbers_json_does_not_have_are_refused(tables, client, raw):
    body = json.dumps(exports(tables, "gibbon")["playing"])
    body = body.replace('"low": 5', f'"low": {raw}', 1)
    assert raw in body
    resp = client.post("/import", data={"text": body})
    assert resp.status_code == 422 and "not valid JSON" in text_of(resp)
