"""Every declared table action, tapped from a stale view, does what its declaration says (issue 26).

`actions.declared()` lists every action of the app; `DRIVERS` says, for each one, how to reach a
stage of a game where it is allowed (the stages of tests/web/test_fuzz.py, plus a few steps of its
own) and which form to send there: the form the page shows, or the fields given. A declared action
without a driver fails the suite, so a new action is covered the day it is declared.

For each action, hypothesis chooses what other phones do between this phone's page view and its
tap: the same tap, a rename of the table, any other form the stage's pages show, one or two of them.
Then the tap arrives carrying the version the phone saw, and:

- an action whose outcome depends on the state (`depends_on_state`) is refused with the fresh table
  (409, the banner), or does exactly what it did on the document the phone saw: never applied blind;
- a relative action that does not depend on the state lands and does what it did on the view (a
  422 only where another phone changed the very thing it counts, e.g. took the last one);
- an absolute action never overwrites what another phone changed since: it is a conflict (or
  writes nothing), and where it lands it does exactly what it did on the view.

What a tap "did on the view" is the action's own run on the document the phone saw, read with the
test's own diff (tests/web/test_stale_taps.py), sharing no code with the store's judging.
"""
from __future__ import annotations

import copy
import itertools
from dataclasses import dataclass

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from werkzeug.datastructures import MultiDict

from tests.conftest import Tables, text_of
from tests.web.test_fuzz import GAMES, STAGES, forms_of, pages_of
from tests.web.test_stale_taps import back_to, declared_by_url, document, send, taps
from tests.web.test_stale_taps import effect as value_effect

# Generated interleavings per action, on top of the explicit one (another phone made the same tap).
EXAMPLES = settings(max_examples=1, deadline=None, database=None)


@dataclass(frozen=True)
class Driver:
    """Where an action is allowed and what to send: `data` replaces those fields of the form the
    stage shows (or is the whole form, where the page shows none); `prep` are steps taken first
    (path, data, page), taken back afterwards; `random`: it draws at random, so what it writes is
    compared, not the values it drew; `unique`: a field given a new value for each tap."""

    game: str
    stage: str
    data: dict | None = None
    prep: tuple = ()
    random: bool = False
    unique: str | None = None


SINS_SIX = {"sin": ["superbia", "luxuria", "invidia", "ira", "acedia", "gula"]}
DUEL = {"challenger.name": "Kaspar", "challenger.duel_stat": 3, "challenger.resolve": 6, "challenger.wounds": 0,
        "challenger.finesse": 2, "challenger.player": "1", "challenger.leader": "1", "defender.name": "Soline",
        "defender.duel_stat": 2, "defender.resolve": 5, "defender.wounds": 0, "defender.finesse": 3,
        "defender.player": "2", "technique_thrust": 0, "answer": "accept"}
STORY = {"story": "Haven's Last Stand", "story_type": "corruption", "map": ""}
FIGHT = {"stat": 3, "base_defense": 1, "teammates": 1, "extra_dice": 1, "extra_defense": 1, "extra_hits": 0,
         "monsters": 5, "pentagrams": 1, "sin_extra": 0}

