"""A SQLite database that can't be written (issue 27): the server starts anyway, serves every page,
answers each change with the honest 503 "cannot save", writes nothing, and /healthz says why.

Read-only three ways: `?mode=ro` on DATABASE_URL (what an operator sets; it works as root, where
chmod stops nothing), the file and its folder chmod'ed read-only (a non-root server only), and a
read-only bind mount (needs `unshare -m`; skipped where the machine does not allow it)."""
from __future__ import annotations

import hashlib
import json
import logging
import os
import shutil
import stat
import subprocess
import sys
import textwrap

import pytest

from companion.db import migrate, read_only_reason
from tests.conftest import HX, Tables, make_app, text_of
from tests.web.test_failure import assert_cannot_save

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def digest(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def played(sqlite_template, tmp_path, monkeypatch):
    """A SQLite file holding a table with a few changes, every connection to it closed: (path, token)."""
    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path / "instance"))
    folder = tmp_path / "data"
    folder.mkdir()
    path = folder / "companion.sqlite3"
    shutil.copy(sqlite_template, path)
    app = make_app(f"sqlite:///{path}", tmp_path)
    tables = Tables(app, app.test_client())
    token = tables.create("sins", name="Friday")
    assert tables.post(token, "rename", {"name": "Friday night"}).status_code == 200
    assert tables.post(token, "players/rename", {"player": 1, "name": "Zed"}).status_code == 200
    app.extensions["companion.engine"].dispose()  # the last connection closes: SQLite folds its -wal in
    return path, token


def _read_only_by_url(path):
    return f"sqlite:///{path}?mode=ro"


def _read_only_by_chmod(path):
    if os.geteuid() == 0:
        pytest.skip("root writes through chmod: the mode=ro and read-only mount variants cover root")
    path.chmod(stat.S_IRUSR | stat.S_IRGRP | stat.S_IROTH)
    path.parent.chmod(stat.S_IRUSR | stat.S_IXUSR)
    return f"sqlite:///{path}"


@pytest.mark.parametrize("make_read_only", [_read_only_by_url, _read_only_by_chmod], ids=["mode-ro", "chmod"])
def test_a_read_only_file_serves_every_page_and_refuses_every_change_honestly(played, tmp_path, caplog,
                                                                               make_read_only):
    path, token = played
    url = make_read_only(path)
    try:
        before = digest(path)
        assert read_only_reason(url)
        with caplog.at_level(logging.ERROR):
            app = make_app(url, tmp_path)  # starts, where it used to fail
        assert any("database is read-only" in r.getMessage() for r in caplog.records)
        client = app.test_client()
        tables = Tables(app, client)

        for page in ("/", f"/t/{token}", f"/t/{token}/table", f"/t/{token}/setup", f"/t/{token}/history",
                     "/rules", "/rules/sins", "/rules/search?q=stone&game=sins", f"/t/{token}/export.json"):
            resp = client.get(page)
            assert resp.status_code == 200, (page, resp.status_code)
        assert client.get(f"/t/{token}", headers=HX).status_code == 200  # the live region too
        assert "Friday night" in text_of(client.get(f"/t/{token}/table"))
        assert "Zed" in text_of(client.get(f"/t/{token}/history"))

        version = tables.version(token)
        caplog.clear()
        with caplog.at_level(logging.ERROR, logger="companion"):
            assert_cannot_save(tables.post(token, "rename", {"name": "Saturday"}))
            assert_cannot_save(tables.post(token, "players/rename", {"player": 2, "name": "Yan"}, htmx=False))
            assert_cannot_save(tables.undo(token))
            assert_cannot_save(client.post("/new/sins", data={"name": "T", "players-0": "Ana", "players-1": "Bo"}))
        assert any("could not be saved" in r.getMessage() for r in caplog.records)
        table = tables.table(token)
        assert (table.version, table.name) == (version, "Friday night")
        assert digest(path) == before  # nothing written, not even by the start

        resp = client.get("/healthz")
        assert resp.status_code == 503
        assert resp.json["database"] == "read-only" and resp.json["reason"].startswith("database is read-only")
        app.extensions["companion.engine"].dispose()
    finally:
        path.parent.chmod(0o755)
        path.chmod(0o644)


