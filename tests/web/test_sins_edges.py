"""7 - The Sins at the edges of the rules (issue 16): the third Last Judgment under Penitenziagite
in both tap orders and on every seat, warnings for impossible counts (page and API), and the
Penitenziagite cards' scoring reading."""
from __future__ import annotations

import html
import json

import pytest

from tests.conftest import text_of
from tests.web.test_sins_pages import Sins, errors_in

URL = "/api/v1/sins/score"
NAMES = ("Ana", "Bo", "Cy", "Di")


@pytest.fixture
def pen(tables):
    return Sins(tables, names=NAMES).ready(penitenziagite=True)


def _to(sins, name):
    """Pass turns until the tracker shows `name`."""
    for _ in range(8):
        if sins.gs["turn"] == sins.ids()[name]:
            return
        assert sins.post("turn", page="play").status_code == 200
    raise AssertionError(name)


@pytest.mark.parametrize("seat", range(4))
@pytest.mark.parametrize("taps", ["card-then-done", "done-then-card"])
def test_the_third_last_judgment_ends_on_the_turn_it_came_out_on(pen, seat, taps):
    revealer = NAMES[seat]
    ids = pen.ids()
    for _ in range(4):  # a first round
        pen.post("turn", page="play")
    _to(pen, revealer)
    for _ in range(2):
        assert pen.post("judgment", {"delta": 1}, page="play").status_code == 200
    page = text_of(pen.page("play"))
    assert "The third card came out: on whose turn?" in page
    if taps == "card-then-done":
        assert f"{revealer}'s turn (playing now)" in page
        assert pen.post("judgment", {"delta": 1, "on": ids[revealer]}, page="play").status_code == 200
        if seat < 3:
            assert pen.post("turn", page="play").status_code == 200
    else:
        assert pen.post("turn", page="play").status_code == 200  # "done" tapped before the card
        assert f"{revealer}'s turn (already tapped done)" in text_of(pen.page("play"))
        assert pen.post("judgment", {"delta": 1, "on": ids[revealer]}, page="play").status_code == 200
    assert pen.gs["third_on"] == ids[revealer]
    page = text_of(pen.page("play"))
    after = NAMES[seat + 1:]
    if not after:
        assert "The game is over" in page and "playing now" not in page
    else:
        assert f"Still to play: {', '.join(after)}." in page
        for _ in after:
            assert pen.post("turn", page="play").status_code == 200
        page = text_of(pen.page("play"))
        assert "The game is over" in page and "playing now" not in page
    resp = pen.post("turn", page="play", form_key="sins-turn")
    assert resp.status_code == 422


def test_the_third_card_cannot_be_tied_to_someone_else(pen):
    ids = pen.ids()
    for _ in range(2):
        pen.post("judgment", {"delta": 1}, page="play")
    resp = pen.post("judgment", {"delta": 1, "on": ids["Cy"]}, page="play", form_key="sins-third-card")
    assert resp.status_code == 422
    assert "Choose the player who was playing now or the one before." in errors_in(resp)
    assert pen.gs["judgments"] == 2


def test_the_standard_game_shows_no_last_in_each_round_and_no_question(tables):
    sins = Sins(tables, names=NAMES).ready()
    page = text_of(sins.page("play"))
    assert "last in each round" not in page and "playing now" in page
    for _ in range(2):
        sins.post("judgment", {"delta": 1}, page="play")
    assert "on whose turn?" not in text_of(sins.page("play"))
    sins.post("judgment", {"delta": 1}, page="play")
    assert "playing now" not in text_of(sins.page("play"))


# -- warnings --------------------------------------------------------------------------------------

def test_impossible_counts_are_warned_about_on_the_score_page_but_still_scored(tables):
    sins = Sins(tables, names=NAMES).ready()
    ids = sins.ids()
    for _ in range(3):
        sins.post("stone", {"player": ids["Ana"], "delta": 1}, page="play")
    assert sins.post("abyss", {"ira": 1, "gula": 1}, page="score", form_key="sins-abyss-form").status_code == 200
    assert sins.reserve("Ana", {"ira": 2}, stones=3).status_code == 200
    assert sins.reserve("Bo", {}).status_code == 200  # an empty reserve
    for name in ("Cy", "Di"):
        assert sins.reserve(name, {"gula": 1}).status_code == 200
    page = text_of(sins.page("score"))
    assert "Bo's reserve is empty, yet everyone starts with one Hell I card" in page
    assert "The players hold more Stones of Forgiveness (3) than the Abyss has cards (2)" in page
    assert "Check before recording:" in page
    assert sins.post("finish", page="score").status_code == 200  # never refused
    assert sins.doc.status == "finished"


def test_the_api_returns_warnings_without_refusing(client):
    body = {"players": [{"name": "Ana", "reserve": {"ira": 2}, "stones": 2}, {"name": "Bo", "reserve": {}}],
            "abyss": {"ira": 1}}
    resp = client.post(URL, data=json.dumps(body), content_type="application/json")
    assert resp.status_code == 200
    got = resp.get_json()
    assert got["players"][1]["points"] == 0
    fields = {w["field"]: w["message"] for w in got["warnings"]}
    assert set(fields) == {"players.1.reserve", "abyss"}
    assert "Bo's reserve is empty" in fields["players.1.reserve"]
    # one card: no "1 cards" (issue 28, plurals)
    assert "hold more Stones of Forgiveness (2) than the Abyss has cards (1)" in fields["abyss"]


