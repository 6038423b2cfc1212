"""The shared number entry (m.number + numbers.EntryField) through the 7 Sins count forms: one tap
on a chip counts, a typed box wins over a chip, and an emptied box is refused next to it, never read
as 0 (issue 15)."""
from __future__ import annotations

import re

import pytest

from tests.web.test_sins_pages import Sins, errors_in


@pytest.fixture
def sins(tables):
    return Sins(tables).ready()


def reserve_form(html: str, pid: int) -> str:
    start = html.index(f'id="sins-reserve-{pid}"')
    return html[start:html.index("</form>", start)]


def test_a_count_form_has_value_chips_a_numeric_box_and_no_browser_validation(sins):
    html = sins.page("score").get_data(as_text=True)
    form = reserve_form(html, sins.ids()["Bo"])
    # The form tag itself carries novalidate: the server's messages show next to the box.
    tag = html[html.rindex("<form", 0, html.index(f'id="sins-reserve-{sins.ids()["Bo"]}"')):].split(">", 1)[0]
    assert "novalidate" in tag
    box = re.search(r'<input id="sins-reserve-\d+-ira"[^>]*>', form).group(0)
    assert 'inputmode="numeric"' in box and 'type="text"' in box
    chips = re.findall(r'<input type="radio" name="ira" value="(\d+)"', form)
    assert chips == ["0", "1", "2", "3", "4", "5"]


def test_a_blank_count_box_is_refused_next_to_it_and_nothing_is_saved(sins):
    before = sins.doc.version
    resp = sins.reserve("Bo", {"ira": ""})
    assert resp.status_code == 422
    assert "Enter a number (0 if none)." in errors_in(resp)
    html = resp.get_data(as_text=True)
    assert re.search(r'id="sins-reserve-\d+-ira"[^>]*value=""', html), "the box stays empty, as sent"
    assert re.search(r'<input id="sins-reserve-\d+-ira"[^>]*aria-invalid="true"', html)
    assert str(sins.ids()["Bo"]) not in sins.gs["score"]["reserves"]
    assert sins.doc.version == before


def test_a_blank_box_after_a_saved_count_keeps_the_saved_count(sins):
    assert sins.reserve("Bo", {"ira": 3}).status_code == 200
    resp = sins.reserve("Bo", {"ira": ""})
    assert resp.status_code == 422
    assert sins.gs["score"]["reserves"][str(sins.ids()["Bo"])] == {"ira": 3}


def test_a_blank_abyss_total_is_refused(sins):
    resp = sins.post("abyss/total", {"points": ""}, page="score", form_key="sins-abyss-total")
    assert resp.status_code == 422 and "Enter a number (0 if none)." in errors_in(resp)


def test_a_chip_tapped_without_javascript_counts_when_the_box_is_left_empty(sins):
    # Without JavaScript a chip does not fill the box: the browser sends the box, then the chip.
    assert sins.reserve("Bo", {"ira": ["", "4"]}).status_code == 200
    assert sins.gs["score"]["reserves"][str(sins.ids()["Bo"])] == {"ira": 4}


def test_the_typed_box_wins_over_a_chip(sins):
    assert sins.reserve("Bo", {"ira": ["7", "2"]}).status_code == 200
    assert sins.gs["score"]["reserves"][str(sins.ids()["Bo"])] == {"ira": 7}


@pytest.mark.parametrize("typed", [
    pytest.param("\u22128", id="real-minus"),
    pytest.param("-8", id="hyphen"),
    pytest.param(" -8 ", id="spaces"),
])
def test_a_negative_total_reads_with_a_real_minus_or_a_hyphen(sins, typed):
    sins.post("mode", {"mode": "quick"}, page="score")
    bo = sins.ids()["Bo"]
    resp = sins.post("quick", {"player": bo, "points": typed, "cards": 3, "types": 2}, page="score",
                     form_key=f"sins-quick-{bo}")
    assert resp.status_code == 200
    assert sins.gs["score"]["quick"][str(bo)]["points"] == -8
    html = sins.page("score").get_data(as_text=True)
    assert re.search(rf'id="sins-quick-{bo}-points"[^>]*value="\u22128"', html), "shown with a real minus"


def test_a_signed_box_has_a_sign_toggle_and_the_full_keyboard_without_javascript(sins):
    html = sins.page("score").get_data(as_text=True)
    box = re.search(r'<input id="sins-abyss-total-points"[^>]*>', html).group(0)
    assert 'inputmode="text"' in box and "data-num-signed" in box
    assert 'data-num-sign="sins-abyss-total-points"' in html
