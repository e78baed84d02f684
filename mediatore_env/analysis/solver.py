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

Every table of the family -- 2, 3 or 4 hands, a two-handed stock, Low Hand (the side wants
the fewest thirds) -- has the same search through a :class:`TablePosition`:
:func:`table_solve`, :func:`table_move_values`, :func:`table_brute_force`,
:func:`table_legal_cards`, :func:`table_play`, :func:`table_to_move` (docs/solver.md, "Every
table of the family"). Mediatore's functions are its four-hand case: one core serves both.

The rules are those of docs/rules.md section 6, with the monte as in section 5: no trumps, follow
suit if able, the highest card of the suit led wins and leads next, and the last trick
carries 3 thirds plus the monte's thirds to its winner's side.

The search (see docs/solver.md) is a null-window alpha-beta "does the side reach N?" with a
transposition table at trick boundaries, equivalent cards searched once and heuristic move
ordering; exact values come from a binary search over N. It runs in the C extension
``mediatore_env.analysis._dds`` when that was built, else in the same algorithm in pure Python
(120-150 times slower). :data:`BACKEND` says which: ``"c"`` or ``"python"``. Setting
the environment variable ``MEDIATORE_SOLVER=python`` before import forces the fallback, and
every function takes ``backend="c"`` or ``backend="python"`` to choose per call. A process
that falls back without asking (the core was not built) is warned once, at its first search.

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
import warnings
from typing import NamedTuple

from ..core.cards import (BIT_OF, CARD_NAMES, LAST_TRICK_THIRDS, NUM_CARDS, POINTS, POWER_OF, SUITS,
                          SUIT_MASKS, SUIT_OF, bit, cards_of, format_cards, highest, suit_of,
                          thirds_of)
from ..core.tricks import playable, trick_winner

__all__ = [
    "BACKEND",
    "NODES_PER_SECOND",
    "Position",
    "TablePosition",
    "brute_force",
    "clear_table",
    "last_nodes",
    "legal_cards",
    "move_values",
    "play",
    "reaches",
    "solve",
    "table_brute_force",
    "table_legal_cards",
    "table_move_values",
    "table_play",
    "table_solve",
    "table_to_move",
    "to_move",
]

_MAX_MONTE_THIRDS = 12  # four aces

_FORCED = os.environ.get("MEDIATORE_SOLVER", "").lower() == "python"
try:
    if _FORCED:
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


_slow_told = False  # the missing C core is told once a process


def _pick(backend: str | None):
    global _slow_told
    if backend is None and _dds is None and not _FORCED and not _slow_told:
        _slow_told = True
        warnings.warn("the C solver core (mediatore_env.analysis._dds) is not built: every "
                      "search runs 120-150 times slower in pure Python. Build it with "
                      "`pip install -e .` in the repository (docs/install.md), or set "
                      "MEDIATORE_SOLVER=python to choose Python and silence this",
                      RuntimeWarning, stacklevel=3)
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
    return pos.taken + _minimax(pos.hands, pos.leader, pos.trick, pos.declarer_side, False,
                                LAST_TRICK_THIRDS + pos.monte_thirds, ())


def _minimax(hands, leader, trick, side, low, bonus, stock) -> int:
    """The thirds ``side`` wins from here on by plain minimax over every legal card: its
    seats maximize them (minimize in Low Hand), the others do the opposite; two-handed, the
    winner of each trick draws the top card of ``stock`` and the other the next. A memo of
    exact values at trick boundaries is the only shortcut."""
    n = len(hands)
    hands = list(hands)
    memo: dict[tuple, int] = {}
    pick_side, pick_others = (min, max) if low else (max, min)

    def future(leader: int, trick: list[int], drawn: int) -> int:
        if len(trick) == n:
            winner = trick_winner(leader, trick, n)
            thirds = sum(POINTS[c] for c in trick)
            if drawn < len(stock):
                hands[winner] |= bit(stock[drawn])
                hands[1 - winner] |= bit(stock[drawn + 1])
                rest = future(winner, [], drawn + 2)
                hands[winner] &= ~bit(stock[drawn])
                hands[1 - winner] &= ~bit(stock[drawn + 1])
            else:
                rest = future(winner, [], drawn) if any(hands) else 0
                if not any(hands):
                    thirds += bonus
            return (thirds if side >> winner & 1 else 0) + rest
        if not trick:
            key = (*hands, leader, drawn)
            if key in memo:
                return memo[key]
        mover = (leader + len(trick)) % n
        hand = hands[mover]
        values = []
        for c in cards_of(playable(hand, trick)):
            hands[mover] = hand & ~bit(c)
            values.append(future(leader, trick + [c], drawn))
        hands[mover] = hand
        v = (pick_side if side >> mover & 1 else pick_others)(values)
        if not trick:
            memo[key] = v
        return v

    if not any(hands) and not trick:
        return 0
    return future(leader, list(trick), 0)


# -- any table of the family ---------------------------------------------------------------

class TablePosition(NamedTuple):
    """A moment of a hand at any table of the family, seen double dummy.

    ``hands``: 2, 3 or 4 card bitsets, the cards each seat still holds (three-handed, the
    dead hand is simply not there). ``leader``: the seat that led (or leads) the current
    trick; ``trick``: its cards so far from the leader on. ``side``: bitmask of the seats
    whose thirds are counted and who play together (bit ``s`` for seat ``s``): a
    partnership, or one seat against the rest -- a seat that plays alone is searched
    against a coalition of the others (the "paranoid" reduction). ``taken``: thirds the
    side won in the tricks already completed. ``low``: Low Hand, the side wants the fewest
    thirds (and the others want it to take the most). ``stock``: two-handed, the cards
    still in the stock, top first: after each trick the winner draws the top card, then the
    other player the next. ``bonus``: thirds the last trick carries besides its cards.
    """

    hands: tuple[int, ...]
    leader: int
    trick: tuple[int, ...]
    side: int
    taken: int = 0
    low: bool = False
    stock: tuple[int, ...] = ()
    bonus: int = LAST_TRICK_THIRDS

    def __str__(self) -> str:
        seats = "  ".join(f"{s}: {format_cards(h) or '-'}" for s, h in enumerate(self.hands))
        trick = " ".join(CARD_NAMES[c] for c in self.trick) or "-"
        stock = " ".join(CARD_NAMES[c] for c in self.stock) or "-"
        side = "+".join(str(s) for s in range(len(self.hands)) if self.side >> s & 1)
        return (f"{seats} | leader {self.leader} trick {trick} | stock {stock} | side {side} "
                f"taken {self.taken}{' low' if self.low else ''} bonus {self.bonus}")


def table_to_move(pos: TablePosition) -> int:
    """The seat whose turn it is."""
    return (pos.leader + len(pos.trick)) % len(pos.hands)


def _check_table(pos: TablePosition) -> None:
    """Raise ``ValueError`` naming what makes ``pos`` impossible."""
    n = len(pos.hands)
    if n not in (2, 3, 4):
        raise ValueError(f"a table has 2, 3 or 4 hands, not {n}")
    if type(pos.leader) is not int or not 0 <= pos.leader < n:
        raise ValueError(f"leader must be a seat 0..{n - 1}, not {pos.leader!r}")
    if type(pos.side) is not int or not 1 <= pos.side < (1 << n) - 1:
        raise ValueError(f"side must be a bitmask of 1 to {n - 1} of the {n} seats, "
                         f"not {pos.side!r}")
    if type(pos.low) is not bool:
        raise ValueError(f"low must be True or False, not {pos.low!r}")
    for name in ("taken", "bonus"):
        value = getattr(pos, name)
        if type(value) is not int or not 0 <= value <= 60:
            raise ValueError(f"{name} must be an int 0..60 (thirds), not {value!r}")
    if len(pos.trick) > n - 1:
        raise ValueError(f"a trick in progress holds 0 to {n - 1} cards, not {len(pos.trick)}")
    if pos.stock and (n != 2 or len(pos.stock) % 2):
        raise ValueError(f"a stock is two-handed and holds an even number of cards; got "
                         f"{len(pos.stock)} card(s) with {n} hands")
    seen = 0
    for s, hand in enumerate(pos.hands):
        if type(hand) is not int or hand < 0 or hand >> NUM_CARDS:
            raise ValueError(f"hand {s} is not a 40-bit card set: {hand!r}")
        if hand & seen:
            raise ValueError(f"card(s) {format_cards(hand & seen)} held twice")
        seen |= hand
    for what, cards in (("trick", pos.trick), ("stock", pos.stock)):
        for c in cards:
            if type(c) is not int or not 0 <= c < NUM_CARDS:
                raise ValueError(f"not a card in the {what}: {c!r}")
            if seen >> c & 1:
                raise ValueError(f"card {CARD_NAMES[c]} is twice in the position ({what})")
            seen |= bit(c)
    played = {(pos.leader + i) % n for i in range(len(pos.trick))}
    sizes = [h.bit_count() + (s in played) for s, h in enumerate(pos.hands)]
    if len(set(sizes)) != 1 or (pos.trick and sizes[0] == 0) or (pos.stock and not sizes[0]):
        raise ValueError(
            "hand sizes do not fit the trick: every seat must hold as many cards, less one for "
            f"each seat that already played to the trick; got {[h.bit_count() for h in pos.hands]} "
            f"with {len(pos.trick)} card(s) played from leader {pos.leader}")


def table_legal_cards(pos: TablePosition) -> list[int]:
    """The cards the seat to move may play: the suit led if it has any, else anything."""
    return cards_of(playable(pos.hands[table_to_move(pos)], pos.trick))


def table_play(pos: TablePosition, card: int) -> TablePosition:
    """The position after the seat to move plays ``card`` (which must be legal). The last
    card of a trick scores it (its cards, and the bonus if it was the last trick) to
    ``taken`` if the side won it; two-handed the winner then draws, then the other."""
    if card not in table_legal_cards(pos):
        what = CARD_NAMES[card] if 0 <= card < NUM_CARDS else repr(card)
        raise ValueError(f"{what} is not legal here; legal: "
                         f"{' '.join(CARD_NAMES[c] for c in table_legal_cards(pos))}")
    n = len(pos.hands)
    mover = table_to_move(pos)
    hands = list(pos.hands)
    hands[mover] &= ~bit(card)
    trick = pos.trick + (card,)
    if len(trick) < n:
        return pos._replace(hands=tuple(hands), trick=trick)
    winner = trick_winner(pos.leader, trick, n)
    thirds = sum(POINTS[c] for c in trick)
    stock = pos.stock
    if stock:
        hands[winner] |= bit(stock[0])
        hands[1 - winner] |= bit(stock[1])
        stock = stock[2:]
    elif not any(hands):
        thirds += pos.bonus
    taken = pos.taken + (thirds if pos.side >> winner & 1 else 0)
    return pos._replace(hands=tuple(hands), leader=winner, trick=(), taken=taken, stock=stock)


def _table_future_max(pos: TablePosition) -> int:
    """Every third still to be won: cards in hands, stock and trick, and the bonus."""
    in_play = 0
    for h in pos.hands:
        in_play |= h
    for c in pos.stock:
        in_play |= bit(c)
    if not in_play and not pos.trick:
        return 0
    return thirds_of(in_play) + sum(POINTS[c] for c in pos.trick) + pos.bonus


def _table_search(core, pos: TablePosition, node_limit) -> int | None:
    """The side's thirds still to win with best play, from the core's counted thirds."""
    v = core.table_solve(pos.hands, pos.leader, pos.trick, pos.side, pos.low, pos.bonus,
                         pos.stock, node_limit)
    if v is None or not pos.low:
        return v
    return _table_future_max(pos) - v  # low: the core counted the others' thirds


def table_solve(pos: TablePosition, *, node_limit: int | None = None,
                backend: str | None = None) -> int | None:
    """The side's exact final thirds (``taken`` included) with best play: the side takes
    as many as it can (Low Hand: as few), the others the opposite. ``None`` when that
    takes more than ``node_limit`` nodes in all (as :func:`solve`)."""
    global _last_nodes
    _check_table(pos)
    _check_limit(node_limit)
    core = _pick(backend)
    v = _table_search(core, pos, node_limit)
    _last_nodes = _nodes_of(core)
    return None if v is None else pos.taken + v


def table_move_values(pos: TablePosition, *, node_limit: int | None = None,
                      backend: str | None = None) -> dict[int, int] | None:
    """For each legal card of the seat to move, the side's exact final thirds after playing
    it, then best play by all. ``None`` when the searches together would take more than
    ``node_limit`` nodes."""
    global _last_nodes
    _check_table(pos)
    _check_limit(node_limit)
    core = _pick(backend)  # one table for all the moves
    out, nodes = {}, 0
    for card in table_legal_cards(pos):
        child = table_play(pos, card)
        left = None if node_limit is None else node_limit - nodes
        v = _table_search(core, child, left)
        nodes += _nodes_of(core)
        if v is None:
            _last_nodes = nodes
            return None
        out[card] = child.taken + v
    _last_nodes = nodes
    return out


def table_brute_force(pos: TablePosition) -> int:
    """The value of :func:`table_solve` by plain minimax (see :func:`brute_force`)."""
    _check_table(pos)
    return pos.taken + _minimax(pos.hands, pos.leader, pos.trick, pos.side, pos.low, pos.bonus,
                                pos.stock)


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

    An instance keeps its table across calls with the same context (table size, side,
    counted seats, bonus and a stock whose draw order ends the same way), as the C core
    keeps its own; ``_pick`` makes a fresh one per API call.
    """

    def __init__(self) -> None:
        # canonical key (see _key) -> [lo, hi, best lead as (suit, rank) or None]; lo and
        # hi bound the counted thirds won from that trick boundary on.
        self.table: dict[tuple, list] = {}
        self.context: tuple | None = None
        self.nodes = 0
        self.node_limit = _NO_LIMIT

    def _set_context(self, n, side, counted, bonus, stock) -> None:
        """Keep the table when only the stock's drawn part differs (set_context in C)."""
        if self.context is not None and self.context[:4] == (n, side, counted, bonus):
            known = self.context[4]
            if known[len(known) - len(stock):] == stock and len(stock) <= len(known):
                return
            if stock[len(stock) - len(known):] == known and len(known) <= len(stock):
                self.context = (n, side, counted, bonus, stock)
                return
        self.table.clear()
        self.context = (n, side, counted, bonus, stock)

    def _setup(self, hands, leader, trick, side, low, bonus, stock, node_limit) -> None:
        n = len(hands)
        counted = ~side & ((1 << n) - 1) if low else side
        stock = tuple(stock)
        self._set_context(n, side, counted, bonus, stock)
        self.n = n
        self.hand = list(hands) + [0] * (4 - n)  # seats >= n hold nothing
        self.stock, self.drawn = stock, 0
        self.stock_mask = 0
        for c in stock:
            self.stock_mask |= BIT_OF[c]
        self.leader = leader
        self.trick = list(trick)
        self.side = side
        self.counted = counted
        self.bonus = bonus
        self.nodes = 0
        self.node_limit = _NO_LIMIT if node_limit is None else node_limit
        self.killer: dict[tuple[int, int], int] = {}  # (cards in play, seat) -> card

    def reach(self, hands, leader, trick, side, monte, need, node_limit=None) -> bool | None:
        """Mediatore: does the declarer side win ``need`` more thirds; ``None`` when out of
        nodes (reach in C)."""
        return self.table_reach(hands, leader, trick, side, False, LAST_TRICK_THIRDS + monte,
                                (), need, node_limit)

    def solve(self, hands, leader, trick, side, monte, node_limit=None) -> int | None:
        """Mediatore: exact future thirds, or ``None`` when out of nodes (solve in C)."""
        return self.table_solve(hands, leader, trick, side, False, LAST_TRICK_THIRDS + monte,
                                (), node_limit)

    def table_reach(self, hands, leader, trick, side, low, bonus, stock, need,
                    node_limit=None) -> bool | None:
        """Any table: do the counted seats win ``need`` more thirds (table_reach in C)."""
        self._setup(hands, leader, trick, side, low, bonus, stock, node_limit)
        try:
            return self._reach(need)[0]
        except _OutOfNodes:
            return None

    def table_solve(self, hands, leader, trick, side, low, bonus, stock,
                    node_limit=None) -> int | None:
        """Any table: the counted seats' exact future thirds (table_solve in C)."""
        self._setup(hands, leader, trick, side, low, bonus, stock, node_limit)
        try:
            return self._solve()
        except _OutOfNodes:
            return None

    def _in_play(self) -> int:
        hand = self.hand
        return hand[0] | hand[1] | hand[2] | hand[3] | self.stock_mask

    def _solve(self) -> int:
        """Bisection over targets with fail-soft null-window searches (solve_future in C)."""
        all_cards = self._in_play()
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

    def _holder(self, card: int) -> int:
        """The seat holding ``card``; 4 for a card of the stock."""
        return next((s for s in range(self.n) if self.hand[s] >> card & 1), 4)

    def _key(self, all_cards: int) -> tuple:
        """Table key: per suit, the (holder, points) of each card in play, top down, and
        the leader. The same information as the C key (SIG id and squeezed hands):
        positions that differ only in exact ranks of the cards gone share it. The stock's
        cards are there as held by no seat, which fixes how far it has been drawn."""
        suits = []
        for suit in SUITS:
            suits.append(tuple(self._holder(c) * 4 + POINTS[c]
                               for c in cards_of(all_cards & SUIT_MASKS[suit])))  # top down
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
        in_play = self._in_play()
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
        side, n = self.side, self.n
        all_cards = self._in_play()
        my_side = side >> mover & 1
        scores = []
        if not self.trick:
            for c in moves:
                pts, p = POINTS[c], POWER_OF[c]
                others = all_cards & ~hand[mover] & SUIT_MASKS[SUIT_OF[c]]
                if not others or c > others.bit_length() - 1:
                    scores.append(1000 + 20 * pts + p)
                else:
                    holder = self._holder(others.bit_length() - 1)
                    ours = holder < 4 and (side >> holder & 1) == my_side  # stock: no one's
                    scores.append((500 if ours else 0) - 20 * pts - p)
        else:
            trick = self.trick
            led = SUIT_OF[trick[0]]
            win_seat = trick_winner(self.leader, trick, n)
            win = trick[(win_seat - self.leader) % n]
            later_opp = later_partner = 0
            for k in range(len(trick) + 1, n):
                seat = (self.leader + k) % n
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
        if (self.counted >> mover & 1) != my_side:  # Low Hand: taking points is the worst
            scores = [-x for x in scores]
        # Stable sort, best first: the same order as the C insertion sort.
        order = sorted(range(len(moves)), key=lambda i: -scores[i])
        return [moves[i] for i in order]

    def _forced_finish(self) -> int:
        """Every seat holds at most one card, no stock: the counted thirds from here."""
        n = self.n
        trick = list(self.trick)
        for k in range(len(trick), n):
            trick.append(self.hand[(self.leader + k) % n].bit_length() - 1)
        winner = trick_winner(self.leader, trick, n)
        if self.counted >> winner & 1:
            return sum(POINTS[c] for c in trick) + self.bonus
        return 0

    def _draw(self, winner: int, sign: int) -> None:
        """Two-handed: the winner draws the stock's top card, the other the next (sign 1),
        or they put them back (sign -1)."""
        if sign < 0:
            self.drawn -= 2
        top, following = self.stock[self.drawn], self.stock[self.drawn + 1]
        cards = BIT_OF[top] | BIT_OF[following]
        if sign > 0:
            self.hand[winner] |= BIT_OF[top]
            self.hand[1 - winner] |= BIT_OF[following]
            self.stock_mask &= ~cards
            self.drawn += 2
        else:
            self.hand[winner] &= ~BIT_OF[top]
            self.hand[1 - winner] &= ~BIT_OF[following]
            self.stock_mask |= cards

    def _reach(self, need: int) -> tuple[bool, int]:
        """(do the counted seats win >= need more thirds, fail-soft bound): the bound is a
        lower bound >= need on those thirds when yes, an upper bound < need when no.

        A node is one call; past ``node_limit`` of them this raises :class:`_OutOfNodes`,
        which unwinds every caller before it writes the table (as the C core's abort)."""
        if self.nodes >= self.node_limit:
            raise _OutOfNodes
        self.nodes += 1
        if need <= 0:
            return True, 0
        hand, n = self.hand, self.n
        all_cards = self._in_play()
        trick = self.trick
        rem = thirds_of(all_cards) + sum(POINTS[c] for c in trick) + self.bonus
        if need > rem:
            return False, rem
        mover = (self.leader + len(trick)) % n
        if not self.stock_mask and all(h.bit_count() <= 1 for h in hand):
            v = self._forced_finish()
            return v >= need, v

        key = entry = None
        if not trick:
            # The quick bound first (in C it hides the fetch of the table entry); it holds
            # for a leader that wants its own thirds.
            lead_max = self.side >> self.leader & 1
            if lead_max == self.counted >> self.leader & 1:
                q = self._quick_thirds(all_cards)
                if lead_max:
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
            if len(trick) == n:
                winner = trick_winner(self.leader, trick, n)
                pts = sum(POINTS[x] for x in trick)
                draw = self.drawn < len(self.stock)
                if draw:
                    self._draw(winner, 1)
                elif not (hand[0] | hand[1] | hand[2] | hand[3]):
                    pts += self.bonus
                if not self.counted >> winner & 1:
                    pts = 0
                saved_leader, saved_trick = self.leader, trick
                self.leader, self.trick = winner, []
                r, b = self._reach(need - pts)
                b += pts
                if draw:
                    self._draw(winner, -1)
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
