"""The RL libraries' own PettingZoo wrappers on mediatore_v0, driven by the examples that
docs/libraries.md shows: Tianshou's ``PettingZooEnv`` with its masked random policy and
collector, and RLlib's ``PettingZooEnv`` stepped with masked random actions. Each test is
skipped when its library is not installed (the sb3-contrib path is tests/test_single_seat_sb3.py).

Legality is checked against the engine, not only against the mask the library passed on: the
Tianshou test wraps ``raw_env()``, which raises on an illegal action, and the RLlib test
compares every action sent with the deal's own history (an illegal action under ``env()`` ends
the episode without entering it)."""

import importlib.metadata
import importlib.util
import re
from pathlib import Path

import numpy as np
import pytest

from mediatore_env import mediatore_v0

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
LIBRARIES = EXAMPLES.parent / "docs" / "libraries.md"


def load_example(name):
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_tianshou_example_without_tianshou_says_which_extra_in_one_line(capsys,
                                                                          monkeypatch):
    import sys
    monkeypatch.setitem(sys.modules, "tianshou", None)  # as if not installed
    example = load_example("tianshou_random")
    with pytest.raises(SystemExit) as stop:
        example.main(["--episodes", "1"])
    err = capsys.readouterr().err
    assert stop.value.code == 2 and err.count("\n") == 1
    assert "needs tianshou (the tianshou extra): pip install -e '.[tianshou]'" in err


def test_tianshou_random_policy_collects_legal_zero_sum_episodes():
    pytest.importorskip("tianshou")
    example = load_example("tianshou_random")
    episodes = 6
    stats, batch = example.collect(episodes=episodes, envs=2, seed=0,
                                   make_env=mediatore_v0.raw_env)
    assert stats.n_collected_episodes == episodes
    assert len(batch) == stats.n_collected_steps == sum(stats.lens)
    masks = np.asarray(batch.obs.mask, dtype=bool)
    assert masks.shape == (len(batch), 486) and masks.any(axis=1).all()
    assert masks[np.arange(len(batch)), batch.act].all()  # every action taken was legal
    # Tianshou's reward is one entry per player; the deal pays only on its last step.
    rewards = np.asarray(batch.rew)
    ends = np.asarray(batch.terminated, dtype=bool)
    assert rewards.shape == (len(batch), 4) and ends.sum() == episodes
    assert not rewards[~ends].any()
    returns = np.asarray(stats.returns)
    assert returns.shape == (episodes, 4)
    assert (returns.sum(axis=1) == 0).all()
    assert np.abs(returns).sum() > 0  # something was paid, so the zero sums say something


def test_rllib_pettingzoo_env_steps_with_masked_random_actions():
    pytest.importorskip("ray.rllib.env.wrappers.pettingzoo_env")
    example = load_example("rllib_random")
    env = example.rllib_env()
    rng = np.random.default_rng(0)
    paid = 0
    for seed in range(5):
        moves, returns = example.play_deal(env, rng, seed=seed)
        deal = env.env.unwrapped.deal
        assert deal.is_over
        # Every action sent is in the deal's history, in order and by the agent that RLlib
        # said was to act: the engine accepted each one as legal.
        assert [(f"player_{seat}", move) for seat, move in deal.history] == \
               [(agent, action) for agent, action, _ in moves]
        assert all(mask[action] == 1 for _, action, mask in moves)
        # Each player's payment reaches it through RLlib, and the four sum to zero.
        assert [returns[f"player_{seat}"] for seat in range(4)] == list(deal.payoffs)
        assert sum(returns.values()) == 0
        paid += any(deal.payoffs)
    assert paid > 0


def test_rllib_render_adapter_returns_the_table():
    pytest.importorskip("ray.rllib.env.wrappers.pettingzoo_env")
    env = load_example("rllib_random").rllib_env(render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert isinstance(text, str) and "mediatore_v0" in text


@pytest.mark.parametrize("name,args,words", [
    ("rllib_random", ["--seed", "-1"], "argument --seed: must be 0 or more, not -1"),
    ("rllib_random", ["--deals", "0"], "argument --deals: must be 1 or more, not 0"),
    ("rllib_random", ["--colour", "red"], "unrecognized arguments: --colour red"),
    ("tianshou_random", ["--seed", "-1"], "argument --seed: must be 0 or more, not -1"),
    ("tianshou_random", ["--envs", "0"], "argument --envs: must be 1 or more, not 0"),
    ("tianshou_random", ["--colour", "red"], "unrecognized arguments: --colour red"),
])
def test_the_examples_answer_a_bad_argument_in_one_line(capsys, name, args, words):
    """As every command of the project: the line, not argparse's usage before it, and a
    negative seed refused before any library is imported (it was RLlib's traceback)."""
    with pytest.raises(SystemExit) as stop:
        load_example(name).main(args)
    err = capsys.readouterr().err
    assert stop.value.code == 2 and err.count("\n") == 1, err
    assert err.startswith(f"{name}.py: error: ") and words in err, err


def test_the_rllib_example_without_rllib_says_how_to_install_it_in_one_line(capsys,
                                                                            monkeypatch):
    import sys
    monkeypatch.setitem(sys.modules, "ray.rllib.env.wrappers.pettingzoo_env", None)
    with pytest.raises(SystemExit) as stop:
        load_example("rllib_random").main(["--deals", "1"])
    err = capsys.readouterr().err
    assert stop.value.code == 2 and err.count("\n") == 1, err
    assert "needs RLlib: python3 -m pip install 'ray[rllib]'" in err, err


def test_rllib_example_runs(capsys):
    pytest.importorskip("ray.rllib.env.wrappers.pettingzoo_env")
    load_example("rllib_random").main(["--deals", "3", "--seed", "4"])
    out = capsys.readouterr().out
    assert "every action legal per its mask: True" in out
    assert "largest |sum of returns over players|: 0" in out


def test_the_by_hand_rllib_install_names_every_package_of_the_extra_but_gymnasium():
    """docs/libraries.md installs ray[rllib]'s packages one by one to keep gymnasium 1.4: every
    requirement of the installed ray's ``rllib`` extra (for this Python) that ray itself does
    not bring must be on that line (pydantic was not, and examples/rllib_random.py failed)."""
    requirements = pytest.importorskip("packaging.requirements")
    try:
        listed = importlib.metadata.requires("ray") or []
    except importlib.metadata.PackageNotFoundError:
        pytest.skip("ray is not installed")
    requires = [requirements.Requirement(r) for r in listed]
    core = {r.name.lower() for r in requires if r.marker is None}
    extra = {r.name.lower().replace("-", "_") for r in requires
             if r.marker is not None and "extra" in str(r.marker)
             and r.marker.evaluate({"extra": "rllib"})}
    line = re.search(r"^ +pip install ray (.+)$", LIBRARIES.read_text(), re.M).group(1)
    assert extra - core - {"gymnasium"} == {name.lower().replace("-", "_")
                                            for name in line.split()}
