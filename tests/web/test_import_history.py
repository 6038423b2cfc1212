"""A backup restores whole (issue 27): a 1,000-change table exports within /import's documented size
and comes back with its history, so History lists it and Undo and "undo back to here" work on it;
its play keeps its date; a tampered patch is refused naming the change and the field; a version 1
file (no patches) still imports, saying its history could not come back; and the table's group comes
back only with that group's edit link."""
from __future__ import annotations

import copy
import json
import re

import pytest
from sqlalchemy import select

from companion.domain import N_
from companion.games.fivesails import rules
from companion.plays import transfer
from tests.conftest import HX, text_of
from tests.web.test_groups import NAMES, finish_sins, new_group

pytestmark = pytest.mark.both_databases  # a whole history written to the action log in one transaction

CHANGES = 1000


def _fill(app, token: str, n: int) -> None:
    """n Influence taps (+1 and -1, on each player in turn) through the store, as the action logs
    them, in one write transaction so that a thousand take seconds, not minutes."""
    from companion.db import get_session
    from companion.tables import store

    with app.app_context():
        session = get_session()
        table_id = store.by_token(session, token)[0].id
        with store.write_transaction(session):
            for i in range(n):
                pid, delta = i % 3 + 1, (1 if (i // 3) % 20 < 10 else -1)

                def tap(doc, pid=pid, delta=delta):
                    change.args["value"] = rules.add_influence(doc["state"]["game"], pid, delta)
                change = store.Change("influence", N_("%(player)s %(delta)+d Influence (now %(value)d)"),
                                      {"player": ["Ana", "Bo", "Cy"][pid - 1], "delta": delta}, relative=True)
                store.apply(session, table_id, None, change, tap)


_BUILT: dict[str, bytes] = {}


@pytest.fixture
def big(tables, app, db_backend):
    """The export of a started Five Sails table with a thousand changes more: made once per database,
    then imported into each test's own."""
    if db_backend not in _BUILT:
        token = tables.create("fivesails", names=("Ana", "Bo", "Cy"))
        assert tables.post(token, "fivesails/start").status_code == 200
        _fill(app, token, CHANGES)
        resp = tables.client.get(f"/t/{token}/export.json")
        assert resp.status_code == 200
        _BUILT[db_backend] = resp.get_data()
    return _BUILT[db_backend]


def _after_undo(doc: dict, history: list, version: int) -> dict:
    """The document the file describes at `version`: its patches applied back, newest first."""
    import jsonpatch

    for h in reversed(history[version:]):
        doc = jsonpatch.apply_patch(doc, h["undo"])
    return doc


def _import(client, body, **extra):
    text = body if isinstance(body, str) else body.decode() if isinstance(body, bytes) else json.dumps(body)
    return client.post("/import", data={"text": text, **extra})


def _new(resp) -> str:
    assert resp.status_code == 303, text_of(resp)[:500]
    return resp.headers["Location"].rsplit("/", 1)[1]


def _history_ids(client, token) -> list[int]:
    page = client.get(f"/t/{token}/history").get_data(as_text=True)
    return [int(x) for x in re.findall(r'name="action" value="(\d+)"', page)]


def test_a_thousand_change_table_comes_back_with_its_history(tables, client, big):
    data = json.loads(big)
    version = len(data["history"])
    assert version > CHANGES and len(big) <= transfer.MAX_BYTES
    resp = _import(client, big)
    new = _new(resp)
    restored = tables.table(new)
    assert restored.version == version
    assert {"name": restored.name, "status": restored.status, "state": restored.state,
            "result": restored.result} == data["document"]
    # The table page says the history came back.
    assert f"history came back: {version} changes" in text_of(client.get(resp.headers["Location"]))
    # History lists every change, a page at a time, and offers "undo back to here" on them.
    history = client.get(f"/t/{new}/history")
    shown = text_of(history)
    assert history.status_code == 200 and f"{version} changes" in shown
    assert "Cy -1 Influence (now 0)" in shown or "Cy +1 Influence" in shown
    assert len(_history_ids(client, new)) == 29  # every change on the page but the newest
    oldest = client.get(f"/t/{new}/history?page={-(-version // 30)}")
    assert oldest.status_code == 200 and "Undo back to here" in text_of(oldest)
    # The htmx fragment of the table answers too.
    assert client.get(f"/t/{new}/players", headers=HX).status_code == 200


def test_undo_works_on_the_imported_table(tables, client, big):
    data = json.loads(big)
    new = _new(_import(client, big))
    assert tables.undo(new).status_code == 200
    # The last change is taken back, as on the original table.
    assert tables.table(new).state == _after_undo(data["document"], data["history"], len(data["history"]) - 1)["state"]
    # What Undo offers next is as on the original (the same log, the same rule).
    assert tables.latest_action_id(new) is not None


def test_undo_back_to_here_works_on_the_imported_table(app, tables, client, big):
    from companion.db import get_session
    from companion.models import Action, Table

    data = json.loads(big)
    new = _new(_import(client, big))
    with app.app_context():
        session = get_session()
        table = session.execute(select(Table).where(Table.token == new)).scalars().one()
        # Far back in the log: the tenth change.
        target = session.execute(select(Action).where(Action.table_id == table.id, Action.version == 10)
                                 ).scalars().one()
        target_id, version = target.id, table.version
    resp = client.post(f"/t/{new}/history/back-to", data={"v": version, "action": target_id})
    assert resp.status_code == 303, text_of(resp)[:400]
    assert tables.table(new).state == _after_undo(data["document"], data["history"], 10)["state"]
    with app.app_context():
        session = get_session()
        table = session.execute(select(Table).where(Table.token == new)).scalars().one()
        assert table.version == version + 1
        struck = session.execute(select(Action).where(Action.table_id == table.id, Action.undone_by.is_not(None))
                                 ).scalars().all()
        assert len(struck) == version - 10
    # And that, too, can be undone: the table is back as it was imported.
    assert tables.undo(new).status_code == 200
    assert tables.table(new).state == data["document"]["state"]


def test_an_imported_undo_still_counts_as_one(app, tables, client):
    """A log with an undo in it comes back with the undone change struck through and not offered again."""
    from companion.db import get_session
    from companion.models import Action, Table

    token = tables.create("fivesails", names=("Ana", "Bo", "Cy"))
    tables.post(token, "fivesails/start")
    tables.post(token, "fivesails/influence", {"player": 1, "delta": 1})
    tables.post(token, "fivesails/influence", {"player": 2, "delta": 1})
    assert tables.undo(token).status_code == 200
    new = _new(_import(client, client.get(f"/t/{token}/export.json").get_data()))
    with app.app_context():
        session = get_session()
        rows = {}
        for t in (token, new):
            table = session.execute(select(Table).where(Table.token == t)).scalars().one()
            actions = session.execute(select(Action).where(Action.table_id == table.id).order_by(Action.version)
                                      ).scalars().all()
            by_id = {a.id: a.version for a in actions}
            rows[t] = [(a.version, a.kind, by_id.get(a.undone_by), by_id.get(a.undoes), a.reverts_to) for a in actions]
        assert rows[new] == rows[token]
    assert tables.latest_action_id(new) is not None
    tables.undo(new)
    tables.undo(token)
    assert tables.table(new).state == tables.table(token).state


def test_the_restored_play_keeps_its_date(app, tables, client):
    from companion.db import get_session
    from companion.models import Play, Table

    token = tables.create("sins", names=NAMES)
    finish_sins(tables, token)
    data = client.get(f"/t/{token}/export.json").get_json()
    new = _new(_import(client, data))

    def play(t):
        with app.app_context():
            session = get_session()
            table = session.execute(select(Table).where(Table.token == t)).scalars().one()
            return session.execute(select(Play).where(Play.table_id == table.id)).scalars().one()
    old, restored = play(token), play(new)
    assert restored.started_at.replace(tzinfo=None) == old.started_at.replace(tzinfo=None, microsecond=0)
    assert restored.finished_at.replace(tzinfo=None) == old.finished_at.replace(tzinfo=None, microsecond=0)
    assert restored.data["source_id"] == old.data["source_id"]
    # Undo on the restored table reopens the game, as on the original: its play goes, then comes
    # back with the same date when the table is finished again.
    assert tables.undo(new).status_code == 200
    assert tables.table(new).status != "finished"


@pytest.mark.parametrize("tamper, field", [
    # A score made impossible before the last change.
    (lambda h: h[-1]["undo"].append({"op": "replace", "path": "/state/game/players/1/influence", "value": 10**12}),
     "influence"),
    (lambda h: h[-1]["undo"].append({"op": "add", "path": "/state/game/evil", "value": 1}), "evil"),
    (lambda h: h[-1]["undo"].append({"op": "replace", "path": "/name", "value": "\u0000x"}), "document.name"),
    (lambda h: h[3]["undo"].append({"op": "remove", "path": "/state/nothing"}), "change 4 (undo)"),
    (lambda h: h[3].update(undo=[{"op": "evil", "path": "/"}]), "change 4 (undo)"),
    (lambda h: h[3].update(version=7), "change 4 (version)"),
    (lambda h: h[3].update(summary="x\u0000"), "change 4 (summary)"),
    (lambda h: h[3].update(args={"player": {"not": "a message"}}), "change 4 (args)"),
    (lambda h: h[3].update(at="yesterday"), "change 4 (at)"),
    (lambda h: h[3].update(at="0001-01-01T00:00:00+05:00"), "change 4 (at)"),
    (lambda h: h[3].update(undo=[{"op": "copy", "path": "/state/x", "from": "/state"}]), "change 4 (undo)"),
    (lambda h: h[3].update(reverts_to=4), "change 4 (reverts_to)"),
    (lambda h: h[3].update(undoes=2), "change 4 (undoes)"),
    (lambda h: h.append(copy.deepcopy(h[-1])), "(version)"),
])
def test_a_tampered_history_is_refused_naming_the_field(tables, client, tamper, field):
    token = tables.create("fivesails", names=("Ana", "Bo", "Cy"))
    tables.post(token, "fivesails/start")
    for pid in (1, 2, 3, 1, 2):
        tables.post(token, "fivesails/influence", {"player": pid, "delta": 1})
    data = client.get(f"/t/{token}/export.json").get_json()
    tamper(data["history"])
    resp = _import(client, data)
    assert resp.status_code == 422, text_of(resp)[:300]
    body = text_of(resp)
    assert "history" in body and field in body, body[:600]
    assert 'role="alert"' in resp.get_data(as_text=True)
    # What was pasted is kept.
    assert "table-companion/table" in resp.get_data(as_text=True)


def test_a_version_1_file_still_imports_without_its_history(tables, client):
    token = tables.create("sins", names=NAMES)
    finish_sins(tables, token)
    data = client.get(f"/t/{token}/export.json").get_json()
    old = {**data, "version": 1,
           "history": [{k: h[k] for k in ("version", "kind", "summary", "args", "at")} | {"undoes": None}
                       for h in data["history"]]}
    resp = _import(client, old)
    new = _new(resp)
    page = text_of(client.get(resp.headers["Location"]))
    assert "without its history" in page
    restored = tables.table(new)
    assert restored.status == "finished" and restored.result == tables.table(token).result
    assert restored.version == 1  # its log starts with the import


def _grouped_export(tables, client):
    group, view = new_group(client)
    token = tables.create("sins", names=NAMES)
    assert client.post(f"/t/{token}/group", data={"group": f"/g/{group}"}).status_code == 303
    data = client.get(f"/t/{token}/export.json").get_json()
    assert group not in json.dumps(data) and view not in json.dumps(data) and len(data["group"]) == 24
    return group, view, data


def _group_of(app, token):
    from companion.db import get_session
    from companion.models import Table
    from companion.plays import sync

    with app.app_context():
        session = get_session()
        table = session.execute(select(Table).where(Table.token == token)).scalars().one()
        return sync.group_id_of(session, table.id)


def test_the_group_comes_back_with_its_edit_link(app, tables, client):
    group, _view, data = _grouped_export(tables, client)
    client.delete_cookie("groups", domain="companion.test")  # another phone, that never opened the group
    resp = _import(client, data, group=f"https://companion.test/g/{group}")
    new = _new(resp)
    assert _group_of(app, new) is not None
    assert "now in the group" in text_of(client.get(resp.headers["Location"]))


def test_the_group_comes_back_on_a_phone_that_holds_its_edit_link(app, tables, client):
    _group, _view, data = _grouped_export(tables, client)  # this phone opened the group's own link
    new = _new(_import(client, data))
    assert _group_of(app, new) is not None


def test_the_group_is_ignored_without_its_edit_link(app, tables, client):
    _group, view, data = _grouped_export(tables, client)
    client.delete_cookie("groups", domain="companion.test")
    resp = _import(client, data)
    new = _new(resp)
    assert _group_of(app, new) is None
    assert "not back in that group" in text_of(client.get(resp.headers["Location"]))
    # A view-only link is not the group's own link: refused next to the field, the text kept.
    resp = _import(client, data, group=f"/g/{view}")
    assert resp.status_code == 422 and "view-only link cannot add tables" in text_of(resp)
    assert 'id="group-err"' in resp.get_data(as_text=True) and "table-companion/table" in resp.get_data(as_text=True)
    resp = _import(client, data, group="nothing like a link")
    assert resp.status_code == 422 and "No group matches this link" in text_of(resp)
    resp = _import(client, data, group="x" * 400)
    assert resp.status_code == 422 and "too long for a group link" in text_of(resp)


def test_the_import_page_takes_the_group_from_the_group_page(client):
    group, view = new_group(client)
    resp = client.get(f"/import?group={group}")
    assert resp.status_code == 200 and f'value="{group}"' in resp.get_data(as_text=True)
    # The group page links to it, on its own link only.
    page = client.get(f"/g/{group}").get_data(as_text=True)
    assert f"/import?group={group}" in page
    assert "/import?group=" not in client.get(f"/g/{view}").get_data(as_text=True)


def test_restored_changes_carry_no_submission_ids_and_taps_land(app, tables, client):
    """A phone's tap on the restored table is never taken for a restored change (or the reverse):
    restored changes keep no submission id, and a tap sent twice still lands once."""
    from companion.db import get_session
    from companion.models import Action, Table

    token = tables.create("fivesails", names=("Ana", "Bo", "Cy"))
    tables.post(token, "fivesails/start")
    tables.post(token, "fivesails/influence", {"player": 1, "delta": 1, "sid": "phone-tap-1"})
    new = _new(_import(client, client.get(f"/t/{token}/export.json").get_data()))
    assert "sid" not in client.get(f"/t/{token}/export.json").get_data(as_text=True)
    before = tables.version(new)
    for _ in range(2):  # the same tap id as on the original table, sent twice
        resp = tables.post(new, "fivesails/influence", {"player": 1, "delta": 1, "sid": "phone-tap-1"})
        assert resp.status_code == 200, text_of(resp)[:300]
    assert tables.version(new) == before + 1
    with app.app_context():
        session = get_session()
        table = session.execute(select(Table).where(Table.token == new)).scalars().one()
        subs = session.execute(select(Action.submission).where(Action.table_id == table.id)
                               .order_by(Action.version)).scalars().all()
    assert subs[:before] == [None] * before and subs[before] is not None


def test_a_history_too_costly_to_check_is_refused():
    """Checking costs (changes) x (document size): past backup.WORK_MAX the file is refused unread."""
    from companion.domain import Invalid
    from companion.games import GAMES
    from companion.plays import backup

    history = [{"version": i + 1, "kind": "influence", "summary": "x", "args": {}, "at": "2026-11-27T05:00:00",
                "undo": []} for i in range(100)]
    with pytest.raises(Invalid) as err:
        backup.check(history, {}, GAMES["fivesails"], backup.WORK_MAX // 50)
    assert err.value.problems[0].params == {"num": 100}


def test_the_restored_log_is_the_original_log(app, tables, client):
    """Every change comes back as it was (kind, words, time, patch): checking the file must leave
    the patches it replays untouched, or a later Undo would restore the wrong document."""
    from companion.db import get_session
    from companion.models import Action, Table

    token = tables.create("sins", names=NAMES)
    finish_sins(tables, token)
    data = client.get(f"/t/{token}/export.json").get_json()
    new = _new(_import(client, data))
    with app.app_context():
        session = get_session()
        logs = []
        for t in (token, new):
            table = session.execute(select(Table).where(Table.token == t)).scalars().one()
            logs.append([(a.version, a.kind, a.summary, a.args, a.undo_patch, a.created_at.replace(tzinfo=None, microsecond=0))
                         for a in session.execute(select(Action).where(Action.table_id == table.id)
                                                  .order_by(Action.version)).scalars()])
    assert logs[1] == logs[0] and len(logs[0]) > 5


def test_checking_a_history_leaves_its_patches_as_they_were():
    """Replaying puts a patch's value into the document; an earlier patch then changing inside it
    must not change the stored patch (jsonpatch inserts values by reference)."""
    from types import SimpleNamespace

    from companion.plays import backup
    from companion.tables.shape import Strict

    class Box(Strict):
        a: int

    class State(Strict):
        box: Box

    doc = {"name": "T", "status": "playing", "result": None,
           "state": {"players": [{"id": 1, "name": "Ana", "colour": None}, {"id": 2, "name": "Bo", "colour": None}],
                     "game": {"box": {"a": 2}}}}
    history = [{"version": 1, "kind": "box", "summary": "a", "args": {}, "at": "2026-11-27T05:00:00",
                "undo": [{"op": "replace", "path": "/state/game/box/a", "value": 0}]},
               {"version": 2, "kind": "box", "summary": "b", "args": {}, "at": "2026-11-27T05:01:00",
                "undo": [{"op": "replace", "path": "/state/game/box", "value": {"a": 1}}]}]
    entries = backup.check(copy.deepcopy(history), doc, SimpleNamespace(shape=State), 200)
    assert [e.undo for e in entries] == [h["undo"] for h in history]
    assert doc["state"]["game"]["box"] == {"a": 2}
