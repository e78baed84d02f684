"""What a training loop's auto-reset costs, for every JAX game: dealing a fresh episode
(``init``), a move (``step``), and a move through each of the two auto-resets of
:mod:`mediatore_env.jaxgame.autoreset`, ``jax.vmap(auto_reset(env))`` (a fresh episode dealt
for every slot at every move) and ``auto_reset_batch(env)`` (dealt only for the slots that
ended), per slot of a batch.

    python3 benchmarks/bench_jax_reset.py [--game mediatore ...] [--batch 256] [--seed 0]

The batch is first played 384 moves through ``auto_reset_batch``, so that its episodes are at
every stage (fresh ones would not end within the moves timed). Random legal moves, 32 moves
per compiled ``lax.scan``, the best of three runs; nanoseconds
per slot and move (per episode for ``init``), with the machine. The two auto-resets return
the same states (tests/test_jax_autoreset.py): only their cost differs.
"""

from __future__ import annotations

import os
import sys
import time

try:
    import jax
except ImportError:
    sys.exit("bench_jax_reset.py needs JAX: pip install -e '.[jax]'")

from mediatore_env import jaxgame  # noqa: E402
from mediatore_env.jaxgame.autoreset import (  # noqa: E402
    auto_reset, auto_reset_batch, init_batch, legal_action_at)
from mediatore_env.runinfo import machine  # noqa: E402
from mediatore_env.tools.checks import ArgumentParser, non_negative_int, positive_int  # noqa: E402

MOVES = 32
WARM = 12  # calls of MOVES moves before timing: 384 moves, past any first episode's end


def best_seconds(run, *args) -> float:
    jax.block_until_ready(run(*args))
    best = float("inf")
    for _ in range(3):
        t0 = time.perf_counter()
        jax.block_until_ready(run(*args))
        best = min(best, time.perf_counter() - t0)
    return best


def moves(step, batch: int):
    """``MOVES`` random legal moves of every slot through ``step(states, actions, keys)``."""
    def run(states, key):
        def move(states, k):
            k_move, k_deal = jax.random.split(k)
            actions = jax.vmap(legal_action_at)(jax.random.uniform(k_move, (batch,)),
                                                states.legal_action_mask)
            return step(states, actions, jax.random.split(k_deal, batch)), None
        return jax.lax.scan(move, states, jax.random.split(key, MOVES))[0]
    return jax.jit(run)


def main(argv=None) -> None:
    p = ArgumentParser(prog="bench_jax_reset.py", description=__doc__.split("\n\n")[0])
    p.add_argument("--game", nargs="+", default=jaxgame.games(), choices=jaxgame.games())
    p.add_argument("--batch", type=positive_int, default=256)
    p.add_argument("--seed", type=non_negative_int, default=0)
    args = p.parse_args(argv)
    device = jax.devices()[0]
    print(f"command: python3 {' '.join([os.path.relpath(sys.argv[0]), *sys.argv[1:]])}")
    print(f"machine: {machine()}; JAX {jax.__version__}, device {device.device_kind} "
          f"({device.platform}); batch {args.batch}, best of 3 runs; ns per slot and move")
    print(f"{'game':>10} {'init':>9} {'step':>7} {'vmap(auto_reset)':>17} "
          f"{'auto_reset_batch':>17}")
    key = jax.random.PRNGKey(args.seed)
    for game in args.game:
        env = jaxgame.make(game)
        batched_moves = moves(auto_reset_batch(env), args.batch)
        states = init_batch(env, key, args.batch)
        for i in range(WARM):  # episodes at every stage, as in a loop that has run a while
            states = batched_moves(states, jax.random.fold_in(key, i))
        per = 1e9 / (args.batch * MOVES)
        init = best_seconds(jax.jit(jax.vmap(env.init)), jax.random.split(key, args.batch))
        plain = best_seconds(moves(lambda s, a, k: jax.vmap(env.step)(s, a), args.batch),
                             states, key)
        each = best_seconds(moves(jax.vmap(auto_reset(env)), args.batch), states, key)
        batched = best_seconds(batched_moves, states, key)
        print(f"{game:>10} {init * 1e9 / args.batch:9,.0f} {plain * per:7,.0f} "
              f"{each * per:17,.0f} {batched * per:17,.0f}", flush=True)


if __name__ == "__main__":
    main()
