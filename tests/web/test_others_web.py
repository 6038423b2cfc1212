"""The Others: 7 Sins through the test client: every page (full and as the htmx fragment), every action,
and bad input answered with a message next to the field (422), never a 500."""
from __future__ import annotations

import re

import pytest

from tests.conftest import HX, text_of

PLAYERS = ("Sam", "Ana", "Bo")
PAGES = ("setup", "round", "heroes", "fight", "apocalypse")


def doc(tables, token):
    table = tables.table(token)
    return {"status": table.status, "state": table.state, "result": table.result}


def gs(tables, token):
    return tables.table(token).state["game"]


def hero(tables, token, hid):
    return next(h for h in gs(tables, token)["heroes"] if h["id"] == hid)


SETUP_ROUTES = {"roles", "sin", "story", "team", "setup/tick", "start"}
HERO_ROUTES = {"voluntary", "voluntary/cancel", "roll-done", "forced", "wound", "heal", "repent", "upgrades",
               "innocents", "npc", "dark-past", "replace", "stats"}


def page_of(path: str) -> str:
    """The page whose form sends this action, as the hidden "page" field of a real form says."""
    if path in SETUP_ROUTES:
        return "setup"
    if path in HERO_ROUTES:
        return "heroes"
    if path.startswith("fight"):
        return "fight"
    if path.startswith(("apocalypse", "track", "card", "hell-club")):
        return "apocalypse"
    return "round"


def post(tables, token, path, data=None, *, key=None, htmx=True, page=None):
    return tables.post(token, f"others/{path}", data, form_key=key, htmx=htmx, page=page or page_of(path))


def ok(resp):
    assert resp.status_code in (200, 303), resp.get_data(as_text=True)[:2000]
    return resp


def errors_of(resp) -> list[str]:
    html = resp.get_data(as_text=True)
    found = re.findall(r'class="error[^"]*"[^>]*>(.*?)</p>', html, re.S)
    # The shared "not saved" banner lists every message too (it is all a stale phone sees).
    for banner in re.findall(r'<div class="notice notice-error".*?</div>', html, re.S):
        found += re.findall(r"<li>(.*?)</li>", banner, re.S)
    return list(dict.fromkeys(re.sub(r"\s+", " ", m).strip() for m in found))


def refused(resp, fragment: str, status=422):
    assert resp.status_code == status, resp.status_code
    msgs = " | ".join(errors_of(resp))
    assert fragment in msgs, msgs
    return msgs


@pytest.fixture
def token(tables):
    return tables.create("others", PLAYERS)


@pytest.fixture
def playing(tables, token):
    """A 3-player Corruption story under way: Sam plays the Sin, Ana and Bo two heroes each."""
    ok(post(tables, token, "story", {"story": "Haven's Last Stand", "story_type": "corruption", "map": ""}))
    ok(post(tables, token, "start"))
    return token


def lineup(tables, token):
    return list(gs(tables, token)["lineup"])


# -- pages ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("page", PAGES)
def test_every_page_renders_in_setup_and_as_a_fragment(client, tables, token, page):
    full = client.get(f"/t/{token}/{page}")
    assert full.status_code == 200 and "<html" in full.get_data(as_text=True)
    frag = client.get(f"/t/{token}/{page}", headers=HX)
    body = frag.get_data(as_text=True)
    assert frag.status_code == 200 and "<html" not in body and 'id="live"' in body


@pytest.mark.parametrize("page", PAGES)
def test_every_page_renders_while_playing(client, tables, playing, page):
    assert client.get(f"/t/{playing}/{page}").status_code == 200
    assert client.get(f"/t/{playing}/{page}", headers=HX).status_code == 200


def test_the_table_opens_on_setup_then_on_the_round(client, tables, token):
    assert 'aria-current="page">Setup' in client.get(f"/t/{token}").get_data(as_text=True)
    ok(post(tables, token, "story", {"story": "S", "story_type": "terror", "map": ""}))
    ok(post(tables, token, "start"))
    assert 'aria-current="page">Round' in client.get(f"/t/{token}").get_data(as_text=True)


def test_view_only_link_shows_no_forms_and_refuses_actions(client, tables, playing):
    view = tables.table(playing).view_token
    for page in PAGES:
        html = client.get(f"/t/{view}/{page}").get_data(as_text=True)
        assert "<form method=\"post\" action=\"/t/" not in html.split('class="foot"')[0]
    resp = client.post(f"/t/{view}/others/turn", data={"v": 0, "hero": 1, "value": 0})
    assert resp.status_code == 403


