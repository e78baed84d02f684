"""Double-dummy solver: the exact outcome of a Mediatore deal with every card in view.

"Double dummy" means all four hands are known to everyone, as when a bridge player
analyses a finished deal. Given a :class:`Position` -- who holds what, who led the
current trick and what has been played to it, which seats form the declarer side and
how many thirds it has already taken -- the solver tells the declarer side's final
thirds when both sides play perfectly::

    >>> from mediatore_env.core.cards import CARD_NAMES, parse_cards, to_mask
    >>> hands = tuple(to_mask(parse_cards(t)) for t in ("DA C3", "D3 C4", "D5 C5", "D6 C6"))
    >>> pos = Position(hands, leader=0, trick=(), declarer_side=0b0001)
    >>> solve(pos), reaches(pos, 4), reaches(pos, 5)
    (4, True, False)
    >>> {CARD_NAMES[c]: v for c, v in move_values(pos).items()}
    {'DA': 4, 'C3': 1}

(Seat 0, playing alone, does best to lead the Ace of Denari into seat 1's 3 and keep the
3 of Coppe for the last trick: 1 third for the card and 3 for the last trick. Cashing the
3 first takes 1 third and gives up the rest.)

Functions:

- :func:`reaches` -- does the declarer side end with at least ``target`` thirds?
- :func:`solve` -- its exact final thirds (``taken`` included).
- :func:`last_nodes` -- how many nodes the last search visited.
- :func:`move_values` -- the exact final thirds after each legal card of the seat to move.
- :func:`brute_force` -- plain minimax, slow, for checking the others.
- :func:`legal_cards`, :func:`play`, :func:`to_move` -- stepping a position by hand.

The rules are those of docs/rules.md section 6, with the monte as in section 5: no trumps, follow
suit if able, the highest card of the suit led wins and leads next, and the last trick
carries 3 thirds plus the monte's thirds to its winner's side.

The search (see docs/solver.md) is a null-window alpha-beta "does the side reach N?" with a
transposition table at trick boundaries, equivalent cards searched once and heuristic move
ordering; exact values come from a binary search over N. It runs in the C extension
``mediatore_env.analysis._dds`` when that was built, else in the same algorithm in pure Python
(120-150 times slower). :data:`BACKEND` says which: ``"c"`` or ``"python"``. Setting
the environment variable ``MEDIATORE_SOLVER=python`` before import forces the fallback, and
every function takes ``backend="c"`` or ``backend="python"`` to choose per call.

The C core keeps its transposition table (16 MiB, allocated on first use) between calls, so
repeated calls on positions of one deal -- :func:`move_values`, or one call per card as a
deal is played -- reuse each other's work; :func:`clear_table` empties it. The table's
entries are exact facts about positions, so the reuse never changes an answer. The core
holds the GIL while it searches: calls from several threads run one at a time.

**Node budgets.** :func:`reaches` and :func:`solve` take ``node_limit``: past that many
nodes (calls of the recursive search, counted alike by both cores) the search gives up and
returns ``None``. A caller with a time budget turns it into nodes at a cautious rate,
:data:`NODES_PER_SECOND` (the C core runs about 11,000 nodes per CPU millisecond). An aborted
search writes no bound it has not proven, so the table stays correct, and it costs no more
than ``node_limit`` nodes; :func:`last_nodes` tells how many a search used. The answers never
depend on the table, but the node counts do (a warm table saves nodes), and so does whether
a search fits its budget: :func:`clear_table` first (it costs nothing) when that must be
reproducible.
"""

from __future__ import annotations

import os
from typing import NamedTuple

from ..core.cards import (BIT_OF, CARD_NAMES, LAST_TRICK_THIRDS, NUM_CARDS, POINTS, POWER_OF, SUITS,
                          SUIT_MASKS, SUIT_OF, bit, cards_of, format_cards, highest, suit_of,
                          thirds_of)
