"""The declarer's call and exchange by simulation: chosen by solving sampled worlds double
dummy, as PIMC chooses a card.

**The exchange.** The greedy exchange (:class:`~agents.mediatore.greedy.ExchangePolicy`) keeps
the hand a strength table scores best. That table is a sum over suits fitted to thirds taken;
it cannot see how the kept cards work with the cards the others hold. :class:`SimulatedExchange`
takes the ``candidates`` removals the greedy table ranks highest (every removal scored, as the
greedy search scores them), then, world by world from the declarer's sampler
(:class:`~mediatore_env.mediatore.worlds.WorldSampler`), asks the solver for each candidate
whether the declarer's side reaches 18 thirds from the first lead, and keeps the removal
made in the most worlds; ties go to the greedy order, so with no world solved it is the
greedy exchange. The plan is made at the first discard and followed for the rest of the
exchange (4 discards and, in Mediatore, the card passed back: one search for five moves).

**The call.** :class:`SimulatedCall` takes the ``candidates`` cards the greedy call
(:class:`~agents.mediatore.greedy.CallingPolicy`) ranks highest and, in each world, rebuilds
the whole deal (:meth:`WorldSampler.deal`), plays the call and the greedy exchange after it
on the engine (so every rules variant's call, monte and exchange are the engine's own), and
solves the first lead: it calls the card with the best total payoff to the declarer over the
worlds (partner or alone, card given or not, as that world has it).

Both are :class:`agents.search.WorldSearch` searches, the loop and budget of every search
agent and of :class:`~agents.mediatore.pimc.PIMCAgent`'s card play: ``worlds`` worlds at most
(12) and, by default, a fixed number of nodes (``max_time * NODES_PER_SECOND``, 4.2 million)
from an empty table: reproducible from the seed. With ``time_limit`` (CPU seconds; a PIMC agent
with a time limit gives its searches :data:`DECLARER_TIME_LIMIT`) no new world starts once it
is spent, and ``max_time`` is a ceiling through the solver's node budget. Each keeps its own
random stream, reseeded with the agent's. docs/infer.md has the measurements.
"""

from __future__ import annotations

import itertools

from mediatore_env.analysis.solver import Position, reaches
from mediatore_env.mediatore.exchange import exchange_move
from mediatore_env.mediatore.tables import contract_position
from mediatore_env.core.cards import bit, cards_of, thirds_of
from mediatore_env.mediatore.moves import DISCARD, GIVE
from mediatore_env.mediatore.nine_tricks import WIN_THIRDS
from mediatore_env.mediatore.rules import CHIAMO, payments
from mediatore_env.mediatore.worlds import WorldSampler

from ..search import SearchBudget, WorldSearch, check_budget
from .greedy import CallingPolicy, ExchangePolicy


#: The time limit (CPU seconds) of a declarer's search made for a PIMC agent with a time limit
#: (for play against people); by default the searches are reproducible (``time_limit=None``).
DECLARER_TIME_LIMIT = 0.5


def side_mask(contract, declarer, partner) -> int:
    """The declarer's side as a bitset of seats (0 before a contract): the declarer, and in
    Chiamo the partner (a world's; None while unknown)."""
    if declarer is None:
        return 0
    return 1 << declarer | (1 << partner if contract == CHIAMO and partner is not None else 0)


def ranked_removals(policy: ExchangePolicy, hand: int, removals: int, give: bool,
                    partner_card: int = 0) -> list[tuple[int, int | None]]:
    """Every way to remove ``removals`` cards of ``hand`` (with ``give``, one of them passed
    back), best first by ``policy``'s score (the one :meth:`ExchangePolicy.plan` maximises),
    as (cards removed, card passed back or None)."""
    table, discard_points = policy.strength.table, policy.discard_points
    scored = []
    for cards in itertools.combinations(cards_of(hand), removals):
        removed = sum(bit(c) for c in cards)
        kept = hand & ~removed | partner_card
        base = sum(table[kept >> 10 * s & 1023] for s in range(4)) + discard_points * thirds_of(removed)
        if not give:
            scored.append((base, removed, None))
            continue
        for g in cards:
            scored.append((base + policy.give_value(g), removed, g))
    scored.sort(key=lambda row: -row[0])  # stable: equal scores keep the enumeration's order
    return [(removed, g) for _, removed, g in scored]


