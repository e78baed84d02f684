"""Worlds a seat of a Tressette game cannot tell from the real one: the current hand's pack
dealt again as that seat could imagine it, drawn uniformly at random (the search agents and
OpenSpiel's ``resample_from_infostate`` draw their worlds here).

A :class:`HandSampler` reads one :class:`~.view.TressetteView` and nothing else:

- the seat's own 10 cards as dealt, and every card played this hand and by whom;
- voids: a seat that did not follow the suit led held no card of it then (and so, without
  draws, none of it since);
- the melds declared after the first trick, compulsory (docs/rules.md 10.1): their cards were
  in the declarer's hand as dealt, and a seat's hand as dealt had exactly the melds it
  declared, no more;
- two-handed, the draws from the stock: each card drawn lies at its place in the stock; a card
  the seat did not see drawn (``show_draws=False``) was drawn by the other player after the
  trick it follows, so it was not in its hand before then;
- three-handed, the dead hand: any 10 of the cards never seen.

Every card not seen lies anywhere those facts allow (a seat's hand as dealt, the dead hand,
the stock still to draw, a draw not seen), each placement equally likely:
:class:`~mediatore_env.core.placement.Placement` counts the placements that fit the voids and
the known cards and draws one uniformly, and a placement whose hands as dealt would have
declared other melds is drawn again (rejection keeps the draw uniform over the worlds that
fit). Within a hand as dealt, and within the stock still to draw, the order of the pack is
shuffled too, so the pack itself is uniform among the packs that fit::

    >>> import random
    >>> from mediatore_env.tressette.game import TressetteGame
    >>> from mediatore_env.tressette.rules import TressetteRules
    >>> game = TressetteGame(TressetteRules(players=3), dealer=2)
    >>> game.deal(list(range(40)))
    >>> pack, moves = HandSampler(game.view(0)).sample(random.Random(1))
    >>> sorted(pack[:5] + pack[20:25]) == [*range(5), *range(20, 25)], moves  # seat 0's cards
    (True, [])
"""

from __future__ import annotations

import random
from typing import Sequence

from ..core.cards import ALL_CARDS, bit, cards_of, suit_of
from ..core.placement import Placement, shuffled
from ..core.tricks import tricks_so_far
from .game import DEAD, DEAL_TARGETS, STOCK
from .melds import melds_of
from .moves import CLAIM
from .rules import HAND_SIZE

#: The hands that a placement draws before one fits the melds declared.
TRIES = 10_000


