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

The Tressette games and club Mediatore (the pot game) have their own agents and registries in
:mod:`agents.tressette` (docs/tressette.md) and :mod:`agents.club` (docs/club.md);
:func:`make_agent` reads their names with ``registry=``.
"""

from __future__ import annotations

import ast
import contextvars
import importlib
import os
import sys
from typing import Callable

from .base import Agent, play
from .mediatore.greedy import (BIDDING_POLICIES, BiddingPolicy, CallingPolicy, ExchangePolicy,
                               GreedyAgent, PlayPolicy)
from .mediatore.infer import InferAgent
from .mediatore.pimc import PIMCAgent
from .mediatore.random_agent import RandomAgent
from .registry import agents_of
from .selfplay import SelfPlayAgent

#: name -> factory taking the options as keyword arguments
AGENTS = {
    "random": RandomAgent,
    "greedy": GreedyAgent,
    "pimc": PIMCAgent,
    "pimc-infer": InferAgent,
    "selfplay": SelfPlayAgent,
}

__all__ = ["Agent", "RandomAgent", "GreedyAgent", "PIMCAgent", "InferAgent", "SelfPlayAgent",
           "BiddingPolicy", "CallingPolicy", "ExchangePolicy", "PlayPolicy", "BIDDING_POLICIES",
           "AGENTS", "agents_of", "make_agent", "agent_factory", "load_object", "play"]


def parse_options(text: str) -> dict:
    """``'a=1,b=x'`` -> ``{'a': 1, 'b': 'x'}``: values are Python literals where they parse,
    else text."""
    options = {}
    for item in filter(None, (t.strip() for t in text.split(","))):
        key, eq, value = item.partition("=")
        if not eq or not key.strip().isidentifier():
            raise ValueError(f"bad option {item!r}: options are key=value, separated by commas")
        try:
            options[key.strip()] = ast.literal_eval(value.strip())
        except (ValueError, SyntaxError):
            options[key.strip()] = value.strip()
    return options


#: Whether :func:`load_object` may import: False while :func:`make_agent` builds an agent
#: with ``imports=False`` (the browser table's server), so that no option of any agent (a
#: bidding policy given as ``module:Class``, say) can make it import what a request names.
_IMPORTS = contextvars.ContextVar("agents_imports", default=True)


def load_object(path: str):
    """The object named by ``'package.module:Name'``. Modules are looked for in the current
    folder too, as ``python -m`` does, so ``mypkg.bots:MyAgent`` is found where ``mypkg/``
    is. Refused (``ValueError``, nothing imported) inside ``make_agent(..., imports=False)``."""
    if not _IMPORTS.get():
        raise ValueError(f"{path!r}: agents are named by their registered names here, "
                         "not by import paths")
    module_name, colon, attr = path.partition(":")
    if not colon or not module_name or not attr:
        raise ValueError(f"not a 'module:Name' path: {path!r}")
    if "" not in sys.path and os.getcwd() not in sys.path:
        sys.path.append(os.getcwd())  # after the installed packages: a local file shadows none
    try:
        module = importlib.import_module(module_name)
    except ImportError as e:
        raise ValueError(f"cannot import module {module_name!r} (from {path!r}): {e}") from None
    try:
        return getattr(module, attr)
    except AttributeError:
        raise ValueError(f"module {module_name!r} has no {attr!r} (from {path!r})") from None


def agent_factory(spec: str, registry: dict | None = None, *, imports: bool = True
                  ) -> tuple[Callable, dict]:
    """``(factory, options)`` of an agent's text (see :func:`make_agent`), nothing made yet."""
    registry = agents_of("mediatore") if registry is None else registry
    name, _, rest = spec.strip().partition(":")
    if name in registry:
        return registry[name], parse_options(rest)
    if rest and imports:
        attr, _, opts = rest.partition(":")
        return load_object(f"{name}:{attr}"), parse_options(opts)
    raise ValueError(f"unknown agent {spec!r}; known agents: {', '.join(registry)}"
                     + (", or a 'package.module:Class' path to your own" if imports else ""))


def make_agent(spec: str, registry: dict | None = None, *, imports: bool = True,
               check_options=None, **overrides) -> Agent:
    """An agent from its text: ``'greedy'``, ``'random:bid_rate=0.5'``, ``'pkg.mod:MyAgent'``,
    ``'pkg.mod:MyAgent:depth=3'``. Keyword arguments add or override options. ``registry``:
    the names known (default :data:`AGENTS`, Mediatore's; the Tressette games pass
    :data:`agents.tressette.AGENTS`, club Mediatore :data:`agents.club.CLUB_AGENTS`). Raises
    ``ValueError`` listing the known names when the text names nothing.

    ``imports=False`` takes registered names only: a ``module:Class`` text is refused, and so
    is any import an option would lead to while the agent is built (nothing is imported).
    ``check_options(factory, options)``, if given, may refuse the options (``ValueError``)
    before the factory is called."""
    factory, options = agent_factory(spec, registry, imports=imports)
    options.update(overrides)
    if check_options is not None:
        check_options(factory, options)
    token = _IMPORTS.set(imports and _IMPORTS.get())
    try:
        agent = factory(**options)
    except (TypeError, ValueError) as e:
        raise ValueError(f"cannot make agent {spec!r}: {e}") from None
    finally:
        _IMPORTS.reset(token)
    if not callable(getattr(agent, "act", None)):
        raise ValueError(f"{spec!r} is not an agent: an agent needs a method "
                         "act(observation, view) returning a move id")
    try:
        agent.name = spec
    except AttributeError:  # a class with __slots__ and no name: reports use its class name
        pass
    return agent

