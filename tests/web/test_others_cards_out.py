"""The Others: "Apocalypse cards out" lists every card out (issue 28), named or not.

A card revealed with "Revealed, no note" used to vanish from the list, which showed only cards noted
by name. Every revealed card is out for the rest of the game (p. 23), so each is listed: a named one
by its name, an unnamed one by its place ("Apocalypse card 2", in French "Carte Apocalypse 2")."""
from __future__ import annotations

from tests.conftest import HX, text_of
from tests.web.test_others_web import gs, ok, playing, post, refused, token, track_data  # noqa: F401


def cards_out(text: str) -> str:
    return text.split("Apocalypse cards out", 1)[1].split("The printed track", 1)[0]


def test_every_card_out_is_listed_named_or_not(client, tables, playing):  # noqa: F811
    ok(post(tables, playing, "track", track_data(cards=(1, 2, 3))))
    ok(post(tables, playing, "apocalypse", {"delta": 1}))
    ok(post(tables, playing, "card/skip", {"level": 1}))  # revealed, nothing noted
    ok(post(tables, playing, "apocalypse", {"delta": 1}))
    ok(post(tables, playing, "card", {"level": 2, "name": "Bloodbath", "hell_club": ""}))
    ok(post(tables, playing, "apocalypse", {"delta": 1}))
    ok(post(tables, playing, "card", {"level": 3, "name": "", "hell_club": ""}))  # noted, no name
    apo = gs(tables, playing)["apocalypse"]
    assert [c["level"] for c in apo["cards"]] == [1, 2, 3] and apo["reveal_due"] == []
    listed = cards_out(text_of(client.get(f"/t/{playing}/apocalypse")))
    assert "Level 1: Apocalypse card 1" in listed
    assert "Level 2: Bloodbath" in listed
    assert "Level 3: Apocalypse card 3" in listed
    # the htmx fragment lists them too
    assert "Level 1: Apocalypse card 1" in cards_out(text_of(client.get(f"/t/{playing}/apocalypse", headers=HX)))
    # in French
    client.set_cookie("lang", "fr", domain="companion.test")
    text = text_of(client.get(f"/t/{playing}/apocalypse"))
    assert "Carte Apocalypse 1" in text and "Carte Apocalypse 3" in text and "Bloodbath" in text


def test_a_card_skipped_is_not_asked_for_again_and_a_stray_skip_adds_nothing(client, tables, playing):  # noqa: F811
    ok(post(tables, playing, "track", track_data(cards=(1,))))
    ok(post(tables, playing, "apocalypse", {"delta": 1}))
    ok(post(tables, playing, "card/skip", {"level": 1}))
    # down and up again (a correction): level 1's card is already out, nothing to reveal
    ok(post(tables, playing, "apocalypse", {"delta": -1}))
    ok(post(tables, playing, "apocalypse", {"delta": 1}))
    apo = gs(tables, playing)["apocalypse"]
    assert apo["reveal_due"] == [] and len(apo["cards"]) == 1
    # a skip for a level with no card due changes nothing
    post(tables, playing, "card/skip", {"level": 1})
    assert len(gs(tables, playing)["apocalypse"]["cards"]) == 1
    # a bad level is refused next to the field, never a 500
    resp = post(tables, playing, "card/skip", {"level": "x"}, key="card-1-skip")
    assert resp.status_code == 422
