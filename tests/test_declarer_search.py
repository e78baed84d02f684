"""The call and the exchange by simulation (agents/mediatore/declarer.py): their candidates are
the greedy policies' rankings, each keeps the candidate with the best total over the sampled
worlds, they read only the declarer's view, and agents using them play legally and
reproducibly under every preset."""

import random

import numpy as np
import pytest

from agents import make_agent
from agents.base import play
from agents.mediatore.declarer import SimulatedCall, SimulatedExchange, ranked_removals
from agents.mediatore.greedy import CallingPolicy, ExchangePolicy, GreedyAgent
from agents.mediatore.pimc import PIMCAgent
from mediatore_env import Rules
from mediatore_env.mediatore.tables import forced_deal
from mediatore_env.core.cards import POINTS, bit, power_of, thirds_of
from mediatore_env.mediatore.moves import CALL, DISCARD, GIVE, PLAY
from mediatore_env.mediatore.rules import CHIAMO, MEDIATORE, PRESETS, SOLO
from mediatore_env.mediatore.worlds import WorldSampler


SMALL = {"worlds": 3, "time_limit": None, "max_time": 0.05}


def small(**options):
    return SimulatedExchange(**{"candidates": 4, **SMALL, **options})


def small_call(**options):
    return SimulatedCall(**{"candidates": 3, **SMALL, **options})


def at_exchange(n, contract, rules=None, upto=(DISCARD, PLAY)):
    """A deal of seed ``n`` forced to ``contract`` for seat ``n % 4``, its call made by the
    greedy agent: at the declarer's first discard (``upto`` another phase: there)."""
    rules = Rules() if rules is None else rules
    pack = list(np.random.default_rng([31, n]).permutation(40))
    deal = forced_deal(rules, pack, n % 4, n % 4, contract)
    greedy = GreedyAgent()
    while deal.phase not in upto:
        deal.apply(greedy.act(None, deal.view(deal.to_move)))
    return deal


def greedy_score(policy, hand, removed, g, partner_card=0):
    """ExchangePolicy's score of a removal, from its docstring: the kept hand's strength, half
    a point per third discarded, -1 per third passed back (instead of the half)."""
    kept = hand & ~removed | partner_card
    score = sum(policy.strength.table[kept >> 10 * s & 1023] for s in range(4))
    score += policy.discard_points * thirds_of(removed)
    if g is not None:
        score += (policy.give_points - policy.discard_points) * POINTS[g] - 0.05 * power_of(g)
    return score


def test_the_ranking_starts_with_the_greedy_exchange():
    policy = ExchangePolicy()
    rng = random.Random(3)
    for _ in range(30):
        give = rng.random() < 0.5
        cards = rng.sample(range(40), 14 if give else 13)
        hand = sum(bit(c) for c in cards)
        partner_card = bit(rng.choice([c for c in range(40) if c not in cards])) if rng.random() < 0.3 else 0
        ranked = ranked_removals(policy, hand, 4 + give, give, partner_card)
        assert len(ranked) == len(set(ranked))
        assert all(r & ~hand == 0 and r.bit_count() == 4 + give and (g is None) != give
                   and (g is None or r >> g & 1) for r, g in ranked[:50])
        scores = [greedy_score(policy, hand, r, g, partner_card) for r, g in ranked[:50]]
        assert scores == sorted(scores, reverse=True)
        best = policy.plan(hand, 4 + give, give, partner_card)
        assert greedy_score(policy, hand, *best, partner_card) == pytest.approx(scores[0])


def test_the_plan_is_the_candidate_made_in_the_most_worlds():
    checked = 0
    for n in range(12):
        deal = at_exchange(n, MEDIATORE if n % 2 else CHIAMO)
        if deal.phase != DISCARD:
            continue
        view = deal.view(deal.declarer)
        policy = small(worlds=4, max_time=None)
        removed, g = policy.plan(view)
        solved, made = policy.last
        assert solved == 4
        options = ranked_removals(policy.greedy, view.hand, 4 + (g is not None), g is not None,
                                  bit(view.called_card) if view.contract == CHIAMO
                                  and view.alone is False else 0)[:4]
        best = max(range(4), key=lambda i: (made[i], -i))
        assert (removed, g) == options[best]
        checked += 1
    assert checked >= 8


def test_the_exchange_moves_follow_one_plan():
    """Four discards and the card passed back are the plan made at the first discard."""
    deal = next(d for d in (at_exchange(n, MEDIATORE) for n in range(20))
                if d.phase == DISCARD and d.giver is not None)
    seat = deal.declarer
    policy = small()
    before = deal.hands[seat]
    while deal.phase in (DISCARD, GIVE):
        move = (policy.discard if deal.phase == DISCARD else policy.give)(deal.view(seat))
        deal.apply(move)
    _, removed, g = policy._plan
    assert before & ~deal.hands[seat] == removed
    assert deal.hands[deal.giver] >> g & 1


