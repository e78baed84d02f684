"""Tricks as every game of the family plays them, in JAX: follow suit, the trick's winner, card
points in thirds, and the bookkeeping of a card played to a trick. The JAX transcription of
:mod:`mediatore_env.core.tricks` (and of the card facts of :mod:`mediatore_env.core.cards`),
written once for every JAX game: Mediatore, the three Tressette forms and club Mediatore play
their cards through :func:`play_card` and deal them from :func:`shuffled_pack`.

A trick game's state is a :class:`TrickState`: the fields of :class:`.core.State`, then the
trick fields below, then the game's own. Card sets are ``bool[40]`` by card id (a hand per
seat: ``bool[players, 40]``), seats and cards int32 with ``-1`` (:data:`.core.NONE`) for none,
as in every JAX state of this package.
"""

from __future__ import annotations

import dataclasses
from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np

from ..core.cards import NUM_CARDS, POINTS, SUIT_OF, validate_pack
from . import core
from .core import NONE, one_hot


def bools(mask: int) -> np.ndarray:
    """A card bitset of the Python engines (bit ``card``) as ``bool[40]``."""
    return np.array([mask >> c & 1 for c in range(NUM_CARDS)], bool)


# Facts of the pack, for every game.
POINTS_OF = np.array(POINTS, np.int32)                      # thirds of a point, by card
SUIT_OF_CARD = np.array(SUIT_OF, np.int32)                  # suit, by card


@jax.tree_util.register_dataclass
@dataclasses.dataclass(frozen=True)
class TrickState(core.State):
    """:class:`.core.State`'s fields, then the tricks of the deal (or hand) in play, the same in
    every trick game: ``players`` seats, ``T`` tricks. A game's state is a subclass with its own
    fields after these."""

    leader: jax.Array               # int32: who leads (or led) the trick in progress
    trick_cards: jax.Array          # int32[players]: the trick in progress, in playing order
    trick_len: jax.Array            # int32: cards on the table
    tricks_done: jax.Array          # int32: finished tricks
    trick_leaders: jax.Array        # int32[T]: by trick (the one in progress included)
    trick_winners: jax.Array        # int32[T]: by finished trick
    card_seat: jax.Array            # int32[40]: the seat that played each card, -1 unplayed
    card_trick: jax.Array           # int32[40]: the trick each card was played to
    thirds_won: jax.Array           # int32[players]: thirds of a point taken in tricks
    tricks_won: jax.Array           # int32[players]


def checked_deal(packs, dealer, rows: int | None, players: int, per: str = "hand") -> None:
    """Check ``packs`` (int[rows, 40]: a pack ``per`` hand or deal; int[40] where ``rows`` is
    None) and ``dealer`` as an engine's first state takes them, as far as JAX lets: their
    shape always (it is static, under ``jit`` too: too few rows would deal the last again),
    and, where they are values rather than traced (outside ``jit`` and ``vmap``), each pack
    the 40 distinct cards (the Python engines' rule, ``core.cards.validate_pack``) and the
    dealer a seat. ``ValueError`` naming what is wrong; a compiled caller answers for the
    values, as for its actions."""
    shape = (NUM_CARDS,) if rows is None else (rows, NUM_CARDS)
    if np.shape(packs) != shape:
        raise ValueError(f"bad pack{'' if rows is None else 's'}: shape {np.shape(packs)}, "
                         f"expected {shape}"
                         + ("" if rows is None else f" (a pack for each of the {rows} "
                            f"{per}s an episode can need; rows it does not reach are never "
                            "read)"))
    if isinstance(packs, jax.core.Tracer) or isinstance(dealer, jax.core.Tracer):
        return
    for i, pack in enumerate(np.asarray(packs).reshape(-1, NUM_CARDS)):
        try:  # Python numbers, so that a float is refused as the engines refuse it, not truncated
            validate_pack(pack.tolist())
        except ValueError as e:
            raise ValueError(f"{'' if rows is None else f'pack {i}: '}{e}") from None
    if np.ndim(dealer) or not 0 <= int(dealer) < players or int(dealer) != dealer:
        raise ValueError(f"bad dealer {dealer!r}; valid: 0..{players - 1}")


def shuffled_pack(key: jax.Array) -> jax.Array:
    """int32[40]: the card ids in the order of a pack shuffled by ``key``, the very pack
    ``jax.random.permutation(key, 40)`` gives (one round of its sort: fresh 32-bit keys, the
    cards in the order of their keys, ties in card order), found by ranking rather than by
    sorting: under ``vmap`` on a CPU, XLA's sort of 40 keys cost three times the ranking's
    1,600 comparisons, and a deal in the training loop is mostly its shuffle."""
    _, subkey = jax.random.split(key)
    return pack_of(jax.random.bits(subkey, (NUM_CARDS,), jnp.uint32))


def pack_of(sort_keys: jax.Array) -> jax.Array:
    """int32[40]: the cards in the order of ``sort_keys`` (uint32[40], one per card), a tie in
    card order (a stable sort's order): each card's place is the number of cards before it."""
    cards = jnp.arange(NUM_CARDS)
    place = jnp.zeros(NUM_CARDS, jnp.int32)
    for other in range(NUM_CARDS):  # a sum of 40 vectors: fused, where a 40 x 40 matrix of
        key = sort_keys[other]      # comparisons is a buffer of its own for every deal
        place = place + ((key < sort_keys) | ((key == sort_keys) & (other < cards)))
    return jnp.zeros(NUM_CARDS, jnp.int32).at[place].set(cards, unique_indices=True)


