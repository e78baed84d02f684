"""Worlds a seat cannot tell from the real one: the hidden cards dealt again, as that seat could
imagine them, drawn uniformly at random (PIMC samples worlds and solves each double dummy).
"""

from __future__ import annotations

import random
from typing import Callable, NamedTuple

from ..core.cards import ALL_CARDS, NUM_CARDS, SUIT_MASKS, bit, cards_of, highest, suit_of
from ..core.placement import Placement, pick
from .game import Deal
from .knowledge import Knowledge, deduce
from .moves import call_move, discard_move, give_move, play_move
from .nine_tricks import HAND_SIZE, deal_order
from .rules import CHIAMO
from .view import SeatView

# -- worlds: the hidden cards dealt again, as this seat could imagine them --------------------

MONTE = 4
"""Location index of the monte in :class:`WorldSampler` (seats are locations 0..3)."""


class World(NamedTuple):
    """One way the hidden cards may lie now: every seat's hand, the monte and, in Chiamo,
    the declarer's partner in that world (None: the declarer plays alone, or no Chiamo)."""

    hands: tuple[int, int, int, int]
    monte: int
    partner: int | None


class WorldSampler:
    """Worlds -- where every card lies now -- that one seat cannot tell from the real one,
    drawn uniformly at random (for PIMC: sample worlds, solve each double dummy).

    Built from a :class:`SeatView` alone, so it uses only what that seat knows: the facts
    :func:`~.knowledge.deduce` draws from the view (:attr:`knowledge`) -- its own hand, every
    card played, the hand sizes, the voids and the statements of signals, the monte as far as
    it was seen, the called card and the card passed back -- and every card still unseen lies
    anywhere those facts allow, each placement equally likely: ``sample(rng)`` counts the placements (by classes of cards with the same possible
    places) and draws one of them uniformly, without rejection, except for the rare
    *striscio* facts, checked afterwards. ``rng`` is anything with a ``random()`` method
    (``random.Random``, ``numpy.random.Generator``)::

        >>> from mediatore_env import Deal, Rules
        >>> import random
        >>> deal = Deal(Rules(), dealer=3, pack=list(range(40)))
        >>> world = WorldSampler(deal.view(0)).sample(random.Random(1))
        >>> world.hands[0] == deal.hands[0], [h.bit_count() for h in world.hands]
        (True, [9, 9, 9, 9])

    :meth:`deal` turns a world into a whole :class:`Deal` -- a pack and the same history,
    with the hidden decisions (the declarer's discards, the card passed back) and the
    original monte chosen to fit (:func:`undo_exchange`) -- whose view from this seat equals
    the real one.
    """

    def __init__(self, view: "SeatView"):
        self.view = view
        #: what the seat knows and deduces (:func:`~.knowledge.deduce`), the facts the worlds fit
        self.knowledge = k = deduce(view)
        self.seat = me = k.seat
        declarer, giver = k.declarer, k.giver
        sizes = k.sizes

        # Known places: my hand, the cards placed in other hands, the monte where known.
        fixed = [0, 0, 0, 0, 0]
        fixed[me] = k.hand
        for seat, c in k.held:
            fixed[seat] |= bit(c)
        if k.monte is not None:
            fixed[MONTE] = k.monte
        known = k.played
        for l in range(5):
            known |= fixed[l]
        hidden = ALL_CARDS & ~known
        caps = [sizes[s] - fixed[s].bit_count() for s in range(4)]
        monte_size = NUM_CARDS - sum(sizes) - k.played.bit_count()
        caps.append(monte_size if k.monte is None else 0)  # a known monte is all in fixed
        caps[me] = 0

        # Where each hidden card may lie: any location with room, but not a seat void in its
        # suit; and a card that only the declarer's pool can hold, only there (or, passed
        # back, with the giver: the scenarios below).
        pool_only = k.pool_only
        open_locs = [l for l in range(5) if caps[l] > 0]
        base = {}
        for suit in range(4):
            mask = 0
            for l in open_locs:
                if l == MONTE or not k.voids[l] & SUIT_MASKS[suit]:
                    mask |= 1 << l
            base[suit] = mask
        pool_locs = (1 << declarer | 1 << MONTE) if declarer is not None else 0
        allowed = {}
        for c in cards_of(hidden):
            locs = base[suit_of(c)]
            if pool_only >> c & 1:
                locs &= pool_locs
            allowed[c] = locs

        # Mediatore, seen by a third seat: the card passed back may be one of the pool's
        # cards (at most one), so there is one scenario per such card plus one without.
        scenarios = [Placement(fixed, allowed, caps)]
        if k.back_pool:
            for c in cards_of(k.back_pool & hidden):
                if not base[suit_of(c)] >> giver & 1:
                    continue
                f = fixed[:]
                f[giver] |= bit(c)
                cp = caps[:]
                cp[giver] -= 1
                a = dict(allowed)
                del a[c]
                scenarios.append(Placement(f, a, cp))
        self.scenarios = [s for s in scenarios if s.weight]
        if not self.scenarios:
            raise ValueError(f"no world fits what seat {me} knows: {view!r}")
        self.total = sum(s.weight for s in self.scenarios)

        # Striscio facts still open: one of these cards is in the leader's hand now.
        self.musts = list(k.holds_one_of)

    def count(self) -> int:
        """How many placements of the hidden cards fit the facts (striscio facts aside)."""
        return self.total

    def sample(self, rng=None, tries: int = 10_000) -> World:
        """A world drawn uniformly among those that fit what the seat knows."""
        if rng is None:
            rng = random.Random()
        scenarios = self.scenarios
        for _ in range(tries):
            scenario = scenarios[0]
            if len(scenarios) > 1:
                r = rng.random() * self.total
                for scenario in scenarios:
                    r -= scenario.weight
                    if r < 0:
                        break
            where = scenario.deal(rng)
            if all(where[seat] & low for seat, low in self.musts):
                return self._world(where)
        raise RuntimeError(f"no world fitting the striscio signals found in {tries} draws")

    def _world(self, where: list[int]) -> World:
        k = self.knowledge
        partner = None
        if k.contract == CHIAMO and k.called is not None:
            c = k.called
            for s in range(4):
                if s != k.declarer and (where[s] | k.played_by[s]) >> c & 1:
                    partner = s
        return World(tuple(where[:4]), where[MONTE], partner)

    def allows(self, world: World) -> bool:
        """Whether ``world`` (the hands and monte now) fits every fact the seat knows."""
        where = [*world.hands, world.monte]
        sizes = self.knowledge.sizes
        if any(where[s].bit_count() != sizes[s] for s in range(4)):
            return False
        everything = self.knowledge.played
        for l in range(5):
            if everything & where[l]:
                return False
            everything |= where[l]
        if everything != ALL_CARDS:
            return False
        if not any(s.allows(where) for s in self.scenarios):
            return False
        return all(where[seat] & low for seat, low in self.musts)

    # -- a whole deal ---------------------------------------------------------------------

    def deal(self, world: World, rng=None) -> Deal:
        """A :class:`Deal` with the same rules, dealer and history as the real one in which the
        cards lie as in ``world``: its initial hands and monte, the declarer's discards and
        the card passed back are chosen to fit (at random where the seat cannot tell).
        Raises ``ValueError`` if the world does not fit the history."""
        if rng is None:
            rng = random.Random()
        view = self.view
        dealt = undo_exchange(self.knowledge, world, lambda cards, k: pick(cards, k, rng))
        pack = [0] * NUM_CARDS
        cards = [iter(cards_of(hand)) for hand in dealt.hands]
        for s, hand in enumerate(dealt.hands):
            if hand.bit_count() != HAND_SIZE:
                raise ValueError(f"world does not fit: seat {s} would have been dealt "
                                 f"{hand.bit_count()} cards")
        for i, seat in enumerate(deal_order(view.dealer)):
            pack[i] = next(cards[seat])
        pack[4 * HAND_SIZE:] = cards_of(dealt.monte)
        deal = Deal(view.rules, view.dealer, pack)
        for _, bid in view.auction:
            deal.apply(bid)
        if view.called_card is not None:
            deal.apply(call_move(view.called_card))
        for c in cards_of(dealt.discards):
            deal.apply(discard_move(c))
        if dealt.given_back is not None:
            deal.apply(give_move(dealt.given_back))
        for t in view.tricks:
            for i, c in enumerate(t.cards):
                deal.apply(play_move(c, t.signal if i == 0 else 0))
        for i, c in enumerate(view.trick):
            deal.apply(play_move(c, view.trick_signal if i == 0 else 0))
        return deal

    def sample_deal(self, rng=None) -> Deal:
        """:meth:`sample` then :meth:`deal`: a whole deal this seat cannot tell from the real one."""
        if rng is None:
            rng = random.Random()
        return self.deal(self.sample(rng), rng)