def test_setup_shows_the_hero_number_and_the_dark_past_cards(client, tables, token):
    ok(post(tables, token, "story", {"story": "S", "story_type": "corruption", "map": ""}))
    text = text_of(client.get(f"/t/{token}/setup"))
    assert "2 hero players: 4 heroes in play, 2 each." in text
    assert "Cards 1, 3, 5, 6 to the starting heroes" in text
    assert "Sins player draws 4 Sin cards" in text


# -- setup ----------------------------------------------------------------------------------------

def test_roles_change_the_sins_player(tables, token):
    ok(post(tables, token, "roles", {"sins_player": 2}))
    g = gs(tables, token)
    assert g["sins_player"] == 2 and {h["controller"] for h in g["heroes"] if h["controller"]} == {1, 3}


@pytest.mark.parametrize("value", ["99", "x", ""])
def test_roles_refuse_a_stranger(tables, token, value):
    resp = post(tables, token, "roles", {"sins_player": value}, key="roles")
    assert resp.status_code == 422 and errors_of(resp)


def test_sin_typed_and_drawn_from_the_core_box(tables, token):
    ok(post(tables, token, "sin", {"sin": "Greed", "acolytes": "Cultists"}))
    assert (gs(tables, token)["sin"], gs(tables, token)["acolytes"]) == ("Greed", "Cultists")
    ok(post(tables, token, "sin", {"sin": "", "acolytes": "", "draw": "sin"}))
    assert gs(tables, token)["sin"] in ("Pride", "Sloth")
    ok(post(tables, token, "sin", {"draw": "acolytes"}))
    assert gs(tables, token)["acolytes"] in ("Corrupted Doctors", "Corrupted Hobos", "Corrupted Nuns")


def test_sin_name_too_long_is_kept_as_typed(tables, token):
    resp = post(tables, token, "sin", {"sin": "S" * 31, "acolytes": "Nuns"}, key="sin")
    refused(resp, "30 characters")
    assert 'value="Nuns"' in resp.get_data(as_text=True)


def test_story_needs_a_name_and_a_type(tables, token):
    resp = post(tables, token, "story", {"story": "", "story_type": "comedy", "map": "B"}, key="story")
    assert resp.status_code == 422 and len(errors_of(resp)) == 2
    assert 'value="B"' in resp.get_data(as_text=True)


def team_data(**overrides):
    data = {f"name_{h}": "" for h in range(1, 8)}
    data.update({f"controller_{h}": 0 for h in range(1, 8)})
    data.update(overrides)
    return data


def test_team_saved_with_names_and_controllers(tables, token):
    ok(post(tables, token, "team", team_data(name_1="Karl", controller_1=2, controller_3=2, name_5="Thorley",
                                             controller_5=3, controller_7=3)))
    g = gs(tables, token)
    assert g["lineup"] == [1, 3, 5, 7] and hero(tables, token, 5)["name"] == "Thorley"


def test_team_with_the_wrong_count_keeps_what_was_typed(tables, token):
    resp = post(tables, token, "team", team_data(name_2="Rocco", controller_1=2), key="team")
    refused(resp, "exactly 4 heroes start in play")
    assert 'value="Rocco"' in resp.get_data(as_text=True)


def test_team_controller_must_be_a_hero_player(tables, token):
    resp = post(tables, token, "team", team_data(controller_1=1, controller_2=2, controller_3=3,
                                                 controller_4=2), key="team")
    refused(resp, "Only a hero player")


def test_team_name_too_long(tables, token):
    refused(post(tables, token, "team", team_data(name_3="x" * 31, controller_1=2, controller_2=2,
                                                  controller_4=3, controller_6=3), key="team"), "30 characters")


def test_setup_ticks(tables, token):
    ok(post(tables, token, "setup/tick", {"step": "map", "done": 1}))
    assert gs(tables, token)["setup_done"] == ["map"]
    ok(post(tables, token, "setup/tick", {"step": "map", "done": 0}))
    assert gs(tables, token)["setup_done"] == []
    assert post(tables, token, "setup/tick", {"step": "nope", "done": 1}).status_code == 422
    assert post(tables, token, "setup/tick", {"step": "map", "done": 7}).status_code == 422


def test_start_needs_a_story(tables, token):
    refused(post(tables, token, "start", key="start"), "Choose the story")


