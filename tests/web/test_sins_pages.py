"""7 - The Sins through the test client: a 4-player table from setup to a recorded result, every
page full and as an htmx fragment, and every bad input answered next to its field (never a 500)."""
from __future__ import annotations

import html
import re

import pytest

from tests.conftest import HX, text_of

SIX = ["superbia", "luxuria", "invidia", "ira", "acedia", "gula"]
SEVEN = ("superbia", "avaritia", "luxuria", "invidia", "ira", "acedia", "gula")
MARGHERITA = {"invidia": 2, "acedia": 4, "luxuria": 3, "ira": 1}


class Sins:
    """A 7 - The Sins table driven the way its phones drive it."""

    def __init__(self, tables, names=("Margherita", "Bo", "Cy", "Di")):
        self.tables = tables
        self.token = tables.create("sins", names=names)

    def post(self, path, data=None, page="setup", **kw):
        return self.tables.post(self.token, f"sins/{path}", data or {}, page=page, **kw)

    def page(self, slug, **kw):
        return self.tables.client.get(f"/t/{self.token}/{slug}", **kw)

    @property
    def doc(self):
        return self.tables.table(self.token)

    @property
    def gs(self):
        return self.doc.state["game"]

    def ids(self):
        return {p["name"]: p["id"] for p in self.doc.state["players"]}

    def ready(self, sins=SIX, penitenziagite=False):
        assert self.post("sins", {"sin": sins}).status_code == 200
        if penitenziagite:
            assert self.post("penitenziagite", {"on": 1}).status_code == 200
        assert self.post("start").status_code == 200
        return self

    def reserve(self, name, counts, stones=0, **kw):
        data = {"player": self.ids()[name], "stones": stones, **counts}
        return self.post("reserve", data, page="score", form_key=f"sins-reserve-{self.ids()[name]}", **kw)


@pytest.fixture
def sins(tables):
    return Sins(tables)


def errors_in(resp) -> list[str]:
    return [re.sub(r"\s+", " ", m).strip() for m in re.findall(r'class="error[^"]*"[^>]*>(.*?)</p>', resp.get_data(as_text=True), re.S)]


# -- pages -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("slug, heading", [
    pytest.param("setup", "Setup checklist", id="setup"),
    pytest.param("play", "Last Judgment cards", id="play"),
    pytest.param("score", "Abyss of Souls", id="score"),
    pytest.param("table", "Players, in seat order", id="players"),
])
def test_every_page_renders_in_full_and_as_a_fragment(sins, slug, heading):
    full = sins.page(slug)
    assert full.status_code == 200 and "<html" in full.get_data(as_text=True)
    assert heading in text_of(full)
    frag = sins.page(slug, headers=HX)
    body = frag.get_data(as_text=True)
    assert frag.status_code == 200 and "<html" not in body and body.lstrip().startswith('<div id="live"')
    assert heading in text_of(frag)


def test_the_table_opens_on_the_page_its_status_calls_for(sins):
    def landing():
        return sins.tables.client.get(f"/t/{sins.token}").get_data(as_text=True)

    assert 'class="page page-setup"' in landing()
    sins.ready()
    assert 'class="page page-play"' in landing()
    for _ in range(3):
        sins.post("judgment", {"delta": 1}, page="play")
    assert 'class="page page-score"' in landing()


def test_the_setup_numbers_follow_the_player_count(sins):
    page = text_of(sins.page("setup"))
    assert "4 players use 6 of the 7 sin types" in page
    assert "Hell I 36, Hell II 18, Hell III 12" in page
    assert "Hell I 28, Hell II 19, Hell III 13" in page and "60 cards" in page
    assert "8 Stones of Forgiveness" in page
    tok = sins.tables.create("sins", names=("Ana", "Bo"))
    page = text_of(sins.tables.client.get(f"/t/{tok}/setup"))
    assert "2 players use 4 of the 7 sin types" in page and "4 Stones of Forgiveness" in page


