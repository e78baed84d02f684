"""PIMCAgent: legal, reproducible play; double-dummy best cards when the seat knows everything."""

import random
from types import SimpleNamespace

import numpy as np
import pytest

from agents import PIMCAgent, make_agent
from agents.base import play_deal
from agents.greedy import GreedyAgent
from agents.pimc import BID_BOOST, equivalent_cards
from mediatore_env import Deal, Rules, solver
from mediatore_env.cards import thirds_of
from mediatore_env.game import PLAY, PLAY_BASE
from mediatore_env.rules import CHIAMO, MEDIATORE, SOLO, payments
from mediatore_env.solver import NODES_PER_SECOND, Position, move_values

from packs import mask


def test_registered_and_options():
    agent = make_agent("pimc:worlds=8,time_limit=None,bidding='bold'")
    assert isinstance(agent, PIMCAgent) and agent.worlds == 8 and agent.time_limit is None
    assert make_agent("pimc:bidding=-2.0").greedy.bidding.margin == -2.0
    # the default bidding: greedy's models, with the PIMC agent's better chances
    view = Deal(Rules(), 0, pack=list(range(40))).view(1)
    boosted, plain = PIMCAgent().greedy.bidding, GreedyAgent().bidding
    for contract, boost in ((CHIAMO, BID_BOOST[CHIAMO]), (MEDIATORE, BID_BOOST[MEDIATORE]), (SOLO, 0.0)):
        assert boosted.models[contract](view.hand) == pytest.approx(plain.models[contract](view.hand) + boost)
    assert make_agent("pimc:bid_boost=chiamo:0.3;mediatore:0.8").bid_boost == {CHIAMO: 0.3, MEDIATORE: 0.8}
    with pytest.raises(ValueError):
        PIMCAgent(bid_boost="tressette:1")
    with pytest.raises(ValueError):
        PIMCAgent(worlds=0)
    with pytest.raises(ValueError):
        PIMCAgent(time_limit=0)


def test_plays_whole_deals_legally_and_reproducibly():
    def run(seed):
        agents = [PIMCAgent(worlds=4, time_limit=None), GreedyAgent(),
                  PIMCAgent(worlds=4, time_limit=None), GreedyAgent()]
        deals = []
        for n in range(3):
            deal = Deal(Rules(), n % 4, rng=np.random.default_rng([seed, n]))
            deals.append(play_deal(deal, agents, seeds=[seed * 10 + s for s in range(4)]).history)
        return deals, agents
    first, agents = run(1)
    again, _ = run(1)
    assert first == again
    summary = agents[0].timing_summary()
    assert summary["all"]["decisions"] > 0


def test_equivalent_cards():
    hand = mask("D3 D2 DA C7 C6 C4")
    # D3 and D2 touch and score the same; DA scores more; C7 and C6 touch; C4 is cut off by C5
    rep = equivalent_cards(hand, [9, 8, 7, 13, 12, 10], 0)
    assert rep == {9: 9, 8: 9, 7: 7, 13: 13, 12: 13, 10: 10}
    # once C5 has been played, C4 joins them
    assert equivalent_cards(hand, [13, 12, 10], 1 << 11) == {13: 13, 12: 13, 10: 13}


def known_positions(count):
    """Positions where the seat to move can tell where every card is (a unique world)."""
    rng = random.Random(4)
    found = []
    n = 0
    while len(found) < count:
        deal = Deal(Rules(signals="off"), n % 4, rng=np.random.default_rng([77, n]))
        n += 1
        deal.apply_text("bid solo")
        for _ in range(3):
            deal.apply_text("pass")
        greedy = GreedyAgent()
        while not deal.is_over():
            view = deal.view(deal.to_move)
            if deal.phase == PLAY and len(deal.tricks) >= 6 and view.world_sampler().count() == 1 \
                    and len({(m - PLAY_BASE) % 40 for m in view.legal_moves()}) > 1:
                found.append(deal.clone())
                break
            move = greedy.act(None, view) if rng.random() < 0.7 else rng.choice(deal.legal_moves())
            deal.apply(move)
    return found


