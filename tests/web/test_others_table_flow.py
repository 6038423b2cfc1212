"""The Others: 7 Sins through the test client, for what a table got wrong in play (issue 18): two deaths
with one hero in the reserve, a double reaction, a reaction after a death in the hero's own turn, changing
one's mind about Voluntary Corruption, the Dark Past reminder, and the round page's turn guidance."""
from __future__ import annotations

from tests.conftest import HX, text_of
from tests.web.test_others_web import gs, hero, lineup, ok, playing, post, refused, team_data, token  # noqa: F401


def kill(tables, token, hid):
    for _ in range(5):
        if hero(tables, token, hid)["status"] != "play":
            return
        slot = next(s for s in range(1, 8) if s not in hero(tables, token, hid)["wounds"])
        ok(post(tables, token, "wound", {"hero": hid, "slot": slot}))


def replace(tables, token, dead):
    new = next(h["id"] for h in gs(tables, token)["heroes"] if h["status"] == "reserve")
    ok(post(tables, token, "replace", {"dead": dead, "replacement": new}))


# -- two deaths with one hero in the Reserve ------------------------------------------------------------

def test_two_deaths_with_one_hero_in_the_reserve_end_in_the_sins_win(client, tables, playing):
    for _ in range(2):
        dead = lineup(tables, playing)[0]
        kill(tables, playing, dead)
        replace(tables, playing, dead)
    rose, gail = lineup(tables, playing)[0], lineup(tables, playing)[1]
    kill(tables, playing, rose)
    assert tables.table(playing).status == "playing"
    kill(tables, playing, gail)
    table = tables.table(playing)
    assert table.status == "finished" and table.result["winners"] == ["Sam"]
    assert gs(tables, playing)["win_reason"] == "reserve"
    page = text_of(client.get(f"/t/{playing}/heroes"))
    assert "Sam, the Sins player, wins!" in page
    assert "nobody left there for them, the Sins player wins" in page  # the reading, stated
    assert "Bring in the replacement" not in page and "The newcomer starts" not in page
    # Undo takes the killing wound back: Rose still waits for Mi-Ja, Gail is alive again.
    ok(tables.undo(playing))
    assert tables.table(playing).status == "playing"
    assert hero(tables, playing, gail)["status"] == "play" and hero(tables, playing, rose)["status"] == "dead"


def test_the_table_declares_the_sins_player_the_winner_and_undoes_it(client, tables, playing):
    ok(post(tables, playing, "sins-win"))
    table = tables.table(playing)
    assert table.status == "finished" and gs(tables, playing)["winner"] == "sins"
    assert "The table declared the Sins player the winner" in text_of(client.get(f"/t/{playing}/round"))
    assert post(tables, playing, "sins-win", key="sins-win").status_code == 422
    ok(tables.undo(playing))
    assert tables.table(playing).status == "playing"
    ok(post(tables, playing, "win"))
    assert gs(tables, playing)["winner"] == "heroes"


# -- one reaction per finished hero turn ---------------------------------------------------------------

def test_a_double_reaction_is_refused_with_the_reason(client, tables, playing):
    rocco = lineup(tables, playing)[0]
    ok(post(tables, playing, "turn", {"hero": rocco, "value": 0}))
    ok(post(tables, playing, "reaction", {"delta": 1}, key="react"))
    refused(post(tables, playing, "reaction", {"delta": 1}, key="react"), "already reacted to this turn")
    assert gs(tables, playing)["reactions"]["spent"] == 1
    page = text_of(client.get(f"/t/{playing}/round"))
    assert "already reacted to this turn of" in page
    assert "One reaction per hero turn, only against the hero who just finished it" in page


def test_no_reaction_after_a_death_in_the_heros_own_turn(tables, playing):
    hid = lineup(tables, playing)[0]
    ok(post(tables, playing, "turn", {"hero": hid, "value": 0}))
    kill(tables, playing, hid)
    refused(post(tables, playing, "reaction", {"delta": 1}, key="react"), "killed during their own turn")
    assert gs(tables, playing)["reactions"]["spent"] == 0


