"""gunicorn settings for every deployment (scripts/serve, the Dockerfile, the benchmark)."""
import multiprocessing
import os

bind = f"{os.environ.get('HOST', '0.0.0.0')}:{os.environ.get('PORT', '8080')}"
# Threads serve the phones' polling cheaply; a couple of processes use both cores.
worker_class = "gthread"
workers = int(os.environ.get("WEB_CONCURRENCY", min(4, multiprocessing.cpu_count())))
threads = int(os.environ.get("GUNICORN_THREADS", "4"))
timeout = 30
graceful_timeout = 10
keepalive = 5
accesslog = os.environ.get("ACCESS_LOG") or None
errorlog = "-"
wsgi_app = "companion:create_app()"


def on_starting(server):
    """Migrate once, in the master, before any worker opens the database."""
    from companion import create_app
    from companion.db import migrate

    migrate(create_app().config["DATABASE_URL"])
