"""The agent protocol, written once for every layer that seats agents (the single-seat
environments, the agents' ``play`` and tournaments, the terminal and the web tables).

An agent is any object with a method ``act(observation, view)`` returning a move id. Everything
else is optional, so these functions ask for it:

- ``reset(seed)``: a new episode starts; an agent without it is not reseeded;
- ``wants_observation``: False when ``act`` reads the view alone, so that the observation
  (costly to write) is not written and ``act`` gets None; without it, True;
- ``name``: what reports and errors call it; without one, its class's name;
- ``view_type``: the view class of the one game it is written for (Mediatore's
  ``SeatView``, Tressette's ``TressetteView``), so that a table of another game refuses it
  before the first move (:func:`check_seats`); without it, it plays any game's views.

``agents.base.Agent`` is a base class with these defaults, a convenience, not a requirement.
"""

from __future__ import annotations

from typing import Any, Callable


def is_agent(obj) -> bool:
    """Whether ``obj`` can play a seat: it has an ``act`` method."""
    return callable(getattr(obj, "act", None))


def agent_name(agent) -> str:
    """The name an agent goes by in reports and errors (its class's, if it has none)."""
    return getattr(agent, "name", None) or type(agent).__name__


class NotThisGame(ValueError):
    """An agent seated at a game whose views it was not written for (:func:`check_seats`)."""


def check_seats(agents, game) -> None:
    """:class:`NotThisGame` (a ``ValueError``), before any move is made, where one of
    ``agents`` (one per seat of ``game``, None where no agent sits) is written for another
    game's views than ``game``'s (its ``view_type``)."""
    for seat, agent in enumerate(agents):
        wanted = getattr(agent, "view_type", None)
        if wanted is not None and not isinstance(view := game.view(seat), wanted):
            raise NotThisGame(
                f"agent {agent_name(agent)!r} ({type(agent).__name__}) at seat {seat} is "
                f"written for another game: it reads a {_path(wanted)}, and this game's seat "
                f"is a {_path(type(view))}; seat an agent of this game or of every game")


def _path(kind: type) -> str:
    return f"{kind.__module__}.{kind.__qualname__}"


def wants_observation(agent) -> bool:
    """Whether ``agent.act`` reads its observation (unless it says not, it does)."""
    return getattr(agent, "wants_observation", True)


def reset_agent(agent, seed: int | None) -> None:
    """Start a new episode for ``agent``, reseeded with ``seed``, if it can be reset."""
    reset = getattr(agent, "reset", None)
    if reset is not None:
        reset(seed)


def ask(agent, view, observe: Callable[[Any], Any] | None) -> int:
    """The move ``agent`` makes at ``view``'s seat, shown the observation ``observe(view)`` if it
    wants one and ``observe`` (the game's observation writer) is given, else None."""
    return agent.act(observe(view) if observe and wants_observation(agent) else None, view)
