"""Smoke test: sb3-contrib's MaskablePPO trains on the single-seat env for a few hundred steps,
and the saved model plays as an agent (tournament, registry, PettingZoo env). Skipped without
the ``train`` extra; the real training run is examples/train_ppo.py, documented in
docs/training.md, not tested."""

import numpy as np
import pytest

sb3_contrib = pytest.importorskip("sb3_contrib")
torch = pytest.importorskip("torch")

from sb3_contrib import MaskablePPO  # noqa: E402
from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported  # noqa: E402
from stable_baselines3.common.vec_env import DummyVecEnv  # noqa: E402

from agents import GreedyAgent, RandomAgent, make_agent  # noqa: E402
from agents.base import play  # noqa: E402
from agents.ppo_agent import PPOAgent  # noqa: E402
from agents.tournament import run_tournament  # noqa: E402
from mediatore_env import Deal, Rules  # noqa: E402
from mediatore_env.mediatore.moves import NUM_MOVES  # noqa: E402
from mediatore_env.mediatore.single_seat import MediatoreSeatEnv  # noqa: E402


@pytest.fixture(scope="module")
def saved_model(tmp_path_factory):
    torch.set_num_threads(1)
    venv = DummyVecEnv([lambda: MediatoreSeatEnv(GreedyAgent(), normalize_rewards=True,
                                                 skip_forced=True),
                        lambda: MediatoreSeatEnv(lambda rng: [RandomAgent() for _ in range(3)],
                                                 normalize_rewards=True)])
    assert is_masking_supported(venv)
    venv.reset()
    masks = get_action_masks(venv)
    assert masks.shape == (2, NUM_MOVES) and masks.dtype == bool and masks.any(axis=1).all()
    model = MaskablePPO("MlpPolicy", venv, n_steps=128, batch_size=64, n_epochs=1, gamma=1.0,
                        policy_kwargs=dict(net_arch=[32]), seed=0, device="cpu")
    model.learn(256)
    assert model.num_timesteps >= 256
    path = tmp_path_factory.mktemp("ppo") / "model.zip"
    model.save(path)
    return model, path


def test_agent_plays_the_models_masked_argmax(saved_model):
    model, path = saved_model
    agent = PPOAgent(str(path))
    env = MediatoreSeatEnv(GreedyAgent())
    rng = np.random.default_rng(0)
    for seed in range(5):
        obs, info = env.reset(seed=seed)
        while True:
            action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
            assert agent.act(None, env.view) == int(action)
            obs, reward, terminated, truncated, info = env.step(int(rng.choice(
                np.flatnonzero(env.action_masks()))))
            if terminated:
                break


def test_saved_model_plays_in_the_tournament_and_by_name(saved_model):
    _, path = saved_model
    result = run_tournament([PPOAgent(str(path)), "greedy", "random", "random"], deals=3, seed=1)
    assert result.plays == 3 * 4 and len(result.standings) == 3
    agent = make_agent(f"agents.ppo_agent:PPOAgent:path={path}")
    assert isinstance(agent, PPOAgent)
    sampler = PPOAgent(str(path), deterministic=False)
    deal = play(Deal(Rules(), 0, rng=np.random.default_rng(0)),
                [sampler, agent, GreedyAgent(), RandomAgent()], seeds=[1, 2, 3, 4])
    assert deal.is_over


def test_saved_model_plays_in_the_pettingzoo_env(saved_model):
    mediatore_v0 = pytest.importorskip("mediatore_env.mediatore.mediatore_v0")
    _, path = saved_model
    env = mediatore_v0.env()
    env.reset(seed=2)
    players = dict(zip(env.agents, [PPOAgent(str(path)), GreedyAgent(), GreedyAgent(),
                                    GreedyAgent()]))
    for player in players.values():
        player.reset(seed=2)
    for name in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        done = terminated or truncated
        env.step(None if done else players[name].act(obs, env.unwrapped.view(name)))
    assert env.unwrapped.deal.is_over
