"""``MediatoreJax``: the JAX engine for one table's rules, a :class:`.core.JaxGame`.

It supplies only what is Mediatore's own: the deal (``_init``, and ``init_from_pack`` for a
given pack), a move (``_move``: the engine's step, which leaves the deal as it was where the
base says not to move) and the observation (``_observe``); the base's ``step`` handles a
finished deal and an illegal move as every JAX game does. The object holds only
static configuration (the rules and their arrays, :mod:`.tables`); its methods are pure
functions of their array arguments, so ``jax.jit(env.step)`` and ``jax.vmap(env.step)`` work
as they are.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp

from ..mediatore.layout import OBSERVATION_SIZE
from ..mediatore.moves import END, NUM_MOVES
from ..mediatore.rules import Rules
from . import engine
from .core import JaxGame
from .observe import observe
from .state import State
from .tables import RulesTables


class MediatoreJax(JaxGame):
    """One deal of Mediatore under ``rules`` (a Rules object, a preset name, a dict of switches
    or None for the standard game), as pure JAX functions."""

    num_players = 4
    num_actions = NUM_MOVES
    observation_shape = (OBSERVATION_SIZE,)

    def __init__(self, rules=None):
        self.rules = Rules.coerce(rules)
        self.tables = RulesTables.of(self.rules)

    @property
    def illegal_penalty(self) -> int:
        """What an illegal move costs its mover, per other seat: the rules' largest payment."""
        return self.tables.illegal_penalty

    def init_from_pack(self, pack, dealer) -> State:
        """The deal of ``pack`` (int32[40]: card ids in pack order) by ``dealer`` (0..3)."""
        return engine.init_from_pack(self.tables, pack, dealer)

    def _init(self, key: jax.Array) -> State:
        """A deal of a pack shuffled by ``key``, dealt by a dealer drawn by ``key``."""
        return engine.init(self.tables, key)

    def _step(self, state: State, action: jax.Array) -> State:
        """The state after the seat to move plays ``action``, a legal move id of moves.py."""
        return engine.apply(self.tables, state, action)

    def _move(self, state: State, action: jax.Array, go: jax.Array) -> State:
        """``_step`` if ``go``, else the deal as it was: the engine folds ``go`` into its
        phase flags, which costs nothing (core.JaxGame's select would cost a step)."""
        return engine.apply(self.tables, state, action, go)

    def _observe(self, state: State, seat) -> jax.Array:
        """float32[2132]: what ``seat`` knows, exactly as the Python engine's observation."""
        return observe(self.tables, state, seat)

    def _refuse(self, state: State) -> State:
        """The base's end by an illegal move, in the phase of a deal over (so the observation
        shows the deal as over)."""
        return super()._refuse(state)._replace(phase=jnp.asarray(END, jnp.int32))

    def __repr__(self):
        return f"MediatoreJax({self.rules!r})"
