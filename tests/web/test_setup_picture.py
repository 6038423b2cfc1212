"""The setup picture (issue 35) agrees with the checklist beside it, for every game, player count and
option, in English and French: each piece's numbers are its checklist step's numbers, the seats are
the players, the options chosen show in both; the SVG parses as XML, stays within 15 KB compressed,
and a tick greys its pieces (full page, htmx fragment, without JavaScript). Same on every backend."""
from __future__ import annotations

import gzip
import html
import re
import xml.etree.ElementTree as ET

import pytest
from flask_babel import gettext

from companion.games.sins.rules import SIN_NAMES

from tests.conftest import HX

BUDGET = 15_000  # bytes, gzip-compressed, per picture
NAMES = ("Ana", "Bo", "Cyrielle", "Di", "Eve", "Fabien", "Gus")
SVG_RE = re.compile(r'<svg class="pic-svg".*?</svg>', re.S)
LI_RE = re.compile(r'<li class="tick[^"]*" id="([^"]+)">(.*?)</li>', re.S)


def text(fragment: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", fragment)).split())


def numbers(s: str) -> set[str]:
    return set(re.findall(r"\d+", s))


def picture_of(page: str) -> ET.Element:
    found = SVG_RE.findall(page)
    assert len(found) == 1, "one setup picture on the setup page"
    svg = found[0]
    assert len(gzip.compress(svg.encode())) <= BUDGET
    return ET.fromstring(svg)  # valid XML, or this raises


def pieces(svg: ET.Element, refs: bool = False) -> list[tuple]:
    """(checklist item id, the piece's text, greyed) for every piece of the picture; with `refs`,
    also whether its label names something listed elsewhere on the page (a hero)."""
    out = []
    for g in svg.iter("g"):
        if g.get("data-tick"):
            # A seat's number is its place in the seat order (checked against the names' order below).
            words = [" ".join(t.itertext()) for t in g.iter("text") if t.get("class") != "pic-num"]
            out.append((g.get("data-tick"), " ".join(" ".join(words).split()), "pic-done" in g.get("class"),
                        g.get("data-ref") is not None))
    return out if refs else [p[:3] for p in out]


def check(page: str, names) -> dict[str, str]:
    """The picture agrees with the checklist on this page; returns the checklist's items' text."""
    svg = picture_of(page)
    items = {key: text(body) for key, body in LI_RE.findall(page)}
    assert items, "the checklist is on the page"
    assert svg.get("aria-describedby") and f'id="{svg.get("aria-describedby")}"' in page
    assert svg.get("role") == "img" and svg.get("aria-label")
    found = pieces(svg, refs=True)
    assert found
    outside = text(SVG_RE.sub("", page))
    for item, words, _done, ref in found:
        assert item in items, f"a piece of {item}, which the checklist does not have"
        assert words, f"a piece of {item} with no label"
        if ref:  # a name (a hero): the page lists it, as the picture shows it
            assert words in outside, words
            continue
        missing = numbers(words) - numbers(items[item])
        assert not missing, f"{words!r} says {missing}, its step says {items[item]!r}"
    seats = [" ".join(" ".join(t.itertext()).split()) for t in svg.iter("text") if t.get("class") == "pic-name"]
    numbers_ = [int(t.text) for t in svg.iter("text") if t.get("class") == "pic-num"]
    assert sorted(numbers_) == list(range(1, len(names) + 1))
    seats = [name for _, name in sorted(zip(numbers_, seats))]  # in seat order
    assert len(seats) == len(names)
    for shown, name in zip(seats, names):
        assert shown == name or (shown.endswith("…") and name.startswith(shown[:-1])), (shown, name)
    for shown in seats:
        assert any(n == shown or (shown.endswith("…") and n.startswith(shown[:-1])) for n in names), shown
    return items


def setup_page(client, token, lang="en", htmx=False):
    headers = {"Accept-Language": lang, **(HX if htmx else {})}
    resp = client.get(f"/t/{token}/setup", headers=headers)
    assert resp.status_code == 200
    return resp.get_data(as_text=True)


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("n", [2, 3, 4, 5])
@pytest.mark.parametrize("pen", [False, True])
def test_sins_picture_matches_checklist(tables, client, n, pen, lang):
    names = NAMES[:n]
    token = tables.create("sins", names=names)
    page = setup_page(client, token, lang)
    check(page, names)
    assert "pic-done" not in page
    tables.post(token, "sins/sins/draw")
    if pen:
        tables.post(token, "sins/penitenziagite", {"on": "1"})
    tables.post(token, "sins/first/draw")
    page = setup_page(client, token, lang)
    items = check(page, names)
    svg = picture_of(page)
    a_piece = next(words for item, words, _ in pieces(svg) if item == "sins-step-A-item")
    # The sin types drawn are named in the picture exactly as in step A, in the page's language.
    chosen = tables.table(token).state["game"]["sins"]
    assert chosen
    with tables.app.test_request_context(headers={"Accept-Language": lang}):
        shown = [gettext(SIN_NAMES[sin]) for sin in chosen]
    for name in shown:
        assert name in a_piece and name in items["sins-step-A-item"]
    steps = {item for item, _, _ in pieces(svg)}
    assert ("sins-step-penitenziagite-cards-item" in steps) == pen
    assert ("sins-step-penitenziagite-score-card-item" in steps) == pen


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("n", [3, 4, 5, 6, 7])
def test_gibbon_picture_matches_checklist(tables, client, n, lang):
    names = NAMES[:n]
    token = tables.create("gibbon", names=names)
    check(setup_page(client, token, lang), names)
    tables.post(token, "gibbon/start", {"dealer": "2", "bookkeeper": "3"})
    page = setup_page(client, token, lang)
    check(page, names)
    jobs = [words for item, words, _ in pieces(picture_of(page)) if item == "tick-start-item"]
    assert len(jobs) == 3, "the dealer, the bookkeeper and who starts"


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("n", [2, 3, 4])
@pytest.mark.parametrize("move", [None, "flip", "swap", "gardens"])
def test_fivesails_picture_matches_checklist(tables, client, n, move, lang):
    names = NAMES[:n]
    token = tables.create("fivesails", names=names)
    if move and not (move == "gardens" and n < 4):
        tables.post(token, "fivesails/setup/line", {"what": move})
    page = setup_page(client, token, lang)
    check(page, names)
    # The City line in the picture is the line the page lists, in the same order.
    listed = [text(m) for m in re.findall(r'<span class="fs-loc-name">(.*?)</span>', page)]
    drawn = [words for item, words, _ in pieces(picture_of(page))
             if item in ("tick-core-line-item", "tick-oles-inn-item", "tick-gardens-item")]
    assert drawn == listed


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("n", [2, 3, 4, 5])
@pytest.mark.parametrize("story_type", ["terror", "corruption"])
def test_others_picture_matches_checklist(tables, client, n, story_type, lang):
    names = NAMES[:n]
    token = tables.create("others", names=names)
    check(setup_page(client, token, lang), names)
    tables.post(token, "others/sin", {"sin": "Pride", "acolytes": "Corrupted Nuns"})
    tables.post(token, "others/story", {"story": "Haven <Last> Stand", "story_type": story_type, "map": "Map & B"})
    page = setup_page(client, token, lang)
    items = check(page, names)
    svg = picture_of(page)
    shown = " ".join(words for _, words, _ in pieces(svg))
    assert "Haven <Last> Stand" in shown and "Map & B" in shown  # typed names, escaped, as typed
    assert ("setup-dark-past-item" in {i for i, _, _ in pieces(svg)}) == (story_type == "corruption")
    assert ("setup-dark-past-item" in items) == (story_type == "corruption")
    # Each hero in play is drawn in front of the player the team gives it to.
    heroes = [words for item, words, _ in pieces(svg) if item == "setup-team-item"]
    assert len(heroes) >= 2  # the Hero Reserve, and at least one hero in play


GAMES = [("sins", "sins/tick", "B", "sins-step-B-item"), ("gibbon", "gibbon/tick", "deal", "tick-deal-item"),
         ("fivesails", "fivesails/setup/tick", "decks", "tick-decks-item"),
         ("others", "others/setup/tick", "dashboards", "setup-dashboards-item")]


@pytest.mark.parametrize("game,path,step,item", GAMES)
def test_a_tick_greys_its_pieces(tables, client, game, path, step, item):
    token = tables.create(game, names=NAMES[:4])
    # With htmx: the fragment that comes back has the picture with the step's pieces greyed, only them.
    resp = tables.post(token, path, {"step": step, "done": "1"})
    assert resp.status_code == 200
    found = pieces(picture_of(resp.get_data(as_text=True)))
    assert {i for i, _, done in found if done} == {item}
    # Without JavaScript: the form posts, the page comes back with the same picture.
    resp = tables.post(token, path, {"step": step, "done": "0"}, htmx=False)
    assert resp.status_code == 303
    assert not any(done for _, _, done in pieces(picture_of(setup_page(client, token))))


@pytest.mark.parametrize("game,path,step,item", GAMES)
def test_a_bad_tick_is_refused_and_leaves_the_picture(tables, client, game, path, step, item):
    token = tables.create(game, names=NAMES[:4])
    resp = tables.post(token, path, {"step": "no-such-step", "done": "1"})
    assert 400 <= resp.status_code < 500
    assert not any(done for _, _, done in pieces(picture_of(setup_page(client, token))))


def test_the_picture_is_not_on_other_pages(tables, client):
    token = tables.create("sins", names=NAMES[:3])
    assert "pic-svg" not in client.get(f"/t/{token}/play").get_data(as_text=True)



@pytest.mark.parametrize("game,path,step,item", GAMES)
def test_the_view_only_link_shows_the_same_picture(tables, client, game, path, step, item):
    """A view-only link has no forms, but the same checklist and picture, ticks greyed alike."""
    token = tables.create(game, names=NAMES[:4])
    tables.post(token, path, {"step": step, "done": "1"})
    view = tables.table(token).view_token
    page = setup_page(client, view)
    assert "<form" not in page.split('id="live"', 1)[1].split("</main>", 1)[0]
    check(page, NAMES[:4])
    assert pieces(picture_of(page)) == pieces(picture_of(setup_page(client, token)))
    assert {i for i, _, done in pieces(picture_of(page)) if done} == {item}
