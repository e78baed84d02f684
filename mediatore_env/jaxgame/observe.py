"""One seat's observation from the JAX state: the 2132 float32 values of layout version 3,
bit-identical to the Python engine's (:mod:`mediatore_env.mediatore.reference` is the
specification of every value; the comments name its blocks).

What a seat may know is decided here as :class:`~mediatore_env.mediatore.view.SeatView`
decides it (``_alone``, ``_partner``, the monte and the exchange), written with ``jnp.where``
over the state's arrays; then every block is built whole, as bools, the blocks are joined in
the order of ``mediatore.layout.LAYOUT`` and made float32, and the few values that are fractions
(the thirds and tricks taken) are written in. Seats are relative to the observer: relative
seat ``r`` is the seat ``(observer + r) % 4``.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from ..mediatore.layout import LAYOUT, OBSERVATION_SIZE, OFFSETS, S_THIRDS, S_TRICKS, SLOTS, TABLE
from ..core.cards import NUM_CARDS
from ..mediatore.moves import END, PHASE_NAMES
from ..mediatore.nine_tricks import NUM_TRICKS
from ..mediatore.rules import CHIAMO, CONTRACTS, MEDIATORE, NUM_SIGNALS
from .state import NONE, State, one_hot, row
from .tricks import TrickState
from .tables import MONTE_ALL, MONTE_DECLARER, MONTE_NONE, THIRDS_VALUE, TRICKS_VALUE, RulesTables

# SeatView.alone as a number: not known yet, the declarer has a partner, plays alone.
_UNKNOWN, _NOT_ALONE, _ALONE = -1, 0, 1
_F32 = jnp.float32
_SLOT = np.arange(SLOTS)
# Where the values that are not 0 or 1 lie: the sides' thirds, then each seat block's thirds
# and tricks.
_FRACTIONS = np.array([OFFSETS["side_thirds"], OFFSETS["side_thirds"] + 1]
                      + [OFFSETS[f"seat_{r}"] + k for r in range(4) for k in (S_THIRDS, S_TRICKS)])
_TRICK = np.arange(NUM_TRICKS)


def write_in(values: jax.Array, at: np.ndarray, fractions: jax.Array,
             by_slices: bool | None = None) -> jax.Array:
    """``values`` with ``fractions[k]`` written at position ``at[k]`` (static, increasing).
    Two ways, each the faster on its own backend (the observation alone, docs/jax.md): on a
    GPU by joining slices, which XLA fuses with what made ``values`` (a scatter runs as a
    kernel of its own there: 89.5M against 83M observations a second, H200, batch 524,288);
    on the CPU by a scatter (``values.at[at].set``: 1.4 times the joined slices, 2 cores).
    ``by_slices`` None: the default backend's way."""
    if by_slices is None:
        by_slices = jax.default_backend() != "cpu"
    if not by_slices:
        return values.at[at].set(fractions)
    pieces, start = [], 0
    for k, index in enumerate(at):
        pieces += [values[start:index], fractions[k:k + 1]]
        start = index + 1
    return jnp.concatenate(pieces + [values[start:]])


def _alone(t: RulesTables, s: State, seat: jax.Array) -> jax.Array:
    """SeatView.alone: whether the declarer plays alone as far as ``seat`` knows."""
    chiamo_seen = int(t.monte_seen[CHIAMO])
    # The declarer: the called card in its hand (it is the holder) or in a monte it took or saw
    # tells it plays alone; held by another seat, it knows it has a partner if it took the monte.
    if_monte = _ALONE if chiamo_seen != MONTE_NONE else _UNKNOWN
    declarer_knows = jnp.where(s.holder == NONE, if_monte,
                               _NOT_ALONE if t.chiamo_monte else _UNKNOWN)
    others_know = jnp.where((s.holder == NONE) & (chiamo_seen == MONTE_ALL), _ALONE, _UNKNOWN)
    chiamo = jnp.where(seat == s.holder, jnp.where(seat == s.declarer, _ALONE, _NOT_ALONE),
                       jnp.where(seat == s.declarer, declarer_knows, others_know))
    public = (s.phase == END) | (s.called_played_by != NONE)
    chiamo = jnp.where(public, jnp.where(s.partner == NONE, _ALONE, _NOT_ALONE), chiamo)
    chiamo = jnp.where(s.called_card == NONE, _UNKNOWN, chiamo)
    return jnp.where(s.contract == 0, _UNKNOWN, jnp.where(s.contract != CHIAMO, _ALONE, chiamo))


