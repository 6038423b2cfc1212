"""numbers: the one parser of typed numbers, the number-entry field and the signed filters."""
from __future__ import annotations

import pytest
from hypothesis import given, strategies as st
from werkzeug.datastructures import MultiDict
from wtforms import Form

from companion.numbers import MINUS, EntryField, clean, minus, read_entry, signed


class One(Form):
    n = EntryField()


def read(*values):
    form = One(MultiDict([("n", v) for v in values]))
    ok = form.validate()
    return form.n.data, (None if ok else [str(e) for e in form.errors["n"]])


@pytest.mark.parametrize("values, data", [
    pytest.param(("3",), "3", id="typed"),
    pytest.param(("", "4"), "4", id="empty-box-then-chip"),
    pytest.param(("7", "2"), "7", id="typed-box-wins"),
    pytest.param((f"{MINUS}5",), "-5", id="real-minus"),
    pytest.param((" 12 ",), "12", id="spaces"),
])
def test_the_box_wins_and_an_empty_box_falls_back_to_the_chip(values, data):
    assert read(*values) == (data, None)


@pytest.mark.parametrize("values", [pytest.param(("",), id="blank"), pytest.param(("  ", ""), id="spaces-no-chip")])
def test_a_box_sent_empty_is_refused_never_zero(values):
    data, errors = read(*values)
    assert data == "" and errors == ["Enter a number (0 if none)."]


def test_a_field_not_sent_is_left_to_the_game():
    assert read() == (None, None)


def test_a_long_text_is_refused():
    assert read("12345678")[1] == ["Enter a whole number."]


@pytest.mark.parametrize("text, lo, hi, message", [
    pytest.param("", 0, 9, "Enter a number (0 if none).", id="blank"),
    pytest.param("2.5", 0, 9, "Enter a whole number.", id="decimal"),
    pytest.param("٣", 0, 9, "Enter a whole number.", id="non-ascii-digit"),
    pytest.param("-1", 0, 9, "Must be at least 0.", id="below"),
    pytest.param("10", 0, 9, "Must be at most 9.", id="above"),
])
def test_read_entry_refuses_with_a_message(app, text, lo, hi, message):
    with app.test_request_context(), pytest.raises(ValueError) as err:
        read_entry(text, minimum=lo, maximum=hi)
    assert str(err.value.args[0]) == message


@given(st.integers(min_value=-999, max_value=999))
def test_what_the_filters_print_parses_back(n):
    assert read_entry(minus(n), minimum=-999, maximum=999) == n
    assert read_entry(signed(n), minimum=-999, maximum=999) == n


@pytest.mark.parametrize("n, as_signed, as_minus", [
    (3, "+3", "3"), (0, "0", "0"), (-2, f"{MINUS}2", f"{MINUS}2"), (None, "", ""),
])
def test_signed_and_minus_print_a_real_minus_sign(n, as_signed, as_minus):
    assert signed(n) == as_signed and minus(n) == as_minus


def test_clean_reads_dashes_as_the_sign():
    assert clean(" \u2013 4") == "-4" and clean(f"{MINUS}4") == "-4"
    assert clean(" 3 4") == "3 4"  # not 34: the strict reading then refuses it


@pytest.mark.parametrize("text, shown", [
    pytest.param("Ana -2 Renown", f"Ana {MINUS}2 Renown", id="negative"),
    pytest.param("-8 points", f"{MINUS}8 points", id="at-start"),
    pytest.param("Hell-bound, 2-3 players, 7 - The Sins", "Hell-bound, 2-3 players, 7 - The Sins", id="hyphens-stay"),
    pytest.param("Bo +3", "Bo +3", id="plus"),
])
def test_minus_signs_fix_negative_numbers_in_a_sentence(text, shown):
    from companion.numbers import minus_signs

    assert minus_signs(text) == shown


def read_was(was, *values):
    form = One(MultiDict([("n", v) for v in values] + [("n.was", was)]))
    ok = form.validate()
    return form.n.data, (None if ok else [str(e) for e in form.errors["n"]])


@pytest.mark.parametrize("was, values, data", [
    pytest.param("0", ("0", "3"), "3", id="chip-tapped-box-untouched"),
    pytest.param("0", ("7", "0"), "7", id="box-typed-chip-untouched"),
    pytest.param("5", ("5", "2"), "2", id="a-saved-value-changed-by-chip"),
    pytest.param("5", ("", "3"), "3", id="box-cleared-and-chip-tapped"),
    pytest.param("0", ("0", "0"), "0", id="nothing-changed"),
    pytest.param("", ("", "4"), "4", id="blank-box-chip-tapped"),
    pytest.param("0", ("3",), "3", id="with-javascript-the-chip-agrees"),
])
def test_without_javascript_what_the_player_changed_wins(was, values, data):
    """The README: every form works without JavaScript. The hidden `.was` says what the box showed, so
    a tapped chip is told from a typed box."""
    assert read_was(was, *values) == (data, None)


@pytest.mark.parametrize("was, values", [pytest.param("0", ("", "0"), id="cleared-box-with-its-chip-left"),
                                         pytest.param("4", ("",), id="cleared-box-no-chip")])
def test_a_cleared_box_is_refused_never_read_as_0(was, values):
    data, errors = read_was(was, *values)
    assert data == "" and errors == ["Enter a number (0 if none)."]