def test_setup_links_its_steps_to_the_rules(sins):
    html = sins.page("setup").get_data(as_text=True)
    for slug in ("setup-sin-types", "setup-hell-decks", "setup-reveal", "setup-deck", "setup-stones", "first-player"):
        assert f'href="/rules/sins/{slug}"' in html


# -- setup -----------------------------------------------------------------------------------------

def test_choosing_the_wrong_number_of_sin_types_is_refused_next_to_the_choice(sins):
    resp = sins.post("sins", {"sin": ["ira", "gula"]}, form_key="sins-choose")
    assert resp.status_code == 422
    assert any("pick exactly 6 sin types (2 picked)" in e for e in errors_in(resp))
    html = resp.get_data(as_text=True)
    assert re.search(r'value="ira" checked', html) and re.search(r'value="gula" checked', html)
    assert sins.gs["sins"] == []


def test_unknown_sin_types_are_refused(sins):
    resp = sins.post("sins", {"sin": SIX[:5] + ["pride"]}, form_key="sins-choose")
    assert resp.status_code == 422 and "Pick sin types from the list." in errors_in(resp)


def test_sin_types_can_be_chosen_or_drawn(sins):
    assert sins.post("sins", {"sin": list(reversed(SIX))}).status_code == 200
    assert sins.gs["sins"] == ["superbia", "luxuria", "invidia", "ira", "acedia", "gula"]
    assert sins.post("sins/draw").status_code == 200
    drawn = sins.gs["sins"]
    assert len(set(drawn)) == 6


def test_ticks_penitenziagite_and_first_player(sins):
    ids = sins.ids()
    assert sins.post("tick", {"step": "B", "done": 1}).status_code == 200
    assert sins.gs["done"] == ["B"]
    assert sins.post("tick", {"step": "B", "done": 0}).status_code == 200
    assert sins.gs["done"] == []
    assert sins.post("tick", {"step": "Z", "done": 1}).status_code == 422
    assert sins.post("penitenziagite", {"on": 1}).status_code == 200
    page = text_of(sins.page("setup"))
    assert "Penitenziagite cards under the deck" in page and "Red Score card" in page
    assert "6 Penitenziagite cards" in page
    assert sins.post("first", {"player": ids["Cy"]}).status_code == 200
    assert sins.gs["first"] == ids["Cy"]
    assert sins.post("first", {"player": 99}, form_key="sins-first").status_code == 422
    assert sins.post("first/draw").status_code == 200
    assert sins.gs["first"] in ids.values()


def test_the_game_cannot_start_before_the_sin_types_are_chosen(sins):
    resp = sins.post("start", form_key="sins-start")
    assert resp.status_code == 422
    assert "Choose the 6 sin types in play first (step A)." in errors_in(resp)
    assert sins.doc.status == "setup"


def test_a_five_player_table_starts_with_all_seven_types_without_choosing(tables):
    five = Sins(tables, names=("Ana", "Bo", "Cy", "Di", "Eve"))
    assert five.gs["sins"] == list(SEVEN)
    assert 'name="sin"' not in five.page("setup").get_data(as_text=True)  # nothing to pick
    assert five.post("start").status_code == 200 and five.doc.status == "playing"


def test_players_joining_during_setup_change_the_numbers(sins):
    assert sins.tables.post(sins.token, "players/add", {"name": "Eve"}).status_code == 200
    page = text_of(sins.page("setup"))
    assert "5 players use all 7 sin types: nothing to choose" in page
    assert sins.gs["sins"] == list(SEVEN)  # all seven are in play, nothing to pick
    victim = sins.ids()["Margherita"]
    assert sins.tables.post(sins.token, "players/remove", {"player": victim}).status_code == 200
    assert sins.gs["first"] != victim


# -- play ------------------------------------------------------------------------------------------

