"""A Leader duel at the table in few taps (issue 28): "Ana's Leader" chips link a side to a player's
Leader in one tap (its name and Resolve from the tracker when left blank), every number is a chip that
works without JavaScript (the hidden `.was`), the Day page's "challenge by" chips preset the challenger,
and the round that ends the duel finishes it (p. 26 "Ending a Duel": nothing is left to decide)."""
from __future__ import annotations

import re

import pytest

from companion.games.fivesails import rules
from tests.web.test_fivesails_pages import advance_to, gs, started, text_of

PAGE = {"page": "duel", "form_key": "duel-setup"}


@pytest.fixture
def two(tables):
    """A 2-player table at High Drama of Day 1."""
    token = started(tables, tables.create("fivesails", names=("Ana", "Bo")))
    advance_to(tables, token, rules.HIGH_DRAMA)
    return token


def chips(**fields) -> dict:
    """A set-up as the page sends it with JavaScript: each number box and its chip agree."""
    out = {"challenger.leader_of": "1", "defender.leader_of": "2", "challenger.name": "", "defender.name": "",
           "technique_thrust": "0", "answer": "accept", "intervener.leader_of": ""}
    for side in ("challenger", "defender"):
        out.update({f"{side}.wounds": "0", f"{side}.finesse": "2"})
    out.update(fields)
    return out


def start(tables, token, data, **kw):
    return tables.post(token, "fivesails/duel/start", data, page="duel", form_key="duel-setup", **kw)


def play(tables, token, data, **kw):
    return tables.post(token, "fivesails/duel/round", {"finish": "1", **data}, page="duel", form_key="duel-round", **kw)


def test_the_day_offers_a_challenge_by_each_player_and_presets_that_players_leader(client, two):
    day = client.get(f"/t/{two}/day").get_data(as_text=True)
    assert f'href="/t/{two}/duel?by=1"' in day and f'href="/t/{two}/duel?by=2"' in day
    page = client.get(f"/t/{two}/duel?by=2").get_data(as_text=True)
    checked = re.findall(r'<input type="radio" name="challenger\.leader_of" value="(\d*)"[^>]*checked', page)
    assert checked == ["2"]
    # Without the preset, the challenger is "another character": never a Leader by surprise.
    page = client.get(f"/t/{two}/duel").get_data(as_text=True)
    assert re.findall(r'<input type="radio" name="challenger\.leader_of" value="(\d*)"[^>]*checked', page) == [""]
    assert "Ana's Leader" in page and "Bo's Leader" in page and "Another character" in page


def test_a_leader_chip_names_the_side_and_takes_resolve_from_the_tracker(tables, two):
    """Bo's tracker knows Resolve 5: a blank Resolve box takes it; blank names become "Ana's Leader"."""
    assert tables.post(two, "fivesails/resolve", {"player": 2, "resolve": 5}, page="players").status_code == 200
    resp = start(tables, two, chips(**{"challenger.duel_stat": "3", "challenger.resolve": "6",
                                       "defender.duel_stat": "2", "defender.resolve": ""}))
    assert resp.status_code == 200, text_of(resp)[:400]
    duel = gs(tables, two)["duel"]
    assert duel["setup"]["challenger"]["name"] == "Ana's Leader" and duel["setup"]["defender"]["name"] == "Bo's Leader"
    assert duel["setup"]["defender"]["resolve"] == 5 and duel["setup"]["challenger"]["resolve"] == 6
    assert duel["sides"] == {"challenger": {"player": "1", "leader": True}, "defender": {"player": "2", "leader": True}}
    assert "Duel: Ana's Leader vs Bo's Leader" in text_of(resp)


def test_without_javascript_a_tapped_chip_wins_over_the_untouched_blank_box(tables, two):
    """No JavaScript: the Duel stat box stays blank (as drawn) while its chip 3 is tapped; the chip counts."""
    data = chips(**{"challenger.resolve": "6", "defender.duel_stat": "2", "defender.resolve": "5"})
    data["challenger.duel_stat"] = ["", "3"]  # the box first, then the tapped chip
    data["challenger.duel_stat.was"] = ""
    assert start(tables, two, data).status_code == 200
    assert gs(tables, two)["duel"]["setup"]["challenger"]["duel_stat"] == 3


def test_a_blank_resolve_is_refused_next_to_its_box_and_nothing_typed_is_lost(tables, two):
    data = chips(**{"challenger.duel_stat": "3", "challenger.resolve": "", "challenger.resolve.was": "",
                    "challenger.name": "Kaspar", "defender.duel_stat": "2", "defender.resolve": "5"})
    resp = start(tables, two, data)
    assert resp.status_code == 422
    body = resp.get_data(as_text=True)
    assert re.search(r'id="duel-setup-challenger\.resolve-err">Enter a number\.<', body)
    assert 'value="Kaspar"' in body and gs(tables, two)["duel"] is None
    # The chip the player had tapped for the defender stays lit.
    assert re.search(r'name="defender\.leader_of" value="2"[^>]*checked', body)