class HandSampler:
    """Packs of the current hand that seat ``view.seat`` cannot tell from the real one, drawn
    uniformly (see the module docstring). Places: seats ``0..players-1`` are the hands as
    dealt; place ``players`` is the dead hand (three-handed) or the stock still to draw
    (two-handed); places after it are the draws the seat did not see, in order."""

    def __init__(self, view):
        if view.needs_pack or not view.hands_played:
            raise ValueError("no hand is in play: the next hand's pack is not dealt yet")
        rules = view.rules
        self.players = n = rules.players
        self.seat = me = view.seat
        hand = view.hands_played[-1]
        self.dealer = hand["dealer"]
        # Every play as (seat, card, trick number from 1), and every void as (seat, suit, trick):
        # dated, where core.tricks.plays_and_voids is not, because two-handed a seat may draw
        # from the stock a suit it showed void in.
        plays, voids = [], []
        for number, (leader, cards) in enumerate(tricks_so_far(view), 1):
            led = suit_of(cards[0])
            for i, card in enumerate(cards):
                seat = (leader + i) % n
                plays.append((seat, card, number))
                if suit_of(card) != led:
                    voids.append((seat, led, number))
        self.moves = [card for _, card, _ in plays] + ([CLAIM] if view.claimant is not None
                                                       else [])
        self.draws = hand["draws"]  # (seat, card or None), the stock's cards in order
        hidden_slots = [i for i, (_, card) in enumerate(self.draws) if card is None]
        extra = n  # the dead hand or the stock still to draw
        places = n + 1 + len(hidden_slots)
        fixed = [0] * places
        fixed[me] = view.dealt
        for declared in hand["melds"]:
            fixed[declared.seat] |= declared.meld.cards
        drawn_seen = 0
        for seat, card in self.draws:
            if card is not None:
                drawn_seen |= bit(card)
        self.melds = [[d.meld for d in hand["melds"] if d.seat == s] for s in range(n)]
        self.melds_complete = _declarations(view, hand, n)

        # The trick after which each place's cards came into a hand: 0 for the hands as
        # dealt; a draw not seen, the trick it follows (two draws after each trick).
        since = {slot: 1 + i // 2 for slot, i in enumerate(hidden_slots, n + 1)}
        last_void = {}  # (seat, suit) -> the last trick the seat showed out of the suit
        for seat, suit, number in voids:
            last_void[seat, suit] = max(number, last_void.get((seat, suit), 0))

        def places_for(card: int, seat_filter, played_at: int | None) -> int:
            """The places where ``card`` may lie: a seat's hand as dealt unless the seat was
            void in its suit while it would have held it, a draw not seen if drawn after
            the seat's last void in the suit (and before it was played)."""
            suit = suit_of(card)
            locs = 0
            for seat in seat_filter:
                void = max((t for s, x, t in voids if s == seat and x == suit
                            and (played_at is None or t < played_at)), default=0)
                if not void:
                    locs |= 1 << seat
                for slot, after in since.items():
                    if self.draws[hidden_slots[slot - n - 1]][0] != seat:
                        continue
                    if after >= void and (played_at is None or after < played_at):
                        locs |= 1 << slot
            return locs

        allowed = {}
        for seat, card, number in plays:
            if seat == me or drawn_seen >> card & 1 or any(f >> card & 1 for f in fixed):
                continue
            if hidden_slots:  # two-handed, draws not seen: dealt, or drawn before it was played
                allowed[card] = places_for(card, (seat,), number)
            else:
                fixed[seat] |= bit(card)
        known = drawn_seen
        for f in fixed:
            known |= f
        others = [s for s in range(n) if s != me]
        for card in cards_of(ALL_CARDS & ~known):
            if card in allowed:
                continue
            allowed[card] = places_for(card, others, None) | (1 << extra if n != 4 else 0)
        caps = [HAND_SIZE - fixed[s].bit_count() for s in range(n)]
        caps[me] = 0
        caps.append(HAND_SIZE if n == 3 else rules.stock_size - len(self.draws))
        caps.extend(1 for _ in hidden_slots)
        self.hidden_slots = hidden_slots
        self.placement = Placement(fixed, allowed, caps)
        if not self.placement.weight:
            raise ValueError(f"no world fits what seat {me} knows: {view!r}")

    def count(self) -> int:
        """How many placements of the unseen cards fit the voids and the cards known (the
        melds aside): the worlds the seat cannot tell apart, before the melds' check."""
        return self.placement.weight

    def fits_melds(self, dealt: Sequence[int]) -> bool:
        """Whether hands as dealt ``dealt`` (by seat) declare the melds that were declared."""
        for seat, complete in self.melds_complete:
            melds = melds_of(dealt[seat])
            declared = self.melds[seat]
            if melds[:len(declared)] != declared or (complete and len(melds) != len(declared)):
                return False
        return True

    def sample_world(self, rng=None) -> list[int]:
        """Where every card lay, drawn uniformly: the places of the class docstring."""
        rng = rng or random.Random()
        for _ in range(TRIES):
            where = self.placement.deal(rng)
            if self.fits_melds(where[:self.players]):
                return where
        raise RuntimeError(f"no hand fitting the melds declared found in {TRIES} draws")

    def sample(self, rng=None) -> tuple[list[int], list[int]]:
        """``(pack, moves)``: a pack of the current hand drawn uniformly among those the seat
        cannot tell from the real one, and the hand's moves so far (the same as the real
        ones: every move of Tressette is seen by all)."""
        rng = rng or random.Random()
        where = self.sample_world(rng)
        n = self.players
        stock = list(self.draws)
        for slot, i in enumerate(self.hidden_slots, n + 1):
            stock[i] = (stock[i][0], cards_of(where[slot])[0])
        rest = shuffled(where[n], rng) if n == 2 else []
        stock_cards = iter([card for _, card in stock] + rest)
        sources = {seat: iter(shuffled(where[seat], rng)) for seat in range(n)}
        sources[DEAD] = iter(shuffled(where[n], rng) if n == 3 else [])
        pack = []
        for target in DEAL_TARGETS[n][self.dealer]:
            pack.append(next(stock_cards if target == STOCK else sources[target]))
        return pack, list(self.moves)


def _declarations(view, hand: dict, n: int) -> list[tuple[int, bool]]:
    """The seats whose melds were declared, each with whether all of them were: every seat
    once the first trick is over, except when the game ended during the declarations (at 31)
    -- then the seats before the last declarer in full, the last declarer in part."""
    if not hand["tricks"]:
        return []
    if not (view.is_over and len(hand["tricks"]) == 1 and view.claimant is None):
        return [(seat, True) for seat in range(n)]
    melds = hand["melds"]
    if not melds:
        return []  # the first trick's points ended the game before any meld
    first = hand["tricks"][0]
    order = [first.winner] + [(first.leader + k) % n for k in range(n)
                              if (first.leader + k) % n != first.winner]
    last = order.index(melds[-1].seat)
    return [(seat, True) for seat in order[:last]] + [(order[last], False)]


def redeal(view, rng=None) -> tuple[list[int], list[int]]:
    """The current hand's ``(pack, moves)`` dealt again as ``view``'s seat could imagine it:
    :meth:`HandSampler.sample` (the registry's ``worlds`` of the Tressette games)."""
    return HandSampler(view).sample(rng)