def test_turns_go_round_and_the_third_last_judgment_ends_the_game(sins):
    sins.ready()
    ids = sins.ids()
    assert sins.gs["turn"] == ids["Margherita"]
    assert sins.post("turn", page="play").status_code == 200
    assert sins.gs["turn"] == ids["Bo"]
    for n in (1, 2):
        sins.post("judgment", {"delta": 1}, page="play")
        assert "The game is over" not in text_of(sins.page("play"))
    sins.post("judgment", {"delta": 1}, page="play")
    page = text_of(sins.page("play"))
    assert "The game is over" in page and "Nobody takes another turn" in page
    resp = sins.post("judgment", {"delta": 1}, page="play", form_key="sins-judgment")
    assert resp.status_code == 422 and "All three Last Judgment cards are already out." in errors_in(resp)
    resp = sins.post("turn", page="play", form_key="sins-turn")
    assert resp.status_code == 422


def test_penitenziagite_lets_the_round_finish(sins):
    sins.ready(penitenziagite=True)
    sins.post("turn", page="play")  # Bo's turn
    for _ in range(3):
        sins.post("judgment", {"delta": 1}, page="play")
    ids = sins.ids()
    assert sins.gs["third_on"] == ids["Bo"]
    page = text_of(sins.page("play"))
    assert "Still to play: Cy, Di." in page and "The game ends when Di has finished." in page
    sins.post("turn", page="play")
    sins.post("turn", page="play")  # Di plays
    assert "Still to play: Di." in text_of(sins.page("play"))
    sins.post("turn", page="play")  # Di is done
    assert "The game is over" in text_of(sins.page("play"))
    # A correction: the third card came out on Di's turn, so nobody plays after it.
    assert sins.post("third", {"player": ids["Di"]}, page="play").status_code == 200
    assert "The game is over" in text_of(sins.page("play"))


def test_stones_move_from_the_supply_to_the_players(sins):
    sins.ready()
    ids = sins.ids()
    for _ in range(8):
        assert sins.post("stone", {"player": ids["Cy"], "delta": 1}, page="play").status_code == 200
    assert "0 stones left in the supply" in text_of(sins.page("play"))
    resp = sins.post("stone", {"player": ids["Bo"], "delta": 1}, page="play", form_key=f"sins-stone-{ids['Bo']}")
    assert resp.status_code == 422 and "No Stones of Forgiveness are left in the supply." in errors_in(resp)
    resp = sins.post("stone", {"player": ids["Bo"], "delta": -1}, page="play", form_key=f"sins-stone-{ids['Bo']}")
    assert resp.status_code == 422
    assert sins.post("stone", {"player": ids["Cy"], "delta": -1}, page="play").status_code == 200
    assert sins.gs["stones"] == {str(ids["Cy"]): 7}


# -- scoring ---------------------------------------------------------------------------------------

def score_the_rulebook_table(sins):
    sins.ready()
    sins.post("stone", {"player": sins.ids()["Margherita"], "delta": 1}, page="play")
    assert sins.post("abyss", {"invidia": 6, "gula": 2, "acedia": 1, "ira": 1}, page="score").status_code == 200
    assert sins.reserve("Margherita", MARGHERITA, stones=2).status_code == 200
    assert sins.reserve("Bo", {"superbia": 3, "gula": 2}, stones=1).status_code == 200
    assert sins.reserve("Cy", {"superbia": 2, "luxuria": 2, "ira": 3}).status_code == 200
    assert sins.reserve("Di", {"superbia": 1, "luxuria": 1, "ira": 1, "acedia": 1}).status_code == 200


