"""What a deal of Mediatore and a deal of club Mediatore share: four seats in playing order,
nine cards each dealt in batches of three from il mano (the seat after the dealer) with the
last four cards of the pack apart (Mediatore's monte, club Mediatore's widow), and the play of
nine tricks in which the called card shows who held it as it falls, the declarer's side
needing 6 points of them (docs/rules.md 3, 6, 7, 10.3).

:class:`NineTricks` is the base of both engines (:class:`~.game.Deal` and
:class:`~mediatore_env.club.game.Session`): each keeps the state in its own slots and takes
the seats and the trick step from here. :class:`NineTricksView` is the base of both seats'
views (:class:`~.view.SeatView` and :class:`~mediatore_env.club.view.ClubView`): the public
facts of a deal that they read alike.
"""

from __future__ import annotations

from typing import ClassVar, NoReturn, Sequence

from ..core.cards import POINTS, to_mask
from ..core.game import CHANCE, Engine, GameView
from ..core.moves import described_move
from ..core.tricks import Trick, trick_winner
from .moves import DISCARD, END, PHASE_NAMES
from .rules import NO_SIGNAL

__all__ = ["HAND_SIZE", "NUM_TRICKS", "WIN_THIRDS", "DISCARDS", "DEAL_ORDER", "deal_order",
           "deal_hands", "discards_left", "NineTricks", "NineTricksView"]

#: The cards dealt to each seat, and the tricks played.
HAND_SIZE = 9
NUM_TRICKS = 9
#: The thirds the declarer's side (club Mediatore: the mediator's) needs to win: 6 points.
WIN_THIRDS = 18

#: The cards dealt apart (Mediatore's monte, club Mediatore's widow): the one who takes them
#: discards as many.
DISCARDS = 4

# The seat receiving each of the first 36 cards of the pack, by dealer (docs/rules.md 3): batches of
# three, il mano (the seat after the dealer) first, in playing order; the last 4 are the monte.
DEAL_ORDER = tuple(tuple((dealer + 1 + i // 3) % 4 for i in range(4 * HAND_SIZE))
                   for dealer in range(4))


def deal_order(dealer: int) -> tuple[int, ...]:
    """The seat that receives each of the first 36 cards of the pack dealt by ``dealer``."""
    return DEAL_ORDER[dealer]


def deal_hands(pack: Sequence[int], dealer: int) -> tuple[list[int], int]:
    """Hands (bitsets by seat) and monte of a pack: batches of three from il mano, then the monte."""
    hands = [0, 0, 0, 0]
    for seat, card in zip(DEAL_ORDER[dealer], pack):
        hands[seat] |= 1 << card
    return hands, to_mask(pack[4 * HAND_SIZE:])


def discards_left(view) -> int:
    """The cards ``view``'s seat has still to discard (a seat's view of either game): those it
    took from apart less those discarded, in the discard phase; 0 in any other."""
    return DISCARDS - view.discards.bit_count() if view.phase == DISCARD else 0


class NineTricks(Engine):
    """An engine of four seats playing nine tricks: its seats, the step of a card played, and
    what it says of an illegal move (the phase it is in)."""

    __slots__ = ()
    #: What one game of the engine is, in its messages: ``"deal"``, ``"session"``.
    UNIT: ClassVar[str]

    dealer: int
    phase: int
    hands: list[int]
    played: int
    trick: list[int]
    leader: int | None
    tricks: list[Trick]
    thirds_won: list[int]
    tricks_won: list[int]
    called_card: int | None
    called_played_by: int | None

    @property
    def players(self) -> int:
        return 4

    @property
    def mano(self) -> int:
        """Il mano: the seat after the dealer, who speaks and leads first."""
        return (self.dealer + 1) % 4

    @property
    def is_over(self) -> bool:
        return self.phase == END

    def _raise_illegal(self, move, waiting: str = "the deal", where: str = "") -> NoReturn:
        """``ValueError`` naming ``move``, and the seat, the phase and the legal moves (or that
        the game is over, or that ``waiting`` needs its pack); ``where`` follows the phase."""
        what = described_move(move, self.NUM_MOVES, self.move_text)
        if self.phase == END:
            raise ValueError(f"illegal move {what}: the {self.UNIT} is over")
        if self.to_move == CHANCE:
            raise ValueError(f"illegal move {what}: {waiting} needs its pack first (deal)")
        legal = ", ".join(f"{self.move_text(m)} ({m})" for m in self.legal_moves())
        raise ValueError(f"illegal move {what} for seat {self.to_move} in phase "
                         f"{PHASE_NAMES[self.phase]}{where}; legal: {legal}")

    def _play_card(self, seat: int, card: int, signal: int = NO_SIGNAL) -> bool:
        """``seat`` plays ``card`` to the trick (``signal``: the trick's, given with its lead).
        At the fourth card the trick's winner takes it, its cards' thirds with it, and leads
        the next; returns whether the trick was finished."""
        self.hands[seat] &= ~(1 << card)
        self.played |= 1 << card
        if card == self.called_card:
            self.called_played_by = seat
        trick = self.trick
        trick.append(card)
        if len(trick) < 4:
            self.to_move = (seat + 1) % 4
            return False
        leader = self.leader
        winner = trick_winner(leader, trick)
        self.tricks.append(Trick(leader, tuple(trick), winner, signal))
        self.thirds_won[winner] += (POINTS[trick[0]] + POINTS[trick[1]] + POINTS[trick[2]]
                                    + POINTS[trick[3]])
        self.tricks_won[winner] += 1
        self.trick = []
        self.leader = self.to_move = winner
        return True


class NineTricksView(GameView):
    """A seat's view of a :class:`NineTricks` engine: the public facts of the deal that
    Mediatore's and club Mediatore's views read alike (and :class:`GameView`'s)."""

    __slots__ = ()

    mano = property(lambda self: self._game.mano)
    phase = property(lambda self: self._game.phase)
    called_card = property(lambda self: self._game.called_card)
    played = property(lambda self: self._game.played)

    @property
    def auction(self) -> tuple[tuple[int, int], ...]:
        """This deal's auction as (seat, move), 0 a pass: Mediatore's bids, club Mediatore's
        choosing of the mediator (accept or pass)."""
        return tuple(self._game.auction)

    @property
    def tricks(self):
        """This deal's finished tricks (leader, cards in playing order, winner, signal)."""
        return tuple(self._game.tricks)

    @property
    def thirds_won(self) -> tuple[int, ...]:
        """Thirds each seat has taken in this deal's tricks (public: every card is seen; the
        last trick's point, the monte or the mediator's discards count once the play ends)."""
        return tuple(self._game.thirds_won)

    @property
    def tricks_won(self) -> tuple[int, ...]:
        return tuple(self._game.tricks_won)
