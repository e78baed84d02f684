"""Tricks as every game of the Tressette family plays them: no trumps, follow suit if able,
the highest card of the suit led wins.

Cards are ids ``suit * 10 + power`` (:mod:`.cards`), so within a suit the larger id wins.
"""

from __future__ import annotations

from typing import Sequence


def trick_winner(leader: int, cards: Sequence[int]) -> int:
    """Seat winning a complete trick: the highest card of the suit led (no trumps)."""
    suit = cards[0] // 10
    best = 0
    for i in range(1, 4):
        c = cards[i]
        if c // 10 == suit and c > cards[best]:
            best = i
    return (leader + best) % 4
