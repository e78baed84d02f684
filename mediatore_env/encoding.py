"""Observation vectors: what one seat knows, as a flat float32 vector, and its legal-move mask.

The encoder reads a :class:`~mediatore_env.view.SeatView` and nothing else, so it can only
write what that seat knows (RULES.md section 5 and the monte switches of section 8)::

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

Layout, version 1 (``OBSERVATION_VERSION``; ``LAYOUT`` holds the same table, ``OFFSETS`` and
``SIZES`` the numbers; :func:`layout_table` prints it):

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
316     40      played           every card played to a trick so far
356     4       thirds_won       thirds of a point taken by each relative seat / 35
                                 (the monte and the last trick included once the deal is over)
360     4       tricks_won       tricks taken by each relative seat / 9
364     2       side_thirds      (declarer's side, other side) thirds / 35, when the observer
                                 knows the sides (partnership block), else 0
366     173     current_trick    the trick on the table: leader (4), the card of each
                                 relative seat (4 x 40), the lead's signal (9, signal ids)
539     1593    tricks           9 slots of 177, one per trick in order, the trick in progress
                                 included: leader (4), card of each relative seat (4 x 40),
                                 signal (9), winner (4; once the trick is complete)
======  ======  ===============  ==========================================================

Size 2132. Relative seat ``r`` of a 4-wide block is the seat ``(observer + r) % 4``.

Speed: :class:`Encoder` keeps one preallocated buffer per seat and writes only what changed
since it last looked (new bids, new cards, a finished trick), so observing costs O(new
events). :func:`observation` builds from scratch; both give the same vector (a test checks it
at every step of random games).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from .cards import CARD_NAMES, NUM_CARDS, POINTS, TOTAL_THIRDS, cards_of
from .game import (AUCTION, DISCARD, END, NUM_MOVES, NUM_TRICKS, PHASE_NAMES, PLAY)
from .rules import CHIAMO, CONTRACT_NAMES, CONTRACTS, MEDIATORE, NUM_SIGNALS, SIGNAL_NAMES, SWITCHES, Rules

OBSERVATION_VERSION = 1

_RULES_LEN = sum(len(values) for values in SWITCHES.values())
CURRENT_TRICK_LEN = 4 + 4 * NUM_CARDS + NUM_SIGNALS          # 173
TRICK_LEN = CURRENT_TRICK_LEN + 4                             # 177
# Offsets inside a trick slot (and the current-trick block, which has no winner).
T_LEADER, T_CARDS, T_SIGNAL, T_WINNER = 0, 4, 4 + 4 * NUM_CARDS, 4 + 4 * NUM_CARDS + NUM_SIGNALS

LAYOUT: tuple[tuple[str, int, str], ...] = (
    ("rules", _RULES_LEN, "the table's rules switches, one-hot per switch, in the order of "
     "rules.SWITCHES and of each switch's values"),
    ("dealer", 4, "the dealer's relative seat"),
    ("phase", len(PHASE_NAMES), "one-hot: " + ", ".join(PHASE_NAMES)),
    ("to_move", 4, "relative seat to act (all 0 once the deal is over)"),
    ("hand", NUM_CARDS, "the observer's cards now"),
    ("auction", 4 * len(CONTRACTS), "4 * (contract - 1) + relative seat is 1 when that seat bid "
     "that contract; with the dealer and the fixed turn order this is the whole auction"),
    ("contract", len(CONTRACTS), "one-hot contract once the auction is won: "
     + ", ".join(CONTRACT_NAMES[c] for c in CONTRACTS)),
    ("declarer", 4, "the declarer's relative seat"),
    ("called_card", NUM_CARDS, "the card called in Chiamo or Mediatore"),
    ("giver", 4, "Mediatore: relative seat that gave the called card openly"),
    ("partnership", 6, "[declarer plays alone (known), declarer has a partner (known), "
     "the partner's relative seat (4) when known]"),
    ("monte_seen", NUM_CARDS, "the original monte, if the observer has seen it"),
    ("discards", NUM_CARDS, "the declarer's discards: to the declarer at once, to all at the end"),
    ("given_back", NUM_CARDS, "Mediatore: the card passed back (declarer and giver only)"),
    ("final_monte", NUM_CARDS, "the monte turned over after the last trick"),
    ("played", NUM_CARDS, "every card played to a trick so far"),
    ("thirds_won", 4, f"thirds taken by each relative seat / {TOTAL_THIRDS} (monte and last "
     "trick included once the deal is over)"),
    ("tricks_won", 4, f"tricks taken by each relative seat / {NUM_TRICKS}"),
    ("side_thirds", 2, f"(declarer's side, other side) thirds / {TOTAL_THIRDS} when the observer "
     "knows the sides, else 0"),
    ("current_trick", CURRENT_TRICK_LEN, "the trick on the table: leader (4), card of each "
     f"relative seat (4 x 40), the lead's signal ({NUM_SIGNALS}, signal ids)"),
    ("tricks", NUM_TRICKS * TRICK_LEN, f"{NUM_TRICKS} slots of {TRICK_LEN}, one per trick in "
     "order, the trick in progress included: leader (4), card of each relative seat (4 x 40), "
     f"signal ({NUM_SIGNALS}), winner (4)"),
)

OFFSETS: dict[str, int] = {}
SIZES: dict[str, int] = {}
_offset = 0
for _name, _length, _ in LAYOUT:
    OFFSETS[_name], SIZES[_name] = _offset, _length
    _offset += _length
OBSERVATION_SIZE = _offset  # 2132
del _offset, _name, _length

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
_PLAYED = OFFSETS["played"]
_THIRDS = OFFSETS["thirds_won"]
_TRICKS_WON = OFFSETS["tricks_won"]
_SIDES = OFFSETS["side_thirds"]
_CURRENT = OFFSETS["current_trick"]
_TRICKS = OFFSETS["tricks"]

_CARD_AT = tuple(T_CARDS + 40 * r for r in range(4))  # a relative seat's card block in a trick
_SLOTS = tuple(_TRICKS + t * TRICK_LEN for t in range(NUM_TRICKS))
_THIRD = 1.0 / TOTAL_THIRDS
_TRICK = 1.0 / NUM_TRICKS


def layout_table() -> str:
    """The observation layout as a Markdown table (offset, length, block, meaning)."""
    rows = ["| offset | length | block | meaning |", "|---:|---:|---|---|"]
    rows += [f"| {OFFSETS[name]} | {length} | `{name}` | {meaning} |" for name, length, meaning in LAYOUT]
    return "\n".join(rows)


@lru_cache(maxsize=64)
def rules_vector(rules: Rules) -> np.ndarray:
    """The ``rules`` block: one-hot per switch. Read-only."""
    out = np.zeros(_RULES_LEN, np.float32)
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


def _write_diff(mv, base: int, old: int, new: int) -> None:
    """Rewrite the bits of a 40-card block that differ between ``old`` and ``new``."""
    _write_bits(mv, base, old & ~new, 0.0)
    _write_bits(mv, base, new & ~old, 1.0)


class Encoder:
    """The observation of one seat, kept up to date incrementally in a preallocated buffer.

    ``encode(view)`` returns the internal buffer: read it, copy it to keep it. A new view (a new
    deal, or another seat) starts the buffer afresh; the same view again writes only what
    happened since the last call.
    """

    __slots__ = ("array", "_mv", "_view", "_seat", "_moves", "_phase", "_to_move", "_hand",
                 "_auction", "_auction_open", "_contract", "_declarer", "_called", "_giver", "_alone", "_partner", "_monte",
                 "_discards", "_given", "_final", "_cards", "_played", "_revealed", "_tricks", "_current", "_thirds",
                 "_won", "_sides")

    def __init__(self):
        self.array = np.zeros(OBSERVATION_SIZE, np.float32)
        self._mv = memoryview(self.array)
        self._view = None

    def encode(self, view) -> np.ndarray:
        if view is not self._view:
            self._start(view)
        moves = view.move_count
        if moves == self._moves:
            return self.array
        self._moves = moves
        phase = view.phase
        if phase != self._phase:
            self._update_all(view)
        elif phase == PLAY:
            # The hot path: between two looks in the play, only cards were played.
            mv, me = self._mv, self._seat
            to_move = view.to_move
            if to_move != self._to_move:
                mv[_TO_MOVE + ((self._to_move - me) & 3)] = 0.0
                mv[_TO_MOVE + ((to_move - me) & 3)] = 1.0
                self._to_move = to_move
            hand = view.hand
            gone = self._hand & ~hand  # in the play a hand only loses cards
            if gone:
                self._hand = hand
                while gone:
                    low = gone & -gone
                    mv[_HAND + low.bit_length() - 1] = 0.0
                    gone ^= low
            self._update_cards(view)
            # The partnership changes only when the called card is played.
            if not self._revealed and self._called is not None and self._played >> self._called & 1:
                self._revealed = True
                self._update_partnership(view)
        elif phase == AUCTION:
            self._update_to_move(view)
            self._update_auction(view)
        elif phase == DISCARD:
            if self._seat == self._declarer:
                self._update_hand(view)
                self._update_discards(view)
        else:  # pragma: no cover - the call and the give are single moves, the end has none
            self._update_all(view)
        return self.array

    # -- from scratch -------------------------------------------------------------------------

    def _start(self, view) -> None:
        self._view = view
        self._seat = me = view.seat
        self.array.fill(0.0)
        mv = self._mv
        mv[_RULES:_RULES + _RULES_LEN] = _rules_block(view.rules)
        mv[_DEALER + ((view.dealer - me) & 3)] = 1.0
        self._moves = -1
        self._phase = -1
        self._to_move = None
        self._hand = 0
        self._auction = 0
        self._auction_open = True
        self._contract = None
        self._declarer = None
        self._called = None
        self._giver = None
        self._alone = None
        self._partner = None
        self._monte = 0
        self._discards = 0
        self._given = None
        self._final = 0
        self._cards = 0
        self._played = 0
        self._revealed = False
        self._tricks = 0
        self._current: list[int] = []
        self._thirds = [0, 0, 0, 0]
        self._won = [0, 0, 0, 0]
        self._sides = None

    def _update_all(self, view) -> None:
        """Everything that may have changed since the last look, the phase having changed."""
        mv, me = self._mv, self._seat
        phase = view.phase
        if self._phase >= 0:
            mv[_PHASE + self._phase] = 0.0
        mv[_PHASE + phase] = 1.0
        self._phase = phase
        self._update_to_move(view)
        self._update_hand(view)
        if self._auction_open:
            self._update_auction(view)
            self._auction_open = phase == AUCTION
        if self._contract is None:
            if phase == AUCTION or view.contract is None:
                return  # the auction is on, or the deal was thrown in: nothing else to know
            self._contract, self._declarer = view.contract, view.declarer
            mv[_CONTRACT + self._contract - 1] = 1.0
            mv[_DECLARER + ((self._declarer - me) & 3)] = 1.0
        contract, declarer = self._contract, self._declarer
        if self._called is None and (contract == CHIAMO or contract == MEDIATORE):
            called = view.called_card
            if called is not None:
                self._called = called
                mv[_CALLED + called] = 1.0
                giver = view.giver
                if giver is not None:
                    self._giver = giver
                    mv[_GIVER + ((giver - me) & 3)] = 1.0
        if not self._monte:
            self._monte = view.monte_seen
            _write_bits(mv, _MONTE, self._monte, 1.0)
        if me == declarer or phase == END:
            self._update_discards(view)
        if self._given is None and self._giver is not None and (me == declarer or me == self._giver):
            given = view.given_back
            if given is not None:
                self._given = given
                mv[_GIVEN + given] = 1.0
        if phase == END:
            self._final = view.final_monte
            _write_bits(mv, _FINAL, self._final, 1.0)
        if phase >= PLAY:
            self._update_cards(view)
        if self._alone is not True and self._partner is None:
            self._update_partnership(view)
        if phase == END:
            self._update_scores(view)  # the monte and the last trick are counted at the end

    # -- pieces -------------------------------------------------------------------------------

    def _update_to_move(self, view) -> None:
        to_move = view.to_move
        if to_move != self._to_move:
            mv, me = self._mv, self._seat
            if self._to_move is not None:
                mv[_TO_MOVE + (self._to_move - me) % 4] = 0.0
            if to_move is not None:
                mv[_TO_MOVE + (to_move - me) % 4] = 1.0
            self._to_move = to_move

    def _update_hand(self, view) -> None:
        hand = view.hand
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

    def _update_cards(self, view) -> None:
        """Write the cards played since the last look: trick slots, the table, the scores."""
        played = view.played
        n = played.bit_count()
        k = self._cards
        if n == k:
            return
        self._played = played
        self._cards = n
        mv, me = self._mv, self._seat
        card_at = _CARD_AT
        current = self._current
        tricks = view.tricks
        done = len(tricks)
        if self._tricks < done:
            # Tricks completed since the last look: their remaining cards, winners, scores.
            for i in current:  # the trick on the table was one of them
                mv[i] = 0.0
            current.clear()
            thirds, won = self._thirds, self._won
            for t in range(self._tricks, done):
                tr = tricks[t]
                base, cards, rel = _SLOTS[t], tr.cards, (tr.leader - me) & 3
                pos = k - 4 * t
                if pos <= 0:
                    pos = 0
                    mv[base + T_LEADER + rel] = mv[base + T_SIGNAL + tr.signal] = 1.0
                while pos < 4:
                    card = cards[pos]
                    mv[base + card_at[(rel + pos) & 3] + card] = mv[_PLAYED + card] = 1.0
                    pos += 1
                w = tr.winner
                r = (w - me) & 3
                mv[base + T_WINNER + r] = 1.0
                thirds[w] += POINTS[cards[0]] + POINTS[cards[1]] + POINTS[cards[2]] + POINTS[cards[3]]
                won[w] += 1
                mv[_THIRDS + r] = thirds[w] * _THIRD
                mv[_TRICKS_WON + r] = won[w] * _TRICK
            self._tricks = done
            k = 4 * done
            if self._alone is True or self._partner is not None:
                self._update_sides()
        if n > k:
            # The trick in progress: into its slot and onto the table.
            trick = view.trick
            base, rel = _SLOTS[done], (view.leader - me) & 3
            pos = k - 4 * done
            if pos == 0:
                i, j = T_LEADER + rel, T_SIGNAL + view.trick_signal
                mv[base + i] = mv[base + j] = mv[_CURRENT + i] = mv[_CURRENT + j] = 1.0
                current += (_CURRENT + i, _CURRENT + j)
            for pos in range(pos, len(trick)):
                card = trick[pos]
                i = card_at[(rel + pos) & 3] + card
                mv[base + i] = mv[_CURRENT + i] = mv[_PLAYED + card] = 1.0
                current.append(_CURRENT + i)

    def _update_partnership(self, view) -> None:
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
        self._update_sides()

    def _update_scores(self, view) -> None:
        """Rewrite the scores from the view (at the end they include the monte and last trick)."""
        mv, me = self._mv, self._seat
        thirds, won = list(view.thirds_won), list(view.tricks_won)
        if thirds != self._thirds or won != self._won:
            for r in range(4):
                mv[_THIRDS + r] = thirds[(me + r) & 3] * _THIRD
                mv[_TRICKS_WON + r] = won[(me + r) & 3] * _TRICK
            self._thirds, self._won = thirds, won
        self._update_sides()

    def _update_sides(self) -> None:
        if self._alone is True or self._partner is not None:
            thirds = self._thirds
            ours = thirds[self._view.declarer] + (thirds[self._partner] if self._partner is not None else 0)
            sides = (ours, sum(thirds) - ours)
        else:
            sides = (0, 0)
        if sides != self._sides:
            self._mv[_SIDES] = sides[0] * _THIRD
            self._mv[_SIDES + 1] = sides[1] * _THIRD
            self._sides = sides


def action_mask(view) -> np.ndarray:
    """The legal-move mask of ``view``'s seat: int8 of length ``NUM_MOVES``, all 0 when it is
    not that seat's turn."""
    buf = bytearray(NUM_MOVES)
    for move in view.legal_moves():
        buf[move] = 1
    return np.frombuffer(buf, np.int8)


