"""gunicorn settings for every deployment (scripts/serve, the Dockerfile, the benchmark).

Worker model: gevent. Each connection is a greenlet, so a client that trickles its request (a slow
phone, or someone doing it on purpose) holds one cheap greenlet while it waits, not one of a few
threads: eight slow connections used to stop a gthread server answering anyone
(tests/web/test_slow_clients.py). gevent comes from PyPI like everything else, so `scripts/serve`
works on a fresh machine with no proxy to install. Behind a buffering proxy (Fly's, nginx) it does
no harm. GUNICORN_WORKER_CLASS=gthread brings the old model back.
"""
import multiprocessing
import os
import subprocess
import sys

bind = f"{os.environ.get('HOST', '0.0.0.0')}:{os.environ.get('PORT', '8080')}"
worker_class = os.environ.get("GUNICORN_WORKER_CLASS", "gevent")
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
