"""7 - The Sins play page at the end (issue 28): the Last Judgment line says how Penitenziagite ends the
game (rulebook, "Penitenziagite" mode: turns go on after the third card), and once the game is over
the stone buttons are off."""
from __future__ import annotations

import re

import pytest

from tests.conftest import text_of
from tests.web.test_sins_pages import Sins


@pytest.mark.parametrize("on", [pytest.param(True, id="penitenziagite"), pytest.param(False, id="standard")])
def test_the_last_judgment_line_says_how_this_mode_ends(tables, on):
    sins = Sins(tables).ready(penitenziagite=on)
    page = text_of(sins.page("play"))
    assert ("The third one ends the game." in page) is (not on)
    assert ("play goes on until the turn of the player seated left of the first player is over" in page) is on


def test_once_the_game_is_over_no_stone_can_be_taken_or_given_back(tables):
    sins = Sins(tables).ready()
    sins.post("stone", {"player": sins.ids()["Bo"], "delta": 1}, page="play")
    for _ in range(3):
        sins.post("judgment", {"delta": 1}, page="play")
    html = sins.page("play").get_data(as_text=True)
    assert "The game is over" in text_of(sins.page("play"))
    stone_buttons = re.findall(r"<button[^>]*aria-label=\"One (?:more|less): (?:Margherita|Bo|Cy|Di)\"[^>]*>", html)
    assert len(stone_buttons) == 8 and all("disabled" in b for b in stone_buttons), stone_buttons
