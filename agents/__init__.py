"""Baseline agents for Mediatore, and the registry that names them.

An agent (:class:`~agents.base.Agent`) chooses a move for one seat from that seat's view.
The built-in ones:

=============  ================================================================================
name           agent
=============  ================================================================================
``random``     :class:`RandomAgent`: uniform legal moves; bids one step up with probability 0.2
``greedy``     :class:`GreedyAgent`: heuristic bidding, calling, exchange and card play
``pimc``       :class:`PIMCAgent`: card play by sampled worlds solved double dummy, the rest greedy
``pimc-infer`` :class:`InferAgent`: ``pimc`` over worlds weighted by how the others played
               their cards (a shipped numpy player model), its call and exchange chosen by
               solving sampled worlds too; ahead of ``pimc`` at its table (docs/infer.md)
``selfplay``   :class:`SelfPlayAgent`: a network trained by self-play on the JAX engine, run in
               numpy (``selfplay:path=network.npz``; default: the shipped network)
=============  ================================================================================

:func:`make_agent` turns a text into an agent: a name above, with options after a colon
(``random:bid_rate=0.5``, ``greedy:bidding=cautious``), or a user's class as
``package.module:Class`` (options after a second colon: ``mypkg.bots:Bot:depth=3``)::

    >>> make_agent("random:bid_rate=0.5").bid_rate
    0.5

Each game's own agents are its definition's ``agents`` (Mediatore's :data:`AGENTS`, in
:mod:`agents.mediatore`; the Tressette games' in :mod:`agents.tressette`, docs/tressette.md;
club Mediatore's in :mod:`agents.club`, docs/club.md); :func:`agents_of` adds the agents every
game gets (:mod:`agents.registry`), and :func:`make_agent` reads their names with
``registry=``. This module only hands the names on.
"""

from __future__ import annotations

from .base import Agent, play
from .mediatore import AGENTS
from .mediatore.greedy import (BIDDING_POLICIES, BiddingPolicy, CallingPolicy, ExchangePolicy,
                               GreedyAgent, PlayPolicy)
from .mediatore.infer import InferAgent
from .mediatore.pimc import PIMCAgent
from .mediatore.random_agent import RandomAgent
from .registry import agent_factory, agents_of, load_object, make_agent, parse_options
from .selfplay import SelfPlayAgent

__all__ = ["Agent", "RandomAgent", "GreedyAgent", "PIMCAgent", "InferAgent", "SelfPlayAgent",
           "BiddingPolicy", "CallingPolicy", "ExchangePolicy", "PlayPolicy", "BIDDING_POLICIES",
           "AGENTS", "agents_of", "make_agent", "agent_factory", "load_object", "parse_options",
           "play"]
