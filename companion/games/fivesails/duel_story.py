"""The story of a City of Five Sails duel: one sentence per step, as message ids with their
values; the web layer puts them in the reader's language.

Pure: no Flask."""
from __future__ import annotations

from dataclasses import dataclass, field

from ...domain import N_
from .threat import Duel, RoundResult, other


@dataclass(frozen=True)
class Line:
    """One sentence of the story: a message id and its values; `plural` and `num` (the name of the
    value that counts) when the sentence has a plural form."""

    msg: str
    args: dict = field(default_factory=dict)
    plural: str | None = None
    num: str | None = None


def ngettext(singular: str, plural: str, num: str) -> dict:
    """Mark a plural sentence for extraction (babel knows this name) without translating it here:
    the web layer picks the form for the value named `num`."""
    return {"msg": singular, "plural": plural, "num": num}


def _line(marked: dict, args: dict) -> Line:
    return Line(marked["msg"], args, marked["plural"], marked["num"])


def opening_story(duel: Duel) -> list[Line]:
    s = duel.setup
    c, d = s.challenger.name, s.defender.name
    if s.intervened_for:
        lines = [Line(N_("%(challenger)s challenges %(target)s; %(defender)s intervenes and takes the challenge."),
                      {"challenger": c, "target": s.intervened_for, "defender": d})]
    else:
        lines = [Line(N_("%(challenger)s challenges %(defender)s."), {"challenger": c, "defender": d})]
    lines.append(Line(N_("Threat: %(stat)d from %(name)s's duel stat."), {"stat": s.challenger.duel_stat, "name": c}))
    if s.technique_thrust:
        lines.append(Line(N_("Plus %(n)d from the Technique's Thrust."), {"n": s.technique_thrust}))
    if s.technique_lethal:
        lines.append(Line(N_("The Technique is Lethal: %(name)s's wounds are not capped until %(name)s's first round."),
                          {"name": c}))
    f = duel.refusal
    if f is not None:
        if f.cap is None:
            lines.append(Line(N_("%(name)s refuses and takes all %(wounds)d threat as wounds (Lethal)."),
                              {"name": d, "wounds": f.wounds_taken}))
        else:
            lines.append(_line(ngettext("%(name)s refuses and takes %(wounds)d wound (capped at %(cap)d by Restricted "
                                        "Hostilities); %(discarded)d excess threat is discarded.",
                                        "%(name)s refuses and takes %(wounds)d wounds (capped at %(cap)d by Restricted "
                                        "Hostilities); %(discarded)d excess threat is discarded.", "wounds"),
                               {"name": d, "wounds": f.wounds_taken, "cap": f.cap, "discarded": f.discarded}))
        if f.destroyed:
            lines.append(Line(N_("%(name)s is destroyed and goes to The Locker."), {"name": d}))
    elif duel.opening_threat == 0:
        lines.append(Line(N_("%(name)s accepts; no threat was generated, but the duel starts: %(name)s plays the first round with a card."), {"name": d}))
    else:
        lines.append(Line(N_("%(name)s accepts: %(n)d threat goes into %(name)s's pool."),
                          {"name": d, "n": duel.opening_threat}))
    return lines


def round_story(duel: Duel, r: RoundResult) -> list[Line]:
    """A sentence for each step of a round: the card, Riposte, Parry, Thrust, the wounds, destruction."""
    me = duel.participant(r.actor).name
    them = duel.participant(other(r.actor)).name
    lines: list[Line] = []
    if r.card is None:
        lines.append(Line(N_("%(name)s plays no card."), {"name": me}))
    else:
        msg = (N_("%(name)s gambles and plays %(r)d / %(p)d / %(t)d (Riposte / Parry / Thrust).") if r.gambled
               else N_("%(name)s plays %(r)d / %(p)d / %(t)d (Riposte / Parry / Thrust)."))
        lines.append(Line(msg, {"name": me, "r": r.card.riposte, "p": r.card.parry, "t": r.card.thrust}))
        if r.card.riposte:
            if r.riposted < r.card.riposte:
                lines.append(Line(N_("Riposte %(value)d removes only %(n)d (all the pool held) and sends those %(n)d "
                                     "to %(them)s."), {"value": r.card.riposte, "n": r.riposted, "them": them}))
            else:
                lines.append(Line(N_("Riposte removes %(n)d from %(name)s's pool and sends %(n)d to %(them)s."),
                                  {"n": r.riposted, "name": me, "them": them}))
        if r.card.parry:
            lines.append(Line(N_("Parry removes %(n)d."), {"n": r.parried}))
        if r.card.thrust:
            lines.append(Line(N_("Thrust adds %(n)d to %(them)s's pool."), {"n": r.thrust, "them": them}))
        if r.sent_lost and r.absent:
            lines.append(Line(N_("%(them)s is not at %(name)s's location, so the %(n)d threat sent there is "
                                 "discarded."), {"them": them, "name": me, "n": r.sent_lost}))
        elif r.sent_lost:
            lines.append(Line(N_("%(them)s is destroyed, so the %(n)d threat sent there is discarded."),
                              {"them": them, "n": r.sent_lost}))
    remaining = r.wounds_taken + r.discarded
    if remaining == 0:
        lines.append(Line(N_("Nothing is left in %(name)s's pool: no wounds."), {"name": me}))
    elif r.cap is None:
        lines.append(Line(N_("%(them)s's Lethal is in force: %(name)s takes all %(n)d as wounds."),
                          {"them": them, "name": me, "n": r.wounds_taken}))
    elif r.discarded:
        lines.append(_line(ngettext("%(name)s takes %(n)d wound, capped at %(cap)d by Restricted Hostilities; "
                                    "%(excess)d excess threat is discarded.",
                                    "%(name)s takes %(n)d wounds, capped at %(cap)d by Restricted Hostilities; "
                                    "%(excess)d excess threat is discarded.", "n"),
                           {"name": me, "n": r.wounds_taken, "cap": r.cap, "excess": r.discarded}))
    else:
        lines.append(_line(ngettext("%(name)s takes %(n)d wound.", "%(name)s takes %(n)d wounds.", "n"),
                           {"name": me, "n": r.wounds_taken}))
    if r.lethal:
        lines.append(Line(N_("Lethal: %(them)s's wounds are not capped in the next round."), {"them": them}))
    if r.destroyed:
        lines.append(_line(ngettext("%(name)s has %(wounds)d wound against Resolve %(resolve)d: destroyed, sent to "
                                    "The Locker.",
                                    "%(name)s has %(wounds)d wounds against Resolve %(resolve)d: destroyed, sent to "
                                    "The Locker.", "wounds"),
                           {"name": me, "wounds": r.wounds_after[r.actor], "resolve": duel.participant(r.actor).resolve}))
    return lines
