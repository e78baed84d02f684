"""Club Mediatore speed: random legal play on the engine (mediatore_env.club.game.Session) and
on the environment (club_mediatore_v0.env(), observations and masks included), one core.

    python3 benchmarks/bench_club.py [--sessions 500] [--seed 0]

The random players accept with probability 0.5. Prints decisions/s and sessions/s for each,
with the machine it ran on.
"""

from __future__ import annotations

import random
import time

import numpy as np

from mediatore_env.club.game import Session
from mediatore_env.club.moves import ACCEPT, AUCTION, PASS
from mediatore_env.club import club_mediatore_v0
from mediatore_env.runinfo import machine
from mediatore_env.tools.checks import ArgumentParser, non_negative_int, positive_int


def engine(sessions: int, seed: int) -> tuple[int, float]:
    rng = random.Random(seed)
    decisions, start = 0, time.perf_counter()
    for i in range(sessions):
        session = Session(dealer=i % 4, rng=np.random.default_rng([seed, i]))
        while not session.is_over:
            legal = session.legal_moves()
            if session.phase == AUCTION:
                session.apply(ACCEPT if rng.random() < 0.5 else PASS)
            else:
                session.apply(rng.choice(legal))
            decisions += 1
    return decisions, time.perf_counter() - start


def environment(sessions: int, seed: int) -> tuple[int, float]:
    rng = random.Random(seed)
    env = club_mediatore_v0.env()
    decisions, start = 0, time.perf_counter()
    for i in range(sessions):
        env.reset(seed=seed * 100_003 + i)
        for agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"]).tolist()
            env.step(rng.choice(legal))
            decisions += 1
    return decisions, time.perf_counter() - start


def main(argv=None) -> int:
    p = ArgumentParser(prog="bench_club.py", description=__doc__.split("\n\n")[0])
    p.add_argument("--sessions", type=positive_int, default=500)
    p.add_argument("--seed", type=non_negative_int, default=0)
    args = p.parse_args(argv)
    for name, run in (("engine", engine), ("env()", environment)):
        decisions, seconds = run(args.sessions, args.seed)
        print(f"{name:<7} {args.sessions} sessions, {decisions} decisions in {seconds:.2f} s: "
              f"{decisions / seconds:,.0f} decisions/s, {args.sessions / seconds:,.0f} sessions/s")
    print(f"machine: {machine()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
