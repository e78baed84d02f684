"""The toy game's agents: a uniform random player, the only one it needs to be played."""

from __future__ import annotations

import random

from agents.base import Agent


class ToyRandomAgent(Agent):
    name = "random"
    wants_observation = False

    def __init__(self, seed: int | None = None):
        self.rng = random.Random(seed)

    def reset(self, seed: int | None = None) -> None:
        self.rng.seed(seed)

    def act(self, observation, view) -> int:
        legal = view.legal_moves()
        return legal[self.rng.randrange(len(legal))]


AGENTS = {"random": ToyRandomAgent}
