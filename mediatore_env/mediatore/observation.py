"""Observation vectors: what one seat knows, as a flat float32 vector, and its legal-move mask.

The writers read a :class:`~mediatore_env.mediatore.view.SeatView` and nothing else, so they can only
write what that seat knows (docs/rules.md section 5 and the monte switches of section 8)::

    >>> from mediatore_env import Deal, Rules
    >>> deal = Deal(Rules(), dealer=3, pack=list(range(40)))
    >>> obs = observation(deal.view(0))
    >>> obs["observation"].shape, int(obs["action_mask"].sum())
    ((2132,), 6)
    >>> print(observation_text(obs["observation"]).splitlines()[3])
    hand: D6 D5 D4 CF C7 C6 SR SC SF

Everything is seat-relative: the observer is seat 0, seat 1 the next to act after it (to its
right), 2 the seat across, 3 the seat to its left. Cards are card ids (cards.py: ``suit * 10 +
power``); one-hot blocks of 40 are indexed by card id. All values lie in [0, 1].

The tricks have ten slots: slot ``t`` < 9 is the finished trick ``t + 1``, slot 9 the trick
on the table (a finished trick leaves the table for its slot).

Layout, version 3 (``OBSERVATION_VERSION``; ``LAYOUT`` of :mod:`.layout` holds the same table,
``OFFSETS`` and ``SIZES`` the numbers; :func:`layout_table` prints it):

======  ======  ===============  ==========================================================
offset  length  block            meaning
======  ======  ===============  ==========================================================
0       23      rules            the table's rules switches, one-hot per switch, in the order
                                 of ``rules.SWITCHES`` and of each switch's values
23      4       dealer           the dealer's relative seat
27      6       phase            one-hot: auction, call, discard, give, play, end
33      4       to_move          relative seat to act (all 0 once the deal is over)
37      40      hand             the observer's cards now
77      20      auction          ``4 * (contract - 1) + relative seat`` is 1 when that seat bid
                                 that contract; with the dealer and the fixed turn order this
                                 is the whole auction (passes fill every other turn)
97      5       contract         one-hot contract once the auction is won (chiamo .. arcisolissimo)
102     4       declarer         the declarer's relative seat
106     40      called_card      the card called in Chiamo or Mediatore
146     4       giver            Mediatore: relative seat that gave the called card openly
150     6       partnership      [declarer plays alone (known), declarer has a partner
                                 (known), the partner's relative seat (4) when known]
156     40      monte_seen       the original monte, if the observer has seen it
196     40      discards         the declarer's discards: to the declarer at once, to all at the end
236     40      given_back       Mediatore: the card passed back (declarer and giver only)
276     40      final_monte      the monte turned over after the last trick
316     2       side_thirds      (declarer's side, other side) thirds / 35, when the observer
                                 knows the sides (partnership block), else 0
318     40      played           every card played so far (on the table included)
358     90      signals          ``9 * slot + signal``: the signal of each lead (signal ids of
                                 rules.py; 0 = none)
448     421     seat_0           what relative seat 0 (the observer) did in the play:
                                 ``40 * slot + card`` (400) the card it played to each trick,
                                 then led (10, by slot), won (9, by finished slot), its thirds
                                 taken / 35 (the monte and the last trick included at the end),
                                 its tricks taken / 9
869     421     seat_1           the same for relative seat 1
1290    421     seat_2           the same for relative seat 2
1711    421     seat_3           the same for relative seat 3
======  ======  ===============  ==========================================================

Size 2132. Relative seat ``r`` of a 4-wide block is the seat ``(observer + r) % 4``.

Two writers fill this layout; a test holds them equal, bit for bit, after every move of random
deals in every rules preset, for every seat:

- :func:`~.reference.write_observation` writes the vector from
  scratch, block by block, from the view alone: the plain reference;
- the :class:`Encoder` (behind the environments and :func:`observation`) keeps one seat's vector up to date in a
  preallocated buffer, writing only what changed since it last looked (new bids, the cards
  played, ...), so observing costs O(new events): about a tenth of the plain writer's time.
  The play (``played``, ``signals`` and the four ``seat_`` blocks) is the same for every
  observer but for the order of the seat blocks, so a :class:`Table` writes it once per card,
  with absolute seats, and each seat's Encoder copies it in rotated (three slice copies).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from ..core.cards import CARD_NAMES, NUM_CARDS, TOTAL_THIRDS, cards_of
from ..codec import actions
from .moves import AUCTION, DISCARD, END, NUM_MOVES, PHASE_NAMES, PLAY
from .nine_tricks import NUM_TRICKS
from .rules import CONTRACT_NAMES, CONTRACTS, NUM_SIGNALS, SIGNAL_NAMES, SWITCHES, Rules
# The layout's numbers, also this module's API (the envs, the docs and the tests read them here).
from .layout import (LAYOUT, OBSERVATION_SIZE, OBSERVATION_VERSION, OFFSETS, RULES_LEN, S_CARDS,
                     S_LED, S_THIRDS, S_TRICKS, S_WON, SEAT_LEN, SIZES, SLOTS, TABLE, layout_table)
from .reference import write_observation  # re-exported: the plain writer beside the Encoder

__all__ = ["OBSERVATION_VERSION", "OBSERVATION_SIZE", "LAYOUT", "OFFSETS", "SIZES", "SLOTS",
           "TABLE", "S_CARDS", "S_LED", "S_WON", "S_THIRDS", "S_TRICKS", "SEAT_LEN", "layout_table",
           "rules_vector", "Table", "Encoder", "action_mask", "observation", "write_observation",
           "decode_observation", "observation_text"]

_RULES = OFFSETS["rules"]
_DEALER = OFFSETS["dealer"]
_PHASE = OFFSETS["phase"]
_TO_MOVE = OFFSETS["to_move"]
_HAND = OFFSETS["hand"]
_AUCTION = OFFSETS["auction"]
_CONTRACT = OFFSETS["contract"]
_DECLARER = OFFSETS["declarer"]
_CALLED = OFFSETS["called_card"]
_GIVER = OFFSETS["giver"]
_PARTNERSHIP = OFFSETS["partnership"]
_MONTE = OFFSETS["monte_seen"]
_DISCARDS = OFFSETS["discards"]
_GIVEN = OFFSETS["given_back"]
_FINAL = OFFSETS["final_monte"]
_SIDES = OFFSETS["side_thirds"]
_PUBLIC = OFFSETS["played"]  # played, signals and the seat blocks: the part a Table writes
_PUBLIC_LEN = OBSERVATION_SIZE - _PUBLIC
_SEATS = OFFSETS["seat_0"]

# Offsets inside a Table's buffer: played, signals, then the blocks of seats 0, 1, 2, 3.
_T_PLAYED = OFFSETS["played"] - _PUBLIC
_T_SIGNALS = OFFSETS["signals"] - _PUBLIC
_T_SEATS = _SEATS - _PUBLIC
_T_SEAT = tuple(_T_SEATS + SEAT_LEN * seat for seat in range(4))

_THIRD = 1.0 / TOTAL_THIRDS
_TRICK = 1.0 / NUM_TRICKS


@lru_cache(maxsize=64)
def rules_vector(rules: Rules) -> np.ndarray:
    """The ``rules`` block: one-hot per switch. Read-only."""
    out = np.zeros(RULES_LEN, np.float32)
    i = 0
    for name, values in SWITCHES.items():
        value = getattr(rules, name)
        out[i + next(k for k, v in enumerate(values) if v == value and type(v) is type(value))] = 1
        i += len(values)
    out.flags.writeable = False
    return out


@lru_cache(maxsize=64)
def _rules_block(rules: Rules) -> memoryview:
    return memoryview(rules_vector(rules))


def _write_bits(mv, base: int, mask: int, value: float) -> None:
    while mask:
        low = mask & -mask
        mv[base + low.bit_length() - 1] = value
        mask ^= low


# The ten values of one suit's block for each set of powers (a 10-bit pattern).
_SUIT_BLOCKS = tuple(memoryview(np.array([p >> i & 1 for i in range(10)], np.float32))
                     for p in range(1024))


def _write_cards(mv, base: int, mask: int) -> None:
    """Write the 40-card block at ``base`` from scratch: 1 for the cards of ``mask``, else 0."""
    blocks = _SUIT_BLOCKS
    mv[base:base + 10] = blocks[mask & 1023]
    mv[base + 10:base + 20] = blocks[mask >> 10 & 1023]
    mv[base + 20:base + 30] = blocks[mask >> 20 & 1023]
    mv[base + 30:base + 40] = blocks[mask >> 30]


def _write_diff(mv, base: int, old: int, new: int) -> None:
    """Rewrite the bits of a 40-card block that differ between ``old`` and ``new``."""
    if (old ^ new).bit_count() > 2:  # three cards or more: rewrite the whole block
        _write_cards(mv, base, new)
    else:
        _write_bits(mv, base, old & ~new, 0.0)
        _write_bits(mv, base, new & ~old, 1.0)


class Table:
    """The play of one deal (``played``, ``signals`` and the seat blocks), written once per
    card with absolute seats; the :class:`Encoder` of each seat copies it in, rotated.

    The four encoders of one deal may share a Table (``Encoder(table)``); then whoever starts a
    new deal must :meth:`reset` it. An Encoder made without one keeps its own.
    """

    __slots__ = ("array", "_mv", "_sources", "cards", "_tricks", "_table")

    def __init__(self):
        self.array = np.zeros(_PUBLIC_LEN, np.float32)
        self._mv = src = memoryview(self.array)
        # For each observer, the slices copied into its public_parts, in the same order.
        self._sources = tuple((src[:_T_SEATS], src[_T_SEAT[me]:], src[_T_SEATS:_T_SEAT[me]])
                              for me in range(4))
        self.reset()

    # Copies (copy.deepcopy, pickle): memoryviews cannot be copied, so the state is the array
    # and the counters; the views into the array are made again for the copy's own array.
    def __getstate__(self) -> dict:
        return {"array": self.array, "cards": self.cards, "_tricks": self._tricks,
                "_table": self._table}

    def __setstate__(self, state: dict) -> None:
        self.array = state["array"]
        self._mv = src = memoryview(self.array)
        self._sources = tuple((src[:_T_SEATS], src[_T_SEAT[me]:], src[_T_SEATS:_T_SEAT[me]])
                              for me in range(4))
        self.cards, self._tricks, self._table = state["cards"], state["_tricks"], state["_table"]

    def reset(self) -> None:
        self.array.fill(0.0)
        self.cards = 0      # cards written (the version an Encoder compares with its own)
        self._tricks = 0    # finished tricks written into their slots
        self._table = []    # indices set for the trick on the table

    def update(self, tricks, trick, leader: int, signal: int, n: int, thirds, won) -> None:
        """Catch up with a deal where ``n`` cards have been played (see SeatView.play_state)."""
        mv = self._mv
        k = self.cards
        done = len(tricks)
        if self._tricks < done:
            for i in self._table:  # the trick on the table is finished: off the table ...
                mv[i] = 0.0
            self._table = []
            for t in range(self._tricks, done):  # ... and into its slot
                tr = tricks[t]
                lead, w = tr.leader, tr.winner
                c0, c1, c2, c3 = tr.cards
                at = NUM_CARDS * t
                mv[_T_SEAT[lead] + at + c0] = mv[_T_SEAT[(lead + 1) & 3] + at + c1] = 1.0
                mv[_T_SEAT[(lead + 2) & 3] + at + c2] = mv[_T_SEAT[(lead + 3) & 3] + at + c3] = 1.0
                mv[_T_PLAYED + c0] = mv[_T_PLAYED + c1] = mv[_T_PLAYED + c2] = mv[_T_PLAYED + c3] = 1.0
                mv[_T_SIGNALS + NUM_SIGNALS * t + tr.signal] = 1.0
                mv[_T_SEAT[lead] + S_LED + t] = mv[_T_SEAT[w] + S_WON + t] = 1.0
                mv[_T_SEAT[w] + S_THIRDS] = thirds[w] * _THIRD
                mv[_T_SEAT[w] + S_TRICKS] = won[w] * _TRICK
            self._tricks = done
            k = 4 * done
            if done == NUM_TRICKS:  # the end: the monte and the last trick are counted
                for seat in range(4):
                    mv[_T_SEAT[seat] + S_THIRDS] = thirds[seat] * _THIRD
        if n > k:
            table = self._table
            pos = k - 4 * done
            if pos == 0:
                i, j = _T_SIGNALS + NUM_SIGNALS * TABLE + signal, _T_SEAT[leader] + S_LED + TABLE
                mv[i] = mv[j] = 1.0
                table += (i, j)
            at = NUM_CARDS * TABLE
            for pos in range(pos, len(trick)):
                card = trick[pos]
                i = _T_SEAT[(leader + pos) & 3] + at + card
                mv[i] = mv[_T_PLAYED + card] = 1.0
                table.append(i)
        self.cards = n

    def copy_into(self, parts: tuple, me: int) -> None:
        """Write the play into the buffer of seat ``me``, rotated: ``parts`` are that buffer's
        :func:`public_parts`."""
        a, b, c = parts
        x, y, z = self._sources[me]
        a[_ALL] = x
        b[_ALL] = y
        c[_ALL] = z


def public_parts(mv, me: int) -> tuple:
    """The three slices of an observation buffer ``mv`` of seat ``me`` that a Table fills:
    played and signals, the seat blocks from ``me`` to seat 3, those from seat 0 to ``me``.
    Made once and kept: slicing a memoryview costs more than copying a few kilobytes."""
    split = _SEATS + SEAT_LEN * (4 - me)
    return mv[_PUBLIC:_SEATS], mv[_SEATS:split], mv[split:]


_ALL = slice(None)  # a prebuilt [:] for the copies


class Encoder:
    """The observation of one seat, kept up to date incrementally in a preallocated buffer.

    ``encode(view)`` returns the internal buffer: read it, copy it to keep it. A new view (a new
    deal, or another seat) starts the buffer afresh; the same view again writes only what
    happened since the last call. ``table``: a :class:`Table` shared with the encoders of the
    other seats of the same deal (the caller resets it for each deal), or None for its own.

    It writes the same vector as :func:`~.reference.write_observation` (the tests check it after
    every move) and is kept for speed: about 3 us per observation against about 40 us, so
    ``mediatore_v0`` steps about three times as fast with it as with the plain writer
    (benchmarks/bench_observation.py, random play, one core).
    """

    __slots__ = ("array", "_mv", "_view", "_rules", "_rules_mv", "_seat", "_public", "_table",
                 "_own_table",
                 # What the buffer shows of the deal, to tell what changed since the last look.
                 "_moves", "_phase", "_to_move", "_hand", "_auction", "_declarer", "_called",
                 "_alone", "_partner", "_monte", "_discards", "_played", "_tricks")

    def __init__(self, table: Table | None = None):
        self.array = np.zeros(OBSERVATION_SIZE, np.float32)
        self._mv = memoryview(self.array)
        self._view = self._rules = self._seat = None
        self._own_table = table is None
        self._table = Table() if table is None else table

    @property
    def table(self) -> Table:
        """The :class:`Table` this encoder copies the play from (shared or its own)."""
        return self._table

    # Copies (copy.deepcopy, pickle): every slot but the memoryviews, which are made again on
    # the copy's own array. A Table shared by the encoders of one environment is copied once
    # by a deepcopy or pickle of that environment, so the copies share it among themselves
    # and not with the original.
    _VIEWS = frozenset({"_mv", "_rules_mv", "_public"})

    def __getstate__(self) -> dict:
        return {name: getattr(self, name) for name in self.__slots__
                if name not in self._VIEWS and hasattr(self, name)}

    def __setstate__(self, state: dict) -> None:
        for name, value in state.items():
            setattr(self, name, value)
        self._mv = memoryview(self.array)
        if self._rules is not None:
            self._rules_mv = _rules_block(self._rules)
        if self._seat is not None:
            self._public = public_parts(self._mv, self._seat)

    def encode(self, view) -> np.ndarray:
        if view is not self._view:
            self._start(view)
        state = view.play_state()
        if state[0] == self._moves:
            return self.array
        moves, phase, to_move, hand, played, tricks, trick, leader, signal, thirds, won = state
        self._moves = moves
        if phase != self._phase:
            self._update_all(view, state)
        elif phase == PLAY:
            # The hot path: between two looks in the play, only cards were played.
            mv, me = self._mv, self._seat
            if to_move != self._to_move:
                mv[_TO_MOVE + ((self._to_move - me) & 3)] = 0.0
                mv[_TO_MOVE + ((to_move - me) & 3)] = 1.0
                self._to_move = to_move
            gone = self._hand & ~hand  # in the play a hand only loses cards
            if gone:
                self._hand = hand
                while gone:
                    low = gone & -gone
                    mv[_HAND + low.bit_length() - 1] = 0.0
                    gone ^= low
            if played != self._played:
                self._update_cards(played, tricks, trick, leader, signal, thirds, won)
                # The partnership changes only when the called card is played; then every seat
                # knows the sides (the partnership block shows the sides known).
                if (self._partner is None and self._alone is not True and self._called is not None
                        and played >> self._called & 1):
                    self._update_partnership(view, thirds)
        elif phase == AUCTION:
            self._update_to_move(to_move)
            self._update_auction(view)
        elif phase == DISCARD:
            if self._seat == self._declarer:
                self._update_hand(hand)
                self._update_discards(view)
        else:  # pragma: no cover - the call and the give are single moves, the end has none
            self._update_all(view, state)
        return self.array

    # -- from scratch -------------------------------------------------------------------------

    def _start(self, view) -> None:
        self._view = view
        if view.seat != self._seat:
            self._seat = view.seat
            self._public = public_parts(self._mv, view.seat)
        me = self._seat
        if self._own_table:
            self._table.reset()
        self.array.fill(0.0)
        mv = self._mv
        rules = view.rules
        if rules is not self._rules:  # hashing the rules for the cache costs more than the rest
            self._rules, self._rules_mv = rules, _rules_block(rules)
        mv[_RULES:_RULES + RULES_LEN] = self._rules_mv
        mv[_DEALER + ((view.dealer - me) & 3)] = 1.0
        self._moves = -1
        self._phase = -1
        self._to_move = None
        self._hand = 0
        self._auction = 0       # calls of the auction written
        self._declarer = None   # None until the contract is written
        self._called = None
        self._alone = None
        self._partner = None
        self._monte = 0
        self._discards = 0
        self._played = 0
        self._tricks = 0        # finished tricks counted in the sides' thirds

    def _update_all(self, view, state) -> None:
        """Everything that may have changed since the last look, the phase having changed."""
        mv, me = self._mv, self._seat
        _, phase, to_move, hand, played, tricks, trick, leader, signal, thirds, won = state
        if self._phase >= 0:
            mv[_PHASE + self._phase] = 0.0
        mv[_PHASE + phase] = 1.0
        self._phase = phase
        self._update_to_move(to_move)
        self._update_hand(hand)
        declarer = self._declarer
        if declarer is None:  # the auction was on at the last look
            self._update_auction(view)
            if phase == AUCTION or view.contract is None:
                return  # the auction is on, or the deal was thrown in: nothing else to know
            self._declarer = declarer = view.declarer
            mv[_CONTRACT + view.contract - 1] = 1.0
            mv[_DECLARER + ((declarer - me) & 3)] = 1.0
        if self._called is None:
            called = view.called_card  # Chiamo and Mediatore, after the call
            if called is not None:
                self._called = called
                mv[_CALLED + called] = 1.0
                giver = view.giver
                if giver is not None:
                    mv[_GIVER + ((giver - me) & 3)] = 1.0
        if not self._monte:
            self._monte = view.monte_seen
            if self._monte:
                _write_cards(mv, _MONTE, self._monte)
        if me == declarer or phase == END:
            self._update_discards(view)
        given = view.given_back
        if given is not None:
            mv[_GIVEN + given] = 1.0
        if phase == END:
            _write_cards(mv, _FINAL, view.final_monte)
        if phase >= PLAY and played != self._played:
            self._update_cards(played, tricks, trick, leader, signal, thirds, won)
        if self._alone is not True and self._partner is None:
            self._update_partnership(view, thirds)
        if phase == END and (self._alone is True or self._partner is not None):
            self._update_sides(thirds)  # the monte and the last trick count at the end

    # -- pieces -------------------------------------------------------------------------------

    def _update_to_move(self, to_move) -> None:
        if to_move != self._to_move:
            mv, me = self._mv, self._seat
            if self._to_move is not None:
                mv[_TO_MOVE + (self._to_move - me) % 4] = 0.0
            if to_move is not None:
                mv[_TO_MOVE + (to_move - me) % 4] = 1.0
            self._to_move = to_move

    def _update_hand(self, hand: int) -> None:
        if hand != self._hand:
            _write_diff(self._mv, _HAND, self._hand, hand)
            self._hand = hand

    def _update_auction(self, view) -> None:
        auction = view.auction
        n = len(auction)
        if n != self._auction:
            mv, me = self._mv, self._seat
            for seat, bid in auction[self._auction:]:
                if bid:
                    mv[_AUCTION + 4 * (bid - 1) + (seat - me) % 4] = 1.0
            self._auction = n

    def _update_discards(self, view) -> None:
        discards = view.discards
        if discards != self._discards:
            _write_diff(self._mv, _DISCARDS, self._discards, discards)
            self._discards = discards

    def _update_cards(self, played: int, tricks, trick, leader, signal, thirds, won) -> None:
        """The cards played since the last look: the play from the Table, and the sides'
        thirds when this seat knows the sides."""
        n = played.bit_count()
        table = self._table
        if table.cards != n:
            table.update(tricks, trick, leader, signal, n, thirds, won)
        table.copy_into(self._public, self._seat)
        self._played = played
        done = len(tricks)
        if self._tricks != done:  # a trick was won: the sides' thirds changed
            self._tricks = done
            if self._alone is True or self._partner is not None:
                self._update_sides(thirds)

    def _update_partnership(self, view, thirds) -> None:
        alone, partner = view.alone, view.partner
        if alone is self._alone and partner == self._partner:
            return
        mv, me = self._mv, self._seat
        mv[_PARTNERSHIP] = 1.0 if alone is True else 0.0
        mv[_PARTNERSHIP + 1] = 1.0 if alone is False else 0.0
        if self._partner is not None:
            mv[_PARTNERSHIP + 2 + (self._partner - me) % 4] = 0.0
        if partner is not None:
            mv[_PARTNERSHIP + 2 + (partner - me) % 4] = 1.0
        self._alone, self._partner = alone, partner
        if alone is True or partner is not None:
            self._update_sides(thirds)

    def _update_sides(self, thirds) -> None:
        """The sides' thirds (``thirds``: by seat), once this seat knows the sides."""
        declarer, partner = self._declarer, self._partner
        ours = thirds[declarer] + (thirds[partner] if partner is not None else 0)
        self._mv[_SIDES] = ours * _THIRD
        self._mv[_SIDES + 1] = (sum(thirds) - ours) * _THIRD


