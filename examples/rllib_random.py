"""RLlib on mediatore_v0: its own PettingZoo wrapper, stepped with masked random actions.

    python3 -m pip install "ray[rllib]"      # pins gymnasium==1.2.2: see docs/libraries.md
    python3 examples/rllib_random.py --deals 20 --seed 0

RLlib's ``PettingZooEnv`` turns the AEC env into a ``MultiAgentEnv``: ``reset`` and ``step``
return dicts keyed by the agent to act, and the deal's payments come back, one per player, on
the step that ends it. Constructing, resetting and stepping need no adapter. One method does:
``PettingZooEnv.render()`` calls ``env.render(self.render_mode)``, and PettingZoo 1.27's
``render()`` takes no argument, so it raises ``TypeError``. ``MediatoreRLlibEnv`` below is the
smallest fix. (Tested with ray 2.60.0, pettingzoo 1.27, gymnasium 1.4 and 1.2.2.)
"""

import time

import numpy as np

from mediatore_env.tools.checks import ArgumentParser, non_negative_int, positive_int


def rllib_env(**kwargs):
    """``mediatore_v0.env(**kwargs)`` in RLlib's ``PettingZooEnv``, with ``render()`` fixed."""
    from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv

    from mediatore_env import mediatore_v0

    class MediatoreRLlibEnv(PettingZooEnv):
        def render(self):
            # PettingZoo's AEC render() takes no argument; the env knows its own render mode.
            return self.env.render()

    return MediatoreRLlibEnv(mediatore_v0.env(**kwargs))


def play_deal(env, rng, seed=None):
    """One episode (one deal) of masked random actions through RLlib's ``reset``/``step``.

    Returns ``(moves, returns)``: the ``(agent, action, mask)`` of every step, and each agent's
    rewards summed over the episode."""
    obs, _ = env.reset(seed=seed)
    moves, returns = [], dict.fromkeys(env.possible_agents, 0.0)
    while True:
        (agent, observation), = obs.items()  # an AEC game: one agent to act at a time
        mask = observation["action_mask"]
        action = int(rng.choice(np.flatnonzero(mask)))
        moves.append((agent, action, mask))
        obs, rewards, terminated, truncated, _ = env.step({agent: action})
        for name, reward in rewards.items():
            returns[name] += reward
        if terminated["__all__"] or truncated["__all__"]:
            return moves, returns


def main(argv=None) -> None:
    # the project's parser: a bad argument is one line, not argparse's usage and a line
    parser = ArgumentParser(prog="rllib_random.py", description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=positive_int, default=20)
    parser.add_argument("--seed", type=non_negative_int, default=0)
    args = parser.parse_args(argv)
    try:
        env = rllib_env(render_mode="ansi")
    except ImportError as e:  # RLlib, or a package of its extra, is not installed
        parser.error(f"needs RLlib: python3 -m pip install 'ray[rllib]' (docs/libraries.md "
                     f"says how to keep gymnasium) ({e})")
    rng = np.random.default_rng(args.seed)
    start = time.perf_counter()
    steps, legal, worst = 0, True, 0.0
    for deal in range(args.deals):
        moves, returns = play_deal(env, rng, seed=args.seed + deal)
        steps += len(moves)
        legal &= all(mask[action] == 1 for _, action, mask in moves)
        worst = max(worst, abs(sum(returns.values())))
        if deal < 3:
            print(f"deal {deal}: {len(moves)} steps, returns "
                  + " ".join(f"{name} {returns[name]:+.0f}" for name in sorted(returns)))
    seconds = time.perf_counter() - start
    print(f"{args.deals} deals, {steps} steps in {seconds:.2f} s; every action legal per its "
          f"mask: {legal}; largest |sum of returns over players|: {worst:.0f}")
    print(env.render().splitlines()[0])


if __name__ == "__main__":
    main()
