"""``MediatoreJax``: the JAX engine for one table's rules, in the shape of pgx's ``Env``.

The object holds only static configuration (the rules and their arrays, :mod:`.tables`); its
methods are pure functions of their array arguments, so ``jax.jit(env.step)`` and
``jax.vmap(env.step)`` work as they are.
"""

from __future__ import annotations

import jax

from ..codec.layout import OBSERVATION_SIZE
from ..mediatore.moves import NUM_MOVES
from ..mediatore.rules import Rules
from . import engine
from .observe import observe
from .state import State
from .tables import RulesTables


class MediatoreJax:
    """One deal of Mediatore under ``rules`` (a Rules object, a preset name, a dict of switches
    or None for the standard game), as pure JAX functions."""

    num_players = 4
    num_actions = NUM_MOVES
    observation_shape = (OBSERVATION_SIZE,)

    def __init__(self, rules=None):
        self.rules = Rules.coerce(rules)
        self.tables = RulesTables.of(self.rules)

    def init(self, key: jax.Array) -> State:
        """A deal of a pack shuffled by ``key``, dealt by a dealer drawn by ``key``."""
        return engine.init(self.tables, key)

    def init_from_pack(self, pack, dealer) -> State:
        """The deal of ``pack`` (int32[40]: card ids in pack order) by ``dealer`` (0..3)."""
        return engine.init_from_pack(self.tables, pack, dealer)

    def step(self, state: State, action) -> State:
        """The state after the seat to move plays ``action`` (a move id of moves.py)."""
        return engine.step(self.tables, state, action)

    def observe(self, state: State, seat) -> jax.Array:
        """float32[2132]: what ``seat`` knows, exactly as the Python engine's observation."""
        return observe(self.tables, state, seat)

    def __repr__(self):
        return f"MediatoreJax({self.rules!r})"
