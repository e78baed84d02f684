"""The pieces of the JAX engine (mediatore_env.jaxgame) checked exhaustively against the
Python rules they transcribe, where random deals would reach a case only by chance: every
payment of both schedules, and the signals allowed with every lead of random hands after
random play under every signal code. The whole deal is held equal to the Python engine by
tests/test_jax_differential.py.
"""

from __future__ import annotations

import itertools
import random
import subprocess
import sys

import numpy as np
import pytest

jax = pytest.importorskip("jax")
jnp = pytest.importorskip("jax.numpy")

from mediatore_env.core.cards import NUM_CARDS, bit, cards_of  # noqa: E402
from mediatore_env.jaxgame import MediatoreJax, engine  # noqa: E402
from mediatore_env.mediatore.rules import (CHIAMO, CONTRACTS, MEDIATORE, NUM_SIGNALS,  # noqa: E402
                                           Rules, allowed_signals, payments)


@pytest.mark.parametrize("rules", [Rules(), Rules(capotto_bonus=False), Rules.preset("low")],
                         ids=["standard", "no_bonus", "low"])
def test_payments_equal_the_rules_payments_in_every_case(rules):
    env = MediatoreJax(rules)
    cases = []
    for contract in CONTRACTS:
        if contract > rules.top_contract:
            continue
        for declarer in range(4):
            others = [None] + [s for s in range(4) if s != declarer]
            partners = others if contract == CHIAMO else [None]
            givers = others if contract == MEDIATORE else [None]
            for partner, giver, won, capotto in itertools.product(partners, givers, (True, False),
                                                                  (True, False)):
                cases.append((contract, declarer, partner, giver, won, capotto))
    columns = [jnp.asarray([-1 if v is None else v for v in column]) for column in zip(*cases)]
    got = np.asarray(jax.jit(jax.vmap(lambda *a: engine.payments(env.tables, *a)))(*columns))
    expected = np.array([payments(rules, *case) for case in cases])
    assert np.array_equal(got, expected)
    assert (got.sum(axis=1) == 0).all()


def random_position(rng: random.Random) -> tuple[int, int]:
    """A hand of 1..9 cards and a set of cards played before it (disjoint), as bitsets."""
    cards = list(range(NUM_CARDS))
    rng.shuffle(cards)
    size = rng.randint(1, 9)
    played = rng.randint(0, 4 * (9 - size))
    hand = sum(bit(c) for c in cards[:size])
    return hand, sum(bit(c) for c in cards[size:size + played])


@pytest.mark.parametrize("code", ["standard", "no_striscio", "off", "alternative"])
def test_lead_signals_equal_the_rules_allowed_signals(code):
    """For 300 random hands after random play: with each card of the hand, the signals the
    JAX lead mask allows are exactly rules.allowed_signals."""
    env = MediatoreJax(Rules(signals=code))
    rng = random.Random(code)
    positions = [random_position(rng) for _ in range(300)]

    def as_bools(mask):
        return np.array([mask >> c & 1 for c in range(NUM_CARDS)], bool)

    hands = jnp.asarray([as_bools(h) for h, _ in positions])
    # The engine reads the cards played from card_seat (-1: not played).
    state = jax.vmap(env.init_from_pack)(jnp.tile(jnp.arange(NUM_CARDS), (len(positions), 1)),
                                         jnp.zeros(len(positions), jnp.int32))
    card_seat = jnp.asarray([np.where(as_bools(p), 0, -1) for _, p in positions], jnp.int32)
    state = state._replace(card_seat=card_seat)
    allowed = np.asarray(jax.jit(jax.vmap(
        lambda s, h: engine._lead_signals(env.tables, s, h)))(state, hands))
    for i, (hand, played) in enumerate(positions):
        for card in cards_of(hand):
            expected = {0, *allowed_signals(code, hand, card, played)}
            got = {signal for signal in range(NUM_SIGNALS) if allowed[i, signal, card]}
            assert got == expected, (code, hand, played, card)


def test_importing_the_package_imports_no_jax():
    code = ("import sys, mediatore_env, mediatore_env.mediatore.mediatore_v0\n"
            "print('jax' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


@pytest.mark.parametrize("by_slices", [False, True])
def test_write_in_puts_each_fraction_at_its_position_either_way(by_slices):
    """observe.write_in's two ways (the scatter the CPU uses, the joined slices a GPU uses)
    give what a plain assignment gives, at the ends of the vector too."""
    from mediatore_env.jaxgame.observe import write_in
    values = np.arange(12, dtype=np.float32)
    at = np.array([0, 3, 4, 11])
    fractions = np.array([0.5, 0.25, 0.125, 0.75], np.float32)
    expected = values.copy()
    expected[at] = fractions
    got = jax.jit(lambda v, f: write_in(v, at, f, by_slices))(values, fractions)
    assert np.array_equal(np.asarray(got), expected)


def test_the_observation_is_the_same_written_either_way():
    """Mediatore's observation with its fractions written by slices (a GPU's way) equals the
    one the differential tests check (the CPU's scatter), for every seat of 64 random deals
    seen every six moves."""
    from mediatore_env.jaxgame.autoreset import init_batch, random_legal_action
    from mediatore_env.jaxgame.observe import observe
    env = MediatoreJax()
    cheap = {"xla_backend_optimization_level": 0, "xla_llvm_disable_expensive_passes": True}
    state = init_batch(env, jax.random.PRNGKey(5), 64)
    step = jax.jit(lambda state, key: jax.vmap(env.step)(state, jax.vmap(random_legal_action)(
        jax.random.split(key, 64), state.legal_action_mask)), compiler_options=cheap)
    every_seat = np.arange(4)

    def both_ways(state):
        return [jax.vmap(jax.vmap(lambda s, seat, way=way: observe(env.tables, s, seat, way),
                                  in_axes=(None, 0)), in_axes=(0, None))(state, every_seat)
                for way in (False, True)]
    both_ways = jax.jit(both_ways, compiler_options=cheap)
    fractions_seen = 0
    for i in range(36):
        if i % 6 == 5:
            scattered, joined = (np.asarray(seen) for seen in both_ways(state))
            assert np.array_equal(scattered, joined)
            fractions_seen += int(((scattered > 0) & (scattered < 1)).sum())
        state = step(state, jax.random.PRNGKey(100 + i))
    assert fractions_seen > 0  # the deals reached the play, where thirds are taken


def test_a_shuffled_pack_is_the_pack_jax_random_permutation_gives():
    """tricks.shuffled_pack ranks where jax.random.permutation sorts: the same pack for every
    key (so a key deals what it dealt before), and equal sort keys in card order, as the
    stable sort puts them."""
    from mediatore_env.jaxgame.tricks import pack_of, shuffled_pack
    keys = jax.random.split(jax.random.PRNGKey(11), 20000)
    ours = jax.jit(jax.vmap(shuffled_pack))(keys)
    assert np.array_equal(ours, jax.vmap(lambda k: jax.random.permutation(k, NUM_CARDS))(keys))
    ties = jnp.asarray([7, 3, 7, 3] + [9] * (NUM_CARDS - 4), jnp.uint32)
    assert pack_of(ties).tolist() == [1, 3, 0, 2] + list(range(4, NUM_CARDS))
    assert np.array_equal(pack_of(ties), jax.lax.sort_key_val(ties, jnp.arange(NUM_CARDS))[1])