def action_mask(view) -> np.ndarray:
    """The legal-move mask of ``view``'s seat: :func:`~mediatore_env.codec.actions.action_mask`
    of the game's ``NUM_MOVES`` (486) moves."""
    return actions.action_mask(view, NUM_MOVES)


def observation(view) -> dict:
    """``{"observation": float32[OBSERVATION_SIZE], "action_mask": int8[NUM_MOVES]}`` of a
    seat view, written from scratch into fresh arrays (the caller may keep or modify them) by a
    fresh :class:`Encoder` (faster than the plain writer, :func:`~.reference.write_observation`,
    which the tests hold it equal to).

    For many calls on the same deal, keep an :class:`Encoder` per seat instead: it writes only
    what changed."""
    return {"observation": Encoder().encode(view), "action_mask": action_mask(view)}


# -- reading a vector back ----------------------------------------------------------------------

_REL_NAMES = ("you", "right", "across", "left")


def _one(block) -> int | None:
    hits = np.flatnonzero(block)
    if len(hits) > 1:
        raise ValueError(f"not a one-hot block: {block}")
    return int(hits[0]) if len(hits) else None


def _cards_in(block) -> list[int]:
    return cards_of(sum(1 << int(c) for c in np.flatnonzero(block)))


def decode_observation(vector) -> dict:
    """The facts an observation vector holds, as plain Python values (relative seats, card ids,
    thirds): the inverse of the encoder, used by :func:`observation_text` and the tests."""
    v = np.asarray(vector, dtype=np.float32)
    if v.shape != (OBSERVATION_SIZE,):
        raise ValueError(f"an observation has shape ({OBSERVATION_SIZE},), got {v.shape}")

    def block(name):
        return v[OFFSETS[name]:OFFSETS[name] + SIZES[name]]

    rules, i = {}, _RULES
    for name, values in SWITCHES.items():
        rules[name] = values[_one(v[i:i + len(values)])]
        i += len(values)
    auction = block("auction")
    bids = {CONTRACTS[k // 4]: k % 4 for k in np.flatnonzero(auction)}
    contract = _one(block("contract"))
    partnership = block("partnership")
    seats = [block(f"seat_{r}") for r in range(4)]

    def trick(t):
        leader = next((r for r in range(4) if seats[r][S_LED + t]), None)
        if leader is None:
            return None
        cards_at, signals_at = S_CARDS + NUM_CARDS * t, NUM_SIGNALS * t
        by_seat = {r: _one(seats[r][cards_at:cards_at + NUM_CARDS]) for r in range(4)}
        return {"leader": leader, "signal": _one(block("signals")[signals_at:signals_at + NUM_SIGNALS]),
                "cards": {r: c for r, c in by_seat.items() if c is not None}}

    tricks = []
    for t in range(NUM_TRICKS):
        finished = trick(t)
        if finished is None:
            break
        finished["winner"] = next(r for r in range(4) if seats[r][S_WON + t])
        tricks.append(finished)
    current = trick(TABLE)
    sides_known = bool(partnership[0] or _one(partnership[2:6]) is not None)
    return {
        "rules": rules,
        "dealer": _one(block("dealer")),
        "phase": PHASE_NAMES[_one(block("phase"))],
        "to_move": _one(block("to_move")),
        "hand": _cards_in(block("hand")),
        "bids": bids,
        "contract": None if contract is None else CONTRACTS[contract],
        "declarer": _one(block("declarer")),
        "called_card": _one(block("called_card")),
        "giver": _one(block("giver")),
        "alone": True if partnership[0] else False if partnership[1] else None,
        "partner": _one(partnership[2:6]),
        "monte_seen": _cards_in(block("monte_seen")),
        "discards": _cards_in(block("discards")),
        "given_back": _one(block("given_back")),
        "final_monte": _cards_in(block("final_monte")),
        "played": _cards_in(block("played")),
        "thirds_won": [round(float(seats[r][S_THIRDS]) * TOTAL_THIRDS) for r in range(4)],
        "tricks_won": [round(float(seats[r][S_TRICKS]) * NUM_TRICKS) for r in range(4)],
        "side_thirds": ([round(float(x) * TOTAL_THIRDS) for x in block("side_thirds")]
                        if sides_known else None),
        "current_trick": current,
        "tricks": tricks,
    }


def observation_text(vector) -> str:
    """A readable account of an observation vector: what the observing seat knows.

    Seats are named from the observer: you, right (acts after you), across, left."""
    d = decode_observation(vector)
    seat = lambda r: None if r is None else _REL_NAMES[r]  # noqa: E731
    names = lambda cards: " ".join(CARD_NAMES[c] for c in cards) or "-"  # noqa: E731
    changed = {k: v for k, v in d["rules"].items() if v != SWITCHES[k][0]}
    lines = [
        "rules: " + (", ".join(f"{k}={v}" for k, v in changed.items()) or "standard"),
        f"dealer: {seat(d['dealer'])}",
        f"phase: {d['phase']}" + (f", {seat(d['to_move'])} to act" if d["to_move"] is not None else ""),
        f"hand: {names(d['hand'])}",
    ]
    bids = ", ".join(f"{seat(r)} {CONTRACT_NAMES[c]}" for c, r in sorted(d["bids"].items()))
    lines.append(f"bids: {bids or 'none'}")
    if d["contract"] is not None:
        line = f"contract: {CONTRACT_NAMES[d['contract']]} by {seat(d['declarer'])}"
        if d["called_card"] is not None:
            line += f", called {CARD_NAMES[d['called_card']]}"
        if d["giver"] is not None:
            line += f", given by {seat(d['giver'])}"
        lines.append(line)
        if d["alone"] is None:
            partner = "not known"
        elif d["alone"]:
            partner = "declarer alone"
        else:
            partner = "partner " + (seat(d["partner"]) or "not known")
        lines.append(f"partnership: {partner}")
    for key, label in (("monte_seen", "monte seen"), ("discards", "discards"),
                       ("final_monte", "final monte")):
        if d[key]:
            lines.append(f"{label}: {names(d[key])}")
    if d["given_back"] is not None:
        lines.append(f"passed back: {CARD_NAMES[d['given_back']]}")
    def trick(t):
        cards = [f"{seat(r)} {CARD_NAMES[t['cards'][r]]}"
                 for r in ((t["leader"] + k) % 4 for k in range(4)) if r in t["cards"]]
        if t["signal"]:
            cards[0] += " " + SIGNAL_NAMES[t["signal"]]
        return ", ".join(cards)

    for i, t in enumerate(d["tricks"], 1):
        lines.append(f"trick {i}: {trick(t)} -> {seat(t['winner'])}")
    if d["current_trick"]:
        lines.append(f"table: {trick(d['current_trick'])}")
    if d["contract"] is not None:
        lines.append("thirds: " + ", ".join(f"{seat(r)} {x}" for r, x in enumerate(d["thirds_won"]))
                     + ("" if d["side_thirds"] is None else
                        f"; declarer's side {d['side_thirds'][0]}, others {d['side_thirds'][1]}"))
    return "\n".join(lines)
