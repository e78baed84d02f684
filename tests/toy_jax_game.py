"""A toy four-seat game with the JAX engine's interface (``MediatoreJax``), to test the
self-play training loop on its own, apart from the rules of Mediatore.

Each deal has ``MOVES_PER_SEAT`` rounds; the seats move in turn from the dealer's left. Moves
0-7 are legal (the rest of the 486 ids never are). Seat ``s``'s *good* moves are ``2s`` and
``2s + 1``; at the end of the deal each seat is paid the number of good moves it made minus a
quarter of its moves (a random player's expectation), all four payments on the last step.
The observation is 2132 floats: the observing seat one-hot (absolute seat, 4) and the round
(``MOVES_PER_SEAT``), the rest zeros; the training loop also observes the seats not to move,
to bootstrap a deal cut by the rollout's end, so the seat is the one asked for.

A learner that credits each decision with its own seat's payment learns to play its seat's
good moves; one that credited the last mover would see no relation between a seat and its
payment. State, init, step and observe are pure and vmap-able, as the engine's contract says.
"""

from __future__ import annotations

from typing import NamedTuple

import jax
import jax.numpy as jnp

NUM_ACTIONS = 486
OBS = 2132
LEGAL = 8
MOVES_PER_SEAT = 3


class ToyState(NamedTuple):
    current_player: jax.Array
    legal_action_mask: jax.Array
    rewards: jax.Array
    terminated: jax.Array
    dealer: jax.Array
    step_count: jax.Array
    good: jax.Array  # int32[4]: good moves made per seat


class ToyGame:
    num_players = 4
    num_actions = NUM_ACTIONS
    observation_shape = (OBS,)

    def init(self, key) -> ToyState:
        dealer = jax.random.randint(key, (), 0, 4, jnp.int32)
        return ToyState((dealer + 1) % 4, jnp.arange(NUM_ACTIONS) < LEGAL,
                        jnp.zeros(4, jnp.float32), jnp.bool_(False), dealer, jnp.int32(0),
                        jnp.zeros(4, jnp.int32))

    def step(self, state: ToyState, action) -> ToyState:
        seat = state.current_player
        good = state.good.at[seat].add((action // 2 == seat).astype(jnp.int32))
        count = state.step_count + 1
        over = count == 4 * MOVES_PER_SEAT
        pay = (good - MOVES_PER_SEAT / 4).astype(jnp.float32)
        moved = ToyState(jnp.where(over, -1, (seat + 1) % 4), state.legal_action_mask,
                         jnp.where(over, pay, 0.0), over, state.dealer, count, good)
        stay = state._replace(rewards=jnp.zeros(4, jnp.float32))
        return jax.tree_util.tree_map(lambda a, b: jnp.where(state.terminated, a, b), stay, moved)

    def observe(self, state: ToyState, seat) -> jax.Array:
        obs = jnp.zeros(OBS, jnp.float32)
        obs = obs.at[seat].set(1.0)
        return obs.at[4 + state.step_count // 4].set(1.0)
