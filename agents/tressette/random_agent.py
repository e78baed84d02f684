"""The random player of the Tressette games: a legal move drawn uniformly, claims aside.

With the ``claim`` switch, "claim game" is legal on every turn, and a uniform player would
claim about once in eight turns, nearly always falsely, losing at once: a baseline that
throws its games away measures nothing. So the random player claims only with probability
``claim_rate`` (default 0: never), and plays a uniform legal card otherwise.
``TressetteRandomAgent(claim_rate=None)`` is uniform over every legal move, the claim
included.

    >>> from mediatore_env.tressette import FORMS, TressetteGame
    >>> game = TressetteGame(FORMS["tressette2"].replace(claim=True))
    >>> game.deal(list(range(40)))
    >>> agent = TressetteRandomAgent()
    >>> agent.reset(seed=1)
    >>> move = agent.act(None, game.view(game.to_move))
    >>> move in game.legal_moves() and move != CLAIM
    True
"""

from __future__ import annotations

from mediatore_env.tressette.moves import CLAIM
from mediatore_env.tressette.view import TressetteView

from ..random_agent import UniformAgent, check_rate


class TressetteRandomAgent(UniformAgent):
    """Uniform over the legal cards; claims the game with probability ``claim_rate``."""

    view_type = TressetteView

    def __init__(self, claim_rate: float | None = 0.0, seed: int | None = None):
        super().__init__(seed)
        self.claim_rate = check_rate("claim_rate", claim_rate, none=True)

    def act(self, observation, view) -> int:
        legal = view.legal_moves()
        if self.claim_rate is None or CLAIM not in legal:
            return self.uniform(legal)
        if self.rng.random() < self.claim_rate:
            return CLAIM
        cards = [m for m in legal if m != CLAIM]
        return self.uniform(cards) if cards else CLAIM
