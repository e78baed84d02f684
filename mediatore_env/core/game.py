"""The game interface: what every game of the family is to the code above it.

Every engine of the package (Mediatore's :class:`~mediatore_env.mediatore.game.Deal`, the
Tressette games' :class:`~mediatore_env.tressette.game.TressetteGame`, club Mediatore's
:class:`~mediatore_env.club.game.Session`) implements :class:`Game`, and the code above the
engines (environments, the tournament, terminal play, replay, the universal tests) uses
nothing else of them, with each game's move text from its ``moves`` module and everything
else from its entry in :mod:`mediatore_env.registry`. A new game implements this protocol and
adds one line to the registry. The engines inherit the move checks from :class:`Engine`.

The verbs are OpenSpiel's State and pgx's Env in this package's words:

==================  ========================================  ==============================
here                meaning                                   OpenSpiel
==================  ========================================  ==============================
``to_move``         the seat to move, :data:`CHANCE` while a  ``current_player()``
                    pack is to be dealt, None once over
``legal_moves()``   the move ids of the seat to move          ``legal_actions()``
``apply(move)``     make a move                               ``apply_action``
``deal(pack)``      the chance event: deal a pack             a chance action
``is_over``         the game has ended (a property)           ``is_terminal()``
``outcome``         each seat's result once over, zero-sum    ``returns()``
``view(seat)``      what the seat knows                       an observer
``clone()``         an independent copy                       ``clone()``
``to_json()``       a dict of JSON values; ``from_json``      ``serialize()``
``record(**meta)``  the record; ``replay(record)`` rebuilds   
==================  ========================================  ==============================

Chance is handled one way in every game: when the next hand needs a pack, ``to_move`` is
:data:`CHANCE` and :meth:`Game.deal` takes the 40 cards in pack order; nothing else moves the
game on. An engine may take the packs when it is made (a ``Deal`` given its pack is dealt at
once) but is never short of one without saying so. So a tournament, a replay or a sampler of
worlds decides every pack, and the same packs give the same game.

Moves are small ints, one id space per game, shared by every phase and equal to the
environment's action ids; each game's ``moves`` module has ``NUM_MOVES``, ``move_text(move)``
and ``parse_move(text)`` (which round-trip). ``apply`` takes a move id (a Python or numpy
integer) and refuses anything else, or an illegal move, with a ``ValueError`` that names the
move, the seat and the legal moves, leaving the state unchanged.
"""

from __future__ import annotations

from typing import Any, ClassVar, NoReturn, Protocol, Sequence, runtime_checkable

from .moves import as_move_id, described_move

#: ``to_move`` while the next pack is to be dealt: OpenSpiel's chance player.
CHANCE = -1


def seat_of(value, players: int, what: str = "seat") -> int:
    """``value`` as a seat of a game of ``players``: an integer (numpy's too, as for a move id;
    not a bool or a float) from 0 to ``players - 1``; else ``ValueError`` naming ``what`` it
    was (a seat, a dealer) and the valid seats."""
    seat = as_move_id(value)
    if seat is None or not 0 <= seat < players:
        raise ValueError(f"bad {what} {value!r}; valid: " + ", ".join(map(str, range(players))))
    return seat



class GameView:
    """The base of every game's view (``game.view(seat)``): a live, read-only window on
    ``game`` from ``seat``, read from the game each time it is asked, with the facts every
    game makes public: the rules, the seats, the dealer, the seat to move, the trick's leader
    and its cards, how many cards each seat holds, how many moves were made, whether it is
    over and then every seat's outcome; and the seat's
    own hand and legal moves. A game's view adds what else its seat may know, and nothing
    more."""

    __slots__ = ("_game", "seat")

    def __init__(self, game: Any, seat: int):
        self._game = game
        self.seat = seat_of(seat, game.players)

    rules = property(lambda self: self._game.rules)
    players = property(lambda self: self._game.players)
    dealer = property(lambda self: self._game.dealer)
    to_move = property(lambda self: self._game.to_move)
    leader = property(lambda self: self._game.leader)
    is_over = property(lambda self: self._game.is_over)
    outcome = property(lambda self: self._game.outcome)  # every seat's, once over: public
    # Decisions made so far (public: everyone sees each one being made, if not always what it
    # was). It only grows as the game goes on, so observers use it to notice that nothing changed.
    move_count = property(lambda self: len(self._game.history))

    @property
    def trick(self) -> tuple[int, ...]:
        """Cards of the trick on the table, in playing order from its leader."""
        return tuple(self._game.trick)

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        return tuple(map(int.bit_count, self._game.hands))

    @property
    def hand(self) -> int:
        """The seat's cards now (a bitset)."""
        return self._game.hands[self.seat]

    def legal_moves(self) -> list[int]:
        """This seat's legal moves: empty unless it is the seat to move."""
        game = self._game
        return game.legal_moves() if game.to_move == self.seat else []

    def __repr__(self):
        return f"<{type(self).__name__} seat={self.seat} of {self._game!r}>"


