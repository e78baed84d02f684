"""The toy game's engine and its seat view: the :class:`~mediatore_env.core.game.Game`
protocol in under 200 lines, to prove that the protocol is all the code above the engines
needs.

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
from mediatore_env.core.game import CHANCE
from mediatore_env.core.records import check_header, header
from mediatore_env.core.moves import as_move_id, described_move
from mediatore_env.core.tricks import Trick, playable, trick_winner

from .moves import NUM_MOVES, move_text, parse_move
from .rules import ToyRules

HAND_SIZE = 3
LAST_TRICK = 3  # thirds for the last trick of a hand, as in the family
NAMES = {2: "toy", 3: "toy3"}  # the registry's name of each form, a record's "game"


class ToyGame:
    """A toy game in play: ``ToyGame(rules, dealer)`` waits at :data:`CHANCE` for its first
    pack."""

    _STATE = ("rules", "dealer", "hand_dealer", "to_move", "history", "packs", "hands",
              "trick", "leader", "tricks", "points")

    def __init__(self, rules: ToyRules | None = None, dealer: int = 0):
        self.rules = ToyRules() if rules is None else rules
        if type(dealer) is not int or not 0 <= dealer < self.rules.players:
            raise ValueError(f"bad dealer {dealer!r}; valid: 0 to {self.rules.players - 1}")
        self.dealer = self.hand_dealer = dealer
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
    needs_pack = property(lambda self: self.to_move == CHANCE)

    @property
    def outcome(self) -> tuple[int, ...] | None:
        if not self.is_over:
            return None
        total = sum(self.points)
        return tuple(self.players * p - total for p in self.points)

    def legal_moves(self) -> list[int]:
        if self.to_move in (None, CHANCE):
            return []
        cards = playable(self.hands[self.to_move], self.trick)
        return [c for c in range(NUM_MOVES) if cards >> c & 1]

    def is_legal(self, move) -> bool:
        return type(move) is int and move in self.legal_moves()

    def deal(self, pack) -> None:
        if not self.needs_pack:
            raise ValueError("no pack is needed now: "
                             + ("the game is over" if self.is_over else "a hand is in play"))
        pack = validate_pack(pack)
        self.packs.append(pack)
        n = self.players
        first = (self.hand_dealer + 1) % n
        self.hands = [0] * n
        for i, card in enumerate(pack[:n * HAND_SIZE]):
            self.hands[(first + i) % n] |= 1 << card
        self.tricks = []
        self.leader = self.to_move = first

    def apply(self, move) -> None:
        move_id = as_move_id(move)
        if move_id is None or not self.is_legal(move_id):
            what = described_move(move if move_id is None else move_id, NUM_MOVES, move_text)
            if self.to_move in (None, CHANCE):
                raise ValueError(f"illegal move {what}: "
                                 + ("the game is over" if self.is_over else "deal a pack first"))
            legal = ", ".join(move_text(m) for m in self.legal_moves())
            raise ValueError(f"illegal move {what} for seat {self.to_move}; legal: {legal}")
        seat = self.to_move
        self.history.append((seat, move_id))
        self.hands[seat] &= ~(1 << move_id)
        self.trick.append(move_id)
        if len(self.trick) < self.players:
            self.to_move = (seat + 1) % self.players
            return
        winner = trick_winner(self.leader, self.trick, self.players)
        self.tricks.append(Trick(self.leader, tuple(self.trick), winner))
        last = len(self.tricks) == HAND_SIZE
        if self.rules.scoring == "tricks":
            self.points[winner] += 1
        else:
            self.points[winner] += sum(POINTS[c] for c in self.trick) + LAST_TRICK * last
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
        game = cls(ToyRules.from_dict(data["rules"]), data["dealer"])
        packs = list(data["packs"])
        for i, entry in enumerate(data["moves"]):
            if game.needs_pack and packs:
                game.deal(packs.pop(0))
            if entry["seat"] != game.to_move:
                raise ValueError(f"move {i} ({entry['move']!r}) is by seat {entry['seat']}, "
                                 f"but seat {game.to_move} is to move")
            game.apply(parse_move(entry["move"]))
        if game.needs_pack and packs:
            game.deal(packs.pop(0))
        if packs:
            raise ValueError(f"{len(packs)} pack(s) more than the moves use")
        return game

    def record(self, **meta) -> dict:
        record = {**header(NAMES[self.players]), **self.to_json(),
                  "result": self._result()}
        if meta:
            record["meta"] = meta
        return record

    def _result(self) -> dict | None:
        return {"outcome": list(self.outcome), "points": self.points[:]} if self.is_over else None

    @classmethod
    def replay(cls, record: dict) -> "ToyGame":
        check_header(record, "toy", sorted(NAMES.values()))
        game = cls.from_json(record)
        if record.get("result") != game._result():
            raise ValueError(f"result differs: record says {record.get('result')}, "
                             f"replay gives {game._result()}")
        return game

    def __eq__(self, other):
        return isinstance(other, ToyGame) and all(
            getattr(self, n) == getattr(other, n) for n in self._STATE)

    __hash__ = None

    def __repr__(self):
        return f"<ToyGame hand {len(self.packs)} points={self.points} to_move={self.to_move}>"


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