from ..core.tricks import playable, trick_winner

__all__ = [
    "BACKEND",
    "NODES_PER_SECOND",
    "Position",
    "brute_force",
    "clear_table",
    "last_nodes",
    "legal_cards",
    "move_values",
    "play",
    "reaches",
    "solve",
    "to_move",
]

_MAX_MONTE_THIRDS = 12  # four aces

try:
    if os.environ.get("MEDIATORE_SOLVER", "").lower() == "python":
        raise ImportError("pure-Python solver requested by MEDIATORE_SOLVER")
    from . import _dds
except ImportError:
    _dds = None

BACKEND = "c" if _dds is not None else "python"
"""Which search core :func:`solve` and friends use by default: ``"c"`` or ``"python"``."""

NODES_PER_SECOND = 7_000_000 if BACKEND == "c" else 60_000
"""A cautious search rate of the default core, to turn CPU time into a ``node_limit``.
The C core runs 11,000-12,000 nodes per CPU millisecond on the project machine, but single
searches of 100,000 nodes or more dipped to 6,300-7,600 when other jobs shared the
machine (docs/solver.md); 7,000 keeps a budget close to its time even then. The Python core
runs about 100,000 nodes per second."""


class Position(NamedTuple):
    """A moment of a deal, seen double dummy.

    ``hands``: four card bitsets, the cards each seat still holds. ``leader``: the seat
    that led (or is about to lead) the current trick. ``trick``: the cards already played to
    it, from the leader on (empty at a trick boundary). ``declarer_side``: bitmask of the
    declarer's seats (bit ``s`` for seat ``s``; one or two bits). ``taken``: thirds the
    declarer side won in the tricks already completed. ``monte_thirds``: thirds in the
    monte, which go to the side that wins the last trick.
    """

    hands: tuple[int, int, int, int]
    leader: int
    trick: tuple[int, ...]
    declarer_side: int
    taken: int = 0
    monte_thirds: int = 0

    def __str__(self) -> str:
        seats = "  ".join(f"{s}: {format_cards(h) or '-'}" for s, h in enumerate(self.hands))
        trick = " ".join(CARD_NAMES[c] for c in self.trick) or "-"
        side = "+".join(str(s) for s in range(4) if self.declarer_side >> s & 1)
        return (
            f"{seats} | leader {self.leader} trick {trick} | declarer side {side} "
            f"taken {self.taken} monte {self.monte_thirds}"
        )


def to_move(pos: Position) -> int:
    """The seat whose turn it is."""
    return (pos.leader + len(pos.trick)) % 4


def _check(pos: Position) -> None:
    """Raise ``ValueError`` naming what makes ``pos`` impossible."""
    if len(pos.hands) != 4:
        raise ValueError(f"a position has 4 hands, not {len(pos.hands)}")
    if not 0 <= pos.leader <= 3:
        raise ValueError(f"leader must be a seat 0..3, not {pos.leader!r}")
    if not 1 <= pos.declarer_side <= 0b1111 or pos.declarer_side.bit_count() > 2:
        raise ValueError(f"declarer_side must be a bitmask of 1 or 2 seats, not {pos.declarer_side!r}")
    if not 0 <= pos.monte_thirds <= _MAX_MONTE_THIRDS:
        raise ValueError(f"monte_thirds must be 0..{_MAX_MONTE_THIRDS}, not {pos.monte_thirds!r}")
    if len(pos.trick) > 3:
        raise ValueError(f"a trick in progress holds 0 to 3 cards, not {len(pos.trick)}")
    seen = 0
    for s, hand in enumerate(pos.hands):
        if hand < 0 or hand >> NUM_CARDS:
            raise ValueError(f"hand {s} is not a 40-bit card set: {hand!r}")
        if hand & seen:
            raise ValueError(f"card(s) {format_cards(hand & seen)} held twice")
        seen |= hand
    for c in pos.trick:
        if not 0 <= c < NUM_CARDS:
            raise ValueError(f"not a card: {c!r}")
        if seen >> c & 1:
            raise ValueError(f"card {CARD_NAMES[c]} is both in a hand and in the trick")
        seen |= bit(c)
    played = {(pos.leader + i) % 4 for i in range(len(pos.trick))}
    sizes = [h.bit_count() + (s in played) for s, h in enumerate(pos.hands)]
    if len(set(sizes)) != 1 or (pos.trick and sizes[0] == 0):
        raise ValueError(
            "hand sizes do not fit the trick: every seat must hold as many cards, less one for "
            f"each seat that already played to the trick; got {[h.bit_count() for h in pos.hands]} "
            f"with {len(pos.trick)} card(s) played from leader {pos.leader}"
        )


