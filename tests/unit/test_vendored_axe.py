"""The axe-core the browser tests put in every page is the pinned npm release (tests/e2e/vendor)."""
import hashlib
import pathlib
import re

VENDOR = pathlib.Path(__file__).resolve().parent.parent / "e2e" / "vendor"


def test_vendored_axe_is_the_pinned_release():
    body = (VENDOR / "axe.min.js").read_bytes()
    pinned = re.search(r"\| axe\.min\.js .*\| (4\.\d+\.\d+) \| ([0-9a-f]{64}) \|", (VENDOR / "VENDORED.md").read_text())
    assert pinned, "tests/e2e/vendor/VENDORED.md must record the version and sha256"
    assert hashlib.sha256(body).hexdigest() == pinned.group(2)
    assert body.startswith(f"/*! axe v{pinned.group(1)}".encode())
