"""The agents of every game by name: the game's own (its definition's ``agents``), and for
every name a game does not bring, the agents any game of the family gets.

    >>> sorted(agents_of("tressette2"))
    ['greedy', 'openspiel-ismcts', 'pimc', 'random']
"""

from __future__ import annotations

from typing import Callable, Mapping

from mediatore_env.core.definition import GameDef
from mediatore_env.registry import get

from .random_agent import UniformAgent

__all__ = ["agents_of", "GENERIC"]


def _openspiel_ismcts(**options):
    """OpenSpiel's IS-MCTS (:class:`agents.openspiel_bots.ISMCTSAgent`), imported when made:
    it needs the openspiel extra, which the rest of the agents do not."""
    from .openspiel_bots import ISMCTSAgent
    return ISMCTSAgent(**options)


#: The agents of any game of the interface, by name.
GENERIC: dict[str, Callable] = {"random": UniformAgent, "openspiel-ismcts": _openspiel_ismcts}


def agents_of(game: GameDef | str) -> dict[str, Callable]:
    """The agents a game's tables may seat, by name (``{name: factory}``): the game's own
    first, then each agent of :data:`GENERIC` whose name it does not have."""
    definition = get(game) if isinstance(game, str) else game
    own: Mapping[str, Callable] = definition.agents.load() if definition.agents else {}
    return {**own, **{name: f for name, f in GENERIC.items() if name not in own}}