def test_setup_is_closed_once_playing(tables, playing):
    refused(post(tables, playing, "roles", {"sins_player": 2}, key="roles"), "can no longer change")


def test_no_javascript_gets_a_303_back_to_the_page(tables, token):
    resp = post(tables, token, "setup/tick", {"step": "map", "done": 1}, htmx=False, page="setup")
    assert resp.status_code == 303 and resp.headers["Location"].endswith("/setup#") is False


# -- round ----------------------------------------------------------------------------------------

def test_turns_extra_turns_and_city_action(tables, playing):
    hid = lineup(tables, playing)[0]
    ok(post(tables, playing, "turn", {"hero": hid, "value": 0}))
    ok(post(tables, playing, "turn", {"hero": hid, "value": 0}))
    refused(post(tables, playing, "turn", {"hero": hid, "value": 0}, key=f"turn-{hid}"), "Turn tokens are spent")
    ok(post(tables, playing, "extra-turns", {"hero": hid, "delta": 1}))
    ok(post(tables, playing, "turn", {"hero": hid, "value": 1}))
    ok(post(tables, playing, "turn/back", {"hero": hid}))
    ok(post(tables, playing, "city", {"hero": hid, "value": 1}))
    h = hero(tables, playing, hid)
    assert (h["turns_spent"], h["extra_turns"], h["city_used"]) == (1, 0, True)
    assert gs(tables, playing)["current"] == hid


def test_turn_for_a_reserve_hero_is_refused_at_the_top_of_the_form(tables, playing):
    reserve = next(h["id"] for h in gs(tables, playing)["heroes"] if h["status"] == "reserve")
    refused(post(tables, playing, "turn", {"hero": reserve, "value": 0}, key=f"turn-{reserve}"), "not in play")


def test_turns_before_the_game_starts_are_refused(tables, token):
    refused(post(tables, token, "turn", {"hero": 1, "value": 0}, key="turn-1"), "has not started")


def test_reactions_up_to_the_hero_number(tables, playing):
    heroes = lineup(tables, playing)
    for i in range(4):
        ok(post(tables, playing, "turn", {"hero": heroes[i], "value": 0}))
        ok(post(tables, playing, "reaction", {"delta": 1}))
    ok(post(tables, playing, "turn", {"hero": heroes[0], "value": 0}))
    refused(post(tables, playing, "reaction", {"delta": 1}, key="react"), "already spent")
    ok(post(tables, playing, "reaction/extra", {"delta": 1}))
    ok(post(tables, playing, "reaction", {"delta": 1}))
    assert gs(tables, playing)["reactions"] == {"spent": 5, "extra": 1}
    assert post(tables, playing, "reaction", {"delta": 2}).status_code == 422


def test_end_round_resets_and_can_be_undone(client, tables, playing):
    hid = lineup(tables, playing)[0]
    ok(post(tables, playing, "turn", {"hero": hid, "value": 0}))
    ok(post(tables, playing, "reaction", {"delta": 1}))
    ok(post(tables, playing, "sin-card", {"value": 1}))
    ok(post(tables, playing, "altars", {"delta": 1}))
    ok(post(tables, playing, "round/tick", {"step": "summon", "done": 1}))
    ok(post(tables, playing, "round/end"))
    g = gs(tables, playing)
    assert g["round"] == 2 and g["reactions"]["spent"] == 0 and hero(tables, playing, hid)["turns_spent"] == 0
    ok(tables.undo(playing))
    g = gs(tables, playing)
    assert g["round"] == 1 and g["altars"] == 1 and hero(tables, playing, hid)["turns_spent"] == 1


def test_end_round_button_warns_when_turns_are_left(client, tables, playing):
    html = client.get(f"/t/{playing}/round").get_data(as_text=True)
    assert "still have active Turn tokens" in html


def test_altars_are_bounded(tables, playing):
    for _ in range(3):
        ok(post(tables, playing, "altars", {"delta": 1}))
    refused(post(tables, playing, "altars", {"delta": 1}, key="altars"), "3 Altar tokens")


def test_first_hero_and_order(client, tables, playing):
    third = lineup(tables, playing)[2]
    ok(post(tables, playing, "first", {"hero": third}))
    assert gs(tables, playing)["first"] == third
    html = client.get(f"/t/{playing}/round").get_data(as_text=True)
    assert html.index(f'id="row-{third}"') < html.index(f'id="row-{lineup(tables, playing)[0]}"')


