"""The Others: 7 Sins: the forms behind every button. Each bounds what it accepts; the rules in
state.py check the rest against the table."""
from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask import request
from wtforms import BooleanField, SelectField, StringField
from wtforms.validators import AnyOf, InputRequired, Length, NumberRange, Optional

from ...domain import N_, Invalid, Problem
from ...numbers import IntegerField, parse_int
from ...tables.forms import TableForm
from . import rules, state

TEXT = Length(max=state.TEXT_MAX, message=_l("Keep it to %(max)d characters."))
GENERAL = "form"  # not a field: the page shows these messages at the top of the form


class OthersForm(TableForm):
    """A form whose problems show where the player can see them.

    `SHOWN` lists the fields the page renders with their own message; a problem on any other field
    (a hidden input such as the hero's id, tampered with or gone stale) is shown at the top of the form.
    """

    SHOWN: frozenset[str] = frozenset()

    @property
    def errors(self):
        out: dict = {}
        for name, msgs in super().errors.items():
            out.setdefault(name if name in self.SHOWN else GENERAL, []).extend(msgs)
        return out

    def place(self, err: Invalid) -> Invalid:
        """The same problems from the rules, each under a field the page shows or the form's top."""
        return Invalid([Problem(pr.field if pr.field in self.SHOWN else GENERAL, pr.message, pr.params)
                        for pr in err.problems])


def whole(minimum: int, maximum: int, required: bool = True):
    """A bounded whole number with messages a player understands."""
    checks = [InputRequired(_l("Enter a number."))] if required else [Optional()]
    return IntegerField(validators=checks + [NumberRange(min=minimum, max=maximum,
                                                         message=_l("From %(min)s to %(max)s."))])


class HeroForm(OthersForm):
    hero = whole(1, rules.TEAM_SIZE)


class DeltaForm(OthersForm):
    delta = IntegerField(validators=[InputRequired(), AnyOf([-1, 1])])


class HeroDeltaForm(HeroForm):
    delta = IntegerField(validators=[InputRequired(), AnyOf([-1, 1])])


class DoneForm(OthersForm):
    step = StringField(validators=[InputRequired(), Length(max=24)])
    done = IntegerField(validators=[InputRequired(), AnyOf([0, 1])])


class FlagForm(OthersForm):
    value = IntegerField(validators=[InputRequired(), AnyOf([0, 1])])


class HeroFlagForm(HeroForm):
    value = IntegerField(validators=[InputRequired(), AnyOf([0, 1])])


class WoundForm(HeroForm):
    SHOWN = frozenset({"slot"})
    slot = IntegerField(validators=[InputRequired(_l("Choose the slot for the wound marker.")),
                                    NumberRange(min=1, max=7, message=_l("Choose a slot from 1 to 7."))])
    cause = SelectField(choices=["wound", "forced"], default="wound")


class SlotForm(HeroForm):
    slot = whole(1, 7)


class RolesForm(OthersForm):
    SHOWN = frozenset({"sins_player"})
    sins_player = IntegerField(validators=[InputRequired(_l("Choose the Sins player.")),
                                           NumberRange(min=1, max=99)])


class SinForm(OthersForm):
    SHOWN = frozenset({"sin", "acolytes"})
    sin = StringField(_l("Sin"), validators=[Optional(), TEXT])
    acolytes = StringField(_l("Acolytes"), validators=[Optional(), TEXT])
    draw = SelectField(choices=["", "sin", "acolytes"], default="",
                       validators=[Optional()])


class StoryForm(OthersForm):
    SHOWN = frozenset({"story", "story_type", "map"})
    story = StringField(_l("Story"), validators=[InputRequired(_l("Enter the story's name.")), TEXT])
    story_type = SelectField(_l("Type"), choices=list(state.STORY_TYPES),
                             validate_choice=True)
    map = StringField(_l("Map"), validators=[Optional(), TEXT])


class TeamForm(OthersForm):
    """Seven heroes: name_<id> and controller_<id> (0 = Hero Reserve)."""

    SHOWN = frozenset(f"{kind}_{hid}" for kind in ("name", "controller") for hid in range(1, rules.TEAM_SIZE + 1))


for _hid in range(1, rules.TEAM_SIZE + 1):
    setattr(TeamForm, f"name_{_hid}", StringField(validators=[Optional(), TEXT]))
    setattr(TeamForm, f"controller_{_hid}", IntegerField(validators=[Optional(), NumberRange(min=0, max=99)]))