def test_a_destroyed_leader_has_no_chip_and_cannot_be_sent(client, tables):
    three = started(tables, tables.create("fivesails", names=("Ana", "Bo", "Cy")))
    advance_to(tables, three, rules.HIGH_DRAMA)
    tables.post(three, "fivesails/leader", {"player": 2, "destroyed": 1}, page="players")
    page = client.get(f"/t/{three}/duel").get_data(as_text=True)
    assert 'name="defender.leader_of" value="2"' not in page and 'name="defender.leader_of" value="3"' in page
    resp = start(tables, three, chips(**{"challenger.duel_stat": "3", "challenger.resolve": "6",
                                         "defender.duel_stat": "2", "defender.resolve": "5"}))
    assert resp.status_code == 422
    assert re.search(r'id="duel-setup-defender-who-err">Bo&#39;s Leader is destroyed: it cannot duel\.',
                     resp.get_data(as_text=True))


def test_the_round_that_ends_the_duel_finishes_it_and_undo_takes_it_back(tables, two):
    assert start(tables, two, chips(**{"challenger.duel_stat": "3", "challenger.resolve": "6",
                                       "defender.duel_stat": "2", "defender.resolve": "5"})).status_code == 200
    resp = play(tables, two, {"riposte": "1", "parry": "1", "thrust": "2", "play": "card"})
    assert resp.status_code == 200 and len(gs(tables, two)["duel"]["rounds"]) == 1  # not over: still open
    resp = play(tables, two, {"play": "none"})
    assert resp.status_code == 200
    g = gs(tables, two)
    assert g["duel"] is None and len(g["last_duel"]["rounds"]) == 2
    assert g["players"]["1"]["leader_wounds"] == 2 and g["players"]["2"]["leader_wounds"] == 1
    text = text_of(resp)
    assert "Duel over: Ana's Leader vs Bo's Leader" in text and "Take back the last round" in text
    assert "Ana's Leader takes 2 wounds, capped at 2 by Restricted Hostilities" in text
    assert "Duel round 2: Ana's Leader plays no card. Duel over: Ana's Leader 2/6, Bo's Leader 1/5" in text
    # The one tap that played and finished is one change: Undo reopens the duel before that round.
    assert tables.undo(two, page="duel").status_code == 200
    g = gs(tables, two)
    assert len(g["duel"]["rounds"]) == 1 and g["players"]["1"]["leader_wounds"] == 0
    # A new duel forgets the last one.
    play(tables, two, {"play": "none"})
    start(tables, two, chips(**{"challenger.duel_stat": "1", "challenger.resolve": "6",
                                "defender.duel_stat": "1", "defender.resolve": "5"}))
    assert "last_duel" not in gs(tables, two)


def test_without_htmx_the_finishing_round_answers_with_a_redirect_to_the_duel_page(client, tables, two):
    start(tables, two, chips(**{"challenger.duel_stat": "3", "challenger.resolve": "6",
                                "defender.duel_stat": "2", "defender.resolve": "5"}))
    play(tables, two, {"riposte": "1", "parry": "1", "thrust": "2", "play": "card"})
    resp = play(tables, two, {"play": "none"}, htmx=False)
    assert resp.status_code == 303 and resp.headers["Location"].split("#")[0].endswith(f"/t/{two}/duel")
    assert "Duel over: Ana's Leader vs Bo's Leader" in text_of(client.get(f"/t/{two}/duel"))


def test_a_cleared_card_box_is_refused_not_read_as_zero(tables, two):
    start(tables, two, chips(**{"challenger.duel_stat": "3", "challenger.resolve": "6",
                                "defender.duel_stat": "2", "defender.resolve": "5"}))
    resp = play(tables, two, {"riposte": ["", "0"], "riposte.was": "0", "parry": "1", "thrust": "2", "play": "card"})
    assert resp.status_code == 422
    assert re.search(r'id="duel-round-riposte-err">[^<]*number', resp.get_data(as_text=True))
    assert gs(tables, two)["duel"]["rounds"] == []


@pytest.mark.parametrize("names", [("Ana", "Bo"), ("Ana", "Bo", "Cy")])
def test_the_round_whose_fall_decides_the_game_closes_the_duel(tables, names):
    """Bo's Leader falls in round 1 (3 wounds of Resolve 2: destroyed, p. 6). Only the acting side takes
    wounds (p. 25), so Ana is then the only player with a Leader in play and wins at once (p. 2, p. 17
    "Leader Cards"); with 3 players, once Cy's Leader is already gone. The game is over, so that tap
    closes the duel (issue 36): round 2, where Ana's Leader would take the 3 threat she was sent, is
    never offered, and the log names the fallen Leader destroyed."""
    token = started(tables, tables.create("fivesails", names=names))
    if len(names) == 3:
        tables.post(token, "fivesails/leader", {"player": 3, "destroyed": 1}, page="players")
    advance_to(tables, token, rules.HIGH_DRAMA)
    start(tables, token, chips(**{"challenger.duel_stat": "3", "challenger.resolve": "2",
                                  "defender.duel_stat": "3", "defender.resolve": "2"}))
    resp = play(tables, token, {"riposte": "0", "parry": "0", "thrust": "3", "play": "card"})
    assert resp.status_code == 200
    t = tables.table(token)
    assert t.status == "finished" and t.result["winners"] == ["Ana"] and t.result["victory"] == "assassination"
    g = t.state["game"]
    assert g["duel"] is None and len(g["last_duel"]["rounds"]) == 1
    assert g["players"]["2"]["leader_destroyed"] and not g["players"]["1"]["leader_destroyed"]
    text = text_of(resp)
    assert "The game is decided, so the duel closes: Ana's Leader 0/2, Bo's Leader 3/2, destroyed" in text
    assert "Assassination Victory for Ana" in text
    assert play(tables, token, {"play": "none"}).status_code == 422  # no round 2
