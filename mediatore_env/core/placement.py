"""Cards placed at random where they may lie: the counting sampler under every game's worlds.

A seat that cannot see some cards knows, for each of them, the places it may lie (a hand not
void in its suit, the monte, the stock) and how many cards each place holds. :class:`Placement`
counts the placements that fit and draws one uniformly, without rejection: Mediatore's
:class:`~mediatore_env.mediatore.worlds.WorldSampler` and the Tressette and club samplers
(``tressette/worlds.py``, ``club/worlds.py``) all deal their hidden cards with it.
"""

from __future__ import annotations

import bisect
import math

from .cards import NUM_CARDS, cards_of

_FACTORIAL = tuple(math.factorial(n) for n in range(NUM_CARDS + 1))


class Placement:
    """Hidden cards dealt to places (hands, a monte, a stock...) uniformly at random among every
    way that fits: each place has room for ``caps[l]`` more cards beside those ``fixed`` there,
    and each hidden card may lie only at the places of its bitmask ``allowed[card]``.

    The cards with the same places form a class; :attr:`weight` counts the ways to deal every
    class (a product of multinomials, summed over how each class is shared among its places,
    memoised), and :meth:`deal` draws one of them with exactly that weight, so every fitting
    placement is equally likely and none is rejected. The largest class goes last, dealt into
    whatever room is left without enumerating its shares."""

    __slots__ = ("fixed", "classes", "caps", "last", "memo", "choices", "weight")

    def __init__(self, fixed: list[int], allowed: dict[int, int], caps: list[int]):
        self.fixed = fixed  # the cards known to be at each location (bitsets)
        groups: dict[int, list[int]] = {}
        for card, locs in allowed.items():
            groups.setdefault(locs, []).append(card)
        # The largest class last: it is dealt without enumerating (whatever room is left).
        self.classes = sorted(((cards, tuple(l for l in range(len(self.fixed)) if locs >> l & 1))
                               for locs, cards in groups.items()), key=lambda c: len(c[0]))
        self.caps = tuple(caps)
        self.last = len(self.classes) - 1
        self.memo: dict = {}
        self.choices: dict = {}
        self.weight = self.ways(0, self.caps) if min(caps) >= 0 else 0

    def ways(self, i: int, caps: tuple) -> int:
        """Ways to deal classes ``i..`` into the room ``caps`` left at each location."""
        if i > self.last:
            return 0 if any(caps) else 1
        key = (i, caps)
        w = self.memo.get(key)
        if w is None:
            cards, locs = self.classes[i]
            n = len(cards)
            if i == self.last:
                w = 0
                if sum(caps[l] for l in locs) == n and sum(caps) == n:
                    w = _FACTORIAL[n]
                    for l in locs:
                        w //= _FACTORIAL[caps[l]]
            else:
                options, w = [], 0
                for split in _splits(n, locs, caps):
                    rest = list(caps)
                    multi = _FACTORIAL[n]
                    for l, k in zip(locs, split):
                        rest[l] -= k
                        multi //= _FACTORIAL[k]
                    v = multi * self.ways(i + 1, tuple(rest))
                    if v:
                        w += v
                        options.append((w, split, tuple(rest)))
                self.choices[key] = ([o[0] for o in options], options)
            self.memo[key] = w
        return w

    def deal(self, rng) -> list[int]:
        """One uniformly drawn placement of the hidden cards: the five locations' cards."""
        where = list(self.fixed)
        caps = self.caps
        for i, (cards, locs) in enumerate(self.classes):
            if i == self.last:
                split = tuple(caps[l] for l in locs)
            else:
                totals, options = self.choices[(i, caps)]
                j = bisect.bisect_right(totals, rng.random() * totals[-1]) if len(totals) > 1 else 0
                _, split, caps = options[min(j, len(options) - 1)]
            cards = cards[:]
            start = 0
            for l, k in zip(locs, split):
                for j in range(start, start + k):  # a partial Fisher-Yates shuffle
                    pick = j + int(rng.random() * (len(cards) - j))
                    cards[j], cards[pick] = cards[pick], cards[j]
                    where[l] |= 1 << cards[j]
                start += k
        return where

    def allows(self, where: list[int]) -> bool:
        for l in range(len(self.fixed)):
            if where[l] & self.fixed[l] != self.fixed[l]:
                return False
        for cards, locs in self.classes:
            for c in cards:
                if not any(where[l] >> c & 1 for l in locs):
                    return False
        return True


def _splits(n: int, locs: tuple, caps: tuple):
    """Every way to share ``n`` cards among ``locs`` within their room ``caps``."""
    if len(locs) == 1:
        if n <= caps[locs[0]]:
            yield (n,)
        return
    for k in range(min(n, caps[locs[0]]) + 1):
        for rest in _splits(n - k, locs[1:], caps):
            yield (k, *rest)


def shuffled(mask: int, rng) -> list[int]:
    """The cards of bitset ``mask`` in an order drawn uniformly by ``rng`` (anything with a
    ``random()`` method)."""
    cards = cards_of(mask)
    for j in range(len(cards) - 1, 0, -1):
        k = int(rng.random() * (j + 1))
        cards[j], cards[k] = cards[k], cards[j]
    return cards


def pick(mask: int, k: int, rng) -> int:
    """``k`` cards of bitset ``mask`` chosen uniformly at random, as a bitset (a partial
    Fisher-Yates shuffle from the lowest card: ``k`` draws of ``rng.random()``)."""
    cards = cards_of(mask)
    out = 0
    for j in range(k):
        pick = j + int(rng.random() * (len(cards) - j))
        cards[j], cards[pick] = cards[pick], cards[j]
        out |= 1 << cards[j]
    return out
