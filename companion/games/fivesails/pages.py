"""What the City of Five Sails table pages show beyond the table's own state: each page's context,
the page a table opens on, and the duel's story in the viewer's language."""
from __future__ import annotations

from flask import g
from flask_babel import gettext as _
from flask_babel import ngettext

from ...domain import Invalid
from ...i18n import render_message
from ...tables.game import SEATING
from ...tables.picture import draw
from ...tables.store import FINISHED, PLAYING, SETTING_UP
from . import duel as d, picture, rules
from .blueprint import bp
from .common import duel_decides_game, table_duel


@bp.app_template_global("fs_line")
def fs_line(line: d.Line) -> str:
    """One sentence of a duel's story in the viewer's language, in the right plural form."""
    if line.plural:
        return ngettext(line.msg, line.plural, line.args[line.num], **line.args)
    return render_message(line.msg, line.args)


# -- pages' context --------------------------------------------------------------------------------

def duel_context(duel: d.Duel | None, preview: d.Duel | None = None) -> dict:
    if duel is None:
        return {"duel": None}
    story = [(r, d.round_story(duel, r)) for r in duel.rounds]
    out = {"duel": duel, "opening": d.opening_story(duel), "story": story, "preview": None, "preview_story": []}
    if preview is not None:
        out["preview"] = preview
        out["preview_story"] = d.round_story(preview, preview.rounds[-1])
    return out


def last_duel_context(stored: dict | None) -> dict:
    """The duel the table last finished, replayed for its story."""
    if not stored:
        return {"last_duel": None}
    try:
        last = d.resolve(d.read_setup(stored["setup"]), d.read_rounds(stored["rounds"]))
    except Invalid:
        return {"last_duel": None}
    # A kept duel whose pools are not empty was closed by a fall that decided the game.
    return {"last_duel": last, "last_decided": not last.ended, "last_opening": d.opening_story(last),
            "last_story": [(r, d.round_story(last, r)) for r in last.rounds]}


def context(slug: str, table, state: dict) -> dict:
    gs = state.get("game", {})
    n = len(state["players"])
    seats = rules.seat_ids(state["players"])
    names = {str(p["id"]): p["name"] for p in state["players"]}
    out = {"R": rules, "D": d, "names": names, "seats": seats,
           "names_of": lambda ids: ", ".join(names.get(str(i), "?") for i in ids),
           "player_choices": [(pid, names[pid]) for pid in seats],
           "line": rules.city_line(n, **{k: bool(v) for k, v in gs.get("line", {}).items()
                                          if k in ("flipped", "swapped", "gardens_with_inn")}),
           "order": rules.clockwise_from(seats, gs.get("first_player"))}
    if slug == "setup":
        out["setup_steps"] = rules.setup_steps(n)
        out["pic"] = draw(picture.picture(state["players"], out["line"], gs.get("setup_done", []),
                                          SEATING["fivesails"].clockwise), _)
    if slug == "day" and gs.get("players"):
        phase = rules.current_phase(gs)
        day = gs.get("day", 1)
        out["phase"] = phase
        out["at"] = rules.day_position(gs)
        out["next_phase"] = rules.PHASES[rules.PHASES.index(phase) + 1] if phase != rules.DUSK else None
        out["verdict"] = rules.plunder_verdict(gs, seats, day) if phase == rules.PLUNDER else None
        out["dominance"] = rules.check_dominance(gs, seats)
        out["economic"] = rules.check_economic(gs, seats)
        out["fifth_day"] = rules.check_fifth_day(gs, seats) if day >= rules.MAX_DAYS else None
        # The column that settles the fifth Day: the template marks it, whatever the grid looks like.
        out["deciding"] = out["fifth_day"].decided_by if out["fifth_day"] else None
    if slug == "duel" and gs.get("players"):
        def tracker(pid):
            ps = gs["players"][pid]
            if ps["leader_destroyed"]:
                return _("%(name)s destroyed", name=names[pid])
            if ps.get("leader_resolve"):
                return f"{names[pid]} {ps['leader_wounds']}/{ps['leader_resolve']}"
            return f"{names[pid]} {ps['leader_wounds']}"
        out["tracked_wounds"] = ", ".join(tracker(pid) for pid in seats)
        out["destroyed_leaders"] = [pid for pid in seats if gs["players"][pid]["leader_destroyed"]]
    if slug in ("duel", "day"):
        try:
            out.update(duel_context(table_duel(gs), getattr(g, "fivesails_preview", None)))
        except Invalid:
            out.update(duel_context(None))
        # A Leader's fall has decided the game: the duel offers no round, only to be closed.
        out["duel_decided"] = bool(out["duel"]) and duel_decides_game(gs, out["duel"], seats)
        out["duel_sides"] = (gs.get("duel") or {}).get("sides", {})
    if slug == "duel":
        out.update(last_duel_context(gs.get("last_duel")))
    return out


def default_page(status: str, state: dict) -> str:
    return {SETTING_UP: "setup", PLAYING: "day", FINISHED: "players"}.get(status, "setup")

