"""Table jobs every game shares: setting a table's bookkeeping straight again."""
from __future__ import annotations

from bench.taps import Job


def undo_a_mistap(thumb, start):
    """Sin types drawn by mistake on a 4-player 7 Sins table: take it back with the one-tap Undo."""
    page = start("sins", ["Ana", "Bo", "Cy", "Di"])
    page.get_by_role("button", name="Draw 6 types at random").click()  # the mistap, not counted
    page.get_by_text("In play:").wait_for()
    thumb.tap(page.get_by_role("button", name="Undo: ", exact=False))
    page.get_by_text("In play:").wait_for(state="detached")


JOBS = [Job("any game: undo the last change", 1, undo_a_mistap)]
