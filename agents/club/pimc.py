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

import time

from mediatore_env.club.game import Session
from mediatore_env.club.rules import ClubRules
from mediatore_env.club.moves import (ACCEPT, ALONE, AUCTION, CALL, PASS, PLAY, call_move)
from mediatore_env.club.worlds import redeal
from mediatore_env.core.cards import bit
from mediatore_env.mediatore.moves import WIN_THIRDS

from ..search import WorldSearch
from .greedy import ClubGreedyAgent

#: The weight of a thirds' margin against winning the deal (a margin never outweighs a win).
MARGIN_WEIGHT = 0.01

#: What ``bidding`` may be: who decides accept/pass and the call.
BIDDING = ("search", "greedy")


def deal_value(session: Session, seat: int) -> float:
    """What the deal just ended in ``session`` is worth to ``seat`` (module docstring)."""
    result = session.results[-1]
    with_mediator = seat in (result.mediator, result.partner)
    margin = (result.thirds - WIN_THIRDS) * MARGIN_WEIGHT
    won = result.won if with_mediator else not result.won
    return (1.0 if won else -1.0) + (margin if with_mediator else -margin)


def chip_value(session: Session, seat: int) -> float:
    """The chips ``seat`` can expect from the session once the deal just ended: its chips so
    far, plus a quarter of the pot still standing, which some later mediator's side takes (no
    seat favoured over another)."""
    return session.chips[seat] + session.pot / 4


def roll_out(session: Session, policy: ClubGreedyAgent) -> None:
    """Play the current deal of ``session`` to its end with ``policy`` at every seat."""
    deals = len(session.results)
    while len(session.results) == deals:
        session.apply(policy.act(None, session.view(session.to_move)))


class ClubPimcAgent(WorldSearch):
    """PIMC card play with greedy rollouts, and accept/pass and the call searched by chips
    (the module docstring). ``time_limit``: seconds a decision may take (None: exactly
    ``max_worlds`` worlds, reproducible from the seed); ``bidding``: ``'search'`` or
    ``'greedy'`` (greedy's accepting and call); ``bid_margin``: chips by which a searched
    bidding move must beat greedy's choice to replace it; ``calls``: how many of greedy's best
    called cards the search tries besides alone; ``margin``: greedy's accepting margin."""

    name = "pimc"

    def __init__(self, time_limit: float | None = 0.1, min_worlds: int = 4,
                 max_worlds: int = 32, margin: float = -0.1, bidding: str = "search",
                 bid_margin: float = 0.0, calls: int = 2, seed: int | None = None):
        super().__init__(time_limit, min_worlds, max_worlds, seed)
        if bidding not in BIDDING:
            raise ValueError(f"bidding must be one of {', '.join(map(repr, BIDDING))}, "
                             f"got {bidding!r}")
        if isinstance(bid_margin, bool) or not isinstance(bid_margin, (int, float)):
            raise ValueError(f"bid_margin must be a number of chips, got {bid_margin!r}")
        if isinstance(calls, bool) or not isinstance(calls, int) or calls < 1:
            raise ValueError(f"calls must be a whole number of cards, at least 1, got {calls!r}")
        self.greedy = ClubGreedyAgent(margin=margin)
        self.bidding, self.bid_margin, self.calls = bidding, bid_margin, calls

    def act(self, observation, view) -> int:
        phase = view.phase
        if phase == PLAY:
            legal = view.legal_moves()
            return legal[0] if len(legal) == 1 else self.best_move(view, legal)
        choice = self.greedy.act(observation, view)
        if self.bidding == "greedy" or phase not in (AUCTION, CALL):
            return choice
        others = [PASS, ACCEPT] if phase == AUCTION else [ALONE, *self.best_calls(view)]
        return self.best_bid(view, choice, others)

    def best_calls(self, view) -> list[int]:
        """The ``calls`` called cards that add most to the hand (greedy's ranking)."""
        hand, strength = view.hand, self.greedy.calling.strength
        missing = [c for c in range(40) if not hand >> c & 1]
        missing.sort(key=lambda c: -(strength(hand | bit(c)) + 0.001 * (c % 10)))
        return [call_move(c) for c in missing[:self.calls]]

    def best_bid(self, view, choice: int, others: list[int]) -> int:
        """Greedy's ``choice``, or the move of ``others`` whose mean chips over the sampled
        worlds beat it by more than ``bid_margin``."""
        moves = sorted({choice, *others})
        totals = self.chip_totals(view, moves)
        best = max(moves, key=lambda m: (totals[m], -m))
        worlds = self.worlds_searched
        return best if totals[best] - totals[choice] > self.bid_margin * worlds else choice

    def chip_totals(self, view, moves: list[int]) -> dict[int, float]:
        """Each move's chips (:func:`chip_value`) summed over worlds drawn within the budget,
        the rest of the deal played by greedy; sets ``worlds_searched``."""
        start = time.perf_counter()
        totals = dict.fromkeys(moves, 0.0)
        worlds = 0
        while worlds < self.max_worlds:
            if (self.time_limit is not None and worlds >= self.min_worlds
                    and time.perf_counter() - start >= self.time_limit):
                break
            world = self.world(view, self.rng)
            for move in moves:
                trial = world.clone()
                trial.apply(move)
                roll_out(trial, self.greedy)
                totals[move] += chip_value(trial, view.seat)
            worlds += 1
        self.worlds_searched = worlds
        return totals

    def world(self, view, rng) -> Session:
        """The current deal in a sampled world, on a fresh session."""
        pack, moves = redeal(view, rng)
        # The world is the deal's only one: when the real deal is the session's last, so is
        # the world's (the standing pot then goes back rather than on).
        rules = view.rules
        if view.deal_number == rules.max_deals:
            rules = ClubRules(ante=rules.ante, deals=1)
        # The same pack again for the deal after (never played): no shuffling needed.
        world = Session(rules, view.dealer, packs=lambda number, dealer: pack)
        # The real session's chips and pot (public), for the chips a bidding move is worth.
        world.chips, world.stakes = list(view.chips), list(view.stakes)
        for move in moves:
            world.apply(move)
        return world

    def roll_out(self, game: Session) -> None:
        roll_out(game, self.greedy)

    def value(self, game: Session, view) -> float:
        return deal_value(game, view.seat)
