"""codec.actions: one behaviour for a user's action everywhere. Integers (Python, numpy, 0-d or
1-element integer arrays) in range are move ids; bools, floats (even 1.0), None, strings and
ids out of range are refused with a ValueError naming the value and the valid ids, in every
environment and agent wrapper, and a refused action changes nothing."""

import re
import warnings

import numpy as np
import pytest

from agents import GreedyAgent
from agents.base import Agent, play
from mediatore_env import mediatore_bidding_v0, mediatore_v0
from mediatore_env.mediatore.tables import build_table
from mediatore_env.codec.actions import action_mask, as_move, as_seat, illegal_action_message
from mediatore_env.mediatore.single_seat import MediatoreSeatEnv
from mediatore_env.mediatore.game import Deal
from mediatore_env.mediatore.moves import NUM_MOVES, PASS, move_text, parse_move
from mediatore_env.mediatore.rules import CHIAMO, Rules

ACCEPTED = [3, np.int64(3), np.int32(3), np.uint8(3), np.uint64(3), np.array(3),
            np.array([3]), np.array([3], dtype=np.int16)]
REFUSED = [(1.9, "not floats"), (1.0, "not floats"), (np.float32(1), "not floats"),
           (np.float64(2.0), "not floats"), (np.array([1.0]), "not floats"),
           (True, "not bools"), (False, "not bools"), (np.True_, "not bools"),
           (np.array(True), "not bools"), (None, ""), ("3", "parse_move"), ("pass", "parse_move"),
           (-1, ""), (NUM_MOVES, ""), (np.int64(NUM_MOVES), ""), (10 ** 30, ""),
           (np.array([1, 2]), ""), ([3], ""), (3 + 0j, "")]


@pytest.mark.parametrize("action", ACCEPTED, ids=repr)
def test_integers_are_move_ids(action):
    move = as_move(action, NUM_MOVES)
    assert move == 3 and type(move) is int
    assert as_move(action, 4) == 3


@pytest.mark.parametrize("action, why", REFUSED, ids=repr)
def test_everything_else_is_refused_naming_the_value_and_the_ids(action, why):
    with pytest.raises(ValueError) as e:
        as_move(action, NUM_MOVES)
    text = str(e.value)
    assert text.startswith(f"{action!r} is not an action id: action ids are integers 0..485")
    assert why in text


def test_the_range_is_the_environments():
    assert as_move(45, 46) == 45
    with pytest.raises(ValueError, match=r"^46 is not an action id: action ids are integers 0\.\.45$"):
        as_move(46, 46)


def test_seats():
    assert [as_seat(s) for s in (0, np.int8(1), np.array(2), np.array([3]))] == [0, 1, 2, 3]
    for bad in (4, -1, 1.0, True, None, "0"):
        with pytest.raises(ValueError, match=f"bad dealer {bad!r}; valid: 0, 1, 2, 3"):
            as_seat(bad, "dealer")


def test_illegal_action_message():
    text = illegal_action_message(np.int64(1), "player_1", "auction", [0, 4], NUM_MOVES,
                                  move_text)
    assert text == "illegal action 1 (bid chiamo) for player_1 in phase auction; legal actions: 0 (pass), 4 (bid solissimo)"
    text = illegal_action_message(1.9, "player_1", "auction", [0], NUM_MOVES, move_text)
    assert text == ("illegal action 1.9 (1.9 is not an action id: action ids are integers 0..485, "
                    "not floats) for player_1 in phase auction; legal actions: 0 (pass)")


# -- 1.9 in every environment and agent wrapper ---------------------------------------------------
# mediatore_bidding_v0's raw_env used to truncate 1.9 to 1 (bid chiamo), and took "1" for 1.

@pytest.fixture(scope="module")
def table():
    return build_table(2, seed=21, values="made")


def pettingzoo_state(env):
    raw = env.unwrapped
    return (env.agent_selection, list(raw.deal.history), dict(env.rewards),
            dict(env._cumulative_rewards), dict(env.terminations), dict(env.truncations),
            env.observe(env.agent_selection)["observation"].tobytes())


