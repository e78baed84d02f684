"""One seat's observation from the JAX state: the 2132 float32 values of layout version 3,
bit-identical to the Python engine's (:mod:`mediatore_env.codec.reference` is the
specification of every value; the comments name its blocks).

What a seat may know is decided here as :class:`~mediatore_env.mediatore.view.SeatView`
decides it (``_alone``, ``_partner``, the monte and the exchange), written with ``jnp.where``
over the state's arrays; then every block is built whole and the blocks are concatenated in
the order of ``codec.layout.LAYOUT``. Seats are relative to the observer: relative seat ``r``
is the seat ``(observer + r) % 4``.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from ..codec.layout import LAYOUT, OBSERVATION_SIZE, SLOTS, TABLE
from ..core.cards import NUM_CARDS
from ..mediatore.moves import END, NUM_TRICKS
from ..mediatore.rules import CHIAMO, MEDIATORE, NUM_SIGNALS
from .state import State
from .tables import MONTE_ALL, MONTE_DECLARER, MONTE_NONE, THIRDS_VALUE, TRICKS_VALUE, RulesTables

_NONE = -1
# SeatView.alone as a number: not known yet, the declarer has a partner, plays alone.
_UNKNOWN, _NOT_ALONE, _ALONE = -1, 0, 1
_F32 = jnp.float32
_SLOT = np.arange(SLOTS)
_TRICK = np.arange(NUM_TRICKS)


def _one_hot(index: jax.Array, size: int) -> jax.Array:
    """float32[size]: 1 at ``index``, all 0 when ``index`` is -1 (none)."""
    return (jnp.arange(size) == index).astype(_F32)


def _alone(t: RulesTables, s: State, seat: jax.Array) -> jax.Array:
    """SeatView.alone: whether the declarer plays alone as far as ``seat`` knows."""
    chiamo_seen = int(t.monte_seen[CHIAMO])
    # The declarer: the called card in its hand (it is the holder) or in a monte it took or saw
    # tells it plays alone; held by another seat, it knows it has a partner if it took the monte.
    if_monte = _ALONE if chiamo_seen != MONTE_NONE else _UNKNOWN
    declarer_knows = jnp.where(s.holder == _NONE, if_monte,
                               _NOT_ALONE if t.chiamo_monte else _UNKNOWN)
    others_know = jnp.where((s.holder == _NONE) & (chiamo_seen == MONTE_ALL), _ALONE, _UNKNOWN)
    chiamo = jnp.where(seat == s.holder, jnp.where(seat == s.declarer, _ALONE, _NOT_ALONE),
                       jnp.where(seat == s.declarer, declarer_knows, others_know))
    public = (s.phase == END) | (s.called_played_by != _NONE)
    chiamo = jnp.where(public, jnp.where(s.partner == _NONE, _ALONE, _NOT_ALONE), chiamo)
    chiamo = jnp.where(s.called_card == _NONE, _UNKNOWN, chiamo)
    return jnp.where(s.contract == 0, _UNKNOWN, jnp.where(s.contract != CHIAMO, _ALONE, chiamo))


def _partner(s: State, seat: jax.Array, alone: jax.Array) -> jax.Array:
    """SeatView.partner: the declarer's partner if ``seat`` knows who it is, else -1."""
    known = (s.phase == END) | (s.called_played_by != _NONE) | (seat == s.partner)
    return jnp.where((s.partner != _NONE) & (alone == _NOT_ALONE) & known, s.partner, _NONE)


def _cards(mask: jax.Array) -> jax.Array:
    return mask.astype(_F32)


def _lookup(table: np.ndarray, index: jax.Array) -> jax.Array:
    """``table[index]`` for a small table, as a one-hot sum (a gather costs more under vmap)."""
    return jnp.where(np.arange(len(table)) == index[..., None], table, 0.0).sum(axis=-1)


