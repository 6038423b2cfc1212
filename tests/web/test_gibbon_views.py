"""Sinful Gibbon's pages and actions through the test client: full pages, htmx fragments, bad input."""
from __future__ import annotations

import re

import pytest

from tests.conftest import HX, text_of

NAMES = ("Ana", "Bo", "Cy", "Di")
# The rulebook's counting-table example (Bo is the Braveheart, Cy wears the hat): 220 90 230 30.
EXAMPLE = {
    1: dict(low=5, high=1, cheats=2, hearts=1, accepted_hearts=0, wrongful_doubts=3, fattest_pile=2),
    2: dict(low=4, high=0, cheats=0, hearts=1, accepted_hearts=1, wrongful_doubts=1, fattest_pile=4),
    3: dict(low=3, high=1, cheats=1, hearts=2, accepted_hearts=1, wrongful_doubts=2, fattest_pile=4),
    4: dict(low=1, high=0, cheats=0, hearts=1, accepted_hearts=2, wrongful_doubts=0, fattest_pile=0),
}
HEAVY = dict(low=30, high=15, cheats=5, hearts=10)  # 900 points


def counts(rows: dict, braveheart="", hat="", number=1, **extra) -> dict:
    data = {"round": number, "braveheart": str(braveheart), "hat": str(hat), **extra}
    for pid, row in rows.items():
        for key, value in row.items():
            data[f"p{pid}_{key}"] = value
    return data


@pytest.fixture
def token(tables):
    return tables.create("gibbon", names=NAMES)


@pytest.fixture
def started(tables, token):
    resp = tables.post(token, "gibbon/start", {"dealer": "1", "bookkeeper": "2"})
    assert resp.status_code == 200
    return token


def jobs(resp) -> dict[str, str]:
    """The round header's jobs as {"Dealer": "Ana", ...} (term popovers reduced to their name)."""
    out = {}
    for dt, dd in re.findall(r"<div><dt>(.*?)</dt><dd>(.*?)</dd></div>", resp.get_data(as_text=True), re.S):
        label = re.search(r"<summary>(.*?)</summary>", dt)
        out[(label.group(1) if label else dt).strip()] = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", dd)).strip()
    return out


def record(tables, token, rows=None, number=None, swap=True, **kw):
    """Count a round (and the swap before it, if one is due); assert it landed."""
    doc = tables.table(token)
    rounds = doc.state["game"]["rounds"]
    if swap and rounds and rounds[-1]["swap"] is None:
        bh = next((pid for pid, t in rounds[-1]["tallies"].items() if t["braveheart"]), "1")
        resp = tables.post(token, "gibbon/swap", {"chooser": bh, "partner": "0"})
        assert resp.status_code == 200, text_of(resp)[:400]
        rounds = tables.table(token).state["game"]["rounds"]
    number = number or len(rounds) + 1
    resp = tables.post(token, "gibbon/round", counts(rows or {p: {} for p in EXAMPLE}, number=number, **kw),
                       page="round", form_key="round-new")
    assert resp.status_code == 200, text_of(resp)[:600]
    return resp


# -- pages -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("slug", ["setup", "round", "counting"])
def test_every_page_renders_whole_and_as_a_fragment(client, token, slug):
    full = client.get(f"/t/{token}/{slug}")
    assert full.status_code == 200 and "<html" in full.get_data(as_text=True)
    frag = client.get(f"/t/{token}/{slug}", headers=HX)
    body = frag.get_data(as_text=True)
    assert frag.status_code == 200 and "<html" not in body and body.lstrip().startswith('<div id="live"')


def test_a_new_table_opens_on_setup_with_the_checklist_and_the_dealer_choice(client, token):
    text = text_of(client.get(f"/t/{token}"))
    assert "A deck of 52 cards and one joker, shuffled" in text
    assert "4 hand cards each" in text
    assert "Pick at random" in text and "Start the game" in text


def test_six_players_get_three_hand_cards(client, tables):
    tok = tables.create("gibbon", names=("A", "B", "C", "D", "E", "F"))
    assert "3 hand cards each" in text_of(client.get(f"/t/{tok}/setup"))


def test_the_round_page_asks_for_a_dealer_before_the_first_round(client, token):
    text = text_of(client.get(f"/t/{token}/round"))
    assert "First choose who deals" in text and "Count round 1" not in text