class Dealt(NamedTuple):
    """A world before the exchange: the hands as dealt, the original monte, the declarer's
    discards (0 before or without an exchange) and the card passed back (Mediatore)."""

    hands: list[int]
    monte: int
    discards: int
    given_back: int | None


def undo_exchange(knowledge: Knowledge, world: World, choose: Callable[[int, int], int]) -> Dealt:
    """``world`` (drawn for the seat of ``knowledge``) as it was dealt: the cards each seat
    holds and has played, with the exchange undone -- in Mediatore the called card back in the
    giver's hand and the card passed back out of it, the monte the declarer took out of its
    hand. Where the seat cannot tell, ``choose(cards, k)`` picks ``k`` of ``cards`` (a bitset)
    at random: the card passed back to the giver (a card of the declarer's pool that the
    giver holds, if any, else one of the giver's own), and the original monte among the
    declarer's cards where the seat did not see it."""
    k = knowledge
    init = [world.hands[s] | k.played_by[s] for s in range(4)]
    back = None
    discards = 0
    if k.taken:
        declarer, giver = k.declarer, k.giver
        discards = world.monte
        if k.gave:
            back = k.given_back
            if back is None:
                mine = init[giver] & k.pool_only
                back = highest(mine if mine else choose(init[giver] & ~k.pool_only, 1))
            init[giver] &= ~bit(back)
        pool = init[declarer] | discards | (bit(back) if back is not None else 0)
        if giver is not None:
            init[giver] |= bit(k.called)
            pool &= ~bit(k.called)
        original = k.monte_seen or choose(pool, 4)
        init[declarer] = pool & ~original
    else:
        original = world.monte
    return Dealt(init, original, discards, back)


def redeal(view: SeatView, rng=None) -> tuple[list[int], list[int]]:
    """The deal's ``(pack, moves)`` dealt again as ``view``'s seat could imagine it, drawn
    uniformly (:meth:`WorldSampler.sample_deal`): the registry's ``worlds`` of Mediatore, as
    ``redeal`` is in the Tressette and club samplers."""
    deal = WorldSampler(view).sample_deal(rng)
    return list(deal.pack), [move for _, move in deal.history]
