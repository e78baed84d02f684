"""PIMC against the greedy agent: duplicate tournaments with the time per decision.

    python3 benchmarks/bench_pimc.py [--deals 300] [--seed 0] [--jobs 2] [--lineup pimc-1|pimc-3]
                                     [--pimc pimc] [--json out.json]
    python3 benchmarks/bench_pimc.py --calibrate 400 [--pimc pimc] [--seed 1]
    python3 benchmarks/bench_pimc.py --defence 3000 [--pimc pimc] [--seed 7]

``pimc-1``: one PIMC agent and three greedy agents (``pimc greedy greedy greedy``);
``pimc-3``: three PIMC agents and one greedy agent. Each deal is played in the four
rotations of :mod:`agents.tournament` (the same deals, seeds and arithmetic as
``mediatore-bench``; this script plays them itself only to collect the PIMC agents' timings
from the worker processes). Prints the standings with 95% confidence intervals, and the
CPU and wall-clock time per decision of the PIMC agents (all decisions, and card plays
only), with the machine it ran on.

``--calibrate N``: N deals of forced declarations (each seat in turn declares Chiamo,
Mediatore and Solo when the greedy bidding models give its hand a chance between 25% and
95%; the PIMC agent declares and plays, three greedy agents defend or partner), and the
logit shift per contract that makes the greedy models fit the PIMC agent's results: the
``bid_boost`` of :class:`agents.mediatore.pimc.PIMCAgent`.

``--defence N``: the PIMC agent's defence against the greedy declarer. Of N deals, those where
seat 0 declares when four greedy agents play are played again with seats 1-3 given to the
PIMC agent (with ``bid_boost=0``, so the auction, call and exchange stay greedy's and only
the card play differs); per contract, how often the declarer made it against each defence.
"""

from __future__ import annotations

import json
import sys
import time

from agents.mediatore.tournament import HOOKS, contract_rows, role_rows
from agents.tournament import _Player, standings
from mediatore_env.mediatore.rules import PRESETS
from mediatore_env.runinfo import machine, process_pool
from mediatore_env.tools.checks import (ArgumentParser, check_agents, non_negative_int, output_file,
                                       positive_int)

LINEUPS = {"pimc-1": ("P", "greedy", "greedy", "greedy"), "pimc-3": ("P", "P", "P", "greedy")}

_PLAYER = None


def _init(*args):
    global _PLAYER
    _PLAYER = _Player(*args)


def _work(bounds):
    out = [_PLAYER.play(i)[0] for i in range(*bounds)]
    timings = []
    for agents in _PLAYER.agents:
        for agent in agents:
            if hasattr(agent, "timings"):
                timings.extend(agent.timings)
                agent.timings = []
    return out, timings


def _calibrate(task):
    """Forced declarations: the PIMC agent declares, three greedy agents play the others."""
    import math

    from agents import make_agent
    from agents.base import play
    from agents.mediatore.greedy import BID_MODELS, lead_bonus
    from agents.mediatore.tournament import HOOKS
    from mediatore_env.mediatore.game import Deal
    from mediatore_env.mediatore.tables import forced_deal
    rules, seed, start, stop, spec, contracts, low, high = task
    pimc, greedy = make_agent(spec), make_agent("greedy")
    rows = []
    for i in range(start, stop):
        pack, dealer = HOOKS.pack(seed, i, 0), HOOKS.dealer(i, 4)
        for declarer in range(4):
            for contract in contracts:
                dealt = Deal(rules, dealer, pack)  # as dealt (a Solo takes the monte)
                x = (BID_MODELS[contract](dealt.hands[declarer])
                     + lead_bonus(rules, contract, declarer, dealt.mano))
                if not low <= 1 / (1 + math.exp(-x)) <= high:
                    continue
                deal = forced_deal(rules, pack, dealer, declarer, contract)
                agents = [pimc if s == declarer else greedy for s in range(4)]
                play(deal, agents, seeds=[i * 4 + s for s in range(4)])
                rows.append((contract, x, int(deal.declarer_won)))
    return rows


