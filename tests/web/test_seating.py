"""The new-table form says which way each game's turns go, in words and a diagram, and reverses
the typed order in one tap (issue 15)."""
from __future__ import annotations

import re

import pytest

from companion.games import GAMES
from companion.tables.views import reverse_seats
from tests.conftest import text_of


@pytest.mark.parametrize("game, words", [
    pytest.param("sins", "is played counter-clockwise", id="sins"),
    pytest.param("gibbon", "is played clockwise", id="gibbon"),
    pytest.param("fivesails", "is played clockwise", id="fivesails"),
    pytest.param("others", "is played clockwise", id="others"),
])
def test_the_form_says_which_way_the_seats_go(client, game, words):
    resp = client.get(f"/new/{game}")
    text = text_of(resp)
    assert words in text
    html = resp.get_data(as_text=True)
    assert 'class="seat-diagram"' in html and "Turn order in the rules" in text
    direction = "counter-clockwise" if game == "sins" else "clockwise"
    assert f"in turn order: {direction}" in text
    rule = GAMES[game].seating.rule
    assert client.get(f"/rules/{game}/{rule}").status_code == 200


def test_seven_sins_reads_the_list_counter_clockwise_and_the_others_clockwise():
    assert not GAMES["sins"].seating.clockwise
    assert all(GAMES[k].seating.clockwise for k in ("gibbon", "fivesails", "others"))


@pytest.mark.parametrize("names, expected", [
    pytest.param(["A", "B", "C", "D", ""], ["A", "D", "C", "B", ""], id="four"),
    pytest.param(["A", "", "B", "C", ""], ["A", "C", "B", "", ""], id="gap"),
    pytest.param(["A", "B", "", "", ""], ["A", "B", "", "", ""], id="two"),
    pytest.param(["", "", "", "", ""], ["", "", "", "", ""], id="none"),
])
def test_reverse_keeps_the_first_player_and_turns_the_others(names, expected):
    colours = [f"c{n}" if n else "" for n in names]
    got_names, got_colours = reverse_seats(names, colours)
    assert got_names == expected
    assert got_colours == [f"c{n}" if n else "" for n in expected]


def test_reverse_without_javascript_answers_the_form_reversed_and_creates_nothing(client, tables):
    data = {"name": "Friday", "players-0": "Ana", "players-1": "Bo", "players-2": "Cy", "players-3": "Di",
            "colours-1": "red", "reverse": "1"}
    resp = client.post("/new/sins", data=data)
    assert resp.status_code == 200
    html = resp.get_data(as_text=True)
    values = re.findall(r'id="players-\d" name="players-\d" type="text"[^>]*value="([^"]*)"', html)
    assert values[:4] == ["Ana", "Di", "Cy", "Bo"]
    assert re.search(r'id="colours-3".*?<option value="red" selected>', html, re.S)
    assert 'value="Friday"' in html
    assert "Order reversed" in text_of(resp)
    assert client.get("/").status_code == 200 and "Friday" not in text_of(client.get("/"))


def test_reverse_keeps_the_forms_submission_id(client):
    resp = client.post("/new/gibbon", data={"name": "Friday", "players-0": "Ana", "players-1": "Bo",
                                            "players-2": "Cy", "sid": "abc123", "reverse": "1"})
    assert resp.status_code == 200
    assert 'name="sid" value="abc123"' in resp.get_data(as_text=True)
