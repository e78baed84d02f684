"""pimc-infer against plain PIMC: paired differences of tournament results, and decision times.

    python3 benchmarks/bench_infer.py --paired A.json:AGENT B.json:AGENT [A2.json:AGENT B2.json:AGENT ...]
    python3 benchmarks/bench_infer.py --pooled A.json:AGENT B.json:AGENT ...
    python3 benchmarks/bench_infer.py --timing 20 [--seed 2605] [--infer pimc-infer]
    python3 benchmarks/bench_infer.py --accuracy 40 [--seed 2605] [--infer pimc-infer]
    python3 benchmarks/bench_infer.py --exchange 160 [--seed 2622]
    python3 benchmarks/bench_infer.py --bidding 100 [--seed 6201] [--jobs 2]

``--paired``: two result files of the same deals (``mediatore-bench --json`` or
``benchmarks/bench_pimc.py --json``, same ``--deals`` and ``--seed``) and the agent to read in
each; prints the mean of the per-deal differences (A's units minus B's) with a 95% CI over
the deals, e.g. ``pimc-infer`` against three greedy agents minus ``pimc`` against the same
three on the same deals; more pairs (each of its own deals) pool their differences. Files
of the other games work alike: their results per game (Tressette) or per session (club) take
the deals' place.

``--pooled``: one agent's per-deal results in several result files of different deals (other
seeds) taken together: the mean and its 95% CI over all their deals.

``--timing N``: N deals (one rotation each, the pimc-infer agent in seat ``i % 4`` of deal
``i``) of ``pimc-infer pimc pimc pimc``, and the CPU time per card play of each kind of agent
at the same table: median, p90, p99, and the worlds solved per decision; the same over all
its decisions (bids, calls, the exchange's moves too), and over the exchange's moves alone; and
how many worlds its call and exchange searches scored of the most they may. The machine and its
load go with the figures: a busy machine gives the time-limited agents fewer worlds.

``--accuracy N``: how much closer to the real deal the weighted worlds are. N deals of four
``pimc`` agents (node budget, no time limit: reproducible); after the 8th, 16th and 24th card
played, the seat to play draws the agent's pool of worlds and weighs it as the agent does;
printed: the share of the cards it cannot see that a world puts where they really are, in
uniform worlds (plain PIMC's) and weighted, and the pool's effective size (Kish).

``--exchange N``: the exchange by simulation (agents/mediatore/declarer.py) against the greedy
exchange. In N deals, every hand PIMC's bidding model gives a 60% chance or more at Mediatore
is made Mediatore declarer (the others passing, the greedy call); the greedy exchange and the
searched one (default options, node budget instead of the time limit: reproducible) are each
solved double dummy on the real cards: the share of the contracts made, and the paired
difference with its 95% CI.

``--bidding N``: would bidding by simulation know better than the bidding models which hands
make their contract? In N deals, every seat is made declarer of Chiamo and of Mediatore (the
others passing) where PIMC's bidding model (the greedy model with ``pimc``'s boost) gives its
hand a chance between 20% and 90%. Before the auction, the share of 16 worlds drawn from the
seat's view (the greedy call and exchange played in each) in which the contract is made
double dummy; then the deal is played out by four ``pimc`` agents. Printed per contract: the
share made, what the model predicts, the worlds' mean share, and the held-out log-likelihood
per declaration (5 folds) of four predictors of the outcome: the model as it is, the model
refitted (``a + b x``), the worlds' share (``a + b logit(share)``) and both.
"""

from __future__ import annotations

import json
import os
import sys

from agents import make_agent
from agents.base import play
from agents.mediatore.tournament import HOOKS
from agents.tournament import derive_seed, mean_ci
from mediatore_env.mediatore.game import Deal
from mediatore_env.mediatore.moves import DISCARD, GIVE, PLAY
from mediatore_env.mediatore.rules import Rules
from mediatore_env.runinfo import machine
from mediatore_env.tools.checks import ArgumentParser, non_negative_int, positive_int