class NpcForm(HeroForm):
    npc = SelectField(choices=list(state.NPCS), validate_choice=True)
    value = IntegerField(validators=[InputRequired(), AnyOf([0, 1])])


class ReplaceForm(OthersForm):
    SHOWN = frozenset({"replacement"})
    dead = whole(1, rules.TEAM_SIZE)
    replacement = IntegerField(validators=[InputRequired(_l("Choose the hero who comes in.")),
                                           NumberRange(min=1, max=rules.TEAM_SIZE)])


class StatsForm(HeroForm):
    SHOWN = frozenset({"name", "fight", "skill", "defense"})
    name = StringField(_l("Name"), validators=[Optional(), TEXT])
    fight = whole(0, 9)
    skill = whole(0, 9)
    defense = whole(0, 9)


class FightStartForm(HeroForm):
    kind = SelectField(choices=list(state.FIGHT_KINDS), validate_choice=True)


class FightPrepForm(OthersForm):
    SHOWN = frozenset(state.PREP_FIELDS)


for _name in state.PREP_FIELDS:
    # A blank printed stat reaches the rules, which ask for it by name (state.MISSING_STAT), never 0.
    setattr(FightPrepForm, _name, whole(0, rules.DICE_MAX, required=_name not in ("stat", "base_defense")))

ROLL_FIELDS = ("hits", "defense", "counter", "skill", "faith", "flex_hits", "flex_defense", "flex_counter",
               "flex_skill", "sin_hits", "sin_corruption")


class FightRollForm(OthersForm):
    SHOWN = frozenset(ROLL_FIELDS)


for _name in ROLL_FIELDS:
    setattr(FightRollForm, _name, whole(0, rules.DICE_MAX, required=False))


class FightApplyForm(OthersForm):
    """The wound slots come as repeated "slots" checkboxes, read with `slots()`."""

    SHOWN = frozenset({"slots"})
    # Declared so its messages count as this field's (shown next to the checkboxes); read with chosen_slots().
    slots = StringField(validators=[Optional()])

    def chosen_slots(self) -> list[int]:
        raw = request.form.getlist("slots")
        slots = [parse_int(v, max_digits=1) for v in raw]
        if len(raw) > len(rules.LEVELS) or not all(v is not None and 1 <= v <= 7 for v in slots):
            raise Invalid(Problem("slots", N_("Choose slots from 1 to 7.")))
        return slots


class TrackForm(OthersForm):
    """Seven levels: card_<n>, effect_<n>, reactions_<n>, sin_dice_<n>."""

    SHOWN = frozenset(f"{kind}_{n}" for kind in ("effect", "reactions", "sin_dice") for n in state.TRACK_LEVELS)


for _lvl in state.TRACK_LEVELS:
    setattr(TrackForm, f"card_{_lvl}", BooleanField())
    setattr(TrackForm, f"effect_{_lvl}", StringField(validators=[
        Optional(), Length(max=state.EFFECT_MAX, message=_l("Keep it to %(max)d characters."))]))
    setattr(TrackForm, f"reactions_{_lvl}", whole(0, state.TRACK_BONUS_MAX))
    setattr(TrackForm, f"sin_dice_{_lvl}", whole(0, state.TRACK_BONUS_MAX))


class PresetSaveForm(OthersForm):
    SHOWN = frozenset({"name"})
    name = StringField(_l("Name"), validators=[InputRequired(_l("Give the saved track a name.")), TEXT])


class PresetUseForm(OthersForm):
    SHOWN = frozenset({"preset"})
    preset = IntegerField(validators=[InputRequired(_l("Choose a saved track.")), NumberRange(min=1)])


class CardForm(OthersForm):
    SHOWN = frozenset({"name", "hell_club"})
    level = whole(1, 7)
    name = StringField(_l("Card"), validators=[Optional(), TEXT])
    hell_club = StringField(_l("Hell Club monster"), validators=[Optional(), TEXT])


class LevelForm(OthersForm):
    level = whole(1, 7)


class CardIndexForm(OthersForm):
    card = whole(0, state.CARDS_MAX)


class AlertForm(OthersForm):
    alert = whole(1, 10**6)


class NoteForm(OthersForm):
    SHOWN = frozenset({"note"})
    note = StringField(_l("Note"), validators=[Optional(), Length(max=state.NOTE_MAX,
                                                                  message=_l("Keep it to %(max)d characters."))])


class TargetForm(OthersForm):
    SHOWN = frozenset({"target"})
    target = whole(1, state.COUNT_MAX)
