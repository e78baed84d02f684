"""What every JAX game shares, written once beneath the games: pgx's ``core.Env`` for this
project (pgx itself is not needed).

A JAX game is a record of arrays, a subclass of :class:`State` (the fields every game has,
then the game's own), and three pure functions of its own on a subclass of :class:`JaxGame`:

- ``_init(key)``: a new game, dealt from ``key``;
- ``_step(state, action)``: the state after the player to move takes ``action``, known to be
  legal: the next player, the next legal mask, this step's ``rewards``, ``terminated``;
- ``_observe(state, seat)``: what ``seat`` knows, as an array.

A game may write ``_move(state, action, go)`` instead of ``_step``: the state after
``action`` where ``go`` is set, and where it is not, the game's own fields as they were (the
shared fields are then the base's business). The base's ``_move`` steps with ``_step`` and
selects between the new state and the old, field by field, which under ``vmap`` costs as much
as the step itself; a game whose step already picks each field with ``jnp.where`` from flags
of what the move is (a card played, a bid...) gets ``go`` for free by folding it into those
flags (Mediatore's engine does: its batched step runs twice as fast that way).

:meth:`JaxGame.step` wraps ``_step`` in what every game does the same way, as pgx's
``Env.step`` does:

- a finished state (``terminated`` or ``truncated``) steps to itself, with zero rewards;
- an illegal action (off the legal mask, or not an action id at all) ends the game at once
  and leaves the rest of the state as it was: its mover pays ``illegal_penalty`` to each other
  seat, so the rewards still sum to zero (pgx gives the mover the penalty and each other
  seat ``num_players - 1`` times its opposite, which is the same at two players and sums to
  zero only there), and ``current_player`` becomes -1;
- the legal mask of a finished state is all True (pgx's convention: a policy that normalises
  over the legal actions never divides by zero; an action there changes nothing);
- ``_step_count`` counts the steps taken in a game not yet finished (an illegal one too).

Every function is pure and branch-free on traced values (the cases are chosen with
``jnp.where``), so ``jax.jit`` and ``jax.vmap`` apply to the game as they are; the game
object holds only static configuration. :mod:`.autoreset` builds the training loop's step
on :meth:`JaxGame.init` and :meth:`JaxGame.step`, for every game.
"""

from __future__ import annotations

import dataclasses

import jax
import jax.numpy as jnp

NONE = -1  # no seat, no card (Python's None): ``current_player`` once the game is over


def one_hot(index: jax.Array, size: int) -> jax.Array:
    """bool[size]: True at ``index``, all False when ``index`` is NONE (or out of range)."""
    return jnp.arange(size) == index


def row(rows: jax.Array, index: jax.Array) -> jax.Array:
    """``rows[index]`` of a bool matrix (a seat's hand of ``hands``), picked by a one-hot mask
    rather than indexed: under ``vmap`` an index by a traced value is a gather, a loop on a
    CPU, and the mask a few vector operations; all False when ``index`` is NONE."""
    return (rows & one_hot(index, rows.shape[0])[:, None]).any(axis=0)


@jax.tree_util.register_dataclass
@dataclasses.dataclass(frozen=True)
class State:
    """The fields every JAX game's state has, under pgx's names (docs/jax.md maps them to the
    Python engines' ``to_move``, ``is_over``, ``legal_moves()``, ``outcome``). A game's state
    is a subclass with its own fields after these, registered as a pytree the same way."""

    current_player: jax.Array       # int32: the seat to move, -1 once the game is over
    legal_action_mask: jax.Array    # bool[num_actions]: the legal actions; all True once over
    rewards: jax.Array              # float32[num_players]: what each seat got on this step
    terminated: jax.Array           # bool: the game is over
    truncated: jax.Array            # bool: cut short (no game of this project is)
    _step_count: jax.Array          # int32: steps taken while the game was on

    @classmethod
    def start(cls, current_player, legal_action_mask, num_players: int, **fields) -> "State":
        """A game's first state: ``current_player`` to move, ``legal_action_mask``, the
        game's own ``fields``, no rewards yet, not over, no step taken."""
        return cls(current_player=jnp.asarray(current_player, jnp.int32),
                   legal_action_mask=legal_action_mask,
                   rewards=jnp.zeros(num_players, jnp.float32),
                   terminated=jnp.asarray(False), truncated=jnp.asarray(False),
                   _step_count=jnp.asarray(0, jnp.int32), **fields)

    def _replace(self, **fields) -> "State":
        """A copy with ``fields`` changed (the pure update of every transition, as pgx writes
        it)."""
        return dataclasses.replace(self, **fields)


