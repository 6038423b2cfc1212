"""The result as an image (issue 35): sending a finished table's result to the group chat. Budget:
at most 2 taps from the finished table (the phone's own share sheet, outside the app, not counted).

Chromium on Linux has no share sheet, so the image is saved instead (the same tap); each job
checks that a PNG came out."""
from __future__ import annotations

from bench.tapjobs.history import CHIARA, finish_sins_by_totals
from bench.taps import Job


def _saved_png(download) -> None:
    with open(download.value.path(), "rb") as fh:
        assert fh.read(8) == b"\x89PNG\r\n\x1a\n", "not a PNG"


def share_result(thumb, start):
    """Share the result image as it is (no link in it): one tap."""
    page = start("sins", list(CHIARA))
    finish_sins_by_totals(page)
    page.locator("img.result-image").wait_for()
    with page.expect_download() as download:
        thumb.tap(page.get_by_role("button", name="Share the result"))
    _saved_png(download)


def share_result_with_link(thumb, start):
    """Share the result image with the table's view-only link in it: tick the option, then share."""
    page = start("sins", list(CHIARA))
    finish_sins_by_totals(page)
    page.locator("img.result-image").wait_for()
    thumb.tap(page.get_by_label("Add the table's view-only link to the image"))
    with page.expect_download() as download:
        thumb.tap(page.get_by_role("button", name="Share the result"))
    _saved_png(download)


JOBS = [Job("any game: share the result as an image", 2, share_result),
        Job("any game: share the result as an image, with the view-only link", 2, share_result_with_link)]
