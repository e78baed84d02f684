"""The rules of a Tressette table (docs/rules.md 10.1-10.2): the form, its switches, the sides,
and the outcome of a game.

``TressetteRules()`` is Partnership Tressette (4 players, 0 and 2 against 1 and 3). The three
forms of the chapter are named in :data:`FORMS`; the switches change what their variant says::

    >>> TressetteRules(players=3).num_sides, TressetteRules().side_of(2)
    (3, 0)
    >>> FORMS["tressette2"].num_tricks
    20
    >>> TressetteRules(players=5)
    Traceback (most recent call last):
    ...
    ValueError: bad value 5 for rules switch 'players'; valid: 4, 3, 2

Every number of the scoring lives here: the target of 31 (:data:`TARGET`), the hand score
(:func:`score_of_thirds`), and what each player gets when the game ends (:func:`outcome`,
:func:`false_claim_outcome`).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core.cards import NUM_CARDS
from ..core.rules import RulesBase

TARGET = 31  # points that win (or, Low Hand, end) the game
HAND_SIZE = 10  # cards dealt to each player
BATCH = 5  # cards dealt at a time
LAST_TRICK_POINTS = 1

# Every switch and its valid values, the default first.
SWITCHES = {
    "players": (4, 3, 2),
    "low": (False, True),
    "claim": (False, True),
    "show_draws": (True, False),
}


@dataclass(frozen=True, slots=True)
class TressetteRules(RulesBase):
    """The switches of one Tressette table. Immutable and hashable; build variants with
    :meth:`replace`.

    - ``players``: 4 (Partnership Tressette), 3 (Three-Handed, with a dead hand) or 2
      (Two-Handed, with a stock);
    - ``low``: Low Hand, the lower total wins when the game ends;
    - ``claim``: reaching 31 does not end the game; a claim (a move) does, a false claim
      losing, or else the end of a hand played out after a side reached 31;
    - ``show_draws``: two-handed only, each card drawn from the stock is shown to both.
    """

    SWITCHES = SWITCHES
    GAME = "Tressette"

    players: int = 4
    low: bool = False
    claim: bool = False
    show_draws: bool = True

    def check(self) -> None:
        if not self.show_draws and self.players != 2:
            raise ValueError("show_draws=False applies only to the two-handed game (players=2); "
                             f"got players={self.players}")

    # -- what the switches mean ----------------------------------------------------------

    @property
    def form(self) -> str:
        """The form's name in :data:`FORMS`: ``'tressette'``, ``'tressette3'`` or
        ``'tressette2'``."""
        return FORM_OF_PLAYERS[self.players]

    @property
    def sides(self) -> tuple[tuple[int, ...], ...]:
        """The seats of each side: seats 0 and 2 against 1 and 3 at four players; with fewer
        players each seat is its own side."""
        return SEATS_OF_SIDE[self.players]

    @property
    def num_sides(self) -> int:
        """Sides scoring together: 2 partnerships of 2 at four players, else one per player."""
        return len(self.sides)

    def side_of(self, seat: int) -> int:
        """The side of ``seat`` (see :attr:`sides`)."""
        return SIDE_OF_SEAT[self.players][seat]

    @property
    def stock_size(self) -> int:
        """Cards of the two-handed stock: the pack less the two hands (0 in the other forms)."""
        return NUM_CARDS - 2 * HAND_SIZE if self.players == 2 else 0

    @property
    def num_tricks(self) -> int:
        """Tricks in a hand: one per card in hand, and two-handed one more per two cards drawn
        (the three-handed dead hand never plays)."""
        return HAND_SIZE + self.stock_size // 2

    @property
    def has_dead_hand(self) -> bool:
        return self.players == 3


FORMS = {
    "tressette": TressetteRules(players=4),
    "tressette3": TressetteRules(players=3),
    "tressette2": TressetteRules(players=2),
}
FORM_OF_PLAYERS = {rules.players: name for name, rules in FORMS.items()}
# By the number of players, the seats of each side (docs/rules.md 10.1-10.2), and the side of
# each seat.
SEATS_OF_SIDE = {4: ((0, 2), (1, 3)), 3: ((0,), (1,), (2,)), 2: ((0,), (1,))}
SIDE_OF_SEAT = {players: tuple(side for seat in range(players)
                               for side, seats in enumerate(sides) if seat in seats)
                for players, sides in SEATS_OF_SIDE.items()}


def score_of_thirds(thirds: int) -> int:
    """Points of the cards taken: thirds of a point rounded down (docs/rules.md 10.1)."""
    return thirds // 3


# -- the outcome (docs/rules.md 10.1, 10.2) ----------------------------------------------------

def _per_seat(rules: TressetteRules, by_side: list[int]) -> tuple[int, ...]:
    return tuple(by_side[rules.side_of(seat)] for seat in range(rules.players))


def _side_wins(rules: TressetteRules, winner: int) -> tuple[int, ...]:
    """One side wins, the others lose: +1/-1 between two sides, +2/-1/-1 among three."""
    n = rules.num_sides
    return _per_seat(rules, [n - 1 if side == winner else -1 for side in range(n)])


def outcome(rules: TressetteRules, totals, ender: int) -> tuple[int, ...]:
    """Each seat's outcome of a game ended by side ``ender`` (it reached 31, or claimed with
    31 or more, or was first to 31 when a hand ended unclaimed), the sides' ``totals`` then.
    Zero-sum.

    Normally ``ender`` wins. In Low Hand the lowest total wins; a tie is broken against
    ``ender`` (the side that reached 31 never wins a tie), and when two of three players still
    tie for lowest they each get +1 and the third -2 (docs/rules.md 10.2)."""
    if not rules.low:
        return _side_wins(rules, ender)
    lowest = min(totals)
    best = [side for side in range(rules.num_sides) if totals[side] == lowest]
    if len(best) > 1 and ender in best:
        best.remove(ender)
    if len(best) == 1:
        return _side_wins(rules, best[0])
    # Three-handed, two players tie for lowest: each +1, the other -2.
    return _per_seat(rules, [1 if side in best else -2 for side in range(rules.num_sides)])


def false_claim_outcome(rules: TressetteRules, claimant_side: int) -> tuple[int, ...]:
    """A claim with less than 31 loses the game: -1 to the claimant's side and +1 to the
    other; three-handed -2 to the claimant, +1 to each other player. Zero-sum."""
    n = rules.num_sides
    return _per_seat(rules, [1 - n if side == claimant_side else 1 for side in range(n)])
