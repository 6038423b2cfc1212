"""The web app manifest (issue 29): an `id` that names one app whatever the language, and the
app's name in French on a phone in French, including one that chose French in the footer (a
browser fetches the manifest without the page's cookies, so the page's link says the language)."""
from __future__ import annotations

import json
import re


def manifest(client, url="/manifest.webmanifest", **headers):
    resp = client.get(url, headers=headers)
    assert resp.status_code == 200 and resp.headers["Content-Type"] == "application/manifest+json"
    return json.loads(resp.get_data(as_text=True))


def test_the_manifest_has_an_id_that_is_the_same_in_every_language(client):
    english = manifest(client)
    french = manifest(client, "/manifest.webmanifest?lang=fr")
    assert english["id"] == french["id"] == "/" == english["start_url"]
    assert (english["name"], english["lang"]) == ("Table Companion", "en")
    assert (french["name"], french["short_name"], french["lang"]) == ("Compagnon de table", "Compagnon", "fr")


def test_a_phone_in_french_gets_the_french_manifest(client):
    assert manifest(client, **{"Accept-Language": "fr-FR,fr;q=0.9"})["name"] == "Compagnon de table"


def test_the_page_links_the_manifest_in_the_language_chosen_in_the_footer(client):
    link = re.compile(r'<link rel="manifest" href="([^"]+)">')
    assert link.search(client.get("/").get_data(as_text=True)).group(1) == "/manifest.webmanifest"
    client.set_cookie("lang", "fr", domain="companion.test")
    href = link.search(client.get("/").get_data(as_text=True)).group(1)
    assert href == "/manifest.webmanifest?lang=fr"
    # Fetched as a browser does, without the cookie: still French.
    client.delete_cookie("lang", domain="companion.test")
    assert manifest(client, href)["name"] == "Compagnon de table"


def test_an_unknown_language_is_ignored(client):
    assert manifest(client, "/manifest.webmanifest?lang=xx")["lang"] == "en"