def per_episode(spec: str) -> tuple[list[float], str]:
    """The per-episode results of one agent in a result file, ``PATH.json:AGENT``, and what an
    episode is there (``deal``, ``game`` or ``episode``: the key they are saved under)."""
    path, colon, agent = spec.partition(".json:")  # agent specs have colons of their own
    if not colon or not path or not agent:
        raise ValueError(f"expected PATH.json:AGENT, got {spec!r}")
    path += ".json"
    try:
        with open(path) as f:
            data = json.load(f)
    except RecursionError:  # lists or objects nested past Python's recursion limit
        raise ValueError(f"{path}: not a tournament result (its JSON is nested too "
                         "deeply)") from None
    except ValueError as e:  # not text, or not JSON
        raise ValueError(f"{path}: not JSON ({e})") from None
    standings = data.get("standings") if isinstance(data, dict) else None
    if not (isinstance(standings, list)
            and all(isinstance(s, dict) and isinstance(s.get("name"), str) for s in standings)):
        raise ValueError(f"{path}: not a tournament result as mediatore-bench --json saves it "
                         "(its standings, each with its agent's name)")
    for s in standings:
        if s["name"] == agent:
            key = next((k for k in ("per_episode", "per_game") if s.get(k)), "per_deal")
            if not isinstance(s.get(key), list):
                raise ValueError(f"{path}: agent {agent!r} has no per-episode results "
                                 "(per_deal, per_game or per_episode)")
            return s[key], key.partition("_")[2]
    names = ", ".join(s["name"] for s in standings)
    raise ValueError(f"no agent {agent!r} in {path}; it has: {names}")


def one_unit(units: list[str]) -> str:
    """The one unit of ``units`` (deal, game, episode); ``ValueError`` if the files mix games."""
    if len(set(units)) > 1:
        raise ValueError(f"cannot pool {' with '.join(u + 's' for u in sorted(set(units)))}: "
                         "give files of one game")
    return units[0]


def paired(specs: list[str]) -> str:
    """The per-episode differences of each pair (A, B) of ``specs``, pooled over the pairs."""
    if len(specs) % 2:
        raise ValueError(f"--paired takes pairs A.json:AGENT B.json:AGENT, got {len(specs)} "
                         f"file{'s' if len(specs) > 1 else ''}")
    results = [per_episode(spec) for spec in specs]
    unit = one_unit([u for _, u in results])
    differences = []
    for (a, (x, _)), (b, (y, _)) in zip(zip(specs[::2], results[::2]),
                                        zip(specs[1::2], results[1::2])):
        if len(x) != len(y):
            raise ValueError(f"{a} has {len(x)} {unit}s, {b} {len(y)}: not the same {unit}s")
        differences += [p - q for p, q in zip(x, y)]
    mean, low, high = mean_ci(differences)
    what = f"{specs[0]} minus {specs[1]}" if len(specs) == 2 else f"{len(specs) // 2} pairs pooled"
    return (f"{what}: {mean:+.2f} [{low:+.2f}, {high:+.2f}] units/{unit}, "
            f"{len(differences)} {unit}s")


def pooled(specs: list[str]) -> str:
    results = [per_episode(spec) for spec in specs]
    unit = one_unit([u for _, u in results])
    values = [v for vs, _ in results for v in vs]
    mean, low, high = mean_ci(values)
    return (f"pooled over {len(specs)} files: {mean:+.2f} [{low:+.2f}, {high:+.2f}] "
            f"units/{unit}, {len(values)} {unit}s")


def quantiles(values: list[float], what: str = "card plays") -> str:
    v = sorted(values)
    n = len(v)
    return (f"{n} {what}, CPU median {1e3 * v[n // 2]:.1f} ms, p90 "
            f"{1e3 * v[int(0.9 * (n - 1))]:.1f}, p99 {1e3 * v[int(0.99 * (n - 1))]:.1f}, "
            f"max {1e3 * v[-1]:.1f}")


