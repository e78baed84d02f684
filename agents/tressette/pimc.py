"""TressettePimcAgent: Perfect Information Monte Carlo with greedy-policy rollouts, for every
form of Tressette (four-handed partnerships, three-handed, two-handed) and the ``low`` and
``claim`` switches.

At each card to play with a choice, the agent draws worlds -- packs of the current hand that
its seat cannot tell from the real one -- from the game's own sampler
(:func:`mediatore_env.tressette.worlds.redeal`, which reads only the seat's view: its cards,
the cards played, the voids shown, the melds declared, the draws seen). In each world it
replays the hand so far on a fresh :class:`~mediatore_env.tressette.game.TressetteGame`, and
for every legal card plays that card and then the rest of the hand with
:class:`~.greedy.TressetteGreedyAgent` at every seat (the world's hands in full view of the
rollout, which is the "perfect information" of PIMC). A card's value in a world is the hand's
points of the agent's side less the mean of the other sides', counted in thirds (melds and the
last trick three thirds a point) so that the rounding down of thirds does not hide a
difference; in Low Hand the value is negated. The card of best mean value over the worlds is
played (ties: the lowest card id).

The worlds, the time budget and the paired comparison are :class:`agents.search.WorldSearch`'s
(``time_limit``, ``min_worlds``, ``max_worlds``; ``time_limit=None`` is reproducible from the
seed).

Why rollouts and not an exact double-dummy search: a rollout of a full hand with the greedy
policy costs a few milliseconds in Python, and the issue's budget is 100 ms a decision (see
docs/search.md for the measured times); an exact search of ten tricks in Python does not fit
that budget early in a hand.

The claim (switch ``claim``) is decided as the greedy agent decides it: whether a claim wins
depends only on the totals, which every seat sees, so no world is needed.

    >>> from mediatore_env.tressette.game import TressetteGame
    >>> from agents.base import play
    >>> agents = [TressettePimcAgent(time_limit=None, max_worlds=2) for _ in range(4)]
    >>> play(TressetteGame(), agents, packs=lambda k: list(range(40)), seeds=range(4)).is_over
    True
"""

from __future__ import annotations

from mediatore_env.tressette.game import TressetteGame
from mediatore_env.tressette.moves import CLAIM
from mediatore_env.tressette.rules import LAST_TRICK_POINTS
from mediatore_env.tressette.worlds import redeal

from ..search import WorldSearch
from .greedy import TressetteGreedyAgent

#: The rollout policy, stateless and deterministic: one instance serves every seat.
_GREEDY = TressetteGreedyAgent()


def side_thirds(game: TressetteGame, side: int) -> int:
    """The thirds ``side`` holds in the current hand of ``game``: its cards' thirds, its
    melds and the last trick (each point counted as three thirds)."""
    rules, log = game.rules, game.log[-1]
    last = log.last_winner is not None and rules.side_of(log.last_winner) == side
    return (3 * log.meld_points[side] + sum(log.thirds[s] for s in rules.sides[side])
            + 3 * LAST_TRICK_POINTS * last)


def hand_value(game: TressetteGame, side: int) -> float:
    """What the hand played in ``game`` is worth to ``side``: its thirds less the mean of the
    other sides' (negated in Low Hand, where fewer points are better)."""
    sides = game.rules.num_sides
    mine = side_thirds(game, side)
    others = sum(side_thirds(game, s) for s in range(sides) if s != side) / (sides - 1)
    return (others - mine) if game.rules.low else (mine - others)


def roll_out(game: TressetteGame) -> None:
    """Play the current hand of ``game`` to its end with the greedy policy at every seat."""
    hand = game.hand_number
    while not game.is_over and not game.needs_pack and game.hand_number == hand:
        seat = game.to_move
        game.apply(_GREEDY.act(None, game.view(seat)))


class TressettePimcAgent(WorldSearch):
    """PIMC with greedy rollouts (the module docstring). ``time_limit``: seconds a decision
    may take (None: exactly ``max_worlds`` worlds, reproducible from the seed)."""

    name = "pimc"

    def act(self, observation, view) -> int:
        legal = view.legal_moves()
        if CLAIM in legal:
            if _GREEDY.claim_wins(view):
                return CLAIM
            legal = [m for m in legal if m != CLAIM]
        if len(legal) == 1:
            return legal[0]
        return self.best_move(view, legal)

    def world(self, view, rng) -> TressetteGame:
        """The current hand in a sampled world, alone (a fresh game) and without claims (the
        claim is decided apart)."""
        pack, moves = redeal(view, rng)
        world = TressetteGame(view.rules.replace(claim=False), view.hands_played[-1]["dealer"])
        world.deal(pack)
        for move in moves:
            world.apply(move)
        return world

    def roll_out(self, game: TressetteGame) -> None:
        roll_out(game)

    def value(self, game: TressetteGame, view) -> float:
        return hand_value(game, view.side)