def observation(view) -> dict:
    """``{"observation": float32[OBSERVATION_SIZE], "action_mask": int8[NUM_MOVES]}`` of a
    seat view, built from scratch into fresh arrays (the caller may keep or modify them).

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
    tricks = []
    for t in range(NUM_TRICKS):
        slot = v[_TRICKS + t * TRICK_LEN:_TRICKS + (t + 1) * TRICK_LEN]
        leader = _one(slot[T_LEADER:T_LEADER + 4])
        if leader is None:
            break
        cards = {r: _one(slot[T_CARDS + 40 * r:T_CARDS + 40 * (r + 1)]) for r in range(4)}
        tricks.append({"leader": leader, "signal": _one(slot[T_SIGNAL:T_SIGNAL + NUM_SIGNALS]),
                       "cards": {r: c for r, c in cards.items() if c is not None},
                       "winner": _one(slot[T_WINNER:T_WINNER + 4])})
    cur = block("current_trick")
    current = None
    if _one(cur[T_LEADER:T_LEADER + 4]) is not None:
        cards = {r: _one(cur[T_CARDS + 40 * r:T_CARDS + 40 * (r + 1)]) for r in range(4)}
        current = {"leader": _one(cur[T_LEADER:T_LEADER + 4]),
                   "signal": _one(cur[T_SIGNAL:T_SIGNAL + NUM_SIGNALS]),
                   "cards": {r: c for r, c in cards.items() if c is not None}}
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
        "thirds_won": [round(float(x) * TOTAL_THIRDS) for x in block("thirds_won")],
        "tricks_won": [round(float(x) * NUM_TRICKS) for x in block("tricks_won")],
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
    for i, t in enumerate(d["tricks"], 1):
        cards = [f"{seat(r)} {CARD_NAMES[t['cards'][r]]}"
                 for r in ((t["leader"] + k) % 4 for k in range(4)) if r in t["cards"]]
        if t["signal"]:
            cards[0] += " " + SIGNAL_NAMES[t["signal"]]
        won = f" -> {seat(t['winner'])}" if t["winner"] is not None else ""
        lines.append(f"trick {i}: {', '.join(cards)}{won}")
    if d["contract"] is not None:
        lines.append("thirds: " + ", ".join(f"{seat(r)} {x}" for r, x in enumerate(d["thirds_won"]))
                     + ("" if d["side_thirds"] is None else
                        f"; declarer's side {d['side_thirds'][0]}, others {d['side_thirds'][1]}"))
    return "\n".join(lines)