def test_with_everything_known_it_plays_a_double_dummy_best_card():
    for deal in known_positions(6):
        seat = deal.to_move
        view = deal.view(seat)
        agent = PIMCAgent(worlds=3, time_limit=None)
        move = agent.act(None, view)
        assert move in view.legal_moves()
        side = 1 << deal.declarer
        pos = Position(tuple(deal.hands), deal.leader, tuple(deal.trick), side,
                       deal.side_thirds()[0], thirds_of(deal.monte))
        values = move_values(pos)

        def pay(card):
            won = values[card] >= 18
            return payments(deal.rules, deal.contract, deal.declarer, None, None, won, False)[seat]
        best = max(pay(c) for c in values)
        assert pay((move - PLAY_BASE) % 40) == best


# -- the ceiling: node budgets per decision ----------------------------------------------

def first_lead(n):
    """The opening lead of deal ``n`` after a greedy auction: no card seen yet, 9 in hand."""
    greedy = GreedyAgent()
    deal = Deal(Rules(), n % 4, rng=np.random.default_rng([31, n]))
    while deal.phase != PLAY:
        deal.apply(greedy.act(None, deal.view(deal.to_move)))
    return deal.view(deal.to_move)


def test_a_first_trick_decision_keeps_to_its_node_budget():
    """Reproducible play (time_limit=None) spends at most max_time * NODES_PER_SECOND nodes
    on a card, where unlimited search would take over 10 million on this lead (Chiamo, eight
    different cards to try), and plays the same card again with the same count."""
    view = first_lead(10)
    assert view.contract == CHIAMO and view.hand.bit_count() == 9
    runs = []
    for _ in range(2):
        agent = PIMCAgent(time_limit=None)
        move, worlds = agent.play(view)
        assert agent.node_budget == int(agent.max_time * NODES_PER_SECOND)
        assert agent.nodes <= agent.node_budget
        assert 1 <= worlds < agent.worlds  # the budget binds: a world was cut off
        runs.append((move, worlds, agent.nodes))
    assert runs[0] == runs[1]


def test_with_no_world_finished_it_plays_the_greedy_card():
    view = first_lead(10)
    agent = PIMCAgent(time_limit=None, max_time=2000 / NODES_PER_SECOND)  # 2,000 nodes
    move, worlds = agent.play(view)
    assert worlds == 0 and agent.nodes <= 2000
    assert move == GreedyAgent().play.play(view)


def test_timed_decisions_stop_searching_at_the_ceiling(monkeypatch):
    """With a time limit, each search gets the nodes the time left before max_time buys.
    A clock that advances only with the nodes searched, at exactly NODES_PER_SECOND, shows
    the decision ends by the ceiling however the searches fall (no timing in the test)."""
    import agents.pimc as pimc_module
    clock = [0.0]
    real_reaches = pimc_module.reaches

    def reaches(pos, target, node_limit=None):
        assert node_limit is not None and node_limit <= (0.09 - clock[0]) * NODES_PER_SECOND
        answer = real_reaches(pos, target, node_limit=node_limit)
        clock[0] += solver.last_nodes() / NODES_PER_SECOND
        return answer

    monkeypatch.setattr(pimc_module, "reaches", reaches)
    monkeypatch.setattr(pimc_module, "time", SimpleNamespace(thread_time=lambda: clock[0]))
    for n in (3, 10, 11):
        clock[0] = 0.0
        agent = PIMCAgent(time_limit=0.08, max_time=0.09)
        move, worlds = agent.play(first_lead(n))
        assert clock[0] <= 0.09 and agent.nodes <= 0.09 * NODES_PER_SECOND
        assert agent.node_budget is None and worlds < agent.worlds


def test_max_time_option():
    assert make_agent("pimc:max_time=0.5,time_limit=0.4").max_time == 0.5
    assert PIMCAgent(time_limit=None, max_time=None).max_time is None
    with pytest.raises(ValueError, match="max_time"):
        PIMCAgent(time_limit=0.2)  # above the default ceiling of 0.09 s
    with pytest.raises(ValueError, match="max_time"):
        PIMCAgent(max_time=0)
