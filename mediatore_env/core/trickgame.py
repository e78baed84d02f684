"""A plain trick game of the family written once: :class:`PlainTrickGame`, an engine whose
subclass says only what its game is (its rules, its hand size, its scoring), and its seat view
:class:`PlainView`.

A plain trick game deals each hand from its own pack (the chance event): ``HAND_SIZE`` cards
to each seat, one at a time from the seat after the hand's dealer, the rest of the pack
unseen; then tricks of no trump, follow suit (:mod:`.tricks`), the seat after the dealer
leading the first and each trick's winner the next; each trick scores its winner what the
game's :meth:`~PlainTrickGame.scoring` says (:class:`~.definition.Scoring`: card points, the
last trick, each trick); the deal passes to the next seat each hand, and the game is over
after ``rules.hands`` hands. Each seat's outcome is its points less the others' average, times
the number of players (two players: the points difference), so it is zero-sum. Move ``c``
plays card ``c`` (:data:`CARD_MOVES`). The game's record, ``to_json``, ``from_json`` and
``replay`` are the protocol's: the rules, the first dealer, the packs and the moves.

The tests' toy game is one (``tests/toy_game/game.py``)::

    class ToyGame(PlainTrickGame):
        RULES, HAND_SIZE, NAMES = ToyRules, 3, ("toy", "toy3")
        scoring = staticmethod(lambda rules: TRICKS if rules.scoring == "tricks" else THIRDS)
"""

from __future__ import annotations

import json
from typing import ClassVar, Sequence

from .cards import CARD_NAMES, NUM_CARDS, validate_pack
from .definition import THIRDS, Limits, MoveTable, Scoring, TrickFacts
from .game import CHANCE, Engine, GameView, seat_of
from .moves import card_move_text, parse_card_move
from .records import check_header, check_result, header, rebuild, recorded_moves
from .tricks import Trick, playable_cards, trick_winner

__all__ = ["PlainTrickGame", "PlainView", "CARD_MOVES"]

#: The moves of a game whose only move is a card: id ``c`` plays card ``c``, written ``D3``.
CARD_MOVES = MoveTable(NUM_CARDS, card_move_text, parse_card_move)


