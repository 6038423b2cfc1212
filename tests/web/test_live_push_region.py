"""The push carries the change itself (issue 33): each phone's stream sends its own live region, the
same bytes its fetch of `?since=` would have answered (link, language, CSRF token), rendered once per
version; streams have caps of their own (per address, per process) that answer 503 with Retry-After.

The version news behind a push reaches a stream by the process's own signal here; what differs by
database (the SQLite version query, PostgreSQL's LISTEN/NOTIFY) is in test_live_push.py."""
from __future__ import annotations

import re
import zlib

import pytest

from companion.tables import live, stream
from tests.web.test_live_push import streams  # noqa: F401  (the fixture: short streams, quick polls)

FIVE = ("Ana", "Bo", "Cy")


def tap(tables, token, sid):
    return tables.post(token, "fivesails/influence", {"player": 1, "delta": 1, "sid": sid})


class Events:
    """Reads a stream's events as an EventSource would: (event name, id, data), heartbeats left out;
    gzip-decoded when the stream is compressed."""

    def __init__(self, resp):
        self.resp = resp
        self.body = iter(resp.response)
        self.inflate = zlib.decompressobj(31) if resp.headers.get("Content-Encoding") == "gzip" else None
        self.buffer = ""
        self.wire = 0  # bytes received, as sent

    def read(self):
        chunk = next(self.body)
        chunk = chunk if isinstance(chunk, bytes) else chunk.encode()
        self.wire += len(chunk)
        self.buffer += (self.inflate.decompress(chunk) if self.inflate else chunk).decode()

    def next(self):
        while True:
            while "\n\n" in self.buffer:
                block, self.buffer = self.buffer.split("\n\n", 1)
                fields = {"data": []}
                for line in block.split("\n"):
                    name, _sep, value = line.partition(": ")
                    if name == "data":
                        fields["data"].append(value)
                    elif name in ("event", "id"):
                        fields[name] = value
                if fields.get("event") in ("version", "region"):
                    return fields["event"], int(fields["id"]), "\n".join(fields["data"])
            self.read()


def open_stream(client, token, query="_page=players", version=None, **kw):
    url = f"/t/{token}/events?{query}" + (f"&_v={version}" if version is not None else "")
    return client.get(url, buffered=False, **kw)


def fetched(client, token, slug="players", **kw):
    """What the phone's own fetch of its region answers (the poll that found a change)."""
    resp = client.get(f"/t/{token}/{slug}", headers={"HX-Request": "true", "HX-Target": "live"}, **kw)
    assert resp.status_code == 200
    return resp.get_data(as_text=True)


def test_the_table_page_and_its_fragment_name_their_own_stream(tables):
    token = tables.create("fivesails", names=FIVE)
    page = tables.client.get(f"/t/{token}/players").get_data(as_text=True)
    assert f'data-live-stream="/t/{token}/events?_page=players"' in page
    fragment = fetched(tables.client, token)
    assert f'data-live-stream="/t/{token}/events?_page=players"' in fragment


def test_a_tap_reaches_the_other_phone_as_its_own_region_exactly_as_its_fetch_would(streams, tables):
    token = tables.create("fivesails", names=FIVE)
    other = streams.test_client()  # phone B: its own session and CSRF token
    other.get(f"/t/{token}/players")
    seen = tables.version(token)
    events = Events(open_stream(other, token, version=seen))
    assert tap(tables, token, "tap-push-0001").status_code == 200
    kind, version, html = events.next()
    assert (kind, version) == ("region", seen + 1)
    assert html.startswith(f'<div id="live" data-version="{seen + 1}"')
    assert html == fetched(other, token)  # same bytes as B's own fetch: B's CSRF token, not A's
    mine = re.search(r'name="csrf_token" value="([^"]+)"', fetched(tables.client, token)).group(1)
    theirs = re.search(r'name="csrf_token" value="([^"]+)"', html).group(1)
    assert theirs != mine and live.PageCache.CSRF not in html
    events.resp.close()
    assert stream.hub(streams).streams == 0


def test_a_french_phone_and_a_view_only_link_each_get_their_own_region(streams, tables):
    token = tables.create("fivesails", names=FIVE)
    view = tables.table(token).view_token
    french, spectator = streams.test_client(), streams.test_client()
    french.set_cookie("lang", "fr", domain="companion.test")
    seen = tables.version(token)
    fr_events = Events(open_stream(french, token, version=seen))
    view_events = Events(open_stream(spectator, view, version=seen))
    assert tap(tables, token, "tap-push-0002").status_code == 200
    _kind, _v, fr_html = fr_events.next()
    _kind, _v, view_html = view_events.next()
    assert fr_html == fetched(french, token)
    assert "Joueurs" in fr_html or "joueurs" in fr_html
    assert view_html == fetched(spectator, view)
    assert "<form" not in view_html and token not in view_html
    fr_events.resp.close()
    view_events.resp.close()


def test_streams_woken_by_one_change_render_the_region_once(streams, tables, monkeypatch):
    token = tables.create("fivesails", names=FIVE)
    phones = [streams.test_client() for _ in range(4)]
    for phone in phones:
        phone.get(f"/t/{token}/players")
    seen = tables.version(token)
    readers = [Events(open_stream(phone, token, version=seen)) for phone in phones]
    renders = []
    original = live.render_template

    def counted(name, **ctx):
        renders.append(name)
        return original(name, **ctx)
    monkeypatch.setattr(live, "render_template", counted)
    # The tapping phone is on another page (the table's settings): its own answer renders that one.
    assert tables.post(token, "fivesails/influence", {"player": 1, "delta": 1, "sid": "tap-push-0003"},
                       page="table").status_code == 200
    renders.clear()
    htmls = {reader.next()[2] for reader in readers}
    assert renders == ["tables/_live.html"]  # one render of the players page for four phones
    assert len(htmls) == 4  # each with its own CSRF token
    for reader in readers:
        reader.resp.close()