def legal_cards(pos: Position) -> list[int]:
    """The cards the seat to move may play: the suit led if it has any, else anything."""
    return cards_of(playable(pos.hands[to_move(pos)], pos.trick))


def play(pos: Position, card: int) -> Position:
    """The position after the seat to move plays ``card`` (which must be legal).

    A fourth card completes the trick: its thirds (plus the last-trick 3 and the monte if
    it was the last trick) are added to ``taken`` if the declarer side won it, and the
    winner leads next.
    """
    if card not in legal_cards(pos):
        raise ValueError(f"{CARD_NAMES[card] if 0 <= card < NUM_CARDS else card!r} is not legal here")
    mover = to_move(pos)
    hands = list(pos.hands)
    hands[mover] &= ~bit(card)
    trick = pos.trick + (card,)
    if len(trick) < 4:
        return pos._replace(hands=tuple(hands), trick=trick)
    winner = trick_winner(pos.leader, trick)
    thirds = sum(POINTS[c] for c in trick)
    if not any(hands):
        thirds += LAST_TRICK_THIRDS + pos.monte_thirds
    taken = pos.taken + (thirds if pos.declarer_side >> winner & 1 else 0)
    return pos._replace(hands=tuple(hands), leader=winner, trick=(), taken=taken)


def _future_max(pos: Position) -> int:
    """Every third still to be won: cards in hands and in the trick, last trick, monte."""
    in_play = pos.hands[0] | pos.hands[1] | pos.hands[2] | pos.hands[3]
    if not in_play and not pos.trick:
        return 0
    return thirds_of(in_play) + sum(POINTS[c] for c in pos.trick) + LAST_TRICK_THIRDS + pos.monte_thirds


def _pick(backend: str | None):
    backend = backend or BACKEND
    if backend == "c":
        if _dds is None:
            raise RuntimeError("the C solver core mediatore_env.analysis._dds is not built")
        return _dds
    if backend == "python":
        return _PySearch()  # a fresh table per call, like the C core's per-context table
    raise ValueError(f"unknown solver backend {backend!r}; valid: 'c', 'python'")


_last_nodes = 0


def _nodes_of(core) -> int:
    return core.last_nodes() if core is _dds else core.nodes


def _check_limit(node_limit) -> None:
    if node_limit is not None and (not isinstance(node_limit, int) or node_limit < 0):
        raise ValueError(f"node_limit must be None or an int >= 0, not {node_limit!r}")


def reaches(pos: Position, target: int = 18, *, node_limit: int | None = None,
            backend: str | None = None) -> bool | None:
    """Whether the declarer side ends the deal with at least ``target`` thirds (``taken``
    included) when both sides play perfectly. 18 thirds (6 points) wins a contract.

    ``node_limit``: give up, and return ``None``, when the search would visit more than
    this many nodes (calls of the recursive search; :func:`last_nodes` counts them). A
    search that needs ``n`` nodes answers when ``node_limit >= n`` -- the same answer as
    without a limit -- and returns ``None`` after exactly ``node_limit`` nodes otherwise.
    Answers that need no search (``target`` already reached, or more than is left to win)
    come at once, whatever the limit."""
    global _last_nodes
    _check(pos)
    _check_limit(node_limit)
    _last_nodes = 0
    need = target - pos.taken
    if need <= 0:
        return True
    if need > _future_max(pos):
        return False
    core = _pick(backend)
    r = core.reach(pos.hands, pos.leader, pos.trick, pos.declarer_side, pos.monte_thirds, need,
                   node_limit)
    _last_nodes = _nodes_of(core)
    return r if r is None else bool(r)


