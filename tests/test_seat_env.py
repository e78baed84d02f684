"""The single-seat Gymnasium environment of every registered game (mediatore_env.envs.seat):
Gymnasium's checker, seeded replay, given packs, copies, bad actions and opponents, and
that the learner sees what its seat's observation writer writes and nothing more."""

import copy
import pickle

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from agents import make_agent
from mediatore_env.envs.seat import SeatEnv
from mediatore_env.registry import GAMES

NAMES = sorted(GAMES)


def seat_env(name, **kwargs):
    return SeatEnv(name, make_agent("random", name), **kwargs)


def play_out(env, seed, moves_seed=0):
    """Reset with ``seed``, play random legal moves to the end; every step's (reward,
    terminated, observation) and the last info but its mask."""
    obs, info = env.reset(seed=seed)
    rng, steps = np.random.default_rng(moves_seed), []
    while True:
        assert env.observation_space.contains(obs)
        legal = np.flatnonzero(env.action_masks())
        assert (info["action_mask"] == env.action_masks()).all() and len(legal) > 0
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(legal)))
        steps.append((reward, terminated, obs.tobytes()))
        assert not truncated
        if terminated:
            return steps, {k: v for k, v in info.items() if k != "action_mask"}


@pytest.mark.parametrize("name", NAMES)
def test_gymnasiums_checker_passes(name):
    check_env(seat_env(name), skip_render_check=True)


@pytest.mark.parametrize("name", NAMES)
def test_a_seed_replays_the_episode_and_the_reward_is_the_learners_outcome(name):
    env = seat_env(name, normalize_rewards=True)
    steps, info = play_out(env, seed=5)
    assert play_out(env, seed=5) == (steps, info)  # the same env, reset again
    assert play_out(env, seed=np.int64(5)) == (steps, info)  # numpy's ints are ints
    assert play_out(seat_env(name, normalize_rewards=True), seed=5)[0] == steps  # a new one
    outcome = info["outcome"]
    assert sum(outcome) == 0 and len(outcome) == GAMES[name].players
    assert all(r == 0 for r, _, _ in steps[:-1])
    unit = GAMES[name].reward_unit_of(env.rules)
    assert steps[-1][0] == pytest.approx(outcome[info["seat"]] / unit)
    limits = GAMES[name].limits(env.rules)
    assert limits.min_utility / unit <= steps[-1][0] <= limits.max_utility / unit


def test_rewards_are_counted_in_each_games_reward_unit():
    """The largest outcome a seat can have, where it is a fair unit; club's first pot, where
    the largest (a pot doubled by every deal a session may have) would make rewards vanish."""
    units = {"mediatore": 60, "tressette": 1, "tressette3": 2, "tressette2": 1, "club": 20}
    assert {name: GAMES[name].reward_unit_of(GAMES[name].make_rules()) for name in units} == units
    assert GAMES["club"].reward_unit_of(GAMES["club"].make_rules(ante=7)) == 28


@pytest.mark.parametrize("name", NAMES)
def test_the_learner_sees_its_seats_observation_and_the_packs_given_are_dealt(name):
    definition = GAMES[name]
    packs = [list(np.random.default_rng(k).permutation(40)) for k in range(2)]
    env = seat_env(name)
    obs, info = env.reset(seed=1, options={"packs": packs, "seat": 1, "dealer": 0})
    assert info["seat"] == env.view.seat == 1 and env.game.first_dealer == 0
    assert [list(p) for p in env.game.packs] == packs[:1]
    expected = definition.observation(env.game.view(1))["observation"]
    assert np.array_equal(obs, expected)  # the writer the leak tests hold to the seat
    while True:
        legal = np.flatnonzero(env.action_masks())
        obs, _, terminated, _, _ = env.step(int(legal[0]))
        if terminated:
            break
        assert np.array_equal(obs, definition.observation(env.game.view(1))["observation"])
    dealt = [list(p) for p in env.game.packs]
    assert dealt[:2] == packs[:len(dealt[:2])]  # the given packs first, in order


@pytest.mark.parametrize("name", NAMES)
def test_a_copy_mid_episode_goes_on_as_the_original(name):
    env = seat_env(name)
    env.reset(seed=9)
    for _ in range(3):
        env.step(int(np.flatnonzero(env.action_masks())[0]))
        if env._done:
            break
    for twin in (copy.deepcopy(env), pickle.loads(pickle.dumps(env))):
        a, b = copy.deepcopy(env), twin
        while not a._done:
            move = int(np.flatnonzero(a.action_masks())[-1])
            ra, rb = a.step(move), b.step(move)
            assert np.array_equal(ra[0], rb[0]) and ra[1:4] == rb[1:4]
        assert b._done


@pytest.mark.parametrize("name", NAMES)
def test_bad_actions_and_options_change_nothing(name):
    env = seat_env(name)
    obs, _ = env.reset(seed=2)
    before = env.game.to_json()
    for bad in (1.0, True, None, "3", -1, env.action_space.n):
        with pytest.raises(ValueError):
            env.step(bad)
    for options in ({"seat": 9}, {"dealer": -1}, {"packs": [[0] * 40]}, {"colour": 1},
                    {"pack": list(range(40)), "packs": [list(range(40))]}):
        with pytest.raises(ValueError):
            env.reset(seed=3, options=options)
    for options in (3, [("seat", 1)], "seat"):  # not a dict: named as such, not a TypeError
        with pytest.raises(ValueError, match="options must be a dict .*'seat'"):
            env.reset(seed=3, options=options)
    assert env.game.to_json() == before
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    strict = copy.deepcopy(env)
    strict.strict = True
    with pytest.raises(ValueError):
        strict.step(illegal)
    assert strict.game.to_json() == before
    _, reward, terminated, _, info = env.step(illegal)
    assert terminated and info["illegal_action"] == illegal
    assert reward == -env._largest_outcome()


def test_opponents_are_checked():
    with pytest.raises(ValueError, match="opponents must be two agents"):
        SeatEnv("tressette3", [make_agent("random", "tressette3")])
    with pytest.raises(ValueError, match="not names"):
        SeatEnv("tressette2", "greedy")
    with pytest.raises(ValueError, match="at seat 1 is written for another game"):
        SeatEnv("tressette2", make_agent("greedy", "club"))
    with pytest.raises(TypeError, match="colour"):
        SeatEnv("tressette2", make_agent("random", "tressette2"), colour="red")
    env = SeatEnv("tressette3", lambda rng: [make_agent("greedy", "tressette3") for _ in range(2)],
                  low=True)
    assert env.rules.low and play_out(env, seed=4)[1]["outcome"]
