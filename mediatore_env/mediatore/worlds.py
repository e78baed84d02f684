"""Worlds a seat cannot tell from the real one: the hidden cards dealt again, as that seat could
imagine them, drawn uniformly at random (PIMC samples worlds and solves each double dummy).
"""

from __future__ import annotations

import bisect
import math
import random
from typing import NamedTuple

from ..core.cards import ALL_CARDS, LOW_MASKS, NUM_CARDS, SUIT_MASKS, cards_of
from .game import Deal
from .moves import AUCTION, CALL, CALL_BASE, DISCARD_BASE, END, GIVE_BASE, PLAY, play_move
from .rules import BUSSO, BUSSO_MEGLIO, CHIAMO, MEDIATORE, RIBUSSO, RIBUSSO_MEGLIO, STRISCIO, VOLO
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


_FACTORIAL = tuple(math.factorial(n) for n in range(NUM_CARDS + 1))


class _Scenario:
    """Hidden cards grouped by where each may lie, with the number of ways to deal them."""

    __slots__ = ("fixed", "classes", "caps", "last", "memo", "choices", "weight")

    def __init__(self, fixed: list[int], allowed: dict[int, int], caps: list[int]):
        self.fixed = fixed  # cards known to be at each location (5 bitsets)
        groups: dict[int, list[int]] = {}
        for card, locs in allowed.items():
            groups.setdefault(locs, []).append(card)
        # The largest class last: it is dealt without enumerating (whatever room is left).
        self.classes = sorted(((cards, tuple(l for l in range(5) if locs >> l & 1))
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
                split, rest = tuple(caps[l] for l in locs), None
            else:
                totals, options = self.choices[(i, caps)]
                j = bisect.bisect_right(totals, rng.random() * totals[-1]) if len(totals) > 1 else 0
                _, split, rest = options[min(j, len(options) - 1)]
            cards = cards[:]
            start = 0
            for l, k in zip(locs, split):
                for j in range(start, start + k):  # a partial Fisher-Yates shuffle
                    pick = j + int(rng.random() * (len(cards) - j))
                    cards[j], cards[pick] = cards[pick], cards[j]
                    where[l] |= 1 << cards[j]
                start += k
            caps = rest
        return where

    def allows(self, where: list[int]) -> bool:
        for l in range(5):
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


class WorldSampler:
    """Worlds -- where every card lies now -- that one seat cannot tell from the real one,
    drawn uniformly at random (for PIMC: sample worlds, solve each double dummy).

    Built from a :class:`SeatView` alone, so it uses only what that seat knows:

    - its own hand exactly, every card played, every seat's hand size and the monte's size;
    - voids: a seat that did not follow suit, or led with *volo* (standard code), holds no
      card of that suit; *striscio* says the leader still held a low card (Re or lower) of
      the suit; in the alternative code *busso* and *ribusso* place the card they claim;
    - the monte: where the seat saw it, the original monte's cards that the declarer took are
      in the declarer's hand or in the new monte (or, in Mediatore, passed back to the giver:
      at most one card, and none if the giver has already played one of them); the declarer
      knows its discards, the Solissimo declarer the monte it looked at, everyone the monte
      turned over at the end;
    - the called card: in the partner's hand once the seat knows the partner; in Mediatore
      in the declarer's hand or discards (it was given openly, or lay in the monte or the
      declarer's own hand); the card passed back, to the declarer and the giver;

    and every card still unseen lies anywhere those facts allow, each placement equally
    likely: ``sample(rng)`` counts the placements (by classes of cards with the same possible
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
    original monte chosen to fit -- whose view from this seat equals the real one.
    """

    def __init__(self, view: "SeatView"):
        self.view = view
        self.seat = me = view.seat
        rules = view.rules
        self.contract = contract = view.contract
        self.declarer = declarer = view.declarer
        self.called = called = view.called_card
        self.giver = giver = view.giver
        phase = view.phase
        hand, played = view.hand, view.played
        sizes = list(view.hand_sizes)
        self.taken = taken = (contract is not None and phase not in (AUCTION, CALL)
                              and rules.takes_monte(contract))
        self.gave = gave = giver is not None and phase in (PLAY, END)
        self.monte_seen = view.monte_seen
        self.given_back = view.given_back

        # Every card played, by whom, and what the plays say about the hands.
        plays = []  # (seat, card, trick number)
        void = [0, 0, 0, 0]
        facts = []  # (seat, card) placed by an alternative-code signal
        musts = []  # (seat, cards, trick number): striscio, one of these was still held
        code = rules.signals
        tricks = [(t.leader, t.cards, t.signal) for t in view.tricks]
        if view.trick:
            tricks.append((view.leader, view.trick, view.trick_signal))
        before = 0
        for number, (leader, cards, signal) in enumerate(tricks):
            led = cards[0]
            suit = SUIT_MASKS[led // 10]
            for i, c in enumerate(cards):
                seat = (leader + i) % 4
                plays.append((seat, c, number))
                if i and not (1 << c) & suit:
                    void[seat] |= suit
            if signal == VOLO and code in ("standard", "no_striscio"):
                void[leader] |= suit
            elif signal == STRISCIO and code == "standard":
                musts.append((leader, LOW_MASKS[led // 10] & ~(1 << led), number))
            elif code == "alternative" and signal in (BUSSO, RIBUSSO, BUSSO_MEGLIO, RIBUSSO_MEGLIO):
                out = suit & ~(before | 1 << led)
                top = out.bit_length() - 1
                if signal in (RIBUSSO, RIBUSSO_MEGLIO):
                    top = (out & ~(1 << top)).bit_length() - 1
                facts.append((leader, top))
            for c in cards:
                before |= 1 << c
        self.played_by = played_by = [0, 0, 0, 0]
        for seat, c, _ in plays:
            played_by[seat] |= 1 << c

        # Known places.
        fixed = [0, 0, 0, 0, 0]
        fixed[me] = hand
        monte_size = NUM_CARDS - sum(sizes) - played.bit_count()
        monte_known = None
        if phase == END and contract is not None:
            monte_known = view.final_monte
        elif taken and me == declarer:
            monte_known = view.discards
        elif contract is not None and not taken and self.monte_seen:
            monte_known = self.monte_seen  # Solissimo: the declarer looked at it
        if monte_known is not None:
            fixed[MONTE] = monte_known
        back = self.given_back
        if back is not None and gave and not played >> back & 1 and me != giver:
            fixed[giver] |= 1 << back
        if contract == CHIAMO and called is not None and not played >> called & 1:
            partner = view.partner
            if partner is not None and partner != me:
                fixed[partner] |= 1 << called
        for seat, c in facts:
            if seat != me and not played_by[seat] >> c & 1:
                fixed[seat] |= 1 << c
        known = played
        for l in range(5):
            known |= fixed[l]
        hidden = ALL_CARDS & ~known
        caps = [sizes[s] - fixed[s].bit_count() for s in range(4)]
        caps.append(monte_size - fixed[MONTE].bit_count() if monte_known is None else 0)
        caps[me] = 0

        # Cards that can only be in the declarer's pool (hand or new monte).
        pool_only = 0
        if taken and me != declarer:
            pool_only = self.monte_seen
            if contract == MEDIATORE and called is not None:
                pool_only |= 1 << called
        self.pool_only = pool_only  # before removing the cards known elsewhere

        open_locs = [l for l in range(5) if caps[l] > 0]
        base = {}
        for suit in range(4):
            mask = 0
            for l in open_locs:
                if l == MONTE or not void[l] & SUIT_MASKS[suit]:
                    mask |= 1 << l
            base[suit] = mask
        pool_locs = (1 << declarer | 1 << MONTE) if declarer is not None else 0

        def allowed_of(extra_giver: bool) -> dict[int, int]:
            out = {}
            for c in cards_of(hidden):
                locs = base[c // 10]
                if pool_only >> c & 1:
                    keep = pool_locs | (1 << giver if extra_giver else 0)
                    locs &= keep
                out[c] = locs
            return out

        # Mediatore, seen by a third seat: the card passed back may be one of the pool's
        # cards (at most one), so there is one scenario per such card plus one without.
        scenarios = []
        third = gave and me not in (declarer, giver) and back is None
        if third and pool_only and not (played_by[giver] & pool_only):
            allowed = allowed_of(False)
            scenarios.append(_Scenario(fixed, allowed, caps))
            for c in cards_of(pool_only & hidden):
                if not base[c // 10] >> giver & 1:
                    continue
                f = fixed[:]
                f[giver] |= 1 << c
                cp = caps[:]
                cp[giver] -= 1
                a = dict(allowed)
                del a[c]
                scenarios.append(_Scenario(f, a, cp))
        else:
            scenarios.append(_Scenario(fixed, allowed_of(False), caps))
        self.scenarios = [s for s in scenarios if s.weight]
        if not self.scenarios:
            raise ValueError(f"no world fits what seat {me} knows: {view!r}")
        self.total = sum(s.weight for s in self.scenarios)

        # Striscio facts still open: one of these cards is in the leader's hand now.
        self.musts = []
        for seat, low, number in musts:
            if seat == me or any(s == seat and n > number and low >> c & 1 for s, c, n in plays):
                continue
            self.musts.append((seat, low & ~played))

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
        partner = None
        if self.contract == CHIAMO and self.called is not None:
            c = self.called
            for s in range(4):
                if s != self.declarer and (where[s] | self.played_by[s]) >> c & 1:
                    partner = s
        return World(tuple(where[:4]), where[MONTE], partner)

    def allows(self, world: World) -> bool:
        """Whether ``world`` (the hands and monte now) fits every fact the seat knows."""
        where = [*world.hands, world.monte]
        sizes = self.view.hand_sizes
        if any(where[s].bit_count() != sizes[s] for s in range(4)):
            return False
        everything = self.view.played
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
        hands, monte = world.hands, world.monte
        init = [hands[s] | self.played_by[s] for s in range(4)]
        declarer, giver, called = self.declarer, self.giver, self.called
        back = None
        discards = 0
        if self.taken:
            discards = monte
            if self.gave:
                back = self.given_back
                if back is None:
                    mine = init[giver] & self.pool_only
                    back = (mine.bit_length() - 1 if mine
                            else _pick(init[giver] & ~self.pool_only, 1, rng).bit_length() - 1)
                init[giver] &= ~(1 << back)
            pool = init[declarer] | discards | (1 << back if back is not None else 0)
            if giver is not None:
                init[giver] |= 1 << called
                pool &= ~(1 << called)
            original = self.monte_seen or _pick(pool, 4, rng)
            init[declarer] = pool & ~original
        else:
            original = monte
        pack = [0] * NUM_CARDS
        slots = [[i for i in range(36) if (view.dealer + 1 + i // 3) % 4 == s] for s in range(4)]
        for s in range(4):
            cards = cards_of(init[s])
            if len(cards) != 9:
                raise ValueError(f"world does not fit: seat {s} would have been dealt {len(cards)} cards")
            for i, c in zip(slots[s], cards):
                pack[i] = c
        pack[36:] = cards_of(original)
        deal = Deal(view.rules, view.dealer, pack)
        for _, bid in view.auction:
            deal.apply(bid)
        if called is not None:
            deal.apply(CALL_BASE + called)
        for c in cards_of(discards):
            deal.apply(DISCARD_BASE + c)
        if back is not None:
            deal.apply(GIVE_BASE + back)
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


def _pick(mask: int, k: int, rng) -> int:
    """``k`` cards of ``mask`` chosen uniformly at random, as a bitset."""
    cards = cards_of(mask)
    out = 0
    for j in range(k):
        pick = j + int(rng.random() * (len(cards) - j))
        cards[j], cards[pick] = cards[pick], cards[j]
        out |= 1 << cards[j]
    return out
