"""Link management: replace the edit link, archive and restore, delete; each in the table's history."""
from __future__ import annotations

import pytest

from companion.db import get_session
from companion.models import Action
from tests.conftest import HX, text_of

pytestmark = pytest.mark.both_databases  # rotation, archive and delete with its cascade in each database


def log_kinds(app, table_id):
    with app.app_context():
        return [a.kind for a in get_session().query(Action).filter_by(table_id=table_id).order_by(Action.version)]


def test_replacing_the_edit_link(app, client, tables):
    token = tables.create("sins")
    table = tables.table(token)
    view = table.view_token
    resp = tables.post(token, "link/rotate", htmx=False)
    assert resp.status_code == 303
    new = resp.headers["Location"].split("/t/")[1].split("/")[0]
    assert new != token and len(new) == len(token)
    # The old link opens nothing and changes nothing; the new one and the view link work.
    assert client.get(f"/t/{token}").status_code == 404
    assert client.post(f"/t/{token}/rename", data={"v": 1, "name": "Hijack"}).status_code == 404
    page = client.get(f"/t/{new}/table")
    assert page.status_code == 200 and "new edit link" in text_of(page)
    assert client.get(f"/t/{view}").status_code == 200
    assert tables.post(new, "rename", {"name": "Still ours"}).status_code == 200
    assert "table.link" in log_kinds(app, table.id)
    assert "edit link was replaced" in text_of(client.get(f"/t/{new}/table"))
    # The phone's list of tables follows the new link.
    assert new in client.get_cookie("tables", domain="companion.test").value and token not in client.get_cookie("tables", domain="companion.test").value


def test_replacing_the_link_with_htmx_navigates(client, tables):
    token = tables.create("sins")
    resp = tables.post(token, "link/rotate")
    assert resp.status_code == 204 and resp.headers["HX-Redirect"].startswith("/t/")


def test_the_view_link_cannot_replace_or_delete(client, tables):
    token = tables.create("sins")
    view = tables.table(token).view_token
    assert client.post(f"/t/{view}/link/rotate", data={"v": 0}).status_code == 403
    assert client.post(f"/t/{view}/delete", data={"v": 0}).status_code == 403
    assert client.post(f"/t/{view}/archive", data={"v": 0, "archive": 1}).status_code == 403
    assert client.get(f"/t/{token}").status_code == 200


def test_archive_and_restore(app, client, tables):
    token = tables.create("sins")
    assert tables.post(token, "archive", {"archive": 1}, page="table").status_code == 200
    resp = tables.post(token, "rename", {"name": "Nope"})
    assert resp.status_code == 423 and "archived" in text_of(resp)
    assert tables.table(token).name == "Test table"
    page = client.get(f"/t/{token}/table")
    assert page.status_code == 200 and "Restore the table" in text_of(page)
    assert tables.post(token, "archive", {"archive": 0}, page="table").status_code == 200
    assert tables.post(token, "rename", {"name": "Yes"}).status_code == 200
    assert log_kinds(app, tables.table(token).id)[-3:] == ["table.archive", "table.archive", "table.rename"]


def test_deleting_a_table(app, client, tables):
    token = tables.create("sins")
    table = tables.table(token)
    tables.post(token, "rename", {"name": "Soon gone"})
    resp = tables.post(token, "delete", htmx=False)
    assert resp.status_code == 303 and resp.headers["Location"].endswith("/")
    assert client.get(f"/t/{token}").status_code == 404
    assert client.get(f"/t/{table.view_token}").status_code == 404
    assert log_kinds(app, table.id) == []  # its history went with it
    home = client.get("/")
    assert "was deleted" in text_of(home) and "Soon gone" not in text_of(home).replace("“Soon gone” was deleted", "")


def test_the_settings_page_offers_it_only_with_the_edit_link(client, tables):
    token = tables.create("sins")
    assert "Replace the edit link" in text_of(client.get(f"/t/{token}/table"))
    view = tables.table(token).view_token
    assert "Replace the edit link" not in text_of(client.get(f"/t/{view}/table"))
    frag = client.get(f"/t/{token}/table", headers=HX)
    assert 'hx-confirm="Delete this table' in frag.get_data(as_text=True)


# -- retention -------------------------------------------------------------------------------------

def _age(app, token, days):
    from datetime import timedelta

    from sqlalchemy import update

    from companion.models import Table, utcnow
    with app.app_context():
        session = get_session()
        session.execute(update(Table).where(Table.token == token).values(updated_at=utcnow() - timedelta(days=days)))
        session.commit()


def test_retention_archives_idle_tables_then_deletes_them(app, client, tables):
    from click.testing import CliRunner

    from companion.tables import retention
    from companion.cli import retention_command

    fresh, idle, old = tables.create("sins"), tables.create("gibbon", names=("A", "B", "C")), tables.create("sins")
    _age(app, idle, 200)
    _age(app, old, 200)
    with app.app_context():
        dry = retention.apply(get_session(), archive_days=180, delete_days=365, dry_run=True)
        assert len(dry.archived) == 2 and dry.deleted == []
        done = retention.apply(get_session(), archive_days=180, delete_days=365)
    assert sorted(done.archived) == sorted([tables.table(idle).id, tables.table(old).id])
    assert tables.table(idle).state["archived"] is True and "archived" not in tables.table(fresh).state
    assert tables.post(idle, "rename", {"name": "x"}).status_code == 423
    assert "archived after 180 days" in text_of(client.get(f"/t/{idle}/table"))
    # A year and more later, still archived: deleted. A restored table starts counting again.
    _age(app, old, 400)
    _age(app, idle, 400)
    assert tables.post(idle, "archive", {"archive": 0}).status_code == 200
    with app.app_context():
        done = retention.apply(get_session(), archive_days=180, delete_days=365)
    assert done.archived == [] and len(done.deleted) == 1
    assert client.get(f"/t/{old}").status_code == 404
    assert client.get(f"/t/{idle}").status_code == 200 and client.get(f"/t/{fresh}").status_code == 200

    with app.app_context():
        result = CliRunner().invoke(retention_command, ["--dry-run"])
    assert result.exit_code == 0 and "0 idle tables would be archived" in result.output


def test_the_one_tap_undo_never_offers_to_undo_a_replaced_link(tables, client):
    """The new link can't be taken back, so Undo passes over it to the change before."""
    token = tables.create("sins")
    assert tables.post(token, "rename", {"name": "Friday", "page": "table"}).status_code == 200
    resp = tables.post(token, "link/rotate", {"page": "table"}, htmx=False)
    new = resp.headers["Location"].split("/t/")[1].split("/")[0]
    page = client.get(f"/t/{new}/table").get_data(as_text=True)
    assert "Undo: The table is now called Friday" in page
