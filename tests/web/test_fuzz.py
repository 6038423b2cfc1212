"""A crawler over every form, query string and JSON API field, with the hostile and odd values the
probe of issue 14 used: no answer may be a 5xx.

For each game it opens a table, reads every page's forms as a phone gets them (action, fields and
their current values), then sends each form once per mutation with one field replaced (the field
changes with each mutation, so every field meets several of them) and once with every field
replaced. Then the same for each page's query string and each JSON API's fields.

Many forms only appear once a game is under way (a turn to react to, a duel in progress, scores to
override), so each game is crawled at several stages, reached through the real routes by one
staging helper per game (`STAGES`). A stage's test walks the helper up to its stage, noting the
form shapes of the stages before it without sending them, then fuzzes only the shapes that are new:
each stage is its own test (xdist spreads them), and a form is fuzzed at the first stage that shows
it. A stage earns its place by showing new forms, and its test says which; a finished game shows
none that play did not (checked for all four games), so it is not a stage."""
from __future__ import annotations

import itertools
from html.parser import HTMLParser
from typing import NamedTuple

import pytest
from werkzeug.datastructures import MultiDict

from tests.conftest import HX, Tables, text_of

# On SQLite: hostile values reach the columns' types, which refuse on SQLite what PostgreSQL refuses
# (companion/stored.py, tests/web/test_stored_values.py; docs/testing.md).

MUTATIONS = [
    "", " ", "²", "①", "٣", "１２", "-1", "+1", "0", "1.5", "1e9", "9" * 5000, "99999999999999999999",
    "-99999999999999999999", "\x00", "A\x00B", "a\r\nb", "[" * 3000 + "]" * 3000, "{" * 3000, "\u202eevil",
    "\u200b\u200b", "\u00a0\u3000\t", "<script>alert(1)</script>", "' OR 1=1 --", "%s%(x)s{0}", "x" * 70000,
    "\ud800".encode("utf-8", "surrogatepass").decode("utf-8", "replace"), "null", "true", "[]", "{}",
]
JSON_MUTATIONS = [None, True, -1, 1.5, 10 ** 40, -(10 ** 40), float("1e308"), "²", "٣", "9" * 5000, [], {},
                  [[[]]], {"a": {"b": {}}}, "\x00", "\u202e", "x" * 5000]
GAMES = {"sins": ("Ana", "Bo", "Cy", "Di"), "gibbon": ("Ana", "Bo", "Cy"), "fivesails": ("Ana", "Bo", "Cy"),
         "others": ("Sam", "Ana", "Bo")}
SKIP_ACTIONS = ("/delete", "/link/rotate", "/archive")  # they end the crawl of a table; tested on their own


class Forms(HTMLParser):
    """The POST forms of a page: (action, [(name, value)...])."""

    def __init__(self):
        super().__init__()
        self.forms: list[tuple[str, list[tuple[str, str]]]] = []
        self._current = None
        self._select = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form" and (a.get("method") or "get").lower() == "post":
            self._current = (a.get("action") or "", [])
            self.forms.append(self._current)
        elif self._current is not None and a.get("name"):
            if tag == "input" and a.get("type") in ("checkbox", "radio") and "checked" not in a:
                self._current[1].append((a["name"], ""))
            elif tag in ("input", "textarea", "button"):
                self._current[1].append((a["name"], a.get("value") or ""))
            elif tag == "select":
                self._select = a["name"]
                self._current[1].append((a["name"], ""))
        if tag == "option" and self._select and self._current is not None:
            fields = self._current[1]
            if fields and fields[-1][0] == self._select and fields[-1][1] == "":
                fields[-1] = (self._select, a.get("value") or "")

    def handle_endtag(self, tag):
        if tag == "form":
            self._current = None
        elif tag == "select":
            self._select = None


def forms_of(html: str):
    parser = Forms()
    parser.feed(html)
    return [(action, fields) for action, fields in parser.forms if not action.endswith(SKIP_ACTIONS)]


def no_5xx(resp, what):
    assert resp.status_code < 500, (what, resp.status_code, resp.get_data(as_text=True)[:500])


_mutation = itertools.count()


