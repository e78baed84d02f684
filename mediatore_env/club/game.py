"""A session of club Mediatore as a state machine: antes, the mediator, the call, the widow,
nine tricks, the pot matched and taken or carried, deal after deal until the session ends.

Moves are the small ints of :mod:`.moves` (the environment's actions too). A session is
played by asking :meth:`Session.legal_moves` and calling :meth:`Session.apply`::

    >>> session = Session(ClubRules(), dealer=3, packs=[list(range(40))])
    >>> session.pot, session.to_move, [move_text(m) for m in session.legal_moves()]
    (20, 0, ['pass', 'accept'])
    >>> session.apply(parse_move("accept")); session.mediator, session.phase == CALL
    (0, True)

Each deal is dealt from a pack: the packs given up front (``packs``), in order, then packs
shuffled by ``rng``; or, when ``packs`` is a function, the pack it returns for each deal as it
starts (``packs(number, dealer)``, the caller's chance event). The pack of a deal is the one
chance event of the game, so a session is fully determined by its packs and its moves
(:meth:`to_json`, :mod:`.records`).

Seats are numbered in playing order (docs/rules.md 2): seat ``(s + 1) % 4`` acts after seat
``s``, and the seat after the dealer speaks and leads first. Everything a seat may know is in
:meth:`Session.view`; the rest of this object is the whole truth.

Chips: ``chips[s]`` is seat ``s``'s change in chips so far in the session (an ante or a
matching counts when it is put in, a pot when it is taken); ``stakes[s]`` what seat ``s``
has put into the pot standing now. ``chips`` plus ``stakes`` sum to zero at every moment, and
at the end of the session the standing pot goes back as it was put in, so ``chips`` alone
sum to zero (docs/rules.md 10.3).
"""

from __future__ import annotations

from typing import NamedTuple, Sequence

from ..core.cards import (CARD_NAMES, LAST_TRICK_THIRDS, NUM_CARDS, cards_of, thirds_of,
                          validate_pack)
from ..core.game import CHANCE, seat_of
from ..core.records import rebuild
from ..core.tricks import Trick, playable, playable_cards
from ..mediatore.nine_tricks import DISCARDS, NUM_TRICKS, WIN_THIRDS, NineTricks, deal_hands
from .moves import (ACCEPT, ALONE, AUCTION, CALL, CALL_BASE, DISCARD, DISCARD_BASE, END,
                    NUM_MOVES, PASS, PHASE_NAMES, PLAY, PLAY_BASE, move_text, parse_move)
from .rules import ClubRules, shares
from . import records
from .view import ClubView

__all__ = ["Session", "DealResult", "ClubRules"]


class DealResult(NamedTuple):
    """What one finished deal of a session was and what it did to the chips. Card sets are
    bitsets; ``chips`` is each seat's change in chips over the deal: its ante, its matching,
    its share of a pot won, and in the session's last deal the standing pot returned."""

    number: int                      #: 1 for the session's first deal
    dealer: int
    pack: tuple[int, ...]
    moves: tuple[tuple[int, int], ...]  #: (seat, move) of the deal's decisions
    mediator: int | None             #: None when all four passed
    alone: bool | None               #: announced alone, or the called card in the widow
    called_card: int | None
    partner: int | None
    discards: int
    tricks: tuple[Trick, ...]
    thirds: int | None               #: the mediator's side's thirds, discards and last trick in
    thirds_won: tuple[int, int, int, int]  #: each seat's thirds, counted the same way
    won: bool | None
    pot: int                         #: the pot when the mediator accepted (what was matched)
    matched: tuple[int, int]         #: what (mediator, partner) put in to match it
    taken: tuple[int, int]           #: what (mediator, partner) took from the pot (0 on a loss)
    chips: tuple[int, int, int, int]

    @property
    def passed(self) -> bool:
        """All four passed: the same dealer deals again, the pot unchanged."""
        return self.mediator is None