def test_a_four_player_table_is_scored_overridden_undone_and_finished(sins):
    score_the_rulebook_table(sins)
    page = text_of(sins.page("score"))
    assert "The Abyss scores −1: 7 or less, so the fewest points win." in page
    assert "Best placement when the fewest points win: Luxuria, Acedia." in page
    assert "Winner: Margherita Decided on points: 0." in page
    margherita = sins.ids()["Margherita"]

    resp = sins.post("stones", {"player": margherita, "stones_on": ["invidia", "ira"]}, page="score")
    assert resp.status_code == 200
    page = text_of(resp)
    assert "Stones placed by the player on: Invidia, Ira." in page
    assert "The best placement (Luxuria, Acedia) would give 0." in page
    assert re.search(r"Margherita 14 points", page)
    assert "Winner: Bo Decided on points: 2." in page

    assert sins.tables.undo(sins.token, page="score").status_code == 200
    assert "stones_on" not in sins.gs["score"] or str(margherita) not in sins.gs["score"]["stones_on"]
    assert re.search(r"Margherita 0 points", text_of(sins.page("score")))

    resp = sins.post("stones", {"player": margherita, "stones_on": ["invidia", "ira"]}, page="score")
    assert sins.post("stones/best", {"player": margherita}, page="score").status_code == 200
    assert str(margherita) not in sins.gs["score"]["stones_on"]

    assert sins.post("finish", page="score").status_code == 200
    doc = sins.doc
    assert doc.status == "finished"
    ranked = [(s["name"], s["points"]) for s in doc.result["scores"]]
    assert ranked == [("Margherita", 0), ("Bo", 2), ("Di", 4), ("Cy", 12)]
    assert doc.result["winners"] == ["Margherita"]
    home = text_of(sins.tables.client.get("/"))
    assert "Winner: Margherita" in home and "Margherita 0, Bo 2, Di 4, Cy 12" in home
    assert "Result" in text_of(sins.page("score"))


def test_a_correction_after_the_finish_updates_the_recorded_result(sins):
    score_the_rulebook_table(sins)
    assert sins.post("finish", page="score").status_code == 200
    assert sins.reserve("Cy", {"superbia": 1}).status_code == 200
    assert sins.doc.result["winners"] == ["Margherita"]
    points = {s["name"]: s["points"] for s in sins.doc.result["scores"]}
    assert points["Cy"] == 1


def test_finishing_before_everyone_is_counted_says_who_is_missing(sins):
    sins.ready()
    sins.reserve("Bo", {"ira": 2})
    resp = sins.post("finish", page="score", form_key="sins-finish")
    assert resp.status_code == 422
    assert "Still to enter: Margherita, Cy, Di." in errors_in(resp)
    assert sins.doc.status == "playing"


@pytest.mark.parametrize("counts, stones, field_message", [
    pytest.param({"ira": "-1"}, 0, "A count cannot be negative.", id="negative"),
    pytest.param({"ira": "2.5"}, 0, "Enter a whole number.", id="not-whole"),
    pytest.param({"ira": "three"}, 0, "Enter a whole number.", id="words"),
    pytest.param({"ira": "12"}, 0, "There are only 11 cards of each sin type.", id="over-eleven"),
    pytest.param({"ira": "99999999999"}, 0, "Enter a whole number.", id="huge"),
    pytest.param({"ira": "2"}, "9", "Only 8 Stones of Forgiveness are in play.", id="stones-over-supply"),
    pytest.param({"ira": "2"}, "-1", "A count cannot be negative.", id="negative-stones"),
])
def test_bad_counts_are_answered_next_to_their_box_and_kept_as_typed(sins, counts, stones, field_message):
    sins.ready()
    resp = sins.reserve("Bo", counts, stones=stones)
    assert resp.status_code == 422
    assert field_message in errors_in(resp)
    html = resp.get_data(as_text=True)
    bo = sins.ids()["Bo"]
    typed = counts["ira"] if field_message != "Only 8 Stones of Forgiveness are in play." else stones
    name = "ira" if typed == counts["ira"] else "stones"
    assert re.search(rf'id="sins-reserve-{bo}-{name}"[^>]*value="{re.escape(str(typed))}"', html), "the typed value is kept"
    assert 'aria-invalid="true"' in html
    assert str(bo) not in sins.gs["score"]["reserves"]


def test_more_than_eleven_cards_of_a_type_across_the_table_is_refused(sins):
    sins.ready()
    assert sins.post("abyss", {"ira": 6}, page="score").status_code == 200
    assert sins.reserve("Bo", {"ira": 4}).status_code == 200
    resp = sins.reserve("Cy", {"ira": 2})
    assert resp.status_code == 422
    assert "There are only 11 Ira cards, but the reserves and the Abyss add up to 12." in errors_in(resp)
    resp = sins.post("abyss", {"ira": 8}, page="score", form_key="sins-abyss-form")
    assert resp.status_code == 422


