"""A crawler over every form, query string and JSON API field, with the hostile and odd values the
probe of issue 14 used: no answer may be a 5xx.

For each game it opens a table, reads every page's forms as a phone gets them (action, fields and
their current values), then sends each form once per mutation with one field replaced (the field
changes with each mutation, so every field meets several of them) and once with every field
replaced. Then the same for each page's query string and each JSON API's fields."""
from __future__ import annotations

import itertools
from html.parser import HTMLParser

import pytest
from werkzeug.datastructures import MultiDict

from tests.conftest import HX, Tables

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


def crawl_forms(client, url, seen: set):
    """Send every form of `url` not sent before (same action, same fields) with mutated fields."""
    html = client.get(url).get_data(as_text=True)
    sent = 0
    for action, fields in forms_of(html):
        names = [n for n, _v in fields if n != "csrf_token"]
        shape = (action.split("/t/", 1)[-1].split("/", 1)[-1], tuple(names))
        if not names or shape in seen:
            continue
        seen.add(shape)
        # Each field meets two mutations (a different pair for each field, across the crawl); then
        # every field at once meets three more. Half the requests come as htmx, half without.
        plan = [(target, MUTATIONS[next(_mutation) % len(MUTATIONS)]) for target in names for _ in range(2)]
        plan += [(None, MUTATIONS[next(_mutation) % len(MUTATIONS)]) for _ in range(3)]
        for i, (target, mutation) in enumerate(plan):
            body = [(n, v if n == "csrf_token" or (target is not None and n != target) else mutation)
                    for n, v in fields]
            resp = client.post(action, data=MultiDict(body), headers=HX if i % 2 else {})
            no_5xx(resp, (action, target, mutation[:20]))
            sent += 1
    return sent


@pytest.mark.parametrize("game", list(GAMES))
def test_every_form_field_takes_hostile_input(app, client, game):
    tables = Tables(app, client)
    token = tables.create(game, names=GAMES[game])
    pages = [p.slug for p in __import__("companion.games", fromlist=["GAMES"]).GAMES[game].pages] + ["table"]
    sent, seen = 0, set()
    for slug in pages:
        sent += crawl_forms(client, f"/t/{token}/{slug}", seen)
        for i, mutation in enumerate(MUTATIONS[:25]):
            name = ("since", "round", "page")[i % 3]
            no_5xx(client.get(f"/t/{token}/{slug}", query_string={name: mutation}, headers=HX if i % 2 else {}),
                   (slug, name, mutation[:20]))
    assert sent > 40  # the crawler really found forms


def test_the_forms_outside_tables(client):
    sent, seen = 0, set()
    for url in ("/", "/new/sins", "/new/others", "/fivesails/duel", "/fivesails/deck"):
        sent += crawl_forms(client, url, seen)
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
