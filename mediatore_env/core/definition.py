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
world sampler, limits, trick facts) are real references. The parts that live above them (its
agents and the tournament's hooks, in the top-level ``agents`` package; its PettingZoo
modules; its JAX engine, which needs JAX) are :class:`Lazy`: named where they live, typed,
imported the first time they are asked for, so that importing a game imports nothing above
it.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, Callable, Generic, Literal, Mapping, NamedTuple, Sequence, TypeVar

from . import worlds
from .cards import LAST_TRICK_THIRDS, NUM_CARDS, POINTS
from .display import Display
from .game import Game
from .rules import RulesBase
from .tricks import trick_winner

__all__ = ["GameDef", "Lazy", "MoveTable", "Limits", "Environment", "Unit", "UNITS",
           "TrickFacts", "Scoring", "THIRDS", "TRICKS"]

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


class Scoring(NamedTuple):
    """What a hand's tricks score to the side that takes them, under one game's rules: each
    card's points (``card[c]``), what the last trick of a hand adds, what every trick adds, and
    whether a side wants the fewest (Low Hand). The family's thirds are :data:`THIRDS`, one
    point a trick :data:`TRICKS`; a game with other card points (Briscola's 11 for an ace)
    gives its own table."""

    card: tuple[int, ...]
    last_trick: int = 0
    per_trick: int = 0
    low: bool = False

    def trick(self, cards, last: bool) -> int:
        """What a trick of ``cards`` scores the side that takes it, ``last`` if it is the
        hand's last trick: its cards' points, what every trick adds, what the last adds."""
        card = self.card
        return sum(card[c] for c in cards) + self.per_trick + self.last_trick * last

    def most_per_hand(self, tricks: int) -> int:
        """The most one hand of ``tricks`` tricks can score: every card's points (the whole
        pack's, where a hand deals only some of it), every trick's and the last trick's."""
        return sum(self.card) + self.per_trick * tricks + self.last_trick


#: The family's points, in thirds: an Asso 3, a 3, a 2 or a figure 1, the last trick 3.
THIRDS = Scoring(POINTS, LAST_TRICK_THIRDS)
#: One point a trick, whatever its cards.
TRICKS = Scoring((0,) * NUM_CARDS, per_trick=1)


def plain_card(move: int) -> int | None:
    """The card move ``move`` plays: move ``c`` plays card ``c`` (0..39); a higher id plays
    none (Tressette's claim)."""
    return move if 0 <= move < NUM_CARDS else None


def plain_move(card: int) -> int:
    """The move that plays ``card``: its id."""
    return card


def alone(view) -> int:
    """Each seat plays alone: its side is itself."""
    return 1 << view.seat


def thirds(rules) -> Scoring:
    """The family's points, whatever the rules."""
    return THIRDS


