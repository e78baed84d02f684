"""The observation of a plain trick game (:class:`~mediatore_env.core.trickgame.PlainTrickGame`),
written once: :func:`trick_observation` ``(view) -> {"observation", "action_mask"}`` from one
seat's :class:`~mediatore_env.core.trickgame.PlainView` alone, seat-relative (the observer
is 0, the next to play after it 1, ...). With ``n`` players, ``k`` cards a hand and ``h``
hands a game:

===========  ===============================================================================
length       block
===========  ===============================================================================
r            the rules: one-hot each switch with choices, in the order of the rules' fields
n            the dealer of the hand, relative
n            the seat to move, relative (zeros at chance and at the end)
40           the observer's hand
40           the cards played this hand
k * n * 40   ``(slot * n + r) * 40 + card``: the card relative seat r played to each trick
k * n        ``slot * n + r``: who led each trick
n            each relative seat's points, over the most a seat can score in the game
h            one-hot: the hand being played
===========  ===============================================================================

The action mask has one entry a card (move ``c`` plays card ``c``).
"""

from __future__ import annotations

import numpy as np

from ..core.cards import NUM_CARDS
from ..core.tricks import tricks_so_far
from .actions import action_mask

__all__ = ["trick_observation", "layout"]


def layout(view) -> dict[str, int]:
    """The offset of each block for ``view``'s game and rules, and ``"size"``."""
    n, k = view.players, view.hand_size
    sizes = {"rules": sum(len(s.choices) for s in view.rules.switches()), "dealer": n,
             "to_move": n, "hand": NUM_CARDS, "played": NUM_CARDS,
             "tricks": k * n * NUM_CARDS, "leaders": k * n, "points": n,
             "hand_number": view.rules.hands}
    offsets, at = {}, 0
    for block, size in sizes.items():
        offsets[block], at = at, at + size
    return {**offsets, "size": at}


def write_observation(view) -> np.ndarray:
    """The observation vector of :func:`trick_observation`."""
    n, me, rules = view.players, view.seat, view.rules
    at = layout(view)
    out = np.zeros(at["size"], np.float32)

    def rel(seat: int) -> int:
        return (seat - me) % n

    base = at["rules"]
    for switch in rules.switches():
        if switch.choices:
            out[base + switch.choices.index(getattr(rules, switch.name))] = 1
            base += len(switch.choices)
    out[at["dealer"] + rel(view.dealer)] = 1
    if view.to_move is not None and view.to_move >= 0:
        out[at["to_move"] + rel(view.to_move)] = 1
    for card in range(NUM_CARDS):
        out[at["hand"] + card] = view.hand >> card & 1
    for slot, (leader, cards) in enumerate(tricks_so_far(view)):
        out[at["leaders"] + slot * n + rel(leader)] = 1
        for k, card in enumerate(cards):
            out[at["tricks"] + (slot * n + rel(leader + k)) * NUM_CARDS + card] = 1
            out[at["played"] + card] = 1
    most = rules.hands * view.scoring.most_per_hand(view.hand_size)
    for seat, points in enumerate(view.points):
        out[at["points"] + rel(seat)] = points / most
    if view.hand_number:
        out[at["hand_number"] + view.hand_number - 1] = 1
    return out


def trick_observation(view) -> dict:
    """``{"observation": write_observation(view), "action_mask": one int8 a card, 1 where
    legal}``."""
    return {"observation": write_observation(view),
            "action_mask": action_mask(view, NUM_CARDS)}
