"""PIMCAgent: card play by Perfect Information Monte Carlo over the double-dummy solver.

For each card it has to play, the agent

1. draws worlds -- where every unseen card may lie now -- uniformly among those consistent
   with what its seat knows (:class:`~mediatore_env.mediatore.worlds.WorldSampler`, on the
   facts of :mod:`mediatore_env.mediatore.knowledge`: hand sizes, voids shown by play, the
   signals' statements, the monte as seen, the called card's holder as far as known, the
   cards given and passed back); with ``auction`` set, weighted by how likely the other
   seats were to bid as they did with the hands each world deals them (*Worlds and the
   auction* below);
2. solves each world double dummy (:mod:`mediatore_env.analysis.solver`, the C core): for each legal
   card, does the declarer's side still reach 18 thirds (6 points) after it, with perfect
   play by everyone from there on -- and with ``capotto=True``, while a side has won every
   trick so far, can it still win them all (:func:`_capotto_outcome`);
3. plays the card with the best mean payoff over the worlds -- the payment this seat receives
   in each world for the outcome there (docs/rules.md 7: made or lost; with ``capotto=True``,
   capotto too).

Neither option is on by default: paired against the agent without them, over 300-deal runs
on several seeds, neither showed a gain (docs/pimc.md, Measurements).

Ties are common: a contract made in every world, or lost in every world, against perfect
play. Real players err, so while every card has had the same outcome in each world so far
the agent also asks, in each world, which cards leave the declarer's side ``margin`` thirds
(default 3: a point) beyond that line -- reaching 21 where it makes 18, 15 where it misses
-- and among the tied cards plays one that most often keeps that margin for its side: the
declarer's side keeps a cushion or stays within reach, the other side the opposite.
Remaining ties go to the greedy agent's choice when it is among the best, else to the
highest of the best cards. A lead carries the greedy agent's signal when greedy would lead the same
card, else *volo* when the card is the last of its suit, else none.

**Worlds and the auction.** Uniform worlds ignore what the auction says: against a
Mediatore declarer they deal the declarer an average hand. With ``auction=T`` (T in units,
2.0 measured; default None: uniform worlds) the agent draws ``pool`` times ``worlds`` worlds uniformly
(about 0.05 ms each), rebuilds each world's hands as dealt (:func:`initial_hands`), weighs it
by the chance of every call the other seats made (:class:`AuctionLikelihood`: a softmax at
``T`` units over the greedy bidding policy's values of the calls each seat could have made),
and resamples the worlds to solve by weight. The declarer's hand then scores as strong under
the bidding models as real declarers' hands do (logit +0.5 weighted, +0.6 real, -0.1 uniform,
60 Mediatore deals).

**Budget.** The card play is an :class:`agents.search.WorldSearch`, the loop and budget of
every search agent. By default it is work, so the agent is reproducible exactly (same seed,
same moves, on any machine): ``worlds`` worlds at most (24) and ``max_time *
NODES_PER_SECOND`` solver nodes a decision (0.075 s at the cautious rate
:data:`~mediatore_env.analysis.solver.NODES_PER_SECOND`: 525,000 nodes), searched from an
empty table (``max_time=None``: no node limit). Early in the deal a double-dummy search
costs milliseconds, late in the deal microseconds, so the nodes bind only in the first two or
three tricks; a world whose search runs out is left out, and when no world was finished the
agent plays the greedy agent's card. On the clock instead (``time_limit``, for play against
people): no new world once ``time_limit`` seconds of the thread's CPU time have gone into the
decision, and every search gets the nodes the CPU time left before the ceiling ``max_time``
buys. docs/agents.md (*Budgets*) has what a decision costs. Decision timings accumulate in
:attr:`PIMCAgent.timings`.

**Bidding, calling, exchange.** These come from the greedy agent's policies. Its bidding
models give the chance to make each contract as fitted to greedy card play; the PIMC agent
makes Chiamo and Mediatore more often, so by default it adds :data:`BID_BOOST` to their
logits (``bid_boost``: a number for both, ``"chiamo:0.3;mediatore:0.8"``, or 0 for the greedy
models as they are; measured with ``benchmarks/bench_pimc.py --calibrate``). ``bidding``
takes the names of :data:`agents.mediatore.greedy.BIDDING_POLICIES` (then no boost unless given) or a
number, the greedy policy's margin; ``calling``, ``exchange`` and ``play`` take policy
objects; ``calling="search"`` and ``exchange="search"`` make those decisions by simulation
(:class:`~agents.mediatore.declarer.SimulatedCall`,
:class:`~agents.mediatore.declarer.SimulatedExchange`: the greedy ranking's best candidates
compared by solving sampled worlds), within ``declarer_nodes`` solver nodes each (None: their
default, 4.2 million; the budget when the card play has no time limit). Double-dummy contract
values per deal, for bidding studies, are in :mod:`mediatore_env.mediatore.tables`.

**Known bias.** PIMC assumes that after its card everyone plays as if every card were
visible ("strategy fusion"), and it never plays to hide or find information. It also reads
no signal as a request: it follows its own worlds.

    >>> from agents.tournament import run_tournament
    >>> result = run_tournament(["pimc", "greedy", "greedy", "greedy"], deals=2, seed=1)
    >>> len(result.standings)
    2
"""

