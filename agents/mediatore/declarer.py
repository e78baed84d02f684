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

Budget, for both: ``worlds`` worlds at most, no new world once ``time_limit`` seconds of CPU
have gone into the decision, and a ceiling ``max_time`` through the solver's node budget, as
in :class:`~agents.mediatore.pimc.PIMCAgent`; ``time_limit=None`` searches a fixed number of
nodes (``max_time * NODES_PER_SECOND``) from an empty table: reproducible from the seed.
docs/infer.md has the measurements.
"""

from __future__ import annotations

import itertools
import random
import time

from mediatore_env.mediatore.exchange import exchange_move
from mediatore_env.analysis.solver import NODES_PER_SECOND, Position, clear_table, last_nodes, reaches
from mediatore_env.mediatore.tables import contract_position
from mediatore_env.core.cards import bit, cards_of, thirds_of
from mediatore_env.mediatore.moves import DISCARD, GIVE, WIN_THIRDS
from mediatore_env.mediatore.rules import CHIAMO, payments
from mediatore_env.mediatore.worlds import WorldSampler

from .greedy import CallingPolicy, ExchangePolicy


def side_mask(contract, declarer, partner) -> int:
    """The declarer's side as a bitset of seats (0 before a contract): the declarer, and in
    Chiamo the partner (a world's; None while unknown)."""
    if declarer is None:
        return 0
    return 1 << declarer | (1 << partner if contract == CHIAMO and partner is not None else 0)


def check_budget(worlds, time_limit, max_time) -> None:
    """ValueError unless ``worlds`` is a positive int, ``time_limit`` and ``max_time`` positive
    seconds or None, and the limit not above the ceiling (PIMC's budget, and its searches')."""
    if not isinstance(worlds, int) or worlds < 1:
        raise ValueError(f"worlds must be a positive int, got {worlds!r}")
    if time_limit is not None and not time_limit > 0:
        raise ValueError(f"time_limit must be a positive number of seconds or None, got {time_limit!r}")
    if max_time is not None and not max_time > 0:
        raise ValueError(f"max_time must be a positive number of seconds or None, got {max_time!r}")
    if max_time is not None and time_limit is not None and time_limit > max_time:
        raise ValueError(f"time_limit {time_limit} is above the ceiling max_time {max_time}: "
                         "raise max_time too, or set it to None")


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


class SearchBudget:
    """The CPU time and solver nodes of one decision's searches (PIMC's budget, and the module
    docstring's), counted from its creation: :meth:`more` says whether another world may
    start, :meth:`reaches` asks the solver within the nodes left (None: out of them).
    :attr:`used` counts the nodes searched, :attr:`fixed` is the node budget of
    ``time_limit=None`` (None: set by the time left before ``max_time``)."""

    def __init__(self, time_limit: float | None, max_time: float | None):
        self.start, self.limit, self.ceiling = time.thread_time(), time_limit, max_time
        self.fixed = None
        if max_time is not None and time_limit is None:
            self.fixed = int(max_time * NODES_PER_SECOND)
            clear_table()  # reproducible: the same nodes whatever was searched before
        self.used = 0

    def more(self, solved: int) -> bool:
        return self.limit is None or solved == 0 or time.thread_time() - self.start <= self.limit

    def reaches(self, pos: Position, target: int = WIN_THIRDS) -> bool | None:
        if self.fixed is not None:
            nodes = self.fixed - self.used
        elif self.ceiling is not None:
            nodes = max(0, int((self.ceiling - (time.thread_time() - self.start)) * NODES_PER_SECOND))
        else:
            nodes = None
        answer = reaches(pos, target, node_limit=nodes)
        self.used += last_nodes()
        return answer


class _WorldSearch:
    """What the two searches share: their options and budget, and the loop that sums each
    candidate's value over sampled worlds."""

    def __init__(self, candidates: int, worlds: int, time_limit: float | None,
                 max_time: float | None, seed: int):
        if not isinstance(candidates, int) or candidates < 1:
            raise ValueError(f"candidates must be a positive int, got {candidates!r}")
        check_budget(worlds, time_limit, max_time)
        self.candidates, self.worlds = candidates, worlds
        self.time_limit, self.max_time = time_limit, max_time
        self.rng = random.Random(seed)
        #: the last decision's (worlds solved, total value per candidate)
        self.last = None

    def reset(self, seed=None):
        self.rng.seed(seed)

    def _best(self, view, options: list, values) -> int:
        """The index of the option with the highest total of ``values(sampler, world,
        budget)`` (a value per option, or None when out of nodes) over the sampled worlds; ties
        to the first."""
        budget = SearchBudget(self.time_limit, self.max_time)
        sampler = WorldSampler(view)
        totals = [0] * len(options)
        n = 0
        while n < self.worlds and budget.more(n):
            answers = values(sampler, sampler.sample(self.rng), budget)
            if answers is None:
                break  # out of nodes: this world is left out, and no other is started
            totals = [t + a for t, a in zip(totals, answers)]
            n += 1
        self.last = (n, totals)
        return max(range(len(options)), key=lambda i: (totals[i], -i))


class SimulatedExchange(_WorldSearch):
    """An exchange policy (``discard(view)``, ``give(view)``, like
    :class:`~agents.mediatore.greedy.ExchangePolicy`) that chooses among the greedy ranking's
    ``candidates`` best removals the one made in the most sampled worlds (the module
    docstring)."""

    def __init__(self, candidates: int = 8, worlds: int = 12, time_limit: float | None = 0.5,
                 max_time: float | None = 0.6, greedy: ExchangePolicy | None = None, seed: int = 0):
        super().__init__(candidates, worlds, time_limit, max_time, seed)
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
        me, giver = view.seat, view.giver
        leader = me if view.rules.declarer_leads_first(view.contract) else view.mano

        def made(sampler, world, budget):
            side = side_mask(view.contract, me, world.partner)
            answers = []
            for removed, g in options:
                hands = list(world.hands)
                hands[me] = view.hand & ~removed
                if g is not None:
                    hands[giver] |= bit(g)
                    removed &= ~bit(g)
                answer = budget.reaches(Position(tuple(hands), leader, (), side, 0, thirds_of(removed)))
                if answer is None:
                    return None
                answers.append(int(answer))
            return answers
        return options[self._best(view, options, made)]


class SimulatedCall(_WorldSearch):
    """A calling policy (``call(view)``, like :class:`~agents.mediatore.greedy.CallingPolicy`)
    that calls, among the greedy call's ``candidates`` best cards, the one with the best total
    payoff to the declarer over sampled worlds, each played on with the greedy exchange (the
    module docstring)."""

    def __init__(self, candidates: int = 4, worlds: int = 12, time_limit: float | None = 0.5,
                 max_time: float | None = 0.6, greedy: CallingPolicy | None = None,
                 exchange: ExchangePolicy | None = None, seed: int = 0):
        super().__init__(candidates, worlds, time_limit, max_time, seed)
        self.greedy = greedy if greedy is not None else CallingPolicy()
        self.exchange = exchange if exchange is not None else ExchangePolicy()

    def call(self, view) -> int:
        options = self.greedy.ranked(view)[:self.candidates]
        if len(options) == 1:
            return options[0]
        me, rules = view.seat, view.rules

        def payoffs(sampler, world, budget):
            deal = sampler.deal(world, self.rng)
            answers = []
            for move in options:
                after = deal.clone()
                after.apply(move)
                play_exchange(after, self.exchange)
                made = budget.reaches(contract_position(after))
                if made is None:
                    return None
                answers.append(payments(rules, after.contract, me, after.partner, after.giver,
                                        made, False)[me])
            return answers
        return options[self._best(view, options, payoffs)]
