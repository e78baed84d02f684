"""What one seat can deduce about the cards it cannot see, from its :class:`~.view.SeatView`.

:func:`deduce` reads a view once and returns a :class:`Knowledge`: plain, immutable facts that
the world sampler (:mod:`.worlds`), the greedy agent and PIMC all build on, so each rule of
deduction is written here once:

- every card played, and by whom; every seat's hand size;
- voids: a seat that did not follow suit holds no card of that suit, nor does a leader whose
  signal said its card was the last of the suit (volo, in the standard codes);
- the other statements of signals (:data:`~.rules.SIGNAL_MEANINGS`): a card a leader's signal
  placed in its hand (busso and ribusso in the alternative code) is still there until played;
  a striscio says the leader kept a low card of the suit, which stays an open fact until the
  leader plays one;
- the called card: in the partner's hand once the seat knows the partner (Chiamo); in
  Mediatore given openly to the declarer (so in its hand or its discards);
- the monte as far as the seat saw it, where it went (the declarer's hand or the new monte,
  or back to the giver in Mediatore), and the monte now where the seat knows it;
- the card passed back in Mediatore, known to the declarer and the giver; to the others,
  which cards it may have been.

A seat's facts about its own hand are its hand: the facts of other seats' signals are listed,
those of its own are not.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from ..core.cards import BIT_OF, bit, highest
from ..core.tricks import plays_and_voids, tricks_so_far
from .moves import AUCTION, CALL, END, PLAY
from .rules import CHIAMO, MEDIATORE, signal_claim

if TYPE_CHECKING:
    from .view import SeatView


class Knowledge(NamedTuple):
    """What seat ``seat`` knows and deduces about where the cards lie now (see the module
    docstring). Card sets are bitsets (cards.py); seats are 0..3."""

    seat: int
    hand: int
    #: every seat's number of cards in hand now
    sizes: tuple[int, int, int, int]
    #: every card played, and the cards each seat has played
    played: int
    played_by: tuple[int, int, int, int]
    #: cards each seat cannot hold: the suits it showed out of, by not following or by volo
    voids: tuple[int, int, int, int]
    #: (seat, card): a card still in another seat's hand, in this order: the card passed back
    #: (with the giver), the called card (with the known Chiamo partner), the cards placed by
    #: signals (alternative busso and ribusso) in the order they were made
    held: tuple[tuple[int, int], ...]
    #: (seat, cards): another seat holds at least one of these cards (a striscio not yet
    #: answered by playing one of them)
    holds_one_of: tuple[tuple[int, int], ...]
    contract: int | None
    declarer: int | None
    called: int | None
    giver: int | None
    #: the declarer has taken the monte (Chiamo, Mediatore, Solo, after the call)
    taken: bool
    #: Mediatore: the declarer has passed a card back to the giver
    gave: bool
    #: the original monte if this seat saw it, else 0
    monte_seen: int
    #: the monte as it lies now (the declarer's discards, the monte the Solissimo declarer
    #: looked at, the monte turned over at the end) if this seat knows it, else None
    monte: int | None
    #: Mediatore: the card passed back, if this seat knows it (the declarer, the giver)
    given_back: int | None
    #: cards that went to the declarer and that only the declarer's pool (its hand or the new
    #: monte) can hold, besides the one card it may have passed back: the monte seen, and in
    #: Mediatore the called card. 0 for the declarer, which knows where each of them is
    pool_only: int
    #: the cards of ``pool_only`` one of which the giver may hold, passed back to it, where
    #: this seat cannot tell which card was passed back (0 when it can, or when the giver has
    #: already shown it: played it, or a signal placed it in its hand)
    back_pool: int


def deduce(view: "SeatView") -> Knowledge:
    """What ``view``'s seat knows and deduces now about where every card lies."""
    me = view.seat
    code = view.rules.signals
    contract, declarer, called, giver = view.contract, view.declarer, view.called_card, view.giver
    phase, played = view.phase, view.played
    taken = (contract is not None and phase not in (AUCTION, CALL)
             and view.rules.takes_monte(contract))
    gave = giver is not None and phase in (PLAY, END)
    monte_seen = view.monte_seen
    given_back = view.given_back

    # Every card played, and what the plays and then the signals say about the hands. (This
    # runs at every card the greedy and PIMC agents play: card bits by table, BIT_OF[c], which
    # makes no new int.)
    tricks = tricks_so_far(view)
    played_by, voids = plays_and_voids(tricks, 4)
    claims = []  # (leader, cards it said it kept at least one of, the cards played by then)
    # Each trick's signal, the one on the table last (zip drops it while no card is there).
    signals = [t.signal for t in view.tricks] + [view.trick_signal]
    by_then = 0  # the cards played up to the trick being read, that trick included
    for (leader, cards), signal in zip(tricks, signals):
        before = by_then
        for c in cards:
            by_then |= BIT_OF[c]
        if signal:
            claim = signal_claim(code, signal, cards[0], before)
            if claim is not None:
                voids[leader] |= claim.none_of
                if claim.one_of is not None:
                    claims.append((leader, claim.one_of, by_then))

    held = []
    if given_back is not None and gave and not played >> given_back & 1 and me != giver:
        held.append((giver, given_back))
    if contract == CHIAMO and called is not None and not played >> called & 1:
        partner = view.partner
        if partner is not None and partner != me:
            held.append((partner, called))
    holds_one_of = []
    for seat, cards, by_then in claims:
        if seat == me or played_by[seat] & ~by_then & cards:
            continue  # its own hand, or the leader has since played the card (one of them)
        if cards.bit_count() == 1:
            held.append((seat, highest(cards)))
        else:
            holds_one_of.append((seat, cards & ~played))

    if phase == END and contract is not None:
        monte = view.final_monte
    elif taken and me == declarer:
        monte = view.discards
    elif contract is not None and not taken and monte_seen:
        monte = monte_seen  # Solissimo: the declarer looked at it and put it back
    else:
        monte = None

    pool_only = 0
    if taken and me != declarer:
        pool_only = monte_seen
        if contract == MEDIATORE and called is not None:
            pool_only |= bit(called)
    # The giver's own cards hold none of the pool, so a pool card it played, or a signal
    # placed in its hand, was the card passed back: then no other can be.
    back_pool = 0
    if gave and me not in (declarer, giver) and given_back is None:
        shown = played_by[giver]
        for seat, c in held:
            if seat == giver:
                shown |= bit(c)
        if not shown & pool_only:
            back_pool = pool_only

    return Knowledge(me, view.hand, view.hand_sizes, played, tuple(played_by), tuple(voids),
                     tuple(held), tuple(holds_one_of), contract, declarer, called, giver, taken,
                     gave, monte_seen, monte, given_back, pool_only, back_pool)
