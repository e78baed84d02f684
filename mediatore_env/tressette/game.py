"""One game of Tressette to 31 points as a state machine: hands dealt from packs the caller
supplies, tricks, melds declared by the engine, the two-handed draws, the end at 31.

The pack of each hand is a chance event from outside (a duplicate tournament or a replay
controls it), so a game asks for one whenever a hand starts::

    >>> game = TressetteGame(TressetteRules(players=2), dealer=1)
    >>> game.needs_pack
    True
    >>> game.deal(list(range(40)))
    >>> game.to_move, [move_text(m) for m in game.legal_moves()][:3]
    (0, ['D4', 'D5', 'D6'])
    >>> game.apply(parse_move("D4")); game.to_move
    1

Seats are numbered in playing order (docs/rules.md 10): seat ``(s + 1) % players`` plays after
seat ``s``; the seat after the dealer receives the first cards and leads first, and becomes
the next dealer. Everything a seat may know is in :meth:`TressetteGame.view`; the rest of this
object is the whole truth.
"""

from __future__ import annotations

import json
from typing import NamedTuple, Sequence

from ..core.cards import CARD_NAMES, NUM_CARDS, POINTS, validate_pack
from ..core.game import CHANCE, Engine, seat_of
from ..core.records import check_header, check_result, header, rebuild, recorded_moves
from ..core.moves import as_move_id
from ..core.tricks import Trick, playable, playable_cards, trick_winner
from .melds import Meld, melds_of
from .moves import CLAIM, NUM_MOVES, move_text, parse_move
from .rules import (BATCH, FORMS, HAND_SIZE, LAST_TRICK_POINTS, TARGET, TressetteRules,
                    false_claim_outcome, outcome, score_of_thirds)
from .view import TressetteView

# Where a card of the pack goes besides a seat.
DEAD, STOCK = -1, -2