def observe(t: RulesTables, s: State, seat) -> jax.Array:
    """float32[2132]: the observation of ``seat`` (codec.reference.write_observation)."""
    me = jnp.asarray(seat, jnp.int32)

    def rel_seat(abs_seat):
        """``abs_seat`` as the observer sees it (-1 stays -1)."""
        return jnp.where(abs_seat == _NONE, _NONE, (abs_seat - me) % 4)

    def rel(abs_seat):
        """One-hot of ``abs_seat`` as the observer sees it (all 0 for -1)."""
        return _one_hot(rel_seat(abs_seat), 4)

    # rotation[r, a]: relative seat r is absolute seat a.
    rotation = (me + np.arange(4)[:, None]) % 4 == np.arange(4)[None, :]
    blocks = {}
    blocks["rules"] = jnp.asarray(t.rules_block)
    blocks["dealer"] = rel(s.dealer)
    blocks["phase"] = _one_hot(s.phase, 6)
    blocks["to_move"] = rel(s.current_player)
    blocks["hand"] = _cards((s.hands & (np.arange(4) == me)[:, None]).any(axis=0))
    # bids[contract - 1, seat], seats rotated to the observer's.
    blocks["auction"] = _cards((s.bids[:, None, :] & rotation[None, :, :]).any(axis=2)).reshape(-1)
    has_contract = s.contract != 0
    blocks["contract"] = _one_hot(s.contract - 1, 5)
    blocks["declarer"] = rel(jnp.where(has_contract, s.declarer, _NONE))
    blocks["called_card"] = _one_hot(s.called_card, NUM_CARDS)
    blocks["giver"] = rel(s.giver)

    alone = _alone(t, s, me)
    partner = _partner(s, me, alone)
    blocks["partnership"] = jnp.concatenate([
        jnp.stack([alone == _ALONE, alone == _NOT_ALONE]).astype(_F32), rel(partner)])

    # SeatView.monte_seen: after the call (Chiamo, Mediatore) or the auction, by the rules.
    who = _lookup(t.monte_seen, s.contract)
    looked = has_contract & ~(((s.contract == CHIAMO) | (s.contract == MEDIATORE))
                              & (s.called_card == _NONE))
    sees = looked & ((who == MONTE_ALL) | ((who == MONTE_DECLARER) & (me == s.declarer)))
    blocks["monte_seen"] = _cards(s.original_monte & sees)
    over = s.phase == END
    blocks["discards"] = _cards(s.discards & ((me == s.declarer) | over))
    knows_given = (me == s.declarer) | (me == s.giver)
    blocks["given_back"] = _one_hot(jnp.where(knows_given, s.given_back, _NONE), NUM_CARDS)
    blocks["final_monte"] = _cards(s.monte & over & has_contract)

    # The sides' thirds, once the observer knows the sides.
    thirds = s.thirds_won
    side = (np.arange(4) == s.declarer) | ((np.arange(4) == partner) & (partner != _NONE))
    ours = jnp.where(side, thirds, 0).sum()
    sides_known = (alone == _ALONE) | (partner != _NONE)
    blocks["side_thirds"] = jnp.where(
        sides_known, _lookup(THIRDS_VALUE, jnp.stack([ours, thirds.sum() - ours])), 0.0)

    # The play. Slot of each card played: its trick, or the table while the trick is on it.
    played = s.card_seat != _NONE
    blocks["played"] = _cards(played)
    on_table = s.trick_len > 0
    finished = _TRICK < s.tricks_done
    signal_of_slot = jnp.concatenate([
        jnp.where(finished, s.trick_signals, _NONE),
        jnp.where(on_table, (s.trick_signals * (_TRICK == s.tricks_done)).sum(), _NONE)[None]])
    blocks["signals"] = (np.arange(NUM_SIGNALS)[None, :] == signal_of_slot[:, None]).astype(
        _F32).reshape(-1)
    # By relative seat: the cards played, as 40 * slot + card, in one compare over [seat *
    # 10 + slot, card]; the slots led and won; thirds and tricks taken.
    card_slot = jnp.where(s.card_trick == s.tricks_done, TABLE, s.card_trick)
    code = jnp.where(played, rel_seat(s.card_seat) * SLOTS + card_slot, _NONE)
    cards = (code[None, :] == np.arange(4 * SLOTS)[:, None]).reshape(4, SLOTS * NUM_CARDS)
    leader_of_slot = jnp.concatenate([jnp.where(finished, s.trick_leaders, _NONE),
                                      jnp.where(on_table, s.leader, _NONE)[None]])
    winner_of_slot = jnp.where(finished, s.trick_winners, _NONE)
    relative = np.arange(4)[:, None]
    thirds_rel = jnp.where(rotation, thirds[None, :], 0).sum(axis=1)
    tricks_rel = jnp.where(rotation, s.tricks_won[None, :], 0).sum(axis=1)
    by_seat = jnp.concatenate([
        _cards(cards),
        _cards(rel_seat(leader_of_slot)[None, :] == relative),
        _cards(rel_seat(winner_of_slot)[None, :] == relative),
        _lookup(THIRDS_VALUE, thirds_rel)[:, None],
        _lookup(TRICKS_VALUE, tricks_rel)[:, None],
    ], axis=1)
    out = jnp.concatenate([blocks[name] for name, _, _ in LAYOUT[:-4]] + [by_seat.reshape(-1)])
    assert out.shape == (OBSERVATION_SIZE,)
    return out
