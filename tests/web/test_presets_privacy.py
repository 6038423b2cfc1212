"""Saved Apocalypse tracks stay with the table and phone that saved them, unless shared by link;
their maker may correct or delete them, nobody else may."""
from __future__ import annotations

import re

import pytest

from companion.db import get_session
from companion.models import Preset
from tests.conftest import Tables
from tests.web.test_others_web import gs, ok, post, refused, track_data


@pytest.fixture
def maker(app, client):
    """A phone with an Others table that saved the track "Core box"."""
    tables = Tables(app, client)
    token = tables.create("others", ("Sam", "Ana", "Bo"))
    ok(post(tables, token, "track", track_data(cards=(2, 4), effect_1="Sins draw")))
    ok(post(tables, token, "track/save", {"name": "Core box"}))
    return tables, token


@pytest.fixture
def stranger(app):
    """Another phone (its own cookies) with its own Others table."""
    tables = Tables(app, app.test_client())
    return tables, tables.create("others", ("X", "Y"), name="Elsewhere")


def preset_id(app):
    with app.app_context():
        return get_session().query(Preset).one().id


def share_link(client, token):
    html = client.get(f"/t/{token}/apocalypse").get_data(as_text=True)
    return re.search(r'href="(https?://[^"]*/others/track/[^"]+)"', html).group(1)


def test_a_track_is_not_offered_to_another_table_of_another_phone(app, maker, stranger):
    other, other_token = stranger
    html = other.client.get(f"/t/{other_token}/apocalypse").get_data(as_text=True)
    assert "Core box" not in html
    # Guessing its id does not help.
    refused(post(other, other_token, "track/use", {"preset": preset_id(app)}, key="use-preset"), "does not exist")
    assert gs(other, other_token)["apocalypse"]["track"]["levels"][1]["card"] is False


def test_the_share_link_gives_it_on_purpose(app, maker, stranger):
    tables, token = maker
    other, other_token = stranger
    link = share_link(tables.client, token)
    page = other.client.get(link)
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert "Core box" in html and "Sins draw" in html and "Use on “Elsewhere”" in html
    # Now offered on that phone's tables, and usable.
    assert "Core box" in other.client.get(f"/t/{other_token}/apocalypse").get_data(as_text=True)
    ok(post(other, other_token, "track/use", {"preset": preset_id(app)}))
    assert gs(other, other_token)["apocalypse"]["track"]["levels"][1]["card"] is True
    # ...but not changeable from there.
    refused(post(other, other_token, "track/preset/delete", {"preset": preset_id(app)}, key="preset-delete"),
            "Only the table or phone that saved")
    assert "Your saved tracks" not in other.client.get(f"/t/{other_token}/apocalypse").get_data(as_text=True)


def test_an_unknown_share_link_is_404(client):
    assert client.get("/others/track/not-a-real-share-token").status_code == 404
    assert client.get("/others/track/x").status_code == 404


def test_the_maker_renames_corrects_and_deletes(app, maker):
    tables, token = maker
    pid = preset_id(app)
    ok(post(tables, token, "track/preset/rename", {"preset": pid, "name": "Core box (2nd ed.)"}))
    ok(post(tables, token, "track", track_data(cards=(2, 4, 6))))
    ok(post(tables, token, "track/preset/update", {"preset": pid}))
    with app.app_context():
        saved = get_session().query(Preset).one()
        assert saved.name == "Core box (2nd ed.)" and saved.data["levels"][5]["card"] is True
    ok(post(tables, token, "track/preset/delete", {"preset": pid}))
    with app.app_context():
        assert get_session().query(Preset).count() == 0
    # The table keeps its copy.
    assert gs(tables, token)["apocalypse"]["track"]["levels"][5]["card"] is True


def test_the_same_phone_sees_it_on_its_next_table(app, maker):
    tables, _token = maker
    second = tables.create("others", ("P", "Q"), name="Next week")
    html = tables.client.get(f"/t/{second}/apocalypse").get_data(as_text=True)
    assert "Core box" in html and "Your saved tracks" in html


def test_a_bad_rename_keeps_what_was_typed(app, maker):
    tables, token = maker
    resp = post(tables, token, "track/preset/rename", {"preset": preset_id(app), "name": "\u200b"},
                key=f"preset-rename-{preset_id(app)}")
    refused(resp, "Give the saved track a name")


def test_a_retried_save_whose_answer_was_lost_is_answered_as_the_first_time(app, client):
    """The preset is written as its form is checked: a retry of the same tap (same sid) must get the
    first answer, not "that name is taken", and nothing is saved or logged twice."""
    tables = Tables(app, client)
    token = tables.create("others", ("Sam", "Ana", "Bo"))
    ok(post(tables, token, "track", track_data(cards=(2, 4), effect_1="Sins draw")))
    version = tables.version(token)
    tap = {"v": version, "name": "Core box", "sid": "tap-" + "7" * 32, "page": "apocalypse"}
    first = tables.post(token, "others/track/save", tap)
    again = tables.post(token, "others/track/save", tap)
    assert first.status_code == again.status_code == 200
    assert "taken" not in again.get_data(as_text=True)
    assert tables.version(token) == version + 1
    with app.app_context():
        assert get_session().query(Preset).count() == 1
