"""What one seat of a Tressette game knows. Agents and the observation encoder read a
:class:`TressetteView`, never a game.

Knowledge follows docs/rules.md 10.1-10.2:

- public: every card played and who played it, each trick's leader and winner, every declared
  meld with its cards and its declarer, the points and the totals, the dealer, whose turn it
  is, the number of cards in the stock; all of it for every hand of the game so far;
- private: the seat's own hand (and the 10 cards dealt to it), and in the two-handed game the
  cards it drew itself;
- the two-handed draws: the card each player draws is shown to both with the ``show_draws``
  switch (the default); without it only the drawer sees it (the other sees that a card was
  drawn);
- never seen: the other hands, the three-handed dead hand, the stock's order.
"""

from __future__ import annotations

from ..core.game import GameView


class TressetteView(GameView):
    """A live, read-only window on a :class:`~.game.TressetteGame` from one seat.

    It exposes only what that seat may know, reading the game each time it is asked, so it
    stays current as the game goes on. Hands are numbered from 0 here: ``hands_played[i]``
    describes the game's ``i + 1``-th hand.
    """

    __slots__ = ()

    # -- public facts (GameView's too: rules, seats, dealer, to move, the trick, hand sizes) -
    first_dealer = property(lambda self: self._game.first_dealer)
    needs_pack = property(lambda self: self._game.needs_pack)
    end_reason = property(lambda self: self._game.end_reason)
    ender = property(lambda self: self._game.ender)  # the side whose score ended the game
    claimant = property(lambda self: self._game.claimant)
    hand_number = property(lambda self: self._game.hand_number)

    @property
    def side(self) -> int:
        return self._game.side_of(self.seat)

    @property
    def totals(self) -> tuple[int, ...]:
        """Each side's running total, the hand in progress included."""
        return tuple(self._game.totals)

    @property
    def before(self) -> tuple[int, ...]:
        """Each side's total before the hand in play (between hands: the totals the next
        hand starts from)."""
        return tuple(self._game.before)

    @property
    def hand_points(self) -> tuple[int, ...]:
        return tuple(self._game.hand_points)

    @property
    def tricks(self):
        """The current (or last) hand's finished tricks: (leader, cards, winner)."""
        return tuple(self._game.log[-1].tricks) if self._game.log else ()

    @property
    def melds(self):
        """The current (or last) hand's declared melds: (seat, meld), in declaration order."""
        return tuple(self._game.log[-1].melds) if self._game.log else ()

    @property
    def draws(self) -> tuple[tuple[int, int | None], ...]:
        """The current (or last) hand's draws from the stock as (seat, card), the card None
        when this seat did not see it."""
        return self._draws(self._game.log[-1]) if self._game.log else ()

    @property
    def thirds(self) -> tuple[int, ...]:
        """Thirds each seat has taken in tricks this hand (public: every card is seen)."""
        return tuple(self._game.log[-1].thirds) if self._game.log else (0,) * self.players

    @property
    def stock_size(self) -> int:
        return len(self._game.stock)

    @property
    def hands_played(self) -> tuple[dict, ...]:
        """Every hand of the game so far (the current one last), as this seat saw it: its
        dealer, tricks, melds, draws (cards unseen as None) and each side's points."""
        rules = self._game.rules
        return tuple({"dealer": log.dealer, "tricks": tuple(log.tricks),
                      "melds": tuple(log.melds), "draws": self._draws(log),
                      "points": tuple(log.points(rules))} for log in self._game.log)

    def earlier_hands(self) -> list[tuple]:
        """The hands played out before the current (or last) one, the most recent first, as
        ``(dealer, points by side, melds)``: what the observation keeps of them."""
        log = self._game.log
        return [(h.dealer, h.final_points, h.melds) for h in reversed(log[:-1])]

    # -- private knowledge (GameView's too: the hand, the legal moves) -----------------------

    @property
    def dealt(self) -> int:
        """The 10 cards dealt to this seat in the current (or last) hand."""
        return self._game.log[-1].dealt[self.seat] if self._game.log else 0

    def _draws(self, log) -> tuple[tuple[int, int | None], ...]:
        """The draws of a hand's log (:class:`~.game.HandLog`) as this seat saw them."""
        shown = self._game.rules.show_draws
        return tuple((d.seat, d.card if shown or d.seat == self.seat else None)
                     for d in log.draws)