@pytest.mark.parametrize("make", ["v0.raw_env", "v0.env", "bidding.raw_env", "bidding.env"])
def test_pettingzoo_envs_refuse_floats_and_change_nothing(make, table):
    module, name = make.split(".")
    if module == "v0":
        env = getattr(mediatore_v0, name)()
        env.reset(seed=0, options={"dealer": 3})
    else:
        env = getattr(mediatore_bidding_v0, name)(table=table)
        env.reset(seed=0, options={"deal": 0})
    env.observe(env.agent_selection)
    before = pettingzoo_state(env)
    for bad in (1.9, 1.0, np.float32(1), "1", None, True):
        if name == "raw_env" or bad is True:  # True is in the Discrete space: see test_wrappers
            error, message = ValueError, f"{re.escape(repr(bad))} is not an action id"
        else:  # env(): PettingZoo's AssertOutOfBoundsWrapper, as with the standard chain
            error, message = AssertionError, "action is not in action space"
        with pytest.raises(error, match=message):
            env.step(bad)
        assert pettingzoo_state(env) == before
    env.step(np.array([CHIAMO]) if name == "raw_env" else np.int64(CHIAMO))  # integers play
    assert env.unwrapped.deal.history[-1][1] == CHIAMO


def test_raw_env_message_says_what_is_legal():
    env = mediatore_v0.raw_env()
    env.reset(seed=0, options={"dealer": 3})
    with pytest.raises(ValueError) as e:
        env.step(1.9)
    assert str(e.value).startswith("illegal action 1.9 (1.9 is not an action id: action ids are "
                                   "integers 0..485, not floats) for player_0 in phase auction; "
                                   "legal actions: 0 (pass), 1 (bid chiamo)")


@pytest.mark.parametrize("strict", [False, True])
def test_single_seat_refuses_floats_and_changes_nothing(strict):
    env = MediatoreSeatEnv(GreedyAgent(), seat=0, strict=strict)
    env.reset(seed=0, options={"dealer": 3})
    history = list(env.deal.history)
    mask = env.action_masks()
    for bad in (1.9, 1.0, None, True, "pass", NUM_MOVES):
        with pytest.raises(ValueError, match=f"{bad!r} is not an action id: action ids are integers 0..485"):
            env.step(bad)
        assert env.deal.history == history and (env.action_masks() == mask).all()
    obs, reward, terminated, truncated, info = env.step(np.array([PASS]))
    assert env.deal.history[len(history)] == (0, PASS) and not terminated


def test_play_refuses_an_agents_float():
    class Truncated(Agent):
        name = "truncated"
        wants_observation = False

        def act(self, observation, view):
            return 1.9
    deal = Deal(Rules(), 3, list(range(40)))
    with pytest.raises(ValueError, match=r"agent 'truncated' .* at seat 0: illegal move 1.9 "
                                         r"\(valid ids are integers 0..485\)"):
        play(deal, [Truncated(), GreedyAgent(), GreedyAgent(), GreedyAgent()])
    assert deal.history == []


def test_single_seat_refuses_an_opponents_float():
    class Truncated(Agent):
        name = "truncated"
        wants_observation = False

        def act(self, observation, view):
            return float(view.legal_moves()[0])
    env = MediatoreSeatEnv(Truncated(), seat=0)
    with pytest.raises(ValueError, match="opponent 'truncated' .* at seat 1 played 0.0: 0.0 is not an action id"):
        env.reset(options={"dealer": 0})


def test_illegal_ids_keep_each_environments_rule(table):
    """An id in range but illegal: raw_env raises, env() ends the episode with the illegal
    reward (PettingZoo's rule), the single-seat env does too unless strict."""
    chiamo_then = [parse_move("bid solo"), parse_move("bid chiamo")]
    raw = mediatore_v0.raw_env()
    raw.reset(seed=0, options={"dealer": 3})
    raw.step(chiamo_then[0])
    with pytest.raises(ValueError, match="illegal action 1 \\(bid chiamo\\) for player_1"):
        raw.step(chiamo_then[1])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for env in (mediatore_v0.env(), mediatore_bidding_v0.env(table=table)):
            env.reset(seed=0)
            agent = env.agent_selection
            env.step(chiamo_then[0])
            env.step(chiamo_then[1])
            assert env.rewards[env.possible_agents[(env.possible_agents.index(agent) + 1) % 4]] == -1
            assert all(env.terminations.values())


def test_action_mask_marks_the_legal_moves_and_is_the_callers_to_keep():
    class Seat:
        def __init__(self, legal):
            self.legal = legal

        def legal_moves(self):
            return self.legal

    mask = action_mask(Seat([4, 0, 2]), 6)
    assert mask.dtype == np.int8 and mask.tolist() == [1, 0, 1, 0, 1, 0]
    mask[1] = 1  # a fresh, writable array each call
    assert action_mask(Seat([]), 6).tolist() == [0] * 6
