"""Sinful Gibbon's round entry (issue 16): the live preview before saving, the running totals on the
Round page, our own messages on the round form (novalidate, blank refused next to the box), the box
and chip of the shared number entry, and the one-tap seat swap."""
from __future__ import annotations

import re

import pytest

from tests.conftest import HX, text_of
from tests.web.test_gibbon_views import EXAMPLE, NAMES, counts, record

pytestmark = pytest.mark.usefixtures("app")


@pytest.fixture
def started(tables):
    tok = tables.create("gibbon", names=NAMES)
    assert tables.post(tok, "gibbon/start", {"dealer": "1", "bookkeeper": "2"}).status_code == 200
    return tok


def full(rows: dict) -> dict:
    """Every count of every player, as the form sends them (missing ones as 0)."""
    keys = ("low", "high", "cheats", "hearts", "accepted_hearts", "wrongful_doubts", "fattest_pile")
    return {p: {k: rows.get(p, {}).get(k, 0) for k in keys} for p in range(1, 5)}


def preview(tables, tok, data, **kw):
    return tables.client.get(f"/t/{tok}/gibbon/round/preview", query_string=data, headers=HX, **kw)


def cells(html: str, column: str) -> list[str]:
    """One column of the shared player grid, a value per player (row) in seat order."""
    found = re.findall(rf'<span class="pgrid-l">{column}</span> <span class="pgrid-v">(.*?)</span></td>', html, re.S)
    return [re.sub(r"<[^>]+>", "", v).strip() for v in found]


def test_the_preview_shows_the_rulebook_round_before_it_is_saved(tables, started):
    before = tables.version(started)
    resp = preview(tables, started, counts(full(EXAMPLE), braveheart=2, hat=3))
    assert resp.status_code == 200
    html = resp.get_data(as_text=True)
    assert "<html" not in html and "not saved yet" in html
    assert cells(html, "Round total") == ["220", "90", "230", "30"]
    assert "Braveheart (immune)" in text_of(resp)
    assert re.search(r"Ana</strong> 220 <span class=\"hint\">\(780 to go\)", html)
    assert tables.version(started) == before and tables.table(started).state["game"]["rounds"] == []


def test_the_preview_reads_the_box_first_then_the_chip(tables, started):
    data = counts(full({}))
    data["p1_low"] = ["7", "0"]  # typed 7, the 0 chip still lit: the box wins
    data["p2_low"] = ["", "3"]  # box emptied, chip 3 tapped (no JavaScript): the chip
    html = preview(tables, started, data).get_data(as_text=True)
    assert cells(html, "Round total") == ["70", "30", "0", "0"]


def test_the_preview_names_a_blank_box_and_an_impossible_count_instead_of_guessing(tables, started):
    data = counts(full(EXAMPLE), braveheart=2, hat=3)
    data["p4_low"] = ""
    text = text_of(preview(tables, started, data))
    assert "Di, Low cards face up (2–10): enter a number (0 if none)." in text
    assert "Round total" not in text
    data["p4_low"] = 1
    data["p4_fattest_pile"] = 2
    text = text_of(preview(tables, started, data))
    assert "Di has no pile" in text and "Round total" not in text


def test_the_preview_adds_to_the_running_totals_and_says_when_the_round_ends_the_game(tables, started):
    heavy = {1: dict(low=30, high=15, cheats=5, hearts=10)}  # 900
    record(tables, started, full(heavy))
    tables.post(started, "gibbon/swap", {"chooser": "1", "partner": "2"})
    html = preview(tables, started, counts(full({1: dict(low=10)}), number=2)).get_data(as_text=True)
    assert cells(html, "Running total")[:1] == ["1000"] or "1000" in cells(html, "Running total")
    assert "This round ends the game." in html and "1000 reached" in html


def test_the_preview_of_an_unknown_table_is_404(tables):
    assert tables.client.get("/t/nope/gibbon/round/preview").status_code == 404


