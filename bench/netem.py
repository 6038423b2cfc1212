#!/usr/bin/env python3
"""A bad network for one phone: a small TCP proxy on loopback adding latency, a bandwidth cap,
random drops and outages, so that everything the phone sends (its pages, its taps, its stream and
its service worker's requests alike) goes through the same slow link.

    .venv/bin/python bench/netem.py --target 8080 [--latency 300] [--rate 50000] [--drop 0.02]
                                    [--seconds 600] [--connections 200]

prints the port to point the phone at. Used by bench/sync.py and bench/flaky.py, which start one
proxy per phone (each phone its own link) in a thread of their own.

The model, per proxy (one phone's link):
- latency: the round trip `--latency` ms, half on the way up and half on the way down;
- bandwidth: each direction is one link of `--rate` bytes/s shared by all the phone's connections:
  a chunk leaves when the link has sent everything queued before it, then travels latency/2;
- drops: each new connection is, with probability `--drop`, cut (both ends closed) at a random
  moment within its first `--drop-within` seconds, as a phone losing its radio for a moment does;
- counted: bytes each way (`up.bytes`, `down.bytes`), and the bytes down on live streams
  (`stream_bytes`: bytes answering a request for /t/<token>/events, on whichever connection);
- outages: `outage(seconds)` cuts every connection and refuses new ones for that long (the phone
  has no network at all), as bench/flaky.py does to one phone.
Bounded: at most `--connections` open at once (more are refused), and the proxy stops by itself
after `--seconds`.
"""
from __future__ import annotations

import argparse
import asyncio
import random
import threading
import time

CHUNK = 16384


class Link:
    """One direction of the phone's link: a queue drained at `rate` bytes/s, then latency/2 away."""

    def __init__(self, rate: float, delay: float):
        self.rate = rate
        self.delay = delay
        self.free_at = 0.0
        self.bytes = 0

    def arrival(self, size: int) -> float:
        now = time.monotonic()
        start = max(now, self.free_at)
        self.free_at = start + (size / self.rate if self.rate > 0 else 0.0)
        self.bytes += size
        return self.free_at + self.delay


