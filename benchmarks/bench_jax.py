"""JAX engine speed: random legal play through one jitted loop, batch sizes 1 .. 65,536.

    python3 benchmarks/bench_jax.py [--batches 1,16,256,4096,65536] [--observe none,current]
                                    [--preset standard] [--bid-rate 0.3] [--seed 0]
                                    [--min-decisions 200000] [--repeat 2] [--engine-deals 4000]

For each batch size and observation mode, a batch of deals is dealt (``init`` from keys) and
stepped, all inside one ``jax.jit``-compiled function (``lax.scan`` over
``jax.vmap(env.step)``), for about ``--min-decisions`` decisions (64 moves in each slot at the
least); the slots whose deal is over are dealt again every 8 moves (a finished deal waits for
that; its idle steps are not counted as decisions). The moves
are drawn in JAX from the legal mask, as benchmarks/bench_engine.py draws them: in the auction
pass with probability ``1 - bid-rate``, else any legal move, uniformly. Observation modes:
``none`` (the step alone), ``current`` (after every move the observation of the seat to move,
the one a policy reads: ``float32[batch, 2132]``), ``all`` (every seat's, ``[batch, 4,
2132]``). The observations are carried from move to move and returned, so XLA cannot skip
them.

Reported: decisions per second (the best of ``--repeat`` timed runs: other processes only ever
slow a run down), the compile time of the loop and of ``jit(vmap(step))`` alone, the device
and the machine. Where JAX sees several devices (GPUs, or CPU devices made with
``XLA_FLAGS=--xla_force_host_platform_device_count=N``), the batch is also sharded over all of
them (``jax.sharding``) and the scaling printed. The Python engine is timed in the same run,
with bench_engine.py's loop (``--engine-deals`` deals, one core), the Python environment with
observations with bench_env.py's loop (``mediatore_v0.raw_env()``), and OpenSpiel's C++ skat
through pyspiel when pyspiel is installed.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np

try:
    import jax
    import jax.numpy as jnp
except ImportError:
    sys.exit("bench_jax.py needs JAX: pip install -e '.[jax]'")

from bench_engine import play_random  # noqa: E402  (benchmarks/ is the script's directory)
from bench_env import play as play_env  # noqa: E402
from mediatore_env.core.cards import NUM_CARDS  # noqa: E402
from mediatore_env.mediatore import mediatore_v0  # noqa: E402
from mediatore_env.jaxgame import MediatoreJax  # noqa: E402
from mediatore_env.jaxgame.autoreset import legal_action_at  # noqa: E402
from mediatore_env.mediatore.moves import PASS  # noqa: E402
from mediatore_env.mediatore.rules import PRESETS, Rules  # noqa: E402
from mediatore_env.runinfo import machine  # noqa: E402
from mediatore_env.tools.checks import (  # noqa: E402
    ArgumentParser, non_negative_int, positive_int, probability)

OBSERVE_MODES = ("none", "current", "all")


def random_move(u, mask, bid_rate: float):
    """bench_engine.py's random player, from one uniform number ``u``: in the auction (where
    pass is legal) pass with probability ``1 - bid_rate``, else a legal move drawn uniformly
    (``u`` rescaled: given that it did not pass, it is uniform again)."""
    passes = mask[PASS] & (u < 1 - bid_rate)
    again = jnp.where(mask[PASS], (u - (1 - bid_rate)) / max(bid_rate, 1e-9), u)
    return jnp.where(passes, PASS, legal_action_at(jnp.clip(again, 0.0, 0.99999994), mask))


RESET_EVERY = 8  # moves between two re-deals of the finished deals
MIN_MOVES = 64   # moves in every slot, at the least: two deals or more, all phases


def make_play(env: MediatoreJax, observe: str, bid_rate: float, moves: int):
    """``play(keys) -> (decisions, deals, observations)``: deal one deal per key, then make
    ``moves`` moves in every slot of the batch, re-dealing the slots whose deal is over every
    ``RESET_EVERY`` moves (a fresh deal costs a few steps' time, so it is not made after every
    move; a finished deal waits for it, and its idle steps are not counted as decisions)."""
    seats = jnp.arange(4, dtype=jnp.int32)
    draw = jax.vmap(lambda u, mask: random_move(u, mask, bid_rate))
    step = jax.vmap(env.step)
    deal = jax.vmap(env.init)

    def look(state):
        if observe == "current":  # the seat to move (seat 0 once the deal is over)
            return jax.vmap(env.observe)(state, jnp.maximum(state.current_player, 0))
        if observe == "all":
            every_seat = jax.vmap(env.observe, in_axes=(None, 0))
            return jax.vmap(every_seat, in_axes=(0, None))(state, seats)
        return jnp.zeros((state.current_player.shape[0], 0), jnp.float32)

    def play(keys):
        batch = keys.shape[0]

        def move(carry, key):
            state, decisions, deals, _ = carry
            actions = draw(jax.random.uniform(key, (batch,)), state.legal_action_mask)
            live = ~state.terminated
            state = step(state, actions)
            decisions = decisions + live.sum(dtype=jnp.int32)
            deals = deals + (live & state.terminated).sum(dtype=jnp.int32)
            return (state, decisions, deals, look(state)), None

        def moves_then_redeal(carry, key):
            k_moves, k_deals = jax.random.split(key)
            carry, _ = jax.lax.scan(move, carry, jax.random.split(k_moves, RESET_EVERY))
            state, decisions, deals, obs = carry
            fresh = deal(jax.random.split(k_deals, batch))
            over = state.terminated
            state = jax.tree_util.tree_map(
                lambda new, old: jnp.where(over.reshape((-1,) + (1,) * (old.ndim - 1)), new, old),
                fresh, state)
            return (state, decisions, deals, obs), None

        state = deal(keys)
        carry = (state, jnp.int32(0), jnp.int32(0), look(state))
        rounds = jax.random.split(jax.random.fold_in(keys[0], 1), moves // RESET_EVERY)
        (_, decisions, deals, obs), _ = jax.lax.scan(moves_then_redeal, carry, rounds)
        return decisions, deals, obs

    return play


def place(keys, sharding):
    return keys if sharding is None else jax.device_put(keys, sharding)


def timed(env, batch: int, observe: str, args, sharding=None) -> dict:
    """Compile the play of ``batch`` slots for about ``args.min_decisions`` decisions, then
    run it ``args.repeat`` times; the fastest run's rate."""
    moves = max(-(-args.min_decisions // batch), MIN_MOVES)  # a ceiling
    moves = -(-moves // RESET_EVERY) * RESET_EVERY
    play = jax.jit(make_play(env, observe, args.bid_rate, moves))
    key = jax.random.PRNGKey(args.seed)
    keys = place(jax.random.split(key, batch), sharding)
    t0 = time.perf_counter()
    compiled = play.lower(keys).compile()
    compile_s = time.perf_counter() - t0
    best = None
    for r in range(args.repeat):
        keys = place(jax.random.split(jax.random.fold_in(key, r), batch), sharding)
        t0 = time.perf_counter()
        decisions, deals, _ = compiled(keys)
        decisions, deals = int(decisions), int(deals)  # waits for the run
        seconds = time.perf_counter() - t0
        if best is None or decisions / seconds > best["rate"]:
            best = {"rate": decisions / seconds, "decisions": decisions, "deals": deals,
                    "seconds": seconds}
    best["compile_s"] = compile_s
    return best


def step_compile_time(env, batch: int) -> float:
    """Seconds to compile ``jit(vmap(env.step))`` for ``batch`` deals."""
    keys = jax.random.split(jax.random.PRNGKey(0), batch)
    state = jax.jit(jax.vmap(env.init))(keys)
    t0 = time.perf_counter()
    jax.jit(jax.vmap(env.step)).lower(state, jnp.zeros(batch, jnp.int32)).compile()
    return time.perf_counter() - t0


def python_engine(rules: Rules, deals: int, seed: int, bid_rate: float) -> tuple[int, float, float]:
    """bench_engine.py's loop: decisions, wall and CPU seconds."""
    gen = np.random.default_rng(seed)
    packs = [gen.permutation(NUM_CARDS).tolist() for _ in range(deals)]
    play_random(rules, packs[:100], seed, bid_rate)  # warm-up
    t0, c0 = time.perf_counter(), time.process_time()
    decisions = play_random(rules, packs, seed, bid_rate)
    return decisions, time.perf_counter() - t0, time.process_time() - c0


def python_env(preset: str, episodes: int, seed: int, bid_rate: float) -> tuple[int, float, float]:
    """bench_env.py's loop on ``mediatore_v0.raw_env()``: the observation and mask of the seat
    to move (``last()``), then ``step``. Decisions, wall and CPU seconds."""
    env = mediatore_v0.raw_env(rules=preset)
    play_env(env, max(episodes // 20, 10), seed + 10**6, bid_rate)  # warm-up
    t0, c0 = time.perf_counter(), time.process_time()
    decisions = play_env(env, episodes, seed, bid_rate)
    return decisions, time.perf_counter() - t0, time.process_time() - c0


def openspiel(deals: int, seed: int) -> str:
    """Random play of OpenSpiel's C++ skat through pyspiel, or why it was skipped."""
    try:
        import pyspiel
    except ImportError:
        return "OpenSpiel: pyspiel is not installed (pip install open_spiel), skipped"
    import random
    rng = random.Random(seed)
    game = pyspiel.load_game("skat")
    decisions = 0
    t0 = time.perf_counter()
    for _ in range(deals):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                decisions += 1
    seconds = time.perf_counter() - t0
    return (f"OpenSpiel skat (C++ through pyspiel, random play, one core): "
            f"{decisions / seconds:,.0f} decisions/s ({deals} deals)")


def batch_list(text: str) -> list[int]:
    try:
        values = [int(v) for v in text.split(",")]
    except ValueError:
        values = []
    if not values or min(values) < 1:
        raise argparse.ArgumentTypeError(f"{text!r}: valid are positive whole numbers separated "
                                         "by commas, e.g. 1,256,65536")
    return values


def observe_list(text: str) -> list[str]:
    modes = text.split(",")
    bad = [m for m in modes if m not in OBSERVE_MODES]
    if bad:
        raise argparse.ArgumentTypeError(f"{text!r}: valid are {', '.join(OBSERVE_MODES)}, "
                                         "separated by commas")
    return modes


def main(argv=None) -> None:
    p = ArgumentParser(prog="bench_jax.py", description=__doc__.split("\n\n")[0])
    p.add_argument("--batches", type=batch_list, default=[1, 16, 256, 4096, 65536])
    p.add_argument("--observe", type=observe_list, default=["none", "current"])
    p.add_argument("--preset", default="standard", choices=list(PRESETS))
    p.add_argument("--bid-rate", type=probability, default=0.3)
    p.add_argument("--seed", type=non_negative_int, default=0)
    p.add_argument("--min-decisions", type=positive_int, default=200_000)
    p.add_argument("--repeat", type=positive_int, default=2)
    p.add_argument("--engine-deals", type=non_negative_int, default=4000)
    args = p.parse_args(argv)
    rules = Rules.preset(args.preset)
    env = MediatoreJax(rules)
    devices = jax.devices()
    print(f"command: python3 {' '.join([os.path.relpath(sys.argv[0]), *sys.argv[1:]])}")
    print(f"machine: {machine()}")
    print(f"JAX {jax.__version__}, default device: {devices[0].device_kind} "
          f"({devices[0].platform}), {len(devices)} device(s)")
    print(f"preset {args.preset!r}, bid rate {args.bid_rate}; rate = best of {args.repeat} runs "
          f"of >= {args.min_decisions:,} decisions")
    print(f"compile jit(vmap(step)), batch 4096: {step_compile_time(env, 4096):.1f} s")
    print()
    print(f"{'observe':>8} {'batch':>7} {'compile s':>9} {'decisions/s':>13}")
    results = {}
    for observe in args.observe:
        for batch in args.batches:
            r = timed(env, batch, observe, args)
            results[observe, batch] = r
            print(f"{observe:>8} {batch:>7} {r['compile_s']:9.1f} {r['rate']:13,.0f}", flush=True)
    if len(devices) > 1:
        from jax.sharding import Mesh, NamedSharding, PartitionSpec
        sharding = NamedSharding(Mesh(np.array(devices), ("deals",)), PartitionSpec("deals"))
        batch = max(b for b in args.batches if b % len(devices) == 0)
        print(f"\nsharded over {len(devices)} devices, batch {batch}:")
        for observe in args.observe:
            r = timed(env, batch, observe, args, sharding)
            one = results[observe, batch]["rate"]
            print(f"{observe:>8} {batch:>7} {r['compile_s']:9.1f} {r['rate']:13,.0f} "
                  f"  {r['rate'] / one:.2f}x one device")
    if args.engine_deals:
        decisions, wall, cpu = python_engine(rules, args.engine_deals, args.seed, args.bid_rate)
        print(f"\nPython engine (bench_engine.py's loop, one core), {args.engine_deals} deals, "
              f"{decisions / args.engine_deals:.1f} decisions per deal: "
              f"{decisions / wall:,.0f} decisions/s wall, {decisions / cpu:,.0f} cpu")
        decisions, wall, cpu = python_env(args.preset, args.engine_deals, args.seed, args.bid_rate)
        print(f"Python env with observations (mediatore_v0.raw_env(), bench_env.py's loop: the "
              f"seat to move's observation, then step), {args.engine_deals} deals: "
              f"{decisions / wall:,.0f} decisions/s wall, {decisions / cpu:,.0f} cpu")
        print(openspiel(min(args.engine_deals, 2000), args.seed))


if __name__ == "__main__":
    main()
