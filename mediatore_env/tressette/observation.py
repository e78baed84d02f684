"""Tressette observations: what one seat knows of a game to 31, as a flat float32 vector, and
its legal-move mask.

The writer reads a :class:`~mediatore_env.tressette.view.TressetteView` and nothing else, so it
can only write what that seat knows (docs/rules.md 10.1-10.2): its own hand, every card played
and by whom, every declared meld and its cards, the draws it saw, the points::

    >>> from mediatore_env.tressette import FORMS, TressetteGame
    >>> game = TressetteGame(FORMS["tressette"], dealer=3)
    >>> game.deal(list(range(40)))
    >>> obs = observation(game.view(0))
    >>> obs["observation"].shape, int(obs["action_mask"].sum())
    ((2393,), 10)

Everything is seat-relative: the observer is seat 0, relative seat ``r`` is the seat
``(observer + r) % players`` (the ``r``-th to play after it); relative side 0 is the
observer's side (four-handed, side ``r`` holds relative seats ``r`` and ``r + 2``; with three
or two players each seat is its own side). Blocks of 40 are indexed by card id
(``suit * 10 + power``, :mod:`mediatore_env.core.cards`). All values lie in [0, 1].

The current hand is recorded in full, trick by trick (perfect recall): slot ``t`` holds trick
``t + 1``, the trick on the table in the slot it will fill. Earlier hands are kept as their
points and melds, the most recent first, up to ``EARLIER_HANDS`` of them: 5 four- and
two-handed, which is every earlier hand such a game can have (each complete hand gives 11 card
points, so after 5 the 60 points of two sides below 31 are spent: the sixth hand is the
last); 12 three-handed, where the dead hand's points are lost and a game can in principle last
23 hands (the dead hand holds at most 18 of the 32 thirds, so a hand gives the players at
least 4 points, and 23 hands give more than the 90 that three players below 31 can hold),
while random games last 8 on average -- older hands count in the totals only.

Scores are divided by ``SCORE_SCALE`` = 65: a total is below 31 when a hand starts (else the
game had ended) and a hand adds at most 35 (11 card points and 24 of melds, every meld of the
pack), so totals stay below 66.

The layout, for each number of players (:func:`layout_table` prints it; the environments'
pages show their own):

======================  ==============================================================
block (length)          meaning
======================  ==============================================================
rules (6)               one-hot players 4, 3, 2; then low, claim, show_draws (1 only
                        two-handed, where the switch exists)
dealer (n)              the dealer's relative seat
to_move (n)             the relative seat to play (all 0 when none: the game is over)
hand (40)               the observer's cards now
played (40)             every card played this hand (the table included)
trick_cards (T*n*40)    ``(slot * n + r) * 40 + card``: the card relative seat r played to
                        each trick of this hand
trick_leader (T*n)      ``slot * n + r``: who led each trick
trick_winner (T*n)      ``slot * n + r``: who won each finished trick
meld_cards (n*40)       ``r * 40 + card``: the cards relative seat r showed in its melds
meld_kinds (n*10)       ``r * 10 + k``: its melds, k = napoletana of Denari, Coppe, Spade,
                        Bastoni (0-3), three / four Assi (4, 5), 2s (6, 7), 3s (8, 9)
draws (20*40)           two-handed: ``k * 40 + card``, the k-th card drawn from the stock
                        when the observer saw it (drawer: the winner of trick k // 2 for
                        even k, the other for odd k)
stock (1)               two-handed: cards left in the stock / 20
thirds (n)              thirds each relative seat took this hand / 35
hand_points (S)         each relative side's points this hand / 65
totals (S)              each relative side's running total / 65
earlier (H*(1+n+S+n*10))  the earlier hands, most recent first: present (1), dealer (n),
                        points by relative side / 65 (S), melds by relative seat (n * 10,
                        as meld_kinds)
======================  ==============================================================

with ``n`` players, ``S`` sides, ``T`` tricks a hand (10, or 20 two-handed), ``H`` earlier
hands kept; the draws and stock blocks are empty (length 0) but two-handed. Sizes: 2393
four-handed, 2087 three-handed, 2890 two-handed.

Two writers fill this layout, and a test holds them equal at every step of random games of
every form: :func:`write_observation` writes the vector from scratch, plainly (the
reference); the :class:`Encoder` behind the environments keeps one seat's vector in a
preallocated buffer and writes only what happened since it last looked (on a random game,
27 us of CPU a look against the plain writer's 46).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from ..core.cards import NUM_CARDS, SUIT_MASKS, SUIT_OF, SUITS, TOTAL_THIRDS, highest
from ..core.game import CHANCE
from ..core.tricks import plays_and_voids, tricks_so_far
from .melds import NAPOLETANA
from ..codec import actions
from ..codec.layout import block_offsets, markdown_table
from .moves import NUM_MOVES
from .rules import FORMS, TressetteRules

__all__ = ["EARLIER_HANDS", "SCORE_SCALE", "MELD_FLAGS", "Layout", "layout_of", "layout_table",
           "rules_vector", "write_observation", "Encoder", "action_mask", "observation"]

EARLIER_HANDS = {4: 5, 3: 12, 2: 5}
SCORE_SCALE = 65
MELD_FLAGS = 10  # napoletana by suit (4), then three / four of Assi, 2s, 3s (6)
DRAWS = FORMS["tressette2"].stock_size  # the two-handed stock


def meld_flag(meld) -> int:
    """The index of a meld in a ``meld_kinds`` block (see the table above)."""
    if meld.kind == NAPOLETANA:
        return SUIT_OF[highest(meld.cards)]  # a napoletana's cards share their suit
    return 4 + 2 * (meld.kind - 1) + (meld.cards.bit_count() == 4)


class Layout:
    """Where each block of one form's observation lies: ``blocks`` as (name, length,
    meaning), ``offsets`` and ``sizes`` by name, ``size`` in all."""

    def __init__(self, rules: TressetteRules):
        n, sides, tricks = rules.players, rules.num_sides, rules.num_tricks
        earlier = EARLIER_HANDS[n]
        draws = DRAWS * NUM_CARDS if n == 2 else 0
        self.players, self.sides, self.tricks, self.earlier = n, sides, tricks, earlier
        self.hand_len = 1 + n + sides + n * MELD_FLAGS  # one earlier hand
        self.blocks: tuple[tuple[str, int, str], ...] = (
            ("rules", 6, "one-hot players 4, 3, 2; then low, claim, show_draws (1 only "
             "two-handed, where the switch exists)"),
            ("dealer", n, "the dealer's relative seat"),
            ("to_move", n, "the relative seat to play (all 0 when none: the game is over)"),
            ("hand", NUM_CARDS, "the observer's cards now"),
            ("played", NUM_CARDS, "every card played this hand (the table included)"),
            ("trick_cards", tricks * n * NUM_CARDS,
             f"`(slot * {n} + r) * 40 + card`: the card relative seat r played to each "
             f"trick of this hand ({tricks} slots, the table's trick in its slot)"),
            ("trick_leader", tricks * n, f"`slot * {n} + r`: who led each trick"),
            ("trick_winner", tricks * n, f"`slot * {n} + r`: who won each finished trick"),
            ("table", n * NUM_CARDS, "`r * 40 + card`: the trick in play, the card relative "
             "seat r played to it (trick_cards' slot in play, where a network need not look "
             "for it; all 0 between tricks)"),
            ("shown_out", n * len(SUITS), "`r * 4 + suit`: relative seat r did not follow the suit "
             "led to a trick of this hand, so holds none of it (two-handed: a trick since its "
             "last draw from the stock)"),
            ("meld_cards", n * NUM_CARDS, "`r * 40 + card`: the cards relative seat r showed "
             "in its melds this hand"),
            ("meld_kinds", n * MELD_FLAGS, "`r * 10 + k`: its melds, k = napoletana of Denari, "
             "Coppe, Spade, Bastoni (0-3), three / four Assi (4, 5), 2s (6, 7), 3s (8, 9)"),
            ("draws", draws, "`k * 40 + card`: the k-th card drawn from the stock, when the "
             "observer saw it (drawn by the winner of trick k // 2 for even k, the other for odd)"),
            ("stock", 1 if n == 2 else 0, f"cards left in the stock / {DRAWS}"),
            ("thirds", n, f"thirds each relative seat took this hand / {TOTAL_THIRDS}"),
            ("hand_points", sides, f"each relative side's points this hand / {SCORE_SCALE}"),
            ("totals", sides, f"each relative side's running total / {SCORE_SCALE}"),
            ("earlier", earlier * self.hand_len, f"the {earlier} most recent earlier hands, the "
             f"last first, {self.hand_len} each: present (1), dealer ({n}), points by relative "
             f"side / {SCORE_SCALE} ({sides}), melds by relative seat ({n} * 10, as meld_kinds)"),
        )
        self.offsets, self.sizes, self.size = block_offsets(self.blocks)

    def table(self) -> str:
        """The layout as a Markdown table (offset, length, block, meaning), without the blocks
        that are empty in this form (the draws and the stock but two-handed)."""
        return markdown_table([block for block in self.blocks if block[1]])


@lru_cache(maxsize=None)
def _layout(players: int) -> Layout:
    return Layout(TressetteRules(players=players))


def layout_of(rules_or_players) -> Layout:
    """The layout of a form: given its rules or its number of players."""
    players = getattr(rules_or_players, "players", rules_or_players)
    return _layout(players)


def layout_table(rules_or_players) -> str:
    return layout_of(rules_or_players).table()


def write_observation(view, out: np.ndarray | None = None) -> np.ndarray:
    """The observation vector of ``view``'s seat, written into ``out`` (a float32 array of the
    layout's size, overwritten) or a new array."""
    rules = view.rules
    lay = layout_of(rules)
    if out is None:
        out = np.zeros(lay.size, np.float32)
    else:
        out[:] = 0
    n, me, off = lay.players, view.seat, lay.offsets
    ones = []  # the indices set to 1, written at once: one numpy call instead of hundreds
    put = ones.append

    _rules_ones(put, lay, rules)
    _dealer_turn_hand(put, off, n, me, view)

    cards_at, leader_at, winner_at = off["trick_cards"], off["trick_leader"], off["trick_winner"]
    played = off["played"]
    slot = -1
    for slot, trick in enumerate(view.tricks):
        leader = (trick.leader - me) % n
        _trick(put, cards_at, leader_at, slot, n, leader, trick.cards, played)
        put(winner_at + slot * n + (trick.winner - me) % n)
    if view.trick:
        leader = (view.leader - me) % n
        _trick(put, cards_at, leader_at, slot + 1, n, leader, view.trick, played)
        _table(put, off["table"], n, leader, view.trick)
    _shown_out(put, off["shown_out"], n, me, tricks_so_far(view)[_since_draw(view):])

    for seat, meld in view.melds:
        r = (seat - me) % n
        _cards(put, off["meld_cards"] + r * NUM_CARDS, meld.cards)
        put(off["meld_kinds"] + r * MELD_FLAGS + meld_flag(meld))
    if n == 2:
        for k, (_, card) in enumerate(view.draws):
            if card is not None:
                put(off["draws"] + k * NUM_CARDS + card)
        out[off["stock"]] = view.stock_size / DRAWS

    # The earlier hands: every hand but the one being played (or, between hands and at the
    # end, the last one: its points and melds are in the blocks above).
    _earlier(put, out, lay, view, me)
    out[ones] = 1
    _scores(out, lay, view, me)
    return out