class JaxGame:
    """A game as pure JAX functions (see the module docstring). A subclass sets
    ``num_players``, ``num_actions``, ``observation_shape`` and ``illegal_penalty`` (what an
    illegal action costs its mover, per other seat) and writes ``_init``, ``_step`` and
    ``_observe``; ``_refuse`` may add the game's own marks of a game ended by an illegal
    action."""

    num_players: int
    num_actions: int
    observation_shape: tuple[int, ...]
    illegal_penalty: float

    @property
    def reward_unit(self) -> float:
        """The outcome a trainer scales its rewards by (self-play's ``reward_scale`` is the
        reward of this outcome): the largest a seat can have, ``illegal_penalty``, where that
        is a fair measure of the game's outcomes (a game whose largest is not says so)."""
        return self.illegal_penalty

    def init(self, key: jax.Array) -> State:
        """A new game, dealt from ``key``."""
        return self._init(key)

    def step(self, state: State, action) -> State:
        """The state after the player to move takes ``action`` (an action id), with the
        shared handling of a finished state and of an illegal action (module docstring)."""
        action = jnp.asarray(action, jnp.int32)
        action_id = jnp.clip(action, 0, self.num_actions - 1)  # a number off the ids: illegal
        legal = state.legal_action_mask[action_id] & (action == action_id)
        over = state.terminated | state.truncated
        go, refused = legal & ~over, ~legal & ~over
        counted = state._replace(_step_count=state._step_count + ~over)
        moved = self._move(counted, action_id, go)
        # The shared fields of a state not moved (finished, or about to be refused): as they
        # were, with nothing paid.
        moved = moved._replace(
            rewards=jnp.where(go, moved.rewards, 0).astype(state.rewards.dtype),
            terminated=jnp.where(go, moved.terminated, state.terminated),
            truncated=jnp.where(go, moved.truncated, state.truncated),
            current_player=jnp.where(go, moved.current_player, state.current_player))
        # Only the fields _refuse changes differ between the two: the others select nothing.
        out = jax.tree.map(lambda a, b: jnp.where(refused, a, b), self._refuse(moved), moved)
        # One pass over the mask: the game's end as one flag first.
        return out._replace(
            legal_action_mask=out.legal_action_mask | (out.terminated | out.truncated))

    def observe(self, state: State, seat) -> jax.Array:
        """What ``seat`` knows of ``state``, as the game's observation array."""
        return self._observe(state, seat)

    def _refuse(self, state: State) -> State:
        """``state`` ended by an illegal action of its player to move: the mover pays
        ``illegal_penalty`` to each other seat; nothing else changes but the game being over."""
        mover = jnp.arange(self.num_players) == state.current_player
        rewards = jnp.where(mover, 1 - self.num_players, 1) * self.illegal_penalty
        return state._replace(rewards=rewards.astype(state.rewards.dtype),
                              terminated=jnp.asarray(True),
                              current_player=jnp.asarray(NONE, jnp.int32))

    def _init(self, key: jax.Array) -> State:
        raise NotImplementedError(f"{type(self).__name__} has no _init(key)")

    def _step(self, state: State, action: jax.Array) -> State:
        raise NotImplementedError(f"{type(self).__name__} has no _step(state, action)")

    def _move(self, state: State, action: jax.Array, go: jax.Array) -> State:
        """The state after the player to move takes ``action`` if ``go``, else ``state`` (the
        base's: ``_step``, then a select over every field; see the module docstring)."""
        return jax.tree.map(lambda new, old: jnp.where(go, new, old),
                            self._step(state, action), state)

    def _observe(self, state: State, seat) -> jax.Array:
        raise NotImplementedError(f"{type(self).__name__} has no _observe(state, seat)")
