"""Sinful Gibbon's forms. The round form has one set of counts per player, so its class is built
for the table's players; the counts themselves are checked by `rules.read_tallies`, which knows the
deck, so every message about them comes from one place (the form and the JSON API alike)."""
from __future__ import annotations

from flask_babel import lazy_gettext as _l
from wtforms import StringField
from wtforms.validators import AnyOf, InputRequired, Length, NumberRange, Optional

from ...numbers import EntryField, IntegerField
from ...tables.forms import TableForm
from . import play, rules

ROUND_MAX = 500  # far beyond any real game; keeps the number sane


class TickForm(TableForm):
    step = StringField(validators=[InputRequired(), AnyOf(play.CHECKLIST)])
    done = IntegerField(validators=[InputRequired(), AnyOf([0, 1])])


class StartForm(TableForm):
    """The first round's dealer and bookkeeper: a player id, or empty (random dealer; the dealer keeps the books)."""

    dealer = StringField(validators=[Optional(), Length(max=6, message=_l("Choose a player from the list."))])
    bookkeeper = StringField(validators=[Optional(), Length(max=6, message=_l("Choose a player from the list."))])


class SwapForm(TableForm):
    chooser = StringField(validators=[InputRequired(_l("Choose who swaps.")),
                                      Length(max=6, message=_l("Choose a player from the list."))])
    partner = StringField(validators=[InputRequired(_l("Choose whom to swap with.")),
                                      Length(max=6, message=_l("Choose a player from the list."))])


class RoundNumberForm(TableForm):
    round = IntegerField(validators=[InputRequired(), NumberRange(min=1, max=ROUND_MAX)])


def field_name(pid: int, count: str) -> str:
    return f"p{pid}_{count}"


def round_form(player_ids: list[int]) -> RoundNumberForm:
    """The round form for these players: counts p<id>_<count> (the shared number entry: a box and
    its value chips; a box sent empty is refused next to it), and `hat` / `braveheart` ("" or an id)."""
    player = Length(max=6, message=_l("Choose a player from the list."))
    attrs = {field_name(pid, c): EntryField() for pid in player_ids for c in rules.COUNTS}
    attrs["hat"] = StringField(validators=[Optional(), player])
    attrs["braveheart"] = StringField(validators=[Optional(), player])
    return type("RoundForm", (RoundNumberForm,), attrs)()