class Session(NineTricks):
    """The full state of a club Mediatore session. Mutable; :meth:`clone` copies it cheaply.

    Public attributes are read-only by convention; change the state only through :meth:`apply`.
    """

    # What its messages call one game, and its moves (NineTricks, core.game.Engine).
    UNIT, NUM_MOVES = "session", NUM_MOVES
    move_text, parse_move = staticmethod(move_text), staticmethod(parse_move)
    __slots__ = (
        "rules", "first_dealer", "rng", "_packs_given", "packs", "history", "results",
        "chips", "stakes", "deal_start", "dealer", "pack", "hands", "widow", "phase", "to_move",
        "auction", "mediator", "pot_accepted", "alone", "announced_alone", "called_card",
        "partner", "discards", "leader", "trick", "tricks", "played", "thirds_won",
        "tricks_won", "called_played_by",
    )

    def __init__(self, rules: ClubRules | None = None, dealer: int = 0,
                 packs: Sequence | None = None, rng=None):
        """A session whose first deal is dealt by ``dealer``. ``packs``: the packs of the
        first deals (each 40 distinct cards, ids or texts, in pack order), used in order,
        later deals shuffled by ``rng`` (a ``numpy.random.Generator``; a fresh unseeded one
        when None); or a function ``packs(number, dealer)`` returning the pack of deal
        ``number`` (1 for the first) dealt by ``dealer``, called as each deal starts."""
        self.rules = ClubRules() if rules is None else rules
        if not isinstance(self.rules, ClubRules):
            raise ValueError(f"rules must be a ClubRules object, got {type(rules).__name__}")
        seat = seat_of(dealer, 4, "dealer")
        if isinstance(packs, str):
            raise ValueError("packs must be a list of packs, one per deal, not one string")
        # None: no packs and no rng, so every deal waits for deal(pack).
        self._packs_given = (packs if callable(packs) or (packs is None and rng is None)
                             else [validate_pack(p) for p in (packs or ())])
        self.rng = rng
        self.first_dealer = self.dealer = seat
        self.packs: list[tuple[int, ...]] = []    # the pack of every deal so far
        self.history: list[tuple[int, int]] = []  # (seat, move) of every decision
        self.results: list[DealResult] = []
        self.chips = [0, 0, 0, 0]
        self.stakes = [0, 0, 0, 0]
        self._start_deal()

    # -- the deal's start ------------------------------------------------------------------

    def _next_pack(self, dealer: int) -> tuple[int, ...] | None:
        """The pack of the deal ``dealer`` starts now from the packs given or ``rng``; None
        when the session was made with neither (it then waits for :meth:`deal`)."""
        number = len(self.packs)
        if self._packs_given is None:
            return None
        if callable(self._packs_given):
            return validate_pack(self._packs_given(number + 1, dealer))
        if number < len(self._packs_given):
            return self._packs_given[number]
        if self.rng is None:
            import numpy as np  # only for shuffling; the engine itself needs no numpy
            self.rng = np.random.default_rng()
        return tuple(self.rng.permutation(NUM_CARDS).tolist())

    def _start_deal(self) -> None:
        """The next deal waits for its pack, dealt at once from the packs given or ``rng``."""
        self.phase = AUCTION
        self.to_move = CHANCE
        self.hands, self.widow = [0, 0, 0, 0], 0
        self.deal_start = (len(self.history), tuple(self.chips))
        self._clear_deal()
        pack = self._next_pack(self.next_dealer)
        if pack is not None:
            self._deal(pack)

    def _deal(self, pack: tuple[int, ...]) -> None:
        self.dealer = self.next_dealer
        self.pack = pack
        self.packs.append(pack)
        self.deal_start = (len(self.history), tuple(self.chips))
        if not any(self.stakes):  # an empty pot: everyone antes (docs/rules.md 10.3)
            ante = self.rules.ante
            for s in range(4):
                self.stakes[s] += ante
                self.chips[s] -= ante
        self.hands, self.widow = deal_hands(pack, self.dealer)
        self.to_move = (self.dealer + 1) % 4

    def _clear_deal(self) -> None:
        self.pack = None
        self.auction: list[tuple[int, int]] = []  # (seat, PASS or ACCEPT)
        self.mediator = None
        self.pot_accepted = 0
        self.alone = None
        self.announced_alone = False
        self.called_card = None
        self.partner = None
        self.discards = 0
        self.leader = None
        self.trick: list[int] = []
        self.tricks: list[Trick] = []
        self.played = 0
        self.thirds_won = [0, 0, 0, 0]
        self.tricks_won = [0, 0, 0, 0]
        self.called_played_by = None

    def deal(self, pack: Sequence) -> None:
        """Deal ``pack`` (40 distinct cards, ids or texts, in pack order) to the deal about to
        start: the chance event of a session made without packs or ``rng``. Raises
        ``ValueError`` (state unchanged) if no pack is needed now or the pack is bad."""
        if self.to_move != CHANCE:
            why = "the session is over" if self.is_over else f"deal {self.deal_number} is in play"
            raise ValueError(f"no pack is needed now: {why}")
        self._deal(validate_pack(pack))

    # -- queries ---------------------------------------------------------------------------

    @property
    def pot(self) -> int:
        """The chips in the pot now."""
        return sum(self.stakes)

    @property
    def deal_number(self) -> int:
        """The number of the deal in progress (or the last one, once the session is over)."""
        return len(self.packs)

    @property
    def next_dealer(self) -> int:
        """Who deals the next deal: the first dealer first; after a deal all four passed the
        same dealer again, else the seat after him (docs/rules.md 10.3). ``dealer`` is the
        dealer of the deal on the table, the one just ended while the next awaits its pack."""
        if not self.results:
            return self.first_dealer
        last = self.results[-1]
        return last.dealer if last.passed else (last.dealer + 1) % 4

    @property
    def outcome(self) -> tuple[int, ...] | None:
        """Each seat's chips won or lost in the session, once it is over."""
        return tuple(self.chips) if self.phase == END else None

    @property
    def side(self) -> tuple[int, ...]:
        """The mediator's side: the mediator and the partner, if any."""
        if self.mediator is None:
            return ()
        return (self.mediator,) if self.partner is None else (self.mediator, self.partner)

    def legal_moves(self) -> list[int]:
        """Legal move ids of the seat to move, ascending (empty once the session is over)."""
        phase = self.phase
        if phase == PLAY:
            return [PLAY_BASE + c for c in playable_cards(self.hands[self.to_move], self.trick)]
        if phase == AUCTION:
            return [] if self.to_move == CHANCE else [PASS, ACCEPT]
        if phase == CALL:  # alone, or a card the mediator does not hold
            hand = self.hands[self.mediator]
            return [ALONE, *(CALL_BASE + c for c in range(NUM_CARDS) if not hand >> c & 1)]
        if phase == DISCARD:
            return [DISCARD_BASE + c for c in sorted(cards_of(self.hands[self.mediator]))]
        return []

    def _is_legal(self, move: int) -> bool:
        phase = self.phase
        if phase == PLAY:
            card = move - PLAY_BASE
            return 0 <= card < NUM_CARDS and bool(playable(self.hands[self.to_move], self.trick) >> card & 1)
        if phase == AUCTION:
            return self.to_move != CHANCE and move in (PASS, ACCEPT)
        if phase == CALL:
            card = move - CALL_BASE
            return move == ALONE or (0 <= card < NUM_CARDS and not self.hands[self.mediator] >> card & 1)
        if phase == DISCARD:
            card = move - DISCARD_BASE
            return 0 <= card < NUM_CARDS and bool(self.hands[self.mediator] >> card & 1)
        return False

    # -- transitions -----------------------------------------------------------------------

    def _raise_illegal(self, move):
        super()._raise_illegal(move, f"deal {self.deal_number + 1}",
                               f" of deal {self.deal_number}")

    def _apply(self, move: int) -> None:
        """Apply a move already known to be legal."""
        seat = self.to_move
        self.history.append((seat, move))
        phase = self.phase
        if phase == PLAY:
            self._play(seat, move - PLAY_BASE)
        elif phase == AUCTION:
            self._choose(seat, move)
        elif phase == CALL:
            self._call(None if move == ALONE else move - CALL_BASE)
        elif phase == DISCARD:
            card = move - DISCARD_BASE
            self.hands[seat] &= ~(1 << card)
            self.discards |= 1 << card
            if self.discards.bit_count() == DISCARDS:
                self.phase = PLAY
                self.leader = self.to_move = self.mano  # the dealer's left leads

    def _choose(self, seat: int, move: int) -> None:
        self.auction.append((seat, move))
        if move == ACCEPT:  # the first acceptance ends the choice: no overbidding
            self.mediator = seat
            self.pot_accepted = self.pot
            self.phase = CALL
            self.to_move = seat
        elif len(self.auction) == 4:  # all four passed: the same dealer deals again
            self._end_deal(passed=True)
        else:
            self.to_move = (seat + 1) % 4

    def _call(self, card: int | None) -> None:
        mediator = self.mediator
        self.called_card = card
        self.announced_alone = card is None
        holder = None if card is None else next((s for s in range(4) if self.hands[s] >> card & 1), None)
        # A called card in the widow (no seat holds it): the mediator plays alone, and says so
        # as he takes the widow (docs/rules.md 10.3).
        self.partner = holder
        self.alone = holder is None
        self.hands[mediator] |= self.widow  # taken unseen by the others
        self.phase = DISCARD

    def _play(self, seat: int, card: int) -> None:
        if self._play_card(seat, card) and len(self.tricks) == NUM_TRICKS:
            # The last trick's point to its winner; the discards, a trick of the mediator's.
            self.thirds_won[self.leader] += LAST_TRICK_THIRDS
            self.thirds_won[self.mediator] += thirds_of(self.discards)
            self._end_deal(passed=False)

    def side_thirds(self) -> int:
        """The thirds the mediator's side has taken (the discards and the last trick count
        once the deal is over)."""
        return sum(self.thirds_won[s] for s in self.side)

    def _end_deal(self, passed: bool) -> None:
        mediator, partner = self.mediator, self.partner
        pot = self.pot_accepted
        won, matched, taken = None, (0, 0), (0, 0)
        if not passed:
            # The matching, settled now so that paying reveals no secret partner.
            matched = shares(pot, partner is not None)
            for s, chips in zip((mediator, partner), matched):
                if chips:
                    self.stakes[s] += chips
                    self.chips[s] -= chips
            won = self.side_thirds() >= WIN_THIRDS
            if won:  # the side takes the whole pot, which is empty for the next deal
                taken = shares(self.pot, partner is not None)
                for s, chips in zip((mediator, partner), taken):
                    if chips:
                        self.chips[s] += chips
                self.stakes = [0, 0, 0, 0]
        number = len(self.results) + 1
        last = (won and self.rules.until_won) or number == self.rules.max_deals
        if last:  # the standing pot goes back as it was put in
            for s in range(4):
                self.chips[s] += self.stakes[s]
            self.stakes = [0, 0, 0, 0]
        start, chips_before = self.deal_start
        self.results.append(DealResult(
            number, self.dealer, self.pack, tuple(self.history[start:]), mediator, self.alone,
            self.called_card, partner, self.discards, tuple(self.tricks),
            None if passed else self.side_thirds(), tuple(self.thirds_won), won, pot, matched,
            taken, tuple(c - b for c, b in zip(self.chips, chips_before))))
        if last:
            self.phase = END
            self.to_move = None
        else:
            self._start_deal()

    # -- copies and text -------------------------------------------------------------------

    def clone(self) -> "Session":
        """An independent copy (a shuffling ``rng`` and a ``packs`` function are shared, not
        copied)."""
        other = object.__new__(Session)
        for name in Session.__slots__:
            setattr(other, name, getattr(self, name))
        for name in ("packs", "history", "results", "chips", "stakes", "hands",
                     "auction", "trick", "tricks", "thirds_won", "tricks_won"):
            setattr(other, name, getattr(self, name)[:])
        return other

    def to_json(self) -> dict:
        """JSON-friendly state: the rules, the first dealer, the packs dealt so far and the
        moves. :meth:`from_json` replays it."""
        return {"rules": self.rules.to_dict(), "dealer": self.first_dealer,
                "packs": [[CARD_NAMES[c] for c in pack] for pack in self.packs],
                "moves": [move_text(m) for _, m in self.history]}

    @classmethod
    def from_json(cls, data: dict) -> "Session":
        """The session of :meth:`to_json`: each pack dealt as its deal starts, the moves made
        again; a session that waited for a pack waits again."""
        return rebuild(cls(ClubRules.from_dict(data["rules"]), data["dealer"]), data["packs"],
                       [(None, m) for m in data["moves"]], parse_move, "deal")

    def view(self, seat: int) -> ClubView:
        """What ``seat`` knows now (a live view: it follows this session as it goes on)."""
        return ClubView(self, seat)

    def record(self, **meta) -> dict:
        """The record of the finished session (:mod:`.records`): the header, rules, first
        dealer, every deal's pack, moves and result, the chips; keyword arguments go under
        ``"meta"``."""
        return records.make_record(self, **meta)

    @classmethod
    def replay(cls, record: dict) -> "Session":
        """The finished session of a record (this version's or a version 1
        ``club-mediatore-record``), re-simulated; ``ValueError`` naming the first thing that
        differs."""
        return records.replay_session(cls, record)

    def __eq__(self, other):
        return isinstance(other, Session) and all(
            getattr(self, n) == getattr(other, n) for n in Session.__slots__
            if n not in ("rng", "_packs_given"))  # how later packs will come is no state

    __hash__ = None

    def __repr__(self):
        return (f"<Session deal {self.deal_number} {PHASE_NAMES[self.phase]} pot={self.pot} "
                f"chips={self.chips}>")
