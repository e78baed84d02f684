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
    ValueError: bad value 0 for club rules switch 'ante': a positive int, e.g. 5 (the default)
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

#: the most deals of a session played "until a pot is won" (docs/rules.md 10.3)
MAX_DEALS = 20


def _positive_int(value) -> bool:
    return type(value) is int and value > 0


@dataclass(frozen=True, slots=True)
class ClubRules:
    """The switches of one table. Immutable and hashable.

    ``ante``: chips each player puts into an empty pot at the start of a deal (default 5).
    ``deals``: the session's length: ``None`` (default) until a pot is won, at most
    :data:`MAX_DEALS` deals; an int ``n``: exactly ``n`` deals, pots won or not. A deal that
    all four pass counts as a deal.
    """

    ante: int = 5
    deals: int | None = None

    def __post_init__(self):
        if not _positive_int(self.ante):
            raise ValueError(f"bad value {self.ante!r} for club rules switch 'ante': a positive "
                             "int, e.g. 5 (the default)")
        if self.deals is not None and not _positive_int(self.deals):
            raise ValueError(f"bad value {self.deals!r} for club rules switch 'deals': None "
                             f"(until a pot is won, at most {MAX_DEALS} deals) or a positive int")

    @property
    def until_won(self) -> bool:
        """Whether the session ends when a pot is won."""
        return self.deals is None

    @property
    def max_deals(self) -> int:
        """The most deals the session can last."""
        return MAX_DEALS if self.deals is None else self.deals

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, switches: dict) -> "ClubRules":
        """Rules from a dict of switches; unknown names raise ``ValueError`` naming the valid ones."""
        if not isinstance(switches, dict):
            raise ValueError(f"club rules must be a dict of switches (ante, deals), got {switches!r}")
        unknown = sorted(set(switches) - {"ante", "deals"})
        if unknown:
            raise ValueError(f"unknown club rules switch(es) {', '.join(map(repr, unknown))}; "
                             "valid: 'ante', 'deals'")
        return cls(**switches)

    @classmethod
    def coerce(cls, rules=None, **switches) -> "ClubRules":
        """Rules from None (the default table), a ClubRules or a dict, then ``switches`` on top."""
        if rules is None:
            base = {}
        elif isinstance(rules, ClubRules):
            base = rules.to_dict()
        elif isinstance(rules, dict):
            base = dict(rules)
        else:
            raise ValueError(f"club rules must be a ClubRules object or a dict of switches "
                             f"(ante, deals), got {rules!r}")
        return cls.from_dict({**base, **switches})


def shares(chips: int, partner: bool) -> tuple[int, int]:
    """(the mediator's part, the partner's part) of ``chips`` owed or won by the mediator's
    side: alone all of it; with a partner half each, the odd chip the mediator's
    (docs/rules.md 10.3: the matching of the pot and the pot won alike)."""
    if not partner:
        return chips, 0
    return chips - chips // 2, chips // 2