def timing(deals: int, seed: int, spec: str) -> str:
    infer = make_agent(spec)
    others = [make_agent("pimc") for _ in range(3)]
    for i in range(deals):
        seated = others[:]
        seated.insert(i % 4, infer)
        play(Deal(Rules(), HOOKS.dealer(i, 4), HOOKS.pack(seed, i, 0)), seated,
             seeds=[derive_seed(seed, i, s) for s in range(4)])
    lines = [f"{deals} deals of seed {seed}, {spec} pimc pimc pimc; {machine()}, "
             f"load average {os.getloadavg()[0]:.2f}"]
    for name, agents in ((spec, [infer]), ("pimc", others)):
        every = [r for a in agents for r in a.timings]
        rows = [r for r in every if r[0] == PLAY]
        worlds = sum(r[2] for r in rows) / len(rows)
        lines.append(f"  {name}: {quantiles([r[3] for r in rows])}; worlds mean {worlds:.1f}")
        lines.append(f"  {name}: {quantiles([r[3] for r in every], 'decisions in all')}")
        exchange = [r[3] for r in every if r[0] in (DISCARD, GIVE)]
        if exchange:
            lines.append(f"  {name}: {quantiles(exchange, 'exchange moves')}")
    searches = [p for p in (infer.greedy.calling, infer.greedy.exchange) if hasattr(p, "scored")]
    scored = [w for p in searches for w in p.scored]
    if scored:
        full = sum(w == p.worlds for p in searches for w in p.scored)
        lines.append(f"  {spec}: {len(scored)} calls and exchanges searched, worlds scored mean "
                     f"{sum(scored) / len(scored):.1f}, all {searches[0].worlds} in {full}")
    return "\n".join(lines)


def accuracy(deals: int, seed: int, spec: str) -> str:
    from agents.mediatore.infer import InferAgent
    from mediatore_env.mediatore.worlds import WorldSampler
    import numpy as np
    agent = make_agent(spec)
    if not isinstance(agent, InferAgent) or not (agent.infer or agent.auction):
        raise ValueError(f"--infer {spec!r} weighs no worlds: give a pimc-infer agent with "
                         "infer > 0 or auction set")
    players = [make_agent("pimc:time_limit=None") for _ in range(4)]
    uniform, weighted, effective = [], [], []
    for i in range(deals):
        deal = Deal(Rules(), HOOKS.dealer(i, 4), HOOKS.pack(seed, i, 0))
        for s, p in enumerate(players):
            p.reset(derive_seed(seed, i, s))
        agent.reset(derive_seed(seed, i, 0))
        cards = 0
        while not deal.is_over:
            seat = deal.to_move
            view = deal.view(seat)
            if deal.phase == PLAY and cards in (8, 16, 24):
                worlds, log_w = agent.weighed_pool(view, WorldSampler(view))
                w = np.exp(log_w - log_w.max())
                w /= w.sum()
                hidden = [h for s, h in enumerate(deal.hands) if s != seat]
                right = np.array([sum((x & h).bit_count() for s, (x, h) in
                                      enumerate(zip(world.hands, deal.hands)) if s != seat)
                                  for world in worlds]) / sum(h.bit_count() for h in hidden)
                uniform.append(right.mean())
                weighted.append(w @ right)
                effective.append(1 / (w ** 2).sum())
            cards += deal.phase == PLAY
            deal.apply(players[seat].act(None, view))
    u, lo, hi = mean_ci(uniform)
    d, dlo, dhi = mean_ci([b - a for a, b in zip(uniform, weighted)])
    return (f"{deals} deals of seed {seed}, {len(uniform)} positions (after the 8th, 16th, "
            f"24th card): hidden cards placed right, uniform worlds {u:.3f}, weighted by {spec} "
            f"{u + d:.3f} (+{d:.3f} [{dlo:+.3f}, {dhi:+.3f}]); effective pool "
            f"{np.mean(effective):.1f} of {agent.pool * agent.worlds}")


