"""Engine speed: random legal play on mediatore_env.mediatore.game.Deal, one core.

    python3 benchmarks/bench_engine.py [--deals 20000] [--seed 0] [--preset standard] [--bid-rate 0.3]

Each decision is one ``legal_moves()`` call and one validated ``apply()``. The bidding of the
random players passes with probability ``1 - bid-rate`` (uniformly random bids escalate to
Arcisolissimo almost every deal and skip the call and exchange phases). Prints decisions/s and
deals/s, with the machine it ran on.
"""

from __future__ import annotations

import random
import time

import numpy as np

from mediatore_env.core.cards import NUM_CARDS
from mediatore_env.mediatore.game import Deal
from mediatore_env.mediatore.moves import AUCTION, PASS
from mediatore_env.mediatore.rules import PRESETS, Rules
from mediatore_env.runinfo import machine
from mediatore_env.tools.checks import (ArgumentParser, non_negative_int, positive_int,
                                       probability)


def play_random(rules: Rules, packs: list[list[int]], seed: int, bid_rate: float) -> int:
    """Play one deal per pack with random legal moves; return the number of decisions."""
    rng = random.Random(seed)
    choice, rand = rng.choice, rng.random
    decisions = 0
    for i, pack in enumerate(packs):
        deal = Deal(rules, i % 4, pack)
        legal_moves, apply = deal.legal_moves, deal.apply
        while deal.to_move is not None:
            moves = legal_moves()
            if deal.phase == AUCTION and rand() >= bid_rate:
                move = PASS
            else:
                move = choice(moves)
            apply(move)
            decisions += 1
    return decisions


def main(argv=None) -> None:
    p = ArgumentParser(prog="bench_engine.py", description=__doc__.split("\n\n")[0])
    p.add_argument("--deals", type=positive_int, default=20000)
    p.add_argument("--seed", type=non_negative_int, default=0)
    p.add_argument("--preset", default="standard", choices=list(PRESETS))
    p.add_argument("--bid-rate", type=probability, default=0.3)
    args = p.parse_args(argv)
    rules = Rules.preset(args.preset)
    gen = np.random.default_rng(args.seed)
    packs = [gen.permutation(NUM_CARDS).tolist() for _ in range(args.deals)]  # shuffling is not timed
    play_random(rules, packs[:200], args.seed, args.bid_rate)  # warm-up
    t0, c0 = time.perf_counter(), time.process_time()
    decisions = play_random(rules, packs, args.seed, args.bid_rate)
    dt, cpu = time.perf_counter() - t0, time.process_time() - c0
    print(f"machine: {machine()}")
    print(f"engine, preset {args.preset!r}, {args.deals} deals, {decisions} decisions "
          f"({decisions / args.deals:.1f} per deal)")
    # CPU-time rates are what one core does when other processes share the machine.
    for label, seconds in (("wall", dt), ("cpu", cpu)):
        print(f"  {label:4} {seconds:6.2f} s: {decisions / seconds:10,.0f} decisions/s "
              f"{args.deals / seconds:8,.0f} deals/s")


if __name__ == "__main__":
    main()
