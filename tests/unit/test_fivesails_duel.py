"""City of Five Sails duels: every rule of the threat arithmetic, and its invariants."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.domain import Invalid
from companion.games.fivesails import duel as d
from companion.games.fivesails.duel import CHALLENGER, DEFENDER, Card, Participant, Round, Setup


def who(name="A", stat=3, resolve=6, wounds=0, finesse=2):
    return Participant(name=name, duel_stat=stat, resolve=resolve, wounds=wounds, finesse=finesse)


def card(r=0, p=0, t=0, **kw):
    return Round(Card(r, p, t), **kw)


NO_CARD = Round(None)


def errors(err: Invalid) -> dict:
    return err.value.as_dict()


# -- generating threat, refusing -----------------------------------------------------------------

def test_accepted_challenge_puts_the_challengers_stat_plus_technique_thrust_in_the_defenders_pool():
    duel = d.start(Setup(who(stat=3), who(), technique_thrust=2))
    assert duel.pools == {CHALLENGER: 0, DEFENDER: 5}
    assert duel.next == DEFENDER and not duel.ended


@pytest.mark.parametrize("stat, thrust, lethal, wounds, discarded", [
    pytest.param(3, 0, False, 3, 0, id="threat-equal-to-the-cap"),
    pytest.param(3, 2, False, 3, 2, id="technique-thrust-over-the-cap-is-discarded"),
    pytest.param(3, 2, True, 5, 0, id="lethal-technique-lifts-the-cap"),
    pytest.param(0, 2, False, 0, 2, id="dash-stat-caps-at-zero"),
])
def test_refusing_takes_the_threat_as_wounds_within_restricted_hostilities(stat, thrust, lethal, wounds, discarded):
    duel = d.start(Setup(who(stat=stat), who(resolve=9), technique_thrust=thrust, technique_lethal=lethal,
                         refused=True))
    assert duel.refusal.wounds_taken == wounds
    assert duel.refusal.discarded == discarded
    assert duel.wounds[DEFENDER] == wounds
    assert duel.ended and duel.next is None and duel.rounds == ()


def test_refusing_can_destroy_the_refusing_character():
    duel = d.start(Setup(who(stat=3), who(resolve=4, wounds=2), refused=True))
    assert duel.refusal.destroyed and duel.destroyed(DEFENDER)


def test_a_refused_challenge_has_no_rounds():
    with pytest.raises(Invalid) as err:
        d.resolve(Setup(who(), who(), refused=True), [card(1)])
    assert "rounds" in errors(err)


def test_a_challenge_with_no_threat_still_starts_the_duel_with_a_card():
    """Accepting a challenge: the acceptor must play a card in their first round, threat or not; the
    duel ends only at the end of a round with both pools empty."""
    duel = d.start(Setup(who(stat=0), who()))
    assert not duel.ended and duel.next == DEFENDER and duel.must_play_card()
    with pytest.raises(Invalid) as err:
        d.resolve(Setup(who(stat=0), who()), [NO_CARD])
    assert "rounds.0.card" in errors(err)
    assert d.resolve(Setup(who(stat=0), who()), [card(1)]).ended  # Riposte 1 moves nothing: over
    after = d.resolve(Setup(who(stat=0), who()), [card(0, 0, 2)])
    assert not after.ended and after.pools[CHALLENGER] == 2


# -- Riposte, Parry, Thrust ------------------------------------------------------------------------

@pytest.mark.parametrize("pool, riposte, moved", [
    pytest.param(3, 2, 2, id="riposte-below-the-pool-moves-all-of-it"),
    pytest.param(3, 3, 3, id="riposte-equal-to-the-pool"),
    pytest.param(2, 5, 2, id="riposte-cannot-return-more-than-it-removed"),
])
def test_riposte_moves_at_most_what_it_removes(pool, riposte, moved):
    duel = d.resolve(Setup(who(stat=pool), who(stat=9, resolve=9)), [card(r=riposte)])
    r = duel.rounds[0]
    assert r.riposted == moved
    assert duel.pools[CHALLENGER] == moved
    assert r.wounds_taken == pool - moved


@pytest.mark.parametrize("pool, parry, left", [
    pytest.param(3, 1, 2, id="parry-removes-some"),
    pytest.param(3, 3, 0, id="parry-removes-all"),
    pytest.param(2, 6, 0, id="parrying-more-than-the-threat-just-empties-the-pool"),
])
def test_parry_removes_threat_and_sends_nothing(pool, parry, left):
    duel = d.resolve(Setup(who(stat=pool), who(stat=9, resolve=9)), [card(p=parry)])
    r = duel.rounds[0]
    assert r.parried == pool - left
    assert r.wounds_taken == left
    assert duel.pools[CHALLENGER] == 0 and duel.ended


def test_riposte_resolves_before_parry():
    # Pool 3, Riposte 2 then Parry 2: the Riposte takes 2 first, the Parry only the last 1.
    r = d.resolve(Setup(who(stat=3), who(stat=9, resolve=9)), [card(r=2, p=2)]).rounds[0]
    assert (r.riposted, r.parried, r.wounds_taken) == (2, 1, 0)


def test_thrust_adds_to_the_adversary_even_with_an_empty_pool():
    duel = d.resolve(Setup(who(stat=2), who(stat=9, resolve=9)), [card(p=2, t=4)])
    assert duel.pools == {CHALLENGER: 4, DEFENDER: 0}
    assert duel.next == CHALLENGER


# -- Restricted Hostilities, Lethal ------------------------------------------------------------------

def test_rulebook_restricted_hostilities_example():
    """p. 27: a character with 1 Combat sends four threat; the adversary plays no card, suffers one
    wound and discards the three excess threat; no threat is left, so the duel is over."""
    setup = Setup(who("Kaspar", stat=2, resolve=8), who("Soline", stat=1, resolve=5))
    duel = d.resolve(setup, [card(p=2, t=4), NO_CARD])
    last = duel.rounds[-1]
    assert duel.rounds[0].pools_after[CHALLENGER] == 4
    assert (last.actor, last.card, last.wounds_taken, last.discarded) == (CHALLENGER, None, 1, 3)
    assert duel.ended and duel.next is None


def test_issue_api_example():
    setup = Setup(who("Kaspar", stat=3, resolve=6, finesse=2), who("Soline", stat=2, resolve=5, finesse=3))
    duel = d.resolve(setup, [card(1, 1, 2), NO_CARD])
    first, second = duel.rounds
    assert (first.actor, first.wounds_taken, first.discarded, first.pools_after) == (
        DEFENDER, 1, 0, {CHALLENGER: 3, DEFENDER: 0})
    assert (second.actor, second.wounds_taken, second.discarded) == (CHALLENGER, 2, 1)
    assert duel.wounds == {CHALLENGER: 2, DEFENDER: 1}
    assert duel.ended and duel.next is None


def test_lethal_lifts_the_cap_for_the_adversarys_next_round_only():
    setup = Setup(who("A", stat=1, resolve=20), who("B", stat=1, resolve=20))
    # B (defender) plays Thrust 5 with Lethal: A takes all 5. A sends 5 back; B takes 1 (A not Lethal).
    duel = d.resolve(setup, [card(p=1, t=5, lethal=True), card(t=5)])
    a_round, = [r for r in duel.rounds if r.actor == CHALLENGER]
    assert a_round.cap is None and a_round.wounds_taken == 5
    # B's next round ends B's Lethal: A's next wounds are capped again.
    duel = d.resolve(setup, [card(p=1, t=5, lethal=True), card(t=5), card(t=5), card()])
    last = duel.rounds[-1]
    assert last.actor == CHALLENGER and last.cap == 1 and last.wounds_taken == 1 and last.discarded == 4


def test_lethal_technique_at_the_challenge_lasts_until_the_challengers_first_round():
    setup = Setup(who("A", stat=2, resolve=20), who("B", stat=2, resolve=20), technique_thrust=3,
                  technique_lethal=True)
    duel = d.resolve(setup, [card(t=1), card(t=4), card()])
    b1, a1, b2 = duel.rounds
    assert b1.cap is None and b1.wounds_taken == 5
    assert b2.cap == 2 and b2.wounds_taken == 2 and b2.discarded == 2


# -- playing a card or not, gambling ----------------------------------------------------------------

def test_the_first_round_of_the_duel_needs_a_card():
    with pytest.raises(Invalid) as err:
        d.resolve(Setup(who(), who()), [NO_CARD])
    assert "rounds.0.card" in errors(err)


def test_no_card_takes_the_pool_as_wounds_and_ends_the_duel():
    duel = d.resolve(Setup(who(stat=2), who(stat=2, resolve=9)), [card(t=3), NO_CARD])
    assert duel.ended and duel.wounds[CHALLENGER] == 2 and duel.rounds[-1].discarded == 1


@pytest.mark.parametrize("finesse, gambles, ok", [
    pytest.param(0, 1, False, id="no-finesse-no-gamble"),
    pytest.param(1, 1, True, id="one-gamble-with-finesse-1"),
    pytest.param(1, 2, False, id="second-gamble-with-finesse-1"),
    pytest.param(2, 2, True, id="two-gambles-with-finesse-2"),
])
def test_gambles_are_limited_by_the_participants_finesse(finesse, gambles, ok):
    # Both sides keep sending 1 threat back and forth so the duel lasts.
    setup = Setup(who("A", stat=1, resolve=30, finesse=5), who("B", stat=1, resolve=30, finesse=finesse))
    rounds = []
    for _ in range(gambles):
        rounds += [card(r=1, gambled=True), card(r=1)]
    if ok:
        duel = d.resolve(setup, rounds)
        assert duel.gambles[DEFENDER] == gambles
        assert duel.gambles_left(DEFENDER) == finesse - gambles
    else:
        with pytest.raises(Invalid) as err:
            d.resolve(setup, rounds)
        assert any(k.endswith(".gambled") for k in errors(err))


def test_a_gamble_needs_a_card():
    with pytest.raises(Invalid) as err:
        d.resolve(Setup(who(), who()), [card(1), Round(None, gambled=True)])
    assert "rounds.1.gambled" in errors(err)


def test_rounds_after_the_duel_ended_are_an_error():
    with pytest.raises(Invalid) as err:
        d.resolve(Setup(who(stat=2), who()), [card(p=2), card(1)])
    assert "rounds.1" in errors(err)


# -- destruction ----------------------------------------------------------------------------------

def test_a_character_destroyed_mid_duel_leaves_the_survivor_to_finish():
    """p. 26 "Final Strike": the destroyed character's last card still sends threat; the survivor
    plays on, and threat sent to the destroyed character is discarded."""
    setup = Setup(who("A", stat=4, resolve=10), who("B", stat=2, resolve=3, wounds=1))
    duel = d.resolve(setup, [card(t=3)])
    b1 = duel.rounds[0]
    assert b1.wounds_taken == 4 and b1.destroyed and duel.destroyed(DEFENDER)
    assert not duel.ended and duel.next == CHALLENGER and duel.pools[CHALLENGER] == 3
    duel = d.play(duel, card(r=2, t=2))
    a1 = duel.rounds[-1]
    assert a1.sent_lost == 4 and a1.wounds_taken == 1 and duel.pools == {CHALLENGER: 0, DEFENDER: 0}
    assert duel.ended and not a1.destroyed


def test_wounds_count_against_resolve_including_those_carried_in():
    duel = d.resolve(Setup(who(stat=2), who(resolve=5, wounds=3)), [card()])
    assert duel.rounds[0].destroyed and duel.wounds[DEFENDER] == 5


# -- reading input ---------------------------------------------------------------------------------

@pytest.mark.parametrize("payload, field", [
    pytest.param({"challenger": {"name": "A", "duel_stat": -1, "resolve": 3}}, "challenger.duel_stat", id="negative"),
    pytest.param({"challenger": {"name": "A", "duel_stat": 1, "resolve": 0}}, "challenger.resolve", id="resolve-0"),
    pytest.param({"challenger": {"name": "A", "duel_stat": 1.5, "resolve": 3}}, "challenger.duel_stat", id="float"),
    pytest.param({"challenger": {"name": "A", "duel_stat": "x", "resolve": 3}}, "challenger.duel_stat", id="string"),
    pytest.param({"challenger": {"name": "A", "duel_stat": 10**30, "resolve": 3}}, "challenger.duel_stat", id="huge"),
    pytest.param({"challenger": {"name": "A", "duel_stat": 1, "resolve": 3, "wounds": 3}}, "challenger.wounds",
                 id="already-destroyed"),
    pytest.param({"challenger": {"name": "", "duel_stat": 1, "resolve": 3}}, "challenger.name", id="no-name"),
    pytest.param({"challenger": {"name": "x" * 31, "duel_stat": 1, "resolve": 3}}, "challenger.name", id="long-name"),
    pytest.param({"challenger": [1, 2]}, "challenger", id="junk"),
    pytest.param({"challenger": {"name": "A", "duel_stat": 1, "resolve": 3}, "refused": "maybe"}, "refused",
                 id="bad-flag"),
])
def test_bad_setups_name_their_field(payload, field):
    body = {"defender": {"name": "B", "duel_stat": 1, "resolve": 3}, **payload}
    with pytest.raises(Invalid) as err:
        d.read_setup(body)
    assert field in errors(err)


def test_a_dash_stat_counts_as_zero_for_the_challenged_character():
    setup = d.read_setup({"challenger": {"name": "A", "duel_stat": 2, "resolve": 3},
                          "defender": {"name": "B", "duel_stat": "-", "resolve": 3}})
    assert setup.defender.duel_stat == 0


def test_a_challenger_with_a_dash_cannot_issue_that_challenge():
    """p. 28 "Dashes as Values": a dash in a stat cannot issue a challenge of that stat."""
    with pytest.raises(Invalid) as err:
        d.read_setup({"challenger": {"name": "A", "duel_stat": "-", "resolve": 3},
                      "defender": {"name": "B", "duel_stat": 2, "resolve": 3}})
    assert list(errors(err)) == ["challenger.duel_stat"]
    assert "dash" in errors(err)["challenger.duel_stat"][0]


def test_refused_and_intervened_together_is_refused_naming_both_fields():
    with pytest.raises(Invalid) as err:
        d.read_setup({"challenger": {"name": "A", "duel_stat": 2, "resolve": 3},
                      "defender": {"name": "B", "duel_stat": 2, "resolve": 3},
                      "refused": True, "intervened_for": "C"})
    assert set(errors(err)) == {"refused", "intervened_for"}


# -- an absent adversary, moving during a duel (p. 27) ------------------------------------------------

# Kaspar challenges Soline at The Forums with Combat 3; she accepts, so her pool holds 3 and hers is
# the first round. The example's own rounds: Kaspar plays Riposte 1 / Thrust 2 and moves to The
# Docks after his round; then Soline plays Riposte 2 / Thrust 1, either staying at The Forums (her
# threat reaches an absent adversary and is discarded) or moving to The Docks before resolving it
# (it reaches Kaspar). The numbers are ours: the rulebook's icons carry none.
KASPAR_SOLINE = Setup(who("Kaspar", stat=3, resolve=7), who("Soline", stat=2, resolve=5))
SOLINE_OPENS = card(0, 1, 2)  # Soline: Parry 1, Thrust 2 -> 2 of her 3 threat left: 2 wounds; Kaspar's pool 2
KASPAR_THEN_MOVES = card(1, 0, 2)  # Kaspar: Riposte 1 (1 back to Soline), Thrust 2 -> Soline's pool 3


@pytest.mark.parametrize("soline_round, soline_pool_after, kaspar_pool_after, discarded_sent, ended", [
    pytest.param(card(2, 0, 1, absent=True), 0, 0, 3, True, id="soline-stays-kaspar-absent"),
    pytest.param(card(2, 0, 1), 0, 3, 0, False, id="soline-moves-to-the-docks-first"),
])
def test_kaspar_and_soline_absent_adversary_example(soline_round, soline_pool_after, kaspar_pool_after,
                                                    discarded_sent, ended):
    """p. 27 "Moving During a Duel": threat only reaches an adversary at the same location."""
    duel = d.resolve(KASPAR_SOLINE, [SOLINE_OPENS, KASPAR_THEN_MOVES, soline_round])
    last = duel.rounds[-1]
    assert duel.rounds[1].pools_after == {CHALLENGER: 0, DEFENDER: 3}
    assert last.actor == DEFENDER and last.riposted == 2  # her Riposte still empties her own pool
    assert last.sent_lost == discarded_sent
    assert last.wounds_taken == 1  # 3 - 2 riposted, within Kaspar's Combat 3
    assert last.pools_after == {CHALLENGER: kaspar_pool_after, DEFENDER: soline_pool_after}
    assert duel.ended is ended
    assert duel.wounds[DEFENDER] == 3


def test_an_absent_adversary_is_said_in_the_story():
    duel = d.resolve(KASPAR_SOLINE, [SOLINE_OPENS, KASPAR_THEN_MOVES, card(2, 0, 1, absent=True)])
    text = [line.msg % line.args for line in d.round_story(duel, duel.rounds[-1])]
    assert "Kaspar is not at Soline's location, so the 3 threat sent there is discarded." in text


def test_one_wound_is_said_in_the_singular():
    duel = d.resolve(Setup(who("A", stat=1), who("B", stat=1)), [card(0, 0, 0)])
    lines = d.round_story(duel, duel.rounds[-1])
    wound = [line for line in lines if line.plural]
    assert wound and wound[0].args["n"] == 1 and wound[0].msg == "%(name)s takes %(n)d wound."


@pytest.mark.parametrize("rounds, field", [
    pytest.param("x", "rounds", id="not-a-list"),
    pytest.param([1], "rounds.0", id="not-an-object"),
    pytest.param([{"card": 3}], "rounds.0.card", id="card-not-an-object"),
    pytest.param([{"card": {"riposte": -1}}], "rounds.0.card.riposte", id="negative-value"),
    pytest.param([{"card": {"thrust": [1]}}], "rounds.0.card.thrust", id="nested-junk"),
    pytest.param([{"card": None}] * 61, "rounds", id="too-many"),
])
def test_bad_rounds_name_their_field(rounds, field):
    with pytest.raises(Invalid) as err:
        d.read_rounds(rounds)
    assert field in errors(err)


def test_the_story_has_a_sentence_for_each_step():
    duel = d.resolve(Setup(who("A", stat=3), who("B", stat=1, resolve=9)), [card(5, 1, 2, lethal=True)])
    msgs = [line.msg for line in d.round_story(duel, duel.rounds[0])]
    assert any("Riposte %(value)d removes only" in m for m in msgs)
    assert any(m.startswith("Thrust adds") for m in msgs)
    assert any(m.startswith("Lethal:") for m in msgs)
    assert [line.msg for line in d.opening_story(duel)][-1].startswith("%(name)s accepts")


# -- invariants ------------------------------------------------------------------------------------

participants = st.builds(lambda s, r, w, f: Participant("P", s, r, min(w, r - 1), f),
                         st.integers(0, 6), st.integers(1, 12), st.integers(0, 11), st.integers(0, 3))
rounds_st = st.lists(st.builds(lambda c, r, p, t, lethal, absent: Round(Card(r, p, t) if c else None, lethal=lethal,
                                                                       absent=absent),
                               st.booleans(), st.integers(0, 5), st.integers(0, 5), st.integers(0, 5), st.booleans(),
                               st.booleans()),
                     max_size=12)


def _playable(setup, rounds):
    """Play as many of the rounds as the rules allow, fixing up a missing first card."""
    duel = d.start(setup)
    for rnd in rounds:
        if duel.ended:
            break
        if rnd.card is None and duel.must_play_card():
            rnd = Round(Card(), lethal=rnd.lethal, absent=rnd.absent)
        duel = d.play(duel, rnd)
    return duel


@settings(max_examples=300, deadline=None)
@given(participants, participants, st.integers(0, 4), st.booleans(), rounds_st)
def test_threat_is_conserved(c, f, thrust, lethal, rounds):
    """Whatever leaves a pool becomes wounds, discarded excess, parried threat or threat in the other
    pool (or is discarded for want of a living adversary); Thrust is the only threat created."""
    duel = _playable(Setup(c, f, technique_thrust=thrust, technique_lethal=lethal), rounds)
    pools = {CHALLENGER: 0, DEFENDER: duel.opening_threat}
    for r in duel.rounds:
        adversary = d.other(r.actor)
        assert pools[r.actor] == r.pool_before
        assert r.pool_before == r.riposted + r.parried + r.wounds_taken + r.discarded
        arrived = r.riposted + r.thrust - r.sent_lost
        assert r.pools_after[adversary] == pools[adversary] + arrived
        assert r.pools_after[r.actor] == 0
        pools = r.pools_after


@settings(max_examples=300, deadline=None)
@given(participants, participants, st.integers(0, 4), rounds_st)
def test_wounds_respect_restricted_hostilities_unless_lethal(c, f, thrust, rounds):
    duel = _playable(Setup(c, f, technique_thrust=thrust), rounds)
    lethal_in_force = set()
    for r in duel.rounds:
        lethal_in_force.discard(r.actor)
        adversary = d.other(r.actor)
        if adversary not in lethal_in_force:
            assert r.wounds_taken <= duel.participant(adversary).duel_stat
        if r.lethal:
            lethal_in_force.add(r.actor)
    total = {s: duel.participant(s).wounds + sum(r.wounds_taken for r in duel.rounds if r.actor == s) for s in d.SIDES}
    assert total == duel.wounds


@settings(max_examples=200, deadline=None)
@given(participants, participants, rounds_st)
def test_rounds_alternate_from_the_accepting_side_and_the_duel_ends_only_with_empty_pools(c, f, rounds):
    duel = _playable(Setup(c, f), rounds)
    for i, r in enumerate(duel.rounds):
        assert r.actor == (DEFENDER if i % 2 == 0 else CHALLENGER)
    # the end check comes at the end of a round: an accepted duel with no threat yet has not ended
    assert duel.ended == (sum(duel.pools.values()) == 0 and bool(duel.rounds))
    replay = d.resolve(Setup(c, f), d.rounds_played(duel))
    assert replay == duel