def test_a_gzip_stream_sends_later_regions_as_little_more_than_their_change(streams, tables):
    token = tables.create("fivesails", names=FIVE)
    assert tap(tables, token, "tap-push-0009").status_code == 200  # the table starts: a big change
    other = streams.test_client()
    other.get(f"/t/{token}/players")
    seen = tables.version(token)
    resp = open_stream(other, token, version=seen, headers={"Accept-Encoding": "gzip, deflate"})
    assert resp.headers["Content-Encoding"] == "gzip" and "Accept-Encoding" in resp.headers["Vary"]
    events = Events(resp)
    events.read()  # "retry"
    events.read()  # the region the phone shows: primes the compressor, no page listens to it
    assert events.buffer.startswith("retry: 2000\n\nevent: shown\ndata: <div id=\"live\"")
    assert "\nid:" not in events.buffer  # the phone's last event id stays
    sizes = []
    for n in range(3):
        before = events.wire
        assert tap(tables, token, f"tap-push-001{n}").status_code == 200
        kind, version, html = events.next()
        assert (kind, version) == ("region", seen + n + 1) and html == fetched(other, token)
        sizes.append(events.wire - before)
    # The stream was primed with the region the phone showed: every change is small on the wire.
    assert max(sizes) < len(html.encode()) / 10, (sizes, len(html))
    resp.close()


def test_a_phone_with_a_message_waiting_is_told_the_version_and_fetches(streams, tables):
    token = tables.create("fivesails", names=FIVE)
    other = streams.test_client()
    other.get(f"/t/{token}/players")
    with other.session_transaction() as sess:
        sess["_flashes"] = [("message", "Just for this phone")]
    seen = tables.version(token)
    events = Events(open_stream(other, token, version=seen))
    assert tap(tables, token, "tap-push-0020").status_code == 200
    assert events.next() == ("version", seen + 1, str(seen + 1))
    events.resp.close()
    with other.session_transaction() as sess:
        assert sess["_flashes"]  # still there for its fetch to show


@pytest.mark.parametrize("query", ["_page=nowhere", "_page=events", "_page=history", "_page=a/b",
                                   "_page=" + "x" * 300, "v=3"])
def test_a_stream_naming_no_table_page_falls_back_to_version_news(streams, tables, query):
    """Bad input: a made-up page, the stream's own address, another route, an old page (`v=` only)."""
    token = tables.create("fivesails", names=FIVE)
    seen = tables.version(token)
    resp = open_stream(tables.client, token, query=query, version=seen)
    assert resp.status_code == 200
    events = Events(resp)
    assert tap(tables, token, "tap-push-0030").status_code == 200
    assert events.next() == ("version", seen + 1, str(seen + 1))
    resp.close()
    assert stream.hub(streams).streams == 0


def test_an_unreadable_version_gets_the_region_at_once(streams, tables):
    token = tables.create("fivesails", names=FIVE)
    resp = tables.client.get(f"/t/{token}/events?_page=players&_v=abc", buffered=False)
    kind, version, html = Events(resp).next()
    assert (kind, version) == ("region", tables.version(token)) and html.startswith('<div id="live"')
    resp.close()


def test_streams_over_the_process_cap_get_503_with_retry_after(streams, tables):
    stream.hub(streams).max_streams = 0
    token = tables.create("fivesails", names=FIVE)
    resp = tables.client.get(f"/t/{token}/events?_page=players")
    assert resp.status_code == 503 and int(resp.headers["Retry-After"]) > 0
    assert tables.client.get(f"/t/{token}/players").status_code == 200


def test_streams_per_address_have_their_own_cap_and_never_block_pages_or_taps(streams, tables):
    hub = stream.hub(streams)
    hub.per_address = 2
    from companion import limits

    # The connection counter is per process, and a live server another test left running in this
    # worker may still hold streams from 127.0.0.1: this phone has an address of its own.
    tables.client.environ_base["REMOTE_ADDR"] = PHONE = "10.0.0.6"
    token = tables.create("fivesails", names=FIVE)
    held = [open_stream(tables.client, token) for _ in range(2)]
    assert all(r.status_code == 200 for r in held)
    refused = open_stream(tables.client, token)
    assert refused.status_code == 503 and "Retry-After" in refused.headers
    elsewhere = open_stream(streams.test_client(), token, environ_base={"REMOTE_ADDR": "10.0.0.7"})
    assert elsewhere.status_code == 200  # another address has its own room
    assert tables.client.get(f"/t/{token}/players").status_code == 200
    assert tap(tables, token, "tap-push-0040").status_code == 200
    assert limits.streams_from(PHONE) == 2
    for r in [*held, elsewhere]:
        r.close()
    assert limits.streams_from(PHONE) == 0 and hub.streams == 0 and hub.by_address == {}


def test_with_region_pushes_switched_off_the_stream_says_only_the_version(streams, tables):
    """LIVE_PUSH_REGION=0: the push as before issue 33 (bench/sync.py's "version only" row)."""
    streams.config["LIVE_PUSH_REGION"] = False
    token = tables.create("fivesails", names=FIVE)
    seen = tables.version(token)
    events = Events(open_stream(tables.client, token, version=seen))
    assert tap(tables, token, "tap-push-0050").status_code == 200
    assert events.next() == ("version", seen + 1, str(seen + 1))
    events.resp.close()
