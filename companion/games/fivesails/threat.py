"""City of Five Sails duels: the duel as it stands and the threat arithmetic, as pure functions.

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
- A challenge accepted with no threat generated (a challenger with Combat 0, say) still starts the duel:
  the accepting side must play its first round with a card ("Accepting a challenge"), and the end
  check (no threat in any pool) comes at the end of a round, so it cannot end before that round.
- An absent adversary is said round by round: when the round's card is played, is the adversary at
  the acting participant's location? If not (one of them moved away), the threat this round sends
  (Riposte and Thrust) is discarded; the Riposte still takes threat out of the actor's own pool
  (p. 27 "An Absent Adversary", "Moving During a Duel").
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from ...domain import N_, Invalid, Problem

CHALLENGER, DEFENDER = "challenger", "defender"
SIDES = (CHALLENGER, DEFENDER)


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
        """A duel ends only when neither threat pool holds any threat (p. 26 "Ending a Duel"), checked at
        the end of a round (p. 25 "Round Ends"): an accepted duel plays its first round even with empty
        pools; a refused challenge has no duel to play."""
        empty = self.pools[CHALLENGER] == 0 and self.pools[DEFENDER] == 0
        return empty and (bool(self.rounds) or self.setup.refused)

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
        raise Invalid(Problem(f"{path}.gambled", (
            N_("%(name)s has gambled once and has Finesse %(finesse)d: no gamble left in this duel.")
            if duel.gambles[actor] == 1 else
            N_("%(name)s has gambled %(done)d times and has Finesse %(finesse)d: no gamble left in this duel.")),
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