def _dealer_turn_hand(put, off, n, me, view) -> None:
    """The dealer, to_move and hand blocks (the blocks that change in place but the scores)."""
    put(off["dealer"] + (view.dealer - me) % n)
    if view.to_move is not None and view.to_move != CHANCE:
        put(off["to_move"] + (view.to_move - me) % n)
    _cards(put, off["hand"], view.hand)


def _cards(put, at: int, mask: int) -> None:
    while mask:
        low = mask & -mask
        put(at + low.bit_length() - 1)
        mask ^= low


def _since_draw(view) -> int:
    """The first trick of the hand whose play tells what a seat holds now: two-handed, the
    first since the last draw from the stock (a draw can bring back a suit), else the first."""
    return len(view.draws) // 2 if view.rules.players == 2 else 0


def _table(put, at, n, leader, cards) -> None:
    for k, card in enumerate(cards):
        put(at + (leader + k) % n * NUM_CARDS + card)


def _shown_out(put, at, n, me, tricks) -> None:
    """The shown_out flags of ``tricks`` (``(leader, cards)``): the voids they show
    (:func:`~mediatore_env.core.tricks.plays_and_voids`), by seat relative to ``me`` and suit."""
    for seat, void in enumerate(plays_and_voids(tricks, n)[1]):
        for suit in SUITS:
            if void & SUIT_MASKS[suit]:
                put(at + (seat - me) % n * len(SUITS) + suit)


