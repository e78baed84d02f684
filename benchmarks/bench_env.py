"""Environment speed: random legal play through the PettingZoo API, one core.

    python3 benchmarks/bench_env.py [--episodes 3000] [--seed 0] [--preset standard]
                                    [--bid-rate 0.3] [--repeat 3]
                                    [--env env raw_env standard_wrapped_env]
                                    [--compare]

Every decision is the loop PettingZoo users write: ``agent_iter()``, ``last()`` (which calls
``observe``: the observation vector and the action mask), a uniformly random action among the
mask's legal ids, ``step()``. In the auction the random players pass with probability
``1 - bid-rate`` (``--bid-rate 1`` is uniform over the legal ids; uniformly random bids escalate
to Arcisolissimo almost every deal and skip the call and exchange phases), as in
bench_engine.py. The first reset is seeded, later ones continue the stream. Resets are timed
too; the dead steps at the end of an episode are timed but not counted as decisions. Each
environment plays the same episodes ``--repeat`` times and the fastest run is reported, as
``timeit`` does: other processes on the machine only ever slow a run down.

``env`` is ``mediatore_v0.env()`` (PettingZoo's protections in one layer,
``mediatore_env.envs.wrappers.ProtectedEnv``), ``raw_env`` has none, ``standard_wrapped_env``
is ``raw_env`` in PettingZoo's own three wrappers, which ``env()`` behaves exactly as. ``--compare``
also times PettingZoo's ``texas_holdem_v4`` (``env()``, needs rlcard and pygame: without them
the script stops before any timing, naming the missing package) the same way and prints the
ratio.
"""

from __future__ import annotations

import os
import random
import sys
import time
import warnings

# One core: keep numpy's BLAS from starting worker threads (nothing here uses them).
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

from mediatore_env import mediatore_v0  # noqa: E402  (after the BLAS settings)
from mediatore_env.mediatore.rules import PRESETS  # noqa: E402
from mediatore_env.runinfo import machine  # noqa: E402
from mediatore_env.tools.checks import (ArgumentParser, non_negative_int, positive_int,  # noqa: E402
                                       probability)


def play(env, episodes: int, seed: int, bid_rate: float) -> int:
    """Play ``episodes`` episodes with random legal actions; return the number of decisions."""
    rng = random.Random(seed)
    rand = rng.random
    decisions = 0
    for episode in range(episodes):
        env.reset(seed=seed if episode == 0 else None)  # seeded once, then the stream goes on
        for agent in env.agent_iter():
            observation, reward, termination, truncation, info = env.last()
            if termination or truncation:
                env.step(None)
                continue
            legal = observation["action_mask"].nonzero()[0]
            if legal[0] == 0 and rand() >= bid_rate:  # id 0 (pass) is legal only in the auction
                action = 0
            else:
                action = int(legal[int(rand() * len(legal))])
            env.step(action)
            decisions += 1
    return decisions


def timed(make, episodes: int, seed: int, bid_rate: float, repeat: int = 1) -> tuple[int, float, float]:
    """Decisions, wall-clock seconds and CPU seconds of ``episodes`` episodes on ``make()``:
    the best of ``repeat`` runs of the same episodes (as ``timeit`` does: other processes
    only ever slow a run down, so the fastest is the least disturbed)."""
    env = make()
    play(env, max(episodes // 20, 10), seed + 10**6, bid_rate)  # warm-up
    best_wall = best_cpu = float("inf")
    for _ in range(repeat):
        t0, c0 = time.perf_counter(), time.process_time()
        decisions = play(env, episodes, seed, bid_rate)
        best_wall = min(best_wall, time.perf_counter() - t0)
        best_cpu = min(best_cpu, time.process_time() - c0)
    return decisions, best_wall, best_cpu


def main(argv=None) -> None:
    p = ArgumentParser(prog="bench_env.py", description=__doc__.split("\n\n")[0])
    p.add_argument("--episodes", type=positive_int, default=3000)
    p.add_argument("--seed", type=non_negative_int, default=0)
    p.add_argument("--preset", default="standard", choices=list(PRESETS))
    p.add_argument("--bid-rate", type=probability, default=0.3)
    p.add_argument("--repeat", type=positive_int, default=3, help="time each env this many times, report the best")
    p.add_argument("--env", nargs="+", default=["env", "raw_env"],
                   choices=["env", "raw_env", "standard_wrapped_env"])
    p.add_argument("--compare", action="store_true",
                   help="also time PettingZoo's texas_holdem_v4 env() (needs rlcard and pygame)")
    args = p.parse_args(argv)
    texas_holdem_v4 = None
    if args.compare:  # before the timings, so a missing package costs no waiting
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                from pettingzoo.classic import texas_holdem_v4
        except ImportError as e:  # name what is missing: pettingzoo.classic needs pygame too
            missing = getattr(e, "name", None) or str(e)
            p.error(f"--compare needs the package {missing!r}, not installed "
                    f"(pip install {missing.split('.')[0]})")
    print(f"machine: {machine()}")
    print(f"mediatore_v0, preset {args.preset!r}, bid rate {args.bid_rate}, "
          f"{args.episodes} episodes of one deal, best of {args.repeat} runs")
    print("  (decisions per second of wall-clock time; in brackets, per second of this process's "
          "CPU time, steadier on a busy machine)")
    rates = {}
    for name in args.env:
        make = lambda: getattr(mediatore_v0, name)(rules=args.preset)  # noqa: E731
        decisions, dt, cpu = timed(make, args.episodes, args.seed, args.bid_rate, args.repeat)
        rates[name] = decisions / dt
        print(f"  {name + '()':24s} {decisions / dt:10,.0f} decisions/s ({decisions / cpu:,.0f})   "
              f"{args.episodes / dt:8,.0f} episodes/s   ({decisions / args.episodes:.1f} decisions/episode)")
    if texas_holdem_v4 is not None:
        decisions, dt, cpu = timed(texas_holdem_v4.env, args.episodes, args.seed, 1.0, args.repeat)
        theirs = decisions / dt
        print(f"  {'texas_holdem_v4.env()':24s} {theirs:10,.0f} decisions/s ({decisions / cpu:,.0f})   "
              f"{args.episodes / dt:8,.0f} episodes/s   ({decisions / args.episodes:.1f} decisions/episode)")
        for name, rate in rates.items():
            print(f"  mediatore_v0.{name}() / texas_holdem_v4.env(): {rate / theirs:.1f}x")


if __name__ == "__main__":
    sys.exit(main())
