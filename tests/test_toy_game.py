"""The toy game of tests/toy_game, registered from the tests, gets everything a game of the
registry gets with no code of its own above its engine: the universal test
(tests/test_universal.py covers it as any game), a PettingZoo environment (the generic
:class:`~mediatore_env.envs.base.GameEnv`) that passes PettingZoo's own tests, and the play to
the end of the tools."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test
from toy_game.agents import ToyRandomAgent

import agents.base
from mediatore_env.core.game import CHANCE, Game
from mediatore_env.envs.base import GameEnv, make_env
from mediatore_env.registry import get, make

TOYS = ("toy", "toy3")


@pytest.mark.parametrize("name", TOYS)
def test_the_toy_is_a_game_of_the_registry(name):
    game = make(name, scoring="tricks")
    assert isinstance(game, Game) and game.to_move == CHANCE
    assert game.players == get(name).players and game.rules.scoring == "tricks"


@pytest.mark.filterwarnings("ignore::UserWarning")  # PettingZoo's advice on Dict spaces
@pytest.mark.parametrize("name", TOYS)
def test_the_generic_environment_passes_pettingzoo_api_and_seed_tests(name):
    module = get(name).load("env")
    api_test(module.env(), num_cycles=300)
    api_test(module.raw_env(hands=1, scoring="tricks"), num_cycles=300)
    seed_test(module.env, num_cycles=100)
    seed_test(module.raw_env, num_cycles=100)


def play_out(env, seed):
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, info = env.last()
        totals[agent] += reward
        env.step(None if terminated or truncated
                 else int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    return totals


def test_an_episode_is_a_game_its_rewards_the_outcome_and_its_record_replays():
    env = GameEnv("toy3")
    totals = play_out(env, seed=5)
    game = env.unwrapped.game
    assert game.is_over and len(game.packs) == 2
    assert list(totals.values()) == list(game.outcome) and sum(game.outcome) == 0
    assert type(game).replay(env.record) == game
    # The same packs and dealer from the options: the same game for the same actions.
    again = GameEnv("toy3")
    again.reset(options={"packs": game.packs, "dealer": game.dealer})
    for seat, move in game.history:
        assert again.agent_selection == f"player_{seat}"
        again.step(move)
    assert again.game == game


def test_the_generic_environment_refuses_bad_arguments_in_one_line():
    with pytest.raises(TypeError, match=r"unknown keyword argument\(s\) 'colour' for toy_v0; "
                                        r"valid: render_mode, and the rules switches hands, "
                                        r"scoring"):
        GameEnv("toy", colour="red")
    with pytest.raises(TypeError, match="'players'"):  # fixed by the entry
        make_env("toy", players=3)
    with pytest.raises(ValueError, match="bad value 3 for rules switch 'hands'"):
        GameEnv("toy", hands=3)
    with pytest.raises(ValueError, match="bad render_mode 'text'"):
        GameEnv("toy", render_mode="text")
    env = GameEnv("toy")
    env.reset(seed=1)
    before = env.game.to_json()
    with pytest.raises(ValueError, match="pack 0 in options: bad pack"):
        env.reset(options={"packs": [[0] * 40]})
    with pytest.raises(ValueError, match="bad dealer 2 in options; valid: 0, 1"):
        env.reset(options={"dealer": 2})
    assert env.game.to_json() == before
    with pytest.raises(ValueError, match="illegal"):
        env.step(next(m for m in range(40) if not env.game.is_legal(m)))
    assert env.game.to_json() == before


def test_the_table_renders_from_the_text_module():
    env = GameEnv("toy", render_mode="ansi")
    env.reset(seed=3)
    text = env.render()
    assert text.startswith("toy_v0: hand 1 of 2") and env.agent_selection in text


@pytest.mark.skipif(not hasattr(agents.base, "play"),
                    reason="the one play-to-end loop (agents.base.play) is not merged yet")
@pytest.mark.parametrize("name", TOYS)
def test_the_play_to_end_loop_plays_the_toy(name):
    entry = get(name)
    rng = np.random.default_rng(0)
    game = agents.base.play(entry.new_game(), [ToyRandomAgent() for _ in range(entry.players)],
                            lambda k: rng.permutation(40).tolist())
    assert game.is_over and sum(game.outcome) == 0