def test_no_reaction_fragment_without_a_turn(tables, playing):
    resp = post(tables, playing, "reaction", {"delta": 1}, key="react")
    refused(resp, "No hero has finished a turn yet")
    assert 'id="react"' not in resp.get_data(as_text=True) or "No hero has finished" in resp.get_data(as_text=True)


# -- Voluntary Corruption, cancelled --------------------------------------------------------------------

def test_changing_your_mind_gives_back_the_innocents(client, tables, playing):
    hid = lineup(tables, playing)[0]
    for _ in range(5):
        ok(post(tables, playing, "forced", {"hero": hid}))
    for _ in range(2):
        ok(post(tables, playing, "innocents", {"hero": hid, "delta": 1}))
    ok(post(tables, playing, "voluntary", {"hero": hid}))
    h = hero(tables, playing, hid)
    assert (h["corruption"], h["innocents"]) == (7, 0) and gs(tables, playing)["alerts"]
    ok(post(tables, playing, "voluntary/cancel", {"hero": hid}))
    h = hero(tables, playing, hid)
    assert (h["corruption"], h["innocents"], h["pending"]) == (6, 2, None)
    assert gs(tables, playing)["alerts"] == []


# -- the Dark Past reminder -----------------------------------------------------------------------------

def test_the_dark_past_reminder_shows_once_and_its_button_reveals(client, tables, playing):
    hid, other = lineup(tables, playing)[0], lineup(tables, playing)[1]
    for _ in range(6):
        ok(post(tables, playing, "forced", {"hero": hid}))
    for _ in range(2):
        ok(post(tables, playing, "turn", {"hero": hid, "value": 0}))
        ok(post(tables, playing, "turn", {"hero": other, "value": 0}))
    ok(post(tables, playing, "round/end"))
    page = client.get(f"/t/{playing}/round").get_data(as_text=True)
    assert page.count("ended a turn at Corruption 7") == 1
    assert "Dark Past revealed" in page
    ok(post(tables, playing, "dark-past", {"hero": hid}, key="alert-1"))
    assert "ended a turn at Corruption 7" not in text_of(client.get(f"/t/{playing}/round"))
    assert hero(tables, playing, hid)["dark_past"] == "revealed"


# -- turn guidance and a hero in one screen -------------------------------------------------------------

def test_the_round_page_names_the_next_hero(client, tables, playing):
    order = lineup(tables, playing)
    name = lambda hid: hero(tables, playing, hid)["name"] or None  # noqa: E731
    page = client.get(f"/t/{playing}/round").get_data(as_text=True)
    assert 'id="turn-next"' in page and f'name="hero" value="{order[0]}"' in page.split('id="turn-next"')[1][:1500]
    ok(post(tables, playing, "turn", {"hero": order[0], "value": 0}, key="turn-next"))
    page = client.get(f"/t/{playing}/round").get_data(as_text=True)
    assert f'name="hero" value="{order[1]}"' in page.split('id="turn-next"')[1][:1500]
    assert "Out of order, Extra Turns, corrections" in page
    assert "A1, A2, B1, B2" in text_of(client.get(f"/t/{playing}/round"))
    assert name(order[0]) is None  # the default team has no names: the class stands in


def test_every_turn_spent_says_the_round_ends(client, tables, playing):
    for hid in lineup(tables, playing) * 2:
        ok(post(tables, playing, "turn", {"hero": hid, "value": 0}))
    page = text_of(client.get(f"/t/{playing}/round"))
    assert "Every Turn token is spent." in page and "Take this turn" not in page
    assert "Marked tokens off the Acolyte board" in page


def test_the_end_of_round_raises_the_apocalypse_in_place(client, tables, playing):
    ok(post(tables, playing, "apocalypse", {"delta": 1}, key="apo-round", page="round"))
    assert gs(tables, playing)["apocalypse"]["level"] == 1
    assert 'id="apo-round"' in client.get(f"/t/{playing}/round").get_data(as_text=True)


