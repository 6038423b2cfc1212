"""The one door every table action goes through: declare it once, and it is routed, validated,
applied through the action log, logged in words and answered.

    @action(bp, "/t/<token>/fivesails/renown", form=DeltaForm, kind="renown", relative=True,
            depends_on_state=True, summary=N_("%(player)s: Renown %(delta)+d (now %(value)d)"))
    def renown(doc, form, said):
        said(player=name(doc, form.player.data), delta=form.delta.data,
             value=rules.add_renown(game_state(doc), form.player.data, form.delta.data))

The declaration says:

- `rule`, and the endpoint (the function's name, unless `endpoint=` says otherwise): a POST route;
- `form`: the form class (a `TableForm`), or a function of the table's token that makes one;
- `kind`: what the log calls it (a function of the validated form where one route logs two kinds); `summary`: its log line (a message id marked `N_`), unless the
  action chooses one as it runs with `said(N_("..."), **args)`; `said(**args)` fills the line;
- `relative`: an increment that commutes ("+1 stone"): it lands whatever another phone changed
  meanwhile (a function of the validated form where one route is both, as the Last Judgments are). Anything else is *absolute*: it sets what the phone saw, and is refused on a stale view
  when a change it never saw wrote one of the same values (see store.apply);
- `depends_on_state`: its outcome depends on the state it lands on (the third Last Judgment ends
  the game, a +1 Renown can cross a victory), so a stale view matters even for an increment;
- `page`: which page the answer shows (a slug, or a function of the table), when not the form's;
- `respond`: a last word on the response (e.g. push the URL of the page it moved to);
- `decorators`: view decorators for the route, outermost first (e.g. a rate limit of its own).

The decorated function is the action itself, `run(doc, form, said)`: it changes a deep copy of
the document in place through the game's pure rules (raising `domain.Invalid` to refuse, with the
field each problem is about) and fills the log line. It runs under the table's lock: once, or, for
a `depends_on_state` action from a phone that missed changes, first on the document that phone saw
(see stale.py), so it must change nothing but the document it is given.

An answer is one of: 200 with the fresh live region (htmx), 303 back to the page (no JavaScript),
422 with the form as typed and its messages next to the fields, 409 with the fresh table when
another phone changed the same thing, 403 on a view-only link. Every declaration is listed in
`declared()`, so the live table and the tests can ask of each action what kind of change it is.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable

from blinker import Namespace
from flask import Blueprint, current_app, redirect, request
from flask_babel import gettext as _
from werkzeug.exceptions import HTTPException
from werkzeug.routing import RoutingException

from ..db import get_session
from ..domain import Invalid
from ..web import wants_fragment
from . import live, store
from .game import Game

# A table's document changed (args: the app; table=). The plays package listens, so a finished
# table's play follows its document, without the table machinery importing it.
signals = Namespace()
table_changed = signals.signal("table-changed")
# A table was made from the new-table form (args: the app; table=, group= the group link it came from).
table_created = signals.signal("table-created")


class Said:
    """The log line of the action being applied: `said(msg, **args)` sets its words, `said(**args)`
    fills the declared ones. `game` is the table's game, for an action that needs to ask it."""

    def __init__(self, summary: str | None, game: Game):
        self.summary = summary
        self.args: dict = {}
        self.game = game

    def __call__(self, msg: str | None = None, /, **args) -> None:
        if msg is not None:
            self.summary = msg
        self.args.update(args)


Run = Callable[[dict, object, Said], None]


@dataclass(frozen=True)
class Declared:
    """One table action, as declared with `action`."""

    endpoint: str  # "blueprint.name"
    rule: str
    kind: str | Callable
    run: Run = field(repr=False)
    form: Callable = field(repr=False)
    summary: str | None = None
    relative: bool | Callable = False
    depends_on_state: bool = False
    page: str | Callable | None = None
    respond: Callable | None = field(default=None, repr=False)


_DECLARED: dict[str, Declared] = {}


def declared() -> dict[str, Declared]:
    """Every table action declared so far, by endpoint (a copy: the declarations are the code's)."""
    return dict(_DECLARED)


def action(bp: Blueprint, rule: str, *, form, kind: str | Callable, summary: str | None = None, relative: bool | Callable = False,
           depends_on_state: bool = False, page: str | Callable | None = None, respond: Callable | None = None,
           endpoint: str | None = None, decorators: tuple = ()) -> Callable[[Run], Run]:
    """Declare a table action (see the module's docstring); returns the function unchanged."""
    def declare(run: Run) -> Run:
        name = endpoint or run.__name__
        spec = Declared(f"{bp.name}.{name}", rule, kind, run, form, summary, relative, depends_on_state, page,
                        respond)
        if spec.endpoint in _DECLARED and _DECLARED[spec.endpoint].rule != rule:
            raise ValueError(f"two actions declared as {spec.endpoint}")
        _DECLARED[spec.endpoint] = spec

        def view(token: str):
            return perform(token, spec)
        view.__name__ = view.__qualname__ = name
        view.__module__, view.__doc__ = run.__module__, run.__doc__
        for decorate in reversed(decorators):
            view = decorate(view)
        bp.add_url_rule(rule, name, view, methods=["POST"])
        return run
    return declare


