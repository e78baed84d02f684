"""RandomAgent: a legal move drawn uniformly at random, with a choice of how eagerly it bids.

Uniform random bidding is a poor baseline: with five contracts above "pass", a seat that
picks uniformly among its legal calls bids five times in six, and the auction climbs to
Arcisolissimo on almost every deal. So in the auction the agent bids with probability
``bid_rate`` (default 0.2) and then makes the lowest legal bid, one step above the
current one; otherwise it passes. Every other decision (the call, the discards, the card
passed back, the card played and its signal) is uniform over the legal moves.
``RandomAgent(bid_rate=None)`` is uniform in the auction too.

    >>> from mediatore_env import Deal, Rules
    >>> from agents.base import play
    >>> deal = play(Deal(Rules(), dealer=0, pack=list(range(40))),
    ...             [RandomAgent() for _ in range(4)], seeds=[1, 2, 3, 4])
    >>> deal.is_over
    True
"""

from __future__ import annotations

from mediatore_env.mediatore.moves import AUCTION, PASS
from mediatore_env.mediatore.view import SeatView

from ..random_agent import UniformAgent, check_rate


class RandomAgent(UniformAgent):
    """Uniform over the legal moves; in the auction, bids one step up with ``bid_rate``."""

    view_type = SeatView

    def __init__(self, bid_rate: float | None = 0.2, seed: int | None = None):
        super().__init__(seed)
        self.bid_rate = check_rate("bid_rate", bid_rate, none=True)

    def act(self, observation, view) -> int:
        legal = view.legal_moves()
        if self.bid_rate is not None and view.phase == AUCTION:
            if len(legal) > 1 and self.rng.random() < self.bid_rate:
                return legal[1]  # legal moves are ascending: pass, then the lowest bid
            return PASS
        return self.uniform(legal)