def test_a_writable_file_is_not_taken_for_read_only(played, tmp_path):
    path, token = played
    url = f"sqlite:///{path}"
    assert read_only_reason(url) is None
    app = make_app(url, tmp_path)
    assert app.test_client().get("/healthz").status_code == 200
    assert Tables(app, app.test_client()).post(token, "rename", {"name": "Saturday"}).status_code == 200
    app.extensions["companion.engine"].dispose()


def test_migrating_a_read_only_file_leaves_it_alone_and_says_when_it_is_behind(played, tmp_path, caplog):
    from alembic import command

    from companion.db import alembic_config

    path, _token = played
    before = digest(path)
    assert migrate(_read_only_by_url(path)) is None  # already the newest: nothing to do, no error
    assert digest(path) == before

    old = tmp_path / "old.sqlite3"
    command.upgrade(alembic_config(f"sqlite:///{old}"), "0003")
    old_digest = digest(old)
    problem = migrate(_read_only_by_url(old))
    assert problem and "0003" in problem and "can't be migrated" in problem
    assert digest(old) == old_digest
    with caplog.at_level(logging.ERROR):
        app = make_app(_read_only_by_url(old), tmp_path)  # starts anyway, and says so loudly
    assert any("can't be migrated" in r.getMessage() for r in caplog.records)
    app.extensions["companion.engine"].dispose()


MOUNTED = textwrap.dedent("""
    import json, sys
    from companion.db import read_only_reason
    from tests.conftest import make_app, Tables
    url = sys.argv[1]
    app = make_app(url, sys.argv[2])
    client = app.test_client()
    tables = Tables(app, client)
    token = sys.argv[3]
    out = {"reason": read_only_reason(url),
           "home": client.get("/").status_code,
           "table": client.get(f"/t/{token}/table").status_code,
           "history": client.get(f"/t/{token}/history").status_code,
           "rename": tables.post(token, "rename", {"name": "Saturday"}).status_code,
           "healthz": client.get("/healthz").get_json()}
    print(json.dumps(out))
""")


def test_a_read_only_mount_is_found_and_served(played, tmp_path):
    """The folder bind-mounted read-only, as root: os.access sees the read-only mount."""
    path, token = played
    mount = tmp_path / "ro"
    mount.mkdir()
    probe = subprocess.run(["unshare", "-m", "sh", "-c", f"mount --bind {path.parent} {mount} && "
                            f"mount -o remount,bind,ro {mount}"], capture_output=True)
    if shutil.which("unshare") is None or probe.returncode != 0:
        pytest.skip("no read-only bind mount here (needs unshare -m and mount)")
    before = digest(path)
    url = f"sqlite:///{mount / path.name}"
    script = (f"mount --bind {path.parent} {mount} && mount -o remount,bind,ro {mount} && "
              f'exec "$0" -c "$1" "$2" "$3" "$4"')
    run = subprocess.run(["unshare", "-m", "sh", "-c", script, sys.executable, MOUNTED, url, str(tmp_path), token],
                         capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    out = json.loads(run.stdout.strip().splitlines()[-1])
    assert out["reason"] and "not writable" in out["reason"]
    assert (out["home"], out["table"], out["history"], out["rename"]) == (200, 200, 200, 503)
    assert out["healthz"]["database"] == "read-only"
    assert out["healthz"]["reason"].startswith("database is read-only: the file")
    assert digest(path) == before


@pytest.mark.slow
def test_gunicorn_serves_a_read_only_file(played, tmp_path):
    from tests.servers import Browser, Gunicorn

    path, token = played
    before = digest(path)
    instance = tmp_path / "instance"
    server = Gunicorn(instance, workers=1, env={"DATABASE_URL": _read_only_by_url(path)}).start(ready="/ping")
    try:
        phone = Browser(server.url)
        for page in ("/", f"/t/{token}/table", f"/t/{token}/history", "/rules/sins"):
            status, _h, _body = phone.get(page)
            assert status == 200, page
        values = phone.table_form_values(token)
        status, headers, body = phone.post(f"/t/{token}/rename", {**values, "name": "Saturday", "page": "table"},
                                           headers={"HX-Request": "true", "HX-Target": "live"})
        assert status == 503 and headers["Retry-After"].isdigit() and "Not saved" in body
        status, _h, body = phone.get("/healthz")
        assert status == 503 and "database is read-only" in body
    finally:
        server.stop()
    assert "database is read-only" in server.log_tail()
    assert digest(path) == before
