"""The toy game's engine and its seat view: the :class:`~mediatore_env.core.game.Game` protocol
on the engines' base (:class:`~mediatore_env.core.game.Engine`), to prove that the protocol
is all the code above the engines needs.

Two or three players; each hand deals them three cards each, one at a time from the top of
the pack starting with the seat after the dealer (the rest of the pack stays unseen), then
three tricks of no trump, follow suit (:mod:`mediatore_env.core.tricks`), the seat after the
dealer leading the first and each trick's winner the next. The deal passes to the next seat
each hand. Each seat's result is its points less the others' average, times the number of
players (two players: the points difference), so it is zero-sum.
"""

from __future__ import annotations

import json

from mediatore_env.core.cards import CARD_NAMES, POINTS, validate_pack
from mediatore_env.core.game import CHANCE, Engine, dealer_seat
from mediatore_env.core.records import check_header, check_result, header, rebuild
from mediatore_env.core.tricks import Trick, playable_cards, trick_winner

from .moves import NUM_MOVES, move_text, parse_move
from .rules import ToyRules

HAND_SIZE = 3
LAST_TRICK = 3  # thirds for the last trick of a hand, as in the family
NAMES = {2: "toy", 3: "toy3"}  # the registry's name of each form, a record's "game"


class ToyGame(Engine):
    """A toy game in play: ``ToyGame(rules, dealer)`` waits at :data:`CHANCE` for its first
    pack."""

    NUM_MOVES = NUM_MOVES
    move_text, parse_move = staticmethod(move_text), staticmethod(parse_move)
    __slots__ = ("rules", "dealer", "hand_dealer", "to_move", "history", "packs", "hands",
                 "trick", "leader", "tricks", "points")

    def __init__(self, rules: ToyRules | None = None, dealer: int = 0):
        self.rules = ToyRules() if rules is None else rules
        self.dealer = self.hand_dealer = dealer_seat(dealer, self.rules.players)
        self.to_move: int | None = CHANCE
        self.history: list[tuple[int, int]] = []
        self.packs: list[tuple[int, ...]] = []
        self.hands = [0] * self.rules.players
        self.trick: list[int] = []
        self.leader: int | None = None
        self.tricks: list[Trick] = []  # this hand's
        self.points = [0] * self.rules.players

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
        self.packs.append(validate_pack(pack))
        n, first = self.players, (self.hand_dealer + 1) % self.players
        self.hands = [0] * n
        for i, card in enumerate(self.packs[-1][:n * HAND_SIZE]):
            self.hands[(first + i) % n] |= 1 << card
        self.tricks = []
        self.leader = self.to_move = first

    def _apply(self, card: int) -> None:
        seat = self.to_move
        self.history.append((seat, card))
        self.hands[seat] &= ~(1 << card)
        self.trick.append(card)
        if len(self.trick) < self.players:
            self.to_move = (seat + 1) % self.players
            return
        winner = trick_winner(self.leader, self.trick, self.players)
        self.tricks.append(Trick(self.leader, tuple(self.trick), winner))
        last = len(self.tricks) == HAND_SIZE
        self.points[winner] += (1 if self.rules.scoring == "tricks"
                                else sum(POINTS[c] for c in self.trick) + LAST_TRICK * last)
        self.trick = []
        self.leader = self.to_move = winner
        if last:
            self.leader = None
            self.hand_dealer = (self.hand_dealer + 1) % self.players
            self.to_move = None if len(self.packs) == self.rules.hands else CHANCE

    def view(self, seat: int) -> "ToyView":
        return ToyView(self, seat)

    def clone(self) -> "ToyGame":
        return ToyGame.from_json(self.to_json())

    def to_json(self) -> dict:
        return {"rules": self.rules.to_dict(), "dealer": self.dealer,
                "packs": [[CARD_NAMES[c] for c in p] for p in self.packs],
                "moves": [{"seat": seat, "move": move_text(m)} for seat, m in self.history]}

    @classmethod
    def from_json(cls, data) -> "ToyGame":
        data = json.loads(data) if isinstance(data, (str, bytes)) else data
        return rebuild(cls(ToyRules.from_dict(data["rules"]), data["dealer"]), data["packs"],
                       [(e["seat"], e["move"]) for e in data["moves"]], parse_move)

    def record(self, **meta) -> dict:
        return {**header(NAMES[self.players]), **self.to_json(), "result": self._result(),
                **({"meta": meta} if meta else {})}

    def _result(self) -> dict | None:
        return {"outcome": list(self.outcome), "points": self.points[:]} if self.is_over else None

    @classmethod
    def replay(cls, record: dict) -> "ToyGame":
        check_header(record, "toy", sorted(NAMES.values()))
        game = cls.from_json(record)
        check_result(game._result() or {}, record.get("result"))
        return game

    def __eq__(self, other):
        return isinstance(other, ToyGame) and all(
            getattr(self, n) == getattr(other, n) for n in self.__slots__)

    __hash__ = None


class ToyView:
    """What one seat knows, read live from the game: its own hand and everything played."""

    def __init__(self, game: ToyGame, seat: int):
        if type(seat) is not int or not 0 <= seat < game.players:
            raise ValueError(f"bad seat {seat!r}; valid: 0 to {game.players - 1}")
        self._game, self.seat = game, seat

    rules = property(lambda self: self._game.rules)
    players = property(lambda self: self._game.players)
    dealer = property(lambda self: self._game.hand_dealer)
    to_move = property(lambda self: self._game.to_move)
    hand = property(lambda self: self._game.hands[self.seat])
    hand_sizes = property(lambda self: tuple(h.bit_count() for h in self._game.hands))
    trick = property(lambda self: tuple(self._game.trick))
    leader = property(lambda self: self._game.leader)
    tricks = property(lambda self: tuple(self._game.tricks))
    hand_number = property(lambda self: len(self._game.packs))
    points = property(lambda self: tuple(self._game.points))
    is_over = property(lambda self: self._game.is_over)
    outcome = property(lambda self: self._game.outcome)

    def legal_moves(self) -> list[int]:
        return self._game.legal_moves() if self._game.to_move == self.seat else []