from __future__ import annotations

import bisect
import math
import time

from mediatore_env.analysis.solver import Position
from mediatore_env.analysis.solver import play as play_card
from mediatore_env.core.cards import (POINTS, SUIT_MASKS, TOTAL_THIRDS, bit, cards_of,
                                      suit_of, thirds_of)
from mediatore_env.mediatore.moves import PLAY, card_of_move, play_move
from mediatore_env.mediatore.nine_tricks import WIN_THIRDS
from mediatore_env.mediatore.rules import (CHIAMO, CONTRACT_NAMES, CONTRACTS, MEDIATORE, VOLO,
                                           payments)
from mediatore_env.mediatore.worlds import WorldSampler, undo_exchange
from mediatore_env.mediatore.view import SeatView

from ..search import SearchBudget, WorldSearch, check_budget, check_work
from .declarer import (DECLARER_TIME_LIMIT, SimulatedCall, SimulatedExchange, reached,
                       side_mask)
from .greedy import BiddingPolicy, CallingPolicy, ExchangePolicy, GreedyAgent, PlayPolicy


def equivalent_cards(hand: int, cards: list[int], gone: int) -> dict[int, int]:
    """Groups of ``cards`` that are the same double dummy in every world: same suit, same
    points, and every card of the suit between them either in ``hand`` or ``gone`` (played
    to a finished trick). Maps each card to its group's highest card, which represents it."""
    rep = {}
    prev = None
    for c in sorted(cards, reverse=True):
        if prev is not None and suit_of(prev) == suit_of(c) and POINTS[prev] == POINTS[c]:
            between = SUIT_MASKS[suit_of(c)] & (bit(prev) - 1) & ~((bit(c) << 1) - 1)
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
#: against the greedy agent of commit 0c01ef6, with the margin tie-break in the PIMC agent's
#: play (declaring against greedy agents it made Chiamo 71% and Mediatore 55% of the time
#: where the greedy models predicted 61% and 43%: logit shifts +0.47 and +0.52); refit when
#: the greedy agent or the PIMC agent's card play changes.
BID_BOOST = {CHIAMO: 0.5, MEDIATORE: 0.5}


class _Boosted:
    """A bidding model (logit of the chance to make a contract) shifted by ``boost``."""

    def __init__(self, model, boost: float):
        self.model, self.boost = model, boost

    def __call__(self, hand: int) -> float:
        return self.model(hand) + self.boost


#: a world's outcomes, as indexes of its payoffs: (contract made, capotto) for each
LOST, MADE, MADE_CAPOTTO, LOST_CAPOTTO = range(4)
OUTCOMES = ((False, False), (True, False), (True, True), (False, True))