def form_shapes(client, url):
    """The POST forms of `url` as a phone gets them: (shape, action, fields). Forms of one shape
    (the same route with the same fields, e.g. one per player) are one shape, whichever table."""
    html = client.get(url).get_data(as_text=True)
    for action, fields in forms_of(html):
        names = [n for n, _v in fields if n != "csrf_token"]
        if names:
            yield (action.split("/t/", 1)[-1].split("/", 1)[-1], tuple(names)), action, fields


# Sent after every other form of a stage: they take the stage's own changes back.
GOES_BACK = ("/undo", "/history/back-to")


def crawl_forms(client, urls, seen: set):
    """Send every form of these pages not sent before (same action, same fields) with mutated fields.
    Every page is read before anything is sent, so the forms are those of the table as it stood."""
    found = [form for url in urls for form in form_shapes(client, url)]
    found.sort(key=lambda form: form[1].endswith(GOES_BACK))
    sent = 0
    for shape, action, fields in found:
        if shape in seen:
            continue
        seen.add(shape)
        # Each field meets two mutations (a different pair for each field, across the crawl); then
        # every field at once meets three more. Half the requests come as htmx, half without. A name
        # sent several times (radio buttons, a box and its chips) is one field: all its values change.
        names = list(dict.fromkeys(shape[1]))
        plan = [(target, MUTATIONS[next(_mutation) % len(MUTATIONS)]) for target in names for _ in range(2)]
        plan += [(None, MUTATIONS[next(_mutation) % len(MUTATIONS)]) for _ in range(3)]
        for i, (target, mutation) in enumerate(plan):
            body = [(n, v if n == "csrf_token" or (target is not None and n != target) else mutation)
                    for n, v in fields]
            resp = client.post(action, data=MultiDict(body), headers=HX if i % 2 else {})
            no_5xx(resp, (action, target, mutation[:20]))
            sent += 1
    return sent


# -- the stages of each game, reached through the real routes ---------------------------------------

class Stage(NamedTuple):
    """A point a staging helper stops at: its name, and the actions whose forms first show there (the
    proof that the stage was reached and that the crawl found forms no earlier stage has)."""

    name: str
    shows: frozenset


def stage(name, *shows):
    return Stage(name, frozenset(shows))


def step(tables, token, path, data=None, *, page=None):
    """One action as a phone sends it; the stages after it depend on it, so it must land."""
    resp = tables.post(token, path, data, page=page)
    assert resp.status_code == 200, (path, resp.status_code, text_of(resp)[:400])


def sins_stages(tables, token):
    """7 - The Sins: setup, play under way, the third Last Judgment out (Penitenziagite), scoring."""
    yield stage("setup", "sins/sins", "sins/start", "players/rename")
    step(tables, token, "sins/sins", {"sin": ["superbia", "luxuria", "invidia", "ira", "acedia", "gula"]})
    step(tables, token, "sins/penitenziagite", {"on": 1})
    step(tables, token, "sins/start")
    step(tables, token, "sins/stone", {"player": 1, "delta": 1}, page="play")
    step(tables, token, "sins/turn", page="play")
    # The count boxes follow the sin types chosen; undo and going back follow the changes made.
    yield stage("play", "sins/abyss", "sins/reserve", "undo", "history/back-to")
    for _ in range(3):
        step(tables, token, "sins/judgment", {"delta": 1}, page="play")
    yield stage("last-judgment", "sins/third")
    step(tables, token, "sins/abyss", {"invidia": 6, "gula": 2, "acedia": 1, "ira": 1}, page="score")
    for pid, counts in enumerate(({"invidia": 2, "acedia": 4}, {"superbia": 3}, {"ira": 3}, {"gula": 1}), 1):
        step(tables, token, "sins/reserve", {"player": pid, "stones": 1 if pid == 1 else 0, **counts}, page="score")
    step(tables, token, "sins/stones", {"player": 1, "stones_on": ["invidia"]}, page="score")
    yield stage("scoring", "sins/stones", "sins/stones/best")


def gibbon_stages(tables, token):
    """Sinful Gibbon: setup, the first round to count, a round counted with its swap due."""
    yield stage("setup", "gibbon/start", "gibbon/tick")
    step(tables, token, "gibbon/start", {"dealer": "1", "bookkeeper": "2"})
    yield stage("started", "gibbon/round", "undo")
    data = {"round": 1, "braveheart": "", "hat": "", "p1_low": 1, "p2_low": 0, "p3_low": 0}
    step(tables, token, "gibbon/round", data, page="round")
    yield stage("round-counted", "gibbon/swap", "gibbon/round/edit", "gibbon/round/remove", "history/back-to")


