"""Playing a club Mediatore session with agents: the same :class:`~agents.base.Agent`
interface as Mediatore's, given a :class:`~mediatore_env.club.view.ClubView`.

``act(observation, view)`` returns a move id of :mod:`mediatore_env.club.moves`, one of
``view.legal_moves()``; ``observation`` is ``mediatore_env.codec.club.observation(view)`` for
agents that read tensors (``wants_observation``), else None. ``reset(seed)`` is called before
every session.
"""

from __future__ import annotations

from typing import Sequence

from mediatore_env.club.game import Session
from mediatore_env.club.moves import NUM_MOVES
from mediatore_env.codec.actions import as_move

from ..base import Agent

__all__ = ["Agent", "play_session"]


def play_session(session: Session, agents: Sequence[Agent],
                 seeds: Sequence[int | None] | None = None) -> Session:
    """Play ``session`` to its end, ``agents[s]`` choosing for seat ``s``; return it.

    Each agent is first reset with ``seeds[s]`` (None when no seeds are given). An illegal
    move raises ``ValueError`` naming the agent, the seat and the move.
    """
    if len(agents) != 4:
        raise ValueError(f"a session needs 4 agents, one per seat; got {len(agents)}")
    for s, agent in enumerate(agents):
        agent.reset(None if seeds is None else seeds[s])
    views = [session.view(s) for s in range(4)]
    encode = None
    if any(a.wants_observation for a in agents):
        from mediatore_env.codec.club import observation as encode  # only when an agent reads it
    while not session.is_over():
        seat = session.to_move
        agent = agents[seat]
        view = views[seat]
        move = agent.act(encode(view) if agent.wants_observation else None, view)
        try:
            move = as_move(move, NUM_MOVES)
            if not session.is_legal(move):
                session.apply(move)  # raises the engine's message, which lists the legal moves
        except ValueError as e:
            raise ValueError(f"agent {agent.name!r} ({type(agent).__name__}) at seat {seat}: "
                             f"{e}") from None
        session._apply(move)
    return session
