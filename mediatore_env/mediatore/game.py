"""One deal of Mediatore as a state machine: deal, auction, call, exchange, nine tricks, payment.

Moves are the small ints of :mod:`.moves`, one id space shared by every phase (the PettingZoo
environment uses the same ids as its ``Discrete`` actions).

A deal is played by asking :meth:`Deal.legal_moves` and calling :meth:`Deal.apply`::

    >>> from mediatore_env.core.cards import parse_cards
    >>> deal = Deal(Rules(), dealer=3, pack=list(range(40)))
    >>> deal.to_move, move_text(deal.legal_moves()[1])
    (0, 'bid chiamo')
    >>> deal.apply(parse_move("bid solo")); deal.to_move
    1

The seat to act after the dealer is ``(dealer + 1) % 4`` (il mano); play goes seat, seat + 1, ...
Everything a seat may know is in :meth:`Deal.view`; the rest of this object is the whole truth.
"""

from __future__ import annotations

from typing import Sequence

from ..core.cards import (CARD_NAMES, LAST_TRICK_THIRDS, NUM_CARDS, SUIT_MASKS, SUIT_OF, bit,
                          cards_of, make_card, thirds_of, validate_pack)
from ..core.game import CHANCE, seat_of
from ..core.records import rebuild
from ..core.tricks import Trick
from .moves import (AUCTION, CALL, CALL_BASE, DISCARD, DISCARD_BASE, END, GIVE, GIVE_BASE,
                    NUM_MOVES, PASS, PHASE_NAMES, PLAY, PLAY_BASE, call_move, discard_move,
                    give_move, move_text, parse_move, play_move)
from .nine_tricks import DISCARDS, NUM_TRICKS, WIN_THIRDS, NineTricks, deal_hands
from .rules import (CHIAMO, MEDIATORE, NO_SIGNAL, SIGNAL_MEANINGS, SOLO, STATEMENTS,
                    SWITCHES, Rules, allowed_signals, payments, signals_allowed_by,
                    statement_truths)
from . import records
from .view import SeatView

__all__ = ["Deal"]


def _denari_lead_moves(code: str, held: int) -> tuple[int, ...]:
    """The lead moves from the Denari cards ``held`` (a 10-bit pattern of powers, Denari being
    suit 0) under the standard code, or the code without striscio: each card, strongest
    first, then the card with each of its signals. What these codes' signals state is about
    the led suit alone and does not depend on the cards played (rules.SIGNAL_MEANINGS), so
    another suit's moves are these with every card moved to that suit."""
    return tuple(play_move(card, signal) for card in cards_of(held)
                 for signal in (NO_SIGNAL, *allowed_signals(code, held, card, 0)))


def _lead_moves(code: str) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """By suit and the 10-bit pattern of powers held in it, the lead moves under ``code``.
    A play's id is its card's id plus a number that depends on the signal alone, so adding
    ``make_card(suit, 0)`` moves a play of a Denari card to the same card of ``suit``."""
    denari = [_denari_lead_moves(code, held) for held in range(1024)]
    return tuple(tuple(tuple(move + make_card(suit, 0) for move in moves) for moves in denari)
                 for suit in range(4))


# The hot path of plays, precomputed. By suit and the 10-bit pattern of powers held in it: the
# plays without a signal (a follow; a lead under signals "off"), and by code the leads with
# their signals.
_PLAIN_MOVES = tuple(tuple(tuple(play_move(card) for card in cards_of(held << 10 * suit))
                           for held in range(1024)) for suit in range(4))
_LEAD_MOVES = {code: _lead_moves(code) for code in ("standard", "no_striscio")}
_LEAD_MOVES["off"] = _PLAIN_MOVES
# The alternative code's statements depend on the cards played: by code, the truths of its
# statements (rules.statement_truths) and the card led, the card's lead moves.
_LEAD_MOVES_BY_TRUTHS = {
    code: tuple(tuple(tuple(play_move(card, signal)
                            for signal in (NO_SIGNAL, *signals_allowed_by(code, truths)))
                      for card in range(NUM_CARDS))
                for truths in range(1 << len(STATEMENTS[code])))
    for code in SIGNAL_MEANINGS}
# The moves of the call and the exchange: by the call_restriction switch (the one switch that
# Rules.callable_powers reads), the legal calls; by card, its discard and its give-back.
_CALL_MOVES = {restriction: tuple(call_move(make_card(suit, power)) for suit in range(4)
                                  for power in Rules(call_restriction=restriction)
                                  .callable_powers())
               for restriction in SWITCHES["call_restriction"]}
_DISCARD_MOVE = tuple(discard_move(card) for card in range(NUM_CARDS))
_GIVE_MOVE = tuple(give_move(card) for card in range(NUM_CARDS))