def test_the_counting_page_says_nothing_is_counted_yet(client, token):
    assert "No round is counted yet" in text_of(client.get(f"/t/{token}/counting"))


# -- setup -----------------------------------------------------------------------------------------

def test_ticking_a_setup_step(tables, token):
    resp = tables.post(token, "gibbon/tick", {"step": "hat", "done": "1"}, page="setup", form_key="tick-hat")
    assert resp.status_code == 200
    assert re.search(r'id="tick-hat-item"[^>]*class|class="tick done" id="tick-hat-item"', resp.get_data(as_text=True))
    assert tables.table(token).state["game"]["checklist"] == ["hat"]
    resp = tables.post(token, "gibbon/tick", {"step": "hat", "done": "0"}, page="setup")
    assert tables.table(token).state["game"]["checklist"] == []


@pytest.mark.parametrize("data", [
    pytest.param({"step": "beer", "done": "1"}, id="unknown-step"),
    pytest.param({"step": "hat", "done": "7"}, id="bad-done"),
    pytest.param({"done": "1"}, id="no-step"),
])
def test_bad_ticks_get_422(tables, token, data):
    assert tables.post(token, "gibbon/tick", data).status_code == 422


def test_starting_with_a_chosen_dealer_and_bookkeeper(tables, token, client):
    resp = tables.post(token, "gibbon/start", {"dealer": "4", "bookkeeper": "2"}, page="setup", form_key="start")
    assert resp.status_code == 200
    assert "Di deals the first round and Bo keeps the books; Ana starts." in text_of(resp)
    doc = tables.table(token)
    assert doc.status == "playing" and (doc.state["game"]["dealer"], doc.state["game"]["bookkeeper"]) == (4, 2)
    # The table now opens on the round, which shows the jobs.
    resp = client.get(f"/t/{token}")
    assert "Round 1" in text_of(resp)
    assert jobs(resp) == {"Dealer": "Di", "Bookkeeper": "Bo", "Starts": "Ana (on the dealer's left)",
                          "Hand cards": "4 each"}


def test_starting_without_a_choice_picks_a_dealer_at_random_who_keeps_the_books(tables, token):
    resp = tables.post(token, "gibbon/start", {}, htmx=False)
    assert resp.status_code == 303
    gs = tables.table(token).state["game"]
    assert gs["dealer"] in (1, 2, 3, 4) and gs["bookkeeper"] == gs["dealer"]


@pytest.mark.parametrize("data, field", [
    pytest.param({"dealer": "9"}, "dealer", id="stranger"),
    pytest.param({"dealer": "x"}, "dealer", id="not-a-number"),
    pytest.param({"dealer": "1", "bookkeeper": "-1"}, "bookkeeper", id="negative"),
    pytest.param({"dealer": "1234567"}, "dealer", id="too-long"),
])
def test_a_bad_dealer_or_bookkeeper_gets_a_message_next_to_the_field(tables, token, data, field):
    resp = tables.post(token, "gibbon/start", data, page="setup", form_key="start")
    assert resp.status_code == 422
    html = resp.get_data(as_text=True)
    assert f'id="start-{field}-err"' in html
    assert tables.table(token).state["game"]["dealer"] is None


# -- counting a round ------------------------------------------------------------------------------

def test_the_rulebook_example_round_shows_its_counting_table(tables, started):
    resp = record(tables, started, EXAMPLE, braveheart=2, hat=3)
    text = text_of(resp)
    assert "Round 1 counted" in text
    # The shared player grid: a row per player, its sins, the round's total, then the running total.
    for name, pride, total in [("Ana", 70, 220), ("Bo", 40, 90), ("Cy", 50, 230), ("Di", 10, 30)]:
        assert re.search(rf"{name} Pride {pride} .*?Round total {total} Running total {total}", text)
    assert text.count("Braveheart (immune)") == 2
    assert "Before round 2: swap seats" in text and "Bo was the Braveheart" in text


def test_counting_without_javascript_redirects_to_the_round(tables, started):
    resp = tables.post(started, "gibbon/round", counts(EXAMPLE, braveheart=2, hat=3), htmx=False, page="round",
                       form_key="round-new")
    assert resp.status_code == 303 and resp.headers["Location"].endswith("/round#round-new")