@dataclass(frozen=True)
class TrickFacts:
    """What an agent that knows no game but the trick (the generic ``greedy`` and ``pimc`` of
    ``agents/trick.py``) needs to know of one, each with the family's default, so that a game
    of the family fills in only what differs (the toy game: its scoring and how it deals)::

        TrickFacts(scoring=lambda rules: TRICKS if rules.scoring == "tricks" else THIRDS,
                   deal=lambda rules, dealer: ...)

    A move that plays no card (a bid, a call, a discard, a claim) the generic agents make only
    when no card can be played, and then the lowest id of those legal: the cautious one in the
    family's games (a pass; a claim never, as a card can always be played instead). They read
    a view's ``seat``, ``hand``, ``rules``, ``trick``, ``leader``, ``tricks`` (the current
    hand's finished ones: ``leader``, ``cards``, ``winner``), ``dealer`` (the current hand's)
    and ``legal_moves()``.

    The generic PIMC solves a hand exactly, with the family's double-dummy solver
    (analysis/solver.py), where the game plays the family's tricks (the default ``winner``,
    following suit) and scores its thirds; the seats' hands, the trick, the thirds the side has
    taken and the :attr:`stock` make the solver's table. Trumps (a Briscola) are a ``winner``
    of the game's own and ``follow_suit=False`` where following is free: the generic agents
    play them, and PIMC rolls their worlds out (the solver knows no trumps)."""

    #: The card a move plays to the trick, or None for a move that plays none.
    card: Callable[[int], int | None] = plain_card
    #: The move that plays a card, with no other choice in it (Mediatore's: no signal).
    play: Callable[[int], int] = plain_move
    #: The seats the view's seat knows to score with it, itself included, as a bitmask.
    side: Callable[[Any], int] = alone
    #: What tricks score under the given rules.
    scoring: Callable[[Any], Scoring] = thirds
    #: ``winner(leader, cards, players)``: the seat that wins (or is winning) a trick whose
    #: cards, in playing order from ``leader``'s, are ``cards``. The family's: no trumps, the
    #: highest card of the suit led.
    winner: Callable[[int, Sequence[int], int], int] = trick_winner
    #: Whether a seat must follow the suit led if it can (so one that did not has none).
    follow_suit: bool = True
    #: ``deal(rules, dealer)``: the seat each of a hand's 40 cards goes to, in pack order
    #: (None: left unseen), where every hand is dealt so and then only played; the game then
    #: gets a world sampler for free (:meth:`redeal`). None: the game deals otherwise.
    deal: Callable[[Any, int], Sequence[int | None]] | None = None
    #: ``stock(game)``: the cards a game's current hand has still to draw, top first, each
    #: trick's winner drawing the top card and the other seat the next (the family's
    #: two-handed game). None: every card still to be played is in a hand.
    stock: Callable[[Any], Sequence[int]] | None = None

    def redeal(self, view, rng=None) -> tuple[list[int], list[int]]:
        """The current hand's ``(pack, moves)`` as ``view``'s seat could imagine it, drawn
        uniformly (:func:`mediatore_env.core.worlds.redeal`; needs :attr:`deal`)."""
        return worlds.redeal(self, view, rng)


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
    #: the view's seat could imagine them, drawn uniformly. None: the generic one of a plain
    #: trick game whose trick facts say how a hand is dealt (:meth:`TrickFacts.redeal`); else
    #: no search agent, no OpenSpiel resampling.
    worlds: Callable[[Any, Any], tuple] | None = None
    #: A plain reference writer of the same observation, if the game has one: the universal
    #: test holds the two equal.
    reference_observation: Callable[[Any], Any] | None = None
    #: The game's environment modules, its main one first. Empty: the generic environment of
    #: :mod:`mediatore_env.envs.base` (``GameEnv(name)``) is the game's, registered with
    #: PettingZoo as ``mediatore/<name>-v0``.
    environments: tuple[Environment, ...] = ()
    #: The game's own agents by name (``{name: factory}``); None: none of its own, only the
    #: agents every game gets (``agents.agents_of``: random, and with trick facts the generic
    #: greedy and pimc).
    agents: Lazy[Mapping[str, Callable[..., Any]]] | None = None
    #: The duplicate tournament's hooks (``agents.tournament.Hooks``); None: the outcome alone.
    tournament: Lazy[Any] | None = None
    #: The batched JAX engine (:mod:`mediatore_env.jaxgame`), a class taking the game's rules
    #: object: what ``jaxgame.make(name)`` builds and self-play trains on; None: none.
    jax: Lazy[type] | None = None
    #: The outcome rewards are counted in for training, under given rules (``normalize_rewards``
    #: divides by it): None, the largest outcome a seat can have (its limits); club's first pot,
    #: where the largest is so large that rewards in it would vanish.
    reward_unit: Callable[[Any], float] | None = None
    #: The ``"format"`` of the game's records before the common header (version 1), if any.
    record_format: str | None = None
    #: What the generic trick agents need to know of the game (:class:`TrickFacts`); None: it
    #: is no trick game they can play.
    trick: TrickFacts | None = None

    def __post_init__(self):
        if self.unit not in UNITS:
            raise ValueError(f"unit {self.unit!r} of game {self.name!r}; valid: {', '.join(UNITS)}")
        if self.worlds is None and self.trick is not None and self.trick.deal is not None:
            object.__setattr__(self, "worlds", self.trick.redeal)

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

    def make_rules(self, rules=None, **switches):
        """The rules of this game: ``rules`` (None: the defaults; a preset name, a dict of
        switches or a rules object, as :meth:`Rules.coerce` takes them) with ``switches`` on
        top, and the game's fixed switches. Raises ``ValueError`` naming a switch this game
        does not have or fixes, or a preset it does not have."""
        if isinstance(rules, Mapping):
            switches = {**rules, **switches}
        elif rules is not None:  # a preset or a rules object: its switches (fixed ones only
            given = self.rules.coerce(rules).to_dict()  # where they differ, to be refused)
            switches = {**{k: v for k, v in given.items()
                           if k not in self.fixed or v != self.fixed[k]}, **switches}
        clash = sorted(set(switches) & set(self.fixed))
        if clash:
            fixed = ", ".join(f"{k}={self.fixed[k]!r}" for k in clash)
            raise ValueError(f"{self.name} fixes {fixed}; give another game instead")
        return self.rules(**self.fixed, **switches)

    def reward_unit_of(self, rules) -> float:
        """The outcome rewards are counted in under ``rules`` (:attr:`reward_unit`)."""
        if self.reward_unit is not None:
            return float(self.reward_unit(rules))
        limits = self.limits(rules)
        return float(max(-limits.min_utility, limits.max_utility))

    def has_rules(self, rules) -> bool:
        """Whether ``rules`` are this game's: of its rules class, with the switches it fixes
        (Three-Handed Tressette's rules have ``players=3``, the Partnership game's do not)."""
        return isinstance(rules, self.rules) and all(
            getattr(rules, k) == v for k, v in self.fixed.items())

    def new_game(self, rules=None, dealer: int = 0) -> Game:
        """A game of these rules (default: the game's), first dealt by ``dealer``, waiting for
        its first pack (``to_move`` is ``CHANCE``). ``rules`` may be anything
        :meth:`make_rules` takes; another game's (Three-Handed rules for the Partnership game)
        are refused with its ``ValueError``, not played under this game's name."""
        return self.engine(rules if self.has_rules(rules) else self.make_rules(rules), dealer)
