"""What the City of Five Sails table actions and pages share: names and seats, refusing changes once
the game is over, finishing it, the table's duel, and the words for Leaders destroyed."""
from __future__ import annotations

from functools import wraps

from ...domain import N_, Invalid, Problem
from ...tables import players as players_mod
from ...tables.actions import Said, game_state
from ...tables.store import FINISHED
from . import duel as d, rules


def name(doc: dict, pid) -> str:
    return players_mod.find(doc["state"], int(pid))["name"]


def seats(doc: dict) -> list[str]:
    return rules.seat_ids(doc["state"]["players"])


def playing(doc: dict) -> dict:
    """The game state, refusing changes once the game is over (Undo brings it back)."""
    rules.game_over(doc)
    return game_state(doc)


def finish(doc: dict, verdict: rules.Verdict) -> None:
    doc["result"] = rules.result_for(game_state(doc), doc["state"]["players"], verdict)
    doc["status"] = FINISHED


def victory_args(doc: dict, verdict: rules.Verdict) -> dict:
    return {"victory": {"term": rules.VICTORY_NAMES[verdict.kind]},
            "winners": ", ".join(name(doc, w) for w in verdict.winners)}


def form_wide(run):
    """An action whose form is made only of hidden fields and a button: its problems belong to the
    whole form, so they are raised under a name no form field has and the page shows them at the top
    of that form."""
    @wraps(run)
    def refused_as_a_whole(doc: dict, form, said: Said) -> None:
        try:
            run(doc, form, said)
        except Invalid as err:
            raise Invalid([Problem("form", p.message, p.params) for p in err.problems]) from None
    return refused_as_a_whole


def table_duel(gs: dict) -> d.Duel | None:
    """The table's duel, replayed from its stored set-up and rounds."""
    stored = gs.get("duel")
    if not stored:
        return None
    return d.resolve(d.read_setup(stored["setup"]), d.read_rounds(stored["rounds"]))


def _fell_at(duel: d.Duel, side: str) -> int | None:
    """The round a side's character fell in (0: it refused and the wounds destroyed it), or None."""
    if duel.refusal is not None:
        return 0 if side == d.DEFENDER and duel.refusal.destroyed else None
    for i, rnd in enumerate(duel.rounds, start=1):
        if rnd.actor == side and rnd.destroyed:
            return i
    return None


def duel_leaders(gs: dict, duel: d.Duel) -> list[rules.DuelWounds]:
    """What the table's duel has done so far to each Leader linked to a player."""
    sides = (gs.get("duel") or {}).get("sides") or {}
    out = []
    for side in d.SIDES:
        link = sides.get(side) or {}
        if link.get("leader") and link.get("player"):
            who = duel.participant(side)
            out.append(rules.DuelWounds(link["player"], who.wounds, duel.wounds[side], who.resolve,
                                        duel.destroyed(side), _fell_at(duel, side)))
    return out


def duel_decides_game(gs: dict, duel: d.Duel, seats_: list[str]) -> bool:
    """Whether a Leader's fall in the table's duel has decided the game (Assassination Victory, p. 2):
    the duel then closes, with no further round."""
    return rules.decides_game(gs, duel_leaders(gs, duel), seats_)


# -- Leaders destroyed -----------------------------------------------------------------------------

# The log line of an action that destroyed Leaders is a nested message: it sits beside `fallen`, the
# players whose Leader fell, which the page reads to offer Undo right where it happened.
WORDS = "%(what)s"


def destroy(doc: dict, pid) -> rules.Destruction:
    """Destroy one Leader, then check Assassination Victory."""
    return rules.destroy_leaders(game_state(doc), [str(pid)], seats(doc))


def _destroyed_words(doc: dict, gone: rules.Destruction) -> dict:
    """Leaders destroyed together, as one nested message: who fell, the Renown each lost, and the
    Assassination outcome checked after all of them. A win finishes the game here."""
    if gone.verdict.decided:
        finish(doc, gone.verdict)
    each = [{"msg": N_("%(player)s's Leader destroyed (%(lost)d Renown lost)"),
             "args": {"player": name(doc, p), "lost": n}} for p, n in gone.lost.items()]
    fallen = each[0] if len(each) == 1 else {"msg": N_("%(a)s; %(b)s"), "args": {"a": each[0], "b": each[1]}}
    if gone.verdict.decided:
        return {"msg": N_("%(fallen)s: Assassination Victory for %(winner)s"),
                "args": {"fallen": fallen, "winner": name(doc, gone.verdict.winners[0])}}
    if gone.nobody_left:
        return {"msg": N_("%(fallen)s. No Leader is left in play: nobody wins an Assassination Victory"),
                "args": {"fallen": fallen}}
    return fallen


def said_destroyed(said: Said, doc: dict, gone: rules.Destruction, before: str | None = None, **args) -> None:
    """Log Leaders destroyed after `before` (the action's own words, if any)."""
    after = _destroyed_words(doc, gone)
    said(WORDS, what=after if before is None else {
        "msg": N_("%(before)s. %(after)s"), "args": {"before": {"msg": before, "args": args}, "after": after}},
        fallen=list(gone.lost))

