"""JAX engine speed, for every game: random legal play through one jitted loop, batch sizes
1 .. 65,536, beside the Python engine and the Python environment.

    python3 benchmarks/bench_jax.py [--game mediatore] [--batches 1,16,256,4096,65536]
                                    [--observe none,current] [--preset standard]
                                    [--rule name=value ...] [--bid-rate 0.3] [--seed 0]
                                    [--min-decisions 200000] [--repeat 2]
                                    [--engine-episodes N] [--reset rounds|at-once]
                                    [--calibrate]

``--game`` is any game of the registry with a JAX engine (``mediatore``, ``tressette``,
``tressette3``, ``tressette2``, ``club``: ``jaxgame.make``), ``--preset`` and ``--rule`` its
rules as ``mediatore-bench`` takes them. For each batch size and observation mode, a batch of
episodes is dealt (``init`` from keys) and stepped, all inside one ``jax.jit``-compiled
function (``lax.scan`` over ``jax.vmap(env.step)``), for about ``--min-decisions`` decisions
(and at least a few episodes' moves in each slot: 64 for Mediatore's deals, 256 for a game
to 31 or a club session); the slots whose episode is over are dealt again every 8 moves (32
for the long episodes, whose deal draws a pack for every hand: a finished episode waits for
that, and its idle steps are not counted as decisions). ``--reset at-once`` replaces an
episode on the move that ends it instead (``autoreset.auto_reset_batch``, as a training loop
does): no slot is ever idle, and dealing is paid only for the episodes that ended. The
moves are drawn in JAX from the legal mask as the game's Python benchmark draws them:
Mediatore's as benchmarks/bench_engine.py's (in the auction pass with probability
``1 - bid-rate``, else any legal move, uniformly), the others' uniformly (benchmarks/bench_tressette_env.py,
bench_club.py). Observation modes: ``none`` (the step alone), ``current`` (after every move
the observation of the seat to move, the one a policy reads: ``float32[batch, size]``),
``all`` (every seat's). The observations are carried from move to move and returned, so XLA
cannot skip them.

Reported: decisions per second (the best of ``--repeat`` timed runs: other processes only ever
slow a run down; also per second of the process's CPU time, both cores together, steadier
when other processes share the machine), the compile time of the loop and of ``jit(vmap(step))`` alone, the device
and the machine. Where JAX sees several devices (GPUs, or CPU devices made with
``XLA_FLAGS=--xla_force_host_platform_device_count=N``), the batch is also sharded over all of
them (``jax.sharding``) and the scaling printed. In the same run, on one core: the Python
engine (the same random player on the game's engine, ``legal_moves`` and ``apply``;
``--engine-episodes`` episodes) and the Python environment with observations (bench_env.py's
loop on the game's ``raw_env()``: the seat to move's observation, then ``step``), and the
ratios of the JAX engine's best rates to them; OpenSpiel's C++ skat through pyspiel for
Mediatore when pyspiel is installed. ``--calibrate`` also times the calibration loop, the
plainest random trick play in JAX (four hands, follow suit, nothing else) in the same loop,
and prints the engine's rate as a share of it.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time

import numpy as np

try:
    import jax
    import jax.numpy as jnp
except ImportError:
    sys.exit("bench_jax.py needs JAX: pip install -e '.[jax]'")

from bench_env import play as play_env  # noqa: E402  (benchmarks/ is the script's directory)
from mediatore_env import jaxgame  # noqa: E402
from mediatore_env.core.cards import NUM_CARDS  # noqa: E402
from mediatore_env.jaxgame.autoreset import auto_reset_batch, legal_action_at  # noqa: E402
from mediatore_env.jaxgame.tricks import playable, shuffled_pack, trick_winner  # noqa: E402
from mediatore_env.mediatore.moves import AUCTION, PASS  # noqa: E402
from mediatore_env.registry import get  # noqa: E402
from mediatore_env.runinfo import machine  # noqa: E402
from mediatore_env.tools.checks import (  # noqa: E402
    ArgumentParser, non_negative_int, parse_game_rules, positive_int, probability)

OBSERVE_MODES = ("none", "current", "all")


def random_move(u, mask, bid_rate: float):
    """bench_engine.py's random player, from one uniform number ``u``: in the auction (where
    pass is legal) pass with probability ``1 - bid_rate``, else a legal move drawn uniformly
    (``u`` rescaled: given that it did not pass, it is uniform again). ``bid_rate`` 1: a legal
    move drawn uniformly, whatever the game."""
    if bid_rate >= 1:
        return legal_action_at(u, mask)
    passes = mask[PASS] & (u < 1 - bid_rate)
    again = jnp.where(mask[PASS], (u - (1 - bid_rate)) / max(bid_rate, 1e-9), u)
    return jnp.where(passes, PASS, legal_action_at(jnp.clip(again, 0.0, 0.99999994), mask))


#: By game: moves between two re-deals of the finished episodes, and the least moves every
#: slot makes (a few episodes, all phases): a Mediatore deal is about 31 decisions, a game to
#: 31 about 200 to 300, a club session about 100 to 200.
RESETS = {"mediatore": (8, 64), "tressette": (32, 256), "tressette3": (32, 256),
          "tressette2": (32, 256), "club": (32, 256)}
#: The Python engine's episodes timed, by game (about 100,000 decisions).
ENGINE_EPISODES = {"mediatore": 4000, "tressette": 400, "tressette3": 400, "tressette2": 400,
                   "club": 800}


def make_play(env, observe: str, bid_rate: float, moves: int, reset_every: int = 8,
              at_once: bool = False):
    """``play(keys) -> (decisions, episodes, observations)``: deal one episode per key, then
    make ``moves`` moves in every slot of the batch, re-dealing the slots whose episode is over
    every ``reset_every`` moves (a fresh episode costs a few steps' time, so it is not dealt
    after every move; a finished one waits for it, and its idle steps are not counted as
    decisions); ``at_once``: through ``auto_reset_batch`` instead, an episode that ends
    replaced on the same move, as in a training loop (every step a decision)."""
    seats = jnp.arange(env.num_players, dtype=jnp.int32)
    draw = jax.vmap(lambda u, mask: random_move(u, mask, bid_rate))
    step = jax.vmap(env.step)
    deal = jax.vmap(env.init)
    deal_at_once = auto_reset_batch(env)

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
            if at_once:
                k_move, k_deal = jax.random.split(key)
                actions = draw(jax.random.uniform(k_move, (batch,)), state.legal_action_mask)
                state = deal_at_once(state, actions, jax.random.split(k_deal, batch))
                return (state, decisions + batch, deals + state.terminated.sum(dtype=jnp.int32),
                        look(state)), None
            actions = draw(jax.random.uniform(key, (batch,)), state.legal_action_mask)
            live = ~state.terminated
            state = step(state, actions)
            decisions = decisions + live.sum(dtype=jnp.int32)
            deals = deals + (live & state.terminated).sum(dtype=jnp.int32)
            return (state, decisions, deals, look(state)), None

        def moves_then_redeal(carry, key):
            k_moves, k_deals = jax.random.split(key)
            carry, _ = jax.lax.scan(move, carry, jax.random.split(k_moves, reset_every))
            state, decisions, deals, obs = carry
            fresh = deal(jax.random.split(k_deals, batch))
            over = state.terminated
            state = jax.tree_util.tree_map(
                lambda new, old: jnp.where(over.reshape((-1,) + (1,) * (old.ndim - 1)), new, old),
                fresh, state)
            return (state, decisions, deals, obs), None

        state = deal(keys)
        carry = (state, jnp.int32(0), jnp.int32(0), look(state))
        if at_once:
            every_move = jax.random.split(jax.random.fold_in(keys[0], 1), moves)
            (_, decisions, deals, obs), _ = jax.lax.scan(move, carry, every_move)
            return decisions, deals, obs
        rounds = jax.random.split(jax.random.fold_in(keys[0], 1), moves // reset_every)
        (_, decisions, deals, obs), _ = jax.lax.scan(moves_then_redeal, carry, rounds)
        return decisions, deals, obs

    return play


def place(keys, sharding):
    return keys if sharding is None else jax.device_put(keys, sharding)


def timed(env, batch: int, observe: str, args, sharding=None) -> dict:
    """Compile the play of ``batch`` slots for about ``args.min_decisions`` decisions, then
    run it ``args.repeat`` times; the fastest run's rate."""
    reset_every, min_moves = RESETS[args.game]
    moves = max(-(-args.min_decisions // batch), min_moves)  # a ceiling
    moves = -(-moves // reset_every) * reset_every
    play = jax.jit(make_play(env, observe, bid_rate(args), moves, reset_every,
                             args.reset == "at-once"))
    key = jax.random.PRNGKey(args.seed)
    keys = place(jax.random.split(key, batch), sharding)
    t0 = time.perf_counter()
    compiled = play.lower(keys).compile()
    compile_s = time.perf_counter() - t0
    return best_of(compiled, batch, args, sharding) | {"compile_s": compile_s}


def best_of(compiled, batch: int, args, sharding=None) -> dict:
    """Run ``compiled(keys)`` (returning decisions, episodes, ...) ``args.repeat`` times: the
    fastest run's decisions per second of wall-clock time, and the most per second of this
    process's CPU time (both cores' together: steadier when other processes share them)."""
    key = jax.random.PRNGKey(args.seed)
    best = None
    for r in range(args.repeat):
        keys = place(jax.random.split(jax.random.fold_in(key, r), batch), sharding)
        t0, c0 = time.perf_counter(), time.process_time()
        decisions, deals, _ = compiled(keys)
        decisions, deals = int(decisions), int(deals)  # waits for the run
        seconds, cpu = time.perf_counter() - t0, time.process_time() - c0
        if best is None or decisions / seconds > best["rate"]:
            best = {"rate": decisions / seconds, "decisions": decisions, "deals": deals,
                    "seconds": seconds, "cpu_rate": 0.0}
        best["cpu_rate"] = max(best["cpu_rate"], decisions / cpu)
    return best


def calibration(batch: int, args) -> dict:
    """The calibration loop: the plainest random trick play in JAX, four hands of ten cards,
    following suit, nothing else (no bidding, no scoring but the trick's winner, a mask of 40
    cards), dealt, stepped and re-dealt as the games' loop, its moves drawn as theirs: what a
    step of this project's shape costs on this machine, for the engines to be measured
    against."""
    seats, cards = np.arange(4), np.arange(NUM_CARDS)

    def deal(key):
        owner = jnp.zeros(NUM_CARDS, jnp.int32).at[shuffled_pack(key)].set(
            cards % 4)
        hands = owner[None, :] == seats[:, None]
        return (hands, jnp.full(4, -1, jnp.int32), jnp.int32(0), jnp.int32(0), hands[0],
                jnp.asarray(False))

    def step(game, card):
        hands, trick, length, player, _, over = game
        hands = hands & ~((seats == player)[:, None] & (cards == card)[None, :])
        trick = jnp.where(seats == length, card, trick)
        closes = length == 3
        winner = trick_winner(player - length, trick)       # the leader, seat of card 0
        player = jnp.where(closes, winner, (player + 1) % 4)
        trick, length = jnp.where(closes, -1, trick), jnp.where(closes, 0, length + 1)
        hand = hands[player]
        mask = playable(hand, trick, length)
        return hands, trick, length, player, mask, ~hand.any()

    def play(keys):
        batch = keys.shape[0]

        def move(carry, key):
            games, decisions, deals = carry
            actions = jax.vmap(legal_action_at)(jax.random.uniform(key, (batch,)), games[4])
            live = ~games[5]
            games = jax.vmap(step)(games, actions)
            return (games, decisions + live.sum(dtype=jnp.int32),
                    deals + (live & games[5]).sum(dtype=jnp.int32)), None

        def moves_then_redeal(carry, key):
            k_moves, k_deals = jax.random.split(key)
            carry, _ = jax.lax.scan(move, carry, jax.random.split(k_moves, 8))
            games, decisions, deals = carry
            fresh = jax.vmap(deal)(jax.random.split(k_deals, batch))
            games = jax.tree_util.tree_map(
                lambda new, old: jnp.where(games[5].reshape((-1,) + (1,) * (old.ndim - 1)),
                                           new, old), fresh, games)
            return (games, decisions, deals), None

        rounds = jax.random.split(jax.random.fold_in(keys[0], 1), 64 // 8)
        (_, decisions, deals), _ = jax.lax.scan(
            moves_then_redeal, (jax.vmap(deal)(keys), jnp.int32(0), jnp.int32(0)), rounds)
        return decisions, deals, None

    keys = jax.random.split(jax.random.PRNGKey(args.seed), batch)
    return best_of(jax.jit(play).lower(keys).compile(), batch, args)


def step_compile_time(env, batch: int) -> float:
    """Seconds to compile ``jit(vmap(env.step))`` for ``batch`` deals."""
    keys = jax.random.split(jax.random.PRNGKey(0), batch)
    state = jax.jit(jax.vmap(env.init))(keys)
    t0 = time.perf_counter()
    jax.jit(jax.vmap(env.step)).lower(state, jnp.zeros(batch, jnp.int32)).compile()
    return time.perf_counter() - t0


def bid_rate(args) -> float:
    """The random player's bid rate: ``--bid-rate`` for Mediatore; 1 (uniform) elsewhere."""
    return args.bid_rate if args.game == "mediatore" else 1.0


def python_engine(game: str, rules, episodes: int, seed: int, rate: float
                  ) -> tuple[int, float, float]:
    """The random player on the game's Python engine (the registry's), one core: for each
    decision ``legal_moves()`` and a checked ``apply()``, as bench_engine.py; in Mediatore's
    auction a pass with probability ``1 - rate``. Packs are shuffled before timing. Decisions,
    wall and CPU seconds."""
    entry = get(game)
    gen = np.random.default_rng(seed)
    packs = [gen.permutation(NUM_CARDS).tolist() for _ in range(997)]  # a pool, cycled

    def play(count: int, rng: random.Random) -> int:
        choice, rand = rng.choice, rng.random
        decisions = dealt = 0
        for i in range(count):
            game = entry.new_game(rules, i % entry.players)
            while not game.is_over:
                if game.needs_pack:
                    game.deal(packs[dealt % len(packs)])
                    dealt += 1
                    continue
                moves = game.legal_moves()
                passing = rate < 1 and getattr(game, "phase", None) == AUCTION
                game.apply(PASS if passing and rand() >= rate else choice(moves))
                decisions += 1
        return decisions

    play(max(episodes // 20, 5), random.Random(seed + 1))  # warm-up
    t0, c0 = time.perf_counter(), time.process_time()
    decisions = play(episodes, random.Random(seed))
    return decisions, time.perf_counter() - t0, time.process_time() - c0


def python_env(game: str, switches: dict, episodes: int, seed: int, rate: float
               ) -> tuple[int, float, float]:
    """bench_env.py's loop on the game's ``raw_env()``: the observation and mask of the seat
    to move (``last()``), then ``step``. Decisions, wall and CPU seconds."""
    entry = get(game)
    default = entry.make_rules().to_dict()
    env = entry.environments[0].load().raw_env(
        **{k: v for k, v in switches.items() if v != default[k]})
    play_env(env, max(episodes // 20, 5), seed + 10**6, rate)  # warm-up
    t0, c0 = time.perf_counter(), time.process_time()
    decisions = play_env(env, episodes, seed, rate)
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
    p.add_argument("--game", default="mediatore", choices=jaxgame.games())
    p.add_argument("--batches", type=batch_list, default=[1, 16, 256, 4096, 65536])
    p.add_argument("--observe", type=observe_list, default=["none", "current"])
    p.add_argument("--preset", default=None, help="a rules preset (Mediatore's)")
    p.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE",
                   help="a rules switch, e.g. --rule low=true (repeatable)")
    p.add_argument("--bid-rate", type=probability, default=0.3)
    p.add_argument("--seed", type=non_negative_int, default=0)
    p.add_argument("--min-decisions", type=positive_int, default=200_000)
    p.add_argument("--repeat", type=positive_int, default=2)
    p.add_argument("--reset", choices=["rounds", "at-once"], default="rounds",
                   help="rounds: the finished episodes re-dealt every few moves; at-once: "
                        "replaced on the move that ends them (auto_reset_batch), as in a "
                        "training loop")
    p.add_argument("--calibrate", action="store_true",
                   help="also time the calibration loop: plain follow-suit trick play")
    p.add_argument("--engine-episodes", type=non_negative_int, default=None,
                   help="episodes of the Python engine and environment timed (0: none; "
                        "default about 100,000 decisions' worth)")
    args = p.parse_args(argv)
    try:
        rules = parse_game_rules(args.game, args.rule,
                                 args.preset or ("standard" if args.game == "mediatore" else None))
    except ValueError as e:
        p.error(str(e))
    fixed = get(args.game).fixed
    switches = {k: v for k, v in rules.to_dict().items() if k not in fixed}
    env = jaxgame.make(args.game, **switches)
    devices = jax.devices()
    rate = bid_rate(args)
    print(f"command: python3 {' '.join([os.path.relpath(sys.argv[0]), *sys.argv[1:]])}")
    print(f"machine: {machine()}, load average {os.getloadavg()[0]:.1f} at the start")
    print(f"JAX {jax.__version__}, default device: {devices[0].device_kind} "
          f"({devices[0].platform}), {len(devices)} device(s)")
    player = f"bid rate {rate}" if args.game == "mediatore" else "uniform legal moves"
    print(f"game {args.game!r}, rules {rules}, {player}; observation "
          f"float32{list(env.observation_shape)}; rate = best of {args.repeat} runs of >= "
          f"{args.min_decisions:,} decisions; episodes re-dealt: {args.reset}")
    print(f"compile jit(vmap(step)), batch 4096: {step_compile_time(env, 4096):.1f} s")
    print()
    print(f"{'observe':>8} {'batch':>7} {'compile s':>9} {'decisions/s':>13} {'per cpu-s':>11} "
          f"{'episodes/s':>11}")
    results = {}
    for observe in args.observe:
        for batch in args.batches:
            r = timed(env, batch, observe, args)
            results[observe, batch] = r
            print(f"{observe:>8} {batch:>7} {r['compile_s']:9.1f} {r['rate']:13,.0f} "
                  f"{r['cpu_rate']:11,.0f} {r['deals'] / r['seconds']:11,.1f}", flush=True)
    if args.calibrate:
        print("calibration loop (random trick play, follow suit only; --calibrate):")
        for batch in args.batches:
            r = calibration(batch, args)
            results["calibration", batch] = r
            print(f"{'plain':>8} {batch:>7} {'':>9} {r['rate']:13,.0f} {r['cpu_rate']:11,.0f} "
                  f"{r['deals'] / r['seconds']:11,.1f}", flush=True)
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
    best = {mode: max(r["rate"] for (m, _), r in results.items() if m == mode)
            for mode in args.observe}
    if "none" in best and args.calibrate:
        plain = max(r["rate"] for (m, _), r in results.items() if m == "calibration")
        print(f"JAX without observations at its best batch: {best['none'] / plain:.2f}x "
              "the calibration loop")
    episodes = ENGINE_EPISODES[args.game] if args.engine_episodes is None else args.engine_episodes
    if episodes:
        unit = get(args.game).unit
        decisions, wall, cpu = python_engine(args.game, rules, episodes, args.seed, rate)
        engine = decisions / wall
        print(f"\nPython engine (legal_moves and apply, one core), {episodes} {unit}s, "
              f"{decisions / episodes:.1f} decisions per {unit}: "
              f"{engine:,.0f} decisions/s wall, {decisions / cpu:,.0f} cpu")
        decisions, wall, cpu = python_env(args.game, switches, episodes, args.seed, rate)
        raw = decisions / wall
        print(f"Python env with observations ({get(args.game).environments[0].name}"
              f".raw_env(), bench_env.py's loop: the seat to move's observation, then step), "
              f"{episodes} {unit}s: {raw:,.0f} decisions/s wall, {decisions / cpu:,.0f} cpu")
        if "none" in best:
            print(f"JAX without observations at its best batch: {best['none'] / engine:.2f}x "
                  "the Python engine")
        for mode in ("current", "all"):
            if mode in best:
                print(f"JAX with observations ({mode}) at its best batch: "
                      f"{best[mode] / raw:.2f}x the Python env")
        if args.game == "mediatore":
            print(openspiel(min(episodes, 2000), args.seed))
    print(f"load average {os.getloadavg()[0]:.1f} at the end (2 cores: above 2, other processes "
          "shared them)")


if __name__ == "__main__":
    main()