def fivesails_stages(tables, token):
    """City of Five Sails: setup, a Day under way, Planning, a duel under way."""
    from companion.games.fivesails import rules

    def gs():
        return tables.table(token).state["game"]

    yield stage("setup", "fivesails/start", "fivesails/duel/start", "fivesails/renown")
    step(tables, token, "fivesails/start")
    yield stage("day", "fivesails/day/next", "fivesails/day/jump", "fivesails/control", "undo")
    while rules.current_phase(gs()) != rules.PLANNING:
        step(tables, token, "fivesails/day/next", {"at": rules.day_position(gs())}, page="day")
    yield stage("planning", "fivesails/initiative", "history/back-to")
    step(tables, token, "fivesails/initiative", {"init-1": 10, "init-2": 20, "init-3": 30}, page="day")
    step(tables, token, "fivesails/duel/start", {
        "challenger.name": "Kaspar", "challenger.duel_stat": 3, "challenger.resolve": 6, "challenger.wounds": 0,
        "challenger.finesse": 2, "challenger.player": "1", "challenger.leader": "1", "defender.name": "Soline",
        "defender.duel_stat": 2, "defender.resolve": 5, "defender.wounds": 0, "defender.finesse": 3,
        "defender.player": "2", "technique_thrust": 0, "answer": "accept"}, page="duel")
    step(tables, token, "fivesails/duel/round", {"riposte": 1, "parry": 1, "thrust": 2, "play": "card"}, page="duel")
    yield stage("mid-duel", "fivesails/duel/round", "fivesails/duel/takeback", "fivesails/duel/close")


def others_stages(tables, token):
    """The Others: 7 Sins: setup, playing, a turn taken with Voluntary Corruption pending, a fight open,
    then rolled, a hero dead with an Apocalypse card due."""
    def gs():
        return tables.table(token).state["game"]

    def hero(hid):
        return next(h for h in gs()["heroes"] if h["id"] == hid)

    def act(path, data=None):
        page = ("heroes" if path in ("forced", "innocents", "voluntary", "wound", "stats") else
                "fight" if path.startswith("fight") else
                "apocalypse" if path in ("track", "apocalypse", "card") else "round")
        step(tables, token, f"others/{path}", data, page=page)

    yield stage("setup", "others/story", "others/team", "others/start", "others/track")
    act("story", {"story": "Haven's Last Stand", "story_type": "corruption", "map": ""})
    act("start")
    yield stage("playing", "others/turn", "others/mission/note", "others/wound", "others/fight/start", "undo")
    first, second = gs()["lineup"][:2]
    act("turn", {"hero": first, "value": 0})
    for _ in range(5):
        act("forced", {"hero": first})
    act("innocents", {"hero": first, "delta": 1})
    act("voluntary", {"hero": first})
    yield stage("turn-and-corruption", "others/reaction", "others/turn/back", "others/voluntary/cancel",
                "others/roll-done", "others/alert", "others/dark-past")
    # The fight helper needs the hero's printed stats before it offers the results (issue 28).
    act("stats", {"hero": second, "name": "Karl", "fight": 2, "skill": 2, "defense": 3})
    act("fight/start", {"hero": second, "kind": "fight"})
    yield stage("fight", "others/fight/prepare", "others/fight/resolve", "others/fight/close")
    act("fight/prepare", {"stat": 2, "base_defense": 1, "teammates": 1, "extra_dice": 1, "extra_defense": 1,
                          "extra_hits": 0, "monsters": 5, "pentagrams": 1, "sin_extra": 0})
    act("fight/resolve", {"hits": 4, "faith": 1, "flex_counter": 1, "sin_hits": 4, "sin_corruption": 1})
    yield stage("fight-rolled", "others/fight/apply")
    act("fight/close")
    while hero(second)["status"] == "play":
        act("wound", {"hero": second, "slot": min(set(range(1, 8)) - set(hero(second)["wounds"]))})
    track = {f"{field}_{n}": 0 for n in range(1, 8) for field in ("reactions", "sin_dice")}
    act("track", {**track, **{f"effect_{n}": "" for n in range(1, 8)}, "card_2": "y", "card_4": "y"})
    # Level 2's card revealed (the Hell Club can take it away), level 4's card due.
    for _ in range(2):
        act("apocalypse", {"delta": 1})
    act("card", {"level": 2, "name": "Bloodbath", "hell_club": "The Butcher"})
    for _ in range(2):
        act("apocalypse", {"delta": 1})
    yield stage("death-and-apocalypse", "others/replace", "others/card", "others/card/skip", "others/hell-club",
                "others/track/save")


