"""Hostile table files: real exports of each game at every stage, mutated hundreds of times (wrong
types deep inside lists, huge and negative numbers, NaN and Infinity, keys missing or added, `{}`
inside lists, a document claiming another game, players swapped), posted to /import. No answer is
a 5xx; and every file that is accepted makes a table whose pages, exports and group page, and a
representative set of its actions (forms its pages show, sent as a phone would: over a run, every
action any page offered), never answer a 5xx either.

The declared shapes (games/<game>/shape.py) are what makes this hold: an accepted file is one the
game's own model allows. A game without a model yet is skipped, so it is covered once it has one.
"""
from __future__ import annotations

import copy
import json
import math
import random
import re
from html.parser import HTMLParser
from urllib.parse import urlsplit

import pytest

from companion.games import GAMES
from tests.web.test_groups import new_group
from tests.web.test_import_shapes import exports, slugs

# On SQLite: what a database does here is store (or refuse) the documents, and both take the same
# values (tests/web/test_stored_values.py; the reasoning is in docs/testing.md).

MUTATIONS = 500
# Actions sent per accepted table (a game has up to some forty): a first round from the forms its
# pages show, then a second from the forms those changes brought out; the least sent go first.
ACTIONS_PER_TABLE = (6, 3)
# Values put where something else belongs: wrong types, out-of-range and unrepresentable numbers.
JUNK = ["x", "", "1", [], {}, [{}], {"": 1}, None, True, False, 1.5, -1, -7, 0, 10**9, -10**9, 2**63, 10**400,
        -10**400, math.nan, math.inf, -math.inf, "\u202e", "<script>", [[[[1]]]], [None] * 50]
BIG = [10**9, 999_999_999, -999_999_999, 2**31, 2**63, 10**400, -10**400, -1, -7]


# -- mutations -------------------------------------------------------------------------------------

