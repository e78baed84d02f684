"""The toy game of tests/toy_game, registered from the tests, gets everything a game of the
registry gets with no code of its own above its engine: the universal test
(tests/test_universal.py covers it as any game), a PettingZoo environment (the generic
:class:`~mediatore_env.envs.base.GameEnv`) that passes PettingZoo's own tests, and the play to
the end, the duplicate tournament, the replay viewer (and, in tests/test_play_cli.py and
tests/test_web.py, terminal play and the browser table)."""

from __future__ import annotations

import io
import re

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import agents.base
from agents.random_agent import UniformAgent
from agents.tournament import run_tournament
from mediatore_env.core.cards import CARD_NAMES
from mediatore_env.core.game import CHANCE, Game
from mediatore_env.registry import replay
from mediatore_env.envs.base import GameEnv, environment_module, make_env
from mediatore_env.registry import get, make
from mediatore_env.tools.replay import show_record
from mediatore_env.tools.terminal import Pager

TOYS = ("toy", "toy3")


@pytest.mark.parametrize("name", TOYS)
def test_the_toy_is_a_game_of_the_registry(name):
    game = make(name, scoring="tricks")
    assert isinstance(game, Game) and game.to_move == CHANCE
    assert game.players == get(name).players and game.rules.scoring == "tricks"


@pytest.mark.filterwarnings("ignore::UserWarning")  # PettingZoo's advice on Dict spaces
@pytest.mark.parametrize("name", TOYS)
def test_the_generic_environment_passes_pettingzoo_api_and_seed_tests(name):
    module = environment_module(name)
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
    again.reset(options={"packs": game.packs, "dealer": game.first_dealer})
    for seat, move in game.history:
        assert again.agent_selection == f"player_{seat}"
        again.step(move)
    assert again.game == game


def test_the_generic_environment_refuses_bad_arguments_in_one_line():
    with pytest.raises(TypeError, match=r"unknown keyword argument\(s\) 'colour' for toy_v0; "
                                        r"valid: render_mode, illegal_reward \(with env\(\)\), "
                                        r"and the rules switches hands, "
                                        r"scoring"):
        GameEnv("toy", colour="red")
    with pytest.raises(TypeError, match="'players'"):  # fixed by the definition
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
    assert text.startswith("== toy_v0 · hand 1 · trick 1 ") and env.agent_selection in text
    legal = env.unwrapped.game.legal_moves()
    assert text.endswith("to play: " + " ".join(CARD_NAMES[m] for m in legal))


@pytest.mark.parametrize("name", TOYS)
def test_the_play_to_end_loop_plays_the_toy(name):
    definition = get(name)
    rng = np.random.default_rng(0)
    game = agents.base.play(definition.new_game(),
                            [UniformAgent() for _ in range(definition.players)],
                            lambda k: rng.permutation(40).tolist())
    assert game.is_over and sum(game.outcome) == 0


@pytest.mark.parametrize("name", TOYS)
def test_the_duplicate_tournament_plays_the_toy(name):
    """One lineup of different agents over the rotations: zero-sum per play, so the copies'
    means weighted by their numbers sum to zero; a lineup of one agent comes out at exactly 0."""
    players = get(name).players
    result = run_tournament(["random"] + ["agents.random_agent:UniformAgent"] * (players - 1),
                            deals=6, seed=3, game=name, record_deals=[0, 5])
    assert sum(s.mean * s.copies for s in result.standings) == pytest.approx(0, abs=1e-9)
    same = run_tournament(["random"] * players, deals=4, seed=3, game=name)
    assert [s.mean for s in same.standings] == [0.0]
    assert len(result.records) == 2 * players and all(
        replay(record).is_over for record in result.records)


def test_the_replay_viewer_steps_through_a_toy_record():
    game = make("toy3")
    packs = iter([list(range(40)), list(range(39, -1, -1))])
    agents.base.play(game, [UniformAgent() for _ in range(3)], lambda k: next(packs),
                     seeds=[1, 2, 3])
    out = io.StringIO()
    assert show_record(game.record(), seat=1, pager=Pager(False, out=out))
    text = out.getvalue()
    assert len(re.findall(r"-- hand \d: seat \d deals", text)) == 2  # a stop at each pack
    assert "seat 1 holds" in text and "seat 0 holds" not in text  # seat 1's view only
    assert "outcome: " + ", ".join(f"seat {s} {o:+d}" for s, o in enumerate(game.outcome)) in text