def test_mission_progress_target_next_and_notes(tables, playing):
    ok(post(tables, playing, "mission/progress", {"delta": 1}))
    refused(post(tables, playing, "mission/target", {"target": 0}, key="target"), "From 1 to 99")
    ok(post(tables, playing, "mission/target", {"target": 2}))
    ok(post(tables, playing, "mission/next", {"note": "left branch"}))
    refused(post(tables, playing, "mission/note", {"note": "  "}, key="note"), "Write the note")
    refused(post(tables, playing, "mission/note", {"note": "n" * 81}, key="note"), "80 characters")
    ok(post(tables, playing, "mission/note", {"note": "Summon the Avatar"}))
    m = gs(tables, playing)["mission"]
    assert m["number"] == 2 and m["progress"] == 0 and [n["text"] for n in m["notes"]] == ["left branch",
                                                                                          "Summon the Avatar"]


def test_heroes_win_the_story(client, tables, playing):
    ok(post(tables, playing, "win"))
    table = tables.table(playing)
    assert table.status == "finished" and table.result == {"winners": ["Ana", "Bo"], "scores": []}
    assert "The heroes win!" in text_of(client.get(f"/t/{playing}/round"))
    refused(post(tables, playing, "turn", {"hero": 1, "value": 0}, key="turn-1"), "game is over")


# -- hero dashboards ------------------------------------------------------------------------------

def test_dashboard_shows_the_would_be_bonus_before_the_tap(client, tables, playing):
    hid = lineup(tables, playing)[0]
    for slot in (1, 3):
        ok(post(tables, playing, "wound", {"hero": hid, "slot": slot, "cause": "wound"}))
    for _ in range(3):
        ok(post(tables, playing, "forced", {"hero": hid}))
    html = client.get(f"/t/{playing}/heroes").get_data(as_text=True)
    card = html.split(f'id="hero-{hid}"')[1].split('class="card dashboard"')[0]
    assert "Voluntary Corruption → 5" in card and "This roll gets: +2 dice, +1 Hit" in card


def test_voluntary_corruption_then_change_of_mind_then_roll(tables, playing):
    hid = lineup(tables, playing)[0]
    ok(post(tables, playing, "voluntary", {"hero": hid}))
    pending = hero(tables, playing, hid)["pending"]
    assert {k: pending[k] for k in ("dice", "defense", "hits", "choice")} == {"dice": 1, "defense": 0, "hits": 0,
                                                                            "choice": 0}
    refused(post(tables, playing, "voluntary", {"hero": hid}, key=f"h{hid}-vol"), "only one per roll")
    ok(post(tables, playing, "voluntary/cancel", {"hero": hid}))
    assert hero(tables, playing, hid)["corruption"] == 1
    ok(post(tables, playing, "voluntary", {"hero": hid}))
    ok(post(tables, playing, "roll-done", {"hero": hid}))
    h = hero(tables, playing, hid)
    assert h["corruption"] == 2 and h["pending"] is None


def test_log_names_the_bonus(client, tables, playing):
    hid = lineup(tables, playing)[0]
    ok(post(tables, playing, "voluntary", {"hero": hid}))
    assert "took Voluntary Corruption (level 2): dice +1" in text_of(client.get(f"/t/{playing}/heroes"))


def test_voluntary_at_7_is_refused(tables, playing):
    hid = lineup(tables, playing)[0]
    for _ in range(6):
        ok(post(tables, playing, "forced", {"hero": hid}))
    refused(post(tables, playing, "voluntary", {"hero": hid}, key=f"h{hid}-vol"), "cannot take Voluntary")


def test_forced_corruption_at_7_is_a_wound_on_the_chosen_slot(tables, playing):
    hid = lineup(tables, playing)[0]
    for _ in range(6):
        ok(post(tables, playing, "forced", {"hero": hid}))
    refused(post(tables, playing, "forced", {"hero": hid}, key=f"h{hid}-forced"), "choose its slot")
    ok(post(tables, playing, "wound", {"hero": hid, "slot": 2, "cause": "forced"}))
    h = hero(tables, playing, hid)
    assert h["corruption"] == 7 and h["wounds"] == [2]