def play_exchange(deal, policy) -> None:
    """Play the declarer's exchange of ``deal`` (its discards and any card passed back) by the
    exchange policy ``policy`` (``discard(view)``, ``give(view)``), up to the first lead."""
    while deal.phase in (DISCARD, GIVE):
        view = deal.view(deal.declarer)
        deal.apply(policy.discard(view) if deal.phase == DISCARD else policy.give(view))


def reached(budget: SearchBudget, pos: Position, target: int = WIN_THIRDS) -> bool | None:
    """Does the declarer's side reach ``target`` thirds from ``pos`` with best play, within
    ``budget``'s nodes (None: out of them)? The question every Mediatore search asks."""
    return budget.solve(reaches, pos, target)


def made_after_exchange(deal, policy, budget: SearchBudget) -> bool | None:
    """Play ``deal``'s exchange by ``policy`` (:func:`play_exchange`), then solve its first
    lead: does the declarer's side make the contract (None: out of ``budget``'s nodes)? What a
    search of the declarer's choices asks of each world once its call is made."""
    play_exchange(deal, policy)
    return reached(budget, contract_position(deal))


class DeclarerSearch(WorldSearch):
    """What the two searches share: their options, a budget on the thread's CPU clock as
    PIMC's, the declarer's worlds (:class:`~mediatore_env.mediatore.worlds.WorldSampler`), and
    the choice: the candidate of best total over them, ties to the first (the greedy order)."""

    clock = "cpu"

    def __init__(self, candidates: int, worlds: int, time_limit: float | None,
                 max_time: float | None, seed: int, nodes: int | None = None):
        if not isinstance(candidates, int) or candidates < 1:
            raise ValueError(f"candidates must be a positive int, got {candidates!r}")
        check_budget(worlds, time_limit, max_time)
        super().__init__(time_limit, 1, worlds, seed, max_time, nodes=nodes)
        self.candidates = candidates
        #: the last decision's (worlds solved, total value per candidate)
        self.last = None
        #: the worlds each search of this policy's life scored (fewer than ``worlds`` where
        #: the node budget ran out first): what ``benchmarks/bench_infer.py --timing`` reports
        self.scored: list[int] = []

    @property
    def worlds(self) -> int:
        return self.max_worlds

    def world_sampler(self, view):
        return WorldSampler(view)

    def best(self, view, options: list) -> int:
        """The index of the option of best total over the sampled worlds; ties to the first."""
        totals, budget = self.search(view, options)
        self.last = (budget.worlds, [totals[o] for o in options])
        self.scored.append(budget.worlds)
        return max(range(len(options)), key=lambda i: (totals[options[i]], -i))


