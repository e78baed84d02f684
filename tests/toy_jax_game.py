"""A toy four-seat game on the JAX games' base (:mod:`mediatore_env.jaxgame.core`), as
``MediatoreJax`` is: it writes only its own ``_init``, ``_step`` and ``_observe``, and gets the
shared handling of a finished game, an illegal action and the mask once over from the base.
It tests the base (tests/test_jax_core.py) and the self-play training loop apart from the rules
of Mediatore.

Each deal has ``MOVES_PER_SEAT`` rounds; the seats move in turn from the dealer's left. Moves
0-7 are legal (the rest of the 486 ids never are). Seat ``s``'s *good* moves are ``2s`` and
``2s + 1``; at the end of the deal each seat is paid the number of good moves it made minus a
quarter of its moves (a random player's expectation), all four payments on the last step.
The observation is 2132 floats: the observing seat one-hot (absolute seat, 4) and the round
(``MOVES_PER_SEAT``), the rest zeros; the training loop also observes the seats not to move,
to bootstrap a deal cut by the rollout's end, so the seat is the one asked for.

A learner that credits each decision with its own seat's payment learns to play its seat's
good moves; one that credited the last mover would see no relation between a seat and its
payment.
"""

from __future__ import annotations

import dataclasses

import jax
import jax.numpy as jnp

from mediatore_env.jaxgame.core import NONE, JaxGame, State

NUM_ACTIONS = 486
OBS = 2132
LEGAL = 8
MOVES_PER_SEAT = 3


@jax.tree_util.register_dataclass
@dataclasses.dataclass(frozen=True)
class ToyState(State):
    dealer: jax.Array  # int32
    good: jax.Array    # int32[4]: good moves made per seat


class ToyGame(JaxGame):
    num_players = 4
    num_actions = NUM_ACTIONS
    observation_shape = (OBS,)
    illegal_penalty = MOVES_PER_SEAT  # more than any seat can win

    def _init(self, key) -> ToyState:
        dealer = jax.random.randint(key, (), 0, 4, jnp.int32)
        return ToyState.start((dealer + 1) % 4, jnp.arange(NUM_ACTIONS) < LEGAL, 4,
                              dealer=dealer, good=jnp.zeros(4, jnp.int32))

    def _step(self, state: ToyState, action) -> ToyState:
        seat = state.current_player
        good = state.good.at[seat].add((action // 2 == seat).astype(jnp.int32))
        over = state._step_count == 4 * MOVES_PER_SEAT  # the base counted this move
        pay = (good - MOVES_PER_SEAT / 4).astype(jnp.float32)
        return state._replace(current_player=jnp.where(over, NONE, (seat + 1) % 4),
                              rewards=jnp.where(over, pay, 0.0), terminated=over, good=good)

    def _observe(self, state: ToyState, seat) -> jax.Array:
        obs = jnp.zeros(OBS, jnp.float32)
        obs = obs.at[seat].set(1.0)
        return obs.at[4 + state._step_count // 4].set(1.0)