def no_tricks(players: int, num_tricks: int, leader) -> dict:
    """The trick fields of a deal (or hand) before its first card, ``leader`` to lead (-1 when
    not known yet): a dict to build or reset a :class:`TrickState` with."""
    zero = jnp.asarray(0, jnp.int32)
    return dict(
        leader=jnp.asarray(leader, jnp.int32),
        trick_cards=jnp.full(players, NONE, jnp.int32), trick_len=zero, tricks_done=zero,
        trick_leaders=jnp.where(jnp.arange(num_tricks) == 0, leader, NONE).astype(jnp.int32),
        trick_winners=jnp.full(num_tricks, NONE, jnp.int32),
        card_seat=jnp.full(NUM_CARDS, NONE, jnp.int32),
        card_trick=jnp.full(NUM_CARDS, NONE, jnp.int32),
        thirds_won=jnp.zeros(players, jnp.int32), tricks_won=jnp.zeros(players, jnp.int32))


def of_suit(by_suit: jax.Array) -> jax.Array:
    """[40]: each card gets its suit's entry of ``by_suit`` ([4]; a suit is ten consecutive
    card ids), by broadcasting (``jnp.repeat`` is a gather under ``vmap``)."""
    return jnp.broadcast_to(by_suit[:, None], (4, 10)).reshape(NUM_CARDS)


def playable(hand: jax.Array, trick_cards: jax.Array, trick_len: jax.Array) -> jax.Array:
    """bool[40]: the cards of ``hand`` that may be played to the trick on the table
    (core.tricks.playable): any when leading, else those of the suit led if the hand holds
    one, else any (no obligation to win)."""
    follow = hand & (jnp.asarray(SUIT_OF_CARD) == trick_cards[0] // 10)  # none before a lead
    return jnp.where((trick_len > 0) & follow.any(), follow, hand)


def trick_winner(leader: jax.Array, cards: jax.Array) -> jax.Array:
    """core.tricks.trick_winner: the seat that played the highest card of the suit led, of a
    complete trick ``cards`` (int32[players], in playing order from ``leader``'s)."""
    suits = cards // 10
    strength = jnp.where(suits == suits[0], cards, -1)
    return (leader + jnp.argmax(strength)) % cards.shape[0]


def thirds_of(cards: jax.Array) -> jax.Array:
    """The card points of some cards (int32[k], -1 for none), in thirds of a point."""
    return jnp.where(cards >= 0, jnp.asarray(POINTS_OF)[jnp.maximum(cards, 0)], 0).sum()


class Played(NamedTuple):
    """What a card played does to the trick fields (:func:`play_card`): ``fields``, the new
    values for ``state._replace(**fields)``; whether the card ``closes`` the trick, and then its
    ``winner`` (``winner_bit``: bool[players], all False when no trick closed); ``lead``:
    the card led the trick."""

    fields: dict
    closes: jax.Array
    winner: jax.Array
    winner_bit: jax.Array
    lead: jax.Array


def play_card(s: TrickState, seat: jax.Array, card: jax.Array, playing: jax.Array) -> Played:
    """``seat`` plays ``card`` to the trick, if ``playing`` (else nothing changes): the card on
    the table; once every seat has played, the trick to the highest card of the suit led, its
    points (in thirds) and the trick counted for the winner, who leads the next. Taking the card
    from the hand, and what the trick's end sets off (scoring, the next deal), are the game's.

    Branch-free, for every game: ``playing`` is the game's flag that the move is a card played,
    so a move of another kind (or none) leaves the fields as they were."""
    players, num_tricks = s.trick_cards.shape[0], s.trick_winners.shape[0]
    done = s.tricks_done
    card_bit = playing & one_hot(card, NUM_CARDS)
    trick_cards = jnp.where(playing & one_hot(s.trick_len, players), card, s.trick_cards)
    trick_len = s.trick_len + playing
    closes = trick_len == players
    winner = trick_winner(s.leader, trick_cards)
    winner_bit = one_hot(winner, players) & closes
    trick_bit = one_hot(done, num_tricks)
    tricks_done = done + closes
    next_bit = one_hot(tricks_done, num_tricks) & closes
    fields = dict(
        leader=jnp.where(closes, winner, s.leader).astype(jnp.int32),
        trick_cards=jnp.where(closes, NONE, trick_cards),
        trick_len=jnp.where(closes, 0, trick_len),
        tricks_done=tricks_done,
        trick_leaders=jnp.where(next_bit, winner, s.trick_leaders),
        trick_winners=jnp.where(closes & trick_bit, winner, s.trick_winners),
        card_seat=jnp.where(card_bit, seat, s.card_seat),
        card_trick=jnp.where(card_bit, done, s.card_trick),
        thirds_won=s.thirds_won + jnp.where(winner_bit, thirds_of(trick_cards), 0),
        tricks_won=s.tricks_won + winner_bit)
    return Played(fields, closes, winner, winner_bit, playing & (s.trick_len == 0))
