"""The result as an image (issue 35): a finished table of each game gives a PNG drawn from an SVG
whose text nodes a test reads back, and names, scores and winners there equal the table's result
as the game's own rules computed it. The routes read and never change; the view-only link sees the
image and changes nothing; bad input is a 4xx; drawing is cached by table version and rate-limited.

Plays are kept in the database (the group image reads one): the tests run on each backend."""
from __future__ import annotations

import io
import re
import xml.etree.ElementTree as ET

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.plays import picture
from tests.conftest import HX, text_of
from tests.web.test_groups import NAMES, finish_sins, finished_gibbon, new_group
from tests.web.test_play_details import details, finished_fivesails, others_in_group

NS = "{http://www.w3.org/2000/svg}"
MINUS = "\u2212"


def finished(game, tables, client):
    if game == "sins":
        token = tables.create("sins", names=NAMES)
        finish_sins(tables, token)
        return token
    if game == "gibbon":
        return finished_gibbon(tables)
    if game == "fivesails":
        return finished_fivesails(tables)
    group, _view = new_group(client)
    return others_in_group(tables, client, group)


def read(svg: str) -> dict:
    """The picture's words, read back from the SVG's text nodes."""
    root = ET.fromstring(svg)
    texts = lambda el, cls: [t.text or "" for t in el.iter(f"{NS}text") if t.get("class") == cls]  # noqa: E731
    rows = []
    for g in root.iter(f"{NS}g"):
        if g.get("class") == "row":
            rows.append({"name": texts(g, "name")[0], "score": (texts(g, "score") or [None])[0],
                         "side": (texts(g, "side") or [None])[0], "role": (texts(g, "role") or [""])[0],
                         "winner": g.get("data-winner") == "1", "rank": int(g.get("data-rank"))})
    return {"game": texts(root, "game"), "when": texts(root, "when"), "headline": " ".join(texts(root, "headline")),
            "detail": " ".join(texts(root, "detail")), "link": texts(root, "link"), "rows": rows,
            "all": " ".join(t.text or "" for t in root.iter(f"{NS}text"))}


def as_int(score: str) -> int:
    return int(score.replace(MINUS, "-"))


@pytest.mark.parametrize("game", ["sins", "gibbon", "fivesails", "others"])
def test_each_game_shares_its_result_as_an_image_that_says_the_tables_result(game, tables, client):
    token = finished(game, tables, client)
    doc = tables.table(token)
    result = doc.result
    svg_resp = client.get(f"/t/{token}/result.svg")
    assert svg_resp.status_code == 200 and svg_resp.mimetype == "image/svg+xml"
    svg = svg_resp.get_data(as_text=True)
    seen = read(svg)
    assert [r["name"] for r in seen["rows"]] == sorted((p["name"] for p in doc.state["players"]),
                                                       key=lambda n: (next(r["rank"] for r in seen["rows"] if r["name"] == n),
                                                                      [p["name"] for p in doc.state["players"]].index(n)))
    # The winners the game's own rules decided, and no one else.
    assert sorted(r["name"] for r in seen["rows"] if r["winner"]) == sorted(result["winners"])
    assert all(name in seen["headline"] for name in result["winners"])
    if game == "others":
        side = doc.state["game"]["winner"]
        assert side == "heroes" and seen["headline"].startswith("The heroes win")
        sins = doc.state["game"]["sins_player"]
        by_id = {p["name"]: p["id"] for p in doc.state["players"]}
        assert {r["name"]: r["side"] for r in seen["rows"]} == {
            n: ("Sins player" if by_id[n] == sins else "Hero") for n in by_id}
        assert all(r["score"] is None for r in seen["rows"])
    else:
        assert {r["name"]: as_int(r["score"]) for r in seen["rows"]} == {s["name"]: s["points"] for s in result["scores"]}
        ranks = [r["rank"] for r in seen["rows"]]
        assert ranks == sorted(ranks) and all(r["rank"] == 1 for r in seen["rows"] if r["winner"])
    assert seen["game"] == [{"sins": "7 - The Sins", "gibbon": "Sinful Gibbon", "fivesails": "7th Sea: City of Five Sails",
                             "others": "The Others: 7 Sins"}[game]]
    assert re.search(r"\b20\d\d\b", seen["when"][0])
    # The PNG is that SVG, drawn.
    png = client.get(f"/t/{token}/result.png")
    assert png.status_code == 200 and png.mimetype == "image/png"
    assert png.get_data() == picture.render_png(svg)
    from PIL import Image

    with Image.open(io.BytesIO(png.get_data())) as im:
        assert im.format == "PNG" and im.width == picture.WIDTH * picture.ZOOM
    # No link in it unless asked for: neither of the table's tokens.
    body = svg + png.headers.get("Content-Disposition", "")
    assert token not in body and doc.view_token not in body and not seen["link"]