def _capotto_alive(tricks, side: int) -> tuple[bool, bool] | None:
    """(the declarer side ``side`` has won every finished trick, the other side has), or
    None when neither has: no capotto is left to play for."""
    ours = sum(side >> t.winner & 1 for t in tricks)
    alive = ours == len(tricks), ours == 0
    return alive if any(alive) else None


def _capotto_outcome(pos: Position, after: Position, made: bool, alive: tuple[bool, bool],
                     budget: SearchBudget) -> int | None:
    """The outcome of :data:`OUTCOMES` after a card, or None if out of ``budget``'s nodes.

    ``pos`` is the position before the card, ``after`` the one after it, ``made`` whether
    the declarer side still reaches 18 thirds from ``after``, ``alive`` what
    :func:`_capotto_alive` says before the card. The outcomes are ordered for the declarer
    side (lost with capotto < lost < made < made with capotto), so its best sure outcome is
    the highest level it can force: capotto for the declarer side when it can take every
    third still to be won (35 in all: it has taken every trick so far), for the other side
    when the declarer side cannot take a single third. (Thirds stand in for tricks: a side
    could take every third and lose a trick of four pointless cards: at every position of
    300 greedy deals, right in all 3,631 where it gave the declarer side capotto and in all
    but 4 of 1,766 where it gave it to the defenders; docs/pimc.md.)"""
    decl_alive, def_alive = alive
    if len(pos.trick) == 3:  # the card finished a trick: its winner leads ``after``
        won = after.declarer_side >> after.leader & 1
        decl_alive, def_alive = decl_alive and won, def_alive and not won
    if made and decl_alive:
        sweep = reached(budget, after, TOTAL_THIRDS)
        return None if sweep is None else MADE_CAPOTTO if sweep else MADE
    if not made and def_alive:
        any_third = reached(budget, after, after.taken + 1)
        return None if any_third is None else LOST if any_third else LOST_CAPOTTO
    return int(made)


def initial_hands(sampler, world, rng) -> list[int]:
    """The four hands as dealt, before the auction, in ``world`` (drawn by ``sampler``): the
    cards each seat holds now and has played, with the exchange undone by
    :func:`~mediatore_env.mediatore.worlds.undo_exchange`, as
    :meth:`~mediatore_env.mediatore.worlds.WorldSampler.deal` does without the replay (where
    the seat cannot tell, the card passed back and 4 of the declarer's 13 cards as the monte
    are drawn at random from ``rng``, a ``random.Random``)."""
    return undo_exchange(sampler.knowledge, world, lambda cards, k: _pick(cards, k, rng)).hands


def _pick(mask: int, k: int, rng) -> int:
    """``k`` cards of ``mask`` at random, as a bitset. Drawn with ``rng.sample``, not like the
    sampler's own draws, so that the agent's choices stay those it has always made."""
    out = 0
    for c in rng.sample(cards_of(mask), k):
        out |= bit(c)
    return out


