"""PIMCAgent: card play by Perfect Information Monte Carlo over the double-dummy solver.

For each card it has to play, the agent

1. draws worlds -- where every unseen card may lie now -- uniformly among those consistent
   with what its seat knows (:meth:`SeatView.world_sampler`: hand sizes, voids shown by play,
   volo and striscio, the monte as seen, the called card's holder as far as known, the cards
   given and passed back);
2. solves each world double dummy (:mod:`mediatore_env.solver`, the C core): for each legal
   card, does the declarer's side still reach 18 thirds (6 points) after it, with perfect
   play by everyone from there on;
3. plays the card with the best mean payoff over the worlds -- the payment this seat receives
   in each world if the contract is made or lost there (RULES.md 7; capotto is not counted).

Ties (common: a contract already made or lost in every world, or cards that are the same in
every world) go to the greedy agent's choice when it is among the best, else to the highest
of the best cards. A lead carries the greedy agent's signal when greedy would lead the same
card, else *volo* when the card is the last of its suit, else none.

**Budget.** ``worlds`` worlds at most, and no new world once ``time_limit`` seconds of the
process's CPU time have gone into the decision. Early in the deal a double-dummy search
costs milliseconds, late in the deal microseconds, so the limit binds only in the first two
or three tricks. A hard ceiling, ``max_time`` (0.09 s), holds even for one search: every
search gets a node budget (``solver.reaches(node_limit=)``), the nodes the CPU time left
before the ceiling buys at the cautious rate :data:`~mediatore_env.solver.NODES_PER_SECOND`;
a world whose search runs out is left out, and when no world was finished the agent plays
the greedy agent's card. CPU time rather than wall-clock time keeps the agent's play the
same on a busy machine; with ``time_limit=None`` the agent is reproducible exactly (same
seed, same moves): the ceiling is then a fixed ``max_time * NODES_PER_SECOND`` nodes per
decision, searched from an empty table (``max_time=None``: no ceiling). Decision timings
accumulate in :attr:`PIMCAgent.timings`.

**Bidding, calling, exchange.** These come from the greedy agent's policies. Its bidding
models give the chance to make each contract as fitted to greedy card play; the PIMC agent
makes Chiamo and Mediatore more often, so by default it adds :data:`BID_BOOST` to their
logits (``bid_boost``: a number for both, ``"chiamo:0.3;mediatore:0.8"``, or 0 for the greedy
models as they are; measured with ``benchmarks/bench_pimc.py --calibrate``). ``bidding``
takes the names of :data:`agents.greedy.BIDDING_POLICIES` (then no boost unless given) or a
number, the greedy policy's margin; ``calling``, ``exchange`` and ``play`` take policy
objects. Double-dummy contract values per deal, for bidding studies, are in
:mod:`mediatore_env.tables`.

**Known bias.** PIMC assumes that after its card everyone plays as if every card were
visible ("strategy fusion"), and it never plays to hide or find information. It also reads
no signal as a request: it follows its own worlds.

    >>> from agents.tournament import run_tournament
    >>> result = run_tournament(["pimc", "greedy", "greedy", "greedy"], deals=2, seed=1)
    >>> len(result.standings)
    2
"""

from __future__ import annotations

import random
import time

from mediatore_env.cards import NUM_CARDS, POINTS, SUIT_MASKS, thirds_of
from mediatore_env.game import PLAY, PLAY_BASE
from mediatore_env.rules import CHIAMO, CONTRACT_NAMES, MEDIATORE, VOLO, payments
from mediatore_env.solver import (NODES_PER_SECOND, Position, clear_table, last_nodes,
                                  play as play_card, reaches)

from .base import Agent
from .greedy import GreedyAgent

WIN_THIRDS = 18