def solve(pos: Position, *, node_limit: int | None = None, backend: str | None = None) -> int | None:
    """The declarer side's exact final thirds (``taken`` included) with perfect play:
    the declarer side maximises them, the other side minimises them. ``None`` when that
    takes more than ``node_limit`` nodes in all (as in :func:`reaches`)."""
    global _last_nodes
    _check(pos)
    _check_limit(node_limit)
    core = _pick(backend)
    v = core.solve(pos.hands, pos.leader, pos.trick, pos.declarer_side, pos.monte_thirds, node_limit)
    _last_nodes = _nodes_of(core)
    return None if v is None else pos.taken + v


def move_values(pos: Position, *, backend: str | None = None) -> dict[int, int]:
    """For each legal card of the seat to move, the declarer side's exact final thirds
    after playing it, then perfect play by both sides."""
    global _last_nodes
    _check(pos)
    core = _pick(backend)  # one table for all the moves
    out = {}
    nodes = 0
    for card in legal_cards(pos):
        child = play(pos, card)
        out[card] = child.taken + core.solve(child.hands, child.leader, child.trick,
                                             child.declarer_side, child.monte_thirds)
        nodes += _nodes_of(core)
    _last_nodes = nodes
    return out


def last_nodes() -> int:
    """Nodes visited by the last :func:`reaches`, :func:`solve` or :func:`move_values`
    call in this process (all its searches for ``move_values``), whichever backend ran it
    and whether or not it ran out of its ``node_limit``; 0 when no search was needed. With
    the C core the count depends on what the table already holds (a warm table saves
    nodes), so clear it to compare counts::

        >>> from mediatore_env.core.cards import parse_cards, to_mask
        >>> hands = tuple(to_mask(parse_cards(t)) for t in ("DA C3", "D3 C4", "D5 C5", "D6 C6"))
        >>> pos = Position(hands, leader=0, trick=(), declarer_side=0b0001)
        >>> clear_table(); reaches(pos, 4), last_nodes()
        (True, 9)
        >>> clear_table(); reaches(pos, 4, node_limit=5), last_nodes()
        (None, 5)
    """
    return _last_nodes


def clear_table() -> None:
    """Empty the C core's transposition table (the Python core makes a new one per call).
    Answers never depend on it; timings and node counts do. It costs nothing: the entries
    are marked stale all at once, not wiped."""
    if _dds is not None:
        _dds.clear()


def brute_force(pos: Position) -> int:
    """The same value as :func:`solve` by plain minimax over every legal card, with none of
    the solver's devices (no bounds, no pruning, no card equivalence, no move ordering).
    The only shortcut is a memo of exact values at trick boundaries, keyed by the full
    hands and the leader. For checking the solver on small endings only."""
    _check(pos)
    side, bonus = pos.declarer_side, LAST_TRICK_THIRDS + pos.monte_thirds
    hands = list(pos.hands)
    memo: dict[tuple[int, int, int, int, int], int] = {}

    def future(leader: int, trick: list[int]) -> int:
        # Thirds the declarer side wins from here on (taken excluded).
        if len(trick) == 4:
            winner = trick_winner(leader, trick)
            thirds = sum(POINTS[c] for c in trick)
            if not any(hands):
                thirds += bonus
            won = thirds if side >> winner & 1 else 0
            return won + (future(winner, []) if any(hands) else 0)
        if not trick:
            key = (*hands, leader)
            if key in memo:
                return memo[key]
        mover = (leader + len(trick)) % 4
        hand = hands[mover]
        values = []
        for c in cards_of(playable(hand, trick)):
            hands[mover] = hand & ~bit(c)
            values.append(future(leader, trick + [c]))
        hands[mover] = hand
        v = max(values) if side >> mover & 1 else min(values)
        if not trick:
            memo[key] = v
        return v

    if not any(hands) and not pos.trick:
        return pos.taken
    return pos.taken + future(pos.leader, list(pos.trick))


