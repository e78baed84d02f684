"""ClubPimcAgent: club Mediatore by Perfect Information Monte Carlo with greedy-policy
rollouts: its card play, and its accept/pass and call valued in chips; its discards are the
greedy agent's.

**Worlds.** At each decision it searches, the agent draws worlds -- packs of the current deal
that its seat cannot tell from the real one -- from the game's own sampler
(:func:`mediatore_env.club.worlds.redeal`, which reads only the seat's view: its hand, the cards
played, the voids, the call, the widow and discards where the seat saw them). In each world it
replays the deal so far on a fresh :class:`~mediatore_env.club.game.Session` holding the real
session's chips and pot (they are public), tries every candidate move, and plays the rest of the
deal with :class:`~.greedy.ClubGreedyAgent` at every seat. Every candidate is scored on the same
worlds (a paired comparison): ``max_worlds`` of them (:data:`WORLDS`, calibrated against the
0.1 s time limit it replaces: docs/agents.md, *Budgets*), so the choices depend only on the
seed; with ``time_limit``, drawn until that many seconds are spent instead (at least
``min_worlds``, at most ``max_worlds``).

**Card play** (:class:`agents.search.WorldSearch`'s loop): a card's value in a world is +1 when
the agent's side (in that world: the mediator and the partner, or the three defenders) wins the
deal, -1 when it loses, plus the side's thirds above the 18 the mediator's side needs (or
below, for the defenders) over 100, which breaks ties between cards that win or lose alike.
Within a deal the pot is fixed, so winning the deal is the objective of the play.

**Accept/pass and the call** move chips, and how many depends on the pot, so they are valued in
chips (:func:`chip_value`): the seat's chips once the deal is over, plus a quarter of the pot
still standing (a later mediator's side takes it; no seat is favoured). A pass is not free:
another seat may accept and take the pot the seat has put its ante in; a loss is cheaper when
the pot goes back at the session's end. Accept/pass tries both; the call tries alone and
greedy's ``calls`` best called cards (greedy's call among them); the move of best mean chips is
chosen (ties: the lowest move id, so a pass). ``bidding='greedy'`` takes greedy's accepting and
call instead (its win-chance models, agents/club/greedy.py). The measurements behind the choice
(the bidding search against greedy's models, each part alone) are in docs/club.md.

**Discards** stay greedy's: four cards out of thirteen is 715 candidate sets; not searched.

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
from mediatore_env.club.rules import ClubRules
from mediatore_env.club.moves import (ACCEPT, ALONE, AUCTION, CALL, PASS, PLAY, call_move)
from mediatore_env.club.worlds import redeal
from mediatore_env.core.cards import NUM_CARDS, bit, power_of
from mediatore_env.club.view import ClubView
from mediatore_env.mediatore.nine_tricks import WIN_THIRDS

from ..search import WorldSearch
from .greedy import ClubGreedyAgent

#: The default budget: the worlds of a decision, every one rolled out (docs/agents.md, Budgets).
WORLDS = 12

#: The weight of a thirds' margin against winning the deal (a margin never outweighs a win).
MARGIN_WEIGHT = 0.01

#: What ``bidding`` may be, and the phases it searches (the others are greedy's).
BIDDING = {"search": (AUCTION, CALL), "accept": (AUCTION,), "call": (CALL,), "greedy": ()}
#: What ``play`` may be: the card play searched, or greedy's.
PLAY_MODES = ("search", "greedy")


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
    """PIMC card play with greedy rollouts, and accept/pass and the call searched in chips (the
    module docstring). ``max_worlds``: the worlds of a decision (the default budget,
    reproducible from the seed); ``time_limit``: seconds a decision may take instead;
    ``bidding``: ``'search'`` (accept/pass and the call), ``'accept'`` or ``'call'`` (that one
    only) or ``'greedy'`` (greedy's accepting and call); ``play``: ``'search'`` or ``'greedy'``
    (greedy's card play; with ``bidding``, how docs/club.md measures each part alone);
    ``calls``: how many of greedy's best called cards the search tries besides alone;
    ``margin``: greedy's accepting margin."""

    name = "pimc"
    view_type = ClubView

    def __init__(self, time_limit: float | None = None, min_worlds: int = 4,
                 max_worlds: int = WORLDS, margin: float = -0.1, bidding: str = "search",
                 play: str = "search", calls: int = 2, seed: int | None = None):
        super().__init__(time_limit, min_worlds, max_worlds, seed)
        for name, value, valid in (("bidding", bidding, BIDDING), ("play", play, PLAY_MODES)):
            if value not in valid:
                raise ValueError(f"{name} must be one of {', '.join(map(repr, valid))}, "
                                 f"got {value!r}")
        if isinstance(calls, bool) or not isinstance(calls, int) or calls < 1:
            raise ValueError(f"calls must be a whole number of cards, at least 1, got {calls!r}")
        self.greedy = ClubGreedyAgent(margin=margin)
        self.bidding, self.play, self.calls = bidding, play, calls
        self.searched = BIDDING[bidding] + ((PLAY,) if play == "search" else ())

    def act(self, observation, view) -> int:
        phase = view.phase
        if phase not in self.searched:
            return self.greedy.act(observation, view)
        if phase == PLAY:
            legal = view.legal_moves()
            return legal[0] if len(legal) == 1 else self.best_move(view, legal)
        return self.best_move(view, [PASS, ACCEPT] if phase == AUCTION
                              else [ALONE, *self.best_calls(view)])

    def best_calls(self, view) -> list[int]:
        """The ``calls`` called cards that add most to the hand, best first (greedy's ranking:
        the first is greedy's call)."""
        hand, strength = view.hand, self.greedy.calling.strength
        missing = [c for c in range(NUM_CARDS) if not hand >> c & 1]
        missing.sort(key=lambda c: -(strength(hand | bit(c)) + 0.001 * power_of(c)))
        return [call_move(c) for c in missing[:self.calls]]

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
        """A card by the deal won (:func:`deal_value`); accept/pass and the call by the chips
        (:func:`chip_value`). ``view`` is the deciding seat's, still at the decision."""
        return (deal_value if view.phase == PLAY else chip_value)(game, view.seat)