DRIVERS: dict[str, Driver] = {
    # What every table shares (on a Sinful Gibbon table), and the play's details once it is over.
    "tables.add_player": Driver("gibbon", "setup", {"name": "Eve"}),
    "tables.archive": Driver("gibbon", "setup", {"archive": "1"}),
    "tables.colour_player": Driver("gibbon", "setup"),
    "tables.move_player": Driver("gibbon", "setup"),
    "tables.remove_player": Driver("sins", "setup"),
    "tables.rename_player": Driver("gibbon", "setup", {"name": "Zoe"}),
    "tables.rename_table": Driver("gibbon", "setup", {"name": "Friday night"}),
    "tables.set_status": Driver("gibbon", "setup"),
    "groups.play_details": Driver("sins", "scoring", {"note": "A close one"}, prep=(("sins/finish", {}, "score"),)),
    # 7 - The Sins.
    "sins.choose_sins": Driver("sins", "setup", SINS_SIX),
    "sins.draw_sins": Driver("sins", "setup", random=True),
    "sins.mode": Driver("sins", "setup"),
    "sins.penitenziagite": Driver("sins", "setup"),
    "sins.start": Driver("sins", "setup", prep=(("sins/sins", SINS_SIX, None),)),
    "sins.tick": Driver("sins", "setup"),
    "sins.draw_first": Driver("sins", "play", random=True),
    "sins.first_player": Driver("sins", "play"),
    "sins.next_turn": Driver("sins", "play"),
    "sins.judgment": Driver("sins", "play"),
    "sins.stone": Driver("sins", "play"),
    "sins.abyss": Driver("sins", "play"),
    "sins.reserve": Driver("sins", "play"),
    "sins.quick": Driver("sins", "play", {"player": "2", "points": "30", "cards": "4", "types": "3", "page": "score"}),
    "sins.third_on": Driver("sins", "last-judgment"),
    "sins.abyss_total": Driver("sins", "scoring"),
    "sins.best_stones": Driver("sins", "scoring"),
    "sins.direction": Driver("sins", "scoring", {"on": "0", "page": "score"}),
    "sins.place_stones": Driver("sins", "scoring", {"player": "1", "stones_on": ["acedia"]}),
    "sins.finish": Driver("sins", "scoring"),
    # Sinful Gibbon.
    "gibbon.start": Driver("gibbon", "setup"),
    "gibbon.tick": Driver("gibbon", "setup"),
    "gibbon.record": Driver("gibbon", "started"),
    "gibbon.edit": Driver("gibbon", "round-counted", {"p1_low": "2"}),
    "gibbon.remove": Driver("gibbon", "round-counted"),
    "gibbon.swap": Driver("gibbon", "round-counted", {"chooser": "1", "partner": "3"}),
    # 7th Sea: City of Five Sails.
    "fivesails.tick": Driver("fivesails", "setup"),
    "fivesails.line": Driver("fivesails", "setup"),
    "fivesails.leader": Driver("fivesails", "setup"),
    "fivesails.leader_resolve": Driver("fivesails", "setup", {"player": "1", "resolve": "5"}),
    "fivesails.influence": Driver("fivesails", "setup"),
    "fivesails.renown": Driver("fivesails", "setup"),
    "fivesails.wounds": Driver("fivesails", "setup"),
    "fivesails.start": Driver("fivesails", "setup"),
    "fivesails.next_step": Driver("fivesails", "day"),
    "fivesails.jump": Driver("fivesails", "day"),
    "fivesails.control": Driver("fivesails", "day"),
    "fivesails.duel_start": Driver("fivesails", "day", {**DUEL, "page": "duel"}),
    "fivesails.initiative": Driver("fivesails", "planning", {"init-1": 10, "init-2": 20, "init-3": 30}),
    "fivesails.duel_round": Driver("fivesails", "mid-duel", {"play": "card"}),
    "fivesails.duel_takeback": Driver("fivesails", "mid-duel"),
    "fivesails.duel_close": Driver("fivesails", "mid-duel"),
    # The Others: 7 Sins.
    "others.setup_tick": Driver("others", "setup"),
    "others.stats": Driver("others", "setup"),
    "others.sin": Driver("others", "setup"),
    "others.roles": Driver("others", "setup", {"sins_player": "2"}),
    "others.story": Driver("others", "setup", STORY),
    "others.team": Driver("others", "setup", {"name_1": "Bjorn", **{
        f"controller_{hero}": player for hero, player in enumerate((2, 2, 3, 3, 0, 0, 0), 1)}}),
    "others.track": Driver("others", "setup", {"reactions_1": "1"}),
    "others.start": Driver("others", "setup", prep=(("others/story", STORY, "round"),)),
    "others.turn": Driver("others", "playing"),
    "others.first": Driver("others", "playing"),
    "others.round_tick": Driver("others", "playing"),
    "others.round_end": Driver("others", "playing"),
    "others.forced": Driver("others", "playing"),
    "others.voluntary": Driver("others", "playing"),
    "others.wound": Driver("others", "playing"),
    "others.heal": Driver("others", "playing", {"hero": "1", "slot": "1", "page": "heroes"},
                          prep=(("others/wound", {"hero": 1, "slot": 1}, "heroes"),)),
    "others.innocents": Driver("others", "playing"),
    "others.upgrades": Driver("others", "playing"),
    "others.extra_turns": Driver("others", "playing"),
    "others.npc": Driver("others", "playing"),
    "others.city": Driver("others", "playing"),
    "others.altars": Driver("others", "playing"),
    "others.apocalypse": Driver("others", "playing"),
    "others.mission_progress": Driver("others", "playing"),
    "others.mission_target": Driver("others", "playing"),
    "others.mission_next": Driver("others", "playing"),
    "others.mission_note": Driver("others", "playing", {"note": "Hold the bridge"}),
    "others.sin_card": Driver("others", "playing"),
    "others.reaction_extra": Driver("others", "playing"),
    "others.heroes_win": Driver("others", "playing"),
    "others.sins_win": Driver("others", "playing"),
    "others.fight_start": Driver("others", "playing"),
    "others.reaction": Driver("others", "turn-and-corruption"),
    "others.turn_back": Driver("others", "turn-and-corruption"),
    "others.voluntary_cancel": Driver("others", "turn-and-corruption"),
    "others.roll_done": Driver("others", "turn-and-corruption"),
    "others.alert_done": Driver("others", "turn-and-corruption"),
    "others.dark_past": Driver("others", "turn-and-corruption"),
    "others.repent": Driver("others", "turn-and-corruption"),
    "others.fight_prepare": Driver("others", "fight", FIGHT),
    "others.fight_resolve": Driver("others", "fight", prep=(("others/fight/prepare", FIGHT, "fight"),)),
    "others.fight_close": Driver("others", "fight"),
    "others.fight_apply": Driver("others", "fight-rolled", {"slots": ["1", "2"]}),
    "others.replace": Driver("others", "death-and-apocalypse", {"replacement": "5"}),
    "others.card": Driver("others", "death-and-apocalypse"),
    "others.card_skip": Driver("others", "death-and-apocalypse"),
    "others.hell_club": Driver("others", "death-and-apocalypse"),
    # A saved track is kept beside the table (going back does not unsave it): each tap names a new one.
    "others.track_save": Driver("others", "death-and-apocalypse", {"name": "Our track"}, unique="name"),
    "others.track_use": Driver("others", "death-and-apocalypse", prep=(
        ("others/track/save", {"name": "Track to use"}, "apocalypse"),
        ("others/track", {**{f"{f}_{n}": 0 for n in range(1, 8) for f in ("reactions", "sin_dice")},
                          **{f"effect_{n}": "" for n in range(1, 8)}, "reactions_1": 1}, "apocalypse"))),
}


