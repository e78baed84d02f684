"""Contract value tables: what every seat would make of every contract, double dummy.

For one deal (rules, dealer, pack) the table holds, for each seat as declarer and each
contract -- and in Chiamo and Mediatore for each card worth calling -- the thirds the
declarer's side takes when all four seats play perfectly with every card in view, after the
exchange of the table policy below. From the thirds follow whether the contract is made
(18 thirds, 6 points, or more) and by how many points, and the payments of docs/rules.md 7::

    >>> from mediatore_env.mediatore.rules import SOLO
    >>> table = build_table(1, seed=3)
    >>> entry = table.entry(0, seat=1, contract=SOLO)
    >>> entry.thirds, entry.made, entry.payoffs == payments(table.rules, SOLO, 1, None, None,
    ...                                                     entry.made, False)
    (..., ..., True)

**How an entry is computed.** Seat ``s`` bids contract ``c`` and everyone else passes (the
auction itself changes nothing at the table); in Chiamo and Mediatore ``s`` calls the card;
the declarer exchanges by the *table policy*; then the whole play is solved double dummy from
the first lead (il mano, or the declarer under the ``first_lead`` switch), with the monte's
thirds going to the last trick's winner. Capotto is not looked for: the payments assume none.

**Cards worth calling** (``calls="top"``, the default): in each suit the highest card the
rules let the declarer call and it does not hold -- at most four cards, the ones a player
calls in practice (a lower card of the same suit finds a partner, or brings a card, that is
no better). ``calls="all"``: every callable card it does not hold. When every callable card
is in its own hand, its highest callable card (it then plays alone).

**The table policy** (:func:`table_exchange`): the idea of the greedy agent's
``ExchangePolicy``, frozen here so that tables do not change when agents are retuned. The
declarer discards the 4 cards (in Mediatore also chooses the 1 card passed back to the giver)
whose removal leaves the 9-card hand with the highest strength, a sum over suits of a score
of the cards held in the suit (:func:`suit_score`: thirds a suit brings to a declarer playing
alone: its top cards, guarded aces and twos, length, voids), plus half a third for each third
put in the monte and minus one for each third passed to the giver. The best removal is found
exactly, suit by suit, by dynamic programming over the number of cards removed (the search
of :func:`.exchange.best_removal`, which the greedy agent's exchange shares).

**Files.** :meth:`ContractTable.save` writes a compressed ``.npz``: the packs (40 bytes a
deal), the dealers, the call cards and the thirds (int8, -1 where nothing was computed), and
the rules, the seed and the call mode as JSON -- about 340 bytes a deal (80 with ``values="made"``). Deal ``i`` of a
table built with ``seed`` is the pack ``numpy.random.default_rng([seed, i]).permutation(40)``
dealt by seat ``i % 4``: the deals of the duplicate tournament (agents/tournament.py) with
the same seed. Build with the command line::

    mediatore-tables build --deals 1000 --seed 0 --jobs 2 --out tables.npz
    mediatore-tables show tables.npz --deal 3

(about 5 s of CPU a deal under the standard rules, 0.7 s with ``--values made``; ``--jobs``
processes share them, with a progress bar). :mod:`mediatore_env.mediatore.mediatore_bidding_v0` plays
auctions against a table.

**Bias.** Double dummy the declarer and the defenders know where every card is, the called
partner included: the values are those of perfect information, not of play at the table,
where defenders do better than their knowledge allows them in some deals and worse in others.
"""

from __future__ import annotations

import contextlib
import json
import zipfile
from dataclasses import dataclass
from typing import Callable, NamedTuple, Sequence

import numpy as np

from ..analysis.solver import Position, reaches, solve
from ..core.cards import (CARD_NAMES, NUM_CARDS, POINTS, cards_of, format_cards, make_card,
                          thirds_of, to_mask)
from ..runinfo import counting, process_pool, worker_count
from .exchange import best_removal, exchange_move
from .game import Deal
from .moves import DISCARD, GIVE, PASS, PLAY, call_move
from .nine_tricks import WIN_THIRDS, deal_hands
from .rules import (ARCISOLISSIMO, CHIAMO, CONTRACT_NAMES, CONTRACTS, MEDIATORE, Rules,
                    payments)

__all__ = ["ContractTable", "Entry", "build_table", "call_candidates", "contract_deal",
           "contract_position", "deal_of", "suit_score", "table_exchange"]

