"""The Others: 7 Sins: the corruption JSON API and the shared Apocalypse track presets."""
from __future__ import annotations

import pytest

from companion.db import get_session
from companion.models import Preset
from tests.web.test_others_web import errors_of, gs, ok, post, refused, track_data

URL = "/api/v1/others/corruption"


# -- POST /api/v1/others/corruption ---------------------------------------------------------------

@pytest.mark.parametrize("body, new_level, bonus", [
    pytest.param({"level": 4, "wound_slots": [1, 3]}, 5, {"dice": 2, "defense": 0, "hits": 1, "choice": 0},
                 id="the-issue-example"),
    pytest.param({"level": 1}, 2, {"dice": 1, "defense": 0, "hits": 0, "choice": 0}, id="rulebook-1-to-2"),
    pytest.param({"level": 4, "wound_slots": []}, 5, {"dice": 2, "defense": 1, "hits": 1, "choice": 0},
                 id="rulebook-4-to-5"),
    pytest.param({"level": 4, "wound_slots": [1, 2, 4, 6]}, 5, {"dice": 1, "defense": 1, "hits": 0, "choice": 0},
                 id="rulebook-four-wounds"),
    pytest.param({"level": 6, "wound_slots": None}, 7, {"dice": 2, "defense": 1, "hits": 3, "choice": 1},
                 id="up-to-7"),
    pytest.param({"level": 4.0, "wound_slots": [1.0]}, 5, {"dice": 2, "defense": 1, "hits": 1, "choice": 0},
                 id="whole-floats"),
])
def test_corruption_api(client, body, new_level, bonus):
    resp = client.post(URL, json=body)
    assert resp.status_code == 200, resp.get_json()
    assert resp.get_json() == {"new_level": new_level, "bonus": bonus}


@pytest.mark.parametrize("body, field", [
    pytest.param({"level": 7}, "level", id="level-7"),
    pytest.param({"level": 0}, "level", id="level-0"),
    pytest.param({"level": 8}, "level", id="level-8"),
    pytest.param({}, "level", id="no-level"),
    pytest.param({"level": None}, "level", id="null-level"),
    pytest.param({"level": "four"}, "level", id="text-level"),
    pytest.param({"level": True}, "level", id="boolean-level"),
    pytest.param({"level": 4.5}, "level", id="fraction"),
    pytest.param({"level": 10 ** 400}, "level", id="huge"),
    pytest.param({"level": 1e308}, "level", id="huge-float"),
    pytest.param({"level": [4]}, "level", id="list-level"),
    pytest.param({"level": {"n": 4}}, "level", id="nested-level"),
    pytest.param({"level": 4, "wound_slots": [1, 1]}, "wound_slots.1", id="repeated-slot"),
    pytest.param({"level": 4, "wound_slots": [0]}, "wound_slots.0", id="slot-0"),
    pytest.param({"level": 4, "wound_slots": [9]}, "wound_slots.0", id="slot-9"),
    pytest.param({"level": 4, "wound_slots": [1, 2, 3, 4, 5]}, "wound_slots", id="fifth-wound-kills"),
    pytest.param({"level": 4, "wound_slots": "1,3"}, "wound_slots", id="slots-as-text"),
    pytest.param({"level": 4, "wound_slots": {"a": 1}}, "wound_slots", id="slots-as-object"),
    pytest.param({"level": 4, "wound_slots": [[1]]}, "wound_slots.0", id="nested-slot"),
    pytest.param({"level": 4, "wound_slots": [None]}, "wound_slots.0", id="null-slot"),
    pytest.param({"level": 4, "wound_slots": list(range(10 ** 4))}, "wound_slots", id="long-list"),
])
def test_corruption_api_refuses_bad_input(client, body, field):
    resp = client.post(URL, json=body)
    assert resp.status_code == 422
    errors = resp.get_json()["errors"]
    assert field in errors and all(isinstance(m, str) and m for m in errors[field])


@pytest.mark.parametrize("raw, content_type, status", [
    pytest.param('"level"', "application/json", 400, id="a-string"),
    pytest.param("null", "application/json", 400, id="null"),
    pytest.param("[4, [1, 3]]", "application/json", 400, id="a-list"),
    pytest.param("4", "application/json", 400, id="a-number"),
    pytest.param("{level: 4}", "application/json", 400, id="broken-json"),
    pytest.param('{"level": NaN}', "application/json", 422, id="nan"),
    pytest.param("level=4", "application/x-www-form-urlencoded", 415, id="a-form"),
])
def test_corruption_api_odd_bodies(client, raw, content_type, status):
    resp = client.post(URL, data=raw, content_type=content_type)
    assert resp.status_code == status
    assert "errors" in resp.get_json()


def test_corruption_api_only_posts(client):
    assert client.get(URL).status_code == 405