@pytest.mark.parametrize("decision", ["call", "exchange"])
def test_it_reads_only_the_declarers_view(decision):
    """A leak test: the real deal and a deal drawn from the declarer's worlds, the same
    seed, give the same worlds' totals and the same choice."""
    rng = random.Random(5)
    compared = 0
    for n in range(10):
        if decision == "call":
            deal = at_exchange(n, (CHIAMO, MEDIATORE)[n % 2], upto=(CALL,))
        else:
            deal = at_exchange(n, (CHIAMO, MEDIATORE, SOLO)[n % 3])
            if deal.phase != DISCARD:
                continue
        seat = deal.declarer
        other = WorldSampler(deal.view(seat)).sample_deal(rng)
        assert other.hands != deal.hands
        results = []
        for d in (deal, other):
            policy = small_call() if decision == "call" else small()
            policy.reset(n)
            choice = policy.call(d.view(seat)) if decision == "call" else policy.plan(d.view(seat))
            results.append((choice, policy.last))
        assert results[0] == results[1]
        compared += 1
    assert compared >= 6


def test_the_call_ranking_starts_with_the_greedy_call():
    policy = CallingPolicy()
    for n in range(8):
        view = at_exchange(n, (CHIAMO, MEDIATORE)[n % 2], upto=(CALL,)).view(n % 4)
        ranked = policy.ranked(view)
        assert sorted(ranked) == sorted(view.legal_moves())
        assert ranked[0] == policy.call(view)
        assert all(not view.hand >> (m - 6) & 1 for m in ranked[:10])  # own cards come last


def test_the_call_is_the_candidate_with_the_best_total_payoff():
    for n in range(6):
        deal = at_exchange(n, (CHIAMO, MEDIATORE)[n % 2], upto=(CALL,))
        view = deal.view(deal.declarer)
        policy = small_call(worlds=4, max_time=None)
        move = policy.call(view)
        solved, totals = policy.last
        assert solved == 4
        options = CallingPolicy().ranked(view)[:3]
        assert move == options[max(range(3), key=lambda i: (totals[i], -i))]
        # each world's payoff is one of the contract's payments to the declarer
        assert all(t % 1 == 0 for t in totals)


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_legal_and_reproducible_under_every_preset(preset):
    rules = Rules.preset(preset)

    def run():
        histories = []
        for contract in (CHIAMO, MEDIATORE, SOLO):
            agents = [PIMCAgent(worlds=3, time_limit=None, calling=small_call(), exchange=small())
                      for _ in range(4)]
            deal = at_exchange(contract, contract, rules)
            play(deal, agents, seeds=[contract] * 4)  # play() raises on an illegal move
            assert deal.is_over
            histories.append(deal.history)
        return histories
    assert run() == run()


def test_options():
    agent = make_agent("pimc:calling=search,exchange=search,time_limit=None")
    assert isinstance(agent.greedy.exchange, SimulatedExchange)
    assert isinstance(agent.greedy.calling, SimulatedCall)
    assert agent.greedy.exchange.time_limit is None and agent.greedy.calling.time_limit is None
    plain = make_agent("pimc")
    assert isinstance(plain.greedy.exchange, ExchangePolicy)
    assert isinstance(plain.greedy.calling, CallingPolicy)
    for option in ("calling", "exchange"):
        with pytest.raises(ValueError, match=f"{option} must be 'search'"):
            make_agent(f"pimc:{option}=dd")
    for bad in ("0", "1.5", "many"):
        with pytest.raises(ValueError, match="declarer_nodes must be a positive int"):
            make_agent(f"pimc-infer:declarer_nodes={bad}")
    with pytest.raises(ValueError, match="declarer_nodes is the budget of calling='search'"):
        make_agent("pimc:declarer_nodes=1000")
    with pytest.raises(ValueError, match="declarer_nodes is the work budget"):
        make_agent("pimc-infer:declarer_nodes=1000,time_limit=0.05")
    for policy in (SimulatedExchange, SimulatedCall):
        for bad in ({"candidates": 0}, {"worlds": 0}, {"time_limit": 0}, {"max_time": -1}):
            with pytest.raises(ValueError, match=next(iter(bad))):
                policy(**bad)


def test_declarer_nodes_is_the_node_budget_of_both_searches():
    """``declarer_nodes`` replaces the searches' default node budget (``max_time`` at the
    solver's nodes per second), and a larger one scores more worlds of the same decision."""
    default = make_agent("pimc-infer").greedy
    assert default.calling.budget().max_nodes == default.exchange.budget().max_nodes == 4_200_000
    view = at_exchange(5, MEDIATORE).view(5 % 4)
    worlds = []
    for nodes in (1_000_000, 4_000_000):
        agent = make_agent(f"pimc-infer:declarer_nodes={nodes}")
        exchange = agent.greedy.exchange
        assert agent.greedy.calling.budget().max_nodes == exchange.budget().max_nodes == nodes
        exchange.reset(7)
        exchange.plan(view)
        worlds.append(exchange.last[0])
        assert exchange.scored == [exchange.last[0]]  # what bench_infer.py --timing reports
    assert worlds[0] < worlds[1] <= exchange.worlds
