"""The switches of a club Mediatore table, and the chip arithmetic of docs/rules.md 10.3.

``ClubRules()`` is the game of docs/rules.md 10.3: antes of 5 chips when the pot is empty, and
a session that lasts until a pot is won, at most 20 deals::

    >>> ClubRules().max_deals, ClubRules(deals=3).until_won
    (20, False)
    >>> shares(21, partner=True)        # (mediator, partner): the odd chip is the mediator's
    (11, 10)
    >>> ClubRules(ante=0)
    Traceback (most recent call last):
    ...
    ValueError: bad value 0 for club rules switch 'ante': a positive int
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core.rules import Count, RulesBase

#: the most deals of a session played "until a pot is won" (docs/rules.md 10.3)
MAX_DEALS = 20


@dataclass(frozen=True, slots=True)
class ClubRules(RulesBase):
    """The switches of one table. Immutable and hashable.

    ``ante``: chips each player puts into an empty pot at the start of a deal (default 5).
    ``deals``: the session's length: ``None`` (default) until a pot is won, at most
    :data:`MAX_DEALS` deals; an int ``n``: exactly ``n`` deals, pots won or not. A deal that
    all four pass counts as a deal.
    """

    SWITCHES = {"ante": Count(1), "deals": Count(1, optional=True)}
    GAME = "club"

    ante: int = 5
    deals: int | None = None

    @property
    def until_won(self) -> bool:
        """Whether the session ends when a pot is won."""
        return self.deals is None

    @property
    def max_deals(self) -> int:
        """The most deals the session can last."""
        return MAX_DEALS if self.deals is None else self.deals

    @property
    def first_pot(self) -> int:
        """The pot of a session's first deal, every seat's ante: the unit its chips are
        counted in for training (the largest outcome doubles with every deal a session may
        have, about 10 million chips over 20 deals at 5, and would make rewards vanish)."""
        return 4 * self.ante


def shares(chips: int, partner: bool) -> tuple[int, int]:
    """(the mediator's part, the partner's part) of ``chips`` owed or won by the mediator's
    side: alone all of it; with a partner half each, the odd chip the mediator's
    (docs/rules.md 10.3: the matching of the pot and the pot won alike)."""
    if not partner:
        return chips, 0
    return chips - chips // 2, chips // 2
