"""Agents for club Mediatore (docs/rules.md 10.3), and the registry that names them.

The agents are :class:`agents.base.Agent` s given the acting seat's
:class:`~mediatore_env.club.view.ClubView`: ``act(observation, view)`` returns a move id of
:mod:`mediatore_env.club.moves`, one of ``view.legal_moves()``; ``reset(seed)`` comes before
every session.

=============  ================================================================================
name           agent
=============  ================================================================================
``random``     :class:`ClubRandomAgent`: uniform legal moves (accepts half the time)
``greedy``     :class:`ClubGreedyAgent`: Mediatore's greedy judgement, call, exchange and play
``pimc``       :class:`ClubPimcAgent`: accept/pass, the call and the card play searched by
               greedy rollouts over 12 sampled worlds a decision (``time_limit``: by the
               clock); greedy's exchange
``selfplay``   :class:`agents.selfplay.SelfPlayAgent`: a network trained by self-play on club's
               JAX engine (``python -m agents.training --game club``), played with numpy:
               ``selfplay:path=runs/club/best.npz`` (none is shipped: docs/training.md says why)
=============  ================================================================================

:func:`make_club_agent` turns a text into an agent, as :func:`agents.make_agent` does for
Mediatore: a name above with options after a colon (``greedy:margin=0.1``), or a user's class
as ``package.module:Class``. :func:`agents.base.play` plays a session with four agents;
:mod:`.tournament` is what the duplicate tournament adds for club Mediatore.
"""

from __future__ import annotations

from functools import partial

from ..registry import make_agent
from ..base import Agent
from ..selfplay import SelfPlayAgent
from .greedy import ClubGreedyAgent
from .pimc import ClubPimcAgent
from .random_agent import ClubRandomAgent

#: name -> factory taking the options as keyword arguments
CLUB_AGENTS = {
    "random": ClubRandomAgent,
    "greedy": ClubGreedyAgent,
    "pimc": ClubPimcAgent,
    "selfplay": partial(SelfPlayAgent, game="club"),
}

__all__ = ["CLUB_AGENTS", "ClubRandomAgent", "ClubGreedyAgent", "ClubPimcAgent", "make_club_agent"]


def make_club_agent(spec: str, **overrides) -> Agent:
    """A club agent from its text: ``'greedy'``, ``'random:accept_rate=0.3'``,
    ``'pkg.mod:MyAgent'``. Raises ``ValueError`` listing the known names otherwise."""
    return make_agent(spec, CLUB_AGENTS, **overrides)
