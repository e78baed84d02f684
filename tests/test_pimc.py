"""PIMCAgent: legal, reproducible play; double-dummy best cards when the seat knows everything."""

import random

import numpy as np
import pytest

from agents import PIMCAgent, make_agent
from agents.base import play_deal
from agents.greedy import GreedyAgent
from agents.pimc import BID_BOOST, equivalent_cards
from mediatore_env import Deal, Rules
from mediatore_env.cards import thirds_of
from mediatore_env.game import PLAY, PLAY_BASE
from mediatore_env.rules import CHIAMO, MEDIATORE, SOLO, payments
from mediatore_env.solver import Position, move_values

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
