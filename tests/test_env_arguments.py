"""Every environment's arguments are checked where they are given: a bad one is a ValueError that
names it, raised before anything changes (not a numpy message at the first reset, nor a
surprise at the first illegal move)."""

from __future__ import annotations

import copy
import warnings

import numpy as np
import pytest

from agents import make_agent
from mediatore_env.envs.base import environment_module
from mediatore_env.mediatore.mediatore_bidding_v0 import raw_env as bidding_env
from mediatore_env.mediatore.single_seat import MediatoreSeatEnv
from mediatore_env.registry import GAMES, make

GAME_NAMES = sorted(GAMES)


def generator_state(env) -> dict:
    return copy.deepcopy(env._rng.bit_generator.state)


@pytest.mark.parametrize("game", GAME_NAMES)
@pytest.mark.parametrize("seed", ["abc", -1, True, 1.5])
def test_a_bad_seed_is_refused_by_name_and_changes_nothing(game, seed):
    env = environment_module(game).raw_env()
    env.reset(seed=3)
    before, history = generator_state(env), list(env.game.history)
    with pytest.raises(ValueError, match=rf"bad seed {seed!r}; valid: None or an int >= 0"):
        env.reset(seed=seed)
    assert generator_state(env) == before and list(env.game.history) == history
    env.reset(seed=np.int64(3))  # numpy's ints are ints


@pytest.mark.parametrize("game", GAME_NAMES)
@pytest.mark.parametrize("reward", ["x", float("nan"), True, None])
def test_illegal_reward_must_be_a_number_when_the_environment_is_made(game, reward):
    module = environment_module(game)
    for make_env in (module.env, getattr(module, "standard_wrapped_env", module.env)):
        with pytest.raises(ValueError, match=r"illegal_reward must be a finite number, got"):
            make_env(illegal_reward=reward)
    module.env(illegal_reward=-2.5).reset(seed=0)


@pytest.mark.parametrize("game", ["mediatore", "club"])
@pytest.mark.parametrize("flag", ["normalize_rewards", "render_all"])
def test_yes_or_no_arguments_take_only_true_or_false(game, flag):
    module = environment_module(game)
    for value in ("yes", 1, None):
        with pytest.raises(ValueError, match=rf"{flag} must be True or False, got {value!r}"):
            module.raw_env(**{flag: value})
    assert getattr(module.raw_env(**{flag: True}), flag) is True


def test_the_bidding_env_checks_the_deal_and_the_seed_before_reseeding():
    env = bidding_env()
    env.reset(seed=1)
    before = generator_state(env)
    with pytest.raises(ValueError, match="the 'deal' option needs a table"):
        env.reset(seed=2, options={"deal": 0})
    with pytest.raises(ValueError, match="bad seed 'x'"):
        env.reset(seed="x")
    assert generator_state(env) == before


def test_the_seat_env_refuses_agent_names_and_checks_options_before_reseeding():
    with pytest.raises(ValueError, match=r"opponents must be agents, not names .*make_agent"):
        MediatoreSeatEnv("greedy")
    with pytest.raises(ValueError, match=r"opponents must be agents, not names"):
        MediatoreSeatEnv(["greedy", "random", "random"])
    with pytest.raises(ValueError, match=r"reward_scale must be a finite number, got '2'"):
        MediatoreSeatEnv(make_agent("random"), reward_scale="2")
    with pytest.raises(ValueError, match=r"strict must be True or False, got 'no'"):
        MediatoreSeatEnv(make_agent("random"), strict="no")
    env = MediatoreSeatEnv(make_agent("random"))
    first, _ = env.reset(seed=4)
    state = copy.deepcopy(env.np_random.bit_generator.state)
    for options, message in (({"dealer": 7}, "dealer"), ({"pack": [0] * 40}, "pack"),
                             ({"sete": 1}, "unknown reset options")):
        with pytest.raises(ValueError, match=message):
            env.reset(seed=5, options=options)
        assert env.np_random.bit_generator.state == state  # not reseeded by the bad reset
    with pytest.raises(ValueError, match="bad seed"):
        env.reset(seed="5")
    again, _ = env.reset(seed=4)
    assert np.array_equal(first, again)


def test_make_takes_a_preset_or_a_dict_and_keeps_a_game_s_fixed_switches():
    low = make("mediatore", rules="low").rules
    assert low.schedule == "low" and not low.arcisolissimo
    assert make("mediatore", rules="low", signals="off").rules.signals == "off"
    assert make("tressette3", rules={"low": True}).rules.players == 3
    with pytest.raises(ValueError, match=r"tressette3 fixes players=3"):
        make("tressette3", rules={"players": 2})
    with pytest.raises(ValueError, match=r"unknown rules preset 'lo'; valid: standard"):
        make("mediatore", rules="lo")
    # a game without presets says what it takes instead (it once said "valid: none")
    with pytest.raises(ValueError, match=r"unknown rules preset 'low': club rules have no "
                                         r"presets; give a dict of switches: ante, deals$"):
        make("club", rules="low")


def test_a_process_without_the_c_solver_is_told_once(monkeypatch):
    from mediatore_env.analysis import solver
    monkeypatch.setattr(solver, "_dds", None)
    monkeypatch.setattr(solver, "_FORCED", False)
    monkeypatch.setattr(solver, "_slow_told", False)
    monkeypatch.setattr(solver, "BACKEND", "python")
    with pytest.warns(RuntimeWarning, match=r"C solver core .* not built.*pip install -e \."):
        solver._pick(None)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        solver._pick(None)        # told once
        solver._pick("python")    # asked for: never told


@pytest.mark.parametrize("game", GAME_NAMES)
def test_a_raw_environment_used_before_reset_says_to_call_reset(game):
    """raw_env() has no protections, but a call before the first reset() says what is wrong
    rather than naming an internal attribute ('raw_env' object has no attribute '_views')."""
    env = environment_module(game).raw_env(render_mode="ansi")
    for call in (lambda: env.step(0), env.last, lambda: env.observe("player_0"), env.render,
                 lambda: env.view("player_0")):
        with pytest.raises(AttributeError, match=r"^'\w+' object has no attribute '\w+': "
                                                 r"before reset\(\) there is no episode; call "
                                                 r"reset\(\) before step\(\)"):
            call()
    assert not hasattr(env, "agent_selection")  # still an AttributeError: hasattr holds
    env.reset(seed=0)
    env.render()
    with pytest.raises(AttributeError, match=r"^'\w+' object has no attribute 'colour'$"):
        env.colour


@pytest.mark.parametrize("game", GAME_NAMES + ["mediatore_bidding"])
def test_an_unknown_agent_is_a_key_error_naming_the_agents(game):
    """A seat number where an agent's name is wanted (observe(0)) is an easy slip: the
    KeyError names it and the valid names, not just ``KeyError: 0``."""
    module = (environment_module(game) if game in GAMES
              else __import__("mediatore_env.mediatore.mediatore_bidding_v0", fromlist=["_"]))
    for env in (module.raw_env(), module.env()):
        env.reset(seed=0)
        agents = ", ".join(map(repr, env.possible_agents))
        calls = [env.observe, env.action_space, env.observation_space]
        calls += [env.unwrapped.view] if game in GAMES else []  # the bidding env has no views
        for call in calls:
            for agent in (0, "player_9"):
                with pytest.raises(KeyError, match=rf"unknown agent {agent!r}; the agents are "
                                                   rf"{agents}"):
                    call(agent)