def test_a_bad_count_gets_a_message_next_to_it_and_keeps_what_was_typed(tables, started):
    rows = {p: dict(r) for p, r in EXAMPLE.items()}
    rows[3]["cheats"] = -2
    rows[4]["low"] = "lots"
    before = tables.version(started)
    resp = tables.post(started, "gibbon/round", counts(rows, braveheart=2, hat=3), page="round", form_key="round-new")
    assert resp.status_code == 422
    html = resp.get_data(as_text=True)
    assert 'id="round-new-p3_cheats-err"' in html and "Must be at least 0." in html
    assert 'id="round-new-p4_low-err"' in html and "Enter a whole number." in html
    assert 'value="-2"' in html and 'value="lots"' in html and 'value="5"' in html  # as typed, others kept
    assert re.search(r'name="braveheart" value="2"\s+checked', html)
    assert "Not saved yet: check these entries." in html and 'href="#round-new-p3_cheats"' in html
    assert tables.version(started) == before


@pytest.mark.parametrize("change, message", [
    pytest.param({1: {"hearts": 5}, 2: {"hearts": 4}, 3: {"hearts": 4}}, "hearts in all", id="too-many-hearts"),
    pytest.param({1: {"low": 20}, 2: {"low": 17}}, "low cards face up in all", id="too-many-low-cards"),
    pytest.param({1: {"high": 9}, 2: {"high": 9}}, "high cards face up in all", id="too-many-high-cards"),
    pytest.param({1: {"hearts": 7}}, "Ana shows more hearts face up (7) than face-up cards (6)", id="hearts-beyond-face-up"),
    pytest.param({4: {"fattest_pile": 2}}, "Di has no pile", id="fattest-pile-without-a-pile"),
    pytest.param({4: {"cheats": 2}}, "Di has more piles, cheats and wrongful doubts (2), than face-up cards", id="piles-need-face-up-cards"),
    pytest.param({1: {"low": 37}}, "Must be at most 36.", id="more-than-the-deck-per-player"),
])
def test_impossible_rounds_are_explained(tables, started, change, message):
    rows = {p: {**r, **change.get(p, {})} for p, r in EXAMPLE.items()}
    resp = tables.post(started, "gibbon/round", counts(rows, braveheart=2, hat=3), page="round", form_key="round-new")
    assert resp.status_code == 422
    assert message in text_of(resp)
    assert tables.table(started).state["game"]["rounds"] == []


@pytest.mark.parametrize("field, value", [
    pytest.param("hat", "9", id="hat-on-a-stranger"), pytest.param("braveheart", "abc", id="braveheart-junk"),
])
def test_a_bad_hat_or_braveheart_choice_is_refused(tables, started, field, value):
    data = counts(EXAMPLE, braveheart=2, hat=3)
    data[field] = value
    resp = tables.post(started, "gibbon/round", data, page="round", form_key="round-new")
    assert resp.status_code == 422 and "Choose a player from the list." in text_of(resp)


@pytest.mark.parametrize("number", ["0", "abc", "99999", ""])
def test_a_bad_round_number_is_refused(tables, started, number):
    data = counts(EXAMPLE, braveheart=2, hat=3)
    data["round"] = number
    assert tables.post(started, "gibbon/round", data, page="round").status_code == 422


def test_a_round_cannot_be_counted_before_the_game_starts(tables, token):
    resp = tables.post(token, "gibbon/round", counts(EXAMPLE), page="round", form_key="round-new")
    assert resp.status_code == 422 and "Choose who deals the first round" in text_of(resp)


def test_two_phones_counting_the_same_round_conflict(tables, started):
    seen = tables.version(started)
    first = tables.post(started, "gibbon/round", counts(EXAMPLE, braveheart=2, hat=3), version=seen)
    assert first.status_code == 200
    second = tables.post(started, "gibbon/round", counts(EXAMPLE, hat=1), version=seen, page="round",
                         form_key="round-new")
    assert second.status_code == 409
    assert "changed on another phone" in text_of(second)
    assert len(tables.table(started).state["game"]["rounds"]) == 1


def test_undo_takes_a_counted_round_back(tables, started):
    record(tables, started, EXAMPLE, braveheart=2, hat=3)
    resp = tables.undo(started)
    assert resp.status_code == 200
    assert tables.table(started).state["game"]["rounds"] == []
    assert "Count round 1" in text_of(resp)


