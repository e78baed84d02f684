"""ClubPimcAgent: club Mediatore's card play by Perfect Information Monte Carlo with
greedy-policy rollouts; its accepting, calling and discards are the greedy agent's.

At each card to play with a choice, the agent draws worlds -- packs of the current deal that its
seat cannot tell from the real one -- from the game's own sampler
(:func:`mediatore_env.club.worlds.redeal`, which reads only the seat's view: its hand, the cards
played, the voids, the call, the widow and discards where the seat saw them). In each world it
replays the deal so far on a fresh :class:`~mediatore_env.club.game.Session` and, for every
legal card, plays it and then the rest of the deal with :class:`~.greedy.ClubGreedyAgent` at
every seat. A card's value in a world is +1 when the agent's side (in that world: the mediator
and the partner, or the three defenders) wins the deal, -1 when it loses, plus the side's
thirds above the 18 the mediator's side needs (or below, for the defenders) over 100, which
breaks ties between cards that win or lose alike. The card of best mean value is played (ties:
the lowest move id). The chips a deal moves are the pot's, the same whichever card wins it, so
winning the deal is the objective.

The worlds, the time budget and the paired comparison are :class:`agents.search.WorldSearch`'s
(``time_limit=None`` is reproducible from the seed).

Why the other decisions stay greedy's: the accept, alone and call decisions are taken before
the widow is seen, over the whole deal, where a rollout's value depends on the greedy policy's
play of all nine tricks by every seat; the greedy agent's win-chance models were fitted by
simulation of that same play (agents/club/greedy.py). Not measured against a simulation here.

    >>> from mediatore_env.club.game import Session
    >>> from mediatore_env.club.rules import ClubRules
    >>> from agents.base import play
    >>> import numpy as np
    >>> agents = [ClubPimcAgent(time_limit=None, max_worlds=2) for _ in range(4)]
    >>> session = Session(ClubRules(deals=2), rng=np.random.default_rng(0))
    >>> play(session, agents, seeds=range(4)).is_over
    True
"""

from __future__ import annotations

from mediatore_env.club.game import Session
from mediatore_env.club.moves import PLAY
from mediatore_env.club.worlds import redeal
from mediatore_env.mediatore.moves import WIN_THIRDS

from ..search import WorldSearch
from .greedy import ClubGreedyAgent

#: The weight of a thirds' margin against winning the deal (a margin never outweighs a win).
MARGIN_WEIGHT = 0.01


def deal_value(session: Session, seat: int) -> float:
    """What the deal just ended in ``session`` is worth to ``seat`` (module docstring)."""
    result = session.results[-1]
    with_mediator = seat in (result.mediator, result.partner)
    margin = (result.thirds - WIN_THIRDS) * MARGIN_WEIGHT
    won = result.won if with_mediator else not result.won
    return (1.0 if won else -1.0) + (margin if with_mediator else -margin)


def roll_out(session: Session, policy: ClubGreedyAgent) -> None:
    """Play the current deal of ``session`` to its end with ``policy`` at every seat."""
    deals = len(session.results)
    while len(session.results) == deals:
        session.apply(policy.act(None, session.view(session.to_move)))


class ClubPimcAgent(WorldSearch):
    """PIMC card play with greedy rollouts (the module docstring); greedy elsewhere.
    ``time_limit``: seconds a card decision may take (None: exactly ``max_worlds`` worlds,
    reproducible from the seed); ``margin``: the greedy agent's accepting margin."""

    name = "pimc"

    def __init__(self, time_limit: float | None = 0.1, min_worlds: int = 4,
                 max_worlds: int = 32, margin: float = -0.1, seed: int | None = None):
        super().__init__(time_limit, min_worlds, max_worlds, seed)
        self.greedy = ClubGreedyAgent(margin=margin)

    def act(self, observation, view) -> int:
        legal = view.legal_moves()
        if view.phase != PLAY:
            return self.greedy.act(observation, view)
        if len(legal) == 1:
            return legal[0]
        return self.best_move(view, legal)

    def world(self, view, rng) -> Session:
        """The current deal in a sampled world, on a fresh session."""
        pack, moves = redeal(view, rng)
        # The same pack again for the deal after (never played): no shuffling needed.
        world = Session(view.rules, view.dealer, packs=lambda number, dealer: pack)
        for move in moves:
            world.apply(move)
        return world

    def roll_out(self, game: Session) -> None:
        roll_out(game, self.greedy)

    def value(self, game: Session, view) -> float:
        return deal_value(game, view.seat)
