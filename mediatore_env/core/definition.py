"""A game of the family as one typed object: :class:`GameDef`, every part of the game a field.

A game's folder defines its ``GameDef`` (``mediatore_env/tressette/definition.py``:
``TRESSETTE``, ``TRESSETTE3``, ``TRESSETTE2``) and the registry (:mod:`mediatore_env.registry`)
holds them; every tool reads the fields and nothing else of a game (OpenSpiel's ``GameType``
and ``GameInfo``, pgx's ``Env`` properties, Gymnasium's ``EnvSpec`` are the models). What is
optional is an optional field whose default says what a game without it gets::

    >>> from mediatore_env.registry import get
    >>> d = get("tressette3")
    >>> d.players, d.unit, d.moves.count, d.moves.text(40)
    (3, 'game', 41, 'claim')
    >>> d.new_game(d.make_rules(low=True)).rules.low
    True

The parts of the game's own layers (its rules, engine, moves, observation writer, display,
world sampler, limits) are real references. The parts that live above them (its agents and
the tournament's hooks, in the top-level ``agents`` package; its PettingZoo modules; its JAX
engine, which needs JAX) are :class:`Lazy`: named where they live, typed, imported the first
time they are asked for, so that importing a game imports nothing above it.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, Callable, Generic, Literal, Mapping, NamedTuple, TypeVar

from .display import Display
from .game import Game
from .rules import RulesBase

__all__ = ["GameDef", "Lazy", "MoveTable", "Limits", "Environment", "Unit", "UNITS"]

T = TypeVar("T")

#: What one episode of a game is: a deal, a game (to 31, over several hands), a session.
Unit = Literal["deal", "game", "session"]
UNITS: tuple[str, ...] = ("deal", "game", "session")


@dataclass(frozen=True)
class Lazy(Generic[T]):
    """A part of a game that lives above the game's own layers, named by where it lives
    (``'package.module:attribute'``) and imported on the first :meth:`load`. The type
    parameter says what it is: ``Lazy[Mapping[str, AgentFactory]]``."""

    path: str

    def load(self) -> T:
        module, _, attr = self.path.partition(":")
        loaded = importlib.import_module(module)
        return getattr(loaded, attr) if attr else loaded  # type: ignore[return-value]


@dataclass(frozen=True)
class MoveTable:
    """A game's moves: ``count`` ids (0 to ``count - 1``, shared by every phase, the action ids
    of its environments), each with a text that :attr:`parse` reads back."""

    count: int
    text: Callable[[int], str]
    parse: Callable[[str], int]


class Limits(NamedTuple):
    """The bounds of one game under its rules (OpenSpiel's ``GameInfo``): the least and most
    any seat's outcome can be, the longest game in moves, and the most packs it deals."""

    min_utility: float
    max_utility: float
    max_moves: int
    max_deals: int


@dataclass(frozen=True)
class Environment:
    """A PettingZoo (or Gymnasium) environment module of a game, with ``env()`` and
    ``raw_env``: ``module`` names it, a module (``'mediatore_env.club.club_mediatore_v0'``) or
    a module object in one (``'mediatore_env.tressette.env:tressette3_v0'``: the forms of a
    game written as one module), importable as ``mediatore_env.<its name>`` where it lives in
    the package; ``pettingzoo_id`` registers it with PettingZoo (None: not a PettingZoo
    environment, Mediatore's single seat)."""

    module: str
    pettingzoo_id: str | None = None

    @property
    def name(self) -> str:
        """The environment's own name: ``tressette3_v0``."""
        return self.module.rpartition(":")[2].rpartition(".")[2]

    def load(self) -> ModuleType:
        return Lazy(self.module).load()


@dataclass(frozen=True)
class GameDef:
    """One game of the family: its facts and its parts (see the module docstring)."""

    #: The game's name: ``make(name)``, ``--game name``, a record's ``"game"``.
    name: str
    #: Its name for people.
    title: str
    #: The number of seats.
    players: int
    #: What one episode is.
    unit: Unit
    #: The rules: a frozen dataclass of switches (``replace``, ``to_dict``, ``from_dict``).
    rules: type[RulesBase]
    #: The engine: ``engine(rules, dealer)`` is a :class:`~.game.Game` waiting at chance.
    engine: type[Game]
    #: The moves: their number, text and parser.
    moves: MoveTable
    #: The observation writer: ``observation(view) -> {"observation", "action_mask"}``.
    observation: Callable[[Any], dict]
    #: The table as text and JSON, and the hooks of play, replay and the browser table: a
    #: :class:`~.display.Display` with the game's own hooks.
    display: Display
    #: The bounds of a game under given rules (utilities, length, packs).
    limits: Callable[[Any], Limits]
    #: The rules switches this game fixes (a form of a game: ``tressette3`` is ``players=3``).
    fixed: Mapping[str, Any] = field(default_factory=dict)
    #: The world sampler: ``worlds(view, rng) -> (pack, moves)``, the current pack and moves as
    #: the view's seat could imagine them, drawn uniformly. None: no search agent, no
    #: OpenSpiel resampling.
    worlds: Callable[[Any, Any], tuple] | None = None
    #: A plain reference writer of the same observation, if the game has one: the universal
    #: test holds the two equal.
    reference_observation: Callable[[Any], Any] | None = None
    #: The game's environment modules, its main one first. Empty: the generic environment of
    #: :mod:`mediatore_env.envs.base` (``GameEnv(name)``) is the game's, registered with
    #: PettingZoo as ``mediatore/<name>-v0``.
    environments: tuple[Environment, ...] = ()
    #: The game's agents by name (``{name: factory}``); None: the agents every trick game of
    #: the family gets (``agents.agents_of``).
    agents: Lazy[Mapping[str, Callable[..., Any]]] | None = None
    #: The duplicate tournament's hooks (``agents.tournament.Hooks``); None: the outcome alone.
    tournament: Lazy[Any] | None = None
    #: The ``"format"`` of the game's records before the common header (version 1), if any.
    record_format: str | None = None

    def __post_init__(self):
        if self.unit not in UNITS:
            raise ValueError(f"unit {self.unit!r} of game {self.name!r}; valid: {', '.join(UNITS)}")

    # A definition is one per game and never changes: a copy is the same object (and a pickle
    # names the game, found in the registry where it is unpickled: mediatore_env.registry).
    def __deepcopy__(self, memo) -> "GameDef":
        return self

    @property
    def pettingzoo_id(self) -> str:
        """The PettingZoo id of the game's main environment."""
        if self.environments and self.environments[0].pettingzoo_id:
            return self.environments[0].pettingzoo_id
        return f"mediatore/{self.name}-v0"

    def make_rules(self, **switches):
        """The rules of this game with ``switches`` on top of the fixed ones. Raises
        ``ValueError`` naming a switch this game does not have or fixes."""
        clash = sorted(set(switches) & set(self.fixed))
        if clash:
            raise ValueError(f"{self.name} fixes {', '.join(clash)}; give another game instead")
        return self.rules(**self.fixed, **switches)

    def new_game(self, rules=None, dealer: int = 0) -> Game:
        """A game of these rules (default: the game's), first dealt by ``dealer``, waiting for
        its first pack (``to_move`` is ``CHANCE``)."""
        return self.engine(self.make_rules() if rules is None else rules, dealer)
