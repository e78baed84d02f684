"""Mediatore's JAX observation alone: ``jit(vmap(observe))`` over a batch of deals in play,
with its fractions written in each of :func:`~mediatore_env.jaxgame.observe.write_in`'s two
ways, beside a floor (a float32[2132] that only depends on the state: the cost of writing it).

    python3 benchmarks/bench_jax_observe.py [--batch 4096] [--repeat 20] [--seed 0]

The deals are dealt and stepped 18 random legal moves (the auction over, most in the play);
each of ``--repeat`` steps of one compiled ``lax.scan`` observes every deal for another seat
and carries the observation, as bench_jax.py's loop does. The best of three runs is printed,
in observations a second, with the device and the machine; the two ways must agree bit for
bit (checked).
"""

from __future__ import annotations

import os
import sys
import time

import numpy as np

try:
    import jax
    import jax.numpy as jnp
except ImportError:
    sys.exit("bench_jax_observe.py needs JAX: pip install -e '.[jax]'")

from mediatore_env import jaxgame  # noqa: E402
from mediatore_env.jaxgame.autoreset import legal_action_at  # noqa: E402
from mediatore_env.jaxgame.observe import observe  # noqa: E402
from mediatore_env.mediatore.layout import OBSERVATION_SIZE  # noqa: E402
from mediatore_env.runinfo import machine  # noqa: E402
from mediatore_env.tools.checks import ArgumentParser, non_negative_int, positive_int  # noqa: E402


def deals_in_play(env, batch: int, seed: int):
    keys = jax.random.split(jax.random.PRNGKey(seed), batch)
    state = jax.jit(jax.vmap(env.init))(keys)
    step = jax.jit(jax.vmap(env.step))
    for i in range(18):
        u = jax.random.uniform(jax.random.PRNGKey(seed + i + 1), (batch,))
        state = step(state, jax.vmap(legal_action_at)(u, state.legal_action_mask))
    return state


def rate(writer, state, repeat: int) -> tuple[float, np.ndarray]:
    """Observations a second (best of three runs) and the last observation batch."""
    seats = jnp.maximum(state.current_player, 0)
    look = jax.vmap(writer)

    @jax.jit
    def many(state, seats):
        def body(obs, i):
            return look(state, (seats + i) % 4), None
        return jax.lax.scan(body, look(state, seats), jnp.arange(repeat))[0]

    out = jax.block_until_ready(many(state, seats))
    best = float("inf")
    for _ in range(3):
        t0 = time.perf_counter()
        out = jax.block_until_ready(many(state, seats))
        best = min(best, time.perf_counter() - t0)
    return seats.shape[0] * repeat / best, np.asarray(out)


def main(argv=None) -> None:
    p = ArgumentParser(prog="bench_jax_observe.py", description=__doc__.split("\n\n")[0])
    p.add_argument("--batch", type=positive_int, default=4096)
    p.add_argument("--repeat", type=positive_int, default=20)
    p.add_argument("--seed", type=non_negative_int, default=0)
    args = p.parse_args(argv)
    env = jaxgame.make("mediatore")
    state = deals_in_play(env, args.batch, args.seed)
    device = jax.devices()[0]
    print(f"command: python3 {' '.join([os.path.relpath(sys.argv[0]), *sys.argv[1:]])}")
    print(f"machine: {machine()}; JAX {jax.__version__}, device {device.device_kind} "
          f"({device.platform}); batch {args.batch}, best of 3 runs of {args.repeat} steps")
    writers = {
        "scatter": lambda s, seat: observe(env.tables, s, seat, by_slices=False),
        "slices": lambda s, seat: observe(env.tables, s, seat, by_slices=True),
        "floor": lambda s, seat: jnp.zeros(OBSERVATION_SIZE, jnp.float32) + s.hands[0, 0],
    }
    results = {name: rate(writer, state, args.repeat) for name, writer in writers.items()}
    for name, (per_second, _) in results.items():
        print(f"{name:>8}: {per_second:14,.0f} observations/s")
    if not np.array_equal(results["scatter"][1], results["slices"][1]):
        sys.exit("the two ways wrote different observations")
    default = "slices" if jax.default_backend() != "cpu" else "scatter"
    print(f"the two ways agree; observe's default on this backend: {default}")


if __name__ == "__main__":
    main()