# -- the seat swap ---------------------------------------------------------------------------------

def test_the_swap_updates_the_seats_and_shows_the_next_jobs(tables, started):
    record(tables, started, EXAMPLE, hat=3)  # no Braveheart: the player who played the last card chooses
    resp = tables.post(started, "gibbon/swap", {"chooser": "2", "partner": "4"}, page="round", form_key="swap")
    assert resp.status_code == 200
    assert [p["name"] for p in tables.table(started).state["players"]] == ["Ana", "Di", "Cy", "Bo"]
    text = text_of(resp)
    # Round 1: Ana dealt (seat 1), Bo kept the books (seat 2). Now seat 2 holds Di, seat 3 Cy.
    assert "Round 2" in text
    assert jobs(resp) == {"Dealer": "Di", "Bookkeeper": "Cy", "Starts": "Cy (on the dealer's left)",
                          "Hand cards": "4 each"}
    assert "Seats, clockwise: Ana → Di → Cy → Bo" in text
    assert "Bo and Di swapped seats" in text


def test_the_braveheart_chooses_the_swap(tables, started):
    record(tables, started, EXAMPLE, braveheart=2, hat=3)
    resp = tables.post(started, "gibbon/swap", {"chooser": "1", "partner": "3"}, page="round", form_key="swap")
    assert resp.status_code == 422 and "The Braveheart of the round chooses" in text_of(resp)
    resp = tables.post(started, "gibbon/swap", {"chooser": "2", "partner": "0"}, page="round", form_key="swap")
    assert resp.status_code == 200 and "Bo kept the seats as they were" in text_of(resp)
    assert jobs(resp)["Starts"] == "Bo (last round's Braveheart)"


@pytest.mark.parametrize("data, field", [
    pytest.param({"chooser": "1", "partner": "1"}, "partner", id="with-oneself"),
    pytest.param({"chooser": "1", "partner": "77"}, "partner", id="stranger"),
    pytest.param({"chooser": "", "partner": "2"}, "chooser", id="nobody-chooses"),
    pytest.param({"chooser": "1"}, "partner", id="no-partner"),
])
def test_bad_swaps_get_a_message_next_to_the_field(tables, started, data, field):
    record(tables, started, EXAMPLE, hat=3)
    resp = tables.post(started, "gibbon/swap", data, page="round", form_key="swap")
    assert resp.status_code == 422
    assert f'id="swap-{field}-err"' in resp.get_data(as_text=True)


def test_a_swap_before_any_round_is_refused(tables, started):
    resp = tables.post(started, "gibbon/swap", {"chooser": "1", "partner": "2"}, page="round", form_key="swap")
    assert resp.status_code == 422 and "no seat swap to record" in text_of(resp)


# -- the counting table, corrections and the end ---------------------------------------------------

def test_the_counting_page_shows_standings_chart_and_every_round(tables, started, client):
    record(tables, started, EXAMPLE, braveheart=2, hat=3)
    record(tables, started, {1: {"low": 1}, 2: {}, 3: {}, 4: {"high": 1}})
    html = client.get(f"/t/{started}/counting").get_data(as_text=True)
    text = text_of(client.get(f"/t/{started}/counting"))
    assert "Running totals after round 2" in text
    assert re.search(r"1 Di 50 last round: \+20 950 to go 2 Bo 90 last round: \+0 910 to go", text)
    assert '<svg class="gb-race"' in html and 'role="img"' in html and "<desc" in html
    assert html.count('<polyline class="gb-line series-') == 4
    assert "style=" not in re.sub(r"<style\b.*?</style>", "", html.split('id="live"', 1)[1])
    assert "Round 2: the sins" in text
    assert "Round 1: the sins" in text_of(client.get(f"/t/{started}/counting?round=1"))


