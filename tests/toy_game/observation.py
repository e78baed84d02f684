"""The toy game's observation writer: ``observation(view) -> {"observation", "action_mask"}``
from one seat's :class:`~.game.ToyView` alone, seat-relative (the observer is 0, the next to
play after it 1, ...). With ``n`` players:

===========  ===============================================================================
length       block
===========  ===============================================================================
6            the rules: one-hot ``players``, then ``hands``, then ``scoring``
n            the dealer of the hand, relative
n            the seat to move, relative (zeros at chance and at the end)
40           the observer's hand
40           the cards played this hand
3 * n * 40   ``(slot * n + r) * 40 + card``: the card relative seat r played to each trick
3 * n        ``slot * n + r``: who led each trick
n            each relative seat's points / (20 per hand)
2            one-hot: the hand being played (1st, 2nd)
===========  ===============================================================================
"""

from __future__ import annotations

import numpy as np

from mediatore_env.core.cards import NUM_CARDS

from .game import HAND_SIZE
from .moves import NUM_MOVES
from .rules import ToyRules

POINTS_PER_HAND = 20


def layout(n: int) -> dict[str, int]:
    """The offset of each block with ``n`` players, and ``"size"``."""
    sizes = {"rules": sum(map(len, ToyRules.SWITCHES.values())), "dealer": n, "to_move": n,
             "hand": NUM_CARDS, "played": NUM_CARDS, "tricks": HAND_SIZE * n * NUM_CARDS,
             "leaders": HAND_SIZE * n, "points": n, "hand_number": 2}
    offsets, at = {}, 0
    for block, size in sizes.items():
        offsets[block], at = at, at + size
    return {**offsets, "size": at}


def write_observation(view) -> np.ndarray:
    n, me, rules = view.players, view.seat, view.rules
    at = layout(n)
    out = np.zeros(at["size"], np.float32)

    def rel(seat: int) -> int:
        return (seat - me) % n

    base = at["rules"]
    for switch, values in ToyRules.SWITCHES.items():
        out[base + values.index(getattr(rules, switch))] = 1
        base += len(values)
    out[at["dealer"] + rel(view.dealer)] = 1
    if view.to_move is not None and view.to_move >= 0:
        out[at["to_move"] + rel(view.to_move)] = 1
    for card in range(NUM_CARDS):
        out[at["hand"] + card] = view.hand >> card & 1
    tricks = [(t.leader, t.cards) for t in view.tricks]
    if view.trick:
        tricks.append((view.leader, view.trick))
    for slot, (leader, cards) in enumerate(tricks):
        out[at["leaders"] + slot * n + rel(leader)] = 1
        for k, card in enumerate(cards):
            out[at["tricks"] + (slot * n + rel(leader + k)) * NUM_CARDS + card] = 1
            out[at["played"] + card] = 1
    for seat, points in enumerate(view.points):
        out[at["points"] + rel(seat)] = points / (POINTS_PER_HAND * rules.hands)
    if view.hand_number:
        out[at["hand_number"] + view.hand_number - 1] = 1
    return out


def action_mask(view) -> np.ndarray:
    mask = np.zeros(NUM_MOVES, np.int8)
    mask[view.legal_moves()] = 1
    return mask


def observation(view) -> dict:
    return {"observation": write_observation(view), "action_mask": action_mask(view)}
