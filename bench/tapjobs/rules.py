"""Rules jobs: settle a rules question from the table page, the way players type it."""
from __future__ import annotations

import re

from bench.taps import Job


def _ask(thumb, page, question: str, title: str, heading: str):
    thumb.tap(page.locator("summary.top-rules"))
    thumb.type(page.get_by_role("searchbox"), question)
    hit = page.locator("#hs-results").get_by_role("link").first
    hit.filter(has_text=title).wait_for()
    thumb.tap(hit)
    page.get_by_role("heading", level=1, name=heading).wait_for()


def renown_to_win(thumb, start):
    """City of Five Sails: how much Renown wins? Four words in the header's search, then the answer."""
    page = start("fivesails", ["Ana", "Bo", "Cy"])
    _ask(thumb, page, "renown to win", "Economic Victory", "Economic Victory")


def renown_to_win_in_french(thumb, start):
    """The same question on a French table, in French."""
    page = start("fivesails", ["Ana", "Bo", "Cy"])
    page.context.add_cookies([{"name": "lang", "value": "fr", "url": re.sub(r"(https?://[^/]+).*", r"\1", page.url)}])
    page.reload()
    _ask(thumb, page, "renommée pour gagner", "Victoire économique", "Victoire économique")


def who_wears_the_hat(thumb, start):
    """Sinful Gibbon: who gets the monkey hat, typed with a typo."""
    page = start("gibbon", ["Ana", "Bo", "Cy", "Di"])
    _ask(thumb, page, "monky hat", "Heartless Monkey Hat", "The Heartless Monkey Hat")


JOBS = [
    Job("rules: how much Renown wins (Five Sails, from the table)", 16, renown_to_win),
    Job("rules: the same in French", 23, renown_to_win_in_french),
    Job("rules: the monkey hat, with a typo (Gibbon)", 12, who_wears_the_hat),
]
