"""/import takes what /export.json makes, up to its documented size (issue 27): the CSRF check used to
parse the form under the app's 64 KB cap first, so a real 73 KB export came back 413."""
from __future__ import annotations

import json

import pytest
from werkzeug.datastructures import FileStorage
from werkzeug.test import encode_multipart

from companion.plays import transfer


@pytest.fixture
def csrf_client(csrf_app):
    return csrf_app.test_client()


def _csrf(client, path):
    import re

    html = client.get(path).get_data(as_text=True)
    return re.search(r'name="csrf_token"[^>]*value="([^"]+)"', html).group(1)


def _big_export(client, size: int) -> str:
    token = _csrf(client, "/new/sins")
    resp = client.post("/new/sins", data={"csrf_token": token, "name": "Big", "players-0": "Ana", "players-1": "Bo",
                                          "players-2": "Cy"})
    table = resp.headers["Location"].rsplit("/", 1)[1]
    text = client.get(f"/t/{table}/export.json").get_data(as_text=True)
    data = json.loads(text)
    # As large as the documented size allows, whitespace being JSON too.
    padded = json.dumps(data, indent=1)
    return padded[:-1] + " " * (size - len(padded.encode()) - 1) + padded[-1]


@pytest.mark.parametrize("how", ["pasted", "file"])
def test_an_export_up_to_the_documented_size_imports(csrf_client, how):
    import io

    text = _big_export(csrf_client, transfer.MAX_BYTES - 1024)
    assert len(text.encode()) > 64 * 1024 * 7
    data = {"csrf_token": _csrf(csrf_client, "/import")}
    if how == "pasted":
        data["text"] = text
    else:
        data["file"] = FileStorage(io.BytesIO(text.encode()), filename="table.json", content_type="application/json")
    # Encoded here, in memory: the test client would spool a body this large to a temporary file it
    # never closes, and its ResourceWarning then fails whichever later test the collector runs in.
    boundary, body = encode_multipart(data)
    resp = csrf_client.post("/import", data=body, content_type=f"multipart/form-data; boundary={boundary}")
    assert resp.status_code == 303, resp.get_data(as_text=True)[:300]


def test_beyond_the_documented_size_is_refused_with_a_4xx(csrf_client):
    data = {"csrf_token": _csrf(csrf_client, "/import"), "text": "x" * (transfer.MAX_BYTES + 64 * 1024)}
    assert csrf_client.post("/import", data=data).status_code == 413
    # Everywhere else the app's own cap holds.
    assert csrf_client.post("/g", data={"name": "x" * (80 * 1024)}).status_code == 413