def test_every_declared_action_has_a_driver(app):
    from companion.tables.actions import declared

    assert set(declared()) - set(DRIVERS) == set(), "give each new action a driver here"
    assert set(DRIVERS) - set(declared()) == set(), "a driver for an action that is no longer declared"
    assert {d.game for d in DRIVERS.values()} == set(GAMES)


# -- one action, tapped from a stale view -----------------------------------------------------------

def run_on(app, token, spec, action, fields, doc):
    """What the action does to `doc` (the action's own run, as the door calls it): (effect,
    relative), or why not: the form's errors, the rule's refusal, or "nothing"."""
    from companion.domain import Invalid
    from companion.games import GAMES as REGISTRY
    from companion.tables.actions import Said

    after = copy.deepcopy(doc)
    body = MultiDict([(n, v) for n, v in fields if n not in ("v", "sid")] + [("v", "1"), ("sid", "dry-run")])
    with app.test_request_context(action, method="POST", data=body):
        form = spec.form() if isinstance(spec.form, type) else spec.form(token)
        if not form.validate():
            return f"form: {form.errors}"
        try:
            spec.run(after, form, Said(spec.summary, REGISTRY[doc_game(app, token)]))
        except Invalid as err:
            return f"refused: {err}"
        relative = spec.relative(form) if callable(spec.relative) else spec.relative
    did = effect(doc, after)
    return (did, relative) if did else "nothing"


def effect(before, after):
    """What a change did (the reading of tests/web/test_stale_taps.py), except that items added at the
    end of a list read as added, whatever was there: two phones' notes are two notes."""
    out = value_effect(before, after)
    for path, (how, _value) in list(out.items()):
        old, new = at(before, path), at(after, path)
        if how == "set" and isinstance(old, list) and isinstance(new, list) and new[:len(old)] == old:
            out[path] = ("add", repr(new[len(old):]))
    return out


