"""The Others: 7 Sins: the Missions (p. 20), Victory and Defeat (p. 12) and the Apocalypse track
(p. 23): its level, the printed track (and the presets it is saved as or copied from), the cards
revealed and the Hell Club.

Depend on the state they land on (depends_on_state):
- mission_progress: the progress reached counts towards the Mission's target;
- mission_next: the Mission accomplished is the one it lands on;
- heroes_win, sins_win: they end the game;
- apocalypse: the level reached decides which card is due, and 7 is the end of the track.

Preset rename, update, delete and sharing are in preset_views.py.
"""
from __future__ import annotations

from flask_babel import gettext as _

from ...db import get_session
from ...domain import N_, Invalid
from ...limits import preset_saves
from ...tables import live
from ...tables.actions import action, game_state
from . import forms, presets, state
from .blueprint import WHAT, bp, counter, placed

counter("mission_progress", "mission/progress", state.add_progress, N_("Mission progress %(delta)+d"),
        per_hero=False, depends_on_state=True)


# -- missions ---------------------------------------------------------------------------------------

@action(bp, "/t/<token>/others/mission/target", form=forms.TargetForm, kind="others.target",
        summary=N_("Mission target set to %(n)d"))
@placed
def mission_target(doc, form, said):
    state.set_target(doc, form.target.data)
    said(n=game_state(doc)["mission"]["target"])


@action(bp, "/t/<token>/others/mission/next", form=forms.NoteForm, kind="others.mission",
        summary=N_("Mission %(n)d accomplished"), depends_on_state=True)
@placed
def mission_next(doc, form, said):
    said(n=game_state(doc)["mission"]["number"])
    state.next_mission(doc, form.note.data or "")


@action(bp, "/t/<token>/others/mission/note", form=forms.NoteForm, kind="others.note",
        summary=N_("Mission note added"), relative=True)
@placed
def mission_note(doc, form, said):
    state.add_mission_note(doc, form.note.data or "")


# Victory and Defeat (p. 12): a button that ends the game for one side; Undo takes it back.

@action(bp, "/t/<token>/others/win", form=forms.OthersForm, kind="others.win",
        summary=N_("The heroes accomplished the last Mission and win"), depends_on_state=True)
@placed
def heroes_win(doc, form, said):
    state.heroes_win(doc)


@action(bp, "/t/<token>/others/sins-win", form=forms.OthersForm, kind="others.sinswin",
        summary=N_("The table declared the Sins player the winner"), depends_on_state=True)
@placed
def sins_win(doc, form, said):
    state.sins_win(doc)


# -- the Apocalypse track ---------------------------------------------------------------------------

@action(bp, "/t/<token>/others/apocalypse", form=forms.DeltaForm, kind="others.apocalypse", summary=WHAT,
        relative=True, depends_on_state=True)
@placed
def apocalypse(doc, form, said):
    due = state.raise_apocalypse(doc, form.delta.data)
    if due:
        msg = N_("Apocalypse level raised to %(n)d: reveal an Apocalypse card")
    elif form.delta.data > 0:
        msg = N_("Apocalypse level raised to %(n)d")
    else:
        msg = N_("Apocalypse level lowered to %(n)d")
    said(what={"msg": msg, "args": {"n": game_state(doc)["apocalypse"]["level"]}})


@action(bp, "/t/<token>/others/track", form=forms.TrackForm, kind="others.track",
        summary=N_("The Apocalypse track is marked as printed"))
@placed
def track(doc, form, said):
    state.set_track(doc, [{"card": bool(getattr(form, f"card_{lvl}").data),
                           "effect": getattr(form, f"effect_{lvl}").data or "",
                           "reactions": getattr(form, f"reactions_{lvl}").data,
                           "sin_dice": getattr(form, f"sin_dice_{lvl}").data} for lvl in state.TRACK_LEVELS])


def _save_track(token: str, name: str) -> dict:
    """Save the table's track as a preset for other tables; its reference {"id", "name"}. Raises
    Invalid (field "name") when it can't. The route counts against the table's budget of saves."""
    table, _readonly = live.open_table(token, edit=True)
    saved = presets.save(get_session(), name, table.state["game"]["apocalypse"]["track"]["levels"],
                         presets.current_viewer(table.id, create_phone=True))
    return {"id": saved.id, "name": saved.name}


class TrackSaveForm(forms.PresetSaveForm):
    """A preset is a write of its own (presets.save commits), made as the form is checked: before the
    table's change, which only notes its name, and outside the table's lock. A refusal (a name taken,
    an empty track, too many saved) is shown next to the name, like a form error."""

    def __init__(self, token: str):
        super().__init__()
        self.token = token
        self.saved: dict | None = None

    @classmethod
    def of(cls, token: str) -> "TrackSaveForm":
        """The form for `action(form=...)`, which makes a form from a function of the token."""
        return cls(token)

    def validate(self, extra_validators=None) -> bool:
        if not super().validate(extra_validators):
            return False
        try:
            self.saved = _save_track(self.token, self.name.data)
        except Invalid as err:
            for field, messages in self.place(err).as_dict(_).items():
                (self[field].errors if field in self.SHOWN else self.form_errors).extend(messages)
            return False
        return True


@action(bp, "/t/<token>/others/track/save", form=TrackSaveForm.of, kind="others.track.save", decorators=(preset_saves,),
        summary=N_("The Apocalypse track is saved as “%(name)s”"))
@placed
def track_save(doc, form, said):
    """Save the table's track as a preset for other tables, then note its name on the table."""
    said(name=form.saved["name"])
    game_state(doc)["apocalypse"]["track"]["preset"] = form.saved


def _use_form(token: str) -> forms.PresetUseForm:
    """The form, with who may see which preset (this table, this phone, the links it opened)."""
    form = forms.PresetUseForm()
    form.viewer = presets.current_viewer(live.open_table(token, edit=True)[0].id)
    return form


@action(bp, "/t/<token>/others/track/use", form=_use_form, kind="others.track.use",
        summary=N_("The Apocalypse track is copied from “%(name)s”"))
@placed
def track_use(doc, form, said):
    ref, levels = presets.load(get_session(), form.preset.data, form.viewer)
    state.set_track(doc, levels, ref)
    said(name=ref["name"])


@action(bp, "/t/<token>/others/card", form=forms.CardForm, kind="others.card",
        summary=N_("Apocalypse card at level %(level)d: %(name)s"),
        depends_on_state=True)  # a card is due once per level: a stale one would add it twice
@placed
def card(doc, form, said):
    state.note_card(doc, form.level.data, form.name.data or "", form.hell_club.data or "")
    said(level=form.level.data, name=form.name.data or "-")


@action(bp, "/t/<token>/others/card/skip", form=forms.LevelForm, kind="others.card.skip",
        summary=N_("Apocalypse card at level %(level)d revealed"))
@placed
def card_skip(doc, form, said):
    state.skip_reveal(doc, form.level.data)
    said(level=form.level.data)


@action(bp, "/t/<token>/others/hell-club", form=forms.CardIndexForm, kind="others.hellclub",
        summary=N_("%(name)s of the Hell Club was killed"))
@placed
def hell_club(doc, form, said):
    state.hell_club_killed(doc, form.card.data)
    said(name=game_state(doc)["apocalypse"]["cards"][form.card.data]["hell_club"])
