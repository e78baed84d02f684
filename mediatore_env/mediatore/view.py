"""What one seat knows: its hand, the public history, the monte as far as it saw it, the partner
as far as it can tell. Agents and the observation encoder read a :class:`SeatView`, never a Deal.

Knowledge follows docs/rules.md section 5 and the monte switches of section 8:

- the auction, the call, the giver in Mediatore (the card is given openly), every card played
  with its signal, and the tricks' winners are public;
- the original monte is seen by everyone, by the declarer only, or by no one, depending on the
  contract and the switches (:meth:`Rules.monte_seen_by`); the discards only by the declarer;
  the card passed back in Mediatore only by the declarer and the giver;
- in Chiamo the partner knows at once that it is the partner; the declarer knows at once
  whether it plays alone when the called card is in its own hand or in a monte it took;
  everyone learns the partnership when the called card is played (or, if it never is, at the
  end, when the monte is turned over).
"""

from __future__ import annotations

from .moves import END
from .nine_tricks import NineTricksView
from .rules import CHIAMO, MEDIATORE


class SeatView(NineTricksView):
    """A live, read-only window on a :class:`Deal` from one seat.

    It exposes only what that seat may know; it reads the deal each time it is asked, so it
    stays current as the deal goes on.
    """

    __slots__ = ()

    # -- public facts (NineTricksView's too: the seats, the trick, the tricks, the auction) ---
    contract = property(lambda self: self._game.contract)
    declarer = property(lambda self: self._game.declarer)
    giver = property(lambda self: self._game.giver)
    trick_signal = property(lambda self: self._game.trick_signal)
    payoffs = property(lambda self: self._game.payoffs)

    def play_state(self) -> tuple:
        """``(move_count, phase, to_move, hand, played, tricks, trick, leader, trick_signal,
        thirds_won, tricks_won)``: the facts an observer reads after every move, in one call
        (the properties of the same names; the observation encoder's hot path). The four
        sequences are the deal's own lists, not copies: read them, do not keep or change them."""
        d = self._game
        return (len(d.history), d.phase, d.to_move, d.hands[self.seat], d.played,
                d.tricks, d.trick, d.leader, d.trick_signal, d.thirds_won, d.tricks_won)

    # -- private knowledge (GameView's too: the hand, the legal moves) -----------------------

    @property
    def monte_seen(self) -> int:
        """The original monte as a bitset if this seat has seen it, else 0."""
        d = self._game
        if d.contract is None or (d.contract in (CHIAMO, MEDIATORE) and d.called_card is None):
            return 0  # the monte is looked at after the call, never before
        who = d.rules.monte_seen_by(d.contract)
        if who == "all" or (who == "declarer" and self.seat == d.declarer):
            return d.original_monte
        return 0

    @property
    def final_monte(self) -> int:
        """The monte that goes to the last trick's winner: turned over at the end, else 0."""
        d = self._game
        return d.monte if d.phase == END and d.contract is not None else 0

    @property
    def discards(self) -> int:
        """The declarer's discards (the new monte), known to the declarer only."""
        d = self._game
        return d.discards if self.seat == d.declarer or d.phase == END else 0

    @property
    def given_back(self) -> int | None:
        """Mediatore: the card passed back to the giver, known to declarer and giver only."""
        d = self._game
        if self.seat in (d.declarer, d.giver):
            return d.given_back
        return None

    @property
    def alone(self) -> bool | None:
        """Whether the declarer plays alone, as far as this seat knows (None: not known yet)."""
        d = self._game
        if d.contract is None:
            return None
        if d.contract != CHIAMO:
            return True
        if d.called_card is None:
            return None
        if d.phase == END or d.called_played_by is not None:
            return d.partner is None
        if self.seat == d.holder:
            return self.seat == d.declarer
        if self.seat == d.declarer:
            if d.holder is None:  # in the monte: known if the declarer took or saw it
                return True if d.rules.monte_seen_by(CHIAMO) != "none" else None
            return False if d.rules.chiamo_monte else None
        if d.holder is None and d.rules.monte_seen_by(CHIAMO) == "all":
            return True
        return None

    @property
    def partner(self) -> int | None:
        """The declarer's partner if this seat knows who it is, else None."""
        d = self._game
        if d.partner is None or self.alone is not False:
            return None
        if d.phase == END or d.called_played_by is not None or self.seat == d.partner:
            return d.partner
        return None