FORMAT = "mediatore-tables"
VERSION = 1
CALL_CONTRACTS = (CHIAMO, MEDIATORE)
_NUM_SLOTS = ARCISOLISSIMO + 1  # contract ids index the thirds array; slot 0 is unused


def deal_of(seed: int, index: int) -> tuple[int, list[int]]:
    """(dealer, pack) of deal ``index`` of a table built with ``seed`` (as the tournament)."""
    return index % 4, np.random.default_rng([seed, index]).permutation(NUM_CARDS).tolist()


# -- the table policy ---------------------------------------------------------------------------

def suit_score(pattern: int) -> float:
    """Thirds the cards held in one suit bring to a declarer playing alone, roughly.

    ``pattern``: bit ``power`` set for each card held (power 9 = the 3, 8 = the 2, 7 = the
    Asso; cards.py). Top cards held without a gap from the 3 down are sure tricks: their
    points and about one third more each. Below a gap: an Asso is worth 1.5 thirds with two
    cards beside it, else 0.5; a 2 or 3 0.6 with a guard, else 0.2; courts 0.2 each. Each
    card beyond three adds 0.6 (the long suit takes the late tricks); a void adds 0.5 (and
    lets losers go)."""
    n = pattern.bit_count()
    if n == 0:
        return 0.5
    value = 0.0
    p = 9
    while p >= 0 and pattern >> p & 1:  # the run of masters
        value += POINTS[p] + 1.0
        p -= 1
    for q in range(p - 1, -1, -1):
        if not pattern >> q & 1:
            continue
        if q == 7:
            value += 1.5 if n >= 3 else 0.5
        elif q >= 8:
            value += 0.6 if n >= 2 else 0.2
        elif q >= 4:
            value += 0.2
    return value + 0.6 * max(0, n - 3)


_SUIT_SCORE = tuple(suit_score(p) for p in range(1024))
DISCARD_THIRD = 0.5   # per third put in the monte (it goes to the last trick's winner)
GIVE_THIRD = -1.0     # per third passed back to the opponent who gave the called card


def plan_exchange(hand: int, removals: int, give: bool) -> tuple[int, int | None]:
    """(the cards to remove from ``hand`` as a bitset, the one of them passed back or None):
    the removal leaving the strongest hand by :func:`suit_score` (see the module docstring)."""
    def suit_value(suit: int, kept: int, removed: int) -> float:
        return _SUIT_SCORE[kept] + DISCARD_THIRD * thirds_of(removed)

    def give_choice(removed: int) -> tuple[int, float]:
        # pass back the removed card with the fewest points (the lowest if tied)
        g = min(cards_of(removed), key=lambda c: (POINTS[c], c))
        return g, (GIVE_THIRD - DISCARD_THIRD) * POINTS[g]
    return best_removal(hand, removals, give, suit_value, give_choice, tolerance=1e-12)


def table_exchange(view) -> int:
    """The table policy's move for the declarer in the discard or give phase (see the module
    docstring): a discard (``discard`` move id) or the card passed back (``give``)."""
    return exchange_move(view, plan_exchange)


# -- one entry ------------------------------------------------------------------------------------

def call_candidates(rules: Rules, hand: int, calls: str = "top") -> list[int]:
    """The cards worth calling for a declarer holding ``hand`` (see the module docstring)."""
    powers = rules.callable_powers()
    out = []
    for suit in range(4):
        missing = [make_card(suit, p) for p in sorted(powers, reverse=True)
                   if not hand >> make_card(suit, p) & 1]
        out.extend(missing[:1] if calls == "top" else missing)
    if not out:
        out = [max(make_card(suit, p) for suit in range(4) for p in powers)]
    return out


def forced_deal(rules: Rules, pack: Sequence[int], dealer: int, declarer: int, contract: int) -> Deal:
    """A deal whose auction made ``declarer`` the declarer of ``contract`` (all others pass)."""
    deal = Deal(rules, dealer, pack)
    while deal.to_move != declarer:
        deal.apply(PASS)
    deal.apply(contract)
    for _ in range(3):
        deal.apply(PASS)
    return deal


