"""The toy game's rules: a frozen dataclass of switches, as every game of the family has.

- ``players``: 2 or 3 (each registry entry fixes it: ``toy`` and ``toy3``);
- ``hands``: how many hands make a game (each hand has its own pack: a chance event);
- ``scoring``: ``"thirds"`` counts the family's card points in thirds (an ace 3, the 3, 2 and
  court cards 1, plus 3 for the last trick of each hand); ``"tricks"`` counts one per trick.
"""

from __future__ import annotations

from dataclasses import dataclass

from mediatore_env.core.rules import RulesBase


@dataclass(frozen=True)
class ToyRules(RulesBase):
    SWITCHES = {"players": (2, 3), "hands": (2, 1), "scoring": ("thirds", "tricks")}
    GAME = "toy"

    players: int = 2
    hands: int = 2
    scoring: str = "thirds"