class Proxy:
    def __init__(self, target_port: int, *, latency_ms: float = 0, rate: float = 0, drop: float = 0.0,
                 drop_within: float = 10.0, seconds: float = 600, connections: int = 200, seed: int = 33,
                 target_host: str = "127.0.0.1"):
        self.target = (target_host, target_port)
        self.up = Link(rate, latency_ms / 2000)
        self.down = Link(rate, latency_ms / 2000)
        self.drop = drop
        self.drop_within = drop_within
        self.seconds = seconds
        self.max_connections = connections
        self.rng = random.Random(seed)
        self.open: set[asyncio.StreamWriter] = set()
        self.down_until = 0.0
        self.counts = {"connections": 0, "refused": 0, "dropped": 0}
        self.stream_bytes = 0  # bytes down answering a request for a live stream
        self.port = 0
        self.loop: asyncio.AbstractEventLoop | None = None
        self.thread: threading.Thread | None = None
        self._ready = threading.Event()
        self._stopped: asyncio.Event | None = None

    # -- running in a thread of its own ---------------------------------------------------------

    def start(self) -> "Proxy":
        self.thread = threading.Thread(target=lambda: asyncio.run(self._main()), daemon=True, name="netem")
        self.thread.start()
        if not self._ready.wait(10):
            raise RuntimeError("the proxy did not start")
        return self

    def stop(self) -> None:
        if self.loop is not None and self._stopped is not None and self.thread.is_alive():
            self.loop.call_soon_threadsafe(self._stopped.set)
            self.thread.join(10)

    def outage(self, seconds: float) -> None:
        """No network for `seconds`: every open connection is cut, new ones are refused."""
        def cut():
            self.down_until = time.monotonic() + seconds
            for writer in list(self.open):
                writer.transport.abort()
        self.loop.call_soon_threadsafe(cut)

    def quiet(self, seconds: float = 2.0, within: float = 180.0) -> None:
        """Wait (at most `within` s) until nothing but a stream's heartbeat crossed the link for
        `seconds`: a phone's first visit also fetches the rules for offline use through its link."""
        deadline = time.monotonic() + within
        last, still = self.down.bytes + self.up.bytes, time.monotonic()
        while time.monotonic() < deadline:
            time.sleep(0.2)
            now = self.down.bytes + self.up.bytes
            if now - last > 200:
                last, still = now, time.monotonic()
            elif time.monotonic() - still >= seconds:
                return

    def offline(self) -> bool:
        return time.monotonic() < self.down_until

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    async def _main(self) -> None:
        self.loop = asyncio.get_running_loop()
        self._stopped = asyncio.Event()
        server = await asyncio.start_server(self._client, "127.0.0.1", 0)
        self.port = server.sockets[0].getsockname()[1]
        self._ready.set()
        try:
            await asyncio.wait_for(self._stopped.wait(), self.seconds)
        except asyncio.TimeoutError:
            pass
        server.close()
        for writer in list(self.open):
            writer.transport.abort()
        await server.wait_closed()

    # -- one connection -------------------------------------------------------------------------

    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if self.offline() or len(self.open) >= self.max_connections:
            self.counts["refused"] += 1
            writer.transport.abort()
            return
        try:
            up_reader, up_writer = await asyncio.open_connection(*self.target)
        except OSError:
            writer.transport.abort()
            return
        self.counts["connections"] += 1
        self.open.update((writer, up_writer))
        conn = {"stream": None}
        pipes = [asyncio.create_task(self._pipe(reader, up_writer, self.up, conn)),
                 asyncio.create_task(self._pipe(up_reader, writer, self.down, conn))]
        if self.drop and self.rng.random() < self.drop:
            pipes.append(asyncio.create_task(self._cut_later(writer, up_writer)))
        try:
            await asyncio.wait(pipes[:2], return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in pipes:
                task.cancel()
            for w in (writer, up_writer):
                self.open.discard(w)
                w.close()

    async def _cut_later(self, *writers: asyncio.StreamWriter) -> None:
        await asyncio.sleep(self.rng.uniform(0, self.drop_within))
        self.counts["dropped"] += 1
        for w in writers:
            w.transport.abort()

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, link: Link,
                    conn: dict) -> None:
        """Copy in order, each chunk delivered when the link says it arrives."""
        queue: asyncio.Queue = asyncio.Queue()

        async def deliver():
            while True:
                at, data = await queue.get()
                if data is None:
                    break
                wait = at - time.monotonic()
                if wait > 0:
                    await asyncio.sleep(wait)
                writer.write(data)
                await writer.drain()
            if writer.can_write_eof():
                writer.write_eof()

        sender = asyncio.create_task(deliver())
        try:
            while True:
                data = await reader.read(CHUNK)
                if not data:
                    break
                if link is self.up and data[:4] in (b"GET ", b"POST", b"HEAD"):  # a request starts here
                    conn["stream"] = b"/events?" in data.split(b"\r\n", 1)[0]
                if link is self.down and conn["stream"]:
                    self.stream_bytes += len(data)
                queue.put_nowait((link.arrival(len(data)), data))
            queue.put_nowait((0, None))
            await sender
        except (ConnectionError, OSError):
            pass
        finally:
            sender.cancel()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--target", type=int, required=True, help="the server's port on 127.0.0.1")
    ap.add_argument("--latency", type=float, default=300, help="round trip added, ms")
    ap.add_argument("--rate", type=float, default=50_000, help="bytes per second each way (0: no cap)")
    ap.add_argument("--drop", type=float, default=0.0, help="chance a connection is cut")
    ap.add_argument("--drop-within", type=float, default=10.0, help="seconds: when a cut may come")
    ap.add_argument("--seconds", type=float, default=600, help="the proxy stops by itself after this")
    ap.add_argument("--connections", type=int, default=200, help="open connections at most")
    args = ap.parse_args()
    proxy = Proxy(args.target, latency_ms=args.latency, rate=args.rate, drop=args.drop, drop_within=args.drop_within,
                  seconds=args.seconds, connections=args.connections).start()
    print(f"{proxy.url} -> 127.0.0.1:{args.target} (latency {args.latency:g} ms, {args.rate:g} B/s, "
          f"drop {args.drop:g}); stops after {args.seconds:g} s", flush=True)
    proxy.thread.join()


if __name__ == "__main__":
    main()
