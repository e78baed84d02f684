"""The state of one deal for the JAX engine: a record of fixed-shape arrays (a pytree).

It holds what :class:`~mediatore_env.mediatore.game.Deal` holds, in array form: sets of cards
are ``bool[40]`` (a hand per seat: ``bool[4, 40]``), seats and cards are int32 with ``-1`` for
"none" (Python's None), and the deal's lists (the auction, the tricks) are fixed-size arrays
with a counter. Besides the Deal's own fields it keeps what the observation reads by card
(``card_seat``, ``card_trick``: who played each card, to which trick), so that observing never
has to replay the tricks.

The fields every JAX game shares come first, from :class:`.core.State` (pgx's names:
``current_player``, ``legal_action_mask``, ``rewards``, ``terminated``, ``truncated``,
``_step_count``), then those every trick game shares, from :class:`.tricks.TrickState` (the
trick on the table, each trick's leader and winner, who played each card to which trick, the
thirds and tricks taken). The record is a frozen dataclass registered as a pytree, so a batch of
states is the same record with a leading batch axis on every field; ``state._replace(field=
value)`` is a copy with some fields changed, as pgx writes it.
"""

from __future__ import annotations

import dataclasses

import jax

from .core import NONE, one_hot, row
from .tricks import TrickState

__all__ = ["NONE", "State", "one_hot", "row"]


@jax.tree_util.register_dataclass
@dataclasses.dataclass(frozen=True)
class State(TrickState):
    """One deal: :class:`.core.State`'s fields (``current_player`` -1 once the deal is over,
    ``legal_action_mask`` bool[486], ``rewards`` float32[4]: the deal's payments on the step
    that ends it), :class:`.tricks.TrickState`'s (4 seats, 9 tricks), then the deal's own."""

    # -- the deal (Deal's fields of the same names) -------------------------------------------
    dealer: jax.Array               # int32
    phase: jax.Array                # int32: moves.AUCTION .. moves.END
    hands: jax.Array                # bool[4, 40]
    monte: jax.Array                # bool[40]: the monte now (the discards once made)
    original_monte: jax.Array       # bool[40]
    bids: jax.Array                 # bool[5, 4]: [contract - 1, seat] that seat bid that contract
    calls: jax.Array                # int32: calls of the auction so far, passes included
    high_bid: jax.Array             # int32: 0 = no bid yet
    high_bidder: jax.Array          # int32
    passes: jax.Array               # int32: passes since the last bid
    contract: jax.Array             # int32: 0 = none (thrown in, or the auction still on)
    declarer: jax.Array             # int32
    called_card: jax.Array          # int32
    holder: jax.Array               # int32: who held the called card (-1: the monte)
    partner: jax.Array              # int32: Chiamo's partner, -1 when the declarer is alone
    giver: jax.Array                # int32: Mediatore's giver of the called card
    given_back: jax.Array           # int32: Mediatore's card passed back
    discards: jax.Array             # bool[40]
    trick_signals: jax.Array        # int32[9]: the lead's signal, by trick
    called_played_by: jax.Array     # int32: who played the called card, -1 not yet