def at(doc, path):
    for key in path:
        try:
            doc = doc[key]
        except (KeyError, IndexError, TypeError):
            return None
    return doc


def doc_game(app, token):
    return Tables(app, app.test_client()).table(token).game


def overlap(a, b) -> bool:
    """Whether two effects write one value (a path that is the other's, or inside it)."""
    return any(p[:len(q)] == q or q[:len(p)] == p for p in a for q in b)


_names = itertools.count()


def reset(tables, token, version, doc):
    """Back to the document of `version` ("undo back to here"), unless the table is there already."""
    if document(tables, token) != doc:
        if tables.table(token).state.get("archived") and not doc["state"].get("archived"):
            assert tables.post(token, "archive", {"archive": "0"}, page="table").status_code == 200
        back_to(tables, token, version)
        assert document(tables, token) == doc


class Stale:
    """One driver's action at its stage: the tap, and what other phones may do meanwhile."""

    def __init__(self, tables, token, spec, action, fields, others, driver):
        self.tables, self.token, self.spec, self.driver = tables, token, spec, driver
        self.action, self.fields, self.others = action, fields, others
        self.outcomes: set = set()

    def other(self, choice):
        if choice == "same":
            return send_plain(self.tables, self.action, self.fields)
        if choice == "rename":
            return self.tables.post(self.token, "rename", {"name": f"Elsewhere {next(_names)}"}, htmx=False)
        return send_plain(self.tables, *self.others[choice % len(self.others)])

    def check(self, interleaving):
        tables, token, spec = self.tables, self.token, self.spec
        if self.driver.unique:
            self.fields = [(n, f"{v} {next(_names)}" if n == self.driver.unique else v) for n, v in self.fields]
        seen_version, seen = tables.version(token), document(tables, token)
        meant = run_on(tables.app, token, spec, self.action, self.fields, seen)
        assert not isinstance(meant, str), (spec.endpoint, "the driver's tap does nothing on this view", meant)
        meant, relative = meant
        for choice in interleaving:
            resp = self.other(choice)
            assert resp.status_code < 500, (spec.endpoint, choice, resp.status_code)
        landed_on, landed_version = document(tables, token), tables.version(token)
        between = effect(seen, landed_on)
        stale = send(tables, self.action, self.fields, seen_version)
        applied = tables.version(token) != landed_version
        did = effect(landed_on, document(tables, token))
        if self.driver.random:  # where it wrote, not what it drew (a new draw may match the old
            meant, did = {p[:-1] for p in meant}, {p[:-1] for p in did}  # one at some places)
        what = (spec.endpoint, interleaving, stale.status_code, sorted(between, key=str)[:6])
        assert stale.status_code in (200, 409, 422), what
        if stale.status_code != 200:
            assert not applied, what
        if stale.status_code == 409:
            assert "The table changed on another phone" in text_of(stale), what
        if spec.depends_on_state:
            # Never applied blind: refused with the fresh table, or exactly what it did on the view.
            assert stale.status_code == 409 or (applied and did == meant), what
        elif relative:
            # An increment that does not depend on the state lands, doing what it did on the view.
            # (A 422, or nothing written, only where the other phones changed that very count.)
            if stale.status_code == 422 or not applied:
                assert overlap(meant, between), what
            else:
                assert did == meant, what
        else:
            # An absolute change never overwrites another phone's: a conflict, or nothing written.
            if overlap(meant, between):
                assert not applied, what
            if applied:
                assert did == meant, what
        self.outcomes.add("refused" if stale.status_code == 409 else "applied" if applied else "nothing")
        reset(tables, token, seen_version, seen)


def send_plain(tables, action, fields):
    """Another phone's tap, on the table as it is (answered with a 303: nothing to render)."""
    body = MultiDict([(n, v) for n, v in fields if n not in ("v", "sid")])
    body.add("v", str(tables.version(token_of(action))))
    body.add("sid", f"other-{next(_names)}")
    return tables.client.post(action, data=body)


def token_of(action):
    return action.split("/t/", 1)[1].split("/", 1)[0]


def exercise(stale: Stale):
    choices = st.one_of(st.just("same"), st.just("rename"), st.integers(0, 10 ** 6))

    @EXAMPLES
    @example(["same"])
    @given(st.lists(choices, min_size=1, max_size=2))
    def prop(interleaving):
        stale.check(interleaving)

    prop()