@runtime_checkable
class Game(Protocol):
    """One game of the family in play: the whole truth, mutable, changed only by
    :meth:`apply` and :meth:`deal`. What one seat may know is :meth:`view`."""

    def __init__(self, rules: Any, dealer: int = 0) -> None:
        """A game of ``rules`` whose first hand ``dealer`` deals, waiting for its first pack."""

    rules: Any
    #: The seat that dealt the hand on the table: the one just ended while the next waits for
    #: its pack (the next dealer is named as that pack is dealt).
    dealer: int

    @property
    def first_dealer(self) -> int:
        """The seat that dealt the first hand."""

    @property
    def packs(self) -> Sequence[Sequence[int]]:
        """The packs dealt so far, in order, each as 40 card ids."""
    #: The seat to move; :data:`CHANCE` while a pack is needed; None once over.
    to_move: int | None
    #: Every move made, as ``(seat, move)``, in order (packs are not moves).
    history: list[tuple[int, int]]

    @property
    def players(self) -> int:
        """The number of seats, 2 to 4."""

    @property
    def is_over(self) -> bool:
        """True once the game has ended: no more moves or packs."""

    @property
    def outcome(self) -> tuple[int, ...] | None:
        """Each seat's result once over, summing to zero (units, points or chips, as the
        game scores); None before."""

    def legal_moves(self) -> list[int]:
        """The move ids the seat to move may make, each once, in the game's own order (the
        order agents and their seeded choices see; Mediatore's lists the cards of a suit
        strongest first); empty when no seat is to move (chance or over)."""

    def is_legal(self, move) -> bool:
        """Whether ``move`` (an int) is one of :meth:`legal_moves`."""

    def apply(self, move) -> None:
        """Make move ``move`` of the seat to move; ``ValueError`` (state unchanged) if it is
        not a legal move id."""

    def deal(self, pack: Sequence) -> None:
        """The chance event: deal ``pack`` (40 distinct cards, ids or texts, in pack order)
        while ``to_move`` is :data:`CHANCE`; ``ValueError`` (state unchanged) otherwise."""

    def view(self, seat: int) -> Any:
        """What ``seat`` knows now: its hand and the public history, nothing else."""

    def clone(self) -> "Game":
        """An independent copy, equal to this game."""

    def to_json(self) -> dict:
        """The state as a dict of JSON values; the class's ``from_json`` rebuilds an equal
        game."""

    def record(self, **meta) -> dict:
        """The game's record (a header with the game's format and version, the rules, the
        packs, every move as text with its seat, the result once over); keyword arguments
        go under ``"meta"``. The class's ``replay(record)`` re-simulates it."""

    @classmethod
    def from_json(cls, data) -> "Game":
        """The game that :meth:`to_json` wrote (a dict, or its JSON text)."""

    @classmethod
    def replay(cls, record: dict) -> "Game":
        """Re-simulate a record; ``ValueError`` naming the first thing that differs."""


class Engine:
    """What the engines share of :class:`Game`: the checks before a move, written once.

    An engine makes a legal move (``_apply``); it may say faster than :meth:`legal_moves`
    whether a move id is legal (``_is_legal``), and explain an illegal one in its own words
    (``_raise_illegal``, which raises ``ValueError``; by default it names the move by the
    engine's :attr:`NUM_MOVES` and :attr:`move_text`, the seat and the legal moves); this class
    turns those into :meth:`apply`, :meth:`is_legal` and :attr:`needs_pack`."""

    __slots__ = ()  # the engines keep their own slots and no __dict__

    to_move: int | None
    #: The number of the game's move ids, what an illegal move's message names them by with
    #: :meth:`move_text`; an engine sets the three from its moves module (``NUM_MOVES = 41``,
    #: ``move_text = staticmethod(move_text)``, ``parse_move = staticmethod(parse_move)``).
    NUM_MOVES: ClassVar[int] = 0

    @staticmethod
    def move_text(move: int) -> str:
        """A move in the game's notation."""
        return str(move)

    @staticmethod
    def parse_move(text: str) -> int:
        """The move a text in the game's notation names."""
        raise NotImplementedError

    @property
    def needs_pack(self) -> bool:
        """The next hand waits for ``deal(pack)`` (``to_move`` is :data:`CHANCE`)."""
        return self.to_move == CHANCE

    def is_legal(self, move) -> bool:
        """Whether ``move`` (an int id) is legal for the seat to move."""
        return type(move) is int and self._is_legal(move)

    def apply(self, move) -> None:
        """Make a move of the seat to move. An illegal move raises ``ValueError`` naming the
        move, the seat and the legal moves; the state is then left unchanged."""
        move_id = as_move_id(move)  # numpy integers are welcome; floats, bools, strings are not
        if move_id is None or not self._is_legal(move_id):
            self._raise_illegal(move if move_id is None else move_id)
        self._apply(move_id)

    def apply_text(self, text: str) -> None:
        """Make the move of the seat to move that ``text`` names (``"D3"``, ``"bid solo"``)."""
        self.apply(self.parse_move(text))

    def legal_moves(self) -> list[int]:
        raise NotImplementedError

    def _is_legal(self, move: int) -> bool:
        return move in self.legal_moves()

    def _apply(self, move: int) -> None:
        raise NotImplementedError

    def _raise_illegal(self, move) -> NoReturn:
        what = described_move(move, self.NUM_MOVES, self.move_text)
        if self.to_move is None:
            raise ValueError(f"illegal move {what}: the game is over")
        if self.to_move == CHANCE:
            raise ValueError(f"illegal move {what}: the next hand needs a pack first (deal)")
        legal = ", ".join(f"{self.move_text(m)} ({m})" for m in self.legal_moves())
        raise ValueError(f"illegal move {what} for seat {self.to_move}; legal: {legal}")