def test_wound_on_a_covered_slot_is_refused_next_to_the_slots(tables, playing):
    hid = lineup(tables, playing)[0]
    ok(post(tables, playing, "wound", {"hero": hid, "slot": 1, "cause": "wound"}))
    resp = post(tables, playing, "wound", {"hero": hid, "slot": 1, "cause": "wound"}, key=f"h{hid}-wound")
    refused(resp, "already has a wound marker")
    assert f'id="h{hid}-wound-slot-err"' in resp.get_data(as_text=True)
    refused(post(tables, playing, "wound", {"hero": hid, "cause": "wound"}, key=f"h{hid}-wound"),
            "Choose the slot")
    refused(post(tables, playing, "wound", {"hero": hid, "slot": 9, "cause": "wound"}, key=f"h{hid}-wound"),
            "from 1 to 7")


def test_heal_and_repent(tables, playing):
    hid = lineup(tables, playing)[0]
    refused(post(tables, playing, "repent", {"hero": hid}, key=f"h{hid}-repent"), "already at 1")
    ok(post(tables, playing, "forced", {"hero": hid}))
    ok(post(tables, playing, "repent", {"hero": hid}))
    ok(post(tables, playing, "wound", {"hero": hid, "slot": 4, "cause": "wound"}))
    refused(post(tables, playing, "heal", {"hero": hid, "slot": 5}, key=f"h{hid}-heal-5"), "no wound marker")
    ok(post(tables, playing, "heal", {"hero": hid, "slot": 4}))
    assert hero(tables, playing, hid)["wounds"] == []


def test_carried_tokens(tables, playing):
    a, b = lineup(tables, playing)[:2]
    ok(post(tables, playing, "upgrades", {"hero": a, "delta": 1}))
    ok(post(tables, playing, "innocents", {"hero": a, "delta": 1}))
    refused(post(tables, playing, "innocents", {"hero": b, "delta": -1}, key=f"h{b}-inn"), "from 0 to 6")
    ok(post(tables, playing, "npc", {"hero": a, "npc": "ravencorp", "value": 1}))
    ok(post(tables, playing, "npc", {"hero": b, "npc": "ravencorp", "value": 1}))
    assert hero(tables, playing, a)["npcs"] == [] and hero(tables, playing, b)["npcs"] == ["ravencorp"]
    assert post(tables, playing, "npc", {"hero": a, "npc": "mayor", "value": 1}).status_code == 422


def test_npc_effect_is_shown_with_the_holder(client, tables, playing):
    hid = lineup(tables, playing)[0]
    ok(post(tables, playing, "npc", {"hero": hid, "npc": "commissioner", "value": 1}))
    assert "+1 die in every Fight." in text_of(client.get(f"/t/{playing}/heroes"))


def test_dark_past_revealed_once(tables, playing):
    hid = lineup(tables, playing)[0]
    ok(post(tables, playing, "dark-past", {"hero": hid}))
    refused(post(tables, playing, "dark-past", {"hero": hid}, key=f"h{hid}-dp"), "already revealed")


def test_stats_and_rename(client, tables, playing):
    hid = lineup(tables, playing)[0]
    ok(post(tables, playing, "stats", {"hero": hid, "name": "Rose", "fight": 2, "skill": 3, "defense": 1}))
    assert hero(tables, playing, hid)["stats"] == {"fight": 2, "skill": 3, "defense": 1}
    resp = post(tables, playing, "stats", {"hero": hid, "name": "Rose", "fight": 12, "skill": 3, "defense": 1},
                key=f"h{hid}-stats")
    refused(resp, "From 0 to 9")
    other = lineup(tables, playing)[1]
    refused(post(tables, playing, "stats", {"hero": other, "name": "rose", "fight": 1, "skill": 1, "defense": 1},
                 key=f"h{other}-stats"), "already has that name")


def test_hero_names_are_escaped(client, tables, playing):
    hid = lineup(tables, playing)[0]
    ok(post(tables, playing, "stats", {"hero": hid, "name": "<b>x</b>", "fight": 1, "skill": 1, "defense": 1}))
    for page in ("heroes", "round", "fight"):
        html = client.get(f"/t/{playing}/{page}").get_data(as_text=True)
        assert "<b>x</b>" not in html and "&lt;b&gt;x&lt;/b&gt;" in html


def kill(tables, token, hid):
    for slot in (1, 2, 3, 4, 5):
        ok(post(tables, token, "wound", {"hero": hid, "slot": slot, "cause": "wound"}))


