"""A City of Five Sails duel as plain data: read from untrusted input (the API's body, the
calculator's page, a table's stored duel), every problem collected, and written back out (the
API's answer, the table's state, the calculator's hidden field).

Pure: no Flask."""
from __future__ import annotations

from typing import Any

from ...domain import N_, Invalid, Problem, Problems, count
from .threat import CHALLENGER, DEFENDER, Card, Duel, Participant, Round, Setup

NAME_MAX = 30
STAT_MAX = 20
RESOLVE_MAX = 40
COMBAT_VALUE_MAX = 20
ROUNDS_MAX = 60


# -- reading untrusted input ------------------------------------------------------------------------

def _flag(value: Any, path: str, problems: Problems) -> bool:
    if value is None:
        return False
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in ("1", "true", "on", "yes", "0", "false", "off", "no", ""):
        return value.strip().lower() in ("1", "true", "on", "yes")
    problems.add(path, N_("Answer true or false."))
    return False


DASHES = ("-", "–", "—")


def _is_dash(value: Any) -> bool:
    return isinstance(value, str) and value.strip() in DASHES


def _stat(value: Any, path: str, problems: Problems, *, maximum: int, minimum: int = 0) -> int:
    """A stat as typed: a whole number, and a dash ("-") counts as 0 (p. 28 "Dashes as Values")."""
    if _is_dash(value):
        return 0
    if value is None or (isinstance(value, str) and not value.strip()):
        problems.add(path, N_("Enter a number."))  # a box left blank is never read as 0
        return minimum
    return count(value, path, problems, minimum=minimum, maximum=maximum)


def read_participant(data: Any, path: str, problems: Problems) -> Participant:
    if not isinstance(data, dict):
        problems.add(path, N_("Describe this character: name, duel stat, Resolve, wounds and Finesse."))
        return Participant(name="?", duel_stat=0, resolve=1)
    raw_name = data.get("name", "")
    name = " ".join(raw_name.split()) if isinstance(raw_name, str) else None
    if name is None:
        problems.add(f"{path}.name", N_("Enter a name."))
        name = "?"
    elif not name:
        problems.add(f"{path}.name", N_("Enter a name."))
    elif len(name) > NAME_MAX:
        problems.add(f"{path}.name", N_("Keep names to %(max)d characters."), max=NAME_MAX)
    duel_stat = _stat(data.get("duel_stat"), f"{path}.duel_stat", problems, maximum=STAT_MAX)
    n_before = len(problems.items)
    resolve = _stat(data.get("resolve"), f"{path}.resolve", problems, maximum=RESOLVE_MAX, minimum=1)
    resolve_ok = len(problems.items) == n_before
    wounds = _stat(data.get("wounds", 0), f"{path}.wounds", problems, maximum=RESOLVE_MAX)
    finesse = _stat(data.get("finesse", 0), f"{path}.finesse", problems, maximum=STAT_MAX)
    if resolve_ok and wounds >= resolve:
        problems.add(f"{path}.wounds", N_("With %(wounds)d wounds and Resolve %(resolve)d this character is "
                                          "already destroyed and cannot duel."), wounds=wounds, resolve=resolve)
    return Participant(name=name or "?", duel_stat=duel_stat, resolve=resolve, wounds=wounds, finesse=finesse)


def read_setup(data: dict) -> Setup:
    """The duel's set-up from untrusted input (the API body or the calculator's form)."""
    problems = Problems()
    challenger = read_participant(data.get(CHALLENGER), CHALLENGER, problems)
    if isinstance(data.get(CHALLENGER), dict) and _is_dash(data[CHALLENGER].get("duel_stat")):
        problems.add(f"{CHALLENGER}.duel_stat", N_("A character with a dash in the duel stat cannot issue a "
                                                     "challenge of that stat (p. 28 \"Dashes as Values\"); only the "
                                                     "challenged side may have one."))
    defender = read_participant(data.get(DEFENDER), DEFENDER, problems)
    thrust = count(data.get("technique_thrust", 0) if data.get("technique_thrust") is not None else 0,
                   "technique_thrust", problems, maximum=COMBAT_VALUE_MAX)
    lethal = _flag(data.get("technique_lethal"), "technique_lethal", problems)
    refused = _flag(data.get("refused"), "refused", problems)
    target = data.get("intervened_for")
    if target is not None and not isinstance(target, str):
        problems.add("intervened_for", N_("Enter a name."))
        target = None
    target = " ".join(target.split()) if target else None
    if target and len(target) > NAME_MAX:
        problems.add("intervened_for", N_("Keep names to %(max)d characters."), max=NAME_MAX)
    if refused and target:
        msg = N_("A challenge is either refused or taken by an intervening character, not both: send refused "
                 "or intervened_for.")
        problems.add("refused", msg)
        problems.add("intervened_for", msg)
    problems.raise_if_any()
    return Setup(challenger, defender, technique_thrust=thrust, technique_lethal=lethal, refused=refused,
                 intervened_for=target or None)


