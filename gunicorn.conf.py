"""gunicorn settings for every deployment (scripts/serve, the Dockerfile, the benchmark).

Worker model: gevent. Each connection is a greenlet, so a client that trickles its request (a slow
phone, or someone doing it on purpose) holds one cheap greenlet while it waits, not one of a few
threads: eight slow connections used to stop a gthread server answering anyone
(tests/web/test_slow_clients.py). gevent comes from PyPI like everything else, so `scripts/serve`
works on a fresh machine with no proxy to install. Behind a buffering proxy (Fly's, nginx) it does
no harm. GUNICORN_WORKER_CLASS=gthread brings the old model back.

Slow clients, on purpose or not (issue 27): greenlets are cheap but a worker holds at most
`worker_connections` of them, and one address trickling 1,100 connections used to fill them all.
So each gevent worker caps the connections one address may hold open (GUNICORN_CLIENT_CONNECTIONS,
default 50; a connection over the cap is answered 429 and closed at once) and closes a connection
that sends nothing for GUNICORN_READ_TIMEOUT seconds (default 10) while its request line, headers or
body are being read (the app answers 408 if that happens mid-body). Behind a proxy (TRUST_PROXY=1)
every connection comes from the proxy's address, so the cap is off unless set: the proxy limits.
A connection holding a live stream (Server-Sent Events) is left out of that cap: streams have caps
of their own (companion/tables/stream.py), so open streams never get a page or a tap refused.
"""
import multiprocessing
import os
import subprocess
import sys

bind = f"{os.environ.get('HOST', '0.0.0.0')}:{os.environ.get('PORT', '8080')}"
worker_class = os.environ.get("GUNICORN_WORKER_CLASS", "gevent")
CLIENT_CONNECTIONS = int(os.environ.get("GUNICORN_CLIENT_CONNECTIONS")
                         or ("0" if os.environ.get("TRUST_PROXY", "") == "1" else "50"))  # 0: no cap
READ_TIMEOUT = float(os.environ.get("GUNICORN_READ_TIMEOUT") or "10")
workers = int(os.environ.get("WEB_CONCURRENCY", min(4, multiprocessing.cpu_count())))
worker_connections = int(os.environ.get("GUNICORN_CONNECTIONS", "500"))  # gevent: open connections per worker
threads = int(os.environ.get("GUNICORN_THREADS", "4"))  # gthread only
timeout = 30
graceful_timeout = 10
keepalive = 5
# Request line and headers: no phone sends more; bodies are capped by MAX_CONTENT_LENGTH.
limit_request_line = 4094
limit_request_fields = 60
limit_request_field_size = 8190
accesslog = os.environ.get("ACCESS_LOG") or None
errorlog = "-"
wsgi_app = "companion:create_app()"


def on_starting(server):
    """Migrate once, before any worker opens the database. In a child process, so the master never
    imports the app: gevent then patches a clean interpreter in each worker."""
    subprocess.run([sys.executable, "-m", "companion", "migrate"], check=True)


def _capped_gevent_worker():
    """The gevent worker, with a per-address connection cap and an idle read timeout (see above).
    gunicorn loads its worker class in the master either way, so importing it here changes nothing."""
    import collections

    from gunicorn.workers.base_async import AsyncWorker
    from gunicorn.workers.ggevent import GeventWorker

    def streams_from(address):
        # The app's own count of this address's connections holding a stream (companion/limits.py),
        # read from the module the worker has already loaded; the master never imports the app.
        limits = sys.modules.get("companion.limits")
        return limits.streams_from(address) if limits is not None else 0

    class CappedGeventWorker(GeventWorker):
        open_by_address: collections.Counter = collections.Counter()

        def handle(self, listener, client, addr):
            address = addr[0] if isinstance(addr, tuple) and addr else ""
            if CLIENT_CONNECTIONS and self.open_by_address[address] - streams_from(address) >= CLIENT_CONNECTIONS:
                try:
                    client.settimeout(1)
                    client.sendall(b"HTTP/1.1 429 Too Many Requests\r\nRetry-After: 5\r\nContent-Length: 0\r\n"
                                   b"Connection: close\r\n\r\n")
                except OSError:
                    pass
                finally:
                    client.close()
                return
            self.open_by_address[address] += 1
            try:
                # GeventWorker.handle would make the socket blocking without a limit: a read that
                # waits READ_TIMEOUT for a byte raises instead, and gunicorn closes the connection.
                client.settimeout(READ_TIMEOUT)
                AsyncWorker.handle(self, listener, client, addr)
            finally:
                self.open_by_address[address] -= 1
                if self.open_by_address[address] <= 0:
                    del self.open_by_address[address]

    return CappedGeventWorker


if worker_class == "gevent":
    worker_class = _capped_gevent_worker()
