"""Playing a club Mediatore session with agents: the same :class:`~agents.base.Agent`
interface as Mediatore's, given a :class:`~mediatore_env.club.view.ClubView`.

``act(observation, view)`` returns a move id of :mod:`mediatore_env.club.moves`, one of
``view.legal_moves()``; ``observation`` is ``mediatore_env.club.observation.observation(view)`` for
agents that read tensors (``wants_observation``), else None. ``reset(seed)`` is called before
every session.
"""

from __future__ import annotations

from typing import Sequence

from mediatore_env.club.game import Session
from mediatore_env.club.moves import NUM_MOVES

from ..base import Agent, play_to_end

__all__ = ["Agent", "play_session"]


def play_session(session: Session, agents: Sequence[Agent],
                 seeds: Sequence[int | None] | None = None) -> Session:
    """Play ``session`` to its end, ``agents[s]`` choosing for seat ``s``; return it.

    Each agent is first reset with ``seeds[s]`` (None when no seeds are given). An illegal
    move raises ``ValueError`` naming the agent, the seat and the move.
    """
    return play_to_end(session, agents, seeds, "session", _observation, NUM_MOVES)


def _observation():
    from mediatore_env.club.observation import observation  # only when an agent reads it
    return observation