def test_corruption_api_speaks_french(client):
    resp = client.post(URL, json={"level": 7}, headers={"Accept-Language": "fr"})
    assert resp.status_code == 422
    assert "Repentir" in resp.get_json()["errors"]["level"][0]


# -- Apocalypse track presets ---------------------------------------------------------------------

@pytest.fixture
def token(tables):
    return tables.create("others", ("Sam", "Ana", "Bo"))


def presets_in(app):
    with app.app_context():
        return [(p.name, p.data) for p in get_session().query(Preset).order_by(Preset.id)]


def test_a_saved_track_is_offered_to_the_next_table(app, client, tables, token):
    ok(post(tables, token, "track", track_data(cards=(2, 4, 6), effect_1="Sins draw a card", sin_dice_5=1)))
    ok(post(tables, token, "track/save", {"name": "Core box"}))
    assert gs(tables, token)["apocalypse"]["track"]["preset"]["name"] == "Core box"
    (name, data), = presets_in(app)
    assert name == "Core box" and data["levels"][0]["effect"] == "Sins draw a card"

    other = tables.create("others", ("X", "Y"), name="Second table")
    html = client.get(f"/t/{other}/apocalypse").get_data(as_text=True)
    assert "Core box" in html
    preset_id = gs(tables, token)["apocalypse"]["track"]["preset"]["id"]
    ok(post(tables, other, "track/use", {"preset": preset_id}))
    levels = gs(tables, other)["apocalypse"]["track"]["levels"]
    assert [lv["card"] for lv in levels] == [False, True, False, True, False, True, False]
    assert levels[4]["sin_dice"] == 1


def test_a_preset_name_is_unique_on_its_table(app, tables, token):
    ok(post(tables, token, "track", track_data(cards=(2,))))
    ok(post(tables, token, "track/save", {"name": "Core box"}))
    ok(post(tables, token, "track", track_data(cards=(3,))))
    resp = post(tables, token, "track/save", {"name": "core BOX"}, key="save-preset")
    refused(resp, "already saved a track called")
    assert 'value="core BOX"' in resp.get_data(as_text=True)
    (name, data), = presets_in(app)
    assert data["levels"][1]["card"] is True and data["levels"][2]["card"] is False


def test_editing_a_copied_track_leaves_the_preset_alone(app, tables, token):
    ok(post(tables, token, "track", track_data(cards=(2,))))
    ok(post(tables, token, "track/save", {"name": "Core box"}))
    ok(post(tables, token, "track", track_data(cards=(2, 4))))
    (_name, data), = presets_in(app)
    assert [lv["card"] for lv in data["levels"]] == [False, True, False, False, False, False, False]


@pytest.mark.parametrize("name, fragment", [
    pytest.param("", "Give the saved track a name", id="empty"),
    pytest.param("   ", "Give the saved track a name", id="blank"),
    pytest.param("n" * 31, "30 characters", id="too-long"),
])
def test_bad_preset_names(tables, token, name, fragment):
    ok(post(tables, token, "track", track_data(cards=(2,))))
    refused(post(tables, token, "track/save", {"name": name}, key="save-preset"), fragment)


def test_an_empty_track_is_not_saved(app, tables, token):
    refused(post(tables, token, "track/save", {"name": "Nothing"}, key="save-preset"), "track is empty")
    assert presets_in(app) == []


def test_preset_names_are_escaped(client, tables, token):
    ok(post(tables, token, "track", track_data(cards=(2,))))
    ok(post(tables, token, "track/save", {"name": "<img src=x>"}))
    html = client.get(f"/t/{token}/apocalypse").get_data(as_text=True)
    assert "<img src=x>" not in html and "&lt;img src=x&gt;" in html


@pytest.mark.parametrize("preset", ["999", "0", "x", ""])
def test_using_a_missing_preset(tables, token, preset):
    resp = post(tables, token, "track/use", {"preset": preset}, key="use-preset")
    assert resp.status_code == 422 and errors_of(resp)


def test_a_corrupt_preset_is_refused_not_copied(app, tables, token):
    with app.app_context():
        session = get_session()
        bad = Preset(game="others", kind="apocalypse", name="Broken", data={"levels": "junk"},
                     table_id=tables.table(token).id)
        session.add(bad)
        session.commit()
        bad_id = bad.id
    refused(post(tables, token, "track/use", {"preset": bad_id}, key="use-preset"), "cannot be read")


def test_a_preset_of_another_game_is_not_used(app, tables, token):
    with app.app_context():
        session = get_session()
        other = Preset(game="sins", kind="apocalypse", name="Elsewhere", data={"levels": []})
        session.add(other)
        session.commit()
        other_id = other.id
    refused(post(tables, token, "track/use", {"preset": other_id}, key="use-preset"), "does not exist")