def _partner(s: State, seat: jax.Array, alone: jax.Array) -> jax.Array:
    """SeatView.partner: the declarer's partner if ``seat`` knows who it is, else -1."""
    known = (s.phase == END) | (s.called_played_by != NONE) | (seat == s.partner)
    return jnp.where((s.partner != NONE) & (alone == _NOT_ALONE) & known, s.partner, NONE)


def _lookup(table: np.ndarray, index: jax.Array) -> jax.Array:
    """``table[index]`` for a small table, as a one-hot sum (a gather costs more under vmap)."""
    return jnp.where(np.arange(len(table)) == index[..., None], table, 0.0).sum(axis=-1)


def seat_blocks(s: TrickState, me: jax.Array) -> tuple[jax.Array, jax.Array, jax.Array]:
    """The four seat blocks of the layout (``seat_0`` .. ``seat_3``, what each relative seat
    did in the deal's play), for the deal of ``s`` seen by seat ``me``: bool[4, SEAT_LEN] with
    the two fractions left 0, and those fractions' thirds and tricks taken (int32[4] each) by
    relative seat. Club Mediatore's observation has the same blocks."""
    def rel_seat(abs_seat):
        return jnp.where(abs_seat == NONE, NONE, (abs_seat - me) % 4)

    rotation = (me + np.arange(4)[:, None]) % 4 == np.arange(4)[None, :]
    played = s.card_seat != NONE
    on_table = s.trick_len > 0
    finished = _TRICK < s.tricks_done
    # By relative seat: the cards played, as 40 * slot + card, in one compare over [seat *
    # 10 + slot, card] (the slot of a card: its trick, or the table while the trick is on it);
    # the slots led and won; thirds and tricks taken.
    card_slot = jnp.where(s.card_trick == s.tricks_done, TABLE, s.card_trick)
    code = jnp.where(played, rel_seat(s.card_seat) * SLOTS + card_slot, NONE)
    cards = (code[None, :] == np.arange(4 * SLOTS)[:, None]).reshape(4, SLOTS * NUM_CARDS)
    leader_of_slot = jnp.concatenate([jnp.where(finished, s.trick_leaders, NONE),
                                      jnp.where(on_table, s.leader, NONE)[None]])
    winner_of_slot = jnp.where(finished, s.trick_winners, NONE)
    relative = np.arange(4)[:, None]
    thirds_rel = jnp.where(rotation, s.thirds_won[None, :], 0).sum(axis=1)
    tricks_rel = jnp.where(rotation, s.tricks_won[None, :], 0).sum(axis=1)
    by_seat = jnp.concatenate([
        cards,
        rel_seat(leader_of_slot)[None, :] == relative,
        rel_seat(winner_of_slot)[None, :] == relative,
        jnp.zeros((4, 2), bool),                  # thirds and tricks, written by the caller
    ], axis=1)
    return by_seat, thirds_rel, tricks_rel


