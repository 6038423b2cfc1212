"""City of Five Sails duels: the threat arithmetic, as pure functions.

Rulebook sections: "Issuing a Challenge and Dueling" (p. 22-25) and "Additional Dueling Rules and
Concepts" (p. 26-27), plus the glossary entries Restricted Hostilities, Lethal, Gamble, Riposte,
Parry, Thrust, Excess Threat and Unmitigated Threat.

A duel is replayed from its set-up and its list of rounds every time (`resolve`): the standalone
calculator, the JSON API and a table's duel all share this one fold, so they can never disagree.

Readings of the rulebook made here (the app says so where it shows them):
- Only the duel's first round (the accepting side's first round) must have a combat card: the
  rulebook's "first round of the duel" and its round glossary say so, and the issue's own API
  example lets the challenger answer with no card.
- Threat sent to a destroyed character is discarded: a destroyed character is in The Locker, so it is
  an absent adversary (p. 27 "An Absent Adversary").
- A challenge that generates no threat at all ends at once: a duel ends when no pool holds threat.
- An absent adversary is said round by round: when the round's card is played, is the adversary at
  the acting participant's location? If not (one of them moved away), the threat this round sends
  (Riposte and Thrust) is discarded; the Riposte still takes threat out of the actor's own pool
  (p. 27 "An Absent Adversary", "Moving During a Duel").
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from ...domain import N_, Invalid, Problem, Problems, count

CHALLENGER, DEFENDER = "challenger", "defender"
SIDES = (CHALLENGER, DEFENDER)
NAME_MAX = 30
STAT_MAX = 20
RESOLVE_MAX = 40
COMBAT_VALUE_MAX = 20
ROUNDS_MAX = 60


def other(side: str) -> str:
    return DEFENDER if side == CHALLENGER else CHALLENGER


@dataclass(frozen=True)
class Participant:
    """One duelling character: the duel's stat (Combat, Finesse or Influence; a dash counts as 0),
    Resolve, the wounds it already carries, and Finesse (the gamble limit)."""

    name: str
    duel_stat: int
    resolve: int
    wounds: int = 0
    finesse: int = 0


@dataclass(frozen=True)
class Card:
    """A combat card's three values, resolved top to bottom: Riposte, Parry, Thrust."""

    riposte: int = 0
    parry: int = 0
    thrust: int = 0


@dataclass(frozen=True)
class Round:
    """What the active side did: a combat card (None: no card), whether a Lethal ability was used,
    and whether the card came from a gamble."""

    card: Card | None
    lethal: bool = False
    gambled: bool = False
    absent: bool = False  # the adversary is not at the actor's location when this round's threat is sent


@dataclass(frozen=True)
class Setup:
    """The challenge: who issued it, who answers (after any intervention), any +Thrust from the
    challenger's Technique, whether that Technique is Lethal, and whether the challenge was refused."""

    challenger: Participant
    defender: Participant
    technique_thrust: int = 0
    technique_lethal: bool = False
    refused: bool = False
    intervened_for: str | None = None  # the character first challenged, when another intervened


@dataclass(frozen=True)
class RoundResult:
    """One round, step by step, so the app can show a sentence for each."""

    actor: str
    card: Card | None
    lethal: bool
    gambled: bool
    pool_before: int
    riposted: int  # removed from the actor's pool by Riposte (and sent on)
    parried: int  # removed by Parry
    thrust: int  # added by Thrust
    sent_lost: int  # threat sent to a destroyed or absent adversary: discarded
    absent: bool  # the adversary was away from the actor's location
    cap: int | None  # Restricted Hostilities cap on the wounds, None when the adversary's Lethal lifts it
    wounds_taken: int
    discarded: int  # excess threat over the cap
    destroyed: bool  # the actor was destroyed this round
    pools_after: dict[str, int]
    wounds_after: dict[str, int]


@dataclass(frozen=True)
class Refusal:
    threat: int
    cap: int | None
    wounds_taken: int
    discarded: int
    destroyed: bool


@dataclass(frozen=True)
class Duel:
    """The duel as it stands after its set-up and every round so far."""

    setup: Setup
    pools: dict[str, int]
    wounds: dict[str, int]
    gambles: dict[str, int]
    lethal: frozenset[str] = frozenset()  # sides whose Lethal is in force until their next round
    rounds: tuple[RoundResult, ...] = ()
    refusal: Refusal | None = None
    opening_threat: int = 0

    def participant(self, side: str) -> Participant:
        return self.setup.challenger if side == CHALLENGER else self.setup.defender

    def destroyed(self, side: str) -> bool:
        return self.wounds[side] >= self.participant(side).resolve

    @property
    def ended(self) -> bool:
        """A duel ends only when neither threat pool holds any threat (p. 26 "Ending a Duel")."""
        return self.pools[CHALLENGER] == 0 and self.pools[DEFENDER] == 0

    @property
    def next(self) -> str | None:
        """Who plays the next round: the accepting side first, then alternating (p. 24)."""
        if self.ended:
            return None
        if not self.rounds:
            return DEFENDER
        return other(self.rounds[-1].actor)

    def gambles_left(self, side: str) -> int:
        """Gambles still allowed: the current participant's Finesse less the gambles already made (p. 26)."""
        return max(0, self.participant(side).finesse - self.gambles[side])

    def must_play_card(self) -> bool:
        """The duel's first round needs a combat card (p. 24 "Play a Combat Card")."""
        return not self.rounds and not self.ended


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
    if value is None:
        problems.add(path, N_("Enter a number."))
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


# -- the rules -----------------------------------------------------------------------------------

