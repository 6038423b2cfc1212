"""Forms of groups and play exports (CSRF on each, size limits on every field)."""
from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from flask_wtf.file import FileField
from wtforms import IntegerField, StringField, TextAreaField
from wtforms.validators import InputRequired, Length, NumberRange, Optional

from ..tables.players import NAME_MAX
from .sync import GROUP_NAME_MAX


class GroupNameForm(FlaskForm):
    name = StringField(_l("Group name"), validators=[
        InputRequired(_l("Give the group a name.")),
        Length(max=GROUP_NAME_MAX, message=_l("Keep the group name to %(max)d characters."))])


class MergeForm(FlaskForm):
    spelling = StringField(_l("This spelling"), validators=[InputRequired(_l("Choose a player.")),
                                                            Length(max=NAME_MAX)])
    into = StringField(_l("counts as"), validators=[InputRequired(_l("Choose a player.")), Length(max=NAME_MAX)])


class UnmergeForm(FlaskForm):
    merge = IntegerField(validators=[InputRequired(), NumberRange(min=1)])


class JoinGroupForm(FlaskForm):
    """Put a table in a group: one of this phone's groups, or a pasted group link."""

    group = StringField(_l("Group link"), validators=[Optional(), Length(max=300, message=_l(
        "That is too long for a group link."))])


class ImportForm(FlaskForm):
    file = FileField(_l("Table file (.json)"))
    text = TextAreaField(_l("or paste its contents"), validators=[Optional()])
    # The edit link of the group the table goes in (a backup's own group comes back only with it).
    group = StringField(_l("Group link (optional)"), validators=[Optional(), Length(max=300, message=_l(
        "That is too long for a group link."))])
