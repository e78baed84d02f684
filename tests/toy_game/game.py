"""The toy game's engine: a plain trick game (:mod:`mediatore_env.core.trickgame`), which is
all the code above the engines needs of it.

Two or three players; each hand deals them three cards each, one at a time from the seat
after the dealer (the rest of the pack stays unseen), then three tricks of no trump, follow
suit, the seat after the dealer leading the first and each trick's winner the next; the deal
passes on each hand. Each seat's result is its points less the others' average, times the
number of players (two players: the points difference), so it is zero-sum.
"""

from __future__ import annotations

from mediatore_env.core.definition import THIRDS, TRICKS, Scoring
from mediatore_env.core.trickgame import PlainTrickGame

from .rules import ToyRules


class ToyGame(PlainTrickGame):
    """A toy game in play: ``ToyGame(rules, dealer)`` waits at ``CHANCE`` for its first pack."""

    RULES, HAND_SIZE, NAMES = ToyRules, 3, ("toy", "toy3")
    __slots__ = ()

    @staticmethod
    def scoring(rules: ToyRules) -> Scoring:
        """The family's thirds (an ace 3, ..., the last trick 3), or one point a trick."""
        return TRICKS if rules.scoring == "tricks" else THIRDS
