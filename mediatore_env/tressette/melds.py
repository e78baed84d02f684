"""Melds (docs/rules.md 10.1): the napoletane and the groups of Assi, 2s and 3s in a dealt hand.

A hand is a bitset of cards (:mod:`mediatore_env.core.cards`). :func:`melds_of` lists a hand's
melds in the order a player declares them: the napoletane by suit (Denari, Coppe, Spade,
Bastoni), then the Assi, the 2s, the 3s. One card may count in a napoletana and a group::

    >>> from mediatore_env.core.cards import to_mask, parse_cards
    >>> [str(m) for m in melds_of(to_mask(parse_cards("DA D2 D3 CA SA B4")))]
    ['napoletana DA D2 D3 (3)', 'three aces DA CA SA (3)']
"""

from __future__ import annotations

from typing import NamedTuple

from ..core.cards import CARD_NAMES, RANK_LETTERS, SUITS, bit, cards_of, make_card

NAPOLETANA, ACES, TWOS, THREES = range(4)
MELD_KINDS = ("napoletana", "aces", "twos", "threes")
# The powers (core.cards) of the ranks that meld: the Asso, the 2 and the 3.
_GROUP_POWERS = {kind: RANK_LETTERS.index(rank) for kind, rank in zip((ACES, TWOS, THREES), "A23")}
NAPOLETANA_MASKS = tuple(sum(bit(make_card(s, power)) for power in _GROUP_POWERS.values())
                         for s in SUITS)
GROUP_MASKS = {kind: sum(bit(make_card(s, power)) for s in SUITS)
               for kind, power in _GROUP_POWERS.items()}
NAPOLETANA_POINTS = 3
GROUP_POINTS = {3: 3, 4: 4}  # by the number of cards of the group held


class Meld(NamedTuple):
    """One meld: its ``kind`` (an index of :data:`MELD_KINDS`), its ``cards`` (a bitset) and
    its ``points``."""

    kind: int
    cards: int
    points: int

    def __str__(self):
        cards = " ".join(CARD_NAMES[c] for c in sorted(cards_of(self.cards)))
        if self.kind == NAPOLETANA:
            return f"napoletana {cards} ({self.points})"
        many = "four" if self.cards.bit_count() == 4 else "three"
        return f"{many} {MELD_KINDS[self.kind]} {cards} ({self.points})"

    def to_dict(self) -> dict:
        return {"kind": MELD_KINDS[self.kind],
                "cards": [CARD_NAMES[c] for c in sorted(cards_of(self.cards))],
                "points": self.points}


def melds_of(hand: int) -> list[Meld]:
    """The melds of a hand (a bitset), in declaration order; ``[]`` when it has none."""
    melds = [Meld(NAPOLETANA, mask, NAPOLETANA_POINTS)
             for mask in NAPOLETANA_MASKS if hand & mask == mask]
    for kind in (ACES, TWOS, THREES):
        held = hand & GROUP_MASKS[kind]
        points = GROUP_POINTS.get(held.bit_count())
        if points:
            melds.append(Meld(kind, held, points))
    return melds
