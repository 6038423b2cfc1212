"""Forms of the City of Five Sails pages. Duel set-ups and rounds are read by the same pure readers
the JSON API uses (duel.read_setup / duel.read_round), so these forms only carry the table's
bookkeeping fields (CSRF, version, page, form key) and the few choices of each action."""
from __future__ import annotations

from flask_wtf import FlaskForm
from wtforms import HiddenField, StringField, TextAreaField
from wtforms.validators import AnyOf, InputRequired, Length, NumberRange, Optional

from ...numbers import IntegerField
from ...tables.forms import PlayerForm, TableForm
from . import rules


class TickForm(TableForm):
    step = StringField(validators=[InputRequired(), Length(max=30)])
    done = IntegerField(validators=[InputRequired(), AnyOf([0, 1])])


class LineForm(TableForm):
    what = StringField(validators=[InputRequired(), AnyOf(["flip", "swap", "gardens"])])


class DeltaForm(PlayerForm):
    delta = IntegerField(validators=[InputRequired(), AnyOf([-1, 1])])


class ControlForm(TableForm):
    location = StringField(validators=[InputRequired(), AnyOf(list(rules.LOCATION_NAMES))])
    owner = StringField(validators=[Optional(), Length(max=3)])


class LeaderForm(PlayerForm):
    destroyed = IntegerField(validators=[InputRequired(), AnyOf([0, 1])])


class StepForm(TableForm):
    """Next / back: the step the phone showed travels with it so a double tap never skips a step."""

    at = IntegerField(validators=[InputRequired()])


class DuelForm(TableForm):
    """A duel action; its fields are read by the pure duel readers."""


class CalculatorForm(FlaskForm):
    """The standalone duel calculator: the duel so far travels in `duel` (JSON), re-checked each time."""

    duel = HiddenField(validators=[Optional(), Length(max=20000)])


class DeckForm(FlaskForm):
    """The deck check; decks.parse checks the text itself (length, lines, headings)."""

    deck = TextAreaField(validators=[Optional()])


class JumpForm(StepForm):
    """Jump to a phase of this Day."""

    phase = StringField(validators=[InputRequired(), AnyOf(list(rules.PHASES))])


class ResolveForm(PlayerForm):
    """The Leader's Resolve on the tracker."""

    resolve = IntegerField(validators=[InputRequired(), NumberRange(min=1, max=rules.WOUNDS_MAX)])