class AuctionLikelihood:
    """How likely the other seats were to bid as they did, given the hands they were dealt.

    Each call of the auction by another seat is scored as a softmax, at ``temperature``
    units, over what the greedy bidding policy (:class:`~agents.mediatore.greedy.BiddingPolicy`)
    values each call it could have made: passing at 0, each contract above the last bid at
    its expected payoff ``(2 p - 1) W`` (``p`` from :data:`~agents.mediatore.greedy.BID_MODELS`). So a
    declarer's hand should make its contract likely, a passer's hand should not make a bid
    pay. Calls of the seat itself are known and not scored.

        >>> from mediatore_env import Deal, Rules
        >>> likelihood = AuctionLikelihood(Deal(Rules(), 0, pack=list(range(40))).view(1))
        >>> likelihood([0, 0, 0, 0])  # no call made yet
        1.0
    """

    def __init__(self, view, temperature: float = 2.0, models=None):
        from .greedy import BID_MODELS, _declarer_win_payment, lead_bonus
        rules = view.rules
        self.temperature = temperature
        self.models = BID_MODELS if models is None else models
        top, current = rules.top_contract, 0
        self.calls = []  # (seat, index of the call among the options, options)
        for seat, bid in view.auction:
            options = (0,) + tuple(c for c in CONTRACTS if current < c <= top)
            if seat != view.seat and len(options) > 1:
                self.calls.append((seat, options.index(bid), options))
            current = max(current, bid)
        self.win = {c: _declarer_win_payment(rules, c) for c in CONTRACTS if c <= top}
        self.bonus = {(s, c): lead_bonus(rules, c, s, view.mano)
                      for s in range(4) for c in self.win}

    def __call__(self, hands) -> float:
        """The chance of the auction's calls (the seat's own aside) with ``hands`` as dealt."""
        likelihood = 1.0
        t = self.temperature
        values = {}
        for seat, index, options in self.calls:
            scores = []
            for c in options:
                if c == 0:
                    scores.append(0.0)
                    continue
                v = values.get((seat, c))
                if v is None:
                    x = self.models[c](hands[seat]) + self.bonus[seat, c]
                    p = 1.0 / (1.0 + math.exp(-x)) if x > -50 else 0.0
                    v = values[seat, c] = (2 * p - 1) * self.win[c] / t
                scores.append(v)
            top = max(scores)
            likelihood *= math.exp(scores[index] - top) / sum(math.exp(v - top) for v in scores)
        return likelihood


class WeightedSampler:
    """Worlds drawn from ``sampler`` in proportion to ``weight(initial hands)``: ``pool``
    worlds drawn uniformly once, then each :meth:`sample` picks one of them with probability
    proportional to its weight (sampling importance resampling; a world may come twice)."""

    def __init__(self, sampler, weight, pool: int, rng):
        self.worlds, cumulative, total = [], [], 0.0
        for _ in range(pool):
            world = sampler.sample(rng)
            total += weight(initial_hands(sampler, world, rng))
            self.worlds.append(world)
            cumulative.append(total)
        if not total > 0:  # every world unlikely beyond floating point: keep them uniform
            cumulative, total = list(range(1, pool + 1)), float(pool)
        self.cumulative, self.total = cumulative, total

    def sample(self, rng):
        i = bisect.bisect_right(self.cumulative, rng.random() * self.total)
        return self.worlds[min(i, len(self.worlds) - 1)]


