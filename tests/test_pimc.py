"""PIMCAgent: legal, reproducible play; double-dummy best cards when the seat knows everything."""

import random
from types import SimpleNamespace

import numpy as np
import pytest
from packs import mask

from agents import PIMCAgent, make_agent
from agents.base import play
from agents.mediatore.greedy import GreedyAgent
from agents.mediatore.pimc import BID_BOOST, equivalent_cards
from mediatore_env import Deal, Rules
from mediatore_env.analysis import solver
from mediatore_env.analysis.solver import NODES_PER_SECOND, Position, move_values
from mediatore_env.core.cards import thirds_of
from mediatore_env.mediatore.moves import PLAY, PLAY_BASE
from mediatore_env.mediatore.rules import CHIAMO, MEDIATORE, SOLO, payments
from mediatore_env.mediatore.worlds import World, WorldSampler


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
    assert make_agent("pimc:margin=6").margin == 6 and PIMCAgent().margin == 3
    for bad in (-1, 18, 1.5, True):
        with pytest.raises(ValueError, match="margin"):
            PIMCAgent(margin=bad)


def test_plays_whole_deals_legally_and_reproducibly():
    def run(seed):
        agents = [PIMCAgent(worlds=4, time_limit=None), GreedyAgent(),
                  PIMCAgent(worlds=4, time_limit=None), GreedyAgent()]
        deals = []
        for n in range(3):
            deal = Deal(Rules(), n % 4, rng=np.random.default_rng([seed, n]))
            deals.append(play(deal, agents, seeds=[seed * 10 + s for s in range(4)]).history)
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


def solo_positions(count, seed, keep, greedy_rate):
    """``count`` play positions of Solo deals (signals off) that ``keep(deal, view)`` accepts,
    one per deal at most: the first it accepts, in play mostly by the greedy agent
    (``greedy_rate`` of the moves, the rest at random). ``keep`` returns what to collect
    (anything true), or a false value to go on."""
    rng = random.Random(seed)
    found, n = [], 0
    while len(found) < count:
        deal = Deal(Rules(signals="off"), n % 4, rng=np.random.default_rng([seed + 73, n]))
        n += 1
        deal.apply_text("bid solo")
        for _ in range(3):
            deal.apply_text("pass")
        greedy = GreedyAgent()
        while not deal.is_over:
            view = deal.view(deal.to_move)
            if deal.phase == PLAY:
                kept = keep(deal, view)
                if kept:
                    found.append(kept)
                    break
            move = greedy.act(None, view) if rng.random() < greedy_rate else rng.choice(deal.legal_moves())
            deal.apply(move)
    return found


def known_positions(count):
    """Positions where the seat to move can tell where every card is (a unique world)."""
    def keep(deal, view):
        return (len(deal.tricks) >= 6 and WorldSampler(view).count() == 1
                and len({(m - PLAY_BASE) % 40 for m in view.legal_moves()}) > 1 and deal.clone())
    return solo_positions(count, 4, keep, 0.7)


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


