"""Observation speed: the incremental Encoder against the plain writer, one core.

    python3 benchmarks/bench_observation.py [--episodes 1000] [--deals 300] [--seed 0]
                                            [--preset standard] [--bid-rate 0.3] [--repeat 3]

Two measures, each run ``--repeat`` times with the two writers interleaved, the fastest run of
each reported (as ``timeit`` does: other processes only ever slow a run down):

- **env**: ``mediatore_v0.raw_env()`` stepped by random legal play, the loop of
  bench_env.py, once with its own encoders (:class:`~mediatore_env.mediatore.observation.Encoder`,
  four sharing one ``Table``) and once with
  :func:`~mediatore_env.mediatore.reference.write_observation` put in their place;
- **observe**: every seat observed after every move of ``--deals`` random deals (as
  ``env.last()`` does for the seat to act, and more), in microseconds per observation: the
  Encoder kept along the deal, the Encoder started afresh each time (a new view), and the
  plain writer.
"""

from __future__ import annotations

import os
import random
import sys
import time

# One core: keep numpy's BLAS from starting worker threads (nothing here uses them).
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402

from bench_env import play  # noqa: E402  (benchmarks/ is the script's directory)
from mediatore_env import mediatore_v0  # noqa: E402
from mediatore_env.mediatore.layout import OBSERVATION_SIZE  # noqa: E402
from mediatore_env.mediatore.observation import Encoder, Table  # noqa: E402
from mediatore_env.mediatore.reference import write_observation  # noqa: E402
from mediatore_env.mediatore.game import Deal  # noqa: E402
from mediatore_env.mediatore.moves import AUCTION, PASS  # noqa: E402
from mediatore_env.mediatore.rules import PRESETS, Rules  # noqa: E402
from mediatore_env.runinfo import machine  # noqa: E402
from mediatore_env.tools.checks import (ArgumentParser, non_negative_int, positive_int,  # noqa: E402
                                       probability)


class PlainWriter:
    """The Encoder's interface (``encode(view)`` returns its own buffer) over the plain writer,
    to put in the environment in the Encoders' place."""

    def __init__(self):
        self.array = np.zeros(OBSERVATION_SIZE, np.float32)

    def encode(self, view) -> np.ndarray:
        return write_observation(view, self.array)


def env_with(writer: str, preset: str):
    env = mediatore_v0.raw_env(rules=preset)
    if writer == "plain":
        env._encoders = [PlainWriter() for _ in range(4)]  # the env's private list of encoders
    return env


def time_env(writer: str, preset: str, episodes: int, seed: int, bid_rate: float) -> tuple[int, float]:
    """Decisions and CPU seconds of ``episodes`` random episodes (after a short warm-up)."""
    env = env_with(writer, preset)
    play(env, max(episodes // 20, 10), seed + 10**6, bid_rate)
    c0 = time.process_time()
    decisions = play(env, episodes, seed, bid_rate)
    return decisions, time.process_time() - c0


def random_deals(rules: Rules, n: int, seed: int, bid_rate: float) -> list[list[int]]:
    """The moves of ``n`` random deals (dealer ``i % 4``, packs from ``seed``)."""
    rng = random.Random(seed)
    games = []
    for i in range(n):
        pack = list(range(40))
        rng.shuffle(pack)
        deal = Deal(rules, i % 4, pack)
        moves = []
        while not deal.is_over:
            legal = deal.legal_moves()
            move = PASS if deal.phase == AUCTION and rng.random() >= bid_rate else rng.choice(legal)
            deal.apply(move)
            moves.append(move)
        games.append((pack, moves))
    return games


def time_observe(writer: str, rules: Rules, games) -> tuple[int, float]:
    """Observations made and CPU seconds: every seat after every move of ``games``."""
    out = np.zeros(OBSERVATION_SIZE, np.float32)
    table = Table()
    encoders = [Encoder(table) for _ in range(4)]
    observations = 0
    c0 = time.process_time()
    for i, (pack, moves) in enumerate(games):
        deal = Deal(rules, i % 4, pack)
        views = [deal.view(seat) for seat in range(4)]
        table.reset()
        for move in [*moves, None]:
            for seat in range(4):
                if writer == "incremental":
                    encoders[seat].encode(views[seat])
                elif writer == "scratch":
                    encoders[seat].encode(deal.view(seat))  # a new view: the Encoder starts afresh
                else:
                    write_observation(views[seat], out)
            observations += 4
            if move is not None:
                deal._apply(move)
    return observations, time.process_time() - c0


def main(argv=None) -> None:
    p = ArgumentParser(prog="bench_observation.py", description=__doc__.split("\n\n")[0])
    p.add_argument("--episodes", type=positive_int, default=1000, help="env episodes per run")
    p.add_argument("--deals", type=positive_int, default=300, help="deals observed per run")
    p.add_argument("--seed", type=non_negative_int, default=0)
    p.add_argument("--preset", default="standard", choices=list(PRESETS))
    p.add_argument("--bid-rate", type=probability, default=0.3)
    p.add_argument("--repeat", type=positive_int, default=3)
    args = p.parse_args(argv)
    print(f"machine: {machine()}")
    print(f"preset {args.preset!r}, bid rate {args.bid_rate}, best of {args.repeat} interleaved runs, "
          "CPU time of this process")

    best: dict[str, float] = {}
    for _ in range(args.repeat):
        for writer in ("incremental", "plain"):
            decisions, cpu = time_env(writer, args.preset, args.episodes, args.seed, args.bid_rate)
            best[writer] = min(best.get(writer, float("inf")), cpu)
    print(f"env: raw_env(), {args.episodes} episodes, {decisions} decisions")
    for writer, cpu in best.items():
        print(f"  {writer:12s} {decisions / cpu:10,.0f} decisions/s")
    print(f"  the Encoder steps the env {best['plain'] / best['incremental']:.2f}x as fast")

    rules = Rules.preset(args.preset)
    games = random_deals(rules, args.deals, args.seed, args.bid_rate)
    best = {}
    for _ in range(args.repeat):
        for writer in ("incremental", "scratch", "plain"):
            n, cpu = time_observe(writer, rules, games)
            best[writer] = min(best.get(writer, float("inf")), cpu)
    print(f"observe: every seat after every move of {args.deals} deals, {n} observations")
    labels = {"incremental": "Encoder, kept along the deal", "scratch": "Encoder, afresh each time",
              "plain": "write_observation"}
    for writer, cpu in best.items():
        print(f"  {labels[writer]:30s} {1e6 * cpu / n:7.1f} us per observation")


if __name__ == "__main__":
    sys.exit(main())