def equivalent_cards(hand: int, cards: list[int], gone: int) -> dict[int, int]:
    """Groups of ``cards`` that are the same double dummy in every world: same suit, same
    points, and every card of the suit between them either in ``hand`` or ``gone`` (played
    to a finished trick). Maps each card to its group's highest card, which represents it."""
    rep = {}
    prev = None
    for c in sorted(cards, reverse=True):
        if prev is not None and prev // 10 == c // 10 and POINTS[prev] == POINTS[c]:
            between = SUIT_MASKS[c // 10] & ((1 << prev) - 1) & ~((2 << c) - 1)
            if not between & ~(hand | gone):
                rep[c] = rep[prev]
                prev = c
                continue
        rep[c] = c
        prev = c
    return rep


def _boosts(bid_boost) -> dict[int, float]:
    """``bid_boost`` as {contract id: logit shift}: a number applies to Chiamo and Mediatore;
    a dict (or a text ``"chiamo:0.3;mediatore:0.8"``, for option strings) per contract, by
    id or name."""
    if isinstance(bid_boost, str):
        try:
            bid_boost = {k.strip(): float(v) for k, _, v in
                         (item.partition(":") for item in bid_boost.split(";") if item.strip())}
        except ValueError:
            raise ValueError(f"bad bid_boost {bid_boost!r}: write e.g. 'chiamo:0.3;mediatore:0.8'") from None
    if isinstance(bid_boost, dict):
        out = {}
        for key, value in bid_boost.items():
            contract = CONTRACT_IDS.get(key, key)
            if contract not in CONTRACT_NAMES:
                raise ValueError(f"bid_boost: unknown contract {key!r}; valid: {', '.join(CONTRACT_IDS)}")
            out[contract] = float(value)
        return out
    return {CHIAMO: float(bid_boost), MEDIATORE: float(bid_boost)}


CONTRACT_IDS = {name: c for c, name in CONTRACT_NAMES.items()}
#: The default ``bid_boost``: fitted by ``benchmarks/bench_pimc.py --calibrate 300 --seed 1``
#: against the greedy agent of commit 0c01ef6 (the PIMC agent declaring against greedy agents
#: made Chiamo 71% and Mediatore 52% of the time where the greedy models predicted 61% and 43%:
#: logit shifts +0.46 and +0.42); refit when the greedy agent changes.
BID_BOOST = {CHIAMO: 0.5, MEDIATORE: 0.4}


class _Boosted:
    """A bidding model (logit of the chance to make a contract) shifted by ``boost``."""

    def __init__(self, model, boost: float):
        self.model, self.boost = model, boost

    def __call__(self, hand: int) -> float:
        return self.model(hand) + self.boost


class PIMCAgent(Agent):
    """Plays cards by PIMC (see the module docstring); bids, calls and exchanges like
    :class:`~agents.greedy.GreedyAgent`, whose policies it takes as options."""

    name = "pimc"
    wants_observation = False

    def __init__(self, worlds: int = 24, time_limit: float | None = 0.08, bidding=None,
                 bid_boost: float | dict | None = None, calling=None, exchange=None, play=None,
                 max_time: float | None = 0.09):
        if not isinstance(worlds, int) or worlds < 1:
            raise ValueError(f"worlds must be a positive int, got {worlds!r}")
        if time_limit is not None and not time_limit > 0:
            raise ValueError(f"time_limit must be a positive number of seconds or None, got {time_limit!r}")
        if max_time is not None and not max_time > 0:
            raise ValueError(f"max_time must be a positive number of seconds or None, got {max_time!r}")
        if max_time is not None and time_limit is not None and time_limit > max_time:
            raise ValueError(f"time_limit {time_limit} is above the ceiling max_time {max_time}: "
                             "raise max_time too, or set it to None")
        self.worlds = worlds
        self.time_limit = time_limit
        #: hard CPU ceiling per card play, in seconds (see the module docstring's Budget)
        self.max_time = max_time
        #: nodes the last :meth:`card_values` searched, and its node budget (None: set by time)
        self.nodes, self.node_budget = 0, None
        boosts = _boosts(BID_BOOST if bid_boost is None and bidding is None else bid_boost or 0.0)
        if isinstance(bidding, (int, float)) and not isinstance(bidding, bool) or any(boosts.values()):
            if bidding is not None and not isinstance(bidding, (int, float)):
                raise ValueError("bid_boost goes with the greedy bidding policy, or a number as its "
                                 f"margin; not with bidding={bidding!r}")
            from .greedy import BID_MODELS, BiddingPolicy
            margin = 0.0 if bidding is None else float(bidding)
            models = {c: _Boosted(m, boosts.get(c, 0.0)) for c, m in BID_MODELS.items()}
            bidding = BiddingPolicy(margin=margin, models=models)
        self.bid_boost = boosts
        self.greedy = GreedyAgent(bidding=bidding, calling=calling, exchange=exchange, play=play)
        self.rng = random.Random(0)
        #: per decision: (phase, trick number, worlds solved, CPU seconds, wall seconds)
        self.timings: list[tuple[int, int, int, float, float]] = []

    def reset(self, seed=None):
        self.rng.seed(seed)
        self.greedy.reset(seed)

    def act(self, observation, view) -> int:
        wall, cpu = time.perf_counter(), time.thread_time()
        if view.phase == PLAY:
            move, n = self.play(view)
        else:
            move, n = self.greedy.act(observation, view), 0
        self.timings.append((view.phase, len(view.tricks), n, time.thread_time() - cpu,
                             time.perf_counter() - wall))
        return move

    # -- card play ----------------------------------------------------------------------------

    def play(self, view) -> tuple[int, int]:
        """(the move to play, the number of worlds solved for it)."""
        legal = view.legal_moves()
        cards = sorted({(m - PLAY_BASE) % NUM_CARDS for m in legal})
        trick_cards = 0
        for c in view.trick:
            trick_cards |= 1 << c
        rep = equivalent_cards(view.hand, cards, view.played & ~trick_cards)
        candidates = sorted(set(rep.values()), reverse=True)
        if len(candidates) == 1:
            return self._with_signal(view, candidates[0], legal), 0
        values, n = self.card_values(view, candidates)
        best = max(values.values())
        top = [c for c in candidates if values[c] == best]
        if len(top) > 1:
            greedy = self.greedy.play.play(view)
            if rep[(greedy - PLAY_BASE) % NUM_CARDS] in top:
                return greedy, n
        return self._with_signal(view, top[0], legal), n

    def card_values(self, view, cards: list[int]) -> tuple[dict[int, float], int]:
        """The sum over sampled worlds of this seat's payoff after each card of ``cards``
        (see the module docstring), and the number of worlds.

        Each search's node budget: with a ``time_limit``, the CPU time left before
        ``max_time`` (counted from this call) at ``NODES_PER_SECOND``; with ``time_limit=None``,
        what the decision has left of ``max_time * NODES_PER_SECOND`` nodes (after clearing
        the table, so the count does not depend on earlier searches). A search out of nodes
        drops its world and ends the sampling; with no world finished every value is 0, and
        :meth:`play` then takes the greedy agent's card. :attr:`nodes` and
        :attr:`node_budget` record the nodes used and the fixed budget."""
        start = time.thread_time()
        rng = self.rng
        sampler = view.world_sampler()
        rules, contract, declarer, giver, me = (view.rules, view.contract, view.declarer,
                                                view.giver, view.seat)
        leader, trick, won = view.leader, tuple(view.trick), view.thirds_won
        values = dict.fromkeys(cards, 0.0)
        pays = {}
        limit, ceiling = self.time_limit, self.max_time
        budget = node_limit = None
        if ceiling is not None and limit is None:
            budget = int(ceiling * NODES_PER_SECOND)
            clear_table()  # reproducible: the same nodes whatever was searched before
        used = 0
        n = 0
        while n < self.worlds:
            world = sampler.sample(rng)
            partner = world.partner if contract == CHIAMO else None
            if partner not in pays:
                pays[partner] = (payments(rules, contract, declarer, partner, giver, True, False)[me],
                                 payments(rules, contract, declarer, partner, giver, False, False)[me])
            win, loss = pays[partner]
            side = 1 << declarer | (1 << partner if partner is not None else 0)
            taken = sum(won[s] for s in range(4) if side >> s & 1)
            pos = Position(world.hands, leader, trick, side, taken, thirds_of(world.monte))
            results = []
            for c in cards:
                if budget is not None:
                    node_limit = budget - used
                elif ceiling is not None:
                    node_limit = max(0, int((ceiling - (time.thread_time() - start)) * NODES_PER_SECOND))
                made = reaches(play_card(pos, c), WIN_THIRDS, node_limit=node_limit)
                used += last_nodes()
                if made is None:
                    break  # out of nodes: this world is left out, and no other is started
                results.append(made)
                if n and limit is not None and time.thread_time() - start > limit:
                    break  # out of time: this world is left out
            else:
                for c, made in zip(cards, results):
                    values[c] += win if made else loss
                n += 1
                if limit is None or time.thread_time() - start <= limit:
                    continue
            break
        self.nodes, self.node_budget = used, budget
        return values, n

    def _with_signal(self, view, card: int, legal: list[int]) -> int:
        """The move playing ``card``: on a lead, with greedy's signal for it, or volo."""
        move = PLAY_BASE + card
        if view.trick or len(legal) == len({(m - PLAY_BASE) % NUM_CARDS for m in legal}):
            return move
        greedy = self.greedy.play.play(view)
        if (greedy - PLAY_BASE) % NUM_CARDS == card:
            return greedy
        volo = move + VOLO * NUM_CARDS
        return volo if volo in legal else move

    # -- reports ------------------------------------------------------------------------------

    def timing_summary(self) -> dict:
        """Mean and worst CPU and wall time per decision, over all decisions and card plays."""
        def stats(rows):
            if not rows:
                return {"decisions": 0}
            cpu = sorted(r[3] for r in rows)
            wall = sorted(r[4] for r in rows)
            return {"decisions": len(rows), "cpu_mean_ms": 1e3 * sum(cpu) / len(cpu),
                    "cpu_p90_ms": 1e3 * cpu[int(0.9 * (len(cpu) - 1))], "cpu_max_ms": 1e3 * cpu[-1],
                    "wall_mean_ms": 1e3 * sum(wall) / len(wall), "wall_max_ms": 1e3 * wall[-1],
                    "worlds_mean": sum(r[2] for r in rows) / len(rows)}
        return {"all": stats(self.timings), "play": stats([r for r in self.timings if r[0] == PLAY])}