class PlainTrickGame(Engine):
    """A plain trick game in play (the module docstring); ``Game(rules, dealer)`` waits at
    :data:`~.game.CHANCE` for its first pack. A subclass sets :attr:`RULES`,
    :attr:`HAND_SIZE` and :attr:`NAMES`, and overrides :meth:`scoring` where its tricks score
    other than the family's thirds."""

    #: The rules class (a :class:`~.rules.RulesBase` with ``players`` and ``hands``).
    RULES: ClassVar[type]
    #: The cards each seat is dealt each hand, and so the tricks of a hand.
    HAND_SIZE: ClassVar[int] = 3
    #: The registry's name of each form, by ``players - 2``: a record's ``"game"``.
    NAMES: ClassVar[Sequence[str]] = ()
    NUM_MOVES = CARD_MOVES.count
    move_text, parse_move = staticmethod(card_move_text), staticmethod(parse_card_move)
    __slots__ = ("rules", "first_dealer", "dealer", "to_move", "history", "packs", "hands",
                 "trick", "leader", "tricks", "points")

    def __init__(self, rules=None, dealer: int = 0):
        self.rules = self.RULES() if rules is None else rules
        self.first_dealer = self.dealer = seat_of(dealer, self.rules.players, "dealer")
        self.to_move: int | None = CHANCE
        self.history: list[tuple[int, int]] = []
        self.packs: list[tuple[int, ...]] = []
        self.hands = [0] * self.rules.players
        self.trick: list[int] = []
        self.leader: int | None = None
        self.tricks: list[Trick] = []  # this hand's
        self.points = [0] * self.rules.players

    # -- what the subclass may change ---------------------------------------------------------

    @staticmethod
    def scoring(rules) -> Scoring:
        """What a trick scores its winner under ``rules``: the family's thirds."""
        return THIRDS

    @classmethod
    def deal_order(cls, rules, dealer: int) -> list[int | None]:
        """Who gets each card of a hand's pack dealt by ``dealer``: one at a time from the seat
        after the dealer, the rest unseen."""
        dealt = rules.players * cls.HAND_SIZE
        return ([(dealer + 1 + i) % rules.players for i in range(dealt)]
                + [None] * (NUM_CARDS - dealt))

    @classmethod
    def limits(cls, rules) -> Limits:
        """Every point of a hand to one seat in every hand: ``players - 1`` times it up, the
        others' share down; one move a card, one pack a hand."""
        most = rules.hands * cls.scoring(rules).most_per_hand(cls.HAND_SIZE) * (rules.players - 1)
        return Limits(-most, most, rules.hands * rules.players * cls.HAND_SIZE, rules.hands)

    @classmethod
    def trick_facts(cls, **facts) -> TrickFacts:
        """The facts the generic trick agents need (its scoring and how it deals), and
        ``facts`` on top."""
        return TrickFacts(**{"scoring": cls.scoring, "deal": cls.deal_order, **facts})

    # -- the game -------------------------------------------------------------------------------

    players = property(lambda self: self.rules.players)
    is_over = property(lambda self: self.to_move is None)

    @property
    def outcome(self) -> tuple[int, ...] | None:
        total = sum(self.points)
        return tuple(self.players * p - total for p in self.points) if self.is_over else None

    def legal_moves(self) -> list[int]:
        if self.to_move in (None, CHANCE):
            return []
        return playable_cards(self.hands[self.to_move], self.trick)

    def deal(self, pack) -> None:
        if not self.needs_pack:
            raise ValueError("no pack is needed now: "
                             + ("the game is over" if self.is_over else "a hand is in play"))
        pack = validate_pack(pack)
        if self.packs:  # the next hand's dealer: the seat after the last hand's
            self.dealer = (self.dealer + 1) % self.players
        self.packs.append(pack)
        self.hands = [0] * self.players
        for card, seat in zip(pack, self.deal_order(self.rules, self.dealer)):
            if seat is not None:
                self.hands[seat] |= 1 << card
        self.tricks = []
        self.leader = self.to_move = (self.dealer + 1) % self.players

    def _apply(self, card: int) -> None:
        seat: int = self.to_move  # type: ignore[assignment]
        self.history.append((seat, card))
        self.hands[seat] &= ~(1 << card)
        self.trick.append(card)
        if len(self.trick) < self.players:
            self.to_move = (seat + 1) % self.players
            return
        leader: int = self.leader  # type: ignore[assignment]
        winner = trick_winner(leader, self.trick, self.players)
        self.tricks.append(Trick(leader, tuple(self.trick), winner))
        last = len(self.tricks) == self.HAND_SIZE
        self.points[winner] += self.scoring(self.rules).trick(self.trick, last)
        self.trick = []
        self.leader = self.to_move = winner
        if last:
            self.leader = None
            self.to_move = None if len(self.packs) == self.rules.hands else CHANCE

    def view(self, seat: int) -> "PlainView":
        return PlainView(self, seat)

    # -- copies and records: the protocol's packs and moves -------------------------------------

    def clone(self):
        return type(self).from_json(self.to_json())

    def to_json(self) -> dict:
        return {"rules": self.rules.to_dict(), "dealer": self.first_dealer,
                "packs": [[CARD_NAMES[c] for c in p] for p in self.packs],
                "moves": [{"seat": seat, "move": self.move_text(m)} for seat, m in self.history]}

    @classmethod
    def from_json(cls, data):
        data = json.loads(data) if isinstance(data, (str, bytes)) else data
        return rebuild(cls(cls.RULES.from_dict(data["rules"]), data["dealer"]), data["packs"],
                       recorded_moves(data["moves"]), cls.parse_move)

    def record(self, **meta) -> dict:
        return {**header(self.NAMES[self.players - 2]), **self.to_json(),
                "result": self._result(), **({"meta": meta} if meta else {})}

    def _result(self) -> dict | None:
        outcome = self.outcome
        return None if outcome is None else {"outcome": list(outcome), "points": self.points[:]}

    @classmethod
    def replay(cls, record: dict):
        check_header(record, cls.__name__, [n for n in cls.NAMES if n])
        game = cls.from_json(record)
        check_result(game._result() or {}, record.get("result"))
        return game

    def __eq__(self, other):
        return type(other) is type(self) and all(
            getattr(self, n) == getattr(other, n) for n in PlainTrickGame.__slots__)

    __hash__ = None  # type: ignore[assignment]


class PlainView(GameView):
    """What one seat knows, read live from the game: its own hand and everything played (the
    fields of :class:`~.display.TrickView`, and each seat's points)."""

    __slots__ = ()

    tricks = property(lambda self: tuple(self._game.tricks))
    hand_number = property(lambda self: len(self._game.packs))
    points = property(lambda self: tuple(self._game.points))
    scoring = property(lambda self: self._game.scoring(self._game.rules))
    hand_size = property(lambda self: self._game.HAND_SIZE)
