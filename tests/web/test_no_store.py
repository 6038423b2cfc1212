"""Pages and exports behind a link are `no-store` (issue 27); the rest keep `private, no-cache`."""
from tests.conftest import HX


def test_tokened_pages_and_exports_are_no_store(client, tables):
    token = tables.create("sins")
    view = tables.table(token).view_token
    for path in (f"/t/{token}", f"/t/{token}/table", f"/t/{view}", f"/t/{token}/history", f"/t/{token}/export.json"):
        resp = client.get(path)
        assert resp.status_code == 200, path
        assert resp.headers["Cache-Control"] == "no-store", path
    assert client.get(f"/t/{token}", headers=HX).headers["Cache-Control"] == "no-store"
    assert tables.post(token, "rename", {"name": "Other"}).headers["Cache-Control"] == "no-store"
    group = client.post("/g", data={"name": "Friday"}).headers["Location"].rsplit("/", 1)[1]
    assert client.get(f"/g/{group}").headers["Cache-Control"] == "no-store"
    assert client.get("/").headers["Cache-Control"] == "private, no-cache"
