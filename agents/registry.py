"""The agents of every game by name: the game's own (its definition's ``agents``), and the
agents any game of the family gets (:data:`GENERIC`): ``random``; for a game with trick facts
the generic ``greedy``, and with a world sampler too the generic ``pimc``
(:mod:`agents.trick`), each under its own name where the game brings none of that name, and
as ``generic-NAME`` where it does, so that the two can meet at one table::

    >>> sorted(agents_of("tressette2"))  # doctest: +NORMALIZE_WHITESPACE
    ['generic-greedy', 'generic-pimc', 'generic-random', 'greedy', 'openspiel-ismcts', 'pimc',
     'random', 'selfplay']

:func:`make_agent` turns an agent's text (a name and its options, or ``module:Class``) into an
agent.
"""
from __future__ import annotations

import ast
import contextvars
import importlib
import inspect
import os
import sys
import types
import typing
from functools import partial
from typing import Callable, Mapping

from mediatore_env.core.definition import GameDef
from mediatore_env.registry import get

from .base import Agent, is_agent
from .random_agent import UniformAgent
from .trick import TrickGreedyAgent, TrickPimcAgent

__all__ = ["agents_of", "GENERIC", "make_agent", "agent_factory", "load_object", "parse_options"]


def _openspiel_ismcts(**options):
    """OpenSpiel's IS-MCTS (:class:`agents.openspiel_bots.ISMCTSAgent`), imported when made:
    it needs the openspiel extra, which the rest of the agents do not."""
    from .openspiel_bots import ISMCTSAgent
    return ISMCTSAgent(**options)


def _greedy(game: GameDef) -> Callable | None:
    return partial(TrickGreedyAgent, game) if game.trick is not None else None


def _pimc(game: GameDef) -> Callable | None:
    return (partial(TrickPimcAgent, game) if game.trick is not None and game.worlds is not None
            else None)


#: The agents any game of the family gets, by name: for a game's definition, the agent's
#: factory, or None where the game lacks what the agent reads (its trick facts, its worlds).
GENERIC: dict[str, Callable[[GameDef], Callable | None]] = {
    "random": lambda game: UniformAgent,
    "greedy": _greedy,
    "pimc": _pimc,
    "openspiel-ismcts": lambda game: _openspiel_ismcts,
}


def agents_of(game: GameDef | str) -> dict[str, Callable]:
    """The agents a game's tables may seat, by name (``{name: factory}``): the game's own
    first, then each agent of :data:`GENERIC` the game can have, under its name where the game
    has none of that name, else as ``generic-NAME``."""
    definition = get(game) if isinstance(game, str) else game
    own: Mapping[str, Callable] = definition.agents.load() if definition.agents else {}
    out = dict(own)
    for name, generic in GENERIC.items():
        factory = generic(definition)
        if factory is not None:
            out["generic-" + name if name in own else name] = factory
    return out


# -- an agent from its text ------------------------------------------------------------------

def parse_options(text: str) -> dict:
    """``'a=1,b=x'`` -> ``{'a': 1, 'b': 'x'}``: values are Python literals where they parse,
    else text. An option given twice is refused (the last would silently win)."""
    options = {}
    for item in filter(None, (t.strip() for t in text.split(","))):
        key, eq, value = item.partition("=")
        key = key.strip()
        if not eq or not key.isidentifier():
            raise ValueError(f"bad option {item!r}: options are key=value, separated by commas")
        if key in options:
            raise ValueError(f"option {key!r} is given twice; give each option once")
        try:
            options[key] = ast.literal_eval(value.strip())
        except (ValueError, SyntaxError):
            options[key] = value.strip()
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


def named_factory(spec: str, registry: dict, kind: tuple[str, str], *, imports: bool = True
                  ) -> tuple[Callable, dict]:
    """``(factory, options)`` of a text naming one of ``registry`` with options
    (``random:bid_rate=0.5``) or, with ``imports``, a class by its path
    (``pkg.mod:Class:depth=3``); nothing made yet. ``kind``, what the registry holds (singular
    and plural), names it in the error of a text that names nothing."""
    name, colon, rest = spec.strip().partition(":")
    if name in registry:
        return registry[name], _options_after(rest if colon else None, spec, name, kind)
    attr, colon, opts = rest.partition(":")
    if attr.isidentifier() and imports:  # a class's path; 'pimcc:worlds=8' is a name misspelt
        path = f"{name}:{attr}"
        return load_object(path), _options_after(opts if colon else None, spec, path, kind)
    raise ValueError(f"unknown {kind[0]} {name!r}; known {kind[1]}: {', '.join(registry)}"
                     + (", or a 'package.module:Class' path to your own" if imports else ""))