def test_stones_held_across_players_cannot_pass_the_supply(sins):
    sins.ready()
    assert sins.reserve("Bo", {"ira": 2}, stones=5).status_code == 200
    resp = sins.reserve("Cy", {"gula": 2}, stones=4)
    assert resp.status_code == 422
    assert any("this player can hold at most 3" in e for e in errors_in(resp))


def test_counts_of_a_type_not_in_play_are_ignored_and_unknown_fields_harmless(sins):
    sins.ready(sins=["superbia", "luxuria", "invidia", "ira", "acedia", "gula"])
    assert sins.reserve("Bo", {"avaritia": 3, "ira": 1}).status_code == 200
    assert sins.gs["score"]["reserves"][str(sins.ids()["Bo"])] == {"ira": 1}


@pytest.mark.parametrize("stones_on, message", [
    pytest.param(["ira", "ira"], "Put at most one stone on each sin type.", id="twice"),
    pytest.param(["gula", "ira"], "Gula: a stone can only go on a type the player holds cards of.", id="not-held"),
    pytest.param(["ira"], "Place 2 stones: every stone must go on a type held while one can.", id="too-few"),
    pytest.param(["ira", "acedia", "luxuria"], "That is more types than stones: 2 stones to place.", id="too-many"),
    pytest.param(["pride", "ira"], "pride is not a sin type.", id="unknown"),
])
def test_an_illegal_override_is_explained_and_nothing_changes(sins, stones_on, message):
    score_the_rulebook_table(sins)
    margherita = sins.ids()["Margherita"]
    resp = sins.post("stones", {"player": margherita, "stones_on": stones_on}, page="score",
                     form_key=f"sins-stones-{margherita}")
    assert resp.status_code == 422
    assert message in errors_in(resp)
    assert str(margherita) not in sins.gs["score"]["stones_on"]


def test_an_override_is_dropped_when_the_reserve_no_longer_allows_it(sins):
    score_the_rulebook_table(sins)
    margherita = sins.ids()["Margherita"]
    sins.post("stones", {"player": margherita, "stones_on": ["invidia", "ira"]}, page="score")
    assert sins.reserve("Margherita", {"invidia": 2, "acedia": 4, "luxuria": 3}, stones=2).status_code == 200
    assert str(margherita) not in sins.gs["score"]["stones_on"]


def test_the_quick_path_ranks_totals_with_the_tie_breaks(sins):
    sins.ready()
    assert sins.post("mode", {"mode": "quick"}, page="score").status_code == 200
    ids = sins.ids()
    for name, (points, cards, types) in {"Margherita": (5, 9, 4), "Bo": (5, 10, 3), "Cy": (9, 6, 3), "Di": (12, 8, 5)}.items():
        resp = sins.post("quick", {"player": ids[name], "points": points, "cards": cards, "types": types}, page="score")
        assert resp.status_code == 200
    page = text_of(sins.page("score"))
    assert "Count the Abyss of Souls, or say whether the most or the fewest points win." in page
    assert sins.post("direction", {"on": 0}, page="score").status_code == 200
    page = text_of(sins.page("score"))
    # The result leads with what decided it: points first, then the rulebook's tie-break (issue 28).
    assert "Winner: Bo Tied on points (5) with Margherita: the most cards decide, 10 to 9." in page
    assert "Our reading: only real cards count in this tiebreak, not the Stones." in page
    assert sins.post("abyss/total", {"points": 10}, page="score").status_code == 200
    assert "Winner: Di" in text_of(sins.page("score"))
    assert sins.post("finish", page="score").status_code == 200
    assert sins.doc.result["winners"] == ["Di"]
    assert sins.doc.result["scores"][0] == {"name": "Di", "points": 12}