def contract_deal(rules: Rules, dealer: int, pack: Sequence[int], declarer: int, contract: int,
                  called: int | None = None, exchange: Callable = table_exchange) -> Deal:
    """The deal at its first lead after ``declarer`` wins the auction with ``contract`` (the
    others passing), calls ``called`` (Chiamo, Mediatore) and exchanges by ``exchange``
    (a function of the declarer's view returning a move)."""
    deal = forced_deal(rules, pack, dealer, declarer, contract)
    if contract in CALL_CONTRACTS:
        if called is None:
            raise ValueError(f"{CONTRACT_NAMES[contract]} needs a called card")
        deal.apply(call_move(called))
    view = deal.view(declarer)
    while deal.phase in (DISCARD, GIVE):
        deal.apply(exchange(view))
    assert deal.phase == PLAY
    return deal


def contract_position(deal: Deal) -> Position:
    """The solver's position of a deal in its play phase (the whole truth)."""
    side = 0
    for s in deal.declarer_side:
        side |= 1 << s
    return Position(tuple(deal.hands), deal.leader, tuple(deal.trick), side,
                    deal.side_thirds()[0], thirds_of(deal.monte))


class Entry(NamedTuple):
    """One line of a table: a seat's contract (and call), its double-dummy thirds and pay."""
    seat: int
    contract: int
    called: int | None
    thirds: int | None
    made: bool
    partner: int | None
    giver: int | None
    payoffs: tuple[int, int, int, int]

    def __str__(self):
        call = f" {CARD_NAMES[self.called]}" if self.called is not None else ""
        who = (f" partner {self.partner}" if self.partner is not None
               else " alone" if self.contract == CHIAMO else "")
        who += f" giver {self.giver}" if self.giver is not None else ""
        value = f"{self.thirds} thirds ({self.thirds // 3} points) " if self.thirds is not None else ""
        return (f"seat {self.seat} {CONTRACT_NAMES[self.contract]}{call}{who}: {value}"
                f"{'made' if self.made else 'lost'}, "
                f"pays {' '.join(f'{p:+d}' for p in self.payoffs)}")


def solve_deal(rules: Rules, dealer: int, pack: Sequence[int], calls: str = "top",
               values: str = "thirds", exchange: Callable = table_exchange,
               width: int | None = None):
    """The arrays of one deal: call cards ``[4, 2, width]``, made ``[4, 6, width]`` and
    thirds ``[4, 6, width]`` (by seat, contract id, call; -1 where nothing was computed;
    with ``values="made"`` only whether the contract is made, ten times faster)."""
    hands, _ = deal_hands(pack, dealer)
    cands = [[call_candidates(rules, hands[s], calls) for _ in CALL_CONTRACTS] for s in range(4)]
    if width is None:
        width = max(len(c) for per_seat in cands for c in per_seat)
    call_cards = np.full((4, 2, width), -1, np.int8)
    thirds = np.full((4, _NUM_SLOTS, width), -1, np.int8)
    made = np.full((4, _NUM_SLOTS, width), -1, np.int8)
    for seat in range(4):
        for contract in CONTRACTS:
            if contract > rules.top_contract:
                continue
            if contract in CALL_CONTRACTS:
                k = CALL_CONTRACTS.index(contract)
                called_list = cands[seat][k]
                call_cards[seat, k, :len(called_list)] = called_list
            else:
                called_list = [None]
            for j, called in enumerate(called_list):
                pos = contract_position(contract_deal(rules, dealer, pack, seat, contract, called,
                                                      exchange))
                if values == "thirds":
                    thirds[seat, contract, j] = t = solve(pos)
                    made[seat, contract, j] = t >= WIN_THIRDS
                else:
                    made[seat, contract, j] = reaches(pos, WIN_THIRDS)
    return call_cards, made, thirds


# -- tables of many deals -----------------------------------------------------------------------