def _options_after(text: str | None, spec: str, named: str, kind: tuple[str, str]) -> dict:
    """The options of ``spec`` after the colon that follows ``named`` (None: no colon). A
    colon with no option after it (``'greedy:'``) is refused: it would make the agent of
    ``named`` under another text, another agent to a league or a table."""
    if text is None:
        return {}
    options = parse_options(text)
    if not options:
        raise ValueError(f"bad {kind[0]} {spec!r}: no option after the colon; write {named} "
                         f"alone, or {named}:NAME=VALUE")
    return options


def agent_factory(spec: str, registry: dict | str | None = None, *, imports: bool = True
                  ) -> tuple[Callable, dict]:
    """``(factory, options)`` of an agent's text (see :func:`make_agent`), nothing made yet."""
    if registry is None or isinstance(registry, str):  # a game's name: its agents
        registry = agents_of(registry or "mediatore")
    return named_factory(spec, registry, ("agent", "agents"), imports=imports)


def option_names(factory: Callable) -> list[str]:
    """The options ``factory`` takes by name (none where its signature cannot be read)."""
    try:
        params = inspect.signature(factory).parameters.values()
    except (TypeError, ValueError):
        return []
    return [p.name for p in params if p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD)]


def takes_option(factory: Callable, name: str) -> bool:
    """Whether ``factory`` may take option ``name``: it names it, takes ``**options`` (which
    may pass it on) or has a signature that cannot be read."""
    try:
        params = inspect.signature(factory).parameters.values()
    except (TypeError, ValueError):
        return True
    return any(p.kind is p.VAR_KEYWORD for p in params) or name in option_names(factory)


def plain_members(annotation) -> set[str]:
    """The members of a parameter's union annotation that are exactly ``bool``, ``int``,
    ``float`` or ``str`` (``list[int] | None`` has none: its int is inside a container), read
    from a postponed annotation's text too: the plain data an agent's text can give it."""
    plain = {"bool", "int", "float", "str"}
    if isinstance(annotation, str):  # postponed (from __future__ import annotations)
        return {m.strip() for m in annotation.split("|")} & plain
    members = typing.get_args(annotation) if typing.get_origin(annotation) in (
        typing.Union, types.UnionType) else (annotation,)
    return {m.__name__ for m in members if m in (bool, int, float, str)}


def check_option_types(factory: Callable, options: dict) -> None:
    """Refuse (``ValueError``) an option whose value is plain data of a kind its parameter's
    annotation does not take, before anything is made: ``pimc:pool=nope`` (an int),
    ``greedy:play=nope`` (a policy object, which no text can write). An int passes for a
    float; a parameter without an annotation, and a value that is no plain datum, pass."""
    try:
        params = inspect.signature(factory).parameters
    except (TypeError, ValueError):
        return
    for name, value in options.items():
        param = params.get(name)
        if (param is None or param.annotation is param.empty
                or type(value) not in (bool, int, float, str)):
            continue
        kinds = plain_members(param.annotation)
        if type(value).__name__ in kinds or type(value) is int and "float" in kinds:
            continue
        wanted = (" or ".join(f"a {k}" if k != "int" else "an int" for k in sorted(kinds)) if kinds
                  else "an object, which an agent's text cannot give")
        raise ValueError(f"bad value {value!r} for option {name!r}: it takes {wanted}")


def build(factory: Callable, options: dict, label: str):
    """``factory(**options)``, the options' kinds checked first (:func:`check_option_types`).
    A bad option, or the factory's own ``TypeError`` or ``ValueError``, is a ``ValueError``
    "cannot make ``label``: ...", listing the factory's options where one was unknown."""
    try:
        check_option_types(factory, options)
        return factory(**options)
    except (TypeError, ValueError) as e:
        named = option_names(factory) if "unexpected keyword" in str(e) else []
        raise ValueError(f"cannot make {label}: {e}"
                         + (f"; its options: {', '.join(named)}" if named else "")) from None


def make_agent(spec: str, registry: dict | str | None = None, *, imports: bool = True,
               check_options=None, **overrides) -> Agent:
    """An agent from its text: ``'greedy'``, ``'random:bid_rate=0.5'``, ``'pkg.mod:MyAgent'``,
    ``'pkg.mod:MyAgent:depth=3'``. Keyword arguments add or override options. ``registry``:
    the names known, or a game's name for its agents (``agents_of(game)``; default
    Mediatore's). Raises
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
        agent = build(factory, options, f"agent {spec!r}")
    finally:
        _IMPORTS.reset(token)
    if not is_agent(agent):
        raise ValueError(f"{spec!r} is not an agent: an agent needs a method "
                         "act(observation, view) returning a move id")
    try:
        agent.name = spec
    except AttributeError:  # a class with __slots__ and no name: reports use its class name
        pass
    return agent