def test_a_heros_dashboard_alone(client, tables, playing):
    hid, other = lineup(tables, playing)[0], lineup(tables, playing)[1]
    html = client.get(f"/t/{playing}/heroes?hero={hid}").get_data(as_text=True)
    assert f'id="hero-{hid}"' in html and f'id="hero-{other}"' not in html
    assert "Wound on slot 1" in html and "All heroes" in html
    # The strip links every hero in play to their dashboard.
    assert f"heroes?hero={other}" in client.get(f"/t/{playing}/round").get_data(as_text=True)
    # An action taken from the dashboard re-renders the same dashboard (htmx names the page it came from).
    resp = client.post(f"/t/{playing}/others/wound",
                       data={"v": tables.version(playing), "page": "heroes", "form_key": f"h{hid}-wound",
                             "hero": hid, "slot": 1},
                       headers={**HX, "HX-Current-URL": f"http://localhost/t/{playing}/heroes?hero={hid}"})
    html = ok(resp).get_data(as_text=True)
    assert f'id="hero-{hid}"' in html and f'id="hero-{other}"' not in html
    assert "Heal slot 1" in html and "Take a wound" in html  # slot 1 is taken: now the player chooses
    # A hero who is not in play, or junk, shows every dashboard.
    for junk in ("99", "x", "-1", ""):
        html = client.get(f"/t/{playing}/heroes?hero={junk}").get_data(as_text=True)
        assert f'id="hero-{hid}"' in html and f'id="hero-{other}"' in html


def test_a_chosen_slot_is_kept_after_a_refusal(tables, playing):
    hid = lineup(tables, playing)[0]
    ok(post(tables, playing, "wound", {"hero": hid, "slot": 1}))
    resp = post(tables, playing, "wound", {"hero": hid, "slot": 1}, key=f"h{hid}-wound")
    assert resp.status_code == 422


def test_the_setup_log_names_the_step(client, tables, token):
    ok(post(tables, token, "setup/tick", {"step": "map", "done": 1}))
    assert "Setup step done: Map built from the back of the story board" in text_of(client.get(f"/t/{token}/setup"))
    assert post(tables, token, "setup/tick", {"step": "nope", "done": 1}).status_code == 422


def test_a_ranged_fight_opens_and_junk_kinds_are_refused(client, tables, playing):
    hid = lineup(tables, playing)[0]
    ok(post(tables, playing, "fight/start", {"hero": hid, "kind": "ranged"}))
    assert gs(tables, playing)["fight"]["kind"] == "ranged"
    page = text_of(client.get(f"/t/{playing}/fight"))
    assert "Ranged Fight" in page and "No Acolyte ability" in page
    ok(post(tables, playing, "fight/close"))
    assert post(tables, playing, "fight/start", {"hero": hid, "kind": "sniping"}).status_code == 422


def test_after_an_action_the_page_keeps_polling_the_same_dashboard(tables, playing):
    hid = lineup(tables, playing)[0]
    resp = tables.client.post(f"/t/{playing}/others/forced",
                              data={"v": tables.version(playing), "page": "heroes", "hero": hid},
                              headers={**HX, "HX-Current-URL": f"http://localhost/t/{playing}/heroes?hero={hid}"})
    assert f"heroes?hero={hid}&amp;since=" in ok(resp).get_data(as_text=True)


def test_a_refusal_names_an_unnamed_hero_in_words_never_raw_data(client, tables, token):
    """Spend a Reaction Token (p. 16): one reaction per hero turn. With heroes left unnamed, the refusal
    names the hero by its class ("Sniper 1"), in English and in French, never as stored data."""
    ok(post(tables, token, "story", {"story": "Haven's Last Stand", "story_type": "corruption", "map": ""}))
    ok(post(tables, token, "team", team_data(controller_2=2, controller_3=2, controller_4=3, controller_5=3),
            key="team"))
    ok(post(tables, token, "start"))
    first = lineup(tables, token)[0]
    ok(post(tables, token, "turn", {"hero": first, "value": 0}))
    ok(post(tables, token, "reaction", {"delta": 1}, key="react"))
    msgs = refused(post(tables, token, "reaction", {"delta": 1}, key="react"), "already reacted to this turn of")
    assert "{" not in msgs and "%(" not in msgs and "msg" not in msgs, msgs
    client.set_cookie("lang", "fr")
    resp = post(tables, token, "reaction", {"delta": 1}, key="react")
    assert resp.status_code == 422 and "{'msg'" not in resp.get_data(as_text=True)