@dataclass
class ContractTable:
    """Double-dummy contract values of many deals (see the module docstring).

    ``packs[i]``: the pack of deal ``i`` (40 card ids), ``dealers[i]`` its dealer;
    ``calls[i, seat, k, j]``: the ``j``-th card worth calling in Chiamo (``k = 0``) or
    Mediatore (``k = 1``), -1 past the last; ``made[i, seat, contract, j]``: 1 if the
    declarer's side makes contract id ``contract`` (with call ``j``), 0 if not;
    ``thirds[i, seat, contract, j]``: its thirds. -1 where nothing was computed (``thirds``
    everywhere when the table was built with ``values="made"``).
    """

    rules: Rules
    packs: np.ndarray
    dealers: np.ndarray
    calls: np.ndarray
    made: np.ndarray
    thirds: np.ndarray
    seed: int | None = None
    call_mode: str = "top"
    values: str = "thirds"
    exchange: str = "table"

    def __len__(self) -> int:
        return len(self.packs)

    def deal(self, i: int) -> Deal:
        """A fresh :class:`Deal` of table deal ``i`` (before the auction)."""
        return Deal(self.rules, int(self.dealers[i]), self.packs[i].tolist())

    def call_cards(self, i: int, seat: int, contract: int) -> list[int]:
        """The cards tabled as worth calling for ``seat`` in ``contract`` (Chiamo, Mediatore)."""
        row = self.calls[i, seat, CALL_CONTRACTS.index(contract)]
        return [int(c) for c in row if c >= 0]

    def entry(self, i: int, seat: int, contract: int, called: int | None = None) -> Entry:
        """The line of deal ``i`` for ``seat`` declaring ``contract`` (calling ``called``;
        Chiamo and Mediatore default to the first card worth calling)."""
        j = 0
        if contract in CALL_CONTRACTS:
            cards = self.call_cards(i, seat, contract)
            if called is None:
                called = cards[0]
            if called not in cards:
                raise ValueError(f"{CARD_NAMES[called]} is not tabled for seat {seat} in "
                                 f"{CONTRACT_NAMES[contract]}; tabled: {format_cards(to_mask(cards))}")
            j = cards.index(called)
        elif called is not None:
            raise ValueError(f"{CONTRACT_NAMES[contract]} has no call")
        made = int(self.made[i, seat, contract, j])
        thirds = int(self.thirds[i, seat, contract, j])
        if made < 0:
            raise ValueError(f"no value for seat {seat} in {CONTRACT_NAMES[contract]} in deal {i}")
        partner = giver = None
        if called is not None:
            hands, _ = deal_hands(self.packs[i].tolist(), int(self.dealers[i]))
            holder = next((s for s in range(4) if hands[s] >> called & 1), None)
            if holder is not None and holder != seat:
                if contract == CHIAMO:
                    partner = holder
                else:
                    giver = holder
        made = bool(made)
        pay = payments(self.rules, contract, seat, partner, giver, made, False)
        return Entry(seat, contract, called, thirds if thirds >= 0 else None, made, partner,
                     giver, pay)

    def entries(self, i: int) -> list[Entry]:
        """Every line of deal ``i``: by seat, contract and call."""
        out = []
        for seat in range(4):
            for contract in CONTRACTS:
                if contract > self.rules.top_contract:
                    continue
                if contract in CALL_CONTRACTS:
                    out.extend(self.entry(i, seat, contract, c)
                               for c in self.call_cards(i, seat, contract))
                else:
                    out.append(self.entry(i, seat, contract))
        return out

    def payoffs(self, i: int, seat: int, contract: int, called: int | None = None):
        return self.entry(i, seat, contract, called).payoffs

    def text(self, i: int) -> str:
        """Deal ``i`` and its table, for people."""
        hands, monte = deal_hands(self.packs[i].tolist(), int(self.dealers[i]))
        lines = [f"deal {i}: dealer {int(self.dealers[i])}, monte {format_cards(monte)}"]
        lines += [f"  seat {s}: {format_cards(hands[s])}" for s in range(4)]
        lines += ["  " + str(e) for e in self.entries(i)]
        return "\n".join(lines)

    # -- files -------------------------------------------------------------------------------

    def save(self, path) -> None:
        meta = {"format": FORMAT, "version": VERSION, "rules": self.rules.to_dict(),
                "seed": self.seed, "calls": self.call_mode, "values": self.values,
                "exchange": self.exchange}
        np.savez_compressed(path, packs=self.packs.astype(np.int8),
                            dealers=self.dealers.astype(np.int8), calls=self.calls,
                            made=self.made, thirds=self.thirds, meta=np.array(json.dumps(meta)))

    @classmethod
    def load(cls, path) -> "ContractTable":
        """The table saved at ``path``. ``OSError`` where it cannot be read, ``ValueError``
        naming ``path`` for anything that is no table of this format (an empty file, another
        .npz, a table of another version or missing an array)."""
        try:
            data = np.load(path, allow_pickle=False)
        except (EOFError, ValueError, zipfile.BadZipFile):  # empty, text, a pickle
            raise ValueError(f"{path}: not a table written by mediatore-tables build (not an "
                             ".npz file)") from None
        if not isinstance(data, np.lib.npyio.NpzFile):  # one .npy array
            raise ValueError(f"{path}: not a Mediatore contract table (one array, not an .npz)")
        with data:
            missing = [k for k in ("meta", "packs", "dealers", "calls", "made", "thirds")
                       if k not in data.files]
            if missing:
                raise ValueError(f"{path}: not a Mediatore contract table (no "
                                 f"{', '.join(missing)} in it)")
            meta = json.loads(str(data["meta"]))
            if meta.get("format") != FORMAT or meta.get("version") != VERSION:
                raise ValueError(f"{path}: not a {FORMAT} file of version {VERSION}: "
                                 f"{meta.get('format')!r} {meta.get('version')!r}")
            return cls(Rules.from_dict(meta["rules"]), data["packs"].astype(np.int64),
                       data["dealers"].astype(np.int64), data["calls"], data["made"],
                       data["thirds"], meta.get("seed"), meta.get("calls", "top"),
                       meta.get("values", "thirds"), meta.get("exchange", "table"))

    @classmethod
    def concatenate(cls, tables: Sequence["ContractTable"]) -> "ContractTable":
        first = tables[0]
        width = max(t.thirds.shape[-1] for t in tables)

        def pad(a):
            extra = width - a.shape[-1]
            return a if not extra else np.concatenate(
                [a, np.full(a.shape[:-1] + (extra,), -1, a.dtype)], axis=-1)
        return cls(first.rules, np.concatenate([t.packs for t in tables]),
                   np.concatenate([t.dealers for t in tables]),
                   np.concatenate([pad(t.calls) for t in tables]),
                   np.concatenate([pad(t.made) for t in tables]),
                   np.concatenate([pad(t.thirds) for t in tables]), first.seed,
                   first.call_mode, first.values, first.exchange)