def calibrate(args) -> int:
    """How much more often the PIMC agent makes a contract than the greedy bidding models
    predict: the logit shift that fits, per contract, over forced declarations of hands the
    models give a chance between --low and --high."""
    import math

    from mediatore_env.mediatore.rules import CHIAMO, CONTRACT_NAMES, MEDIATORE, SOLO
    contracts = (CHIAMO, MEDIATORE, SOLO)
    rules = PRESETS[args.preset]
    tasks = [(rules, args.seed, i, min(i + 10, args.calibrate), args.pimc, contracts, 0.25, 0.95)
             for i in range(0, args.calibrate, 10)]
    rows = []
    with process_pool(args.jobs) as pool:
        for part in pool.imap(_calibrate, tasks):
            rows.extend(part)
    for contract in contracts:
        data = [(x, y) for c, x, y in rows if c == contract]
        if not data:
            continue
        shift = 0.0
        for _ in range(50):  # Newton on the log-likelihood of y ~ sigmoid(x + shift)
            p = [1 / (1 + math.exp(-(x + shift))) for x, _ in data]
            grad = sum(y - q for (_, y), q in zip(data, p))
            hess = sum(q * (1 - q) for q in p)
            shift += grad / hess
        made = sum(y for _, y in data) / len(data)
        predicted = sum(1 / (1 + math.exp(-x)) for x, _ in data) / len(data)
        print(f"{CONTRACT_NAMES[contract]:10s} {len(data):4d} declarations: made {made:.1%}, "
              f"greedy models predict {predicted:.1%}; logit shift {shift:+.2f}")
    return 0


def _defend(task):
    """The deals of ``range(start, stop)`` where greedy seat 0 declares: (contract, made
    against greedy defenders, made against PIMC ones, the declarer's payoff in each)."""
    from agents import make_agent
    from agents.base import play
    from agents.mediatore.tournament import HOOKS
    from agents.tournament import derive_seed
    from mediatore_env.mediatore.game import Deal
    rules, seed, start, stop, spec = task
    greedy = [make_agent("greedy") for _ in range(4)]
    mixed = greedy[:1] + [make_agent(spec, bid_boost=0) for _ in range(3)]
    rows = []
    for i in range(start, stop):
        pack, dealer, seeds = HOOKS.pack(seed, i, 0), HOOKS.dealer(i, 4), [derive_seed(seed, i, s) for s in range(4)]
        base = play(Deal(rules, dealer, pack), greedy, seeds=seeds)
        if base.declarer != 0:
            continue
        deal = play(Deal(rules, dealer, pack), mixed, seeds=seeds)
        if (deal.contract, deal.declarer) != (base.contract, 0):
            raise ValueError(f"{spec!r} with bid_boost=0 must bid like greedy; in deal {i} "
                             "the auction went differently")
        rows.append((base.contract, base.declarer_won, deal.declarer_won,
                     base.payoffs[0], deal.payoffs[0]))
    return rows


def defence(args) -> int:
    """Make rates of the greedy declarer against greedy and against PIMC defenders."""
    from agents.tournament import mean_ci
    from mediatore_env.mediatore.rules import CONTRACT_NAMES
    rules = PRESETS[args.preset]
    tasks = [(rules, args.seed, i, min(i + 20, args.defence), args.pimc)
             for i in range(0, args.defence, 20)]
    with process_pool(args.jobs) as pool:
        rows = [row for part in pool.imap(_defend, tasks) for row in part]
    print(f"{args.defence} deals of seed {args.seed}: greedy seat 0 declares in {len(rows)}; "
          f"defenders greedy, then {args.pimc}")
    for contract in sorted({r[0] for r in rows}):
        mine = [r for r in rows if r[0] == contract]
        change = mean_ci([r[4] - r[3] for r in mine])
        print(f"{CONTRACT_NAMES[contract]:10s} {len(mine):4d} deals: made "
              f"{sum(r[1] for r in mine) / len(mine):.1%} against greedy, "
              f"{sum(r[2] for r in mine) / len(mine):.1%} against PIMC; declarer's payoff change "
              f"{change[0]:+.2f} [{change[1]:+.2f}, {change[2]:+.2f}]")
    return 0


