"""The toy game's rules: a frozen dataclass of switches, as every game of the family has.

- ``players``: 2 or 3 (each registry entry fixes it: ``toy`` and ``toy3``);
- ``hands``: how many hands make a game (each hand has its own pack: a chance event);
- ``scoring``: ``"thirds"`` counts the family's card points in thirds (an ace 3, the 3, 2 and
  court cards 1, plus 3 for the last trick of each hand); ``"tricks"`` counts one per trick.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields

# Every switch and its valid values, the default first.
SWITCHES = {"players": (2, 3), "hands": (2, 1), "scoring": ("thirds", "tricks")}


@dataclass(frozen=True)
class ToyRules:
    players: int = 2
    hands: int = 2
    scoring: str = "thirds"

    def __post_init__(self):
        for f in fields(self):
            value = getattr(self, f.name)
            if not any(value == v and type(value) is type(v) for v in SWITCHES[f.name]):
                raise ValueError(f"bad value {value!r} for rules switch {f.name!r}; valid: "
                                 + ", ".join(map(repr, SWITCHES[f.name])))

    @classmethod
    def from_dict(cls, switches: dict) -> "ToyRules":
        unknown = sorted(set(switches) - set(SWITCHES), key=str)
        if unknown:
            raise ValueError(f"unknown toy rules switch(es) {', '.join(map(repr, unknown))}; "
                             f"valid: {', '.join(SWITCHES)}")
        return cls(**switches)

    def to_dict(self) -> dict:
        return asdict(self)

    def replace(self, **switches) -> "ToyRules":
        return self.from_dict({**self.to_dict(), **switches})
