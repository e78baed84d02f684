"""The seer: PIMC that sees every card. A bound for issue 38, not an agent.

How much could better knowledge of the hidden cards be worth to an agent at a table of three
``pimc``? This module answers with a cheat: :class:`Seer` is the PIMC agent whose one world
is the real deal (every hand, the monte, the partner), read from the deal behind its view.
No agent may do this (agents read only their seat's view, and the registry holds none that
does); it lives in ``benchmarks/`` so that nothing ships it. What it makes at a table of
three ``pimc`` bounds what any agent of the same kind makes by knowing more: better worlds,
inference, a learned card-location model.

Three parts see, each switched on by an option, so the bound splits by decision:

- ``play`` (always): the card play solves the real deal double dummy, as PIMC solves each
  of its sampled worlds;
- ``declarer=True``: the call and the exchange by simulation
  (:mod:`agents.mediatore.declarer`) solve the real deal, with more candidates than the
  searches of ``pimc-infer`` (every card worth calling, 16 removals);
- ``bidding=True``: each bid is chosen by solving the real deal for every contract the seat
  may bid (all others passing, the seer's call among the cards worth calling, the greedy
  exchange, the first lead solved double dummy): it bids the best-paying contract it would
  make, else passes.

Run it as any agent by its path, with ``benchmarks`` on the path (in every worker)::

    PYTHONPATH=benchmarks mediatore-bench --agents seer:Seer pimc pimc pimc --deals 1000 --seed 6101 --jobs 2

docs/infer.md has what it made.
"""

from __future__ import annotations

from agents.mediatore.declarer import SimulatedCall, SimulatedExchange, made_after_exchange
from agents.mediatore.greedy import ExchangePolicy
from agents.mediatore.pimc import PIMCAgent
from agents.search import SearchBudget
from mediatore_env.mediatore.moves import PASS, call_move
from mediatore_env.mediatore.rules import CHIAMO, payments
from mediatore_env.mediatore.tables import CALL_CONTRACTS, call_candidates, forced_deal
from mediatore_env.mediatore.worlds import World


def real_deal(view):
    """The deal behind ``view``: the cheat (a private attribute no agent reads)."""
    return view._game


class _RealWorld:
    """A sampler whose every world is the real one."""

    def __init__(self, view):
        deal = real_deal(view)
        partner = deal.partner if deal.contract == CHIAMO else None
        self.world = World(tuple(deal.hands), deal.monte, partner)

    def sample(self, rng):
        return self.world


class _RealDeal:
    """A sampler whose every world is a copy of the real deal (for the call)."""

    def __init__(self, view):
        self.deal = real_deal(view)

    def sample(self, rng):
        return self.deal.clone()


class SeerExchange(SimulatedExchange):
    def __init__(self, **options):
        super().__init__(candidates=16, worlds=1, **options)

    def world_sampler(self, view):
        return _RealWorld(view)


class SeerCall(SimulatedCall):
    def __init__(self, **options):
        super().__init__(candidates=40, worlds=1, **options)

    def world_sampler(self, view):
        return _RealDeal(view)


class SeerBidding:
    """Bids the best-paying contract that the real deal says the seat would make, else
    passes (the module docstring). ``nodes``: the solver's budget per contract and call."""

    def __init__(self, nodes: int = 4_200_000):
        self.nodes = nodes
        self.exchange = ExchangePolicy()

    def reset(self, seed=None):
        pass

    def payoff(self, deal, seat: int, contract: int) -> int:
        """What ``seat`` is paid declaring ``contract`` (the best call) on the real cards;
        a contract it cannot make pays its loss."""
        rules = deal.rules
        forced = forced_deal(rules, deal.pack, deal.dealer, seat, contract)
        calls = (call_candidates(rules, forced.hands[seat], "top") if contract in CALL_CONTRACTS
                 else [None])
        best = None
        for called in calls:
            after = forced.clone()
            if called is not None:
                after.apply(call_move(called))
            made = made_after_exchange(after, self.exchange,
                                       SearchBudget(1, max_nodes=self.nodes))
            pay = payments(rules, contract, seat, after.partner, after.giver, bool(made),
                           False)[seat]
            best = pay if best is None else max(best, pay)
        return best

    def bid(self, view) -> int:
        deal = real_deal(view)
        best, best_pay = PASS, 0
        for contract in view.legal_moves()[1:]:  # bid move ids are the contract ids
            pay = self.payoff(deal, view.seat, contract)
            if pay > best_pay:
                best, best_pay = contract, pay
        return best


class Seer(PIMCAgent):
    """PIMC whose one world is the real deal (the module docstring)."""

    name = "seer"

    def __init__(self, declarer: bool = False, bidding: bool = False, **options):
        if declarer:
            options.update(calling=SeerCall(), exchange=SeerExchange())
        if bidding:
            options.update(bidding=SeerBidding(), bid_boost=0.0)
        super().__init__(worlds=1, **options)

    def world_sampler(self, view):
        return _RealWorld(view)