def _width(rules: Rules, calls: str) -> int:
    return 4 if calls == "top" else 4 * len(rules.callable_powers())


def _build_range(args) -> tuple[np.ndarray, np.ndarray]:
    rules, seed, start, stop, calls, values = args
    width = _width(rules, calls)
    out = []
    for i in range(start, stop):
        dealer, pack = deal_of(seed, i)
        out.append(solve_deal(rules, dealer, pack, calls, values, width=width))
    return tuple(np.stack(a) for a in zip(*out))


def build_table(deals: int, seed: int = 0, rules: Rules | None = None, calls: str = "top",
                values: str = "thirds", jobs: int = 1,
                progress: Callable[[int], None] | bool | None = None,
                start: int = 0) -> ContractTable:
    """The table of deals ``start .. start + deals - 1`` of ``seed`` (see the module
    docstring), computed by ``jobs`` processes (no more than the deals or the cores);
    ``progress``: True shows a progress bar on stderr, or ``progress(n)`` is called as deals
    finish. ``values="made"``: whether each contract is made, not its thirds (ten times
    faster)."""
    rules = Rules() if rules is None else rules
    if calls not in ("top", "all"):
        raise ValueError(f"calls must be 'top' or 'all', got {calls!r}")
    if values not in ("thirds", "made"):
        raise ValueError(f"values must be 'thirds' or 'made', got {values!r}")
    if not isinstance(deals, int) or deals < 1:
        raise ValueError(f"deals must be a positive integer, got {deals!r}")
    jobs = worker_count(jobs, deals)
    chunk = max(1, min(10, deals // (4 * jobs) or 1))
    tasks = [(rules, seed, i, min(i + chunk, start + deals), calls, values)
             for i in range(start, start + deals, chunk)]
    parts = []
    with counting(progress, deals, "deals") as tick, contextlib.ExitStack() as stack:
        if jobs == 1:
            done = map(_build_range, tasks)
        else:  # processes started fresh, ended with the build however it ends (runinfo)
            done = stack.enter_context(process_pool(jobs)).imap(_build_range, tasks)
        for task, part in zip(tasks, done):
            parts.append(part)
            if tick:
                tick(task[3] - task[2])
    packs, dealers = [], []
    for i in range(start, start + deals):
        dealer, pack = deal_of(seed, i)
        packs.append(pack)
        dealers.append(dealer)
    return ContractTable(rules, np.array(packs, np.int64), np.array(dealers, np.int64),
                         *(np.concatenate([p[k] for p in parts]) for k in range(3)),
                         seed, calls, values, "table")
