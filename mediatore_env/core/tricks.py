"""Tricks as every game of the Tressette family plays them: no trumps, follow suit if able,
the highest card of the suit led wins.

Cards are ids ``suit * 10 + power`` (:mod:`.cards`), so within a suit the larger id wins.
Hands are bitsets.

What a seat reads of the hands from the tricks played is here too: :func:`tricks_so_far` (a
view's tricks, the one on the table last) and :func:`plays_and_voids` (who played which card,
who showed void in which suit), the first deduction of every game's world sampler and agents.
"""

from __future__ import annotations

from typing import NamedTuple, Sequence

from .cards import BIT_OF, CARD_NAMES, SUIT_MASKS, SUIT_OF


class Trick(NamedTuple):
    """A finished trick of any game of the family: who led, the cards in playing order from
    the leader, who won it, and the signal given with the lead (Mediatore's signals, whose
    names are ``mediatore.rules.SIGNAL_NAMES``; 0, no signal, in the games without them)."""

    leader: int
    cards: tuple[int, ...]
    winner: int
    signal: int = 0

    def card_of(self, seat: int) -> int:
        """The card ``seat`` played to this trick."""
        return self.cards[(seat - self.leader) % len(self.cards)]

    def to_dict(self, signals: Sequence[str] | None = None) -> dict:
        """The trick in a game record: ``{"leader", "cards", "winner"}``, the cards as texts,
        with the signal's name (of ``signals``) after the cards in a game that has them."""
        out: dict = {"leader": self.leader, "cards": [CARD_NAMES[c] for c in self.cards]}
        if signals is not None:
            out["signal"] = signals[self.signal]
        out["winner"] = self.winner
        return out

    def __repr__(self):
        signal = f" signal={self.signal}" if self.signal else ""
        return (f"Trick(leader={self.leader}, {' '.join(CARD_NAMES[c] for c in self.cards)}"
                f"{signal}, winner={self.winner})")


def trick_winner(leader: int, cards: Sequence[int], players: int = 4) -> int:
    """Seat winning a trick: the one that played the highest card of the suit led (no
    trumps). ``cards`` are in playing order from ``leader``'s, at a table of ``players``
    seats; for a trick still in progress, the seat winning it so far."""
    # SUIT_OF rather than suit_of(): this runs once a trick in the engine and in every node
    # of the solver's pure-Python search.
    suit = SUIT_OF[cards[0]]
    best = 0
    for i in range(1, len(cards)):
        c = cards[i]
        if SUIT_OF[c] == suit and c > cards[best]:
            best = i
    return (leader + best) % players


def follow_suit(hand: int, led: int) -> int:
    """The cards of ``hand`` that may be played to a trick led with the card ``led``: those
    of the suit led if the hand holds any, else every card (no obligation to win)."""
    follow = hand & SUIT_MASKS[SUIT_OF[led]]
    return follow or hand


def playable(hand: int, trick: Sequence[int]) -> int:
    """The cards of ``hand`` that may be played to ``trick`` (its cards so far): any when
    leading, else as :func:`follow_suit`."""
    return follow_suit(hand, trick[0]) if trick else hand


def playable_cards(hand: int, trick: Sequence[int]) -> list[int]:
    """The cards of :func:`playable` as ids in ascending order (the engines' legal plays)."""
    mask, out = playable(hand, trick), []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def tricks_so_far(view) -> list[tuple[int, tuple[int, ...]]]:
    """The current hand's tricks as ``(leader, cards)``, in playing order: ``view``'s finished
    ones (``view.tricks``), then the trick on the table (``view.leader``, ``view.trick``) if a
    card is on it."""
    tricks = [(t.leader, t.cards) for t in view.tricks]
    if view.trick:
        tricks.append((view.leader, tuple(view.trick)))
    return tricks


def plays_and_voids(tricks, players: int) -> tuple[list[int], list[int]]:
    """What ``tricks`` (``(leader, cards)`` in playing order, ``players`` seats) show of the
    hands: by seat, the cards it played, and the suits it showed void in by not following the
    suit led (their cards), both bitsets. Without draws a void lasts; two-handed Tressette's
    stock may give the suit back, so its sampler and greedy date the voids."""
    # This runs at every decision of the greedy and PIMC agents: by table, no calls, and suits
    # compared as small ints (an operation on a 40-bit int makes a new int).
    played_by, voids = [0] * players, [0] * players
    for leader, cards in tricks:
        led = SUIT_OF[cards[0]]
        seat = leader
        for card in cards:
            played_by[seat] |= BIT_OF[card]
            if SUIT_OF[card] != led:
                voids[seat] |= SUIT_MASKS[led]
            seat = (seat + 1) % players
    return played_by, voids
