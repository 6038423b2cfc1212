"""Who played what, and a note: a finished table's play as its players describe it.

One table action (declared with tables.actions.action, so it is logged and undoable like any
change) sets both, on the finished table's block (templates/groups/_finished.html):

- City of Five Sails: each player's faction and Leader;
- The Others: 7 Sins: what each player played on their side: the Sin (the Sins player) or the
  heroes (a hero player; several, comma-separated, since a dead hero is replaced). The game's own
  state already knows the Sin and the named heroes each player controlled: the form starts from
  that, and only what the players change is kept;
- every game: a short note.

They are kept in the document beside the players (`state.play`, declared in tables/shape.py), with
the play's export id, so a backup carries them; the play (plays/build.py) reads them from there
into the group's stats, the CSV and BG Stats (`role`, `comments`).
"""
from __future__ import annotations

from flask_babel import lazy_gettext as _l
from wtforms import StringField, TextAreaField
from wtforms.validators import Length, Optional

from ..domain import N_, Invalid, Problem
from ..tables import shape
from ..tables.actions import action
from ..tables.forms import TableForm
from ..tables.live import open_table
from ..text import clean_line
from . import build, export
from .views import bp

# Suggestions for the faction box: the five factions the City of Five Sails rulebook lists among its
# components. Anything else may be typed (a faction from another box).
FIVESAILS_FACTIONS = ("Castille", "Eisen", "Montaigne", "Ussura", "Vodacce")
HEROES_MAX = 7
ROLE_MAX = shape.ROLE_MAX
NOTE_MAX = shape.PLAY_NOTE_MAX
TOO_LONG = _l("Keep it to %(max)d characters.")


def role_fields(game: str, pid: int) -> tuple[str, ...]:
    """The form's boxes for one player: Five Sails' faction and Leader, The Others' one box."""
    if game == "fivesails":
        return f"faction_{pid}", f"leader_{pid}"
    if game == "others":
        return (f"played_{pid}",)
    return ()


class DetailsForm(TableForm):
    note = TextAreaField(_l("Note"), validators=[Optional(), Length(max=NOTE_MAX, message=TOO_LONG)])


def details_form(game: str, player_ids: list[int]) -> DetailsForm:
    """The form of this table's players (a class per set of seats, as gibbon's round form)."""
    fields = {}
    for pid in player_ids:
        for name in role_fields(game, pid):
            limit = ROLE_MAX if game == "fivesails" else (ROLE_MAX + 2) * HEROES_MAX
            fields[name] = StringField(validators=[Optional(), Length(max=limit, message=TOO_LONG)])
    return type("TableDetailsForm", (DetailsForm,), fields)()


def _form(token: str) -> DetailsForm:
    table, _readonly = open_table(token, edit=True)
    form = details_form(table.game, [p["id"] for p in table.state["players"]])
    # The id the play has had in every export so far: written down with the first description.
    form.play_id = export.play_id(table.state, table.view_token)
    return form


def _heroes(raw: str, field: str) -> list[str]:
    names = list(dict.fromkeys(n for n in (clean_line(part) for part in (raw or "").split(",")) if n))
    if len(names) > HEROES_MAX:
        raise Invalid(Problem(field, N_("At most %(max)d heroes."), {"max": HEROES_MAX}))
    if any(len(n) > ROLE_MAX for n in names):
        raise Invalid(Problem(field, N_("Keep each name to %(max)d characters."), {"max": ROLE_MAX}))
    return names


def typed_roles(game: str, doc: dict, values) -> dict[str, dict]:
    """The roles the form says, kept only where they differ from what the game knows already."""
    known = build.known_roles(game, doc)
    sins = doc["state"]["game"].get("sins_player") if game == "others" else None
    out: dict[str, dict] = {}
    for p in doc["state"]["players"]:
        pid = p["id"]
        if game == "fivesails":
            role = {k: clean_line(values.get(f"{k}_{pid}")) for k in ("faction", "leader")}
        elif game == "others":
            field = f"played_{pid}"
            role = {"sin": clean_line(values.get(field))} if pid == sins else {"heroes": _heroes(values.get(field), field)}
        else:
            continue
        role = {k: v for k, v in role.items() if v}
        if role and role != known.get(pid, {}):
            out[str(pid)] = role
    return out


@action(bp, "/t/<token>/play", form=_form, kind="play.details", endpoint="play_details")
def play_details(doc, form, said):
    """Who played what and the note: set on a finished table, changed any time after."""
    if doc["status"] != "finished":
        raise Invalid(Problem("note", N_("Finish the game first: the play is described once it is over.")))
    game = said.game.key
    values = {f.name: f.data for f in form if f.name.startswith(("faction_", "leader_", "played_"))}
    roles = typed_roles(game, doc, values)
    note = clean_line(form.note.data)  # one line: no control, invisible or bidi-override character
    before = doc["state"].get("play") or {}
    roles_changed = roles != (before.get("roles") or {})
    note_changed = note != (before.get("note") or "")
    if roles_changed and note_changed:
        said(N_("Who played what and the note on the play were saved"))
    elif note_changed:
        said(N_("The note on the play was saved") if note else N_("The note on the play was removed"))
    else:
        said(N_("Who played what was saved"))
    if not (roles_changed or note_changed):
        return  # nothing to write: no change is logged
    play = dict(before)
    play["id"] = before.get("id") or form.play_id
    play["roles"] = roles
    play["note"] = note
    doc["state"]["play"] = play


@bp.app_template_global("play_details_of")
def details_view(table, play) -> dict:
    """What the finished table's block shows of the description: a row per player with the values
    in its boxes (the table's words, else what the game knows) and the note."""
    game = table.game
    roles = {p["id"]: p.get("role") or {} for p in play.data["players"]}
    sins = table.state["game"].get("sins_player") if game == "others" else None
    rows = []
    for p in table.state["players"]:
        role = roles.get(p["id"], {})
        if game == "fivesails":
            values = {"faction": role.get("faction", ""), "leader": role.get("leader", "")}
        elif game == "others":
            values = {"played": role.get("sin", "") if p["id"] == sins else ", ".join(role.get("heroes") or [])}
        else:
            values = {}
        rows.append({"player": p, "values": values, "sins": p["id"] == sins,
                     "text": export.role_text({"role": role, "team": ("sins" if p["id"] == sins else "heroes")
                                               if game == "others" else None})})
    return {"game": game, "rows": rows, "note": play.data.get("note") or "", "factions": FIVESAILS_FACTIONS,
            "has_roles": game in ("fivesails", "others")}