def test_the_round_page_shows_running_totals_above_the_form_and_right_after_saving(tables, started, client):
    resp = record(tables, started, full(EXAMPLE), braveheart=2, hat=3)
    text = text_of(resp)  # right after saving: the counted round, the swap, the scores
    assert "Scores after round 1" in text and "Before round 2: swap seats" in text
    assert re.search(r"1 Di 30 last round: \+30 970 to go 2 Bo 90 last round: \+90 910 to go "
                     r"3 Ana 220 last round: \+220 780 to go 4 Cy 230 last round: \+230 770 to go", text)
    tables.post(started, "gibbon/swap", {"chooser": "2", "partner": "4"})
    page = client.get(f"/t/{started}/round")
    html = page.get_data(as_text=True)
    assert html.index("Scores after round 1") < html.index('id="round-new"')
    assert "780 to go" in text_of(page)


def test_the_round_form_is_novalidate_and_a_blank_box_is_refused_next_to_it(tables, started, client):
    html = client.get(f"/t/{started}/round").get_data(as_text=True)
    form = re.search(r'<form[^>]*id="round-new"[^>]*>', html).group(0)
    assert "novalidate" in form
    assert 'inputmode="numeric"' in html and 'type="number"' not in html
    data = counts(full(EXAMPLE), braveheart=2, hat=3)
    data["p3_hearts"] = ""
    resp = tables.post(started, "gibbon/round", data, page="round", form_key="round-new")
    assert resp.status_code == 422
    body = resp.get_data(as_text=True)
    assert 'id="round-new-p3_hearts-err"' in body and "Enter a number (0 if none)." in body
    assert re.search(r'id="round-new-p3_hearts"[^>]*value=""', body)  # kept blank, visibly, not 0
    assert re.search(r'id="round-new-p1_low"[^>]*value="5"', body)  # the rest as typed
    assert tables.table(started).state["game"]["rounds"] == []


def test_the_swap_is_one_tap_on_the_partner_and_nobody_is_a_labelled_house_rule(tables, started):
    resp = record(tables, started, full(EXAMPLE), braveheart=2, hat=3)
    html = resp.get_data(as_text=True)
    assert re.search(r'<button class="button secondary gb-partner" name="partner" value="4">Di</button>', html)
    assert "House rule: nobody swaps" in text_of(resp) and "Nobody: keep the seats" not in text_of(resp)
    resp = tables.post(started, "gibbon/swap", {"chooser": "2", "partner": "0"})
    assert "kept the seats as they were (house rule)" in text_of(resp)


READINGS = [
    "The rulebook: when no pile has a face-down card, nobody gets Gluttony.",
    "Our reading: when nobody doubted wrongly, nobody gets Wrath.",
    "Our reading: the Braveheart's own accepted hearts still count when finding the most accepted hearts, "
    "for everyone else's Envy.",
    "House rule, not in the rulebook: the chooser may keep the seats, and nobody swaps.",
]


@pytest.mark.parametrize("sentence", READINGS)
def test_the_help_and_the_rules_page_say_each_reading_in_the_same_words(tables, started, client, sentence):
    assert sentence in text_of(client.get(f"/t/{started}/round"))
    assert sentence in text_of(client.get("/rules/gibbon/special-cases"))


def test_dealing_three_is_shown_as_the_books_recommendation(tables, client):
    tok = tables.create("gibbon", names=("A", "B", "C", "D", "E", "F"))
    tables.post(tok, "gibbon/start", {"dealer": "1"})
    sentence = "With 6 or 7 players the rulebook recommends dealing 3 hand cards each instead of 4; the app suggests 3."
    assert sentence in text_of(client.get(f"/t/{tok}/setup"))
    assert sentence in text_of(client.get("/rules/gibbon/startup"))
    assert "recommended with 6 or 7 players; 4 is the standard" in text_of(client.get(f"/t/{tok}/round"))