def exchange(deals: int, seed: int) -> str:
    """The greedy exchange against the exchange by simulation, both solved on the real cards."""
    from agents.mediatore.declarer import SimulatedExchange, play_exchange
    from agents.mediatore.greedy import BID_MODELS, GreedyAgent
    from agents.mediatore.pimc import BID_BOOST
    from mediatore_env.analysis.solver import reaches
    from mediatore_env.mediatore.tables import contract_position, forced_deal
    from mediatore_env.mediatore.nine_tricks import WIN_THIRDS
    from mediatore_env.mediatore.rules import MEDIATORE
    import math
    greedy, searched = GreedyAgent(), SimulatedExchange(time_limit=None)
    rows = []
    for i in range(deals):
        pack = HOOKS.pack(seed, i, 0)
        hands = Deal(Rules(), HOOKS.dealer(i, 4), pack).hands
        for seat in range(4):
            logit = BID_MODELS[MEDIATORE](hands[seat]) + BID_BOOST[MEDIATORE]
            if 1 / (1 + math.exp(-logit)) < 0.6:
                continue  # hands PIMC's bidding would not take near Mediatore
            deal = forced_deal(Rules(), pack, HOOKS.dealer(i, 4), seat, MEDIATORE)
            deal.apply(greedy.act(None, deal.view(seat)))
            if deal.phase != DISCARD:
                continue
            searched.reset(derive_seed(seed, i, seat))
            made = []
            for policy in (greedy.exchange, searched):
                after = deal.clone()
                play_exchange(after, policy)
                made.append(int(reaches(contract_position(after), WIN_THIRDS)))
            rows.append(made)
    g, lo, hi = mean_ci([a for a, _ in rows])
    d, dlo, dhi = mean_ci([b - a for a, b in rows])
    return (f"{deals} deals of seed {seed}, {len(rows)} forced Mediatores (hands of a 60% chance "
            f"or more by PIMC's model), made double dummy on the real cards: greedy exchange "
            f"{g:.3f}, by simulation {g + d:.3f} ({d:+.3f} [{dlo:+.3f}, {dhi:+.3f}])")


def _bidding_rows(task) -> list[tuple]:
    """The declarations of deals ``range(start, stop)`` (see ``--bidding``): (contract, the
    model's logit, the worlds' share made, made at the table)."""
    import math

    from agents.mediatore.declarer import DeclarerSearch, made_after_exchange
    from agents.mediatore.greedy import BID_MODELS, CallingPolicy, ExchangePolicy, lead_bonus
    from agents.mediatore.pimc import BID_BOOST
    from mediatore_env.mediatore.rules import CHIAMO, MEDIATORE
    from mediatore_env.mediatore.tables import CALL_CONTRACTS, forced_deal
    from mediatore_env.mediatore.worlds import WorldSampler

    class Worlds:  # whole deals the seat cannot tell from the real one
        def __init__(self, view):
            self.sample = WorldSampler(view).sample_deal

    class MadeShare(DeclarerSearch):
        """In how many sampled worlds the seat, made declarer, makes each contract."""
        calling, exchange = CallingPolicy(), ExchangePolicy()

        def world_sampler(self, view):
            return Worlds(view)

        def move_values(self, deal, view, options, budget):
            made = {}
            for contract in options:
                forced = forced_deal(view.rules, deal.pack, deal.dealer, view.seat, contract)
                if contract in CALL_CONTRACTS:
                    forced.apply(self.calling.call(forced.view(view.seat)))
                made[contract] = made_after_exchange(forced, self.exchange, budget)
                if made[contract] is None:
                    return None
            return made

    seed, start, stop = task
    rules, share = Rules(), MadeShare(1, 16, None, 1.2, 0)
    pimc = [make_agent("pimc") for _ in range(4)]
    rows = []
    for i in range(start, stop):
        pack, dealer = HOOKS.pack(seed, i, 0), HOOKS.dealer(i, 4)
        for declarer in range(4):
            for contract in (CHIAMO, MEDIATORE):
                deal = Deal(rules, dealer, pack)
                x = (BID_MODELS[contract](deal.hands[declarer]) + BID_BOOST[contract]
                     + lead_bonus(rules, contract, declarer, deal.mano))
                if not 0.2 <= 1 / (1 + math.exp(-x)) <= 0.9:
                    continue
                share.reset(i * 8 + declarer)
                totals, budget = share.search(deal.view(declarer), [contract])  # before bidding
                deal = forced_deal(rules, pack, dealer, declarer, contract)
                play(deal, pimc, seeds=[i * 4 + s for s in range(4)])
                if budget.worlds:
                    rows.append((contract, x, totals[contract] / budget.worlds,
                                 int(deal.declarer_won)))
    return rows