def _trick(put, cards_at, leader_at, slot, n, leader, cards, played) -> None:
    put(leader_at + slot * n + leader)
    for k, card in enumerate(cards):
        put(cards_at + (slot * n + (leader + k) % n) * NUM_CARDS + card)
        put(played + card)


class Encoder:
    """One seat's observation kept up to date in a preallocated buffer: each call writes only
    what happened since the last (new cards played, melds, draws; the earlier hands once a
    hand), and rewrites the few small blocks that change in place (hand, turn, scores). The
    same vector as :func:`write_observation`, which a test holds it equal to at every step.

    An encoder follows one game: make a new one (or call :meth:`reset`) for the next game."""

    def __init__(self, rules: TressetteRules, seat: int):
        self.layout = layout_of(rules)
        self.seat = seat
        self.array = np.zeros(self.layout.size, np.float32)
        self.reset()

    def reset(self) -> None:
        """Forget the game: the next :meth:`encode` writes everything."""
        self._hand_number = -1
        self._tricks = self._table = self._melds = self._draws = 0

    def _new_hand(self, view) -> None:
        """A new hand (or the first look at a game): clear the vector, write the rules and the
        earlier hands."""
        lay, out = self.layout, self.array
        out[:] = 0
        ones: list[int] = []
        _rules_ones(ones.append, lay, view.rules)
        _earlier(ones.append, out, lay, view, self.seat)
        out[ones] = 1
        self._hand_number = view.hand_number
        self._tricks = self._table = self._melds = self._draws = 0

    def encode(self, view) -> np.ndarray:
        """The vector of ``view`` (of this encoder's seat) now: the encoder's own buffer, to
        be copied by a caller that keeps it."""
        if view.hand_number != self._hand_number:
            self._new_hand(view)
        lay, out, me = self.layout, self.array, self.seat
        off, n = lay.offsets, lay.players
        ones: list[int] = []
        put = ones.append
        cards_at, leader_at = off["trick_cards"], off["trick_leader"]
        winner_at, played = off["trick_winner"], off["played"]
        shown_out, first = off["shown_out"], _since_draw(view)
        if n == 2 and len(view.draws) != self._draws:  # a draw: what was shown out may be back
            out[shown_out:shown_out + n * len(SUITS)] = 0
        tricks = view.tricks
        # The tricks with cards new since the last call that tell what a seat holds now; the
        # flags of their cards seen before are set again, which changes nothing.
        new = [(t.leader, t.cards) for t in tricks[max(self._tricks, first):]]
        for slot in range(self._tricks, len(tricks)):
            trick = tricks[slot]
            leader = (trick.leader - me) % n
            skip = self._table if slot == self._tricks else 0  # cards written from the table
            put(leader_at + slot * n + leader)
            for k in range(skip, len(trick.cards)):
                card = trick.cards[k]
                put(cards_at + (slot * n + (leader + k) % n) * NUM_CARDS + card)
                put(played + card)
            put(winner_at + slot * n + (trick.winner - me) % n)
            self._table = 0
        self._tricks = slot = len(tricks)
        table = view.trick
        out[off["table"]:off["table"] + n * NUM_CARDS] = 0
        if table:
            leader = (view.leader - me) % n
            _table(put, off["table"], n, leader, table)
            if len(table) > self._table:
                put(leader_at + slot * n + leader)
                for k in range(self._table, len(table)):
                    put(cards_at + (slot * n + (leader + k) % n) * NUM_CARDS + table[k])
                    put(played + table[k])
                new.append((view.leader, tuple(table)))
                self._table = len(table)
        _shown_out(put, shown_out, n, me, new)
        melds = view.melds
        for seat, meld in melds[self._melds:]:
            r = (seat - me) % n
            _cards(put, off["meld_cards"] + r * NUM_CARDS, meld.cards)
            put(off["meld_kinds"] + r * MELD_FLAGS + meld_flag(meld))
        self._melds = len(melds)
        if n == 2:
            draws = view.draws
            for k in range(self._draws, len(draws)):
                card = draws[k][1]
                if card is not None:
                    put(off["draws"] + k * NUM_CARDS + card)
            self._draws = len(draws)
            out[off["stock"]] = view.stock_size / DRAWS
        # The blocks that change in place: dealer, turn, hand, scores.
        out[off["dealer"]:off["dealer"] + 2 * n + NUM_CARDS] = 0  # dealer, to_move, hand
        _dealer_turn_hand(put, off, n, me, view)
        out[ones] = 1
        _scores(out, lay, view, me)
        return out


