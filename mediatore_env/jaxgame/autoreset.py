"""Auto-reset for training loops: a step that deals the next deal as soon as one ends.

A training loop steps a batch of deals in lockstep; a deal that ends must not stall its slot.
:func:`auto_reset` wraps :meth:`MediatoreJax.step` the way pgx's ``auto_reset`` and JaxMARL's
environments do: on the move that ends a deal, the returned state is a fresh deal from
``env.init(key)``, with that move's ``rewards`` and ``terminated = True`` kept on it, so the
loop reads the payments and the end of the episode from the same state whose observation and
legal mask are already the next deal's. One deal is one episode.

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

Built only on the engine's public API (``init``, ``step``, ``terminated``, ``rewards``,
``legal_action_mask``), so it holds for any rules table.
"""

from __future__ import annotations

import dataclasses
from functools import lru_cache
from typing import Callable

import jax
import jax.numpy as jnp


def _with(state, **fields):
    """A copy of ``state`` with ``fields`` changed (the engine's ``_replace``, or any dataclass)."""
    replace = getattr(state, "_replace", None) or getattr(state, "replace", None)
    return replace(**fields) if replace else dataclasses.replace(state, **fields)


def auto_reset(env) -> Callable:
    """``step(state, action, key) -> state``: ``env.step``, but a deal that ends on this move
    is replaced by ``env.init(key)``, keeping this move's ``rewards`` and ``terminated``.

    Give it states from ``env.init`` or from itself: it first clears the ``terminated`` flag
    kept on a fresh deal, then steps. Pure, for one deal: ``jax.vmap`` it for a batch (one key
    per deal) and ``jax.jit`` it. ``key`` is used only when the deal ends.
    """

    def step(state, action, key):
        state = _with(state, terminated=jnp.zeros_like(state.terminated))
        stepped = env.step(state, action)
        ended = stepped.terminated
        fresh = env.init(key)
        state = jax.tree_util.tree_map(lambda new, old: jnp.where(ended, new, old), fresh, stepped)
        return _with(state, rewards=stepped.rewards, terminated=ended)

    return step


def init_batch(env, key, batch: int):
    """``batch`` fresh deals, one per key split from ``key`` (a batch of states). Compiled
    once per engine (and batch size)."""
    return _batched_init(env)(jax.random.split(key, batch))


@lru_cache(maxsize=None)
def _batched_init(env) -> Callable:
    return jax.jit(jax.vmap(env.init))


def random_legal_action(key, legal_action_mask):
    """A legal move id drawn uniformly from ``legal_action_mask`` (bool[486]); 0 when no move is
    legal (a finished deal). ``jax.vmap`` it for a batch."""
    return legal_action_at(jax.random.uniform(key), legal_action_mask)


def legal_action_at(u, legal_action_mask):
    """The legal move at ``u`` (a number in [0, 1)): the k-th legal move id of
    ``legal_action_mask``, ``k = floor(u * count)``, so a uniform ``u`` draws a legal move
    uniformly (one batch of uniforms serves a batch of deals); 0 when no move is legal.

    The k-th is found in two levels, the mask cut into 27 rows of 18 ids: the row by the
    running count of legal moves over rows, then the id within the row, so two running sums of
    27 and 18 terms instead of one of 486 (on a CPU, a draw over 486 logits with
    ``jax.random.categorical`` cost 20 times a step, a running sum over 486 ids 5 times)."""
    rows = legal_action_mask.reshape(-1, _COLUMNS)
    count = legal_action_mask.sum(dtype=jnp.int32)
    k = jnp.floor(u * count).astype(jnp.int32)  # 0 .. count - 1
    before = jnp.cumsum(rows.sum(axis=1, dtype=jnp.int32))  # legal moves up to each row's end
    row = jnp.argmax(before > k)
    k_in_row = k - (before[row] - rows[row].sum(dtype=jnp.int32))
    column = jnp.argmax(jnp.cumsum(rows[row], dtype=jnp.int32) > k_in_row)
    return jnp.where(count > 0, row * _COLUMNS + column, 0).astype(jnp.int32)


_COLUMNS = 18  # ids per row: 486 move ids are 27 rows
