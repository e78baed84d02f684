"""The registry of the family's games: one table that every tool reads.

Each :class:`GameEntry` says, for one game, where its parts live: the engine (a class that
implements :class:`~mediatore_env.core.game.Game`), its rules, its moves' text, the
observation writer, the table's text, the PettingZoo environment and the agents, and what
one episode of it is (a ``deal``, a ``game`` to 31, a ``session``). The parts are named by
``'module:attribute'`` paths and imported only when asked for, so this module sits beneath
everything and importing it imports no game::

    >>> import mediatore_env
    >>> game = mediatore_env.make("tressette3", low=True)
    >>> game.rules.players, game.rules.low, game.needs_pack
    (3, True, True)
    >>> sorted(GAMES)
    ['club', 'mediatore', 'tressette', 'tressette2', 'tressette3']

A new game is one folder (its engine, moves, view, observation writer and text) plus one
:func:`register` call; the tests register a toy game that way (``tests/toy_game``).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Any, Mapping

__all__ = ["GameEntry", "GAMES", "register", "get", "make", "load"]

UNITS = ("deal", "game", "session")


def load(path: str) -> Any:
    """The object named by ``'package.module:attribute'`` (a module for ``'package.module'``)."""
    module, _, attr = path.partition(":")
    loaded = importlib.import_module(module)
    return getattr(loaded, attr) if attr else loaded


@dataclass(frozen=True)
class GameEntry:
    """One game of the registry. Every path is ``'module:attribute'`` or a module."""

    #: The game's name: ``mediatore.make(name)``, ``--game name``, a record's ``"game"``.
    name: str
    #: Its name for people.
    title: str
    #: What one episode is: ``'deal'``, ``'game'`` (to 31) or ``'session'``.
    unit: str
    #: The number of seats.
    players: int
    #: The engine class: ``Engine(rules, dealer)`` waits at chance for its first pack.
    engine: str
    #: The rules class: a frozen dataclass of switches with ``replace``, ``to_dict`` and
    #: ``from_dict``; ``fixed`` are the switches this entry sets (a form of a game).
    rules: str
    #: The module of the move ids: ``NUM_MOVES``, ``move_text(move)``, ``parse_move(text)``.
    moves: str
    #: The observation writer: ``observation(view) -> {"observation", "action_mask"}``.
    codec: str
    #: The table's text for terminal play and replay.
    text: str
    #: The PettingZoo environment module (``env()``, ``raw_env``), and its registered id.
    env: str
    env_id: str
    #: The agents by name: ``{name: factory}``.
    agents: str
    #: The ``"format"`` of the game's records before the common header (version 1), if any.
    record_format: str | None = None
    fixed: Mapping[str, Any] = field(default_factory=dict)
    #: The world sampler: ``redeal(view, rng) -> (pack, moves)``, the current deal's pack and
    #: moves as the view's seat could imagine them, drawn uniformly ("" where there is none).
    worlds: str = ""
    #: The game's other environments: module -> PettingZoo id (``None``: not a PettingZoo
    #: environment, so not registered there), e.g. Mediatore's bidding environment.
    extra_envs: Mapping[str, str | None] = field(default_factory=dict)
    #: The duplicate tournament's hooks for this game (its packs, extra statistics, report:
    #: an ``agents.tournament.Hooks``); empty: the outcome alone.
    tournament: str = ""

    def __post_init__(self):
        if self.unit not in UNITS:
            raise ValueError(f"unit {self.unit!r} of game {self.name!r}; valid: {', '.join(UNITS)}")

    def load(self, part: str) -> Any:
        """The part named by field ``part`` (``'engine'``, ``'moves'``, ...), imported."""
        return load(getattr(self, part))

    def environments(self) -> dict[str, str | None]:
        """Every environment module of this game, its main one first, with its PettingZoo id."""
        return {self.env: self.env_id, **self.extra_envs}

    def make_rules(self, **switches):
        """The rules of this game with ``switches`` on top of the fixed ones. Raises
        ``ValueError`` naming a switch this game does not have."""
        clash = sorted(set(switches) & set(self.fixed))
        if clash:
            raise ValueError(f"{self.name} fixes {', '.join(clash)}; give another game instead")
        return self.load("rules")(**self.fixed, **switches)

    def new_game(self, rules=None, dealer: int = 0):
        """A game of these rules (default: the entry's), first dealt by ``dealer``, waiting
        for its first pack (``to_move`` is ``CHANCE``)."""
        return self.load("engine")(self.make_rules() if rules is None else rules, dealer)


#: Every registered game, by name.
GAMES: dict[str, GameEntry] = {}


def register(entry: GameEntry) -> GameEntry:
    """Add a game to :data:`GAMES` (a name registered again is replaced)."""
    GAMES[entry.name] = entry
    return entry


def get(name: str) -> GameEntry:
    """The entry of game ``name``; ``ValueError`` naming the games there are otherwise."""
    try:
        return GAMES[name]
    except (KeyError, TypeError):
        raise ValueError(f"unknown game {name!r}; valid: {', '.join(GAMES)}") from None


def make(name: str, dealer: int = 0, **switches):
    """A new game of ``name`` with rules ``switches``, first dealt by ``dealer``, waiting for
    its first pack: ``make("tressette3", low=True)``."""
    entry = get(name)
    return entry.new_game(entry.make_rules(**switches), dealer)


_TRESSETTE = dict(
    unit="game", engine="mediatore_env.tressette.game:TressetteGame",
    rules="mediatore_env.tressette.rules:TressetteRules", moves="mediatore_env.tressette.moves",
    codec="mediatore_env.tressette.observation", text="mediatore_env.tressette.display",
    agents="agents.tressette:AGENTS", record_format="tressette-record",
    worlds="mediatore_env.tressette.worlds:redeal", tournament="agents.tressette.tournament:HOOKS")

register(GameEntry(
    "mediatore", "Mediatore", unit="deal", players=4,
    engine="mediatore_env.mediatore.game:Deal", rules="mediatore_env.mediatore.rules:Rules",
    moves="mediatore_env.mediatore.moves", codec="mediatore_env.mediatore.observation",
    text="mediatore_env.mediatore.display", env="mediatore_env.mediatore.mediatore_v0",
    env_id="mediatore/mediatore-v0", agents="agents:AGENTS", record_format="mediatore-record",
    worlds="mediatore_env.mediatore.worlds:redeal", tournament="agents.mediatore.tournament:HOOKS",
    extra_envs={"mediatore_env.mediatore.mediatore_bidding_v0": "mediatore/mediatore-bidding-v0",
                "mediatore_env.mediatore.single_seat": None}))
register(GameEntry(
    "tressette", "Partnership Tressette", players=4, fixed={"players": 4},
    env="mediatore_env.tressette.tressette_v0", env_id="mediatore/tressette-v0", **_TRESSETTE))
register(GameEntry(
    "tressette3", "Three-Handed Tressette", players=3, fixed={"players": 3},
    env="mediatore_env.tressette.tressette3_v0", env_id="mediatore/tressette3-v0", **_TRESSETTE))
register(GameEntry(
    "tressette2", "Two-Handed Tressette", players=2, fixed={"players": 2},
    env="mediatore_env.tressette.tressette2_v0", env_id="mediatore/tressette2-v0", **_TRESSETTE))
register(GameEntry(
    "club", "club Mediatore", unit="session", players=4,
    engine="mediatore_env.club.game:Session", rules="mediatore_env.club.rules:ClubRules",
    moves="mediatore_env.club.moves", codec="mediatore_env.club.observation",
    text="mediatore_env.club.display", env="mediatore_env.club.club_mediatore_v0",
    env_id="mediatore/club-mediatore-v0", agents="agents.club:CLUB_AGENTS",
    record_format="club-mediatore-record", worlds="mediatore_env.club.worlds:redeal",
    tournament="agents.club.tournament:HOOKS"))
