"""Forms of the table machinery. Every state-changing form carries CSRF (Flask-WTF), the table
version the phone saw (`v`), the page to re-render (`page`) and which form it was (`form_key`),
so an error re-renders exactly that form with what the player typed."""
from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import HiddenField, SelectField, StringField
from wtforms.validators import AnyOf, InputRequired, Length, NumberRange, Optional

from ..numbers import IntegerField
from .players import COLOURS, NAME_MAX
from .store import STATUSES, TABLE_NAME_MAX


class EmptyForm(FlaskForm):
    """A button that changes something needs CSRF and nothing else."""


class TableForm(FlaskForm):
    v = IntegerField(validators=[InputRequired(), NumberRange(min=0)])
    page = HiddenField(validators=[Optional(), Length(max=24)])
    form_key = HiddenField(validators=[Optional(), Length(max=60)])
    # One-time submission id (see store.submission_key): a retry of the same submission never counts twice.
    sid = HiddenField(validators=[Optional(), Length(max=400)])


class PlayerForm(TableForm):
    player = IntegerField(validators=[InputRequired(), NumberRange(min=1, max=99)])


class RenamePlayerForm(PlayerForm):
    name = StringField(_l("Name"), validators=[InputRequired(_l("Enter a name.")),
                                               Length(max=NAME_MAX, message=_l("Keep names to %(max)d characters."))])


class ColourForm(PlayerForm):
    colour = SelectField(_l("Colour"), choices=["", *COLOURS])


class MoveForm(PlayerForm):
    step = IntegerField(validators=[InputRequired(), AnyOf([-1, 1])])


class AddPlayerForm(TableForm):
    name = StringField(_l("Name"), validators=[InputRequired(_l("Enter a name.")),
                                               Length(max=NAME_MAX, message=_l("Keep names to %(max)d characters."))])


class RenameTableForm(TableForm):
    name = StringField(_l("Table name"), validators=[
        InputRequired(_l("Give the table a name.")),
        Length(max=TABLE_NAME_MAX, message=_l("Keep the table name to %(max)d characters."))])


class StatusForm(TableForm):
    status = SelectField(choices=list(STATUSES))


class ArchiveForm(TableForm):
    archive = IntegerField(validators=[InputRequired(), AnyOf([0, 1])])


class UndoForm(TableForm):
    action = IntegerField(validators=[Optional(), NumberRange(min=1)])


class BackToForm(TableForm):
    action = IntegerField(validators=[InputRequired(_l("Choose the change to go back to.")),
                                      NumberRange(min=1, max=2**31 - 1)])


class OpenLinkForm(FlaskForm):
    link = StringField(_l("Table link"), validators=[InputRequired(_l("Paste the table's link.")),
                                                     Length(max=300, message=_l("That is too long for a table link."))])


class NewTableForm(FlaskForm):
    """Players come as a list of name fields (players-0 ... players-N); checked in the view."""

    name = StringField(_l("Table name"), validators=[
        InputRequired(_l("Give the table a name.")),
        Length(max=TABLE_NAME_MAX, message=_l("Keep the table name to %(max)d characters."))])


class PrefsForm(FlaskForm):
    # Only one of the two comes with each tap of the footer's buttons.
    theme = SelectField(_l("Theme"), choices=["", "auto", "light", "dark"], validators=[Optional()])
    lang = SelectField(_l("Language"), choices=["", "auto", "en", "fr"], validators=[Optional()])
    next = HiddenField(validators=[Optional(), Length(max=300)])