@pytest.mark.slow  # 15-25 s on 2 cores: learning or search behaviour (-m slow)
def test_when_every_card_has_the_same_payoff_it_keeps_the_margin():
    """With every card known and every card making (or every card losing) the contract
    double dummy, the agent plays a card after which the declarer side still reaches 21
    thirds (or 15, when it loses) if it is on that side, and one after which it does not
    if it defends, whenever some card does and some does not."""
    def keep(deal, view):
        if len(deal.tricks) < 6 or WorldSampler(view).count() != 1:
            return None
        pos = Position(tuple(deal.hands), deal.leader, tuple(deal.trick), 1 << deal.declarer,
                       deal.side_thirds()[0], thirds_of(deal.monte))
        values = move_values(pos)
        made = {v >= 18 for v in values.values()}
        if len(made) != 1:
            return None
        target = 21 if made.pop() else 15
        reached = {c: v >= target for c, v in values.items()}
        return len(set(reached.values())) == 2 and (deal.clone(), reached)

    found = solo_positions(6, 5, keep, 0.5)
    for deal, reached in found:
        seat = deal.to_move
        want = seat == deal.declarer
        move = PIMCAgent(worlds=2, time_limit=None).act(None, deal.view(seat))
        assert reached[(move - PLAY_BASE) % 40] == want
    # without the tie-break, the agent takes greedy's card, which misses it in some of them
    misses = sum(reached[(PIMCAgent(worlds=2, time_limit=None, margin=0).act(None, deal.view(deal.to_move))
                          - PLAY_BASE) % 40] != (deal.to_move == deal.declarer) for deal, reached in found)
    assert misses > 0


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
    import agents.mediatore.declarer as solver_calls  # where the searches ask the solver
    import agents.search as budget_module  # the budget's clock
    clock = [0.0]
    real_reaches = solver_calls.reaches

    def reaches(pos, target, node_limit=None):
        assert node_limit is not None and node_limit <= (0.09 - clock[0]) * NODES_PER_SECOND
        answer = real_reaches(pos, target, node_limit=node_limit)
        clock[0] += solver.last_nodes() / NODES_PER_SECOND
        return answer

    monkeypatch.setattr(solver_calls, "reaches", reaches)
    monkeypatch.setattr(budget_module, "time", SimpleNamespace(thread_time=lambda: clock[0]))
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
        PIMCAgent(time_limit=0.2)  # above the default ceiling of 0.075 s
    with pytest.raises(ValueError, match="max_time"):
        PIMCAgent(max_time=0)


def sweep(pos, side):
    """Plain minimax: do the seats of ``side`` win every trick still to play from ``pos``?"""
    if not any(pos.hands) and not pos.trick:
        return True
    results = []
    for card in solver.legal_cards(pos):
        child = solver.play(pos, card)
        if len(pos.trick) == 3 and not side >> child.leader & 1:
            results.append(False)  # the other side took this trick
        else:
            results.append(sweep(child, side))
    return any(results) if side >> solver.to_move(pos) & 1 else all(results)


def outcome_levels(deal):
    """Each legal card's double-dummy outcome for the seat to move, as its payment with
    capotto counted (a Solo deal, every card known)."""
    seat, declarer = deal.to_move, deal.declarer
    side = 1 << declarer
    pos = Position(tuple(deal.hands), deal.leader, tuple(deal.trick), side,
                   deal.side_thirds()[0], thirds_of(deal.monte))
    ours = sum(t.winner == declarer for t in deal.tricks)
    out = {}
    for card in solver.legal_cards(pos):
        after = solver.play(pos, card)
        trick_done = len(pos.trick) == 3
        decl_alive = ours == len(deal.tricks) and (not trick_done or after.leader == declarer)
        def_alive = ours == 0 and (not trick_done or after.leader != declarer)
        won = solver.reaches(after, 18)
        capotto = (won and decl_alive and sweep(after, side)) or \
                  (not won and def_alive and sweep(after, 15 & ~side))
        out[card] = payments(deal.rules, SOLO, declarer, None, None, won, capotto)[seat]
    return out


def capotto_positions(count):
    """Solo positions where cards that all make (or all lose) the contract differ in capotto."""
    def keep(deal, view):
        if len(deal.tricks) < 5 or len(deal.legal_moves()) < 2:
            return None
        levels = outcome_levels(deal)
        made = {v > 0 if deal.to_move == deal.declarer else v < 0 for v in levels.values()}
        return len(set(levels.values())) > 1 and len(made) == 1 and (deal.clone(), levels)
    return solo_positions(count, 5, keep, 0.8)


class TrueWorld:
    """A world sampler that knows the real deal: every draw is the real world."""

    def __init__(self, deal):
        self.world = World(tuple(deal.hands), deal.monte, None)

    def sample(self, rng):
        return self.world