def test_the_api_has_no_warnings_for_a_possible_game(client):
    body = {"players": [{"name": "Ana", "reserve": {"ira": 2}, "stones": 1}, {"name": "Bo", "reserve": {"gula": 1}}],
            "abyss": {"ira": 1}}
    assert client.post(URL, data=json.dumps(body), content_type="application/json").get_json()["warnings"] == []


# -- Penitenziagite cards at scoring ---------------------------------------------------------------

def test_the_api_counts_a_penitenziagite_card_as_a_twelfth_card_of_its_sin(client):
    body = {"players": [{"name": "Ana", "reserve": {"invidia": 12}}, {"name": "Bo", "reserve": {"ira": 1}}], "abyss": {}}
    refused = client.post(URL, data=json.dumps(body), content_type="application/json")
    assert refused.status_code == 422
    assert "only 11 cards of each sin type" in json.dumps(refused.get_json())
    resp = client.post(URL, data=json.dumps({**body, "penitenziagite": True}), content_type="application/json")
    assert resp.status_code == 200
    assert resp.get_json()["players"][0]["by_type"] == {"invidia": 10}
    body["players"][0]["reserve"] = {"invidia": 13}
    resp = client.post(URL, data=json.dumps({**body, "penitenziagite": True}), content_type="application/json")
    assert resp.status_code == 422 and "its Penitenziagite card included" in json.dumps(resp.get_json())
    bad = client.post(URL, data=json.dumps({**body, "penitenziagite": "yes"}), content_type="application/json")
    assert bad.status_code == 422 and "penitenziagite" in bad.get_json()["errors"]


def test_the_table_takes_twelve_of_a_type_with_penitenziagite_and_says_why(pen):
    page = text_of(pen.page("score"))
    assert "a Penitenziagite card scores as one more card of its sin" in page
    assert "a Penitenziagite card scores as one more card of its sin" in text_of(pen.page("setup"))
    assert pen.reserve("Ana", {"invidia": 12}).status_code == 200
    resp = pen.reserve("Bo", {"invidia": 1})
    assert resp.status_code == 422 and any("with its Penitenziagite card" in e for e in errors_in(resp))


def test_without_penitenziagite_twelve_of_a_type_is_refused(tables):
    sins = Sins(tables, names=NAMES).ready()
    resp = sins.reserve("Ana", {"invidia": 12})
    assert resp.status_code == 422 and "There are only 11 cards of each sin type." in errors_in(resp)
    assert "Penitenziagite card scores" not in text_of(sins.page("score"))


def test_correcting_the_third_cards_turn_never_lists_a_player_who_already_played(pen):
    """Issue 28: the card was tied to Bo's turn, Bo and Cy tapped done; then the table corrects it to
    Ana's turn. Bo and Cy have played since the card (rulebook, Penitenziagite: turns go on until
    the player left of the first has finished), so only Di, playing now, is still to play."""
    ids = pen.ids()
    _to(pen, "Bo")
    for _ in range(2):
        pen.post("judgment", {"delta": 1}, page="play")
    assert pen.post("judgment", {"delta": 1, "on": ids["Bo"]}, page="play").status_code == 200
    assert "Still to play: Cy, Di." in text_of(pen.page("play"))
    pen.post("turn", page="play")  # Bo is done
    pen.post("turn", page="play")  # Cy is done
    resp = pen.post("third", {"player": ids["Ana"]}, page="play")
    assert resp.status_code == 200
    page = text_of(resp)
    assert "Still to play: Di." in page and "Now playing: Di" in page
    assert pen.gs["third_on"] == ids["Ana"] and pen.gs["turn"] == ids["Di"]
    pen.post("turn", page="play")  # Di is done: the round, and the game, are over
    assert "The game is over" in text_of(pen.page("play"))


def test_a_correction_after_the_last_player_tapped_done_first_keeps_the_game_over(pen):
    """Di tapped done before the card was tied to her turn (the tracker went round to Ana); the
    table then corrects it to Cy's turn. Di has finished since, so nobody plays any more."""
    ids = pen.ids()
    _to(pen, "Di")
    for _ in range(2):
        pen.post("judgment", {"delta": 1}, page="play")
    pen.post("turn", page="play")  # Di is done: the tracker shows Ana
    assert pen.post("judgment", {"delta": 1, "on": ids["Di"]}, page="play").status_code == 200
    assert pen.post("third", {"player": ids["Cy"]}, page="play").status_code == 200
    page = text_of(pen.page("play"))
    assert "The game is over" in page and "Still to play" not in page
    resp = pen.post("turn", page="play", form_key="sins-turn")
    assert resp.status_code == 422


def test_the_abyss_log_line_has_no_points_to_agree_with_the_number(tables):
    """Issue 28, plurals: an Abyss of 1 point never reads "1 points" in the log (either language)."""
    from tests.web.test_sins_pages import Sins

    sins = Sins(tables, names=NAMES).ready()
    assert sins.post("abyss/total", {"points": 1}, page="score").status_code == 200
    page = text_of(sins.page("score"))
    assert "Abyss of Souls total entered: it scores 1" in page and "1 points" not in page
    sins.tables.client.set_cookie("lang", "fr", domain="companion.test")
    page = " ".join(text_of(sins.page("score")).replace("\u2019", "'").split())
    assert "Total de l'Abysse des Âmes saisi : elle marque 1" in html.unescape(page) and "1 points" not in page
