"""The checks every browser test runs on every page state (tests/e2e/checks.py) find what they are
there to find: axe's violations, a control under 44 px, a page that scrolls sideways. A page of
ours passes them (every other browser test); this one is made to fail each."""
from __future__ import annotations

import pytest

from tests.e2e.checks import check_page

BAD = """<!doctype html><html lang="en"><head><title>Bad</title></head><body><main>
<h1>Bad page</h1>
<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">
<button></button>
<p style="color:#bbb;background:#fff">Dim text that is hard to read</p>
<a href="#x" style="display:inline-block;width:20px;height:20px">x</a>
<div style="width:2000px">wide</div>
</main></body></html>"""


def test_the_checks_find_what_they_are_there_to_find(page):
    # about:blank, with no Content-Security-Policy of ours to refuse the inline styles
    page.set_content(BAD)
    with pytest.raises(AssertionError) as failed:
        check_page(page)
    report = str(failed.value)
    for rule in ("image-alt", "button-name", "color-contrast"):
        assert rule in report, rule
    assert "tap targets under 44x44 px" in report and "scrolls sideways" in report
    # Put in once, axe stays in the document: the second check finds the same.
    with pytest.raises(AssertionError) as again:
        check_page(page)
    assert str(again.value) == report