@pytest.mark.parametrize("lang, card, share", [
    pytest.param("en", "Winner: Bo Tied on points (5) with Margherita: the most cards decide, 10 to 9. "
                 "Our reading: only real cards count in this tiebreak, not the Stones.",
                 "Bo wins: tied on points (5), the most cards decide (10 to 9) (fewest points win)", id="en"),
    pytest.param("fr", "Gagnant : Bo Égalité de points (5) avec Margherita : le plus de cartes départage, 10 contre 9. "
                 "Notre lecture : seules les vraies cartes comptent pour ce départage, pas les Pierres.",
                 "Bo gagne : égalité de points (5), le plus de cartes départage (10 contre 9) (le moins de points "
                 "gagne)", id="fr"),
])
def test_a_finished_tie_leads_with_points_then_the_tie_break(sins, lang, card, share):
    """Issue 28: after a tie on points, the result card and the group-chat text say the cards decided."""
    sins.ready()
    sins.post("mode", {"mode": "quick"}, page="score")
    ids = sins.ids()
    for name, (points, cards, types) in {"Margherita": (5, 9, 4), "Bo": (5, 10, 3), "Cy": (9, 6, 3), "Di": (12, 8, 5)}.items():
        sins.post("quick", {"player": ids[name], "points": points, "cards": cards, "types": types}, page="score")
    sins.post("direction", {"on": 0}, page="score")
    assert sins.post("finish", page="score").status_code == 200
    if lang == "fr":
        sins.tables.client.set_cookie("lang", "fr", domain="companion.test")
    resp = sins.page("score")
    page = " ".join(text_of(resp).split())
    assert card in page
    found = re.search(r'<textarea id="share-text"[^>]*>([^<]*)</textarea>', resp.get_data(as_text=True))
    assert found and share in " ".join(html.unescape(found.group(1)).split())


@pytest.mark.parametrize("data, field, message", [
    pytest.param({"points": "71", "cards": 3, "types": 1}, "points", "Must be at most 70.", id="points-too-high"),
    pytest.param({"points": "x", "cards": 3, "types": 1}, "points", "Enter a whole number.", id="points-not-a-number"),
    pytest.param({"points": 3, "cards": 2, "types": 3}, "types", "A reserve cannot hold more types than cards.", id="types-over-cards"),
    pytest.param({"points": 3, "cards": 2, "types": 0}, "types", "A reserve with cards holds at least one type.", id="no-types"),
    pytest.param({"points": 3, "cards": 9, "types": 7}, "types", "Only 6 sin types are in play.", id="types-over-in-play"),
])
def test_bad_quick_totals_are_answered_next_to_their_box(sins, data, field, message):
    sins.ready()
    sins.post("mode", {"mode": "quick"}, page="score")
    bo = sins.ids()["Bo"]
    resp = sins.post("quick", {"player": bo, **data}, page="score", form_key=f"sins-quick-{bo}")
    assert resp.status_code == 422
    assert message in errors_in(resp)
    assert f'id="sins-quick-{bo}-{field}-err"' in resp.get_data(as_text=True)


def test_bad_mode_and_abyss_total_are_refused(sins):
    sins.ready()
    assert sins.post("mode", {"mode": "fast"}, page="score", form_key="sins-mode-quick").status_code == 422
    resp = sins.post("abyss/total", {"points": "-50"}, page="score", form_key="sins-abyss-total")
    assert resp.status_code == 422 and "Must be at least -42." in errors_in(resp)


# -- no JavaScript, view-only links, two phones ----------------------------------------------------

def test_without_javascript_every_action_answers_with_a_redirect(sins):
    resp = sins.post("sins", {"sin": SIX}, htmx=False, form_key="sins-choose")
    assert resp.status_code == 303 and resp.headers["Location"].endswith("/setup#sins-choose")
    resp = sins.post("sins", {"sin": ["ira"]}, htmx=False, form_key="sins-choose")
    assert resp.status_code == 422 and "<html" in resp.get_data(as_text=True)


def test_a_view_only_link_shows_the_score_but_cannot_change_it(sins):
    score_the_rulebook_table(sins)
    view = sins.doc.view_token
    resp = sins.tables.client.get(f"/t/{view}/score")
    html = resp.get_data(as_text=True)
    assert resp.status_code == 200 and "Winner: Margherita" in text_of(resp)
    assert "<form" not in html.split('id="live"')[1].split("Recent changes")[0]
    resp = sins.tables.client.post(f"/t/{view}/sins/finish", data={"v": sins.doc.version})
    assert resp.status_code == 403
    for slug in ("setup", "play"):
        resp = sins.tables.client.get(f"/t/{view}/{slug}")
        live = resp.get_data(as_text=True).split('id="live"')[1].split("Recent changes")[0]
        assert resp.status_code == 200 and "<form" not in live