def test_death_and_replacement(client, tables, playing):
    dead = lineup(tables, playing)[1]
    ok(post(tables, playing, "turn", {"hero": dead, "value": 0}))
    ok(post(tables, playing, "upgrades", {"hero": dead, "delta": 1}))
    kill(tables, playing, dead)
    assert hero(tables, playing, dead)["status"] == "dead"
    text = text_of(client.get(f"/t/{playing}/heroes"))
    assert "died" in text and "Bring in the replacement" in text
    refused(post(tables, playing, "replace", {"dead": dead}, key=f"replace-{dead}"), "Choose the hero who comes in")
    refused(post(tables, playing, "replace", {"dead": dead, "replacement": lineup(tables, playing)[0]},
                 key=f"replace-{dead}"), "not in the Hero Reserve")
    new = next(h["id"] for h in gs(tables, playing)["heroes"] if h["status"] == "reserve")
    ok(post(tables, playing, "replace", {"dead": dead, "replacement": new}))
    h = hero(tables, playing, new)
    assert lineup(tables, playing)[1] == new
    assert (h["turns_spent"], h["upgrades"], h["corruption"], h["controller"]) == (1, 1, 1, 2)


def test_the_sins_player_wins_when_the_reserve_is_empty(client, tables, playing):
    for _ in range(3):
        dead = lineup(tables, playing)[0]
        kill(tables, playing, dead)
        new = next(h["id"] for h in gs(tables, playing)["heroes"] if h["status"] == "reserve")
        ok(post(tables, playing, "replace", {"dead": dead, "replacement": new}))
    kill(tables, playing, lineup(tables, playing)[0])
    table = tables.table(playing)
    assert table.status == "finished" and table.result == {"winners": ["Sam"], "scores": []}
    text = text_of(client.get(f"/t/{playing}/round"))
    assert "Sam, the Sins player, wins!" in text
    ok(post(tables, playing, "win"))  # the tie rule
    assert tables.table(playing).result["winners"] == ["Ana", "Bo"]


def test_alerts_are_dismissed(client, tables, playing):
    hid = lineup(tables, playing)[0]
    ok(post(tables, playing, "innocents", {"hero": hid, "delta": 1}))
    for _ in range(6):
        ok(post(tables, playing, "forced", {"hero": hid}))
    alerts = gs(tables, playing)["alerts"]
    assert len(alerts) == 1 and "killed the 1 Innocent" in text_of(client.get(f"/t/{playing}/round"))
    ok(post(tables, playing, "alert", {"alert": alerts[0]["id"]}))
    assert gs(tables, playing)["alerts"] == []


# -- fight helper ---------------------------------------------------------------------------------

def test_fight_helper_flow(client, tables, playing):
    hid = lineup(tables, playing)[0]
    ok(post(tables, playing, "stats", {"hero": hid, "name": "Rose", "fight": 2, "skill": 2, "defense": 1}))
    ok(post(tables, playing, "forced", {"hero": hid}))
    ok(post(tables, playing, "fight/start", {"hero": hid, "kind": "fight"}))
    prep = {"stat": 2, "base_defense": 1, "teammates": 1, "extra_dice": 1, "extra_defense": 1, "extra_hits": 0,
            "monsters": 5, "pentagrams": 1, "sin_extra": 0}
    refused(post(tables, playing, "fight/prepare", {**prep, "monsters": 99}, key="prep"), "From 0 to 40")
    ok(post(tables, playing, "fight/prepare", prep))
    ok(post(tables, playing, "voluntary", {"hero": hid}))
    text = text_of(client.get(f"/t/{playing}/fight"))
    assert "5 Hero dice" in text and "6 Sin dice" in text
    refused(post(tables, playing, "fight/resolve", {"faith": 1, "flex_hits": 1, "flex_counter": 1}, key="roll"),
            "Only 1 result")
    ok(post(tables, playing, "fight/resolve", {"hits": 4, "faith": 1, "flex_counter": 1, "sin_hits": 4,
                                               "sin_corruption": 1}))
    text = text_of(client.get(f"/t/{playing}/fight"))
    assert "1 wound" in text and "4 Hits to share among the monsters" in text
    refused(post(tables, playing, "fight/apply", {"slots": [1, 2]}, key="apply"), "exactly 1 slot")
    assert post(tables, playing, "fight/apply", {"slots": ["x"]}, key="apply").status_code == 422
    ok(post(tables, playing, "fight/apply", {"slots": [1]}))
    h = hero(tables, playing, hid)
    assert h["wounds"] == [1] and h["corruption"] == 3 and gs(tables, playing)["fight"] is None


