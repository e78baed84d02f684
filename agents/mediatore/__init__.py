"""Mediatore's own agents: random, greedy (with its bidding, calling, exchange and play
policies), PIMC, PIMC over inferred worlds, self-play, and the calibration of the greedy
agent's hand evaluations; :data:`AGENTS`, their names (Mediatore's definition's ``agents``).
"""

from __future__ import annotations

from functools import partial

from ..selfplay import SelfPlayAgent
from .greedy import GreedyAgent
from .infer import InferAgent
from .pimc import PIMCAgent
from .random_agent import RandomAgent

#: name -> factory taking the options as keyword arguments
AGENTS = {
    "random": RandomAgent,
    "greedy": GreedyAgent,
    "pimc": PIMCAgent,
    "pimc-infer": InferAgent,
    "selfplay": partial(SelfPlayAgent, game="mediatore"),  # another game's network refused
}

__all__ = ["AGENTS", "RandomAgent", "GreedyAgent", "PIMCAgent", "InferAgent", "SelfPlayAgent"]