def test_two_phones_saving_the_same_reserve_do_not_overwrite_each_other(sins):
    sins.ready()
    seen = sins.doc.version
    assert sins.reserve("Bo", {"ira": 2}, version=seen).status_code == 200
    resp = sins.reserve("Bo", {"ira": 5}, version=seen)
    assert resp.status_code == 409
    assert sins.gs["score"]["reserves"][str(sins.ids()["Bo"])] == {"ira": 2}
    # Another player's reserve, saved from the same stale view, is independent and lands.
    assert sins.reserve("Cy", {"gula": 1}, version=seen).status_code == 200


def test_stones_taken_on_two_phones_add_up(sins):
    sins.ready()
    seen = sins.doc.version
    bo = sins.ids()["Bo"]
    for _ in range(2):
        assert sins.post("stone", {"player": bo, "delta": 1}, page="play", version=seen).status_code == 200
    assert sins.gs["stones"][str(bo)] == 2


# -- French ----------------------------------------------------------------------------------------

def test_the_french_screens_use_the_french_rulebook_names(sins):
    score_the_rulebook_table(sins)
    french = {"Accept-Language": "fr"}
    page = text_of(sins.page("score", headers=french))
    assert "Abysse des Âmes" in page and "Pierres de Pardon" in page
    assert "Luxure, Paresse" in page and "Orgueil" in page
    assert "le moins de points" in page
    setup = text_of(sins.page("setup", headers=french))
    assert "Jugement Dernier" in setup and "Pénitence" in setup


@pytest.mark.parametrize("path, data, page, key", [
    pytest.param("penitenziagite", {"on": 5}, "setup", "sins-pen", id="toggle-out-of-range"),
    pytest.param("tick", {"step": "A", "done": "yes"}, "setup", "sins-step-A", id="tick-not-a-number"),
    pytest.param("first", {"player": "abc"}, "setup", "sins-first", id="first-player-not-a-number"),
    pytest.param("first", {"player": 99}, "setup", "sins-first", id="first-player-stranger"),
    pytest.param("judgment", {"delta": 5}, "play", "sins-judgment", id="judgment-jump"),
    pytest.param("stone", {"player": 1, "delta": 0}, "play", "sins-stone-1", id="stone-zero"),
    pytest.param("stone", {"player": 99, "delta": 1}, "play", "sins-stone-1", id="stone-stranger"),
    pytest.param("direction", {"on": "most"}, "score", None, id="direction-not-a-number"),
    pytest.param("reserve", {"player": 99, "ira": 1}, "score", "sins-reserve-1", id="reserve-stranger"),
    pytest.param("stones/best", {"player": "x"}, "score", "sins-reserve-1", id="best-not-a-number"),
    # Forms that are not on the page any more (a stale phone): refused, and the fresh page shown.
    pytest.param("third", {"player": 1}, "play", None, id="third-before-it-is-out"),
    pytest.param("quick", {"player": 99, "points": 1}, "score", None, id="quick-stranger"),
    pytest.param("stones", {"player": 99, "stones_on": ["ira"]}, "score", None, id="placement-stranger"),
])
def test_every_action_answers_nonsense_with_a_message_not_a_500(sins, path, data, page, key):
    sins.ready()
    resp = sins.post(path, data, page=page, form_key=key)
    assert resp.status_code == 422
    if key:
        assert errors_in(resp), resp.get_data(as_text=True)[:2000]
    assert sins.doc.version == 2  # nothing changed


def test_a_stale_or_hand_made_form_says_so(sins):
    resp = sins.tables.client.post(f"/t/{sins.token}/sins/penitenziagite", data={"on": 1, "form_key": "sins-pen",
                                                                                    "page": "setup"}, headers=HX)
    assert resp.status_code == 422
    assert "This form was out of date or incomplete: reload the page and try again." in errors_in(resp)