def fields_for(driver, shown):
    """The taps to try: the shown form's (each button of it), or the shown form with the driver's
    fields in place of its own, or the driver's fields alone."""
    if driver.data is None:
        return [(action, tap) for action, fields in shown for tap in taps(fields)]
    data = [(n, str(x)) for n, v in driver.data.items() for x in (v if isinstance(v, list) else [v])]
    if not shown:
        return [(None, data)]
    return [(action, [(n, v) for n, v in fields if n not in driver.data] + data) for action, fields in shown]


def shown_forms(tables, game, token, spec_of):
    """endpoint -> [(action, fields)] of the forms the table's pages show now."""
    found: dict[str, list] = {}
    for url in pages_of(game, token):
        for action, fields in forms_of(tables.client.get(url).get_data(as_text=True)):
            spec = spec_of(action)
            if spec is not None:
                found.setdefault(spec.endpoint, []).append((action, fields))
    return found


def drive(tables, game, token, endpoint, spec_of, pool, forms):
    from companion.tables.actions import declared

    driver, spec = DRIVERS[endpoint], declared()[endpoint]
    start, at_start = tables.version(token), document(tables, token)
    for path, data, page in driver.prep:
        resp = tables.post(token, path, data, page=page)
        assert resp.status_code == 200, (endpoint, path, text_of(resp)[:300])
    if driver.prep:
        forms = shown_forms(tables, game, token, spec_of)
    shown = forms.get(endpoint, [])
    seen = document(tables, token)
    url = f"/t/{token}/" + spec.rule.split("/t/<token>/", 1)[1]
    tries = [(action or url, fields) for action, fields in fields_for(driver, shown)]
    why = [run_on(tables.app, token, spec, a, f, seen) for a, f in tries]
    tap = next(((a, f) for (a, f), w in zip(tries, why) if not isinstance(w, str)), None)
    assert tap is not None, (endpoint, "no tap of this driver does anything here", why[:3], tries[:1])
    stale = Stale(tables, token, spec, tap[0], tap[1], pool, driver)
    exercise(stale)
    reset(tables, token, start, at_start)
    return stale.outcomes


def without_fsync(app):
    """This test writes a thousand changes: on SQLite, it does without waiting for the disk (the
    durability of a change is tests/web/test_durability.py's business)."""
    from sqlalchemy import event

    engine = app.extensions["companion.engine"]
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect", lambda conn, _record: conn.execute("PRAGMA synchronous=OFF"))
        engine.dispose()


@pytest.mark.parametrize("game", list(GAMES))
def test_every_action_tapped_from_a_stale_view_does_what_it_declares(app, client, game):
    without_fsync(app)
    tables = Tables(app, client)
    token = tables.create(game, names=GAMES[game])
    assert tables.post(token, "rename", {"name": "Stage 0"}).status_code == 200  # a change to go back to
    spec_of = declared_by_url(app)
    helper, _stages = STAGES[game]
    todo = {e for e, d in DRIVERS.items() if d.game == game}
    outcomes = {}
    for stage in helper(tables, token):
        here = sorted(e for e in todo if DRIVERS[e].stage == stage.name)
        if not here:
            continue
        if tables.version(token) == 0:
            assert tables.post(token, "rename", {"name": "Stage"}).status_code == 200
        forms = shown_forms(tables, game, token, spec_of)
        pool = [(a, tap) for shown in forms.values() for a, fields in shown for tap in taps(fields)]
        for endpoint in here:
            outcomes[endpoint] = drive(tables, game, token, endpoint, spec_of, pool, forms)
            todo.discard(endpoint)
    assert not todo, f"drivers name stages the helper never reached: {sorted(todo)}"
    # Each kind of action met each answer the property allows it somewhere in the game: a refused
    # state-dependent tap, a refused absolute one, and a landed increment (where the game has one).
    from companion.tables.actions import declared

    def kind(spec):
        return "dependent" if spec.depends_on_state else "relative" if spec.relative is True else "absolute"
    met = {(kind(declared()[e]), o) for e, seen in outcomes.items() for o in seen}
    assert {("dependent", "refused"), ("absolute", "refused")} <= met, met
    if any(kind(declared()[e]) == "relative" for e in outcomes):
        assert ("relative", "applied") in met, met