def declared_relative(url: str) -> bool:
    """Whether the action a form posts to is declared an increment outright (`relative=True`).

    The live table shows a tap on such a form as its pending +1 before the server answers
    (static/js/12-pending.js); any other tap (absolute, or relative only for some inputs) is shown
    as waiting, so the phone never works out a game rule itself."""
    try:
        endpoint, _args = current_app.url_map.bind_to_environ(request.environ).match(url, method="POST")
    except HTTPException:  # no such route, or not one taking a POST: not an action
        return False
    except RoutingException:  # a redirect (a slash added): not an action's own address
        return False
    spec = _DECLARED.get(endpoint)
    return spec is not None and spec.relative is True


def _make_form(spec: Declared, token: str):
    return spec.form() if isinstance(spec.form, type) else spec.form(token)


def perform(token: str, spec: Declared):
    """Validate the declared form, apply the action through the log, and answer (see the docstring)."""
    table, readonly = live.open_table(token, edit=True)
    slug = spec.page(table) if callable(spec.page) else spec.page
    t = live.form_view(table, readonly, token, slug)
    form = _make_form(spec, token)
    key = request.form.get("form_key") or None

    def invalid(errors: dict[str, list[str]]):
        return live.render(t, status=422, bound=live.Bound(key, request.form.copy(), errors))

    def answer(resp):
        return spec.respond(resp, t) if spec.respond else resp

    def saved(table):
        t.table = table
        return answer(after_change(t))

    try:
        # A retry of a saved submission is answered before its form is checked again: checking may
        # itself write (a preset is saved as its form validates) and would refuse the retry.
        store.check_new(get_session(), table, live.submission())
    except store.AlreadyDone as done:
        return saved(done.table)
    if not form.validate():
        return invalid({k: [str(m) for m in v] for k, v in form.errors.items()})
    said = Said(spec.summary, t.game)
    relative = spec.relative(form) if callable(spec.relative) else spec.relative
    kind = spec.kind(form) if callable(spec.kind) else spec.kind
    change = store.Change(kind, "", said.args, relative=relative, depends_on_state=spec.depends_on_state)
    check = _shape_check(t.game)

    def mutate(doc: dict) -> None:
        # It may run twice (on what a stale phone saw, then on the table): each run starts afresh.
        said.summary = spec.summary
        said.args.clear()
        spec.run(doc, form, said)
        if said.summary is None:
            raise RuntimeError(f"{spec.endpoint} wrote no log line: declare summary= or call said(msg)")
        change.summary = said.summary
        if check is not None:
            check(doc)

    try:
        table = store.apply(get_session(), table.id, live.seen_version(), change, mutate,
                            submission=live.submission())
    except Invalid as err:
        return invalid(err.as_dict(_))
    except store.Conflict as conflict:
        t.table = conflict.table
        return answer(live.render(t, status=409, bound=live.Bound(key, request.form.copy()),
                                  banner=live.conflict_banner(conflict)))
    except store.AlreadyDone as done:
        # A retry of a submission that was saved (its answer was lost): answer as the first time.
        table = done.table
    return saved(table)


def _shape_check(game: Game) -> Callable[[dict], None] | None:
    """With CHECK_SHAPES (the test suite), every document an action leaves must fit its game's
    declared shape (tables/shape.py): a rule that writes what its model does not allow fails loudly."""
    if not current_app.config.get("CHECK_SHAPES") or game.shape is None:
        return None
    from .shape import validate_document

    return lambda doc: validate_document(doc, game.shape)


def after_change(t: live.TableView):
    """The answer to a change that was saved: the fresh live region, or a 303 back to the page."""
    table_changed.send(current_app._get_current_object(), table=t.table, session=get_session())
    if wants_fragment(live.LIVE_ID):
        return live.render(t, fragment=True)
    # The change is saved by now: building the answer must not fail on whatever form_key held
    # (a line break would make an invalid Location header). Only a plain id becomes the anchor.
    anchor = request.form.get("form_key", "")
    safe = anchor if _ANCHOR.fullmatch(anchor) else ""
    return redirect(t.page_url() + (f"#{safe}" if safe else ""), code=303)


_ANCHOR = re.compile(r"[A-Za-z0-9_-]{1,60}", re.ASCII)


def game_state(doc: dict) -> dict:
    """The game's part of a document being changed (inside an action)."""
    return doc["state"].setdefault("game", {})
