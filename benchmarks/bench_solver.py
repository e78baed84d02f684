"""Double-dummy solver speed on full 9-trick deals, one core.

    python3 benchmarks/bench_solver.py [--deals 1000] [--seed 0] [--backend c|python]
                                       [--node-limit N]

Each deal: the 40 cards shuffled by a seeded numpy Generator, 9 to each seat, the last 4
as the monte (its thirds go to the last trick's winner), a random leader and a random
declarer side of 1 or 2 seats. Times ``reaches(pos, 18)`` and ``solve(pos)`` separately,
each from a cold transposition table (the C core's table is cleared before every call),
and prints the median, 90th percentile, maximum and mean in milliseconds -- wall-clock time
and the calling thread's CPU time (the same on an idle machine; CPU time is the fair figure
when other jobs share the cores) -- with the backend and the machine it ran on.

It also prints the search rate, nodes (see ``solver.last_nodes``) per CPU millisecond: over
all calls, and over the calls of at least 100,000 nodes (their median, 10th percentile and
slowest), the figure a caller needs to turn a time budget into a ``node_limit``.
``--node-limit N`` gives every call that budget and counts the calls that ran out (``None``).
"""

from __future__ import annotations

import time

import numpy as np

from mediatore_env.analysis import solver
from mediatore_env.analysis.solver import Position, reaches, solve
from mediatore_env.core.cards import NUM_CARDS, thirds_of, to_mask
from mediatore_env.runinfo import machine
from mediatore_env.tools.checks import ArgumentParser, non_negative_int, positive_int

SIDES = (0b0001, 0b0010, 0b0100, 0b1000, 0b0101, 0b1010, 0b0011, 0b0110, 0b1100, 0b1001)




def random_deals(n: int, seed: int) -> list[Position]:
    rng = np.random.default_rng(seed)
    deals = []
    for _ in range(n):
        pack = [int(c) for c in rng.permutation(NUM_CARDS)]
        hands = tuple(to_mask(pack[9 * s:9 * s + 9]) for s in range(4))
        monte = thirds_of(to_mask(pack[36:]))
        leader = int(rng.integers(4))
        side = SIDES[int(rng.integers(len(SIDES)))]
        deals.append(Position(hands, leader, (), side, 0, monte))
    return deals


def timed(fn, pos: Position, backend: str) -> tuple[float, float, object, int]:
    """(wall ms, CPU ms of this thread, result, nodes) of one call from a cold table."""
    solver.clear_table()  # cold table: no help from earlier deals or calls
    wall, cpu = time.perf_counter_ns(), time.thread_time_ns()
    result = fn(pos, backend=backend)
    wall, cpu = (time.perf_counter_ns() - wall) / 1e6, (time.thread_time_ns() - cpu) / 1e6
    return wall, cpu, result, solver.last_nodes()


def summary(name: str, ms: list[float]) -> str:
    a = np.asarray(ms)
    return (f"{name:<18} median {np.median(a):8.2f}   p90 {np.percentile(a, 90):8.2f}   "
            f"max {a.max():8.2f}   mean {a.mean():8.2f}  (ms)")


def rates(name: str, nodes: list[int], cpu_ms: list[float]) -> str:
    n, t = np.asarray(nodes, dtype=float), np.asarray(cpu_ms)
    big = n >= 100_000
    line = f"{name:<18} {n.sum() / t.sum():8.0f} nodes/ms overall"
    if big.any():
        r = n[big] / t[big]
        line += (f"; {big.sum()} calls >= 100k nodes: median {np.median(r):.0f}, "
                 f"p10 {np.percentile(r, 10):.0f}, slowest {r.min():.0f}")
    return line


def main(argv: list[str] | None = None) -> None:
    parser = ArgumentParser(prog="bench_solver.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=positive_int, default=1000,
                        help="number of random deals (default 1000)")
    parser.add_argument("--seed", type=non_negative_int, default=0, help="seed of the numpy Generator (default 0)")
    parser.add_argument("--backend", choices=("c", "python"), default=solver.BACKEND,
                        help=f"search core (default: the active one, {solver.BACKEND})")
    parser.add_argument("--node-limit", type=positive_int, default=None,
                        help="node budget of every call (default: none)")
    args = parser.parse_args(argv)

    deals = random_deals(args.deals, args.seed)
    limit = args.node_limit
    reach_ms, reach_cpu, solve_ms, solve_cpu, wins, values = [], [], [], [], 0, []
    reach_nodes, solve_nodes, cut = [], [], [0, 0]
    for pos in deals:
        wall, cpu, won, nodes = timed(lambda p, backend: reaches(p, 18, node_limit=limit, backend=backend),
                                      pos, args.backend)
        reach_ms.append(wall)
        reach_cpu.append(cpu)
        reach_nodes.append(nodes)
        wall, cpu, value, nodes = timed(lambda p, backend: solve(p, node_limit=limit, backend=backend),
                                        pos, args.backend)
        solve_ms.append(wall)
        solve_cpu.append(cpu)
        solve_nodes.append(nodes)
        cut[0] += won is None
        cut[1] += value is None
        if won is None or value is None:
            continue
        if won != (value >= 18):
            raise SystemExit(f"reaches and solve disagree on {pos}")
        wins += won
        values.append(value)

    print(f"solver backend: {args.backend} (active: {solver.BACKEND})")
    print(f"machine: {machine()}")
    print(f"{args.deals} random full deals, seed {args.seed}; declarer side won {wins} "
          f"({100 * wins / max(1, len(values)):.1f}%), mean value {np.mean(values):.2f} thirds")
    if limit is not None:
        print(f"node limit {limit}: out of nodes in {cut[0]} reaches(18) and {cut[1]} solve calls "
              f"(left out of the line above)")
    print(summary("reaches(18) wall", reach_ms))
    print(summary("solve wall", solve_ms))
    # CPU time of the calling thread: what the search costs, whatever else the machine runs.
    print(summary("reaches(18) cpu", reach_cpu))
    print(summary("solve cpu", solve_cpu))
    print(rates("reaches(18) rate", reach_nodes, reach_cpu))
    print(rates("solve rate", solve_nodes, solve_cpu))


if __name__ == "__main__":
    main()
