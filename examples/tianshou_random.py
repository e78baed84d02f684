"""Tianshou on mediatore_v0: its own PettingZoo wrapper, its masked random policy, its collector.

    python3 -m pip install tianshou
    python3 examples/tianshou_random.py --episodes 20 --envs 2 --seed 0

Tianshou's ``PettingZooEnv`` turns the AEC env into one gymnasium-style env whose observation
is ``{"agent_id", "obs", "mask"}`` (the mask taken from our ``action_mask``) and whose reward is
a vector with one entry per player. ``MultiAgentPolicy`` hands each step to the policy of the
agent to act; here every seat gets Tianshou's masked random policy. No adapter is needed
(tested with tianshou 2.0.1, pettingzoo 1.27, gymnasium 1.4: docs/libraries.md).
"""

import time

import numpy as np

from mediatore_env.tools.checks import ArgumentParser, non_negative_int, positive_int


def collect(episodes: int = 20, envs: int = 2, seed: int = 0, make_env=None):
    """Collect ``episodes`` deals with Tianshou's masked random policy in every seat.

    Returns ``(stats, batch)``: Tianshou's ``CollectStats`` (``returns`` is episodes x 4) and
    every transition collected (``batch.obs.mask``, ``batch.act``, ``batch.rew``...).
    ``make_env`` builds the AEC env to wrap (default ``mediatore_v0.env()``)."""
    from tianshou.algorithm.multiagent.marl import MultiAgentPolicy
    from tianshou.algorithm.random import MARLRandomDiscreteMaskedOffPolicyAlgorithm
    from tianshou.data import Collector, VectorReplayBuffer
    from tianshou.env import DummyVectorEnv, PettingZooEnv

    from mediatore_env import mediatore_v0

    make_env = make_env or mediatore_v0.env
    example = PettingZooEnv(make_env())
    random_policy = MARLRandomDiscreteMaskedOffPolicyAlgorithm.Policy
    policy = MultiAgentPolicy({agent: random_policy(example.action_space)
                               for agent in example.agents})
    vector_env = DummyVectorEnv([lambda: PettingZooEnv(make_env()) for _ in range(envs)])
    vector_env.seed(seed)
    np.random.seed(seed)  # the random policy draws from numpy's global generator
    # A deal is under 60 decisions: room for every transition, so none is overwritten.
    buffer = VectorReplayBuffer(100 * (episodes + envs), envs)
    collector = Collector(policy, vector_env, buffer)
    stats = collector.collect(n_episode=episodes, reset_before_collect=True)
    batch, _ = buffer.sample(0)  # sample(0): everything in the buffer
    return stats, batch


def main(argv=None) -> None:
    # the project's parser: a bad argument is one line, not argparse's usage and a line
    parser = ArgumentParser(prog="tianshou_random.py", description=__doc__.split("\n")[0])
    parser.add_argument("--episodes", type=positive_int, default=20)
    parser.add_argument("--envs", type=positive_int, default=2)
    parser.add_argument("--seed", type=non_negative_int, default=0)
    args = parser.parse_args(argv)
    start = time.perf_counter()
    try:
        stats, batch = collect(args.episodes, args.envs, args.seed)
    except ModuleNotFoundError as e:  # one line naming the extra, not a traceback
        library = (e.name or "").partition(".")[0]
        if library not in ("tianshou", "torch"):
            raise
        parser.exit(2, f"tianshou_random.py: error: needs {library} (the tianshou extra): "
                       "pip install -e '.[tianshou]'\n")
    seconds = time.perf_counter() - start
    legal = batch.obs.mask[np.arange(len(batch)), batch.act]
    returns = np.asarray(stats.returns)
    # Most of the set-up time is Tianshou compiling its buffer code with numba, once a process.
    print(f"{stats.n_collected_episodes} episodes, {stats.n_collected_steps} steps collected in "
          f"{stats.collect_time:.1f} s ({seconds:.1f} s with set-up); every action legal per "
          f"its mask: {bool(legal.all())}")
    print("payoffs per episode (player_0..player_3), sum over players:")
    for row in returns[:5]:
        print("  " + " ".join(f"{x:+6.0f}" for x in row) + f"   sum {row.sum():+.0f}")
    if len(returns) > 5:
        print(f"  ... ({len(returns) - 5} more)")
    print(f"largest |sum over players| of any episode: {np.abs(returns.sum(axis=1)).max():.0f}")


if __name__ == "__main__":
    main()
