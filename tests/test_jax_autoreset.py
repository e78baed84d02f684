"""mediatore_env.jaxgame.autoreset: the training loop's step that deals again when a deal ends.

A batch stepped with random legal moves through ``auto_reset`` never stalls (every slot has a
seat to move and a legal move at every step), pays exactly when a deal ends, with payments that
sum to zero, and then holds the fresh deal of that step's key; until a deal ends it is the
engine's own step, leaf for leaf.
"""

from __future__ import annotations

import doctest

import numpy as np
import pytest

jax = pytest.importorskip("jax")
jnp = pytest.importorskip("jax.numpy")
pytest.importorskip("mediatore_env.jaxgame")

from mediatore_env.jaxgame import MediatoreJax, autoreset  # noqa: E402
from mediatore_env.jaxgame.autoreset import (  # noqa: E402
    auto_reset, init_batch, legal_action_at, random_legal_action)
from jax_states import fields  # noqa: E402

BATCH, STEPS = 12, 120  # a deal takes 4 to about 60 moves: every slot ends a deal or more


def same_deal(a: dict, i: int, b: dict, j: int, but=()) -> bool:
    """Whether slot ``i`` of ``a`` and slot ``j`` of ``b`` hold the same arrays, but for the
    fields whose names contain one of ``but``."""
    return all(np.array_equal(a[name][i], b[name][j]) for name in a
               if not any(word in name for word in but))


def test_random_play_through_auto_reset():
    env = MediatoreJax()
    # XLA's cheap settings: compiling is most of this test's time.
    cheap = {"xla_backend_optimization_level": 0, "xla_llvm_disable_expensive_passes": True}
    step = jax.jit(jax.vmap(auto_reset(env)), compiler_options=cheap)

    def engine(state, action, key):
        """The engine's own step, and the deal ``env.init`` makes from ``key``."""
        return env.step(state, action), env.init(key)

    engine = jax.jit(jax.vmap(engine), compiler_options=cheap)
    draw = jax.jit(jax.vmap(random_legal_action))
    key = jax.random.PRNGKey(3)
    state = init_batch(env, key, BATCH)
    plain = state  # the engine's own step, until each slot's first deal ends
    first_deal = np.ones(BATCH, bool)
    ended = np.zeros(BATCH, int)
    for t in range(STEPS):
        player = np.asarray(state.current_player)
        mask = np.asarray(state.legal_action_mask)
        assert ((0 <= player) & (player < 4)).all(), f"step {t}: a slot without a seat to move"
        assert mask.any(axis=1).all(), f"step {t}: a slot without a legal move"
        key, k_moves, k_deals = jax.random.split(key, 3)
        actions = draw(jax.random.split(k_moves, BATCH), state.legal_action_mask)
        assert mask[np.arange(BATCH), np.asarray(actions)].all()  # only legal moves drawn
        deal_keys = jax.random.split(k_deals, BATCH)
        state = step(state, actions, deal_keys)
        plain, fresh = engine(plain, actions, deal_keys)
        mine, theirs, fresh = fields(state), fields(plain), fields(fresh)
        done = mine[".terminated"]
        rewards = mine[".rewards"]
        assert not rewards[~done].any(), f"step {t}: paid without the deal ending"
        assert (rewards[done].sum(axis=1) == 0).all()
        for i in np.flatnonzero(first_deal):
            if done[i]:
                # The end of the first deal: the engine's payments, then the fresh deal.
                assert theirs[".terminated"][i]
                assert np.array_equal(rewards[i], theirs[".rewards"][i])
                first_deal[i] = False
            else:
                assert same_deal(mine, i, theirs, i), f"step {t}, slot {i}: not the engine's step"
        for i in np.flatnonzero(done):
            # The new deal of this step's key, but for the flags of the move that ended the old.
            assert same_deal(mine, i, fresh, i, but=("rewards", "terminated"))
            assert not fresh[".rewards"][i].any() and not fresh[".terminated"][i]
        ended += done
    assert (ended >= 1).all() and ended.sum() >= BATCH * 2