def test_the_sins_image_reads_as_the_share_text_does(tables, client):
    token = finished("sins", tables, client)
    seen = read(client.get(f"/t/{token}/result.svg").get_data(as_text=True))
    assert seen["headline"] == f"Chiara wins with {MINUS}8"
    assert seen["detail"] == f"Fewest points win: the Abyss scored {MINUS}1"
    assert [(r["name"], r["score"], r["rank"]) for r in seen["rows"]] == [
        ("Chiara", f"{MINUS}8", 1), ("Margherita", "0", 2), ("Alberto", "1", 3), ("Luca", "8", 4)]


def test_french_has_the_same_layout_in_its_own_words(tables, client):
    token = finished("others", tables, client)
    en = client.get(f"/t/{token}/result.svg").get_data(as_text=True)
    client.set_cookie("lang", "fr", domain="companion.test")
    fr_resp = client.get(f"/t/{token}/result.svg")
    fr = fr_resp.get_data(as_text=True)
    assert "Les héros gagnent" in read(fr)["headline"] and "Joueur Péché" in read(fr)["all"]
    assert "Compagnon de table" in fr and "Héros" in fr

    def layout(svg):
        return [(el.tag, el.get("class"), el.get("x"), el.get("y")) for el in ET.fromstring(svg).iter()]
    assert layout(en) == layout(fr)
    client.delete_cookie("lang", domain="companion.test")
    assert fr_resp.headers["ETag"] != client.get(f"/t/{token}/result.svg").headers["ETag"]


def test_the_view_only_link_is_in_the_image_only_when_asked_and_never_the_edit_link(tables, client):
    token = finished("sins", tables, client)
    view = tables.table(token).view_token
    for tok in (token, view):
        seen = read(client.get(f"/t/{tok}/result.svg?link=1").get_data(as_text=True))
        assert seen["link"] == [f"http://companion.test/t/{view}"]
        assert token not in seen["all"]
        plain = client.get(f"/t/{tok}/result.svg").get_data(as_text=True)
        assert view not in plain and token not in plain
    assert client.get(f"/t/{token}/result.png?link=1").get_data() != client.get(f"/t/{token}/result.png").get_data()


def test_the_view_only_link_sees_the_image_and_changes_nothing(tables, client):
    token = finished("sins", tables, client)
    view = tables.table(token).view_token
    before = tables.version(token)
    assert client.get(f"/t/{view}/result.png").status_code == 200
    html = client.get(f"/t/{view}").get_data(as_text=True)
    assert f'src="/t/{view}/result.png"' in html and "Share the result" in html and token not in html
    # The image routes take no change at all, from either link.
    for tok in (view, token):
        for path in ("result.png", "result.svg"):
            assert client.post(f"/t/{tok}/result.png").status_code == 405
            assert client.open(f"/t/{tok}/{path}", method="PUT").status_code == 405
    # And nothing that changes the table works through the view-only link.
    assert client.post(f"/t/{view}/rematch").status_code == 403
    assert details(tables, view, {"note": "sneaky"}, page="score").status_code == 403
    assert tables.post(view, "status", {"status": "playing"}).status_code == 403
    assert tables.post(view, "undo").status_code == 403
    assert tables.version(token) == before and tables.table(token).status == "finished"


def test_full_page_and_fragment_offer_the_share(tables, client):
    token = finished("gibbon", tables, client)
    page = client.get(f"/t/{token}")
    html = page.get_data(as_text=True)
    assert page.status_code == 200
    assert f'action="/t/{token}/result.png" data-share-image' in html and 'name="link" value="1"' in html
    assert re.search(r'<img class="result-image" src="/t/[^"]+/result\.png" width="540" height="\d+"\s+alt="Sinful Gibbon, ', html)
    fragment = client.get(f"/t/{token}", headers=HX).get_data(as_text=True)
    assert "<html" not in fragment and "Share the result" in fragment and "data-works-offline" in fragment
    # Without JavaScript the form is a GET that downloads the image.
    dl = client.get(f"/t/{token}/result.png?dl=1&link=1")
    assert dl.status_code == 200 and dl.headers["Content-Disposition"].startswith("attachment; filename=\"result-gibbon-")


@pytest.mark.parametrize("query", ["link=yes", "link=0", "dl=2", "link=1%00", "dl=%F0%9F%98%80"])
def test_bad_input_is_a_400_never_a_500(tables, client, query):
    token = finished("sins", tables, client)
    assert client.get(f"/t/{token}/result.png?{query}").status_code == 400
    assert client.get(f"/t/{token}/result.svg?{query}").status_code == 400


def test_no_image_before_the_end_or_for_an_unknown_link(tables, client):
    token = tables.create("sins", names=NAMES)
    assert client.get(f"/t/{token}/result.png").status_code == 404
    assert client.get("/t/nonsense/result.png").status_code == 404
    assert client.get("/t/" + "A" * 24 + "/result.svg").status_code == 404
    assert client.get("/g/" + "A" * 24 + "/plays/1/result.png").status_code == 404


