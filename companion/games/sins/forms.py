"""7 - The Sins: the forms of the table's pages. Counts arrive as typed text and are read by
checks.read_count, so every message about a number is the game's own and sits next to its box."""
from __future__ import annotations

from flask_babel import lazy_gettext as _l
from wtforms import IntegerField, SelectMultipleField, StringField
from wtforms.validators import AnyOf, InputRequired, Length, Optional

from ...tables.forms import PlayerForm, TableForm
from .rules import SINS


def _count_field():
    return StringField(validators=[Optional(), Length(max=8, message=_l("Enter a whole number."))])


class SinChoiceForm(TableForm):
    sin = SelectMultipleField(validate_choice=False)


class StepForm(TableForm):
    step = StringField(validators=[InputRequired(), Length(max=30)])
    done = IntegerField(validators=[InputRequired(), AnyOf([0, 1])])


class ToggleForm(TableForm):
    on = IntegerField(validators=[InputRequired(), AnyOf([0, 1])])


class DeltaForm(TableForm):
    delta = IntegerField(validators=[InputRequired(), AnyOf([-1, 1])])


class StoneForm(PlayerForm):
    delta = IntegerField(validators=[InputRequired(), AnyOf([-1, 1])])


class ModeForm(TableForm):
    mode = StringField(validators=[InputRequired(), Length(max=12)])


class _Counts(TableForm):
    superbia = _count_field()
    avaritia = _count_field()
    luxuria = _count_field()
    invidia = _count_field()
    ira = _count_field()
    acedia = _count_field()
    gula = _count_field()

    def counts(self) -> dict[str, str]:
        return {s: getattr(self, s).data or "" for s in SINS}


class AbyssForm(_Counts):
    pass


class ReserveForm(_Counts, PlayerForm):
    stones = _count_field()


class AbyssTotalForm(TableForm):
    points = _count_field()


class QuickForm(PlayerForm):
    points = _count_field()
    cards = _count_field()
    types = _count_field()


class PlacementForm(PlayerForm):
    stones_on = SelectMultipleField(validate_choice=False)