def test_random_legal_action_draws_every_legal_move_and_nothing_else():
    mask = jnp.zeros(486, bool).at[jnp.array([0, 7, 300])].set(True)
    keys = jax.random.split(jax.random.PRNGKey(0), 300)
    drawn = np.asarray(jax.vmap(random_legal_action, in_axes=(0, None))(keys, mask))
    assert set(drawn.tolist()) == {0, 7, 300}
    assert min(np.bincount(drawn)[[0, 7, 300]]) > 60  # about 100 each: uniform
    assert int(random_legal_action(keys[0], jnp.zeros(486, bool))) == 0  # none legal


def test_legal_action_at_is_the_kth_legal_id():
    """The k-th legal id, k = floor(u * count), for masks of every size the games have (41,
    123, 486 ids: a word of bits and a part of one, several words) and densities, the ids at the
    words' edges (31, 32, 63) and the last; u at 0 and just below 1."""
    rng = np.random.default_rng(5)
    for size in (41, 123, 486):
        masks = rng.random((400, size)) < rng.choice([0.01, 0.1, 0.5, 0.95], (400, 1))
        masks[:5] = False
        masks[0, [i for i in (0, 31, 32, 63, size - 1) if i < size]] = True
        masks[1, size - 1] = True
        masks[2] = True
        us = rng.random(400).astype(np.float32)
        us[:3] = [0.0, 0.99999994, 0.99999994]
        got = np.asarray(jax.jit(jax.vmap(legal_action_at))(jnp.asarray(us), jnp.asarray(masks)))
        for u, mask, action in zip(us, masks, got):
            legal = np.flatnonzero(mask)
            expected = legal[int(np.floor(u * np.float32(len(legal))))] if len(legal) else 0
            assert action == expected, (size, u, legal.tolist())


@pytest.mark.slow  # one more compilation of the engine
def test_module_example_runs():
    failures, tried = doctest.testmod(autoreset)
    assert tried and not failures


@pytest.mark.parametrize("game", ["toy", pytest.param("club", marks=pytest.mark.slow),
                                  pytest.param("mediatore", marks=pytest.mark.slow)])
def test_the_batch_step_deals_what_auto_reset_deals(game):
    """auto_reset_batch (fresh games dealt only for the slots that ended) returns what
    vmap(auto_reset) returns, every leaf at every step, whichever of its branches runs: over a
    batch of 24 it gathers 0, 1, 6 or 24 slots, and steps where none, one and several games
    end are all seen. By default on the toy game (tests/toy_jax_game.py: quick to compile),
    its moves drawn from ids 0-9, of which 8 and 9 are illegal and end a deal at once, so
    that deals end at different steps; with ``-m slow`` also a club session (whose state
    carries every deal's pack) and a Mediatore deal, their moves legal."""
    from mediatore_env import jaxgame
    from mediatore_env.jaxgame.autoreset import auto_reset_batch
    from toy_jax_game import LEGAL, ToyGame
    env = ToyGame() if game == "toy" else jaxgame.make(game)
    cheap = {"xla_backend_optimization_level": 0, "xla_llvm_disable_expensive_passes": True}
    each = jax.jit(jax.vmap(auto_reset(env)), compiler_options=cheap)
    batched = jax.jit(auto_reset_batch(env), compiler_options=cheap)
    differ = jax.jit(lambda a, b: jax.tree_util.tree_map(lambda x, y: (x != y).any(), a, b))
    if game == "toy":
        draw = jax.jit(lambda keys, mask: jax.random.randint(keys[0], (24,), 0, LEGAL + 2))
    else:
        draw = jax.jit(jax.vmap(random_legal_action))
    state = init_batch(env, jax.random.PRNGKey(7), 24)
    ends = []
    for t in range(150):
        k_moves, k_deals = jax.random.split(jax.random.PRNGKey(100 + t))
        actions = draw(jax.random.split(k_moves, 24), state.legal_action_mask)
        keys = jax.random.split(k_deals, 24)
        expected, got = each(state, actions, keys), batched(state, actions, keys)
        wrong = [name for name, bad in fields(differ(expected, got)).items() if bad]
        assert not wrong, f"step {t}: {wrong} differ"
        ends.append(int(expected.terminated.sum()))
        state = expected
    assert 0 in ends and 1 in ends and max(ends) > 1, ends
