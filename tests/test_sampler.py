"""The world sampler (WorldSampler(view), .sample_deal): every world it draws is one the
seat cannot tell from the real deal, the real deal is always among the possible worlds, and
the worlds are drawn uniformly.

"Cannot tell" is checked with the seat's observation vector (mediatore_env.mediatore.observation), which
holds everything the seat knows: the sampled deal, replayed from its pack with the same
history (every move legal, the striscio and volo signals included), must give that seat the
same vector as the real deal.
"""

import random
from collections import Counter

import numpy as np
import pytest
from packs import SEGREGATED, SEGREGATED_MONTE, make_deal, play

from mediatore_env import Deal, Rules
from mediatore_env.mediatore.observation import observation
from mediatore_env.core.cards import cards_of
from mediatore_env.mediatore.moves import AUCTION, DISCARD, DISCARD_BASE, PLAY, PLAY_BASE
from mediatore_env.mediatore.rules import CHIAMO, PRESETS
from mediatore_env.mediatore.worlds import World, WorldSampler

PRESET_NAMES = ["standard", "chiamo_blind", "open_monte", "closed_monte", "call_three",
                "no_arcisolissimo", "declarer_leads", "alternative_signals", "no_signals", "low"]


def choose(rng, deal):
    """Random legal moves, with an auction that stops below the top contract (and some
    Chiamo and Mediatore), and signals (striscio, volo, busso...) often on leads."""
    moves = deal.legal_moves()
    if deal.phase == AUCTION:
        if deal.high_bid == 0 and rng.random() < 0.5:
            return rng.choice(moves[1:3])
        if len(moves) == 1 or rng.random() > 0.15:
            return 0
        return moves[1]
    return rng.choice(moves)


def true_world(deal):
    monte = deal.discards if deal.phase == DISCARD else deal.monte
    partner = deal.partner if deal.contract == CHIAMO else None
    return World(tuple(deal.hands), monte, partner)


def check_point(deal, seat, rng, draws):
    view = deal.view(seat)
    sampler = WorldSampler(view)
    real = true_world(deal)
    assert sampler.allows(real), f"the real world is not allowed for seat {seat}"
    expected = observation(view)["observation"]
    for _ in range(draws):
        world = sampler.sample(rng)
        assert sampler.allows(world)
        assert world.hands[seat] == deal.hands[seat]
        other = sampler.deal(world, rng)  # replays the history: every move legal
        assert other.hands == list(world.hands)
        assert true_world(other).monte == world.monte
        if deal.contract == CHIAMO:
            assert other.partner == world.partner
        got = observation(other.view(seat))["observation"]
        diff = np.flatnonzero(got != expected)
        assert not diff.size, f"seat {seat} would notice: vector differs at {diff[:10]}"


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_sampled_worlds_fit_the_view(preset):
    rng = random.Random(PRESET_NAMES.index(preset))
    rules = PRESETS[preset]
    points = 0
    for n in range(12):
        deal = Deal(rules, n % 4, rng=np.random.default_rng([7, n, PRESET_NAMES.index(preset)]))
        while True:
            if rng.random() < 0.3 or deal.is_over:
                check_point(deal, rng.randrange(4), rng, draws=3)
                points += 1
            if deal.is_over:
                break
            deal.apply(choose(rng, deal))
    assert points > 50


def test_every_seat_at_every_step_of_mediatore_and_chiamo():
    """Mediatore (the card given and passed back) and Chiamo (the secret partner), each seat,
    every decision."""
    rng = random.Random(5)
    for n, contract in enumerate(["bid mediatore", "bid chiamo"] * 3):
        deal = Deal(Rules(), n % 4, rng=np.random.default_rng([11, n]))
        deal.apply_text(contract)
        for _ in range(3):
            deal.apply_text("pass")
        while not deal.is_over:
            for seat in range(4):
                check_point(deal, seat, rng, draws=2)
            deal.apply(choose(rng, deal))


def test_known_facts_are_respected():
    """Voids, the volo signal, the monte seen in Solo, the discards to the declarer."""
    # seat s holds suit s, the monte the four 4s; seat 1 declares Solo and leads first
    deal = make_deal(SEGREGATED, SEGREGATED_MONTE, first_lead="declarer")
    play(deal, "pass", "bid solo", "pass", "pass", "pass",
         "discard C5", "discard C6", "discard C7", "discard CF")
    play(deal, "play S4 volo")  # seat 1's only Spade
    play(deal, "play S3", "play B3", "play D3")  # seats 3 and 0 show out of Spade
    rng = random.Random(1)
    sampler = WorldSampler(deal.view(0))
    spade = 0x3FF << 20
    for _ in range(200):
        w = sampler.sample(rng)
        assert not (w.hands[1] | w.hands[3]) & spade   # volo, and a void shown
        # the shown monte went to the declarer (seat 1): its hand or the new monte
        rest = sum(1 << c for c in cards_of(deal.original_monte)) & ~deal.played
        assert (w.hands[1] | w.monte) & rest == rest
    # the declarer knows its discards: the monte is fixed
    sampler = WorldSampler(deal.view(1))
    assert {sampler.sample(rng).monte for _ in range(20)} == {deal.monte}


@pytest.mark.parametrize("tricks,cards", [(8, 0), (7, 2)])
def test_uniform_over_the_possible_worlds(tricks, cards):
    """Late in a deal, with few cards hidden: the number of possible worlds is the sampler's
    count, and each turns up about equally often (chi-square)."""
    rng = random.Random(3)
    deal = Deal(Rules(signals="off"), 0, rng=np.random.default_rng(3))
    for move in ("pass", "bid solissimo", "pass", "pass", "pass"):
        deal.apply_text(move)
    while len(deal.tricks) < tricks or len(deal.trick) < cards:
        deal.apply(rng.choice(deal.legal_moves()))
    sampler = WorldSampler(deal.view(0))
    assert 20 < sampler.count() < 600
    draws = 50 * sampler.count()
    counts = Counter(sampler.sample(rng)[:2] for _ in range(draws))
    assert len(counts) == sampler.count()
    expected = draws / sampler.count()
    chi2 = sum((c - expected) ** 2 / expected for c in counts.values())
    dof = sampler.count() - 1
    assert chi2 < dof + 5 * (2 * dof) ** 0.5, (chi2, dof)


def test_sample_world_is_a_deal_with_the_same_history():
    deal = Deal(Rules(), 2, rng=np.random.default_rng(9))
    rng = random.Random(0)
    while deal.phase != PLAY or len(deal.tricks) < 2:
        deal.apply(choose(rng, deal))
    other = WorldSampler(deal.view(1)).sample_deal(np.random.default_rng(1))
    assert isinstance(other, Deal)
    assert [m for _, m in other.history if m < DISCARD_BASE or m >= PLAY_BASE] == \
        [m for _, m in deal.history if m < DISCARD_BASE or m >= PLAY_BASE]
    assert other.hands[1] == deal.hands[1]