def test_crisis_and_close(client, tables, playing):
    hid = lineup(tables, playing)[0]
    ok(post(tables, playing, "stats", {"hero": hid, "name": "Rose", "fight": 2, "skill": 2, "defense": 1}))
    ok(post(tables, playing, "fight/start", {"hero": hid, "kind": "crisis"}))
    ok(post(tables, playing, "fight/resolve", {"skill": 2, "faith": 1, "flex_skill": 1}))
    assert "Remove up to 3 face-up Exploration tokens" in text_of(client.get(f"/t/{playing}/fight"))
    ok(post(tables, playing, "fight/close"))
    assert gs(tables, playing)["fight"] is None
    refused(post(tables, playing, "fight/resolve", {"hits": 1}, key="roll"), "No fight is open")
    assert post(tables, playing, "fight/start", {"hero": hid, "kind": "duel"}).status_code == 422


# -- the Apocalypse track -------------------------------------------------------------------------

def track_data(cards=(), **overrides):
    data = {}
    for n in range(1, 8):
        if n in cards:
            data[f"card_{n}"] = "y"
        data[f"effect_{n}"] = ""
        data[f"reactions_{n}"] = 0
        data[f"sin_dice_{n}"] = 0
    data.update(overrides)
    return data


def test_apocalypse_track_card_levels_and_cumulative_effects(client, tables, playing):
    ok(post(tables, playing, "track", track_data(cards=(2, 4, 6), effect_1="Monsters +1 die", reactions_3=1)))
    ok(post(tables, playing, "apocalypse", {"delta": 1}))
    ok(post(tables, playing, "apocalypse", {"delta": 1}))
    assert gs(tables, playing)["apocalypse"]["reveal_due"] == [2]
    text = text_of(client.get(f"/t/{playing}/apocalypse"))
    assert "Level 2: reveal an Apocalypse card" in text and "Monsters +1 die" in text
    refused(post(tables, playing, "card", {"level": 2, "name": "c" * 31}, key="card-2"), "30 characters")
    ok(post(tables, playing, "card", {"level": 2, "name": "Bloodbath", "hell_club": "The Butcher"}))
    ok(post(tables, playing, "apocalypse", {"delta": 1}))
    assert gs(tables, playing)["reactions"] and "Includes 1 from the Apocalypse track." in \
        text_of(client.get(f"/t/{playing}/round"))
    ok(post(tables, playing, "hell-club", {"card": 0}))
    assert gs(tables, playing)["apocalypse"]["cards"][0]["gone"] is True
    assert post(tables, playing, "hell-club", {"card": 5}).status_code == 422
    ok(post(tables, playing, "apocalypse", {"delta": 1}))
    ok(post(tables, playing, "card/skip", {"level": 4}))
    assert gs(tables, playing)["apocalypse"]["reveal_due"] == []


def test_apocalypse_stops_at_7(tables, playing):
    for _ in range(7):
        ok(post(tables, playing, "apocalypse", {"delta": 1}))
    refused(post(tables, playing, "apocalypse", {"delta": 1}, key="apo"), "cannot go higher")


@pytest.mark.parametrize("override, fragment", [
    pytest.param({"effect_3": "e" * 121}, "120 characters", id="effect-too-long"),
    pytest.param({"reactions_2": 4}, "From 0 to 3", id="too-many-reactions"),
    pytest.param({"sin_dice_7": "x"}, "", id="dice-not-a-number"),
])
def test_bad_track_is_refused_and_kept(tables, token, override, fragment):
    resp = post(tables, token, "track", track_data(cards=(2,), effect_1="kept", **override), key="track")
    refused(resp, fragment)
    assert 'value="kept"' in resp.get_data(as_text=True)


def test_track_can_be_marked_during_setup(tables, token):
    ok(post(tables, token, "track", track_data(cards=(1, 3))))
    assert [lv["card"] for lv in gs(tables, token)["apocalypse"]["track"]["levels"]][:3] == [True, False, True]


# -- concurrency ----------------------------------------------------------------------------------

def test_two_phones_on_the_same_hero_do_not_stack_blindly(tables, playing):
    hid = lineup(tables, playing)[0]
    seen = tables.version(playing)
    ok(tables.post(playing, "others/voluntary", {"hero": hid}, version=seen))
    resp = tables.post(playing, "others/forced", {"hero": hid}, version=seen)
    assert resp.status_code == 409
    assert hero(tables, playing, hid)["corruption"] == 2