# Each game's staging helper and the stages it stops at, in order (each stage is a test of its own).
STAGES = {
    "sins": (sins_stages, ("setup", "play", "last-judgment", "scoring")),
    "gibbon": (gibbon_stages, ("setup", "started", "round-counted")),
    "fivesails": (fivesails_stages, ("setup", "day", "planning", "mid-duel")),
    "others": (others_stages, ("setup", "playing", "turn-and-corruption", "fight", "fight-rolled",
                               "death-and-apocalypse")),
}


def pages_of(game, token):
    """The table's pages: the game's own, the players' table page and the history."""
    from companion.games import GAMES as REGISTRY

    return [f"/t/{token}/{slug}" for slug in [p.slug for p in REGISTRY[game].pages] + ["table", "history"]]


@pytest.mark.parametrize("game, stage_name", [pytest.param(g, s, id=f"{g}-{s}") for g in GAMES
                                              for s in STAGES[g][1]])
def test_every_form_field_takes_hostile_input(app, client, game, stage_name):
    tables = Tables(app, client)
    token = tables.create(game, names=GAMES[game])
    helper, names = STAGES[game]
    walk = helper(tables, token)
    seen: set = set()
    for index, (expected, reached) in enumerate(zip(names, walk)):
        assert reached.name == expected  # the helper stops where STAGES says, in order
        if expected == stage_name:
            break
        # An earlier stage: its forms are its own test's to fuzz, so they are not sent again here.
        for url in pages_of(game, token):
            seen.update(shape for shape, _action, _fields in form_shapes(client, url))
    assert reached.name == stage_name
    before = set(seen)
    sent = crawl_forms(client, pages_of(game, token), seen)
    # The query strings: every mutation on every page at setup, then a different third of them at
    # each later stage (the Heroes page's ?hero= and the counting page's ?round= only mean something
    # once the game is under way).
    queries = range(25) if index == 0 else range(8 * index, 8 * index + 8)
    for url in pages_of(game, token):
        for i in queries:
            name, mutation = ("since", "round", "page", "hero")[i % 4], MUTATIONS[i % 25]
            no_5xx(client.get(url, query_string={name: mutation}, headers=HX if i % 2 else {}),
                   (url, name, mutation[:20]))
    # The crawler really found and sent this stage's new forms (a stage not reached shows none of them).
    fuzzed = {action for action, _fields in seen - before}
    assert reached.shows <= fuzzed, (sorted(reached.shows - fuzzed), sorted(fuzzed))
    if stage_name == names[-1]:
        assert next(walk, None) is None, "the helper has a stage that STAGES does not list"


def test_the_forms_outside_tables(client):
    sent = crawl_forms(client, ["/", "/new/sins", "/new/others", "/fivesails/duel", "/fivesails/deck"], set())
    for mutation in MUTATIONS:
        no_5xx(client.get("/rules/search", query_string={"q": mutation, "game": mutation}), mutation[:20])
        no_5xx(client.get("/api/v1/rules/search", query_string={"q": mutation, "game": mutation}), mutation[:20])
    assert sent > 20


API = {
    "/api/v1/sins/score": {"players": [{"name": "Ana", "sins": {"superbia": 1}}, {"name": "Bo"}], "abyss": {}},
    "/api/v1/gibbon/round": {"players": [{"low": 1, "high": 2}, {"low": 0}, {"low": 3, "hat": True}]},
    "/api/v1/fivesails/duel": {"setup": {"challenger": {"renown": 1}, "defender": {"renown": 2}}, "rounds": [{}]},
    "/api/v1/others/corruption": {"level": 2, "slots": [1, 2]},
}


def _paths(value, path=()):
    """Every path into a JSON document, leaves and containers alike."""
    yield path
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _paths(v, path + (i,))


def _replace(doc, path, new):
    if not path:
        return new
    import copy

    doc = copy.deepcopy(doc)
    node = doc
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = new
    return doc


