"""Play a model saved by examples/train_ppo.py: a duplicate tournament, then one deal in the
PettingZoo environment, shown as text.

    python examples/play_trained.py runs/ppo/model.zip --deals 1000

The model becomes an agent (:class:`agents.ppo_agent.PPOAgent`) like any other: here it is
passed as an object; ``mediatore-bench --agents agents.ppo_agent:PPOAgent:path=runs/ppo/model.zip
greedy greedy greedy`` names it instead.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout

from agents import GreedyAgent  # noqa: E402
from agents.ppo_agent import PPOAgent  # noqa: E402
from agents.tournament import run_tournament  # noqa: E402
from mediatore_env import mediatore_v0  # noqa: E402
from mediatore_env.mediatore.moves import move_text  # noqa: E402
from mediatore_env.tools.checks import ArgumentParser, non_negative_int, positive_int  # noqa: E402


def main(argv=None):
    p = ArgumentParser(prog="play_trained.py", description=__doc__.split("\n\n")[0])
    p.add_argument("model", help="a model.zip written by examples/train_ppo.py")
    p.add_argument("--deals", type=positive_int, default=1000, help="deals of each tournament")
    p.add_argument("--seed", type=non_negative_int, default=1)
    p.add_argument("--jobs", type=positive_int, default=1)
    args = p.parse_args(argv)
    try:
        agent = PPOAgent(args.model)  # a missing file is named before torch is imported
    except (ValueError, ImportError) as e:
        p.error(str(e))
    import torch  # installed: PPOAgent has loaded the model with it
    torch.set_num_threads(1)
    for opponent in ("greedy", "random"):
        result = run_tournament([agent, opponent, opponent, opponent], deals=args.deals,
                                seed=args.seed, jobs=args.jobs)
        print(result.report().split("\n\nBy seat role")[0], end="\n\n")

    # One deal in the PettingZoo environment: the model in seat 0, greedy agents elsewhere.
    env = mediatore_v0.env(render_mode="ansi")
    env.reset(seed=args.seed)
    players = dict(zip(env.agents, [agent, GreedyAgent(), GreedyAgent(), GreedyAgent()]))
    for k, player in enumerate(players.values()):
        player.reset(seed=args.seed + k)
    for name in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        move = players[name].act(obs, env.unwrapped.view(name))
        if name == "player_0":
            print(f"model (player_0): {move_text(move)}")
        env.step(move)
    print(env.unwrapped.render() or "")
    print("payments:", dict(zip(players, env.unwrapped.deal.payoffs)))


if __name__ == "__main__":
    main()