def test_editing_an_earlier_round_recomputes_the_later_totals(tables, started, client):
    record(tables, started, EXAMPLE, braveheart=2, hat=3)
    record(tables, started, {1: {"low": 1}, 2: {}, 3: {}, 4: {}})
    rows = {p: dict(r) for p, r in EXAMPLE.items()}
    rows[4]["low"] = 3  # Di: +20 Pride
    resp = tables.post(started, "gibbon/round/edit", counts(rows, braveheart=2, hat=3, number=1), page="counting",
                       form_key="round-edit")
    assert resp.status_code == 200
    text = text_of(resp)
    assert "Round 1: the sins" in text  # the page stays on the round being edited
    assert re.search(r"Di Pride 30 .*?Round total 50 Running total 50", text)
    history = text_of(client.get(f"/t/{started}/counting"))
    for name, total in [("Ana", 230), ("Bo", 90), ("Cy", 230), ("Di", 50)]:
        assert re.search(rf"{name} Running total {total} Round 1", history)
    assert "Round 1 corrected" in text


def test_editing_without_javascript_comes_back_to_that_round(tables, started):
    record(tables, started, EXAMPLE, braveheart=2, hat=3)
    record(tables, started)
    resp = tables.post(started, "gibbon/round/edit", counts(EXAMPLE, braveheart=2, hat=1, number=1), htmx=False,
                       page="counting", form_key="round-edit")
    assert resp.status_code == 303
    assert resp.headers["Location"].endswith("/counting?round=1#round-edit")


def test_a_bad_edit_keeps_the_form_open_with_its_messages(tables, started):
    record(tables, started, EXAMPLE, braveheart=2, hat=3)
    rows = {p: dict(r) for p, r in EXAMPLE.items()}
    rows[2]["accepted_hearts"] = 99
    resp = tables.post(started, "gibbon/round/edit", counts(rows, braveheart=2, hat=3, number=1), page="counting",
                       form_key="round-edit")
    assert resp.status_code == 422
    html = resp.get_data(as_text=True)
    assert '<details class="gb-edit" open>' in html and 'id="round-edit-p2_accepted_hearts-err"' in html
    assert 'value="99"' in html
    assert tables.table(started).state["game"]["rounds"][0]["tallies"]["2"]["accepted_hearts"] == 1


def test_reaching_1000_ends_the_game_with_winner_and_losers(tables, started, client):
    record(tables, started, {1: HEAVY, 2: {"low": 2}, 3: {"low": 1}, 4: {}})
    resp = record(tables, started, {1: {"low": 10}, 2: {}, 3: {"high": 1}, 4: {"low": 1}})
    text = text_of(resp)
    assert "Game over" in text
    assert "Winner with the fewest points: Di (10)" in text
    assert "Going to Hell with 1000 or more: Ana (1000)" in text
    doc = tables.table(started)
    assert doc.status == "finished"
    assert doc.result == {"winners": ["Di"], "scores": [
        {"name": "Di", "points": 10}, {"name": "Bo", "points": 20}, {"name": "Cy", "points": 30},
        {"name": "Ana", "points": 1000}]}
    assert "Game over" in text_of(client.get(f"/t/{started}"))  # a finished table opens on its result
    home = text_of(client.get("/"))
    assert "Winner: Di" in home and "Ana 1000" in home


def test_an_edit_that_would_have_ended_the_game_earlier_is_explained(tables, started):
    record(tables, started, {1: HEAVY, 2: {}, 3: {}, 4: {}})
    record(tables, started, {1: {"low": 5}, 2: {}, 3: {}, 4: {}})
    record(tables, started)
    resp = tables.post(started, "gibbon/round/edit", counts({1: {"low": 10}, 2: {}, 3: {}, 4: {}}, number=2),
                       page="counting", form_key="round-edit")
    assert resp.status_code == 422
    assert "Ana would reach 1000 after round 2" in text_of(resp)


def test_the_last_round_can_be_removed(tables, started):
    record(tables, started, EXAMPLE, braveheart=2, hat=3)
    resp = tables.post(started, "gibbon/round/remove", {"round": "1"}, page="counting", form_key="remove-round")
    assert resp.status_code == 200 and "Round 1 removed" in text_of(resp)
    assert tables.table(started).state["game"]["rounds"] == []
    assert tables.post(started, "gibbon/round/remove", {"round": "1"}).status_code == 422


def test_players_cannot_join_once_a_round_is_counted(tables, started):
    from companion.db import get_session
    from companion.tables import store

    record(tables, started)
    with tables.app.app_context():  # as if someone set the table back to "setting up"
        store.apply(get_session(), tables.table(started).id, None, store.Change("t", "t"),
                    lambda doc: doc.update(status="setup"))
    resp = tables.post(started, "players/add", {"name": "Eve"}, page="table", form_key="add-player")
    assert resp.status_code == 422 and "can no longer join or leave" in text_of(resp)


