"""Numbers at the edge: reading them from untrusted input, the number-entry field, and showing them.

Reading. Python's own checks are too kind for input: `"²".isdigit()` is true but `int("²")` fails,
`int("٣")` is 3, and a 5,000-digit string passes `isdigit()` and then hits Python's 4,300-digit limit
(or a database's integer range). Here a number is ASCII digits only, at most `MAX_DIGITS` of them,
with a sign only where the caller allows negatives. `parse_int` says None for anything else, never
raising; `IntegerField` is WTForms' field read the same way; `read_entry` adds a range and a message.

Entering. `EntryField` is the server half of `m.number` (templates/_macros.html): the box and its
value chips share one field name, so the browser sends the typed box first and then the tapped chip,
if any, and a hidden `<name>.was` says what the box showed when drawn. Without JavaScript that tells
a tapped chip from a typed box (`entry_value`). A box left empty is refused with a message next to
the box, never read as 0. A real minus sign (U+2212, the way this app prints negatives) reads as "-".
A field not sent at all has data None. The field's data stays the text (digits and an optional
sign): each game's pure rules still parse it with their own range messages, or call `parse_int`.

Showing. The Jinja filters `signed` (+3, 0, −2: a change or a difference) and `minus` (3, 0, −2: a
score that may be negative) print a real minus sign, never a hyphen; `minus_signs` fixes the
negative numbers inside a sentence (the action log's lines).
"""
from __future__ import annotations

import re

from flask_babel import lazy_gettext as _l
from wtforms import IntegerField as _WTFormsIntegerField
from wtforms import StringField
from wtforms.validators import StopValidation

from .domain import N_

from .digits import SPACE as _SPACE, MAX_DIGITS, parse_int  # noqa: F401 (MAX_DIGITS is read from here too)

NOT_A_NUMBER = N_("Enter a whole number.")

def query_int(args, name: str, *, signed: bool = False) -> int | None:
    """A number from a query string (`request.args`): None when absent or not a strict number."""
    return parse_int(args.get(name), signed=signed) if name in args else None


class IntegerField(_WTFormsIntegerField):
    """WTForms' IntegerField, read strictly: ASCII digits (a sign allowed), at most MAX_DIGITS.

    A drop-in replacement: `from companion.numbers import IntegerField`. Validators such as
    NumberRange and AnyOf then see a real, bounded int or the field's "Enter a whole number.".
    """

    def process_formdata(self, valuelist):
        if not valuelist:
            return
        raw = valuelist[0]
        if raw is None or (isinstance(raw, str) and raw.strip(_SPACE) == ""):
            self.data = None
            return
        value = parse_int(raw, signed=True)
        if value is None:
            self.data = None
            from flask_babel import gettext

            raise ValueError(gettext(NOT_A_NUMBER))
        self.data = value


MINUS = "\u2212"
# Long enough for any score in these games with its sign; a longer text is not a number we use.
ENTRY_MAX = 7


def clean(text: str) -> str:
    """What a player typed, trimmed, with a real minus or a dash read as the ASCII sign."""
    # A space after the sign is forgiven ("– 4"); one between digits is not: "3 4" is a slip, not 34.
    return re.sub(r"^([+-])\s+", r"\1", text.strip().replace(MINUS, "-").replace("\u2013", "-"))


def read_entry(text: str, *, minimum: int, maximum: int) -> int:
    """Strictly a whole number in [minimum, maximum]: ASCII digits, a sign only if negatives are
    allowed. Raises ValueError with a message id (marked for translation) otherwise."""
    value = clean(text)
    digits = value[1:] if value[:1] in "+-" else value
    if value == "":
        raise ValueError(_l("Enter a number (0 if none)."))
    if not digits.isascii() or not digits.isdigit() or len(digits) > ENTRY_MAX:
        raise ValueError(_l("Enter a whole number."))
    number = int(value)
    if number < minimum:
        raise ValueError(_l("Must be at least %(min)d.", min=minimum))
    if number > maximum:
        raise ValueError(_l("Must be at most %(max)d.", max=maximum))
    return number


WAS = ".was"  # suffix of the hidden field that carries what an `m.number` box showed when drawn


def entry_value(sent: list[str], was: str | None = None) -> str:
    """What an `m.number` box and its chips say, from the values sent under its one name (the box
    first, then the checked chip) and `was`, what the box showed when the page was drawn.

    With JavaScript the box and the chips agree. Without it they can disagree, and `was` tells which
    one the player changed: a chip other than `was` was tapped, so it wins over an untouched box; a
    box typed into wins; a box cleared with the chip left as it was is blank (refused, never 0).
    Without `was` (an old page, a hand-made request) the box wins and an empty box falls back to
    the chip."""
    if not sent:
        return ""
    typed = clean(sent[0])
    chip = next((clean(v) for v in sent[1:] if clean(v)), "")
    if was is None:
        return typed or chip
    was = clean(was)
    if chip and chip != was and typed == was:
        return chip
    if typed == "" and chip == was:
        return ""
    return typed or chip


class EntryField(StringField):
    """The field of an `m.number` box: its box and chips read by `entry_value`; blank is refused."""

    def process(self, formdata, data=None, extra_filters=None):
        self._was = None
        if formdata is not None and self.name + WAS in formdata:
            self._was = formdata.get(self.name + WAS)
        super().process(formdata, data, extra_filters)

    def process_formdata(self, valuelist):
        if not valuelist:
            self.data = None
            return
        self.data = entry_value(valuelist, getattr(self, "_was", None))

    def pre_validate(self, form):
        # A box that was sent empty is refused; a field that was not sent at all (a sin type not in
        # play, a hand-made request) is left to the game, which knows whether it may be missing.
        if self.data == "":
            raise StopValidation(_l("Enter a number (0 if none)."))
        if self.data is not None and len(self.data) > ENTRY_MAX:
            raise StopValidation(_l("Enter a whole number."))


def signed(value) -> str:
    """+3, 0, −2: a change or a difference, with a real minus sign."""
    if value is None or value == "":
        return ""
    number = int(value)
    if number > 0:
        return f"+{number}"
    if number < 0:
        return f"{MINUS}{-number}"
    return "0"


def minus(value) -> str:
    """3, 0, −2: a total that may be negative, with a real minus sign (not a hyphen)."""
    if value is None or value == "":
        return ""
    number = int(value)
    return f"{MINUS}{-number}" if number < 0 else str(number)


_HYPHEN_NUMBER = re.compile(r"(?<![\w\-\u2212])-(?=\d)")


def minus_signs(text: str) -> str:
    """A sentence with its negative numbers printed with a real minus sign ("Ana -2 Renown" ->
    "Ana −2 Renown"); hyphens inside words and ranges ("2-3") are left alone."""
    return _HYPHEN_NUMBER.sub(MINUS, text)


def init_app(app) -> None:
    app.jinja_env.filters["signed"] = signed
    app.jinja_env.filters["minus"] = minus
    app.jinja_env.filters["minus_signs"] = minus_signs
