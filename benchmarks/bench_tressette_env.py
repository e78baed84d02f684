"""Speed of the Tressette environments: random legal play through the PettingZoo API, one core.

    python3 benchmarks/bench_tressette_env.py [--games 300] [--seed 0] [--repeat 3]
                                              [--env tressette_v0 tressette3_v0 tressette2_v0]
                                              [--raw] [--claim]

The loop is bench_env.py's (``agent_iter()``, ``last()`` with its observation and mask, a
uniformly random legal action, ``step()``), timed the same way: the same games ``--repeat``
times, the fastest run reported. An episode is a whole game to 31 (several hands; the
environment deals each hand itself). ``--raw`` times ``raw_env()`` instead of ``env()``;
``--claim`` plays with the claim switch (a claim is then one of the uniformly drawn actions,
so games end early, mostly on false claims).
"""

from __future__ import annotations

import os
import sys

# One core: keep numpy's BLAS from starting worker threads (nothing here uses them).
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

from bench_env import timed  # noqa: E402  (the same timing loop as Mediatore's)

import mediatore_env  # noqa: E402
from mediatore_env.runinfo import machine  # noqa: E402
from mediatore_env.tools.checks import ArgumentParser, non_negative_int, positive_int  # noqa: E402

ENVS = ("tressette_v0", "tressette3_v0", "tressette2_v0")


def main(argv=None) -> None:
    p = ArgumentParser(prog="bench_tressette_env.py", description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=positive_int, default=300)
    p.add_argument("--seed", type=non_negative_int, default=0)
    p.add_argument("--repeat", type=positive_int, default=3,
                   help="time each env this many times, report the best")
    p.add_argument("--env", nargs="+", default=list(ENVS), choices=ENVS)
    p.add_argument("--raw", action="store_true", help="time raw_env() instead of env()")
    p.add_argument("--claim", action="store_true", help="play with the claim switch")
    args = p.parse_args(argv)
    maker = "raw_env" if args.raw else "env"
    print(f"machine: {machine()}")
    print(f"{maker}(), {args.games} games to 31 each, random legal actions, best of "
          f"{args.repeat} runs" + (", claim=True" if args.claim else ""))
    print("  (decisions per second of wall-clock time; in brackets, per second of this "
          "process's CPU time, steadier on a busy machine)")
    for name in args.env:
        module = getattr(mediatore_env, name)  # from mediatore_env import tressette3_v0, ...
        make = lambda: getattr(module, maker)(claim=args.claim)  # noqa: E731
        # bid rate 1: bench_env's play() then draws uniformly among the legal ids.
        decisions, dt, cpu = timed(make, args.games, args.seed, 1.0, args.repeat)
        print(f"  {name + '.' + maker + '()':26s} {decisions / dt:10,.0f} decisions/s "
              f"({decisions / cpu:,.0f})   {args.games / dt:8,.1f} games/s   "
              f"({decisions / args.games:.1f} decisions/game)")


if __name__ == "__main__":
    sys.exit(main())
