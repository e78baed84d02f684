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
    ((2217,), 10)

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
30 hands (random games last 8 on average) -- older hands count in the totals only.

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
hands kept; the draws and stock blocks are empty (length 0) but two-handed. Sizes: 2217
four-handed, 1955 three-handed, 2802 two-handed.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from ..core.cards import NUM_CARDS, SUIT_OF, TOTAL_THIRDS
from ..tressette.melds import NAPOLETANA
from ..tressette.moves import NUM_MOVES
from ..tressette.rules import FORMS, TressetteRules

__all__ = ["EARLIER_HANDS", "SCORE_SCALE", "MELD_FLAGS", "Layout", "layout_of", "layout_table",
           "write_observation", "action_mask", "observation"]

EARLIER_HANDS = {4: 5, 3: 12, 2: 5}
SCORE_SCALE = 65
MELD_FLAGS = 10  # napoletana by suit (4), then three / four of Assi, 2s, 3s (6)
DRAWS = 20  # the two-handed stock


def meld_flag(meld) -> int:
    """The index of a meld in a ``meld_kinds`` block (see the table above)."""
    if meld.kind == NAPOLETANA:
        return SUIT_OF[(meld.cards & -meld.cards).bit_length() - 1]
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
            ("meld_cards", n * NUM_CARDS, "`r * 40 + card`: the cards relative seat r showed "
             "in its melds this hand"),
            ("meld_kinds", n * MELD_FLAGS, "`r * 10 + k`: its melds, k = napoletana of Denari, "
             "Coppe, Spade, Bastoni (0-3), three / four Assi (4, 5), 2s (6, 7), 3s (8, 9)"),
            ("draws", draws, "`k * 40 + card`: the k-th card drawn from the stock, when the "
             "observer saw it (drawn by the winner of trick k // 2 for even k, the other for odd)"),
            ("stock", 1 if n == 2 else 0, "cards left in the stock / 20"),
            ("thirds", n, f"thirds each relative seat took this hand / {TOTAL_THIRDS}"),
            ("hand_points", sides, f"each relative side's points this hand / {SCORE_SCALE}"),
            ("totals", sides, f"each relative side's running total / {SCORE_SCALE}"),
            ("earlier", earlier * self.hand_len, f"the {earlier} most recent earlier hands, the "
             f"last first, {self.hand_len} each: present (1), dealer ({n}), points by relative "
             f"side / {SCORE_SCALE} ({sides}), melds by relative seat ({n} * 10, as meld_kinds)"),
        )
        self.offsets: dict[str, int] = {}
        self.sizes: dict[str, int] = {}
        offset = 0
        for name, length, _ in self.blocks:
            self.offsets[name], self.sizes[name] = offset, length
            offset += length
        self.size = offset

    def table(self) -> str:
        """The layout as a Markdown table (offset, length, block, meaning)."""
        rows = ["| offset | length | block | meaning |", "|---:|---:|---|---|"]
        rows += [f"| {self.offsets[name]} | {length} | `{name}` | {meaning} |"
                 for name, length, meaning in self.blocks if length]
        return "\n".join(rows)


@lru_cache(maxsize=None)
def _layout(players: int) -> Layout:
    return Layout(FORMS[{4: "tressette", 3: "tressette3", 2: "tressette2"}[players]])


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
    my_side = view.side

    def rel(seat):
        return (seat - me) % n

    def rel_side(side):
        return (side - my_side) % lay.sides

    out[off["rules"] + (4, 3, 2).index(n)] = 1
    out[off["rules"] + 3] = rules.low
    out[off["rules"] + 4] = rules.claim
    out[off["rules"] + 5] = n == 2 and rules.show_draws
    out[off["dealer"] + rel(view.dealer)] = 1
    if view.current_player is not None:
        out[off["to_move"] + rel(view.current_player)] = 1
    _cards(out, off["hand"], view.hand)

    tricks = list(view.tricks)
    cards_at, leader_at, winner_at = off["trick_cards"], off["trick_leader"], off["trick_winner"]
    played = off["played"]
    for slot, trick in enumerate(tricks):
        _trick(out, cards_at, leader_at, slot, n, rel(trick.leader), trick.cards, played)
        out[winner_at + slot * n + rel(trick.winner)] = 1
    if view.trick:
        _trick(out, cards_at, leader_at, len(tricks), n, rel(view.leader), view.trick, played)

    for seat, meld in view.melds:
        r = rel(seat)
        _cards(out, off["meld_cards"] + r * NUM_CARDS, meld.cards)
        out[off["meld_kinds"] + r * MELD_FLAGS + meld_flag(meld)] = 1
    if n == 2:
        for k, (_, card) in enumerate(view.draws):
            if card is not None:
                out[off["draws"] + k * NUM_CARDS + card] = 1
        out[off["stock"]] = view.stock_size / DRAWS
    for seat, thirds in enumerate(view.thirds):
        out[off["thirds"] + rel(seat)] = thirds / TOTAL_THIRDS
    for side, points in enumerate(view.hand_points):
        out[off["hand_points"] + rel_side(side)] = points / SCORE_SCALE
    for side, total in enumerate(view.totals):
        out[off["totals"] + rel_side(side)] = total / SCORE_SCALE

    hands = view.hands_played
    # The earlier hands: every hand but the one being played (or, between hands and at the
    # end, the last one: its points and melds are in the blocks above).
    earlier = hands[:-1][::-1][:lay.earlier]
    for i, hand in enumerate(earlier):
        at = off["earlier"] + i * lay.hand_len
        out[at] = 1
        out[at + 1 + rel(hand["dealer"])] = 1
        for side, points in enumerate(hand["points"]):
            out[at + 1 + n + rel_side(side)] = points / SCORE_SCALE
        for seat, meld in hand["melds"]:
            out[at + 1 + n + lay.sides + rel(seat) * MELD_FLAGS + meld_flag(meld)] = 1
    return out


def _cards(out: np.ndarray, at: int, mask: int) -> None:
    while mask:
        low = mask & -mask
        out[at + low.bit_length() - 1] = 1
        mask ^= low


def _trick(out, cards_at, leader_at, slot, n, leader, cards, played) -> None:
    out[leader_at + slot * n + leader] = 1
    for k, card in enumerate(cards):
        r = (leader + k) % n
        out[cards_at + (slot * n + r) * NUM_CARDS + card] = 1
        out[played + card] = 1


def action_mask(view) -> np.ndarray:
    """The legal-move mask of ``view``'s seat: int8 of length 41, all 0 when it is not the
    seat to move."""
    mask = np.zeros(NUM_MOVES, np.int8)
    mask[view.legal_moves()] = 1
    return mask


def observation(view) -> dict:
    """``{"observation": float32 vector, "action_mask": int8[41]}`` of ``view``'s seat."""
    return {"observation": write_observation(view), "action_mask": action_mask(view)}
