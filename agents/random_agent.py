"""The random agent of every game: a legal move drawn uniformly, seeded by ``reset``.

:class:`UniformAgent` plays any game of the interface (a registered toy game's agents can be
it alone). Each game's ``random`` agent is a UniformAgent that makes one decision at a chosen
rate instead of uniformly, where uniform play would make a useless baseline: Mediatore's bids
(``bid_rate``), the Tressette games' claim (``claim_rate``), club Mediatore's accepting
(``accept_rate``).

    >>> import mediatore_env
    >>> from agents.base import play
    >>> game = play(mediatore_env.make("tressette2"), [UniformAgent(), UniformAgent()],
    ...             packs=lambda k: list(range(40)), seeds=[1, 2])
    >>> game.is_over, sum(game.outcome)
    (True, 0)
"""

from __future__ import annotations

import random

from .base import Agent


def check_rate(option: str, value, none: bool = False):
    """``value`` if it is a probability (a number from 0 to 1; None too where ``none``), else a
    ``ValueError`` naming ``option`` and what is valid."""
    if value is None and none:
        return value
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
        raise ValueError(f"{option} must be a probability in [0, 1]"
                         + (" or None" if none else "") + f", got {value!r}")
    return value


class UniformAgent(Agent):
    """Uniform over the legal moves, its choices seeded by :meth:`reset` (or ``seed``)."""

    name = "random"
    wants_observation = False

    def __init__(self, seed: int | None = None):
        self.rng = random.Random(seed)

    def reset(self, seed: int | None = None) -> None:
        self.rng.seed(seed)

    def uniform(self, moves):
        """One of ``moves``, uniformly."""
        return moves[self.rng.randrange(len(moves))]

    def act(self, observation, view) -> int:
        return self.uniform(view.legal_moves())