@pytest.mark.slow  # 15-25 s on 2 cores: learning or search behaviour (-m slow)
def test_it_plays_for_capotto_and_against_it(monkeypatch):
    """Where the contract is decided but capotto is not, the agent takes the card that keeps
    (or stops) capotto; without counting capotto it does not always."""
    worse_without = 0
    for deal, levels in capotto_positions(12):
        view = deal.view(deal.to_move)
        best = max(levels.values())
        agent = PIMCAgent(worlds=1, time_limit=None, capotto=True)
        blind = PIMCAgent(worlds=1, time_limit=None, capotto=False)
        for a in (agent, blind):
            monkeypatch.setattr(a, "world_sampler", lambda view: TrueWorld(deal))
        assert levels[(agent.act(None, view) - PLAY_BASE) % 40] == best
        worse_without += levels[(blind.act(None, view) - PLAY_BASE) % 40] < best
    assert worse_without > 0


def greedy_deal(seed: int, n: int, tricks: int = 0):
    """(deal ``n`` of ``seed`` played by greedy agents up to the end of its first ``tricks``
    tricks, or its end; the hands as dealt)."""
    deal = Deal(Rules(), n % 4, rng=np.random.default_rng([seed, n]))
    dealt = list(deal.hands)
    greedy = GreedyAgent()
    while not deal.is_over and (deal.phase != PLAY or len(deal.tricks) < tricks):
        deal.apply(greedy.act(None, deal.view(deal.to_move)))
    return deal, dealt


def test_initial_hands_undo_the_exchange():
    """The real world gives back the hands as dealt (Mediatore: the called card given and a
    card passed back; Solo: the monte taken), from every seat's view."""
    from agents.mediatore.pimc import initial_hands
    rng = random.Random(2)
    checked = 0
    for n in range(40):
        deal, dealt = greedy_deal(79, n, tricks=3)
        if deal.is_over or deal.contract not in (MEDIATORE, SOLO):
            continue
        for seat in range(4):
            sampler = WorldSampler(deal.view(seat))
            real = World(tuple(deal.hands), deal.monte, None)
            assert sampler.allows(real)
            hands = initial_hands(sampler, real, rng)
            if deal.giver is not None and seat not in (deal.declarer, deal.giver):
                # the card passed back is unknown to this seat: it may be put back wrong
                pair = (deal.declarer, deal.giver)
                for s in range(4):
                    assert hands[s] == dealt[s] or s in pair
                assert hands[pair[0]] | hands[pair[1]] == dealt[pair[0]] | dealt[pair[1]]
            else:
                assert hands == dealt
            checked += 1
    assert checked >= 8


def test_auction_weights_favour_worlds_that_fit_the_bids():
    """Worlds weighted by the auction give a Mediatore declarer a stronger hand, and the
    passers weaker ones, than uniform worlds; the true dealt hands fit better than average."""
    from agents.mediatore.greedy import BID_MODELS
    from agents.mediatore.pimc import AuctionLikelihood, WeightedSampler, initial_hands
    rng = random.Random(3)
    cases = 0
    for n in range(60):
        deal, dealt = greedy_deal(80, n)
        if deal.is_over or deal.contract != MEDIATORE:
            continue
        declarer = deal.declarer
        seat = next(s for s in range(4) if s not in (declarer, deal.giver))
        view = deal.view(seat)
        likelihood = AuctionLikelihood(view, 1.0)
        assert likelihood.calls and all(s != seat for s, _, _ in likelihood.calls)
        sampler = WorldSampler(view)
        weighted = WeightedSampler(sampler, likelihood, 200, rng)

        def strength(worlds):
            return sum(BID_MODELS[MEDIATORE](initial_hands(sampler, w, rng)[declarer])
                       for w in worlds) / len(worlds)
        uniform = [sampler.sample(rng) for _ in range(200)]
        assert strength([weighted.sample(rng) for _ in range(200)]) > strength(uniform) + 0.2
        mean = sum(likelihood(initial_hands(sampler, w, rng)) for w in uniform) / len(uniform)
        assert likelihood(dealt) > mean
        cases += 1
    assert cases >= 3
