"""The registry of the family's games: one table of :class:`~.core.definition.GameDef` objects
that every tool reads.

The games shipped here, and any game installed as a distribution of its own that names its
definition under the entry-point group ``mediatore_env.games`` (``toy =
"toy_game:TOY"`` in its ``pyproject.toml``), are found by name and their definitions imported
the first time they are asked for, so importing the registry imports no game::

    >>> import mediatore_env
    >>> game = mediatore_env.make("tressette3", low=True)
    >>> game.rules.players, game.rules.low, game.needs_pack
    (3, True, True)
    >>> [name for name in GAMES if name in BUILTIN]
    ['mediatore', 'tressette', 'tressette3', 'tressette2', 'club']

A new game is one folder with its definition, plus :func:`register` (or the entry point):
docs/games.md is the tutorial, and the tests' toy game is one.
"""

from __future__ import annotations

import copyreg
from importlib import metadata
from typing import Any, Iterator, Mapping

from .core.definition import GameDef, Lazy
from .core.records import FORMAT, LEGACY_VERSION

__all__ = ["GameDef", "GAMES", "BUILTIN", "ENTRY_POINTS", "register", "get", "make",
           "definition_of", "replay"]

#: The games of this package, by name: where each definition lives.
BUILTIN: dict[str, Lazy[GameDef]] = {
    "mediatore": Lazy("mediatore_env.mediatore.definition:MEDIATORE"),
    "tressette": Lazy("mediatore_env.tressette.definition:TRESSETTE"),
    "tressette3": Lazy("mediatore_env.tressette.definition:TRESSETTE3"),
    "tressette2": Lazy("mediatore_env.tressette.definition:TRESSETTE2"),
    "club": Lazy("mediatore_env.club.definition:CLUB"),
}
#: The entry-point group under which an installed distribution names its games.
ENTRY_POINTS = "mediatore_env.games"


class Games(Mapping[str, GameDef]):
    """Every game by name: those of this package, those installed under the entry-point group,
    those registered at run time. A definition is imported when first asked for."""

    def __init__(self):
        self._known: dict[str, Lazy[GameDef] | GameDef] = dict(BUILTIN)
        self._installed = False

    def _install(self) -> None:
        """Add the games installed as distributions of their own (once)."""
        if self._installed:
            return
        self._installed = True
        for point in metadata.entry_points(group=ENTRY_POINTS):
            self._known.setdefault(point.name, Lazy(point.value))

    def __getitem__(self, name: str) -> GameDef:
        self._install()
        part = self._known[name]
        if isinstance(part, Lazy):
            part = part.load()
            if not isinstance(part, GameDef) or part.name != name:
                raise TypeError(f"game {name!r} names {part!r}, not the GameDef of {name!r}")
            self._known[name] = part
        return part

    def __iter__(self) -> Iterator[str]:
        self._install()
        return iter(self._known)

    def __len__(self) -> int:
        self._install()
        return len(self._known)

    def add(self, definition: GameDef) -> GameDef:
        self._install()
        self._known[definition.name] = definition
        return definition

    # As a dict's, for tests that put a game in for a while (pytest's monkeypatch.setitem).
    def __setitem__(self, name: str, definition: GameDef) -> None:
        if definition.name != name:
            raise ValueError(f"the definition of {definition.name!r} registered as {name!r}")
        self.add(definition)

    def __delitem__(self, name: str) -> None:
        del self._known[name]


#: Every registered game, by name.
GAMES = Games()


def register(definition: GameDef) -> GameDef:
    """Add a game to :data:`GAMES` (a name registered again is replaced)."""
    if not isinstance(definition, GameDef):
        raise TypeError(f"register() takes a GameDef, not {definition!r}")
    return GAMES.add(definition)


def get(name: object) -> GameDef:
    """The definition of game ``name``; ``ValueError`` naming the games there are otherwise."""
    if isinstance(name, str) and name in GAMES:
        return GAMES[name]
    raise ValueError(f"unknown game {name!r}; valid: {', '.join(GAMES)}")


# A definition pickles as its game's name (an environment sent to a worker, to Ray): the
# registry there gives it back, functions, modules and all.
copyreg.pickle(GameDef, lambda definition: (get, (definition.name,)))


def make(name: str, dealer: int = 0, rules=None, **switches):
    """A new game of ``name`` with its ``rules`` (a preset name, a dict of switches or a rules
    object; None: the game's) and rules ``switches`` on top, first dealt by ``dealer``,
    waiting for its first pack: ``make("tressette3", low=True)``, ``make("mediatore",
    rules="low")``."""
    definition = get(name)
    return definition.new_game(definition.make_rules(rules, **switches), dealer)


def definition_of(record) -> GameDef:
    """The definition of the game a record is of, by its header (a version 1 record by
    its format). Raises ``ValueError`` for anything that is not a game record."""
    if not isinstance(record, dict):
        raise ValueError(f"not a game record: a JSON object is expected, not "
                         f"{type(record).__name__}")
    form = record.get("format")
    if form == FORMAT:
        return get(record.get("game"))
    for definition in GAMES.values():
        if form is not None and definition.record_format == form:
            return definition
    formats = ", ".join(dict.fromkeys(e.record_format for e in GAMES.values() if e.record_format))
    raise ValueError(f"not a game record: format is {form!r}, expected {FORMAT!r} "
                     f"(or, version {LEGACY_VERSION}, one of {formats})")


def replay(record) -> Any:
    """Re-simulate a record of any game; return the game, finished as it was recorded. Raises
    ``ValueError`` naming the first thing that differs (the header, a move by the wrong seat,
    an illegal move, a different result), or a field missing or of the wrong kind."""
    engine = definition_of(record).engine
    try:
        return engine.replay(record)
    except (KeyError, TypeError, AttributeError, IndexError) as e:  # the record's shape, which
        # the engines read as they find it: said here once, for every caller
        raise ValueError(f"a field missing or of the wrong kind ({type(e).__name__}: "
                         f"{str(e)[:200]})") from None
