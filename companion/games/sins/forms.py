"""7 - The Sins: the forms of the table's pages. Counts arrive as typed text and are read by
checks.read_count, so every message about a number is the game's own and sits next to its box."""
from __future__ import annotations

from flask_babel import lazy_gettext as _l
from wtforms import SelectMultipleField, StringField
from wtforms.validators import AnyOf, InputRequired, Length, Optional

from ...numbers import EntryField, IntegerField
from ...tables.forms import PlayerForm, TableForm
from .rules import SINS

STALE = _l("This form was out of date or incomplete: reload the page and try again.")


class _Shown:
    """Problems with the parts of a form the player cannot see (which player, the version, a
    button's value) can only come from a stale page or a hand-made request: say so at the top of
    the form instead of next to a field nobody can see."""

    VISIBLE: tuple[str, ...] = ()

    @property
    def errors(self):
        errors = super().errors
        shown = {k: v for k, v in errors.items() if k in self.VISIBLE}
        if len(shown) < len(errors):
            shown["form"] = [STALE]
        return shown


def _count_field():
    return EntryField()


class ActionForm(_Shown, TableForm):
    """A button that changes something and sends nothing else."""


class PickPlayerForm(_Shown, PlayerForm):
    VISIBLE = ("player",)


class ForPlayerForm(_Shown, PlayerForm):
    """A button about one player (the player is a hidden field)."""


class SinChoiceForm(_Shown, TableForm):
    VISIBLE = ("sin",)
    sin = SelectMultipleField(validate_choice=False)


class StepForm(_Shown, TableForm):
    step = StringField(validators=[InputRequired(), Length(max=30)])
    done = IntegerField(validators=[InputRequired(), AnyOf([0, 1])])


class ToggleForm(_Shown, TableForm):
    on = IntegerField(validators=[InputRequired(), AnyOf([0, 1])])


class DeltaForm(_Shown, TableForm):
    delta = IntegerField(validators=[InputRequired(), AnyOf([-1, 1])])


class JudgmentForm(DeltaForm):
    """+1 / -1 Last Judgment; the third one also says whose turn it came out on (`on`, a player id)."""

    on = IntegerField(validators=[Optional()])


class StoneForm(_Shown, PlayerForm):
    delta = IntegerField(validators=[InputRequired(), AnyOf([-1, 1])])


class ModeForm(_Shown, TableForm):
    mode = StringField(validators=[InputRequired(), Length(max=12)])


class _Counts(_Shown, TableForm):
    VISIBLE = SINS
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
    VISIBLE = SINS + ("stones",)
    stones = _count_field()


class AbyssTotalForm(_Shown, TableForm):
    VISIBLE = ("points",)
    points = _count_field()


class QuickForm(_Shown, PlayerForm):
    VISIBLE = ("points", "cards", "types")
    points = _count_field()
    cards = _count_field()
    types = _count_field()


class PlacementForm(_Shown, PlayerForm):
    VISIBLE = ("stones_on",)
    stones_on = SelectMultipleField(validate_choice=False)