@pytest.mark.parametrize("url", list(API))
def test_every_api_field_takes_hostile_input(client, url):
    body = API[url]
    for path in _paths(body):
        for mutation in JSON_MUTATIONS:
            no_5xx(client.post(url, json=_replace(body, path, mutation)), (url, path, repr(mutation)[:20]))
    for raw in ("[" * 5000 + "]" * 5000, "{" * 5000, '{"a": 1', "\x00", "9" * 5000, '"\\ud800"', "NaN"):
        no_5xx(client.post(url, data=raw, content_type="application/json"), (url, raw[:20]))
    no_5xx(client.post(url, data="level=1"), url)


# -- groups, merges, presets, import and rematch (issue 27) ---------------------------------------
#
# The probe's values where the crawler above does not reach: a client's bad value is a 4xx (never a
# 503 "cannot save", never a 500), on both databases, and names are stored cleaned.

NAME_MUTATIONS = ["\x00", "A\x00B", "\u202eevil", "\u200b\u200b", "\x1b[31mred\x07", "\u2067\u2066", "x" * 5000,
                  "  ", "\u00a0\u3000\t", "<b>b</b>", "\ud800".encode("utf-8", "surrogatepass").decode("utf-8", "replace")]
NUMBER_TEXTS = ["NaN", "Infinity", "-Infinity", "1e999", "9" * 5000, "99999999999999999999"]


def _group(client) -> str:
    resp = client.post("/g", data={"name": "Friday"})
    assert resp.status_code == 303
    return resp.headers["Location"].rsplit("/", 1)[1]


def test_group_names_and_merges_take_hostile_input(app, client):
    from companion.models import Group

    token = _group(client)
    for raw in NAME_MUTATIONS + MUTATIONS:
        no_5xx(client.post("/g", data={"name": raw}), ("new group", raw[:20]))
        no_5xx(client.post(f"/g/{token}/rename", data={"name": raw}), ("rename", raw[:20]))
        no_5xx(client.post(f"/g/{token}/merge", data={"spelling": raw, "into": "Ana"}), ("merge", raw[:20]))
        no_5xx(client.post(f"/g/{token}/merge", data={"spelling": "Bo", "into": raw}), ("merge into", raw[:20]))
    with app.app_context():
        from companion.text import clean_line

        from companion.db import get_session

        names = [g.name for g in get_session().query(Group).all()]
    assert names and all(n == clean_line(n) for n in names), names


def _export(client, tables, game="sins") -> dict:
    import json

    token = tables.create(game, names=GAMES[game])
    resp = client.get(f"/t/{token}/export.json")
    assert resp.status_code == 200
    return json.loads(resp.get_data(as_text=True))


def test_imports_take_hostile_names_and_numbers(app, client):
    import json

    from companion.models import Table

    data = _export(client, Tables(app, client))
    for raw in NAME_MUTATIONS:
        doc = json.loads(json.dumps(data))
        doc["document"]["name"] = raw
        no_5xx(client.post("/import", data={"text": json.dumps(doc)}), ("import name", raw[:20]))
    text = json.dumps(data)
    for number in NUMBER_TEXTS:
        # A number where the file holds one: "version", and the first player's id.
        for raw in (text.replace('"id": 1', f'"id": {number}', 1), text.replace('"version": ', f'"version": {number}, "x": ', 1)):
            no_5xx(client.post("/import", data={"text": raw}), ("import number", number[:20]))
    with app.app_context():
        from companion.db import get_session
        from companion.text import clean_line

        names = [t.name for t in get_session().query(Table).all()]
    assert all(n == clean_line(n) for n in names), names


def test_rematch_and_presets_take_hostile_input(app, client):
    tables = Tables(app, client)
    token = tables.create("sins", names=GAMES["sins"])
    for raw in MUTATIONS[:20]:
        no_5xx(client.post(f"/t/{token}/rematch", data={"v": raw}), ("rematch", raw[:20]))
    others = tables.create("others", names=GAMES["others"])
    for raw in NAME_MUTATIONS + MUTATIONS:
        for path in ("rename", "update", "delete"):
            no_5xx(client.post(f"/t/{others}/others/track/preset/{path}",
                               data={"v": tables.version(others), "preset": raw, "name": raw}),
                   ("preset", path, raw[:20]))
        no_5xx(client.post(f"/t/{others}/others/track/save", data={"v": tables.version(others), "name": raw}),
               ("preset save", raw[:20]))
