"""The Others' fight helper asks for a hero's printed stats instead of counting them as 0 (issue 28).

A hero whose Fight, Skill or Defense were never typed used to fight with 0 for them, silently. Now the
fight starts with those boxes empty and a message beside each, the dice are not counted ("?"), the
results cannot be worked out, and a count or a result sent anyway is refused (422) with the message
next to the field and every other typed number kept."""
from __future__ import annotations

import re
from html import unescape

from tests.conftest import HX, text_of
from tests.web.test_others_web import errors_of, gs, lineup, ok, playing, post, refused, token  # noqa: F401

ASK_FIGHT = "printed Fight: the dice are not counted until it is known"
ASK_DEFENSE = "printed Defense: the wounds are not worked out until it is known"
ASK_SKILL = "printed Skill: the dice are not counted until it is known"
PREP = {"teammates": 1, "extra_dice": 0, "extra_defense": 0, "extra_hits": 0, "monsters": 3, "pentagrams": 1,
        "sin_extra": 0}


def field_error(html: str, field: str) -> str:
    """The message shown under one field of the prep form."""
    m = re.search(rf'id="prep-{field}-err"[^>]*>(.*?)</p>', html, re.S)
    return unescape(re.sub(r"\s+", " ", m.group(1)).strip()) if m else ""


def test_the_fight_page_asks_for_the_stats_never_typed(client, tables, playing):  # noqa: F811
    hid = lineup(tables, playing)[0]
    ok(post(tables, playing, "fight/start", {"hero": hid, "kind": "fight"}))
    fight = gs(tables, playing)["fight"]
    assert fight["stat"] is None and fight["base_defense"] is None
    html = client.get(f"/t/{playing}/fight").get_data(as_text=True)
    text = text_of(client.get(f"/t/{playing}/fight"))
    assert "? Hero dice" in text and "0 Hero dice" not in text
    assert ASK_FIGHT in text and ASK_DEFENSE in text
    # the boxes are empty, not 0, and nothing can be worked out yet
    assert re.search(r'id="prep-stat"[^>]*value=""', html) and re.search(r'id="prep-base_defense"[^>]*value=""', html)
    assert 'id="roll"' not in html and "count the dice first" in text
    # the htmx fragment says the same
    frag = client.get(f"/t/{playing}/fight", headers=HX).get_data(as_text=True)
    assert 'id="live"' in frag and ASK_FIGHT in frag


def test_counting_the_dice_without_the_stats_is_refused_next_to_the_field_and_keeps_the_rest(client, tables,
                                                                                          playing):  # noqa: F811
    hid = lineup(tables, playing)[0]
    ok(post(tables, playing, "fight/start", {"hero": hid, "kind": "fight"}))
    resp = post(tables, playing, "fight/prepare", {**PREP, "stat": "", "base_defense": ""}, key="prep")
    refused(resp, ASK_FIGHT)
    html = resp.get_data(as_text=True)
    assert ASK_FIGHT in field_error(html, "stat") and ASK_DEFENSE in field_error(html, "base_defense")
    assert re.search(r'id="prep-monsters"[^>]*value="3"', html)  # what was typed is kept
    assert gs(tables, playing)["fight"]["stat"] is None
    # only Defense missing: only Defense is asked for
    resp = post(tables, playing, "fight/prepare", {**PREP, "stat": "2", "base_defense": ""}, key="prep")
    refused(resp, ASK_DEFENSE)
    assert not field_error(resp.get_data(as_text=True), "stat")
    assert re.search(r'id="prep-stat"[^>]*value="2"', resp.get_data(as_text=True))
    # typed: the dice are counted from them, and the results can be worked out
    ok(post(tables, playing, "fight/prepare", {**PREP, "stat": "2", "base_defense": "1"}, key="prep"))
    assert "3 Hero dice" in text_of(client.get(f"/t/{playing}/fight"))
    ok(post(tables, playing, "fight/resolve", {"hits": 1, "sin_hits": 2}, key="roll"))
    assert gs(tables, playing)["fight"]["outcome"]["wounds"] == 1  # 2 Sin hits less the typed Defense 1


def test_working_out_results_without_the_stats_is_refused(client, tables, playing):  # noqa: F811
    hid = lineup(tables, playing)[0]
    ok(post(tables, playing, "fight/start", {"hero": hid, "kind": "fight"}))
    resp = post(tables, playing, "fight/resolve", {"hits": 1, "sin_hits": 2}, key="roll")
    msgs = refused(resp, ASK_DEFENSE)
    assert ASK_FIGHT in msgs
    assert gs(tables, playing)["fight"]["outcome"] is None
    # without JavaScript: the same refusal, on the full page
    resp = post(tables, playing, "fight/resolve", {"hits": 1, "sin_hits": 2}, key="roll", htmx=False)
    assert resp.status_code == 422 and ASK_DEFENSE in resp.get_data(as_text=True)


def test_a_crisis_asks_for_skill_only(client, tables, playing):  # noqa: F811
    hid = lineup(tables, playing)[0]
    ok(post(tables, playing, "fight/start", {"hero": hid, "kind": "crisis"}))
    text = text_of(client.get(f"/t/{playing}/fight"))
    assert ASK_SKILL in text and ASK_DEFENSE not in text
    resp = post(tables, playing, "fight/prepare", {**PREP, "stat": "", "base_defense": ""}, key="prep")
    refused(resp, ASK_SKILL)
    assert ASK_DEFENSE not in " ".join(errors_of(resp))
    ok(post(tables, playing, "fight/prepare", {**PREP, "stat": "2", "base_defense": ""}, key="prep"))
    ok(post(tables, playing, "fight/resolve", {"skill": 2}, key="roll"))
    assert gs(tables, playing)["fight"]["outcome"]["tokens"] == 2


def test_typed_stats_start_the_fight_as_before(client, tables, playing):  # noqa: F811
    hid = lineup(tables, playing)[0]
    ok(post(tables, playing, "stats", {"hero": hid, "name": "Rose", "fight": 2, "skill": 3, "defense": 0}))
    ok(post(tables, playing, "fight/start", {"hero": hid, "kind": "fight"}))
    fight = gs(tables, playing)["fight"]
    assert (fight["stat"], fight["base_defense"]) == (2, 0)  # a typed 0 is a real 0
    text = text_of(client.get(f"/t/{playing}/fight"))
    assert ASK_FIGHT not in text and ASK_DEFENSE not in text and "2 Hero dice" in text