def test_two_phones_on_different_heroes_both_land(tables, playing):
    a, b = lineup(tables, playing)[:2]
    seen = tables.version(playing)
    ok(tables.post(playing, "others/forced", {"hero": a}, version=seen))
    ok(tables.post(playing, "others/forced", {"hero": b}, version=seen))
    assert hero(tables, playing, a)["corruption"] == 2 and hero(tables, playing, b)["corruption"] == 2


def test_reaction_taps_from_two_phones_conflict_rather_than_double_spend(tables, playing):
    ok(post(tables, playing, "turn", {"hero": lineup(tables, playing)[0], "value": 0}))
    seen = tables.version(playing)
    ok(tables.post(playing, "others/reaction", {"delta": 1}, version=seen))
    assert tables.post(playing, "others/reaction", {"delta": 1}, version=seen).status_code == 409


def test_a_turn_tapped_on_last_rounds_screen_is_refused_after_the_reset(tables, playing):
    hid = lineup(tables, playing)[0]
    seen = tables.version(playing)
    ok(tables.post(playing, "others/round/end", {}, version=seen))
    assert tables.post(playing, "others/turn", {"hero": hid, "value": 0}, version=seen).status_code == 409
    assert hero(tables, playing, hid)["turns_spent"] == 0


def test_a_player_joining_during_setup_deals_the_heroes_again(tables, token):
    ok(tables.post(token, "players/add", {"name": "Cy"}))
    g = gs(tables, token)
    assert len(g["lineup"]) == 3 and {h["controller"] for h in g["heroes"] if h["controller"]} == {2, 3, 4}


# -- junk never gives a 500 -----------------------------------------------------------------------

ROUTES = ["roles", "sin", "story", "team", "setup/tick", "start", "first", "turn", "turn/back", "extra-turns",
          "city", "reaction", "reaction/extra", "sin-card", "round/tick", "altars", "round/end",
          "mission/progress", "mission/target", "mission/next", "mission/note", "win", "alert", "voluntary",
          "voluntary/cancel", "roll-done", "forced", "wound", "heal", "repent", "upgrades", "innocents", "npc",
          "dark-past", "replace", "stats", "fight/start", "fight/prepare", "fight/resolve", "fight/apply",
          "fight/close", "apocalypse", "track", "track/save", "track/use", "card", "card/skip", "hell-club"]
JUNK = {"hero": "9" * 30, "delta": "1e9", "value": "-1", "slot": "abc", "step": "x" * 500, "done": "",
        "sins_player": "-5", "target": "1.5", "note": "\x00" * 10, "name": "\u202e" * 40, "npc": "",
        "dead": "0", "replacement": "x", "kind": "", "level": "99999999999999999999", "card": "-1",
        "preset": "0", "alert": "0", "slots": "8", "fight": "nan", "stat": "inf", "effect_1": "e" * 500,
        "controller_1": "abc"}


@pytest.mark.parametrize("route", ROUTES)
def test_junk_never_crashes(tables, playing, route):
    resp = post(tables, playing, route, JUNK)
    assert resp.status_code < 500
    resp = post(tables, playing, route, {})
    assert resp.status_code < 500


@pytest.mark.parametrize("route", ["turn", "voluntary", "track", "round/end"])
def test_a_stale_or_missing_version_is_handled(client, tables, playing, route):
    resp = client.post(f"/t/{playing}/others/{route}", data={"hero": 1, "v": "x"}, headers=HX)
    assert resp.status_code == 422


def test_every_term_and_rule_link_in_the_templates_exists():
    """term() and rule_url() fail loudly only on the branch that renders them; check every one here."""
    import pathlib

    from companion.games.others import state
    from companion.rules import content

    text = "".join(p.read_text() for p in pathlib.Path("templates/others").glob("*.html"))
    terms = set(re.findall(r"term\('others', '([^']+)'", text)) | set(state.NPC_NAMES.values())
    assert len(terms) > 10
    assert [t for t in terms if not content.find_term("others", t)] == []
    known = set(content.sections("others"))
    linked = re.findall(r"rule_url\('others', '([^']+)'\)", text)
    checklist = re.findall(r'\("[a-z-]+", [^\n]*?, "([a-z-]+)"\),', text)  # the setup steps' sections
    assert len(linked) > 10 and len(checklist) == 14
    assert [s for s in linked + checklist if s not in known] == []