class PIMCAgent(WorldSearch):
    """Plays cards by PIMC (see the module docstring); bids, calls and exchanges like
    :class:`~agents.mediatore.greedy.GreedyAgent`, whose policies it takes as options."""

    name = "pimc"
    clock = "cpu"
    view_type = SeatView

    def __init__(self, worlds: int = 24, time_limit: float | None = None,
                 bidding: str | float | BiddingPolicy | None = None,
                 bid_boost: float | str | dict | None = None,
                 calling: str | CallingPolicy | None = None,
                 exchange: str | ExchangePolicy | None = None, play: PlayPolicy | None = None,
                 max_time: float | None = 0.075, capotto: bool = False,
                 auction: float | None = None, pool: int = 3, margin: int = 3,
                 declarer_nodes: int | None = None):
        check_budget(worlds, time_limit, max_time)
        # The first world always counts (min_worlds 1); max_time: see the module docstring.
        super().__init__(time_limit, 1, worlds, 0, max_time)
        #: count capotto (a side taking all nine tricks: docs/rules.md 7) in each world's payoff
        self.capotto = capotto
        #: worlds weighted by the auction (:class:`AuctionLikelihood` at this temperature, in
        #: units; None: uniform worlds), resampled from ``pool`` times ``worlds`` drawn
        if auction is not None and not auction > 0:
            raise ValueError(f"auction must be a positive temperature or None, got {auction!r}")
        if isinstance(pool, bool) or not isinstance(pool, int) or pool < 1:
            raise ValueError(f"pool must be a positive int, got {pool!r}")
        self.auction, self.pool = auction, pool
        #: thirds beyond the contract's line for the tie-break between cards of equal value
        #: (0: none; see :meth:`card_values`)
        if isinstance(margin, bool) or not isinstance(margin, int) or not 0 <= margin < WIN_THIRDS:
            raise ValueError(f"margin must be a whole number of thirds from 0 to 17, got {margin!r}")
        self.margin, self.margin_counts = margin, None
        #: nodes the last :meth:`card_values` searched, and its node budget (None: set by time)
        self.nodes, self.node_budget = 0, None
        self._pays: dict = {}  # a decision's payments to the seat, by the world's partner
        boosts = _boosts(BID_BOOST if bid_boost is None and bidding is None else bid_boost or 0.0)
        if isinstance(bidding, (int, float)) and not isinstance(bidding, bool) or any(boosts.values()):
            if bidding is not None and not isinstance(bidding, (int, float)):
                raise ValueError("bid_boost goes with the greedy bidding policy, or a number as its "
                                 f"margin; not with bidding={bidding!r}")
            from .greedy import BID_MODELS
            margin = 0.0 if bidding is None else float(bidding)
            models = {c: _Boosted(m, boosts.get(c, 0.0)) for c, m in BID_MODELS.items()}
            bidding = BiddingPolicy(margin=margin, models=models)
        self.bid_boost = boosts
        check_work("declarer_nodes", declarer_nodes)
        if declarer_nodes is not None and time_limit is not None:
            raise ValueError(f"declarer_nodes is the work budget; with time_limit={time_limit!r} "
                             f"the call and exchange searches run on the clock "
                             f"({DECLARER_TIME_LIMIT} s): give one of the two")
        if "search" in (calling, exchange):  # by simulation (agents/mediatore/declarer.py)
            # timed where the card play is timed, else the searches' work budgets
            timed = ({"nodes": declarer_nodes} if time_limit is None
                     else {"time_limit": DECLARER_TIME_LIMIT})
            calling = SimulatedCall(**timed) if calling == "search" else calling
            exchange = SimulatedExchange(**timed) if exchange == "search" else exchange
        elif declarer_nodes is not None:
            raise ValueError("declarer_nodes is the budget of calling='search' and "
                             f"exchange='search'; neither is set (calling={calling!r}, "
                             f"exchange={exchange!r})")
        for option, value in (("calling", calling), ("exchange", exchange)):
            if isinstance(value, str):
                raise ValueError(f"{option} must be 'search' or a policy object, got {value!r}")
        self.greedy = GreedyAgent(bidding=bidding, calling=calling, exchange=exchange, play=play)
        #: per decision: (phase, trick number, worlds solved, CPU seconds, wall seconds)
        self.timings: list[tuple[int, int, int, float, float]] = []

    @property
    def worlds(self) -> int:
        """The most worlds a card play solves."""
        return self.max_worlds

    def reset(self, seed=None):
        super().reset(seed)
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
        cards = sorted({card_of_move(m) for m in legal})
        trick_cards = 0
        for c in view.trick:
            trick_cards |= bit(c)
        rep = equivalent_cards(view.hand, cards, view.played & ~trick_cards)
        candidates = sorted(set(rep.values()), reverse=True)
        if len(candidates) == 1:
            return self._with_signal(view, candidates[0], legal), 0
        values, n = self.card_values(view, candidates)
        best = max(values.values())
        top = [c for c in candidates if values[c] == best]
        if len(top) > 1 and self.margin_counts:
            closest = max(self.margin_counts[c] for c in top)
            top = [c for c in top if self.margin_counts[c] == closest]
        if len(top) > 1:
            greedy = self.greedy.play.play(view)
            if rep[card_of_move(greedy)] in top:
                return greedy, n
        return self._with_signal(view, top[0], legal), n

    def card_values(self, view, cards: list[int]) -> tuple[dict[int, float], int]:
        """The sum over sampled worlds of this seat's payoff after each card of ``cards``
        (see the module docstring), and the number of worlds: :meth:`search`, each world
        scored by :meth:`move_values`.

        Each search's node budget: with a ``time_limit``, the CPU time left before
        ``max_time`` (counted from this call) at ``NODES_PER_SECOND``; with ``time_limit=None``,
        what the decision has left of ``max_time * NODES_PER_SECOND`` nodes (after clearing
        the table, so the count does not depend on earlier searches). A search out of nodes
        drops its world and ends the sampling; with no world finished every value is 0, and
        :meth:`play` then takes the greedy agent's card. :attr:`nodes` and
        :attr:`node_budget` record the nodes used and the fixed budget; :attr:`margin_counts`
        the margin tie-break's count per card (None when two cards differed in a world, or
        ``margin`` is 0)."""
        # The margin tie-break (module docstring): counted while every card has had the same
        # outcome in each world, +1 for the seat's side keeping the margin, -1 for the other.
        self.margin_counts = dict.fromkeys(cards, 0) if self.margin else None
        self._pays = {}
        values, budget = self.search(view, cards)
        self.nodes, self.node_budget = budget.nodes, budget.max_nodes
        return values, budget.worlds

    def move_values(self, world, view, cards: list[int], budget: SearchBudget
                    ) -> dict[int, float] | None:
        """This seat's payment after each card in ``world``, each card's outcome solved double
        dummy (capotto too with ``capotto``); the margin tie-break counted. None when the
        nodes or the time ran out before every card was solved."""
        rules, contract, declarer, me = view.rules, view.contract, view.declarer, view.seat
        partner = world.partner if contract == CHIAMO else None
        pay = self._pays.get(partner)
        if pay is None:  # indexed by outcome: LOST, MADE, MADE_CAPOTTO, LOST_CAPOTTO
            pay = self._pays[partner] = tuple(
                payments(rules, contract, declarer, partner, view.giver, won, cap)[me]
                for won, cap in OUTCOMES)
        side = side_mask(contract, declarer, partner)
        alive = (_capotto_alive(view.tricks, side) if self.capotto and rules.capotto_bonus
                 else None)
        won = view.thirds_won
        taken = sum(won[s] for s in range(4) if side >> s & 1)
        pos = Position(world.hands, view.leader, tuple(view.trick), side, taken,
                       thirds_of(world.monte))
        results = []
        for c in cards:
            after = play_card(pos, c)
            made = reached(budget, after)
            if made is not None and alive is not None:
                made = _capotto_outcome(pos, after, made, alive, budget)
            if made is None:
                return None  # out of nodes: this world is left out, and no other is started
            results.append(made)
            if not budget.in_time():
                return None  # out of time: this world is left out
        margins = self.margin_counts
        if margins is not None and results.count(results[0]) < len(results):
            margins = self.margin_counts = None  # two cards differ: no tie to break
        if margins is not None:
            made = results[0] in (MADE, MADE_CAPOTTO)
            target = WIN_THIRDS + self.margin if made else WIN_THIRDS - self.margin
            closer = []
            for c in cards:
                answer = reached(budget, play_card(pos, c), target)
                if answer is None:
                    break  # out of nodes: the budget is spent, this world still counts
                closer.append(answer)
            else:
                sign = 1 if side >> me & 1 else -1
                for c, answer in zip(cards, closer):
                    margins[c] += sign * answer
        return {c: pay[made] for c, made in zip(cards, results)}

    def world_sampler(self, view):
        """The worlds :meth:`card_values` draws from: the view's uniform sampler, or with
        ``auction`` set, those worlds weighted by :class:`AuctionLikelihood`."""
        sampler = WorldSampler(view)
        if self.auction is None:
            return sampler
        likelihood = AuctionLikelihood(view, self.auction)
        if not likelihood.calls:
            return sampler
        return WeightedSampler(sampler, likelihood, self.pool * self.worlds, self.rng)

    def _with_signal(self, view, card: int, legal: list[int]) -> int:
        """The move playing ``card``: on a lead, with greedy's signal for it, or volo."""
        move = play_move(card)
        if view.trick or len(legal) == len({card_of_move(m) for m in legal}):
            return move
        greedy = self.greedy.play.play(view)
        if card_of_move(greedy) == card:
            return greedy
        volo = play_move(card, VOLO)
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