# -- the view-only link ----------------------------------------------------------------------------

@pytest.mark.parametrize("stage", ["new", "started", "swap-pending", "next-round", "finished"])
def test_the_view_only_round_page_follows_the_game(tables, token, client, stage):
    if stage != "new":
        tables.post(token, "gibbon/start", {"dealer": "1", "bookkeeper": "2"})
    if stage in ("swap-pending", "next-round", "finished"):
        record(tables, token, {1: HEAVY if stage == "finished" else {"low": 1}, 2: {}, 3: {}, 4: {}})
    if stage == "next-round":
        tables.post(token, "gibbon/swap", {"chooser": "1", "partner": "0"})
    if stage == "finished":
        record(tables, token, {1: {"low": 10}, 2: {}, 3: {}, 4: {}})
    view = tables.table(token).view_token
    resp = client.get(f"/t/{view}/round")
    assert resp.status_code == 200
    text = text_of(resp)
    expected = {"new": "The game has not started yet.", "started": "The counts appear here",
                "swap-pending": "The players are choosing the seat swap.", "next-round": "The counts appear here",
                "finished": "Game over"}[stage]
    assert expected in text and "Count round" not in text

def test_the_view_only_link_shows_the_table_without_forms_and_refuses_changes(tables, started, client):
    record(tables, started, EXAMPLE, braveheart=2, hat=3)
    view = tables.table(started).view_token
    for slug in ("setup", "round", "counting"):
        html = client.get(f"/t/{view}/{slug}").get_data(as_text=True)
        assert "<form" not in html.split('id="live"', 1)[1].split("</main>")[0]
    assert "220" in text_of(client.get(f"/t/{view}/counting"))
    resp = client.post(f"/t/{view}/gibbon/swap", data={"v": 3, "chooser": "2", "partner": "1"}, headers=HX)
    assert resp.status_code == 403


# -- odd input and plain forms ---------------------------------------------------------------------

def test_player_names_are_escaped_everywhere(tables, client):
    tok = tables.create("gibbon", names=("<i>Al</i>", "Bo&Co", "Cy", "Di"))
    tables.post(tok, "gibbon/start", {"dealer": "1", "bookkeeper": "1"})
    record(tables, tok, {1: HEAVY, 2: {}, 3: {}, 4: {}}, hat=1)
    tables.post(tok, "gibbon/swap", {"chooser": "1", "partner": "2"})
    record(tables, tok, {1: {"low": 10}, 2: {}, 3: {}, 4: {}})
    for slug in ("setup", "round", "counting"):
        html = client.get(f"/t/{tok}/{slug}").get_data(as_text=True)
        assert "<i>Al</i>" not in html and "&lt;i&gt;Al&lt;/i&gt;" in html
        assert "Bo&Co" not in html and "Bo&amp;Co" in html


@pytest.mark.parametrize("field, message", [
    pytest.param("p1_low", "Enter a whole number.", id="a-very-long-count"),
    pytest.param("hat", "Choose a player from the list.", id="a-very-long-hat"),
])
def test_overlong_fields_get_a_message_not_a_crash(tables, started, field, message):
    data = counts(EXAMPLE, braveheart=2, hat=3)
    data[field] = "9" * 5000
    resp = tables.post(started, "gibbon/round", data, page="round", form_key="round-new")
    assert resp.status_code == 422 and message in text_of(resp)


@pytest.mark.parametrize("path, data, page", [
    pytest.param("gibbon/tick", {"step": "deck", "done": "1"}, "setup", id="tick"),
    pytest.param("gibbon/swap", {"chooser": "1", "partner": "3"}, "round", id="swap"),
    pytest.param("gibbon/round/remove", {"round": "1"}, "counting", id="remove"),
])
def test_every_action_works_without_javascript(tables, started, path, data, page):
    record(tables, started, EXAMPLE, hat=3)
    resp = tables.post(started, path, data, htmx=False, page=page, form_key="k")
    assert resp.status_code == 303 and resp.headers["Location"].endswith(f"/{page}#k")
