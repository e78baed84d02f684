"""ClubRandomAgent: a legal move drawn uniformly at random.

Uniform over the legal moves means: in the choosing of the mediator, accept or pass with even
chances (``accept_rate`` changes that); the call, alone or any card not held, uniformly (so
alone once in 32); the discards and the card play uniformly.

    >>> from mediatore_env.club.game import Session
    >>> from agents.club.base import play_session
    >>> session = play_session(Session(dealer=0, packs=[list(range(40))] * 20),
    ...                        [ClubRandomAgent() for _ in range(4)], seeds=[1, 2, 3, 4])
    >>> session.is_over, sum(session.chips)
    (True, 0)
"""

from __future__ import annotations

import random

from mediatore_env.club.moves import ACCEPT, AUCTION, PASS

from ..base import Agent


class ClubRandomAgent(Agent):
    """Uniform over the legal moves; accepts with ``accept_rate`` (default 0.5)."""

    name = "random"
    wants_observation = False

    def __init__(self, accept_rate: float = 0.5, seed: int | None = None):
        if not 0.0 <= accept_rate <= 1.0:
            raise ValueError(f"accept_rate must be a probability in [0, 1], got {accept_rate!r}")
        self.accept_rate = accept_rate
        self.rng = random.Random(seed)

    def reset(self, seed: int | None = None) -> None:
        self.rng.seed(seed)

    def act(self, observation, view) -> int:
        if view.phase == AUCTION:
            return ACCEPT if self.rng.random() < self.accept_rate else PASS
        legal = view.legal_moves()
        return legal[self.rng.randrange(len(legal))]
