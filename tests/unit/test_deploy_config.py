"""fly.toml, the Dockerfile and gunicorn.conf.py must agree with each other and with the app."""
import os
import re
import runpy
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from companion import create_app

ROOT = Path(__file__).resolve().parents[2]
FLY = tomllib.loads((ROOT / "fly.toml").read_text())
DOCKERFILE = (ROOT / "Dockerfile").read_text()


def docker_env(name):
    return re.search(rf"\b{name}=(\S+)", DOCKERFILE).group(1)


def test_the_port_agrees_everywhere(monkeypatch):
    port = FLY["http_service"]["internal_port"]
    assert str(port) == FLY["env"]["PORT"] == docker_env("PORT")
    assert re.search(rf"^EXPOSE {port}$", DOCKERFILE, flags=re.M)
    monkeypatch.setenv("PORT", FLY["env"]["PORT"])
    monkeypatch.delenv("HOST", raising=False)
    conf = runpy.run_path(str(ROOT / "gunicorn.conf.py"))
    assert conf["bind"] == f"0.0.0.0:{port}"
    assert conf["wsgi_app"] == "companion:create_app()"


def test_the_container_runs_gunicorn_with_our_config():
    assert 'CMD ["gunicorn", "-c", "gunicorn.conf.py"]' in DOCKERFILE


def test_the_health_check_path_answers_200(tmp_path, monkeypatch):
    [check] = FLY["http_service"]["checks"]
    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path))
    from companion.db import migrate

    url = f"sqlite:///{tmp_path / 'c.sqlite3'}"
    migrate(url)
    app = create_app({"DATABASE_URL": url, "SECRET_KEY": "x"})
    resp = app.test_client().open(check["path"], method=check["method"])
    assert resp.status_code == 200 and resp.json["status"] == "ok"


def test_the_volume_is_where_the_app_keeps_its_sqlite_file():
    assert FLY["mounts"]["destination"] == FLY["env"]["COMPANION_INSTANCE"] == docker_env("COMPANION_INSTANCE")


def run_release(env, tmp_path):
    command = FLY["deploy"]["release_command"].split()
    assert command[:3] == ["python", "-m", "companion"]
    return subprocess.run([sys.executable, *command[1:]], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=60)


def test_the_release_command_migrates_a_database_url(tmp_path):
    db = tmp_path / "release.sqlite3"
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{db}", "COMPANION_INSTANCE": str(tmp_path)}
    done = run_release(env, tmp_path)
    assert done.returncode == 0, done.stderr
    assert "up to date" in done.stdout and db.exists()


def test_the_release_command_leaves_sqlite_to_the_server(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    env["COMPANION_INSTANCE"] = str(tmp_path)
    done = run_release(env, tmp_path)
    assert done.returncode == 0 and "migrated when the server starts" in done.stdout
    assert not (tmp_path / "companion.sqlite3").exists()


@pytest.mark.parametrize("url, expected", [
    ("postgres://u:p@h:5432/d", "postgresql+psycopg://u:p@h:5432/d"),
    ("postgresql://u@h/d", "postgresql+psycopg://u@h/d"),
    ("sqlite:///x.db", "sqlite:///x.db"),
])
def test_database_urls_as_hosts_give_them_are_accepted(url, expected):
    from companion.db import normalize_url

    assert normalize_url(url) == expected