def nodes(value, path=()):
    """Every (container, key, path) inside `value`: where a mutation can strike."""
    out = []
    if isinstance(value, dict):
        for k, v in value.items():
            out.append((value, k, path + (k,)))
            out += nodes(v, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out.append((value, i, path + (i,)))
            out += nodes(v, path + (i,))
    return out


def containers(value, kind):
    found = [value] if isinstance(value, kind) else []
    children = value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
    for child in children:
        found += containers(child, kind)
    return found


def plausible(rng, old, seats):
    """A value of the same kind, near what a table holds: what a model must judge by its range."""
    if isinstance(old, bool):
        return not old
    if isinstance(old, int):
        return rng.choice([0, 1, 2, 3, old + 1, old - 1, rng.randint(0, 60), *seats])
    if old is None:
        return rng.choice([0, 1, True, *seats, "quick"])
    if isinstance(old, list):
        return old[::-1] if rng.random() < 0.5 else old + old[:1]
    if isinstance(old, str):
        return rng.choice([old.upper(), old + "x", str(rng.choice(seats)), "detailed", "quick", ""])
    return old


def mutate(rng: random.Random, base: dict, key: str) -> tuple[dict, list[str]]:
    """One hostile (or merely odd) variant of an export, and what was done to it."""
    data = copy.deepcopy(base)
    doc = data["document"]
    seats = [p["id"] for p in doc["state"]["players"]]
    done: list[str] = []
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        try:
            strike(rng, data, key, seats, done)
        except (KeyError, IndexError, TypeError, ValueError, AttributeError):
            continue  # an earlier blow took away what this one aimed at
    return data, done


def strike(rng: random.Random, data: dict, key: str, seats: list[int], done: list[str]) -> None:
    doc = data["document"]
    game_part = doc["state"]["game"]
    spots = nodes(game_part, ("document", "state", "game")) if rng.random() < 0.85 else nodes(doc, ("document",))
    op = rng.choices(["junk", "big", "float", "missing", "extra", "empty-in-list", "claim", "players",
                      "plausible"], weights=[20, 12, 8, 10, 10, 8, 4, 6, 14])[0]
    if op in ("junk", "big", "float", "plausible") and spots:
        where, k, path = rng.choice([s for s in spots if isinstance(s[0], list)] or spots) \
            if rng.random() < 0.4 else rng.choice(spots)
        value = {"junk": lambda: rng.choice(JUNK), "big": lambda: rng.choice(BIG),
                 "float": lambda: rng.choice([math.nan, math.inf, -math.inf, 0.5, 1e300, 2.0]),
                 "plausible": lambda: plausible(rng, where[k], seats)}[op]()
        where[k] = value
        done.append(f"{op} {'.'.join(map(str, path))} = {str(value)[:30]}")
    elif op == "missing" and containers(doc, dict):
        target = rng.choice([d for d in containers(doc, dict) if d])
        gone = rng.choice(list(target))
        del target[gone]
        done.append(f"missing {gone}")
    elif op == "extra":
        target = rng.choice(containers(doc, dict))
        name = rng.choice(["evil", "__proto__", "first_tied", "win_reason", "archived", "1", "x" * 300])
        target[name] = rng.choice(JUNK)
        done.append(f"extra {name}")
    elif op == "empty-in-list" and containers(doc, list):
        target = rng.choice(containers(doc, list))
        target.insert(rng.randint(0, len(target)), {})
        done.append("{} in a list")
    elif op == "claim":
        data["game"] = rng.choice([k for k in GAMES if k != key])
        done.append(f"claims {data['game']}")
    elif op == "players":
        people = doc["state"]["players"]
        how = rng.choice(["order", "ids", "names", "drop", "double"])
        if how == "order":
            rng.shuffle(people)
        elif how == "ids" and len(people) > 1:
            a, b = rng.sample(range(len(people)), 2)
            people[a]["id"], people[b]["id"] = people[b]["id"], people[a]["id"]
        elif how == "names" and len(people) > 1:
            a, b = rng.sample(range(len(people)), 2)
            people[a]["name"], people[b]["name"] = people[b]["name"], people[a]["name"]
        elif how == "drop":
            people.pop(rng.randrange(len(people)))
        else:
            people.append({**people[0], "id": max(seats) + 1, "name": "Newcomer"})
        done.append(f"players {how}")


# -- driving an accepted table ---------------------------------------------------------------------

class Forms(HTMLParser):
    """The POST forms of a page, each as (action, fields, buttons): what a phone can send."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.forms: list[dict] = []
        self._form = None
        self._select = None
        self._textarea = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form" and (a.get("method") or "").lower() == "post":
            self._form = {"action": a.get("action", ""), "fields": [], "radios": {}, "buttons": [], "selects": {}}
            self.forms.append(self._form)
        if self._form is None or "name" not in a and tag != "option":
            return
        name = a.get("name")
        if tag == "input":
            kind = (a.get("type") or "text").lower()
            value = a.get("value") or ""
            if kind == "radio":
                self._form["radios"].setdefault(name, []).append((value, "checked" in a))
            elif kind == "checkbox":
                if "checked" in a:
                    self._form["fields"].append((name, value or "on"))
            elif kind in ("submit", "button"):
                self._form["buttons"].append((name, value))
            else:
                if not value and (kind == "number" or a.get("inputmode") == "numeric"):
                    value = "1"
                self._form["fields"].append((name, value))
        elif tag == "button" and "disabled" not in a:
            self._form["buttons"].append((name, a.get("value", "")))
        elif tag == "select":
            self._select = (name, "multiple" in a)
            self._form["selects"][name] = []
        elif tag == "option" and self._select is not None:
            self._form["selects"][self._select[0]].append((a.get("value", ""), "selected" in a))
        elif tag == "textarea":
            self._textarea = name
            self._form["fields"].append((name, "a note"))

    def handle_endtag(self, tag):
        if tag == "form":
            self._form = None
        elif tag == "select":
            self._select = None


def form_data(rng, form) -> dict:
    data: dict[str, list[str]] = {}
    for name, value in form["fields"]:
        if name not in ("v", "sid", "csrf_token"):
            data.setdefault(name, []).append(value)
    for name, options in form["radios"].items():
        data[name] = [next((v for v, on in options if on), None) or rng.choice(options)[0]]
    for name, options in form["selects"].items():
        values = [v for v, _on in options if v] or [""]
        chosen = [v for v, on in options if on]
        data[name] = chosen or rng.sample(values, min(len(values), rng.choice([1, 2])))
    named = [b for b in form["buttons"] if b[0]]
    if named:
        name, value = rng.choice(named)
        data[name] = [value]
    return data


class Witness:
    """Sends requests for one table and notes every 5xx, or exception, with what led to it."""

    def __init__(self, failures: list[str], label: str):
        self.failures, self.label = failures, label

    def __call__(self, what: str, send):
        try:
            resp = send()
        except Exception as err:  # noqa: BLE001 - the testing app raises what would be a 500
            self.failures.append(f"{self.label}: {what} raised {type(err).__name__}: {str(err)[:200]}")
            return None
        if resp.status_code >= 500:
            self.failures.append(f"{self.label}: {what} answered {resp.status_code}")
        return resp


def scrape(client, token, game_key, seen: Witness, pages: list[str]) -> dict[str, list[dict]]:
    """GET these pages of the table; the game's forms on them, by action path."""
    forms: dict[str, list[dict]] = {}
    for slug in pages:
        resp = seen(f"GET {slug}", lambda: client.get(f"/t/{token}/{slug}"))
        if resp is None:
            continue
        parser = Forms()
        parser.feed(resp.get_data(as_text=True))
        for form in parser.forms:
            action = urlsplit(form["action"]).path
            if action.startswith(f"/t/{token}/{game_key}/"):
                forms.setdefault(action[len(f"/t/{token}/"):], []).append(form)
    return forms


def drive(rng, tables, client, token, game_key, group, seen: Witness, sent: dict[str, int]):
    """Every page, the exports and the group page, then a representative set of the game's actions,
    each sent with the data of a form its pages show: the actions sent least so far in this run
    first, in a random order, then a few of those the first changes brought out. No 5xx."""
    forms = scrape(client, token, game_key, seen, slugs(game_key))
    for export in ("export.json", "bgstats.json"):
        seen(f"GET {export}", lambda: client.get(f"/t/{token}/{export}"))
    seen("join the group", lambda: client.post(f"/t/{token}/group", data={"choice": group}))
    seen("GET the group page", lambda: client.get(f"/g/{group}"))
    seen("leave the group", lambda: client.post(f"/t/{token}/group", data={"choice": "none"}))
    posted: set[str] = set()
    for n, budget in enumerate(ACTIONS_PER_TABLE):
        if n:  # the game's own pages again: what the first changes brought out
            forms = scrape(client, token, game_key, seen, [p.slug for p in GAMES[game_key].pages])
        for path in forms:
            sent.setdefault(path, 0)
        paths = sorted(set(forms) - posted)
        rng.shuffle(paths)
        paths.sort(key=lambda p: sent.get(p, 0))
        for path in paths[:budget]:
            data = form_data(rng, rng.choice(forms[path]))
            seen(f"POST {path} {data}", lambda: tables.post(token, path, data))
            posted.add(path)
            sent[path] = sent.get(path, 0) + 1
    seen("undo", lambda: tables.undo(token))


def encode(data) -> str:
    # allow_nan: the file says NaN / Infinity literally, as a hostile one would.
    return json.dumps(data, allow_nan=True)


@pytest.mark.parametrize("key", sorted(GAMES))
def test_hostile_imports_never_answer_5xx_and_what_is_accepted_works(tables, client, key):
    if GAMES[key].shape is None:
        pytest.skip(f"{key} declares no state model yet")
    rng = random.Random(f"hostile-imports-{key}")
    bases = exports(tables, key)
    group, _view = new_group(client)
    failures: list[str] = []
    sent: dict[str, int] = {}
    accepted = refused = 0
    for i in range(MUTATIONS):
        stage = rng.choice(sorted(bases))
        data, done = mutate(rng, bases[stage], key)
        seen = Witness(failures, f"#{i} {key}/{stage} [{'; '.join(done)}]")
        resp = seen("import", lambda: client.post("/import", data={"text": encode(data)}))
        if resp is None or resp.status_code >= 500:
            continue
        if resp.status_code == 303:
            accepted += 1
            token = resp.headers["Location"].rsplit("/", 1)[1]
            drive(rng, tables, client, token, data["game"], group, seen, sent)
        else:
            assert resp.status_code == 422, (seen.label, resp.status_code)
            assert 'role="alert"' in resp.get_data(as_text=True)
            refused += 1
    assert not failures, "\n".join(failures[:20])
    # Every action a page of an accepted table offered was sent at least once.
    assert all(sent.values()), sorted(p for p, n in sent.items() if not n)
    # The mix stays hostile, yet enough files get in for the tables they make to be driven.
    assert refused > MUTATIONS // 2 and accepted >= 10, (accepted, refused)


def test_a_refusal_names_the_field_of_the_file(tables, client):
    data = exports(tables, "sins")["playing"]
    data["document"]["state"]["game"]["score"]["quick"] = {"1": {"points": "x", "cards": 1, "types": 1}}
    resp = client.post("/import", data={"text": encode(data)})
    assert resp.status_code == 422
    assert re.search(r"document\.state\.game\.score\.quick\.1\.points", resp.get_data(as_text=True))