def bidding(deals: int, seed: int, jobs: int) -> str:
    """The ``--bidding`` study (the module docstring)."""
    import random

    import numpy as np

    from mediatore_env.mediatore.rules import CONTRACT_NAMES
    from mediatore_env.runinfo import process_pool

    rows = []
    with process_pool(jobs) as pool:
        for part in pool.imap(_bidding_rows, [(seed, i, min(i + 10, deals))
                                              for i in range(0, deals, 10)]):
            rows.extend(part)

    def fit(x, y):  # logistic regression by Newton's method, a whisker of ridge
        w = np.zeros(x.shape[1])
        for _ in range(50):
            p = 1 / (1 + np.exp(-x @ w))
            hess = (x * (p * (1 - p))[:, None]).T @ x + 1e-3 * np.eye(len(w))
            w += np.linalg.solve(hess, x.T @ (y - p) - 1e-3 * w)
        return w

    def loglik(x, y, w):
        p = np.clip(1 / (1 + np.exp(-x @ w)), 1e-9, 1 - 1e-9)
        return float(np.sum(y * np.log(p) + (1 - y) * np.log(1 - p)))

    out = [f"{deals} deals of seed {seed}; forced declarations played out by four pimc agents"]
    for contract in sorted({r[0] for r in rows}):
        mine = [r for r in rows if r[0] == contract]
        x = np.array([r[1] for r in mine])
        share = np.array([r[2] for r in mine])
        y = np.array([r[3] for r in mine], float)
        smoothed = (share * 16 + 0.5) / 17  # a share of 0 or 1 of the 16 worlds has a logit
        one = np.ones_like(x)
        predictors = {"the model": None, "the model refitted": np.c_[one, x],
                      "the worlds' share": np.c_[one, np.log(smoothed / (1 - smoothed))]}
        predictors["both"] = np.c_[predictors["the model refitted"], predictors["the worlds' share"][:, 1]]
        order = list(range(len(mine)))
        random.Random(0).shuffle(order)
        folds = [order[k::5] for k in range(5)]
        out.append(f"  {CONTRACT_NAMES[contract]}: {len(mine)} declarations, made {y.mean():.1%}, "
                   f"the model predicts {np.mean(1 / (1 + np.exp(-x))):.1%}, the worlds' "
                   f"share {share.mean():.1%}")
        for name, features in predictors.items():
            if features is None:
                value = loglik(x[:, None], y, np.ones(1))
            else:
                value = 0.0
                for fold in folds:
                    held = set(fold)
                    train = [k for k in order if k not in held]
                    value += loglik(features[fold], y[fold], fit(features[train], y[train]))
            out.append(f"    {name:20s} held-out log-likelihood per declaration "
                       f"{value / len(mine):.4f}")
    return "\n".join(out)


def main(argv=None) -> int:
    parser = ArgumentParser(prog="bench_infer.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("--paired", nargs="+", metavar="PATH.json:AGENT",
                        help="pairs A B of the same deals; several pairs are pooled")
    parser.add_argument("--pooled", nargs="+", metavar="PATH.json:AGENT")
    parser.add_argument("--timing", type=positive_int, metavar="DEALS")
    parser.add_argument("--accuracy", type=positive_int, metavar="DEALS")
    parser.add_argument("--exchange", type=positive_int, metavar="DEALS")
    parser.add_argument("--bidding", type=positive_int, metavar="DEALS")
    parser.add_argument("--jobs", type=positive_int, default=1, help="processes (--bidding)")
    parser.add_argument("--seed", type=non_negative_int, default=2605)
    parser.add_argument("--infer", default="pimc-infer", help="the agent timed against pimc")
    args = parser.parse_args(argv)
    if not (args.paired or args.pooled or args.timing or args.accuracy or args.exchange
            or args.bidding):
        parser.error("give --paired A.json:AGENT B.json:AGENT, --pooled PATH.json:AGENT ..., "
                     "--timing DEALS, --accuracy DEALS, --exchange DEALS or --bidding DEALS")
    try:
        if args.paired:
            print(paired(args.paired))
        if args.pooled:
            print(pooled(args.pooled))
        if args.timing:
            print(timing(args.timing, args.seed, args.infer))
        if args.accuracy:
            print(accuracy(args.accuracy, args.seed, args.infer))
        if args.exchange:
            print(exchange(args.exchange, args.seed))
        if args.bidding:
            print(bidding(args.bidding, args.seed, args.jobs))
    except (OSError, ValueError, KeyError) as e:
        parser.error(str(e))
    return 0


if __name__ == "__main__":
    sys.exit(main())
