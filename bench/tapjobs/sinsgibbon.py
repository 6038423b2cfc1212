"""Sinful Gibbon and 7 - The Sins: what a table does every round.

The Gibbon round budgets are issue 16's: the rulebook's counting-table round (4 players, 220 / 90 /
230 / 30) entered and saved with its seat swap in at most 26 taps and typed characters, and a
realistic 5-player round in at most 35. Each job checks the live preview before saving and the
saved round after, so a count only stands if the app really counted the round right.
"""
from __future__ import annotations

import re

from playwright.sync_api import expect

from bench.taps import Job


def _ids(page) -> dict[str, int]:
    """Player ids by name, read from the Braveheart chips of the round form (not counted)."""
    out = {}
    for label in page.locator("#round-new-braveheart label.gb-chip").all():
        value = label.locator("input").get_attribute("value")
        if value:
            out[label.inner_text().strip()] = int(value)
    return out


def _start_gibbon(start, names):
    """A Gibbon table with its first dealer chosen, on the Round page (set-up is not counted)."""
    page = start("gibbon", names)
    page.get_by_role("button", name="Start the game").click()
    page.get_by_role("link", name="Go to round 1").click()
    page.locator("#round-new").wait_for()
    return page


def _enter(thumb, page, ids, counts, braveheart=None, hat=None):
    """Counts per player: a chip for 1-4, the box for more (zeros are already there)."""
    for name, row in counts.items():
        for count, n in row.items():
            field = f"p{ids[name]}_{count}"
            if n <= 4:
                thumb.tap(page.locator(f"#round-new label.num-chip:has(input[name='{field}'][value='{n}'])"),
                          f"{name} {count} {n}")
            else:
                thumb.type(page.locator(f"#round-new-{field}"), str(n))
    for group, who in (("braveheart", braveheart), ("hat", hat)):
        if who:
            thumb.tap(page.locator(f"#round-new-{group} label.gb-chip:has(input[value='{ids[who]}'])"), f"{group} {who}")


# The rulebook's counting-table example ("Helpful information"), counts chosen with the fewest
# non-zero boxes that give exactly its rows: P2 is the Braveheart, P3 wears the hat.
RULEBOOK = {
    "P1": {"low": 3, "high": 2, "cheats": 2, "hearts": 1, "wrongful_doubts": 2},
    "P2": {"low": 4, "wrongful_doubts": 1, "fattest_pile": 1},
    "P3": {"low": 3, "high": 1, "cheats": 1, "hearts": 2, "accepted_hearts": 1, "fattest_pile": 1},
    "P4": {"low": 1, "hearts": 1, "accepted_hearts": 2},
}


def rulebook_round(thumb, start):
    page = _start_gibbon(start, ["P1", "P2", "P3", "P4"])
    ids = _ids(page)
    _enter(thumb, page, ids, RULEBOOK, braveheart="P2", hat="P3")
    expect(page.locator("#gb-pv tbody td:nth-last-child(2) .pgrid-v")).to_have_text(["220", "90", "230", "30"])
    thumb.tap(page.get_by_role("button", name="Count round 1"))
    page.get_by_role("heading", name="Round 1 counted").wait_for()
    # The Braveheart (P2) chooses: swap with P4, one tap on the partner.
    thumb.tap(page.locator("#gb-swap").get_by_role("button", name="P4", exact=True))
    page.get_by_role("heading", name="Round 2").wait_for()
    assert "P1 → P4 → P3 → P2" in re.sub(r"\s+", " ", page.locator(".gb-seats").inner_text())


# A realistic 5-player round: Cy went out (Braveheart), Di was caught cheating on a heart.
FIVE = {
    "Ana": {"low": 3, "high": 2, "cheats": 1, "hearts": 1, "wrongful_doubts": 1, "fattest_pile": 3},
    "Bo": {"low": 2, "high": 1, "accepted_hearts": 2},
    "Cy": {"low": 1, "high": 1},
    "Di": {"low": 6, "high": 1, "cheats": 2, "hearts": 2, "wrongful_doubts": 2, "fattest_pile": 4},
    "Eve": {"low": 2, "hearts": 1, "accepted_hearts": 1, "wrongful_doubts": 1, "fattest_pile": 2},
}


def five_player_round(thumb, start):
    page = _start_gibbon(start, ["Ana", "Bo", "Cy", "Di", "Eve"])
    ids = _ids(page)
    _enter(thumb, page, ids, FIVE, braveheart="Cy", hat="Di")
    # Ana 70+20+20+40 = 150; Bo 40; Cy 30 (immune to Lust and Envy); Di 80+40+40+40+50+50+50 = 350; Eve 60
    expect(page.locator("#gb-pv tbody td:nth-last-child(2) .pgrid-v")).to_have_text(["150", "40", "30", "350", "60"])
    thumb.tap(page.get_by_role("button", name="Count round 1"))
    page.get_by_role("heading", name="Round 1 counted").wait_for()
    thumb.tap(page.locator("#gb-swap").get_by_role("button", name="Ana", exact=True))
    page.get_by_role("heading", name="Round 2").wait_for()


# A dense 5-player round (issue 28): 25 counts, five of them 5 or more, a Braveheart (Cy), the hat
# (Di), and the seat swap; 50 of the deck's 53 cards counted. Budget: 30 taps plus the digits typed.
DENSE = {
    "Ana": {"low": 7, "high": 3, "cheats": 2, "hearts": 1, "wrongful_doubts": 2, "fattest_pile": 3},
    "Bo": {"low": 5, "high": 2, "accepted_hearts": 3, "wrongful_doubts": 1, "fattest_pile": 2},
    "Cy": {"low": 1, "high": 1},
    "Di": {"low": 8, "high": 2, "cheats": 3, "hearts": 2, "wrongful_doubts": 1, "fattest_pile": 5},
    "Eve": {"low": 5, "high": 1, "hearts": 1, "accepted_hearts": 2, "wrongful_doubts": 2},
}
DENSE_DIGITS = sum(len(str(n)) for row in DENSE.values() for n in row.values() if n > 4)


def dense_round(thumb, start):
    from companion.games.gibbon import rules

    page = _start_gibbon(start, list(DENSE))
    ids = _ids(page)
    _enter(thumb, page, ids, DENSE, braveheart="Cy", hat="Di")
    tallies = {ids[n]: rules.Tally(**row, braveheart=n == "Cy", hat=n == "Di") for n, row in DENSE.items()}
    want = rules.score_rounds([ids[n] for n in DENSE], [tallies])[0].round_totals
    expect(page.locator("#gb-pv tbody td:nth-last-child(2) .pgrid-v")).to_have_text(
        [str(want[ids[n]]) for n in DENSE])
    thumb.tap(page.get_by_role("button", name="Count round 1"))
    page.get_by_role("heading", name="Round 1 counted").wait_for()
    thumb.tap(page.locator("#gb-swap").get_by_role("button", name="Ana", exact=True))
    page.get_by_role("heading", name="Round 2").wait_for()


JOBS = [
    Job("gibbon: the rulebook's counting-table round, saved with its swap", 26, rulebook_round),
    Job("gibbon: a realistic 5-player round, saved with its swap", 35, five_player_round),
    Job("gibbon: a dense 5-player round (hat, Braveheart, swap), 30 taps plus digits", 30 + DENSE_DIGITS, dense_round),
]