def _moves_by_suit(tables, hand: int) -> list[int]:
    """The moves of ``hand`` from per-suit ``tables`` (_PLAIN_MOVES or one of _LEAD_MOVES)."""
    d, c, s, b = tables
    return [*d[hand & 1023], *c[hand >> 10 & 1023], *s[hand >> 20 & 1023], *b[hand >> 30]]


class Deal(NineTricks):
    """The full state of one deal. Mutable; :meth:`clone` copies it cheaply.

    Public attributes are read-only by convention; change the state only through :meth:`apply`.
    """

    # What its messages call one game, and its moves (NineTricks, core.game.Engine).
    UNIT, NUM_MOVES = "deal", NUM_MOVES
    move_text, parse_move = staticmethod(move_text), staticmethod(parse_move)

    __slots__ = (
        "rules", "dealer", "pack", "phase", "to_move", "hands", "monte", "original_monte",
        "history", "auction", "high_bid", "high_bidder", "passes",
        "contract", "declarer", "called_card", "holder", "partner", "giver", "given_back",
        "discards", "leader", "trick", "trick_signal", "tricks", "played",
        "thirds_won", "tricks_won", "payoffs", "called_played_by",
    )

    @property
    def packs(self) -> list[tuple[int, ...]]:
        """The packs dealt, as every engine has them: the deal's one pack once dealt."""
        return [] if self.pack is None else [self.pack]

    @property
    def first_dealer(self) -> int:
        """The deal's dealer (a deal is the whole game: the first hand and the only one)."""
        return self.dealer

    def __init__(self, rules: Rules | None = None, dealer: int = 0, pack: Sequence | None = None,
                 rng=None):
        """Deal from ``pack`` (40 distinct cards, ids or texts, in pack order) or, when it is
        None, from a pack shuffled by ``rng`` (a ``numpy.random.Generator``). With neither,
        the deal waits for its pack: ``to_move`` is ``CHANCE`` until :meth:`deal`."""
        self.rules = Rules() if rules is None else rules
        if not isinstance(self.rules, Rules):
            raise ValueError(f"rules must be a Rules object, got {type(rules).__name__}")
        self.dealer = seat_of(dealer, 4, "dealer")
        self.pack = None
        self.hands, self.monte = [0, 0, 0, 0], 0
        self.original_monte = 0
        self.phase = AUCTION
        self.to_move = CHANCE
        self.history: list[tuple[int, int]] = []  # (seat, move) of every decision
        self.auction: list[tuple[int, int]] = []  # (seat, bid or PASS)
        self.high_bid = PASS
        self.high_bidder = None
        self.passes = 0
        self.contract = None
        self.declarer = None
        self.called_card = None
        self.holder = None  # who held the called card when it was called (None: the monte)
        self.partner = None
        self.giver = None
        self.given_back = None
        self.discards = 0
        self.leader = None
        self.trick: list[int] = []
        self.trick_signal = NO_SIGNAL
        self.tricks: list[Trick] = []
        self.played = 0
        self.thirds_won = [0, 0, 0, 0]
        self.tricks_won = [0, 0, 0, 0]
        self.payoffs = None
        self.called_played_by = None
        if pack is not None:
            self.deal(pack)
        elif rng is not None:
            self._deal(tuple(rng.permutation(NUM_CARDS).tolist()))  # valid by construction

    # -- queries ----------------------------------------------------------------------------

    @property
    def outcome(self) -> tuple[int, ...] | None:
        """Each seat's payment in units once the deal is over (zeros when thrown in)."""
        return None if self.payoffs is None else tuple(self.payoffs)

    @property
    def thrown_in(self) -> bool:
        return self.phase == END and self.contract is None

    def legal_moves(self) -> list[int]:
        """Legal move ids of the seat to move (empty at the end). Plays come card by card,
        strongest first within a suit, each card followed by its legal signals."""
        phase = self.phase
        if phase == PLAY:
            hand = self.hands[self.to_move]
            if self.trick:
                suit = SUIT_OF[self.trick[0]]
                follow = _PLAIN_MOVES[suit][hand >> 10 * suit & 1023]
                if follow:
                    return list(follow)
                return _moves_by_suit(_PLAIN_MOVES, hand)  # void in the suit led: any card
            return self._lead_moves(hand)
        if phase == AUCTION:
            if self.to_move == CHANCE:
                return []
            return [PASS, *range(self.high_bid + 1, self.rules.top_contract + 1)]
        if phase == CALL:
            return list(_CALL_MOVES[self.rules.call_restriction])
        if phase == DISCARD:
            return [_DISCARD_MOVE[c] for c in cards_of(self.hands[self.declarer])]
        if phase == GIVE:
            return [_GIVE_MOVE[c] for c in cards_of(self.hands[self.declarer])]
        return []

    def _lead_moves(self, hand: int) -> list[int]:
        code = self.rules.signals
        if code == "alternative":
            played, by_truths = self.played, _LEAD_MOVES_BY_TRUTHS[code]
            moves = []
            for c in cards_of(hand):
                moves.extend(by_truths[statement_truths(code, hand, c, played)][c])
            return moves
        # The hot path of leads: a suit's moves depend only on the cards held in that suit.
        return _moves_by_suit(_LEAD_MOVES[code], hand)

    def _is_legal(self, move: int) -> bool:
        phase = self.phase
        if phase == PLAY:
            if not PLAY_BASE <= move < NUM_MOVES:
                return False
            signal, card = divmod(move - PLAY_BASE, NUM_CARDS)
            hand = self.hands[self.to_move]
            if not hand >> card & 1:
                return False
            if self.trick:
                if signal:
                    return False
                suit_mask = SUIT_MASKS[SUIT_OF[self.trick[0]]]
                return bool((1 << card) & suit_mask) or not hand & suit_mask
            if signal == NO_SIGNAL:
                return True
            code = self.rules.signals
            if code == "alternative":
                truths = statement_truths(code, hand, card, self.played)
                return move in _LEAD_MOVES_BY_TRUTHS[code][truths][card]
            suit = SUIT_OF[card]
            return move in _LEAD_MOVES[code][suit][hand >> 10 * suit & 1023]
        if phase == AUCTION:
            return self.to_move != CHANCE and (
                move == PASS or self.high_bid < move <= self.rules.top_contract)
        if phase == CALL:
            return move in _CALL_MOVES[self.rules.call_restriction]
        if phase in (DISCARD, GIVE):
            base = DISCARD_BASE if phase == DISCARD else GIVE_BASE
            return base <= move < base + NUM_CARDS and bool(self.hands[self.declarer] >> (move - base) & 1)
        return False

    # -- transitions ------------------------------------------------------------------------

    def deal(self, pack: Sequence) -> None:
        """Deal ``pack`` (40 distinct cards, ids or texts, in pack order): the chance event
        of a deal made without one. Raises ``ValueError`` (state unchanged) if the deal has
        its pack already or the pack is bad."""
        if self.to_move != CHANCE:
            raise ValueError("no pack is needed now: the deal has its pack")
        self._deal(validate_pack(pack))

    def _deal(self, pack: tuple[int, ...]) -> None:
        self.pack = pack
        self.hands, self.monte = deal_hands(pack, self.dealer)
        self.original_monte = self.monte
        self.to_move = (self.dealer + 1) % 4

    def _apply(self, move: int) -> None:
        """Apply a move already known to be legal (the hot path of simulations)."""
        seat = self.to_move
        self.history.append((seat, move))
        phase = self.phase
        if phase == PLAY:
            self._play(seat, move)
        elif phase == AUCTION:
            self._bid(seat, move)
        elif phase == CALL:
            self._call(move - CALL_BASE)
        elif phase == DISCARD:
            card = move - DISCARD_BASE
            self.hands[seat] &= ~bit(card)
            self.discards |= bit(card)
            if self.discards.bit_count() == DISCARDS:
                self.monte = self.discards
                if self.giver is not None:
                    self.phase = GIVE
                else:
                    self._start_play()
        elif phase == GIVE:
            card = move - GIVE_BASE
            self.hands[seat] &= ~bit(card)
            self.hands[self.giver] |= bit(card)
            self.given_back = card
            self._start_play()

    def _bid(self, seat: int, bid: int) -> None:
        self.auction.append((seat, bid))
        self.to_move = (seat + 1) % 4
        if bid != PASS:
            self.high_bid, self.high_bidder, self.passes = bid, seat, 0
        elif self.high_bid == PASS:
            if len(self.auction) == 4:  # four passes before any bid: thrown in
                self.phase = END
                self.to_move = None
                self.payoffs = (0, 0, 0, 0)
        else:
            self.passes += 1
            if self.passes == 3:
                self._end_auction()

    def _end_auction(self) -> None:
        self.contract = contract = self.high_bid
        self.declarer = declarer = self.high_bidder
        self.to_move = declarer
        if contract in (CHIAMO, MEDIATORE):
            self.phase = CALL
        elif contract == SOLO:
            self._take_monte()
        else:  # Solissimo, Arcisolissimo: the monte is not used
            self._start_play()

    def _call(self, card: int) -> None:
        self.called_card = card
        declarer = self.declarer
        self.holder = next((s for s in range(4) if self.hands[s] >> card & 1), None)
        if self.contract == CHIAMO:
            if self.holder != declarer:
                self.partner = self.holder
            if self.rules.chiamo_monte:
                self._take_monte()
            else:
                self._start_play()
        else:  # Mediatore: the holder, if another player, gives the card openly
            if self.holder is not None and self.holder != declarer:
                self.giver = self.holder
                self.hands[self.giver] &= ~bit(card)
                self.hands[declarer] |= bit(card)
            self._take_monte()

    def _take_monte(self) -> None:
        self.hands[self.declarer] |= self.monte
        self.monte = 0
        self.phase = DISCARD

    def _start_play(self) -> None:
        self.phase = PLAY
        self.leader = self.to_move = self.rules.first_leader(self.contract, self.declarer,
                                                             self.mano)

    def _play(self, seat: int, move: int) -> None:
        signal, card = divmod(move - PLAY_BASE, NUM_CARDS)
        if not self.trick:  # a lead: its signal goes with the trick
            self.trick_signal = signal
        if self._play_card(seat, card, self.trick_signal):
            self.trick_signal = NO_SIGNAL
            if len(self.tricks) == NUM_TRICKS:
                self._score(self.leader)

    def _score(self, last_winner: int) -> None:
        # The monte (discards or untouched monte) and the last trick go to the last trick's winner.
        self.thirds_won[last_winner] += LAST_TRICK_THIRDS + thirds_of(self.monte)
        side = self.declarer_side
        tricks = sum(self.tricks_won[s] for s in side)
        self.payoffs = payments(self.rules, self.contract, self.declarer, self.partner, self.giver,
                                won=self.side_thirds()[0] >= WIN_THIRDS,
                                capotto=tricks in (0, NUM_TRICKS))
        self.phase = END
        self.to_move = None

    # -- results ----------------------------------------------------------------------------

    @property
    def declarer_side(self) -> tuple[int, ...]:
        if self.declarer is None:
            return ()
        return (self.declarer,) if self.partner is None else (self.declarer, self.partner)

    def side_thirds(self) -> tuple[int, int]:
        """Thirds won so far by (declarer's side, the other side)."""
        side = self.declarer_side
        ours = sum(self.thirds_won[s] for s in side)
        return ours, sum(self.thirds_won) - ours

    def side_scores(self) -> tuple[int, int]:
        """Points of (declarer's side, the other side): thirds rounded down. Sum to 11 at the end."""
        ours, theirs = self.side_thirds()
        return ours // 3, theirs // 3

    @property
    def declarer_won(self) -> bool | None:
        if self.payoffs is None or self.contract is None:
            return None
        return self.side_thirds()[0] >= WIN_THIRDS

    @property
    def capotto(self) -> bool:
        if self.payoffs is None or self.contract is None:
            return False
        return sum(self.tricks_won[s] for s in self.declarer_side) in (0, NUM_TRICKS)

    # -- copies and text --------------------------------------------------------------------

    def clone(self) -> "Deal":
        other = object.__new__(Deal)
        for name in Deal.__slots__:
            setattr(other, name, getattr(self, name))
        other.hands = self.hands[:]
        other.history = self.history[:]
        other.auction = self.auction[:]
        other.trick = self.trick[:]
        other.tricks = self.tricks[:]  # Trick objects are never mutated
        other.thirds_won = self.thirds_won[:]
        other.tricks_won = self.tricks_won[:]
        return other

    def to_json(self) -> dict:
        """JSON-friendly state: the rules, dealer, pack and moves. :meth:`from_json` replays it."""
        return {"rules": self.rules.to_dict(), "dealer": self.dealer,
                "pack": None if self.pack is None else [CARD_NAMES[c] for c in self.pack],
                "moves": [move_text(m) for _, m in self.history]}

    @classmethod
    def from_json(cls, data: dict) -> "Deal":
        """The deal of :meth:`to_json`: its pack dealt and its moves made again."""
        pack = data["pack"]
        return rebuild(cls(Rules.from_dict(data["rules"]), data["dealer"]),
                       [] if pack is None else [pack], [(None, m) for m in data["moves"]],
                       parse_move)

    def view(self, seat: int) -> "SeatView":
        """What ``seat`` knows now (a live view: it follows this deal as it goes on)."""
        return SeatView(self, seat)

    def record(self, **meta) -> dict:
        """The record of the finished deal (:mod:`.records`): the header, rules, dealer, pack,
        every move with its seat, the result; keyword arguments go under ``"meta"``."""
        return records.make_record(self, **meta)

    @classmethod
    def replay(cls, record: dict) -> "Deal":
        """The finished deal of a record (this version's or a version 1 ``mediatore-record``),
        re-simulated; ``ValueError`` naming the first thing that differs."""
        return records.replay_deal(cls, record)

    def __eq__(self, other):
        return isinstance(other, Deal) and all(
            getattr(self, n) == getattr(other, n) for n in Deal.__slots__)

    __hash__ = None

    def __repr__(self):
        return f"<Deal {PHASE_NAMES[self.phase]} dealer={self.dealer} moves={len(self.history)}>"

