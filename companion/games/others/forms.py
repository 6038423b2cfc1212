"""The Others: 7 Sins: the forms behind every button. Each bounds what it accepts; the rules in
state.py check the rest against the table."""
from __future__ import annotations

from flask_babel import lazy_gettext as _l
from wtforms import BooleanField, IntegerField, SelectField, SelectMultipleField, StringField
from wtforms.validators import AnyOf, InputRequired, Length, NumberRange, Optional

from ...tables.forms import TableForm
from . import rules, state

TEXT = Length(max=state.TEXT_MAX, message=_l("Keep it to %(max)d characters."))


def whole(minimum: int, maximum: int, required: bool = True):
    """A bounded whole number with messages a player understands."""
    checks = [InputRequired(_l("Enter a number."))] if required else [Optional()]
    return IntegerField(validators=checks + [NumberRange(min=minimum, max=maximum,
                                                         message=_l("From %(min)s to %(max)s."))])


class HeroForm(TableForm):
    hero = whole(1, rules.TEAM_SIZE)


class DeltaForm(TableForm):
    delta = IntegerField(validators=[InputRequired(), AnyOf([-1, 1])])


class HeroDeltaForm(HeroForm):
    delta = IntegerField(validators=[InputRequired(), AnyOf([-1, 1])])


class DoneForm(TableForm):
    step = StringField(validators=[InputRequired(), Length(max=24)])
    done = IntegerField(validators=[InputRequired(), AnyOf([0, 1])])


class FlagForm(TableForm):
    value = IntegerField(validators=[InputRequired(), AnyOf([0, 1])])


class HeroFlagForm(HeroForm):
    value = IntegerField(validators=[InputRequired(), AnyOf([0, 1])])


class WoundForm(HeroForm):
    slot = IntegerField(validators=[InputRequired(_l("Choose the slot for the wound marker.")),
                                    NumberRange(min=1, max=7, message=_l("Choose a slot from 1 to 7."))])
    cause = SelectField(choices=[("wound", "wound"), ("forced", "forced")], default="wound")


class SlotForm(HeroForm):
    slot = whole(1, 7)


class RolesForm(TableForm):
    sins_player = IntegerField(validators=[InputRequired(_l("Choose the Sins player.")),
                                           NumberRange(min=1, max=99)])


class SinForm(TableForm):
    sin = StringField(_l("Sin"), validators=[Optional(), TEXT])
    acolytes = StringField(_l("Acolytes"), validators=[Optional(), TEXT])
    draw = SelectField(choices=[("", ""), ("sin", "sin"), ("acolytes", "acolytes")], default="",
                       validators=[Optional()])


class StoryForm(TableForm):
    story = StringField(_l("Story"), validators=[InputRequired(_l("Enter the story's name.")), TEXT])
    story_type = SelectField(_l("Type"), choices=[(t, t) for t in state.STORY_TYPES],
                             validate_choice=True)
    map = StringField(_l("Map"), validators=[Optional(), TEXT])


class TeamForm(TableForm):
    """Seven heroes: name_<id> and controller_<id> (0 = Hero Reserve)."""


for _hid in range(1, rules.TEAM_SIZE + 1):
    setattr(TeamForm, f"name_{_hid}", StringField(validators=[Optional(), TEXT]))
    setattr(TeamForm, f"controller_{_hid}", IntegerField(validators=[Optional(), NumberRange(min=0, max=99)]))


class NpcForm(HeroForm):
    npc = SelectField(choices=[(n, n) for n in state.NPCS], validate_choice=True)
    value = IntegerField(validators=[InputRequired(), AnyOf([0, 1])])


class ReplaceForm(TableForm):
    dead = whole(1, rules.TEAM_SIZE)
    replacement = IntegerField(validators=[InputRequired(_l("Choose the hero who comes in.")),
                                           NumberRange(min=1, max=rules.TEAM_SIZE)])


class StatsForm(HeroForm):
    name = StringField(_l("Name"), validators=[Optional(), TEXT])
    fight = whole(0, 9)
    skill = whole(0, 9)
    defense = whole(0, 9)


class FightStartForm(HeroForm):
    kind = SelectField(choices=[(state.FIGHT, state.FIGHT), (state.CRISIS, state.CRISIS)], validate_choice=True)


class FightPrepForm(TableForm):
    pass


for _name in state.PREP_FIELDS:
    setattr(FightPrepForm, _name, whole(0, rules.DICE_MAX))

ROLL_FIELDS = ("hits", "defense", "counter", "skill", "faith", "flex_hits", "flex_defense", "flex_counter",
               "flex_skill", "sin_hits", "sin_corruption")


class FightRollForm(TableForm):
    pass


for _name in ROLL_FIELDS:
    setattr(FightRollForm, _name, whole(0, rules.DICE_MAX, required=False))


class FightApplyForm(TableForm):
    slots = SelectMultipleField(choices=[(i, str(i)) for i in rules.LEVELS], coerce=int, validate_choice=True)


class TrackForm(TableForm):
    """Seven levels: card_<n>, effect_<n>, reactions_<n>, sin_dice_<n>."""


for _lvl in state.TRACK_LEVELS:
    setattr(TrackForm, f"card_{_lvl}", BooleanField())
    setattr(TrackForm, f"effect_{_lvl}", StringField(validators=[
        Optional(), Length(max=state.EFFECT_MAX, message=_l("Keep it to %(max)d characters."))]))
    setattr(TrackForm, f"reactions_{_lvl}", whole(0, state.TRACK_BONUS_MAX))
    setattr(TrackForm, f"sin_dice_{_lvl}", whole(0, state.TRACK_BONUS_MAX))


class PresetSaveForm(TableForm):
    name = StringField(_l("Name"), validators=[InputRequired(_l("Give the saved track a name.")), TEXT])


class PresetUseForm(TableForm):
    preset = IntegerField(validators=[InputRequired(_l("Choose a saved track.")), NumberRange(min=1)])


class CardForm(TableForm):
    level = whole(1, 7)
    name = StringField(_l("Card"), validators=[Optional(), TEXT])
    hell_club = StringField(_l("Hell Club monster"), validators=[Optional(), TEXT])


class LevelForm(TableForm):
    level = whole(1, 7)


class CardIndexForm(TableForm):
    card = whole(0, state.CARDS_MAX)


class AlertForm(TableForm):
    alert = whole(1, 10**6)


class NoteForm(TableForm):
    note = StringField(_l("Note"), validators=[Optional(), Length(max=state.NOTE_MAX,
                                                                  message=_l("Keep it to %(max)d characters."))])


class TargetForm(TableForm):
    target = whole(1, state.COUNT_MAX)
