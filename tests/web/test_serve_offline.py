"""`./scripts/serve` started a second time with the package index unreachable serves the app
(issue 29): the install is skipped when the stamp says the packages match pyproject.toml.

The script runs from a copy of the project whose `.venv` borrows this one's packages (its `lib`)
without being it: the stamp it reads, and anything it would install, stay in the copy. The package
index is an address nobody answers on, as at a table with no network.
"""
from __future__ import annotations

import hashlib
import os
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.servers import ROOT, free_port

pytestmark = pytest.mark.slow

# No package index and no local wheels (the machine's pip configuration is left out): pip finds
# nothing to install from, so it can write nothing into the venv this copy borrows.
OFFLINE = {"PIP_INDEX_URL": "http://127.0.0.1:9/simple/", "PIP_CONFIG_FILE": os.devnull, "PIP_RETRIES": "0",
           "PIP_TIMEOUT": "1", "PIP_NO_INPUT": "1", "http_proxy": "", "https_proxy": "", "HTTP_PROXY": "",
           "HTTPS_PROXY": ""}


def project_copy(tmp_path: Path) -> Path:
    """The project as scripts/serve sees it, with a venv of its own made of this venv's packages."""
    proj = tmp_path / "project"
    (proj / "scripts").mkdir(parents=True)
    shutil.copy(ROOT / "scripts" / "serve", proj / "scripts" / "serve")
    for name in ("pyproject.toml", "gunicorn.conf.py"):
        shutil.copy(ROOT / name, proj / name)
    for name in ("companion", "templates", "static", "migrations", "alembic.ini"):
        if (ROOT / name).exists():
            (proj / name).symlink_to(ROOT / name)
    real = Path(sys.prefix)
    venv = proj / ".venv"
    (venv / "bin").mkdir(parents=True)
    shutil.copy(real / "pyvenv.cfg", venv / "pyvenv.cfg")
    (venv / "lib").symlink_to(real / "lib")
    (venv / "bin" / "python").symlink_to(os.path.realpath(real / "bin" / "python"))
    script = (real / "bin" / "gunicorn").read_text().splitlines()
    (venv / "bin" / "gunicorn").write_text("\n".join([f"#!{venv / 'bin' / 'python'}", *script[1:]]) + "\n")
    (venv / "bin" / "gunicorn").chmod(0o755)
    return proj


def installed_stamp(proj: Path) -> str:
    """What scripts/serve writes after an install: pyproject.toml's checksum and the Python version."""
    digest = hashlib.sha256((proj / "pyproject.toml").read_bytes()).hexdigest()
    return f"{digest} {sys.version.split()[0]}\n"


def serve(proj: Path, tmp_path: Path) -> tuple[int | None, str]:
    """Run scripts/serve until the app answers (or 90 s pass): the answer's status and the output."""
    port, log = free_port(), tmp_path / "serve.log"
    env = {**os.environ, **OFFLINE, "PORT": str(port), "HOST": "127.0.0.1", "WEB_CONCURRENCY": "1",
           "COMPANION_INSTANCE": str(proj / "instance"), "COMPANION_RELAX_LIMITS": "1"}
    env.pop("DATABASE_URL", None)
    answered = None
    with log.open("wb") as out:
        proc = subprocess.Popen(["bash", str(proj / "scripts" / "serve")], cwd=proj, env=env, stdout=out,
                                stderr=subprocess.STDOUT, start_new_session=True)
        try:
            deadline = time.monotonic() + 90
            while time.monotonic() < deadline and proc.poll() is None:
                try:
                    with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2) as resp:
                        answered = resp.status
                        break
                except (urllib.error.URLError, ConnectionError, TimeoutError):
                    time.sleep(0.2)
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
                try:
                    proc.wait(15)
                except subprocess.TimeoutExpired:
                    os.killpg(proc.pid, signal.SIGKILL)
                    proc.wait(10)
    return answered, log.read_text(errors="replace")


def test_a_second_start_with_no_package_index_serves_the_app(tmp_path):
    proj = project_copy(tmp_path)
    (proj / ".venv" / ".companion-stamp").write_text(installed_stamp(proj))  # the first start installed
    answered, output = serve(proj, tmp_path)
    assert answered == 200, output[-2000:]
    # No install, so no network asked for, and none of setuptools' boxed warnings.
    assert "Installing" not in output and "Editable" not in output and "!!" not in output


def test_a_changed_pyproject_installs_again_and_keeps_the_new_stamp(tmp_path):
    proj = project_copy(tmp_path)
    (proj / ".venv" / ".companion-stamp").write_text("0" * 64 + " an older pyproject.toml\n")
    answered, output = serve(proj, tmp_path)
    # Everything it asks for is installed already, so even with no index the install goes through.
    assert "Installing the app's packages" in output and answered == 200, output[-2000:]
    assert (proj / ".venv" / ".companion-stamp").read_text() == installed_stamp(proj)
    assert "Editable" not in output and "!!" not in output
