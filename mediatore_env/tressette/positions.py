"""A Tressette hand in play as a double-dummy
:class:`~mediatore_env.analysis.solver.TablePosition`.

The solver sees every card; a game of :mod:`mediatore_env.tressette.game` holds every card
too -- the real one, or a world a seat has drawn from its sampler
(:func:`mediatore_env.tressette.worlds.redeal`) -- so the position is read off the game:
its hands, the trick in progress and its leader, the stock still to be drawn (two-handed)
and the thirds the side has taken in this hand. Three-handed, the dead hand is out of play
and simply absent. A side is a partnership at four players; with fewer, each player plays
alone, and the position is searched as that seat against a coalition of the others (the
"paranoid" reduction, docs/solver.md).

Melds do not enter: they are declared after the first trick from the hands as dealt, so no
card played changes them. Nor does the end of the game at 31 in the middle of a hand: the
solver values the hand's thirds, as the PIMC agents' rollouts do.

    >>> from mediatore_env.tressette.game import TressetteGame
    >>> from mediatore_env.tressette.rules import TressetteRules
    >>> game = TressetteGame(TressetteRules(players=2), dealer=1)
    >>> game.deal(list(range(40)))
    >>> pos = table_of(game, 0)
    >>> len(pos.hands), pos.side, len(pos.stock), pos.bonus
    (2, 1, 20, 3)
"""

from __future__ import annotations

from ..analysis.solver import TablePosition
from .game import TressetteGame
from .rules import LAST_TRICK_POINTS

__all__ = ["table_of"]


def table_of(game: TressetteGame, seat: int) -> TablePosition:
    """The current hand of ``game`` seen double dummy for the side of ``seat``: its seats
    are the position's side (one seat when each plays alone), with the thirds they have
    taken in this hand; the last trick carries its point (3 thirds). Low Hand is the
    rules' ``low``. Raises ``ValueError`` when no hand is in play."""
    if game.is_over or game.needs_pack or game.to_move is None:
        raise ValueError("no hand is in play: the game is over or waits for a pack (deal)")
    rules, log = game.rules, game.log[-1]
    if not 0 <= seat < rules.players:
        raise ValueError(f"bad seat {seat!r}; valid: 0..{rules.players - 1}")
    seats = rules.sides[rules.side_of(seat)]
    return TablePosition(
        hands=tuple(game.hands), leader=game.leader, trick=tuple(game.trick),
        side=sum(1 << s for s in seats), taken=sum(log.thirds[s] for s in seats),
        low=rules.low, stock=game.stock, bonus=3 * LAST_TRICK_POINTS)
