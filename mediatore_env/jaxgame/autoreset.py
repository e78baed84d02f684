"""Auto-reset for training loops: a step that deals the next game as soon as one ends.

A training loop steps a batch of games in lockstep; a game that ends must not stall its slot.
:func:`auto_reset` wraps the ``step`` of any :class:`.core.JaxGame` the way pgx's
``auto_reset`` and JaxMARL's environments do: on the move that ends a game, the returned state
is a fresh game from ``env.init(key)``, with that move's ``rewards``, ``terminated`` and
``truncated`` kept on it, so the loop reads the payments and the end of the episode from the
same state whose observation and legal mask are already the next game's. For Mediatore
(``MediatoreJax``) one deal is one episode.

    >>> import jax, jax.numpy as jnp
    >>> from mediatore_env.jaxgame import MediatoreJax
    >>> from mediatore_env.jaxgame.autoreset import auto_reset, init_batch, random_legal_action
    >>> env = MediatoreJax()
    >>> step = jax.jit(jax.vmap(auto_reset(env)))
    >>> states = init_batch(env, jax.random.PRNGKey(0), 4)
    >>> keys = jax.random.split(jax.random.PRNGKey(1), (3, 4))  # per step: moves, next deals
    >>> actions = jax.vmap(random_legal_action)(keys[0], states.legal_action_mask)
    >>> states = step(states, actions, keys[1])
    >>> states.current_player.shape, bool(states.terminated.any())
    ((4,), False)

Built only on :class:`.core.JaxGame`'s ``init`` and ``step`` and the fields of
:class:`.core.State`, so it holds for every JAX game and every rules table.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Callable

import jax
import jax.numpy as jnp
import numpy as np


def auto_reset(env) -> Callable:
    """``step(state, action, key) -> state``: ``env.step``, but a game that ends on this move
    is replaced by ``env.init(key)``, keeping this move's ``rewards``, ``terminated`` and
    ``truncated``.

    Give it states from ``env.init`` or from itself: it first clears the flags kept on a fresh
    game, then steps. Pure, for one game: ``jax.vmap`` it for a batch (one key per game) and
    ``jax.jit`` it. ``key`` is used only when the game ends.
    """

    def step(state, action, key):
        no = jnp.zeros_like(state.terminated)
        stepped = env.step(state._replace(terminated=no, truncated=no), action)
        ended = stepped.terminated | stepped.truncated
        fresh = env.init(key)
        state = jax.tree_util.tree_map(lambda new, old: jnp.where(ended, new, old), fresh, stepped)
        return state._replace(rewards=stepped.rewards, terminated=stepped.terminated,
                              truncated=stepped.truncated)

    return step


def auto_reset_batch(env) -> Callable:
    """``step(states, actions, keys) -> states`` for a whole batch: what
    ``jax.vmap(auto_reset(env))`` returns, leaf for leaf, but dealing fresh games only for the
    slots whose game ended. Under ``vmap`` a branch-free step computes both sides, so
    ``auto_reset`` deals a fresh game for every slot at every move, and dealing costs far more
    than a move where a game draws several packs (a club session draws 20: on the 2-core EPYC
    about 120 µs against a move's 1.1: docs/jax.md).

    Here the slots that ended are gathered, dealt from their keys and put back. Shapes are
    static, so the gathering has a few sizes, each a branch of a ``lax.switch`` (one runs):
    none, 1/64, 1/16 and 1/4 of the batch, and all of it; the smallest that holds the games
    that ended is taken. Not for ``vmap``: it takes the batch. ``jax.jit`` it."""
    deal = jax.vmap(env.init)

    def step(states, actions, keys):
        batch = actions.shape[0]
        rooms = sorted({0, batch, *(max(1, batch // 4 ** k) for k in (1, 2, 3))})
        no = jnp.zeros_like(states.terminated)
        stepped = jax.vmap(env.step)(states._replace(terminated=no, truncated=no), actions)
        ended = stepped.terminated | stepped.truncated

        def dealt_in(room):
            def branch(stepped):
                if room == 0:
                    return stepped
                slots = jnp.nonzero(ended, size=room, fill_value=batch)[0]  # batch: no slot
                fresh = deal(keys[jnp.minimum(slots, batch - 1)])
                return jax.tree_util.tree_map(
                    lambda old, new: old.at[slots].set(new, mode="drop"), stepped, fresh)
            return branch

        which = jnp.searchsorted(jnp.asarray(rooms), ended.sum())  # the first room >= ended
        dealt = jax.lax.switch(which, [dealt_in(room) for room in rooms], stepped)
        return dealt._replace(rewards=stepped.rewards, terminated=stepped.terminated,
                              truncated=stepped.truncated)

    return step


def init_batch(env, key, batch: int):
    """``batch`` fresh games, one per key split from ``key`` (a batch of states). Compiled
    once per engine (and batch size)."""
    return _batched_init(env)(jax.random.split(key, batch))


@lru_cache(maxsize=None)
def _batched_init(env) -> Callable:
    return jax.jit(jax.vmap(env.init))


def random_legal_action(key, legal_action_mask):
    """A legal action id drawn uniformly from ``legal_action_mask`` (bool[num_actions]; all
    True once a game is over, where any id will do: stepping a finished game changes nothing);
    0 when no move is legal. ``jax.vmap`` it for a batch."""
    return legal_action_at(jax.random.uniform(key), legal_action_mask)


_LOW_BITS = (2 ** np.arange(1, 33, dtype=np.uint64) - 1).astype(np.uint32)  # bits 0..b, by b


def legal_action_at(u, legal_action_mask):
    """The legal action at ``u`` (a number in [0, 1)): the k-th legal id of
    ``legal_action_mask``, ``k = floor(u * count)``, so a uniform ``u`` draws a legal action
    uniformly (one batch of uniforms serves a batch of games); 0 when none is legal.

    The mask is packed into 32-bit words, so the k-th legal id is found by counting bits: the
    word by the running count of its words' bits (Mediatore's 486 ids: 16 words), then the bit
    by the counts of the word's first bits. On a CPU a draw over 486 logits with
    ``jax.random.categorical`` cost 20 times a step; running sums over the mask cut into rows,
    as this was written before, about 1.5 times; the words about half a step."""
    size = legal_action_mask.shape[0]
    words = -(-size // 32)
    bits = jnp.concatenate([legal_action_mask, jnp.zeros(words * 32 - size, bool)]
                           ).reshape(words, 32).astype(jnp.uint32)
    word_of = (bits << jnp.arange(32, dtype=jnp.uint32)).sum(axis=1, dtype=jnp.uint32)
    per_word = jax.lax.population_count(word_of).astype(jnp.int32)
    upto = jnp.cumsum(per_word)  # legal ids up to each word's end
    count = upto[-1]
    k = jnp.floor(u * count).astype(jnp.int32)  # 0 .. count - 1
    at = jnp.arange(words) == (upto <= k).sum()  # the word that holds it
    k = k - jnp.where(at, upto - per_word, 0).sum()  # its place among the word's legal ids
    word = jnp.where(at, word_of, 0).sum(dtype=jnp.uint32)
    # The bit: how many of the word's first 1, 2, ... 32 bits hold at most k legal ids. A sum,
    # so XLA keeps its result rather than copying the steps into every use of the action (a
    # search by halving the word was, a hundred times over in Mediatore's step).
    upto_bit = jax.lax.population_count(word & _LOW_BITS).astype(jnp.int32)
    bit = (upto_bit <= k).sum()
    return jnp.where(count > 0, jnp.argmax(at) * 32 + bit, 0).astype(jnp.int32)