def main(argv=None) -> int:
    parser = ArgumentParser(prog="bench_pimc.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=positive_int, default=300)
    parser.add_argument("--seed", type=non_negative_int, default=0)
    parser.add_argument("--jobs", type=positive_int, default=2)
    parser.add_argument("--lineup", choices=sorted(LINEUPS), default="pimc-1")
    parser.add_argument("--pimc", default="pimc", help="the PIMC agent's spec, e.g. pimc:worlds=16")
    parser.add_argument("--preset", default="standard", choices=sorted(PRESETS))
    parser.add_argument("--json", type=output_file, help="write the results here")
    parser.add_argument("--calibrate", type=positive_int, metavar="DEALS",
                        help="instead: fit the PIMC agent's bidding boost on forced declarations")
    parser.add_argument("--defence", type=positive_int, metavar="DEALS",
                        help="instead: the greedy declarer's make rate against PIMC defenders")
    args = parser.parse_args(argv)
    try:
        check_agents([args.pimc])  # a bad spec fails here, not in a worker process
    except ValueError as e:
        parser.error(str(e))
    if args.calibrate:
        return calibrate(args)
    if args.defence:
        return defence(args)

    names = [args.pimc if n == "P" else n for n in LINEUPS[args.lineup]]
    entries = {n: n for n in names}
    lineups = [tuple(names)]
    rules = PRESETS[args.preset]
    chunk = 5
    bounds = [(i, min(i + chunk, args.deals)) for i in range(0, args.deals, chunk)]
    start = time.perf_counter()
    games, timings = [], []
    init = ("mediatore", rules, args.seed, entries, lineups)
    with process_pool(args.jobs, _init, init) as pool:
        for k, (part, t) in enumerate(pool.imap(_work, bounds)):
            games.extend(part)
            timings.extend(t)
            done = bounds[k][1]
            sys.stderr.write(f"\r{done}/{args.deals} deals, {time.perf_counter() - start:.0f} s ")
            sys.stderr.flush()
    sys.stderr.write("\n")
    seconds = time.perf_counter() - start
    table = standings(list(entries), lineups, games, HOOKS)

    def stats(rows):
        cpu = sorted(r[3] for r in rows)
        wall = sorted(r[4] for r in rows)
        n = len(rows)
        return {"decisions": n, "cpu_mean_ms": 1e3 * sum(cpu) / n, "cpu_p50_ms": 1e3 * cpu[n // 2],
                "cpu_p90_ms": 1e3 * cpu[int(0.9 * (n - 1))], "cpu_p99_ms": 1e3 * cpu[int(0.99 * (n - 1))],
                "cpu_max_ms": 1e3 * cpu[-1], "wall_mean_ms": 1e3 * sum(wall) / n,
                "wall_p90_ms": 1e3 * wall[int(0.9 * (n - 1))], "wall_max_ms": 1e3 * wall[-1],
                "worlds_mean": sum(r[2] for r in rows) / n}

    play_rows = [r for r in timings if r[0] == 4]  # game.PLAY
    result = {"lineup": names, "deals": args.deals, "seed": args.seed, "jobs": args.jobs,
              "preset": args.preset, "seconds": round(seconds, 1), "machine": machine(),
              "standings": [{"name": s.name, "mean": s.mean, "ci95": list(s.ci),
                             "per_deal": list(s.per_deal)} for s in table],
              "time_all": stats(timings), "time_play": stats(play_rows)}
    print(f"{' '.join(names)}: {args.deals} deals x 4 rotations, seed {args.seed}, "
          f"{args.jobs} jobs, {seconds:.0f} s; {machine()}")
    for s in table:
        print(f"  {s.name:24s} {s.mean:+7.2f} units/deal  95% CI [{s.ci[0]:+.2f}, {s.ci[1]:+.2f}]")
        print("      " + "; ".join(f"{role} {share:.0%} {contrib:+.2f}" for role, share, _, contrib
                                    in role_rows(s) if share))
        print("      " + "; ".join(f"{c} {share:.1%} made {made:.0%} {units:+.1f}" for c, share, made, units
                                    in contract_rows(s)))
    for label, key in (("all decisions", "time_all"), ("card plays", "time_play")):
        t = result[key]
        print(f"  PIMC {label}: {t['decisions']} decisions, CPU mean {t['cpu_mean_ms']:.1f} ms, "
              f"p50 {t['cpu_p50_ms']:.1f}, p90 {t['cpu_p90_ms']:.1f}, p99 {t['cpu_p99_ms']:.1f}, "
              f"max {t['cpu_max_ms']:.1f}; wall mean {t['wall_mean_ms']:.1f} ms, "
              f"p90 {t['wall_p90_ms']:.1f}, max {t['wall_max_ms']:.1f}; worlds mean {t['worlds_mean']:.1f}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(result, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