def test_the_group_page_shows_the_same_image_for_each_play(tables, client):
    group, view = new_group(client)
    token = others_in_group(tables, client, group)
    html = client.get(f"/g/{view}").get_data(as_text=True)
    src = re.search(rf'src="(/g/{view}/plays/(\d+)/result\.png)"', html)
    assert src and "The result as an image" in html
    from_group = client.get(src.group(1))
    assert from_group.status_code == 200 and from_group.mimetype == "image/png"
    assert from_group.get_data() == client.get(f"/t/{token}/result.png").get_data()
    assert from_group.headers["ETag"] == client.get(f"/t/{token}/result.png").headers["ETag"]
    assert client.get(f"/g/{group}/plays/{src.group(2)}/result.png").get_data() == from_group.get_data()
    # A play of another group (or none) is not found through this group's link.
    other, _other_view = new_group(client, "Other crew")
    assert client.get(f"/g/{other}/plays/{src.group(2)}/result.png").status_code == 404
    assert client.get(f"/g/{view}/plays/999999/result.png").status_code == 404
    assert client.get(f"/g/{view}/plays/x/result.png").status_code == 404
    assert client.post(src.group(1)).status_code == 405


def test_etag_follows_the_table_version(tables, client):
    token = finished("sins", tables, client)
    first = client.get(f"/t/{token}/result.png")
    etag = first.headers["ETag"]
    assert first.headers["Cache-Control"] == "no-store"  # behind a link, as every such page (issue 27)
    again = client.get(f"/t/{token}/result.png", headers={"If-None-Match": etag})
    assert again.status_code == 304 and not again.get_data()
    assert details(tables, token, {"note": "A close one."}, page="score").status_code == 200
    fresh = client.get(f"/t/{token}/result.png", headers={"If-None-Match": etag})
    assert fresh.status_code == 200 and fresh.headers["ETag"] != etag


def test_drawing_is_rate_limited_per_client_and_cache_hits_are_free(app_with):
    from tests.conftest import Tables

    app = app_with(RATELIMIT_ENABLED=True, LIMIT_RESULT_IMAGES="2 per minute")
    client = app.test_client()
    tables = Tables(app, client)
    token = finished("sins", tables, client)
    for _ in range(5):  # one drawing, then the memory cache: counted once
        assert client.get(f"/t/{token}/result.png").status_code == 200
    assert client.get(f"/t/{token}/result.svg?link=1").status_code == 200  # the second drawing
    over = client.get(f"/t/{token}/result.png", headers={"Accept-Language": "fr"})
    assert over.status_code == 429 and int(over.headers["Retry-After"]) >= 1
    assert client.get(f"/t/{token}/result.png").status_code == 200  # still in memory: free
    other = client.get(f"/t/{token}/result.png", headers={"Accept-Language": "fr"}, environ_base={"REMOTE_ADDR": "10.0.0.7"})
    assert other.status_code == 200


# -- names can hold anything -------------------------------------------------------------------------

HOSTILE = ["<script>x</script>&\"q\"'a'", "שלום עולם", "مرحبا بالعالم", "👩‍👩‍👧‍👦🎲🏆",
           "Z̷̢a̸l̵g̶o̷", "\u202eevil\u202c", "W" * 30, "漢字のなまえ", "e\u0301" * 15]


@pytest.mark.parametrize("names", [HOSTILE[:4], HOSTILE[4:8], HOSTILE[5:9]])
def test_any_name_is_escaped_shortened_and_drawn(tables, client, names):
    token = tables.create("sins", names=names)
    finish_sins(tables, token, scores={p["name"]: i for i, p in enumerate(tables.table(token).state["players"])})
    svg = client.get(f"/t/{token}/result.svg").get_data(as_text=True)
    seen = read(svg)  # well-formed XML, whatever the names
    assert "<script>" not in svg and "\u202e" not in svg
    stored = [p["name"] for p in tables.table(token).state["players"]]
    assert len(seen["rows"]) == len(stored)
    for row in seen["rows"]:
        assert row["name"] in stored or (row["name"].endswith("…") and any(s.startswith(row["name"][:-1]) for s in stored))
    assert client.get(f"/t/{token}/result.png").status_code == 200


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(names=st.lists(st.text(min_size=1, max_size=200), min_size=1, max_size=14),
       headline=st.text(max_size=400))
def test_the_drawing_never_fails_and_stays_in_its_width(names, headline):
    words = picture.Words(game="7 - The Sins", when="x · Sun 29 Nov 2026", headline=headline, detail=headline,
                          measure="Points", sides={}, link_label="See:", footer="Table Companion")
    rows = [picture.Row(name=n, colour="white", rank=i + 1, winner=i == 0, score=str(-i * 1000000),
                        side=None, role=n) for i, n in enumerate(names)]
    svg = picture.result_svg(words, rows, link="http://x/t/" + "A" * 24)
    root = ET.fromstring(svg)
    for t in root.iter(f"{NS}text"):
        if t.get("class") in ("name", "role", "headline", "detail"):
            assert picture.width(t.text or "", float(t.get("font-size")), t.get("font-weight") == "bold") \
                <= picture.WIDTH - 2 * picture.PAD + 0.01
    assert len([g for g in root.iter(f"{NS}g") if g.get("class") == "row"]) == min(len(names), picture.MAX_ROWS)
    assert picture.render_png(svg)[:8] == b"\x89PNG\r\n\x1a\n"