def observe(t: RulesTables, s: State, seat, by_slices: bool | None = None) -> jax.Array:
    """float32[2132]: the observation of ``seat`` (mediatore.reference.write_observation).
    ``by_slices``: how the fractions are written in (:func:`write_in`; None: the faster way
    on the default backend)."""
    me = jnp.asarray(seat, jnp.int32)

    def rel_seat(abs_seat):
        """``abs_seat`` as the observer sees it (-1 stays -1)."""
        return jnp.where(abs_seat == NONE, NONE, (abs_seat - me) % 4)

    def rel(abs_seat):
        """One-hot of ``abs_seat`` as the observer sees it (all 0 for -1)."""
        return one_hot(rel_seat(abs_seat), 4)

    # rotation[r, a]: relative seat r is absolute seat a.
    rotation = (me + np.arange(4)[:, None]) % 4 == np.arange(4)[None, :]
    blocks = {}
    blocks["rules"] = jnp.asarray(t.rules_block > 0)
    blocks["dealer"] = rel(s.dealer)
    blocks["phase"] = one_hot(s.phase, len(PHASE_NAMES))
    blocks["to_move"] = rel(s.current_player)
    blocks["hand"] = row(s.hands, me)
    # bids[contract - 1, seat], seats rotated to the observer's.
    blocks["auction"] = (s.bids[:, None, :] & rotation[None, :, :]).any(axis=2).reshape(-1)
    has_contract = s.contract != 0
    blocks["contract"] = one_hot(s.contract - 1, len(CONTRACTS))
    blocks["declarer"] = rel(jnp.where(has_contract, s.declarer, NONE))
    blocks["called_card"] = one_hot(s.called_card, NUM_CARDS)
    blocks["giver"] = rel(s.giver)

    alone = _alone(t, s, me)
    partner = _partner(s, me, alone)
    blocks["partnership"] = jnp.concatenate([
        jnp.stack([alone == _ALONE, alone == _NOT_ALONE]), rel(partner)])

    # SeatView.monte_seen: after the call (Chiamo, Mediatore) or the auction, by the rules.
    who = _lookup(t.monte_seen, s.contract)
    looked = has_contract & ~(((s.contract == CHIAMO) | (s.contract == MEDIATORE))
                              & (s.called_card == NONE))
    sees = looked & ((who == MONTE_ALL) | ((who == MONTE_DECLARER) & (me == s.declarer)))
    blocks["monte_seen"] = s.original_monte & sees
    over = s.phase == END
    blocks["discards"] = s.discards & ((me == s.declarer) | over)
    knows_given = (me == s.declarer) | (me == s.giver)
    blocks["given_back"] = one_hot(jnp.where(knows_given, s.given_back, NONE), NUM_CARDS)
    blocks["final_monte"] = s.monte & over & has_contract

    # The sides' thirds, once the observer knows the sides.
    thirds = s.thirds_won
    side = (np.arange(4) == s.declarer) | ((np.arange(4) == partner) & (partner != NONE))
    ours = jnp.where(side, thirds, 0).sum()
    sides_known = (alone == _ALONE) | (partner != NONE)
    side_thirds = jnp.where(
        sides_known, _lookup(THIRDS_VALUE, jnp.stack([ours, thirds.sum() - ours])), 0.0)
    blocks["side_thirds"] = jnp.zeros(2, bool)   # written below, with the other fractions

    # The play: the signals of each slot; each relative seat's block (seat_blocks).
    played = s.card_seat != NONE
    blocks["played"] = played
    on_table = s.trick_len > 0
    finished = _TRICK < s.tricks_done
    signal_of_slot = jnp.concatenate([
        jnp.where(finished, s.trick_signals, NONE),
        jnp.where(on_table, (s.trick_signals * (_TRICK == s.tricks_done)).sum(), NONE)[None]])
    blocks["signals"] = (np.arange(NUM_SIGNALS)[None, :] == signal_of_slot[:, None]).reshape(-1)
    by_seat, thirds_rel, tricks_rel = seat_blocks(s, me)
    # The blocks are 0 or 1 but for a few fractions: they are joined as bools (a quarter of
    # the bytes of float32) and made float32 once, then the fractions are written in place.
    # The four seat blocks close the layout, all of them in by_seat.
    ones = jnp.concatenate([blocks[name] for name, _, _ in LAYOUT[:-len(by_seat)]]
                           + [by_seat.reshape(-1)])
    assert ones.shape == (OBSERVATION_SIZE,)
    fractions = jnp.concatenate([side_thirds, jnp.stack([_lookup(THIRDS_VALUE, thirds_rel),
                                                         _lookup(TRICKS_VALUE, tricks_rel)],
                                                        axis=1).reshape(-1)])
    return write_in(ones.astype(_F32), _FRACTIONS, fractions, by_slices)