def rules_vector(rules: TressetteRules) -> np.ndarray:
    """The rules block: the players (4, 3, 2) one-hot, then Low Hand, claims and, two-handed,
    the draws shown (the JAX engine writes it from here too)."""
    block = np.zeros(6, np.float32)
    block[(4, 3, 2).index(rules.players)] = 1
    block[3:] = rules.low, rules.claim, rules.players == 2 and rules.show_draws
    return block


def _rules_ones(put, lay: Layout, rules: TressetteRules) -> None:
    at = lay.offsets["rules"]
    for i in np.flatnonzero(rules_vector(rules)):
        put(at + int(i))


def _earlier(put, out: np.ndarray, lay: Layout, view, me: int) -> None:
    """The earlier hands block (the hands before the current or last one, most recent first)."""
    n, num_sides, my_side = lay.players, lay.sides, view.side
    for i, (dealer, points, melds) in enumerate(view.earlier_hands()[:lay.earlier]):
        at = lay.offsets["earlier"] + i * lay.hand_len
        put(at)
        put(at + 1 + (dealer - me) % n)
        for side, p in enumerate(points):
            out[at + 1 + n + (side - my_side) % num_sides] = p / SCORE_SCALE
        for seat, meld in melds:
            put(at + 1 + n + num_sides + (seat - me) % n * MELD_FLAGS + meld_flag(meld))


def _scores(out: np.ndarray, lay: Layout, view, me: int) -> None:
    """The thirds, hand points and totals blocks (every value rewritten)."""
    off, n, num_sides, my_side = lay.offsets, lay.players, lay.sides, view.side
    for seat, thirds in enumerate(view.thirds):
        out[off["thirds"] + (seat - me) % n] = thirds / TOTAL_THIRDS
    for side, points in enumerate(view.hand_points):
        out[off["hand_points"] + (side - my_side) % num_sides] = points / SCORE_SCALE
    for side, total in enumerate(view.totals):
        out[off["totals"] + (side - my_side) % num_sides] = total / SCORE_SCALE


def action_mask(view) -> np.ndarray:
    """The legal-move mask of ``view``'s seat: :func:`~mediatore_env.codec.actions.action_mask`
    of the game's ``NUM_MOVES`` (41) moves."""
    return actions.action_mask(view, NUM_MOVES)


def observation(view) -> dict:
    """``{"observation": float32 vector, "action_mask": int8[41]}`` of ``view``'s seat."""
    return {"observation": write_observation(view), "action_mask": action_mask(view)}