def _deal_targets(players: int, dealer: int) -> tuple[int, ...]:
    """Where each card of the pack goes (docs/rules.md 10.1-10.2): batches of five, the seat
    after the dealer first, in playing order. Three-handed, a fourth hand is dealt as if to a
    seat after the dealer: the dead hand. Two-handed, 10 cards each, then the other 20 form the
    stock, the next card of the pack on top."""
    if players == 3:
        return tuple(DEAD if i // BATCH % 4 == 3 else (dealer + 1 + i // BATCH % 4) % 3
                     for i in range(NUM_CARDS))
    dealt = HAND_SIZE * players
    return tuple((dealer + 1 + i // BATCH) % players if i < dealt else STOCK
                 for i in range(NUM_CARDS))


DEAL_TARGETS = {players: tuple(_deal_targets(players, d) for d in range(players))
                for players in (4, 3, 2)}


def deal_hands(rules: TressetteRules, pack: Sequence[int], dealer: int
               ) -> tuple[list[int], int, tuple[int, ...]]:
    """The hands (bitsets by seat), the dead hand (a bitset; 0 but three-handed) and the stock
    (cards from the top; empty but two-handed) that ``pack`` gives when ``dealer`` deals."""
    hands, dead, stock = [0] * rules.players, 0, []
    for target, card in zip(DEAL_TARGETS[rules.players][dealer], pack):
        if target >= 0:
            hands[target] |= 1 << card
        elif target == DEAD:
            dead |= 1 << card
        else:
            stock.append(card)
    return hands, dead, tuple(stock)


def random_pack(rng) -> list[int]:
    """A shuffled pack from ``rng``: a ``numpy.random.Generator`` or a ``random.Random``."""
    if hasattr(rng, "permutation"):
        return rng.permutation(NUM_CARDS).tolist()
    return rng.sample(range(NUM_CARDS), NUM_CARDS)


class Declared(NamedTuple):
    """A meld declared by ``seat`` (its cards are shown to everyone)."""

    seat: int
    meld: Meld


class Draw(NamedTuple):
    """A card drawn from the two-handed stock by ``seat``."""

    seat: int
    card: int


class HandLog:
    """Everything that happened in one hand: the deal, the tricks, the melds, the draws, and the
    points (``meld_points`` by side, ``thirds`` taken by seat, the last trick's winner). The
    game appends to the current hand's log; a finished hand's log is never changed."""

    __slots__ = ("number", "dealer", "pack", "dealt", "dead", "stock", "tricks", "melds",
                 "draws", "meld_points", "thirds", "last_winner", "final_points")

    def __init__(self, rules: TressetteRules, number: int, dealer: int, pack: tuple[int, ...]):
        self.number, self.dealer, self.pack = number, dealer, pack
        dealt, self.dead, self.stock = deal_hands(rules, pack, dealer)
        self.dealt = tuple(dealt)
        self.tricks: list[Trick] = []
        self.melds: list[Declared] = []
        self.draws: list[Draw] = []
        self.meld_points = [0] * rules.num_sides
        self.thirds = [0] * rules.players
        self.last_winner: int | None = None
        self.final_points: tuple[int, ...] | None = None  # set once the hand is played out

    def points(self, rules: TressetteRules) -> list[int]:
        """Each side's points in this hand so far: melds, the cards taken (thirds rounded
        down, per side), the last trick."""
        if self.final_points is not None:
            return list(self.final_points)
        return [self.side_points(rules, side) for side in range(rules.num_sides)]

    def side_points(self, rules: TressetteRules, side: int) -> int:
        """``side``'s points in this hand so far: its melds, its cards, the last trick."""
        return (self.meld_points[side] + score_of_thirds(self.side_thirds(rules, side))
                + self.last_trick_points(rules, side))

    def side_thirds(self, rules: TressetteRules, side: int) -> int:
        """The thirds ``side``'s seats have taken in this hand's tricks so far."""
        return sum(self.thirds[s] for s in rules.sides[side])

    def last_trick_points(self, rules: TressetteRules, side: int) -> int:
        """The last trick's point, if ``side`` won that trick."""
        last = self.last_winner is not None and rules.side_of(self.last_winner) == side
        return LAST_TRICK_POINTS * last

    def copy(self) -> "HandLog":
        other = object.__new__(HandLog)
        for name in HandLog.__slots__:
            setattr(other, name, getattr(self, name))
        other.tricks, other.melds, other.draws = self.tricks[:], self.melds[:], self.draws[:]
        other.meld_points, other.thirds = self.meld_points[:], self.thirds[:]
        return other

    def to_dict(self, rules: TressetteRules) -> dict:
        """The hand for a record: its dealer, tricks, melds, draws and points."""
        return {
            "dealer": self.dealer,
            "tricks": [t.to_dict() for t in self.tricks],
            "melds": [{"seat": d.seat, **d.meld.to_dict()} for d in self.melds],
            "draws": [{"seat": d.seat, "card": CARD_NAMES[d.card]} for d in self.draws],
            "points": self.points(rules),
        }

    def __eq__(self, other):
        return isinstance(other, HandLog) and all(
            getattr(self, n) == getattr(other, n) for n in HandLog.__slots__)

    __hash__ = None


class TressetteGame(Engine):
    """The full state of one game to 31. Mutable; :meth:`clone` copies it cheaply.

    Public attributes are read-only by convention; change the state only through :meth:`deal`
    and :meth:`apply`.

    - ``to_move``: the seat to move (``CHANCE`` while the next hand waits for :meth:`deal`,
      None once the game is over); ``needs_pack`` says ``to_move == CHANCE``;
    - ``hands``: each seat's cards now (bitsets); ``log``: a :class:`HandLog` per hand dealt;
    - ``totals``: each side's running total, the hand in progress included; ``before``: the
      totals when the current hand began;
    - ``outcome``: each seat's result once over (zero-sum); ``end_reason``: ``'target'`` (a
      side reached 31), ``'claim'``, ``'false_claim'`` or ``'hand_end'`` (a hand ended
      unclaimed after a side reached 31, with the ``claim`` switch); ``ender``: the side that
      ended the game; ``claimant``: the seat that claimed, if any;
    - ``history``: every move as ``(seat, move)``; ``start``: the sides' totals before the
      first hand (0 but in a game taken up mid-way, as a search's world is).
    """

    __slots__ = ("rules", "first_dealer", "dealer", "hands", "log", "totals", "before", "trick",
                 "leader", "to_move", "history", "outcome", "end_reason",
                 "ender", "claimant", "first_to_target", "start", "_sides")
    # Its moves, as the engines' base names them (core.game.Engine).
    NUM_MOVES = NUM_MOVES
    move_text, parse_move = staticmethod(move_text), staticmethod(parse_move)

    def __init__(self, rules: TressetteRules | None = None, dealer: int = 0,
                 totals: Sequence[int] | None = None):
        """``totals``: the sides' totals before the first hand, each under 31 (default 0): a
        game taken up with a hand still to play, as a search's world of the hand is."""
        self.rules = TressetteRules() if rules is None else rules
        if not isinstance(self.rules, TressetteRules):
            raise ValueError(f"rules must be a TressetteRules object, got {type(rules).__name__}")
        players = self.rules.players
        self.first_dealer = self.dealer = seat_of(dealer, players, "dealer")
        self.hands = [0] * players
        self.log: list[HandLog] = []
        self.start = _start_totals(self.rules, totals)
        self.totals, self.before = list(self.start), list(self.start)
        self.trick: list[int] = []
        self.leader: int | None = None
        self.to_move: int | None = CHANCE
        self.history: list[tuple[int, int]] = []
        self.outcome: tuple[int, ...] | None = None
        self.end_reason: str | None = None
        self.ender: int | None = None
        self.claimant: int | None = None
        self.first_to_target: int | None = None  # with `claim`: the first side to reach 31
        self._sides = tuple(self.rules.side_of(s) for s in range(players))

    # -- queries ----------------------------------------------------------------------------

    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    @property
    def hand_number(self) -> int:
        """Hands dealt so far (1 during the first hand; 0 before it)."""
        return len(self.log)

    @property
    def hand_points(self) -> list[int]:
        """Each side's points in the current (or the last) hand so far."""
        return self.log[-1].points(self.rules) if self.log else [0] * self.rules.num_sides

    @property
    def packs(self) -> list[tuple[int, ...]]:
        return [log.pack for log in self.log]

    @property
    def stock(self) -> tuple[int, ...]:
        """The cards still in the two-handed stock, top first (empty in the other forms)."""
        if not self.log:
            return ()
        log = self.log[-1]
        return log.stock[len(log.draws):]

    def side_of(self, seat: int) -> int:
        return self._sides[seat]

    def legal_moves(self) -> list[int]:
        """Legal move ids of the seat to move (empty when none is): its playable cards in
        id order, then ``CLAIM`` with the ``claim`` switch."""
        seat = self.to_move
        if seat is None or seat == CHANCE:
            return []
        moves = playable_cards(self.hands[seat], self.trick)
        if self.rules.claim:
            moves.append(CLAIM)
        return moves

    def _is_legal(self, move: int) -> bool:
        seat = self.to_move
        if seat is None or seat == CHANCE:
            return False
        if move == CLAIM:
            return self.rules.claim
        if not 0 <= move < NUM_CARDS:
            return False
        return bool(playable(self.hands[seat], self.trick) >> move & 1)

    # -- transitions ------------------------------------------------------------------------

    def deal(self, pack: Sequence) -> None:
        """Start the next hand with ``pack`` (40 distinct cards, ids or texts, in pack order).
        Raises ``ValueError`` (state unchanged) if no pack is needed now or the pack is bad."""
        if not self.needs_pack:
            why = "the game is over" if self.is_over else f"hand {self.hand_number} is in play"
            raise ValueError(f"no pack is needed now: {why}")
        pack = validate_pack(pack)
        if self.log:  # the next hand's dealer: the seat after the last hand's
            self.dealer = (self.dealer + 1) % self.rules.players
        log = HandLog(self.rules, len(self.log) + 1, self.dealer, pack)
        self.log.append(log)
        self.hands = list(log.dealt)
        self.leader = self.to_move = (self.dealer + 1) % self.rules.players

    def _apply(self, move: int) -> None:
        """Apply a move already known to be legal (the hot path of simulations)."""
        seat = self.to_move
        self.history.append((seat, move))
        if move == CLAIM:
            self._claim(seat)
            return
        self.hands[seat] &= ~(1 << move)
        trick = self.trick
        trick.append(move)
        players = self.rules.players
        if len(trick) < players:
            self.to_move = (seat + 1) % players
            return
        winner = trick_winner(self.leader, trick, players)
        log = self.log[-1]
        log.tricks.append(Trick(self.leader, tuple(trick), winner))
        log.thirds[winner] += sum(POINTS[c] for c in trick)
        self.trick = []
        last = len(log.tricks) == self.rules.num_tricks
        if last:
            log.last_winner = winner
        self.leader = self.to_move = winner
        self._score(self._sides[winner])  # the trick's cards, and the last trick's point
        if self.is_over:
            return
        if len(log.tricks) == 1:
            self._declare_melds(log, winner)
            if self.is_over:
                return
        if len(log.draws) < len(log.stock):
            self._draw(log, winner)
        if last:
            self._end_hand()

    def _declare_melds(self, log: HandLog, winner: int) -> None:
        """Melds after the first trick (docs/rules.md 10.1): the trick's winner first, then the
        others in the order they played to it, from the seat after the dealer; each meld scores
        as it is declared."""
        players = self.rules.players
        leader = log.tricks[0].leader
        others = [(leader + k) % players for k in range(players)]
        others.remove(winner)
        for seat in (winner, *others):
            side = self._sides[seat]
            for meld in melds_of(log.dealt[seat]):
                log.melds.append(Declared(seat, meld))
                log.meld_points[side] += meld.points
                self._score(side)
                if self.is_over:
                    return

    def _draw(self, log: HandLog, winner: int) -> None:
        """Two-handed: the trick's winner draws the top card of the stock, then the other."""
        for seat in (winner, 1 - winner):
            card = log.stock[len(log.draws)]
            self.hands[seat] |= 1 << card
            log.draws.append(Draw(seat, card))

    def _score(self, side: int) -> None:
        """Points came to ``side``: its total now, and the end of the game at 31."""
        self.totals[side] = total = self.before[side] + self.log[-1].side_points(self.rules, side)
        if total >= TARGET:
            if not self.rules.claim:
                self._end(side, "target")
            elif self.first_to_target is None:
                self.first_to_target = side

    def _claim(self, seat: int) -> None:
        side = self._sides[seat]
        self.claimant = seat
        if self.totals[side] >= TARGET:
            self._end(side, "claim")
        else:
            self._end(side, "false_claim", false_claim_outcome(self.rules, side))

    def _end_hand(self) -> None:
        log = self.log[-1]
        log.final_points = tuple(log.points(self.rules))
        self.leader = None
        self.to_move = CHANCE
        if self.first_to_target is not None:
            # With `claim`, a hand ended unclaimed after a side reached 31: the score sheet
            # settles the game, the first side to reach 31 having passed it first.
            self._end(self.first_to_target, "hand_end")
            return
        self.before = self.totals[:]

    def _end(self, ender: int, reason: str, result: tuple[int, ...] | None = None) -> None:
        self.outcome = outcome(self.rules, self.totals, ender) if result is None else result
        self.end_reason, self.ender = reason, ender
        self.to_move = None

    # -- copies, text, records --------------------------------------------------------------

    def clone(self) -> "TressetteGame":
        other = object.__new__(TressetteGame)
        for name in TressetteGame.__slots__:
            setattr(other, name, getattr(self, name))
        other.hands = self.hands[:]
        other.log = self.log[:]
        if other.log:  # only the current hand's log changes; finished ones are shared
            other.log[-1] = self.log[-1].copy()
        other.totals, other.before = self.totals[:], self.before[:]
        other.trick = self.trick[:]
        other.history = self.history[:]
        return other

    def view(self, seat: int) -> TressetteView:
        """What ``seat`` knows now (a live view: it follows this game as it goes on)."""
        return TressetteView(self, seat)

    def to_json(self) -> dict:
        """The state as a dict of JSON values: the rules, the first dealer, the starting totals
        (``start_totals``, where not 0), the packs dealt and the moves. :meth:`from_json`
        rebuilds it by replaying them."""
        started = {"start_totals": list(self.start)} if any(self.start) else {}
        return {"rules": self.rules.to_dict(), "dealer": self.first_dealer, **started,
                "packs": [[CARD_NAMES[c] for c in p] for p in self.packs],
                "moves": [move_text(m) for _, m in self.history]}

    @classmethod
    def from_json(cls, data) -> "TressetteGame":
        """The game of :meth:`to_json`'s dict (or that dict as JSON text)."""
        data = json.loads(data) if isinstance(data, (str, bytes)) else data
        game = cls(TressetteRules.from_dict(data["rules"]), data["dealer"],
                   data.get("start_totals"))
        return rebuild(game, data["packs"], [(None, m) for m in data["moves"]], parse_move)

    def record(self, **meta) -> dict:
        """The game's record (:mod:`mediatore_env.core.records`: the header names the form):
        rules, first dealer, packs, every move with its seat, and (once over) the result. Extra keyword arguments go under ``"meta"`` (player names...) and
        are ignored by :meth:`replay`. A record is of a whole game, from 0: a game taken up
        from other totals has none (its :meth:`to_json` keeps them)."""
        if any(self.start):
            raise ValueError(f"no record of a game taken up at totals {list(self.start)}: a "
                             "record is of a whole game from 0; to_json() keeps the totals")
        record = {
            **header(self.rules.form),
            "rules": self.rules.to_dict(), "dealer": self.first_dealer,
            "packs": [[CARD_NAMES[c] for c in p] for p in self.packs],
            "moves": [{"seat": seat, "move": move_text(m)} for seat, m in self.history],
            "result": self.result() if self.is_over else None,
        }
        if meta:
            record["meta"] = meta
        return record

    def result(self) -> dict:
        """The result part of a record, for a finished game."""
        if not self.is_over:
            raise ValueError("the game is not over: a result needs a side to reach 31 or a claim")
        return {"outcome": list(self.outcome), "totals": list(self.totals),
                "end": self.end_reason, "ender": self.ender, "claimant": self.claimant,
                "hands": [log.to_dict(self.rules) for log in self.log]}

    @classmethod
    def replay(cls, record: dict) -> "TressetteGame":
        """Re-simulate a record (this version's, or a version 1 ``tressette-record``). Raises ``ValueError`` naming the first thing that differs (a
        move by the wrong seat, an illegal move, a pack too many or too few, the result)."""
        game_name = check_header(record, "Tressette", FORMS, LEGACY_FORMAT)
        game = rebuild(cls(TressetteRules.from_dict(record["rules"]), record["dealer"]),
                       record["packs"], recorded_moves(record["moves"]), parse_move)
        if game_name not in (None, game.rules.form):
            raise ValueError(f"the record is of {game_name}, but its rules are "
                             f"{game.rules.form}'s")
        check_result(game.result() if game.is_over else {}, record.get("result"))
        return game

    def __eq__(self, other):
        return isinstance(other, TressetteGame) and all(
            getattr(self, n) == getattr(other, n) for n in TressetteGame.__slots__)

    __hash__ = None

    def __repr__(self):
        state = ("over" if self.is_over else "needs a pack" if self.needs_pack
                 else f"seat {self.to_move} to move")
        return (f"<TressetteGame {self.rules.form} hand {self.hand_number} "
                f"totals={self.totals} {state}>")


#: The format of version 1 records, before the common header (mediatore_env.core.records).
LEGACY_FORMAT = "tressette-record"


def _start_totals(rules: TressetteRules, totals) -> tuple[int, ...]:
    """The sides' totals a game starts from: ``totals`` checked (default all 0)."""
    sides = rules.num_sides
    if totals is None:
        return (0,) * sides
    try:  # integers as for a move id: numpy's are welcome, bools and floats not
        start = tuple(map(as_move_id, totals))
    except TypeError:  # not a sequence
        start = None
    if start is None or len(start) != sides or not all(
            t is not None and 0 <= t < TARGET for t in start):
        raise ValueError(f"bad totals {totals!r}; valid: {sides} ints from 0 to {TARGET - 1}"
                         " (a side at 31 has ended the game)")
    return start