def read_round(data: Any, path: str) -> Round:
    problems = Problems()
    if not isinstance(data, dict):
        raise Invalid(Problem(path, N_("Each round is an object with a card (or null for no card).")))
    card_data = data.get("card")
    card = None
    if card_data is not None:
        if not isinstance(card_data, dict):
            problems.add(f"{path}.card", N_("A card has riposte, parry and thrust values (or is null for no card)."))
        else:
            values = {k: count(card_data.get(k, 0) if card_data.get(k) is not None else 0, f"{path}.card.{k}",
                               problems, maximum=COMBAT_VALUE_MAX)
                      for k in ("riposte", "parry", "thrust")}
            card = Card(**values)
    lethal = _flag(data.get("lethal"), f"{path}.lethal", problems)
    gambled = _flag(data.get("gambled"), f"{path}.gambled", problems)
    absent = _flag(data.get("adversary_absent"), f"{path}.adversary_absent", problems)
    problems.raise_if_any()
    return Round(card=card, lethal=lethal, gambled=gambled, absent=absent)


def read_rounds(data: Any, path: str = "rounds") -> list[Round]:
    if data is None:
        return []
    if not isinstance(data, list):
        raise Invalid(Problem(path, N_("Send the rounds as a list.")))
    if len(data) > ROUNDS_MAX:
        raise Invalid(Problem(path, N_("A duel of more than %(max)d rounds is more than this calculator takes."),
                              {"max": ROUNDS_MAX}))
    return [read_round(r, f"{path}.{i}") for i, r in enumerate(data)]


def setup_from_payload(payload: dict) -> tuple[Setup, list[Round]]:
    """Read a whole duel (set-up and rounds) from the API's JSON body, collecting every problem."""
    setup_problems: list[Problem] = []
    setup = None
    try:
        setup = read_setup(payload)
    except Invalid as err:
        setup_problems = err.problems
    try:
        rounds = read_rounds(payload.get("rounds"))
    except Invalid as err:
        raise Invalid(setup_problems + err.problems) from None
    if setup is None:
        raise Invalid(setup_problems)
    return setup, rounds


# -- plain data (the API answer, the table's state, the calculator's hidden field) -----------------

def participant_data(p: Participant) -> dict:
    return {"name": p.name, "duel_stat": p.duel_stat, "resolve": p.resolve, "wounds": p.wounds, "finesse": p.finesse}


def setup_data(s: Setup) -> dict:
    return {CHALLENGER: participant_data(s.challenger), DEFENDER: participant_data(s.defender),
            "technique_thrust": s.technique_thrust, "technique_lethal": s.technique_lethal, "refused": s.refused,
            "intervened_for": s.intervened_for}


def card_data(card: Card | None) -> dict | None:
    return None if card is None else {"riposte": card.riposte, "parry": card.parry, "thrust": card.thrust}


def round_data(r: Round) -> dict:
    out = {"card": card_data(r.card), "lethal": r.lethal, "gambled": r.gambled}
    if r.absent:
        out["adversary_absent"] = True
    return out


def rounds_played(duel: Duel) -> list[Round]:
    return [Round(card=r.card, lethal=r.lethal, gambled=r.gambled, absent=r.absent) for r in duel.rounds]


def answer(duel: Duel) -> dict:
    """The JSON API's answer for a duel."""
    def side(s):
        return {"name": duel.participant(s).name, "wounds": duel.wounds[s], "destroyed": duel.destroyed(s),
                "gambles": duel.gambles[s]}

    out = {
        "opening_threat": duel.opening_threat,
        "rounds": [{
            "actor": r.actor, "card": card_data(r.card), "lethal": r.lethal, "gambled": r.gambled,
            "pool_before": r.pool_before, "riposted": r.riposted, "parried": r.parried, "thrust": r.thrust,
            "sent_discarded": r.sent_lost, "adversary_absent": r.absent, "cap": r.cap, "wounds_taken": r.wounds_taken, "discarded": r.discarded,
            "destroyed": r.destroyed, "pools_after": r.pools_after,
        } for r in duel.rounds],
        CHALLENGER: side(CHALLENGER),
        DEFENDER: side(DEFENDER),
        "pools": dict(duel.pools),
        "ended": duel.ended,
        "next": duel.next,
    }
    if duel.refusal is not None:
        f = duel.refusal
        out["refusal"] = {"threat": f.threat, "cap": f.cap, "wounds_taken": f.wounds_taken,
                          "discarded": f.discarded, "destroyed": f.destroyed}
    return out
