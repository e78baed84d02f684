"""The search of the exchange: which cards a declarer removes from its hand -- the 4 discards
and, in Mediatore, the card passed back to the giver -- to keep the best hand by a score that
is a sum over suits.

The greedy agent's exchange (agents/mediatore/greedy.py) and the contract tables' frozen table policy
(:mod:`.tables`) both search this way, each with its own score.
"""

from __future__ import annotations

from typing import Callable

from ..core.cards import bit, highest
from .moves import GIVE, discard_move, give_move
from .nine_tricks import discards_left


def best_removal(hand: int, removals: int, give: bool,
                 suit_value: Callable[[int, int, int], float],
                 give_choice: Callable[[int], tuple[int, float]],
                 tolerance: float = 0.0) -> tuple[int, int | None]:
    """(the cards to remove from ``hand``, a bitset of ``removals`` of its cards; the one of
    them passed back to the giver, or None unless ``give``).

    A removal scores the sum over the four suits of ``suit_value(suit, kept, removed)`` --
    ``kept`` the 10-bit pattern of powers the hand keeps in the suit, ``removed`` the cards
    removed from it (a bitset) -- plus, in the suit of the card passed back, the change that
    ``give_choice(removed)`` returns with the card of ``removed`` it passes back. The best
    removal is found exactly: every subset of each suit, combined suit by suit by dynamic
    programming over the number of cards removed (and whether the card passed back is among
    them). On a tie the combination found first stays: a later one replaces it only when it
    scores more than ``tolerance`` higher.
    """
    # (cards removed, card passed back among them) -> (score, cards removed, card passed back)
    best = {(0, False): (0.0, 0, None)}
    for suit in range(4):
        shift = 10 * suit
        pattern = hand >> shift & 1023
        options = []  # (count, passes back, score, cards removed, card passed back)
        sub = pattern
        while True:  # every subset of the suit's cards
            n = sub.bit_count()
            if n <= removals:
                removed = sub << shift
                value = suit_value(suit, pattern & ~sub, removed)
                options.append((n, False, value, removed, None))
                if give and n:
                    g, change = give_choice(removed)
                    options.append((n, True, value + change, removed, g))
            if sub == 0:
                break
            sub = (sub - 1) & pattern
        new = {}
        for (k, gave), (value, removed, g) in best.items():
            for n, gives, v, bits, g2 in options:
                if k + n > removals or (gave and gives):
                    continue
                key = (k + n, gave or gives)
                total = value + v
                if key not in new or total > new[key][0] + tolerance:
                    new[key] = (total, removed | bits, g if g is not None else g2)
        best = new
    _, removed, g = best[(removals, give)]
    return removed, g


def exchange_move(view, plan: Callable[[int, int, bool], tuple[int, int | None]]) -> int:
    """The declarer's move in the discard or give phase, by ``plan(hand, removals, give)`` ->
    (the cards to remove, the one of them passed back or None), a policy's own
    :func:`best_removal`: in the give phase the card passed back; in the discard phase the
    highest card still to discard of the removal planned for the hand as it is now."""
    if view.phase == GIVE:
        _, g = plan(view.hand, 1, True)
        return give_move(g)
    give = view.giver is not None
    removed, g = plan(view.hand, discards_left(view) + give, give)
    if g is not None:
        removed &= ~bit(g)
    return discard_move(highest(removed))
