"""The toy game's observation writer: ``observation(view) -> {"observation", "action_mask"}``
from one seat's :class:`~.game.ToyView` alone, seat-relative (the observer is 0).

=======  ======  ===========================================================================
offset   length  block
=======  ======  ===========================================================================
0        4       the rules: one-hot ``hands`` (2, 1), then one-hot ``scoring``
4        2       the dealer of the hand, relative
6        2       the seat to move, relative (zeros at chance and at the end)
8        40      the observer's hand
48       40      the cards played this hand
88       240     ``(slot * 2 + r) * 40 + card``: the card relative seat r played to each trick
328      6       ``slot * 2 + r``: who led each trick
334      2       each relative seat's points / (20 per hand)
336      2       one-hot: the hand being played (1st, 2nd)
=======  ======  ===========================================================================
"""

from __future__ import annotations

import numpy as np

from mediatore_env.core.cards import NUM_CARDS

from .game import PLAYERS
from .moves import NUM_MOVES
from .rules import SWITCHES

RULES, DEALER, TO_MOVE, HAND, PLAYED, TRICKS, LEADERS, POINTS, HAND_NUMBER = (
    0, 4, 6, 8, 48, 88, 328, 334, 336)
OBSERVATION_SIZE = 338
POINTS_PER_HAND = 20


def write_observation(view) -> np.ndarray:
    out = np.zeros(OBSERVATION_SIZE, np.float32)
    me = view.seat

    def rel(seat: int) -> int:
        return (seat - me) % PLAYERS

    rules = view.rules
    out[RULES + SWITCHES["hands"].index(rules.hands)] = 1
    out[RULES + 2 + SWITCHES["scoring"].index(rules.scoring)] = 1
    out[DEALER + rel(view.dealer)] = 1
    if view.to_move is not None and view.to_move >= 0:
        out[TO_MOVE + rel(view.to_move)] = 1
    for card in range(NUM_CARDS):
        out[HAND + card] = view.hand >> card & 1
    tricks = [(leader, cards) for leader, cards, _ in view.tricks]
    if view.trick:
        tricks.append((view.leader, view.trick))
    for slot, (leader, cards) in enumerate(tricks):
        out[LEADERS + slot * PLAYERS + rel(leader)] = 1
        for k, card in enumerate(cards):
            out[TRICKS + (slot * PLAYERS + rel(leader + k)) * NUM_CARDS + card] = 1
            out[PLAYED + card] = 1
    for seat, points in enumerate(view.points):
        out[POINTS + rel(seat)] = points / (POINTS_PER_HAND * rules.hands)
    if view.hand_number:
        out[HAND_NUMBER + view.hand_number - 1] = 1
    return out


def action_mask(view) -> np.ndarray:
    mask = np.zeros(NUM_MOVES, np.int8)
    mask[view.legal_moves()] = 1
    return mask


def observation(view) -> dict:
    return {"observation": write_observation(view), "action_mask": action_mask(view)}