# -- the pure-Python core: the same algorithm as _dds.c ----------------------------------
# Its loops run once per node: they index the card tables SUIT_OF, POWER_OF and BIT_OF
# (core.cards) instead of calling suit_of(), power_of() and bit(), which cost a call each.

def _rank_of_card(in_play: int, card: int) -> tuple[int, int]:
    """A card as (suit, rank from the top among the suit's cards in play)."""
    suit = suit_of(card)
    above = in_play & SUIT_MASKS[suit] & ~((bit(card) << 1) - 1)
    return suit, above.bit_count()


def _move_to_front(moves: list[int], card: int | None) -> None:
    if card in moves[1:]:
        moves.remove(card)
        moves.insert(0, card)


def _card_of_rank(in_play: int, code: tuple[int, int]) -> int:
    suit, rank = code
    in_suit = in_play & SUIT_MASKS[suit]
    for _ in range(rank):
        in_suit &= ~bit(highest(in_suit))
    return highest(in_suit)


_NO_LIMIT = 1 << 62


class _OutOfNodes(Exception):
    """The search reached its node limit (caught by :meth:`_PySearch.reach` and ``solve``)."""


class _PySearch:
    """Null-window search with a transposition table: ``_dds.c`` function by function.

    An instance keeps its table across calls with the same side and monte (as the C core
    keeps its own across calls); ``_pick`` makes a fresh one per API call.
    """

    def __init__(self) -> None:
        # canonical key (see _key) -> [lo, hi, best lead as (suit, rank) or None]; lo and
        # hi bound the thirds the declarer side wins from that trick boundary on.
        self.table: dict[tuple, list] = {}
        self.context: tuple[int, int] | None = None
        self.nodes = 0
        self.node_limit = _NO_LIMIT

    def _setup(self, hands, leader, trick, side, monte, node_limit) -> None:
        bonus = LAST_TRICK_THIRDS + monte
        if self.context != (side, bonus):
            self.table.clear()
            self.context = (side, bonus)
        self.hand = list(hands)
        self.leader = leader
        self.trick = list(trick)
        self.side = side
        self.bonus = bonus
        self.nodes = 0
        self.node_limit = _NO_LIMIT if node_limit is None else node_limit
        self.killer: dict[tuple[int, int], int] = {}  # (cards in hands, leader) -> card

    def reach(self, hands, leader, trick, side, monte, need, node_limit=None) -> bool | None:
        """Does the side win ``need`` more thirds; ``None`` when out of nodes (reach in C)."""
        self._setup(hands, leader, trick, side, monte, node_limit)
        try:
            return self._reach(need)[0]
        except _OutOfNodes:
            return None

    def solve(self, hands, leader, trick, side, monte, node_limit=None) -> int | None:
        """Exact future thirds, or ``None`` when out of nodes."""
        self._setup(hands, leader, trick, side, monte, node_limit)
        try:
            return self._solve()
        except _OutOfNodes:
            return None

    def _solve(self) -> int:
        """Bisection over targets with fail-soft null-window searches (solve_future in C)."""
        all_cards = self.hand[0] | self.hand[1] | self.hand[2] | self.hand[3]
        lo = 0
        hi = thirds_of(all_cards) + sum(POINTS[c] for c in self.trick) + self.bonus
        if not all_cards and not self.trick:
            return 0
        while lo < hi:
            ok, bound = self._reach((lo + hi + 1) // 2)
            if ok:
                lo = bound
            else:
                hi = bound
        return lo

    def _key(self, all_cards: int) -> tuple:
        """Table key: per suit, the (holder, points) of each card in play, top down, and
        the leader. The same information as the C key (SIG id and squeezed hands):
        positions that differ only in exact ranks of the cards gone share it."""
        hand = self.hand
        suits = []
        for suit in SUITS:
            cards = []
            for c in cards_of(all_cards & SUIT_MASKS[suit]):  # top down
                holder = next(s for s in range(4) if hand[s] >> c & 1)
                cards.append(holder * 4 + POINTS[c])
            suits.append(tuple(cards))
        return tuple(suits), self.leader

    def _quick_thirds(self, all_cards: int) -> int:
        """Thirds the leader's side takes for sure by cashing the leader's top cards."""
        mine = self.hand[self.leader]
        q = 0
        for suit in SUITS:
            in_suit = all_cards & SUIT_MASKS[suit]
            while in_suit:
                top = in_suit.bit_length() - 1
                if not mine >> top & 1:
                    break
                q += POINTS[top]
                in_suit &= ~BIT_OF[top]
        return q

    def _moves(self, mover: int) -> list[int]:
        """Legal cards of ``mover``, one per class of equivalent cards (gen_moves in C)."""
        legal = playable(self.hand[mover], self.trick)
        in_play = self.hand[0] | self.hand[1] | self.hand[2] | self.hand[3]
        for c in self.trick:
            in_play |= BIT_OF[c]
        moves = []
        for suit_mask in SUIT_MASKS:
            if not legal & suit_mask:
                continue
            # The suit's cards in play, top down: a card next below one of mine with the
            # same points is equivalent to it.
            prev_mine, prev_points = False, -1
            for c in cards_of(in_play & suit_mask):
                if legal >> c & 1:
                    pts = POINTS[c]
                    if not (prev_mine and prev_points == pts):
                        moves.append(c)
                    prev_mine, prev_points = True, pts
                else:
                    prev_mine = False
        return moves

    def _order(self, mover: int, moves: list[int]) -> list[int]:
        """Heuristic move ordering, best first (order_moves in C)."""
        hand = self.hand
        side = self.side
        all_cards = hand[0] | hand[1] | hand[2] | hand[3]
        my_side = side >> mover & 1
        scores = []
        if not self.trick:
            for c in moves:
                pts, p = POINTS[c], POWER_OF[c]
                others = all_cards & ~hand[mover] & SUIT_MASKS[SUIT_OF[c]]
                if not others or c > others.bit_length() - 1:
                    scores.append(1000 + 20 * pts + p)
                else:
                    top = others.bit_length() - 1
                    holder = next(s for s in range(4) if hand[s] >> top & 1)
                    ours = (side >> holder & 1) == my_side
                    scores.append((500 if ours else 0) - 20 * pts - p)
        else:
            trick = self.trick
            led = SUIT_OF[trick[0]]
            win_seat = trick_winner(self.leader, trick)
            win = trick[(win_seat - self.leader) % 4]
            later_opp = later_partner = 0
            for k in range(len(trick) + 1, 4):
                seat = (self.leader + k) % 4
                if (side >> seat & 1) != my_side:
                    later_opp |= hand[seat]
                else:
                    later_partner |= hand[seat]
            opp_top = (later_opp & SUIT_MASKS[led]).bit_length() - 1  # -1 when none
            partner_top = (later_partner & SUIT_MASKS[led]).bit_length() - 1
            ours_safe = ((side >> win_seat & 1) == my_side and win > opp_top) or (
                partner_top > win and partner_top > opp_top
            )
            for c in moves:
                pts, p = POINTS[c], POWER_OF[c]
                if SUIT_OF[c] == led and c > win:
                    scores.append(1000 + 20 * pts - p if c > opp_top else 200 + p - 20 * pts)
                else:
                    scores.append(800 + 20 * pts - p if ours_safe else -20 * pts - p)
        # Stable sort, best first: the same order as the C insertion sort.
        order = sorted(range(len(moves)), key=lambda i: -scores[i])
        return [moves[i] for i in order]

    def _forced_finish(self) -> int:
        """Every seat holds at most one card: the declarer side's thirds from here."""
        trick = list(self.trick)
        for k in range(len(trick), 4):
            trick.append(self.hand[(self.leader + k) % 4].bit_length() - 1)
        winner = trick_winner(self.leader, trick)
        if self.side >> winner & 1:
            return sum(POINTS[c] for c in trick) + self.bonus
        return 0

    def _reach(self, need: int) -> tuple[bool, int]:
        """(does the declarer side win >= need more thirds, fail-soft bound): the bound is
        a lower bound >= need on those thirds when yes, an upper bound < need when no.

        A node is one call; past ``node_limit`` of them this raises :class:`_OutOfNodes`,
        which unwinds every caller before it writes the table (as the C core's abort)."""
        if self.nodes >= self.node_limit:
            raise _OutOfNodes
        self.nodes += 1
        if need <= 0:
            return True, 0
        hand = self.hand
        all_cards = hand[0] | hand[1] | hand[2] | hand[3]
        trick = self.trick
        rem = thirds_of(all_cards) + sum(POINTS[c] for c in trick) + self.bonus
        if need > rem:
            return False, rem
        mover = (self.leader + len(trick)) % 4
        if all(h.bit_count() <= 1 for h in hand):
            v = self._forced_finish()
            return v >= need, v

        key = entry = None
        if not trick:
            # The quick bound first (in C it hides the fetch of the table entry).
            q = self._quick_thirds(all_cards)
            if self.side >> self.leader & 1:
                if q >= need:
                    return True, q
            elif need > rem - q:
                return False, rem - q
            key = self._key(all_cards)
            entry = self.table.get(key)
            if entry is not None:
                if entry[0] >= need:
                    return True, entry[0]
                if entry[1] < need:
                    return False, entry[1]

        moves = self._moves(mover)
        if len(moves) > 1:
            moves = self._order(mover, moves)
            if not trick:
                # Leads: the killer (last lead that cut off at this depth for this seat),
                # then before it the lead that last proved a bound here.
                _move_to_front(moves, self.killer.get((all_cards.bit_count(), mover)))
                if entry is not None and entry[2] is not None:
                    _move_to_front(moves, _card_of_rank(all_cards, entry[2]))
        maximize = bool(self.side >> mover & 1)
        result = not maximize
        best = -1 if maximize else 1 << 20
        cut_card = None
        for c in moves:
            hand[mover] &= ~BIT_OF[c]
            trick.append(c)
            if len(trick) == 4:
                winner = trick_winner(self.leader, trick)
                pts = sum(POINTS[x] for x in trick)
                if not (hand[0] | hand[1] | hand[2] | hand[3]):
                    pts += self.bonus
                if not self.side >> winner & 1:
                    pts = 0
                saved_leader, saved_trick = self.leader, trick
                self.leader, self.trick = winner, []
                r, b = self._reach(need - pts)
                b += pts
                self.leader, self.trick = saved_leader, saved_trick
            else:
                r, b = self._reach(need)
            trick.pop()
            hand[mover] |= BIT_OF[c]
            if r == maximize:
                result, best, cut_card = r, b, c
                if not trick:
                    self.killer[all_cards.bit_count(), mover] = c
                break
            best = max(best, b) if maximize else min(best, b)

        if key is not None:
            if entry is None:
                entry = self.table[key] = [0, rem, None]
            if result:
                entry[0] = max(entry[0], best)
            else:
                entry[1] = min(entry[1], best)
            if cut_card is not None:
                entry[2] = _rank_of_card(all_cards, cut_card)
        return result, best
