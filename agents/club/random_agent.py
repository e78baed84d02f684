"""ClubRandomAgent: a legal move drawn uniformly at random.

Uniform over the legal moves means: in the choosing of the mediator, accept or pass with even
chances (``accept_rate`` changes that); the call, alone or any card not held, uniformly (so
alone once in 32); the discards and the card play uniformly.

    >>> from mediatore_env.club.game import Session
    >>> from agents.base import play
    >>> session = play(Session(dealer=0, packs=[list(range(40))] * 20),
    ...                [ClubRandomAgent() for _ in range(4)], seeds=[1, 2, 3, 4])
    >>> session.is_over, sum(session.chips)
    (True, 0)
"""

from __future__ import annotations

from mediatore_env.club.moves import ACCEPT, AUCTION, PASS
from mediatore_env.club.view import ClubView

from ..random_agent import UniformAgent, check_rate


class ClubRandomAgent(UniformAgent):
    """Uniform over the legal moves; accepts with ``accept_rate`` (default 0.5)."""

    view_type = ClubView

    def __init__(self, accept_rate: float = 0.5, seed: int | None = None):
        super().__init__(seed)
        self.accept_rate = check_rate("accept_rate", accept_rate)

    def act(self, observation, view) -> int:
        if view.phase == AUCTION:
            return ACCEPT if self.rng.random() < self.accept_rate else PASS
        legal = view.legal_moves()
        return self.uniform(legal)