class SimulatedExchange(DeclarerSearch):
    """An exchange policy (``discard(view)``, ``give(view)``, like
    :class:`~agents.mediatore.greedy.ExchangePolicy`) that chooses among the greedy ranking's
    ``candidates`` best removals the one made in the most sampled worlds (the module
    docstring)."""

    def __init__(self, candidates: int = 8, worlds: int = 12, time_limit: float | None = None,
                 max_time: float | None = 0.6, greedy: ExchangePolicy | None = None, seed: int = 0,
                 nodes: int | None = None):
        super().__init__(candidates, worlds, time_limit, max_time, seed, nodes)
        self.greedy = greedy if greedy is not None else ExchangePolicy()
        #: the plan being followed: (the 13 or 14 cards it was made for, cards removed, card
        #: passed back or None)
        self._plan = None

    def reset(self, seed=None):
        super().reset(seed)
        self._plan = None

    def discard(self, view) -> int:
        return exchange_move(view, self._follow(view))

    def give(self, view) -> int:
        return exchange_move(view, self._follow(view))

    def _follow(self, view):
        """The plan for this exchange (made now if the hand is not the one it was made for),
        as the ``plan`` function :func:`exchange_move` reads."""
        cards = view.hand | view.discards
        if self._plan is None or self._plan[0] != cards:
            self._plan = (cards, *self.plan(view))
        _, removed, g = self._plan
        return lambda hand, removals, give: (removed & hand, g)

    def plan(self, view) -> tuple[int, int | None]:
        """(the cards to remove, the one passed back or None) for the declarer at the first
        move of its exchange."""
        give = view.giver is not None
        options = ranked_removals(self.greedy, view.hand, 4 + give, give,
                                  self.greedy.partner_card(view))[:self.candidates]
        if len(options) == 1:
            return options[0]
        return options[self.best(view, options)]

    def move_values(self, world, view, options: list, budget: SearchBudget) -> dict | None:
        """Each removal scored 1 where the declarer's side reaches 18 thirds from the first
        lead of ``world``, 0 where it does not; None when out of nodes."""
        me, giver = view.seat, view.giver
        leader = view.rules.first_leader(view.contract, me, view.mano)
        side = side_mask(view.contract, me, world.partner)
        made = {}
        for removed, g in options:
            hands = list(world.hands)
            hands[me] = view.hand & ~removed
            monte = removed
            if g is not None:
                hands[giver] |= bit(g)
                monte &= ~bit(g)
            answer = reached(budget, Position(tuple(hands), leader, (), side, 0, thirds_of(monte)))
            if answer is None:
                return None
            made[removed, g] = int(answer)
        return made


class SimulatedCall(DeclarerSearch):
    """A calling policy (``call(view)``, like :class:`~agents.mediatore.greedy.CallingPolicy`)
    that calls, among the greedy call's ``candidates`` best cards, the one with the best total
    payoff to the declarer over sampled worlds, each played on with the greedy exchange (the
    module docstring)."""

    def __init__(self, candidates: int = 4, worlds: int = 12, time_limit: float | None = None,
                 max_time: float | None = 0.6, greedy: CallingPolicy | None = None,
                 exchange: ExchangePolicy | None = None, seed: int = 0, nodes: int | None = None):
        super().__init__(candidates, worlds, time_limit, max_time, seed, nodes)
        self.greedy = greedy if greedy is not None else CallingPolicy()
        self.exchange = exchange if exchange is not None else ExchangePolicy()

    def call(self, view) -> int:
        options = self.greedy.ranked(view)[:self.candidates]
        if len(options) == 1:
            return options[0]
        return options[self.best(view, options)]

    def world_sampler(self, view):
        return _WholeDeals(WorldSampler(view))

    def move_values(self, deal, view, options: list, budget: SearchBudget) -> dict | None:
        """Each call's payment to the declarer in the world ``deal``: the call and the greedy
        exchange played on the engine, then the first lead solved; None when out of nodes."""
        me, rules = view.seat, view.rules
        payoffs = {}
        for move in options:
            after = deal.clone()
            after.apply(move)
            made = made_after_exchange(after, self.exchange, budget)
            if made is None:
                return None
            payoffs[move] = payments(rules, after.contract, me, after.partner, after.giver,
                                     made, False)[me]
        return payoffs


class _WholeDeals:
    """The declarer's worlds as whole deals, rebuilt from the auction on
    (:meth:`WorldSampler.deal`), so that each call is played on the engine."""

    def __init__(self, sampler: WorldSampler):
        self.sampler = sampler

    def sample(self, rng):
        return self.sampler.deal(self.sampler.sample(rng), rng)
