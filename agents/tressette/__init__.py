"""Agents for the Tressette games (docs/rules.md 10.1-10.2), their registry, and what the
duplicate tournament adds for these games (:mod:`.tournament`).

The agents are :class:`agents.base.Agent` s: ``act(observation, view)`` chooses a move of
:mod:`mediatore_env.tressette.moves` (0..39 play that card, ``CLAIM`` claims the game) from the
acting seat's :class:`~mediatore_env.tressette.view.TressetteView` (its hand, the declared
melds, the public history, in the two-handed game the draws it saw, the scores,
``legal_moves()``), never from the game's hidden state; :func:`agents.base.play` plays a game
to 31 with them, dealing each hand's pack from the ``packs`` it is given. Each plays every form
(four-handed partnerships, three-handed, two-handed) and the ``low`` and ``claim`` switches:

=============  ================================================================================
name           agent
=============  ================================================================================
``random``     :class:`TressetteRandomAgent`: a uniform legal card; claims with ``claim_rate``
``greedy``     :class:`TressetteGreedyAgent`: counts the cards, takes points, follows cheaply,
               leads its masters; in Low Hand avoids points; claims when the claim wins
``pimc``       :class:`TressettePimcAgent`: samples worlds from the seat's view and plays the
               card of best value over them: greedy rollouts early in a hand, the exact
               double-dummy solver late (a budget of worlds and nodes; ``time_limit``: by the clock)
``selfplay``   :class:`agents.selfplay.SelfPlayAgent`: a network trained by self-play on the
               form's JAX engine (``python -m agents.training --game tressette``), played in
               numpy: ``selfplay:path=runs/tressette/best.npz``; without ``path=`` the form's
               shipped network, where one is (:data:`SELFPLAY`)
=============  ================================================================================

Each form has its registry (:data:`TRESSETTE_AGENTS`, :data:`TRESSETTE3_AGENTS`,
:data:`TRESSETTE2_AGENTS`, the forms' definitions name them): :data:`AGENTS`, and ``selfplay``
made for that form (its network must be one of that form: a file of another is refused).

:func:`make_agent` reads the same texts as :func:`agents.make_agent` (``random:claim_rate=0.1``,
``package.module:Class``) with these names::

    >>> make_agent("random:claim_rate=0.5").claim_rate
    0.5
"""

from __future__ import annotations

from functools import partial

from ..registry import make_agent as _make_agent
from ..base import Agent
from ..selfplay import SelfPlayAgent
from .greedy import TressetteGreedyAgent
from .pimc import TressettePimcAgent
from .random_agent import TressetteRandomAgent

#: name -> factory taking the options as keyword arguments
AGENTS = {
    "random": TressetteRandomAgent,
    "greedy": TressetteGreedyAgent,
    "pimc": TressettePimcAgent,
}

#: The forms whose self-play network is shipped (agents/data/selfplay-<form>.npz: imitation of
#: greedy, anchored self-play, then greedy's moves corrected by pimc's values, Partnership's
#: then its own; measured in docs/training.md against random, greedy and pimc): ``selfplay``
#: plays it without ``path=``. Each beats greedy by a little (+0.13 to +0.20 a game), its
#: interval clear of zero.
SELFPLAY: tuple[str, ...] = ("tressette", "tressette3", "tressette2")

#: Each form's agents: :data:`AGENTS` and ``selfplay`` for that form.
TRESSETTE_AGENTS, TRESSETTE3_AGENTS, TRESSETTE2_AGENTS = (
    {**AGENTS, "selfplay": partial(SelfPlayAgent, game=form)}
    for form in ("tressette", "tressette3", "tressette2"))

__all__ = ["AGENTS", "TRESSETTE_AGENTS", "TRESSETTE3_AGENTS", "TRESSETTE2_AGENTS", "SELFPLAY",
           "Agent", "TressetteGreedyAgent", "TressettePimcAgent", "TressetteRandomAgent",
           "make_agent"]


def make_agent(spec: str, **overrides) -> Agent:
    """An agent of the Tressette games from its text (see :func:`agents.make_agent`)."""
    return _make_agent(spec, AGENTS, **overrides)
