"""What knowing more could be worth (issue 38's bounds, docs/infer.md).

The seer of benchmarks/seer.py, PIMC seeing every card: its one world is the real deal at
every decision, it plays whole deals legally and the same from the same seed, and its
bidding declares the contract the real cards make. The bidding study of
``bench_infer.py --bidding``: each row a forced declaration of a hand the bidding model gives
20-90%, with the share of 16 sampled worlds that make it, played out to its real outcome."""

import importlib.util
import math
import pathlib
import random

import numpy as np

from agents.base import play
from agents.mediatore.greedy import BID_MODELS, MANO_BONUS
from agents.mediatore.pimc import BID_BOOST, PIMCAgent
from agents.mediatore.tournament import HOOKS
from mediatore_env import Deal, Rules
from mediatore_env.mediatore.moves import AUCTION, PLAY
from mediatore_env.mediatore.rules import ARCISOLISSIMO, CHIAMO, MEDIATORE
from packs import make_deal

def benchmark(name):
    spec = importlib.util.spec_from_file_location(
        name, pathlib.Path(__file__).parents[1] / "benchmarks" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


seer = benchmark("seer")

SMALL = {"time_limit": None, "max_time": 0.02}


def packs(n):
    return lambda k: list(np.random.default_rng([57, n, k]).permutation(40))


def test_the_seers_world_is_the_real_deal_at_every_card():
    rng = random.Random(5)
    for n in range(4):
        deal = Deal(Rules(), n % 4, packs(n)(0))
        greedy = PIMCAgent(worlds=2, **SMALL).greedy
        while deal.phase != PLAY:
            deal.apply(greedy.act(None, deal.view(deal.to_move)))
        while not deal.is_over:
            view = deal.view(deal.to_move)
            world = seer.Seer(**SMALL).world_sampler(view).sample(rng)
            assert world.hands == tuple(deal.hands) and world.monte == deal.monte
            assert world.partner == (deal.partner if deal.contract == CHIAMO else None)
            deal.apply(rng.choice(deal.legal_moves()))


def test_the_seer_plays_whole_deals_the_same_from_the_same_seed():
    def outcome(n):
        agents = [seer.Seer(declarer=True, bidding=True, **SMALL)] + [
            PIMCAgent(worlds=2, **SMALL) for _ in range(3)]
        game = play(Deal(Rules(), n % 4, packs(n)(0)), agents, seeds=[n] * 4)
        assert game.is_over
        return game.history, game.payoffs
    for n in range(2):
        assert outcome(n) == outcome(n)


def test_the_seer_bids_the_best_paying_contract_the_real_cards_make():
    # seat 0 leads the first trick and holds the 3, 2 and ace of three suits: it takes every
    # trick of those suits whoever else holds what, so it makes every contract, and bids the
    # one that pays most; seat 1, with nothing to make a contract of, passes
    hands = ["D3 D2 DA C3 C2 CA S3 S2 SA",
             "DR DC DF D7 D6 D5 D4 CR CC",
             "CF C7 C6 C5 C4 SR SC SF S7",
             "S6 S5 S4 B3 B2 BA BR BC BF"]
    deal = make_deal(hands, "B7 B6 B5 B4")
    policy = seer.SeerBidding()
    view = deal.view(0)
    assert deal.phase == AUCTION and deal.to_move == 0
    assert policy.payoff(deal, 0, ARCISOLISSIMO) > 0
    assert policy.bid(view) == ARCISOLISSIMO
    deal.apply(ARCISOLISSIMO)
    assert policy.payoff(deal, 1, ARCISOLISSIMO) < 0


def test_the_bidding_study_forces_the_hands_the_model_doubts_and_plays_them_out():
    rows = benchmark("bench_infer")._bidding_rows((6201, 0, 1))
    assert rows
    for contract, logit, share, made in rows:
        assert contract in (CHIAMO, MEDIATORE)
        assert 0.2 <= 1 / (1 + math.exp(-logit)) <= 0.9
        assert share * 16 == round(share * 16) and 0 <= share <= 1  # of the 16 worlds
        assert made in (0, 1)
    # the model is what PIMC bids with: the greedy model and its boost, mano or not
    deal = Deal(Rules(), HOOKS.dealer(0, 4), HOOKS.pack(6201, 0, 0))
    expected = []
    for seat in range(4):
        for contract in (CHIAMO, MEDIATORE):
            x = BID_MODELS[contract](deal.hands[seat]) + BID_BOOST[contract]
            x += MANO_BONUS[contract] if deal.mano == seat else 0.0
            if 0.2 <= 1 / (1 + math.exp(-x)) <= 0.9:
                expected.append((contract, x))
    assert [(c, x) for c, x, _, _ in rows] == expected
