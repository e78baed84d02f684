"""What one seat of a club Mediatore session knows. Agents and the observation writer read a
:class:`ClubView`, never a Session.

Knowledge follows docs/rules.md 10.3:

- the chips are public: the pot, what each player has put into it, each player's change in
  chips so far in the session, the pot the mediator must match (the pot when he accepted),
  and what every finished deal did;
- the choosing of the mediator, the call (alone or the card named), every card played and the
  tricks' winners are public;
- the widow goes into the mediator's hand unseen: only he knows its cards, and only he knows
  his discards until the deal's play ends, when they are turned over and counted for him;
- the partner knows at once that he is the partner; everyone learns who it is when the called
  card is played. Whether the mediator plays alone is known to all from the call: he says so,
  or the named card lies in the widow and he says so as he takes it (docs/rules.md 10.3).
"""

from __future__ import annotations

from typing import NamedTuple

from ..mediatore.nine_tricks import NineTricksView
from .moves import AUCTION, CALL, END


class PastDeal(NamedTuple):
    """The public facts of a finished deal (nothing of a passed deal's hands)."""

    dealer: int
    mediator: int | None
    alone: bool | None
    called_card: int | None
    partner: int | None
    thirds: int | None
    won: bool | None
    chips: tuple[int, int, int, int]


class ClubView(NineTricksView):
    """A live, read-only window on a :class:`Session` from one seat: only what that seat may
    know, read from the session each time it is asked."""

    __slots__ = ()

    # -- public facts (NineTricksView's too: the seats, the trick, the tricks, the auction) ---
    deal_number = property(lambda self: self._game.deal_number)
    mediator = property(lambda self: self._game.mediator)
    announced_alone = property(lambda self: self._game.announced_alone)
    pot = property(lambda self: self._game.pot)
    #: the pot when the mediator accepted: what his side matches when the play ends
    pot_accepted = property(lambda self: self._game.pot_accepted)

    @property
    def stakes(self) -> tuple[int, ...]:
        """What each seat has put into the pot standing now."""
        return tuple(self._game.stakes)

    @property
    def chips(self) -> tuple[int, ...]:
        """Each seat's change in chips so far in the session."""
        return tuple(self._game.chips)

    @property
    def past_deals(self) -> tuple[PastDeal, ...]:
        """The public facts of the session's finished deals, first to last."""
        return tuple(PastDeal(r.dealer, r.mediator, r.alone, r.called_card, r.partner, r.thirds,
                              r.won, r.chips) for r in self._game.results)

    # -- private knowledge (GameView's too: the hand, the legal moves) -----------------------

    @property
    def alone(self) -> bool | None:
        """Whether the mediator plays alone (known to all from the call on; None before)."""
        s = self._game
        return None if s.phase in (AUCTION, CALL) else s.alone

    @property
    def partner(self) -> int | None:
        """The mediator's partner if this seat knows who it is, else None."""
        s = self._game
        if s.partner is None or s.phase in (AUCTION, CALL):
            return None
        if self.seat == s.partner or s.called_played_by is not None or s.phase == END:
            return s.partner
        return None

    @property
    def widow(self) -> int:
        """The widow as a bitset, to the mediator once he has taken it; else 0."""
        s = self._game
        if self.seat == s.mediator and s.phase not in (AUCTION, CALL):
            return s.widow
        return 0

    @property
    def discards(self) -> int:
        """The mediator's discards: to him at once, to all once the play ends; else 0."""
        s = self._game
        return s.discards if self.seat == s.mediator or s.phase == END else 0
