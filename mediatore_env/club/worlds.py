"""Worlds a seat of a club Mediatore session cannot tell from the real one: the current deal's
pack dealt again as that seat could imagine it, with the mediator's discards chosen to fit,
drawn uniformly at random (the search agents and OpenSpiel's ``resample_from_infostate`` draw
their worlds here).

A :class:`DealSampler` reads one :class:`~.view.ClubView` and nothing else:

- the seat's hand, every card played and by whom; the widow and the discards where the seat
  saw them (the mediator; everyone once the play ends);
- voids: a seat that did not follow the suit led holds no card of it (nothing is drawn after
  the widow is taken, so a void lasts);
- the call (docs/rules.md 10.3): a named card that made a partner lies with a seat other than
  the mediator until played (with this seat, if it is the partner); a named card that lay in
  the widow (the mediator plays alone without saying so) is in the mediator's hand or among
  his discards; the mediator did not hold the card he named.

Every card not seen lies anywhere those facts allow (the hands, the widow before it is taken,
the discards after), each placement equally likely
(:class:`~mediatore_env.core.placement.Placement` counts them and draws one uniformly). The
widow as dealt is then any four of the mediator's cards (with the named card, if it lay
there), the discards are made in a shuffled order, and each hand's order in the pack is
shuffled: the same number of packs fits every placement, so the pack is uniform among those
that fit::

    >>> import random
    >>> from mediatore_env.club.game import Session
    >>> session = Session(dealer=3)
    >>> session.deal(list(range(40)))
    >>> pack, moves = DealSampler(session.view(0)).sample(random.Random(1))
    >>> sorted(pack[:3] + pack[12:15] + pack[24:27]) == list(range(3)) + list(range(12, 15)) \\
    ...     + list(range(24, 27)), moves   # seat 0's nine cards, no move yet
    (True, [])
"""

from __future__ import annotations

import random

from ..core.cards import ALL_CARDS, bit, cards_of
from ..core.placement import Placement, pick, shuffled
from ..core.tricks import plays_and_voids, tricks_so_far
from ..mediatore.nine_tricks import HAND_SIZE, deal_order
from .game import DISCARDS
from .moves import ALONE, AUCTION, CALL, END, call_move, discard_move, play_move

#: Place 4: the widow before the mediator takes it, his discards after (seats are 0..3).
WIDOW = 4


class DealSampler:
    """Packs of the current deal that seat ``view.seat`` cannot tell from the real one, with
    the deal's moves so far, drawn uniformly (see the module docstring)."""

    def __init__(self, view):
        if view.to_move == -1:
            raise ValueError("no deal is in play: the next deal's pack is not dealt yet")
        self.view = view
        self.seat = me = view.seat
        mediator, called = view.mediator, view.called_card
        self.taken = taken = mediator is not None and view.phase not in (AUCTION, CALL)
        self.tricks = tricks_so_far(view)
        self.played_by, voids = plays_and_voids(self.tricks, 4)

        fixed = [0] * 5
        fixed[me] = view.hand
        if taken and (me == mediator or view.phase == END):
            fixed[WIDOW] = view.discards
        if me == mediator and taken:
            self.widow = view.widow
        sizes = view.hand_sizes
        caps = [sizes[s] - fixed[s].bit_count() for s in range(4)]
        caps[me] = 0
        # The widow's four before it is taken; after, the discards made so far: the
        # mediator took four cards in and holds or has played the rest.
        in_pool = HAND_SIZE + DISCARDS - sizes[mediator] - self.played_by[mediator].bit_count() \
            if taken else DISCARDS
        caps.append(in_pool - fixed[WIDOW].bit_count())

        known = view.played
        for f in fixed:
            known |= f
        allowed = {}
        for card in cards_of(ALL_CARDS & ~known):
            locs = 1 << WIDOW
            for seat in range(4):
                if seat != me and not voids[seat] & bit(card):
                    locs |= 1 << seat
            allowed[card] = locs
        # The named card, not played yet and not in this seat's hand.
        self.in_widow = taken and called is not None and view.alone
        if called is not None and called in allowed:
            if self.in_widow:  # it lay in the widow: the mediator's hand or discards
                allowed[called] &= 1 << mediator | 1 << WIDOW
            else:  # a partner's: another seat than the mediator
                allowed[called] &= ~(1 << mediator | 1 << WIDOW)
        self.placement = Placement(fixed, allowed, caps)
        if not self.placement.weight:
            raise ValueError(f"no world fits what seat {me} knows: {view!r}")

    def count(self) -> int:
        """How many placements of the unseen cards fit what the seat knows."""
        return self.placement.weight

    def sample_world(self, rng=None) -> list[int]:
        """Where the cards lie now, drawn uniformly: the four hands, then the widow (before
        it is taken) or the discards (after)."""
        return self.placement.deal(rng or random.Random())

    def sample(self, rng=None) -> tuple[list[int], list[int]]:
        """``(pack, moves)``: a pack of the current deal drawn uniformly among those the seat
        cannot tell from the real one, and the deal's moves so far with the discards (the one
        hidden kind of move) in an order chosen at random."""
        rng = rng or random.Random()
        view = self.view
        where = self.sample_world(rng)
        dealt = [where[s] | self.played_by[s] for s in range(4)]
        widow = where[WIDOW]
        discards = shuffled(where[WIDOW], rng) if self.taken else []
        if self.taken:
            mediator = view.mediator
            pool = dealt[mediator] | where[WIDOW]
            if self.seat == mediator:
                widow = self.widow
            elif self.in_widow:
                widow = bit(view.called_card) | pick(pool & ~bit(view.called_card), 3, rng)
            else:
                widow = pick(pool, DISCARDS, rng)
            dealt[mediator] = pool & ~widow
        hands = [iter(shuffled(hand, rng)) for hand in dealt]
        pack = [next(hands[seat]) for seat in deal_order(view.dealer)]
        pack += shuffled(widow, rng)
        moves = [move for _, move in view.auction]
        if self.taken:
            moves.append(ALONE if view.announced_alone else call_move(view.called_card))
            moves += [discard_move(card) for card in discards]
        for _, cards in self.tricks:
            moves += [play_move(card) for card in cards]
        return pack, moves


def redeal(view, rng=None) -> tuple[list[int], list[int]]:
    """The current deal's ``(pack, moves)`` dealt again as ``view``'s seat could imagine it:
    :meth:`DealSampler.sample` (the registry's ``worlds`` of club Mediatore)."""
    return DealSampler(view).sample(rng)