def _cap(duel: Duel, actor: str) -> int | None:
    """Restricted Hostilities: the wounds the actor takes are capped by the adversary's duel stat,
    unless the adversary's Lethal is in force (p. 26 "Lethal", p. 27 "Restricted Hostilities")."""
    adversary = other(actor)
    return None if adversary in duel.lethal else duel.participant(adversary).duel_stat


def start(setup: Setup) -> Duel:
    """Generate threat (p. 23 "Threat"): the challenger's duel stat plus any Technique +Thrust goes to
    the challenged character's pool. A refusal turns it straight into wounds within Restricted
    Hostilities (p. 23 "Refusing a challenge")."""
    threat = setup.challenger.duel_stat + setup.technique_thrust
    wounds = {CHALLENGER: setup.challenger.wounds, DEFENDER: setup.defender.wounds}
    lethal = frozenset({CHALLENGER}) if setup.technique_lethal else frozenset()
    duel = Duel(setup=setup, pools={CHALLENGER: 0, DEFENDER: 0}, wounds=wounds,
                gambles={CHALLENGER: 0, DEFENDER: 0}, lethal=lethal, opening_threat=threat)
    if setup.refused:
        cap = _cap(duel, DEFENDER)
        taken = threat if cap is None else min(threat, cap)
        wounds = {**wounds, DEFENDER: wounds[DEFENDER] + taken}
        after = replace(duel, wounds=wounds)
        refusal = Refusal(threat=threat, cap=cap, wounds_taken=taken, discarded=threat - taken,
                          destroyed=after.destroyed(DEFENDER))
        return replace(after, refusal=refusal, lethal=frozenset())
    return replace(duel, pools={CHALLENGER: 0, DEFENDER: threat})


def play(duel: Duel, rnd: Round, path: str = "round") -> Duel:
    """One round of the duel (p. 24-25): play a combat card (or none), resolve Riposte, Parry and
    Thrust in that order, then the actor's remaining threat becomes wounds up to the adversary's duel
    stat (Restricted Hostilities, lifted by the adversary's Lethal); the excess is discarded and the
    pool is empty. Wounds reaching Resolve destroy the character."""
    if duel.setup.refused:
        raise Invalid(Problem(path, N_("The challenge was refused, so there is no duel to play.")))
    if duel.ended:
        raise Invalid(Problem(path, N_("The duel is over: both threat pools are empty.")))
    actor = duel.next
    adversary = other(actor)
    who = duel.participant(actor)
    if rnd.card is None and duel.must_play_card():
        raise Invalid(Problem(f"{path}.card", N_("%(name)s accepted the challenge, so the first round of the duel "
                                                 "needs a combat card (from hand or gambled)."), {"name": who.name}))
    if rnd.gambled and rnd.card is None:
        raise Invalid(Problem(f"{path}.gambled", N_("A gamble always gives a card to play: enter its values.")))
    if rnd.gambled and duel.gambles[actor] + 1 > who.finesse:
        raise Invalid(Problem(f"{path}.gambled", N_("%(name)s has gambled %(done)d times and has Finesse %(finesse)d: "
                                                    "no gamble left in this duel."),
                              {"name": who.name, "done": duel.gambles[actor], "finesse": who.finesse}))
    # The actor's own Lethal lasts until this, their next round (p. 26 "Lethal").
    lethal = duel.lethal - {actor}
    duel = replace(duel, lethal=lethal)
    pools = dict(duel.pools)
    before = pools[actor]
    card = rnd.card or Card()
    adversary_gone = duel.destroyed(adversary) or rnd.absent
    riposted = min(card.riposte, pools[actor])
    pools[actor] -= riposted
    parried = min(card.parry, pools[actor])
    pools[actor] -= parried
    sent = riposted + card.thrust
    sent_lost = sent if adversary_gone else 0
    if not adversary_gone:
        pools[adversary] += sent
    cap = _cap(duel, actor)
    remaining = pools[actor]
    taken = remaining if cap is None else min(remaining, cap)
    pools[actor] = 0
    wounds = dict(duel.wounds)
    was_destroyed = duel.destroyed(actor)
    wounds[actor] += taken
    gambles = dict(duel.gambles)
    if rnd.gambled:
        gambles[actor] += 1
    after = replace(duel, pools=pools, wounds=wounds, gambles=gambles,
                    lethal=lethal | ({actor} if rnd.lethal else set()))
    result = RoundResult(actor=actor, card=rnd.card, lethal=rnd.lethal, gambled=rnd.gambled, pool_before=before,
                         riposted=riposted, parried=parried, thrust=card.thrust, sent_lost=sent_lost,
                         absent=rnd.absent, cap=cap,
                         wounds_taken=taken, discarded=remaining - taken,
                         destroyed=after.destroyed(actor) and not was_destroyed,
                         pools_after=dict(pools), wounds_after=dict(wounds))
    return replace(after, rounds=duel.rounds + (result,))


def resolve(setup: Setup, rounds: list[Round] | tuple[Round, ...], path: str = "rounds") -> Duel:
    """Replay a whole duel: its set-up, then each round in order."""
    duel = start(setup)
    if setup.refused and rounds:
        raise Invalid(Problem(path, N_("A refused challenge has no rounds: the refusing character just takes "
                                       "the wounds.")))
    for i, rnd in enumerate(rounds):
        if duel.ended:
            raise Invalid(Problem(f"{path}.{i}", N_("The duel was already over before round %(n)d: both threat "
                                                   "pools were empty."), {"n": i + 1}))
        duel = play(duel, rnd, f"{path}.{i}")
    return duel


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


# -- the story: one sentence per step, as message ids with their values ----------------------------

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
        lines.append(Line(N_("No threat was generated, so the duel is over at once.")))
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
