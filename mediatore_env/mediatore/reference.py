"""One seat's observation vector written from scratch from its SeatView: the reference writer.

:func:`write_observation` fills the layout of :mod:`.layout` block by block, top to bottom,
from a :class:`~mediatore_env.mediatore.view.SeatView` alone, keeping nothing between calls --
the way OpenSpiel's games write their observation tensors. The meaning of each block is in
:mod:`.observation`'s docstring.

It shares nothing with the incremental :class:`~.observation.Encoder` but the layout's
numbers, so it is an independent check of it: the tests require the two to be equal, bit for
bit, after every move of random deals, for every seat. The environments and
:func:`.observation.observation` use the Encoder, which is faster because it writes only what
changed (see its docstring for how much).
"""

from __future__ import annotations

import numpy as np

from ..core.cards import NUM_CARDS, TOTAL_THIRDS, cards_of
from .moves import PASS
from .nine_tricks import NUM_TRICKS
from .rules import CONTRACTS, NUM_SIGNALS, SWITCHES
from .layout import (OBSERVATION_SIZE, OFFSETS, S_CARDS, S_LED, S_THIRDS, S_TRICKS, S_WON, SIZES,
                     TABLE)


def write_observation(view, out: np.ndarray | None = None) -> np.ndarray:
    """The observation vector of ``view``'s seat: float32 of length ``OBSERVATION_SIZE``,
    written into ``out`` (every value of it is overwritten) or into a fresh array."""
    if out is None:
        out = np.zeros(OBSERVATION_SIZE, np.float32)
    else:
        out[:] = 0.0
    me = view.seat

    def block(name: str) -> np.ndarray:
        """The block ``name`` of ``out`` (a numpy view: writing into it writes into ``out``)."""
        return out[OFFSETS[name]:OFFSETS[name] + SIZES[name]]

    def rel(seat: int) -> int:
        """``seat`` as the observer sees it: 0 itself, 1 the next to act (its right), 2 across,
        3 its left."""
        return (seat - me) % 4

    def write_cards(name: str, cards: int) -> None:
        """A 40-card block: 1 at each card of the bitset ``cards``."""
        values = block(name)
        for card in cards_of(cards):
            values[card] = 1.0

    # The table: its rules, the dealer, the phase, who acts, the observer's hand.
    values, start = block("rules"), 0
    for switch, choices in SWITCHES.items():
        values[start + choices.index(getattr(view.rules, switch))] = 1.0
        start += len(choices)
    block("dealer")[rel(view.dealer)] = 1.0
    block("phase")[view.phase] = 1.0
    if view.to_move is not None:
        block("to_move")[rel(view.to_move)] = 1.0
    write_cards("hand", view.hand)

    # The auction and the contract.
    for seat, bid in view.auction:
        if bid != PASS:  # a bid's move id is its contract
            block("auction")[4 * CONTRACTS.index(bid) + rel(seat)] = 1.0
    if view.contract is not None:
        block("contract")[CONTRACTS.index(view.contract)] = 1.0
        block("declarer")[rel(view.declarer)] = 1.0
    if view.called_card is not None:
        block("called_card")[view.called_card] = 1.0
    if view.giver is not None:
        block("giver")[rel(view.giver)] = 1.0

    # Who plays with whom, as far as the observer knows.
    alone, partner = view.alone, view.partner
    if alone is not None:
        block("partnership")[0 if alone else 1] = 1.0  # plays alone / has a partner
    if partner is not None:
        block("partnership")[2 + rel(partner)] = 1.0

    # The monte and the exchange, as far as the observer saw them.
    write_cards("monte_seen", view.monte_seen)
    write_cards("discards", view.discards)
    if view.given_back is not None:
        block("given_back")[view.given_back] = 1.0
    write_cards("final_monte", view.final_monte)

    # The sides' thirds, once the observer knows the sides.
    thirds = view.thirds_won
    if alone is True or partner is not None:
        ours = thirds[view.declarer] + (thirds[partner] if partner is not None else 0)
        block("side_thirds")[:] = (ours / TOTAL_THIRDS, (sum(thirds) - ours) / TOTAL_THIRDS)

    # The play: every card played, each lead's signal, and by seat what it played, led and won.
    write_cards("played", view.played)
    signals = block("signals")
    by_seat = [block(f"seat_{r}") for r in range(4)]  # by relative seat

    def write_trick(slot: int, leader: int, cards, signal: int) -> None:
        signals[NUM_SIGNALS * slot + signal] = 1.0
        by_seat[rel(leader)][S_LED + slot] = 1.0
        for i, card in enumerate(cards):  # in playing order, from the leader
            by_seat[rel(leader + i)][S_CARDS + NUM_CARDS * slot + card] = 1.0

    for slot, trick in enumerate(view.tricks):
        write_trick(slot, trick.leader, trick.cards, trick.signal)
        by_seat[rel(trick.winner)][S_WON + slot] = 1.0
    if view.trick:
        write_trick(TABLE, view.leader, view.trick, view.trick_signal)
    tricks_won = view.tricks_won
    for seat in range(4):
        by_seat[rel(seat)][S_THIRDS] = thirds[seat] / TOTAL_THIRDS
        by_seat[rel(seat)][S_TRICKS] = tricks_won[seat] / NUM_TRICKS
    return out
