"""The single-seat gymnasium environment: API, masks, turns, rewards, seeding (no torch needed)."""

import warnings

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from agents import Agent, GreedyAgent, RandomAgent
from mediatore_env import Rules
from mediatore_env.mediatore.observation import OBSERVATION_SIZE, observation
from mediatore_env.mediatore.single_seat import MediatoreSeatEnv
from mediatore_env.mediatore.moves import NUM_MOVES, PASS, parse_move
from mediatore_env.mediatore.rules import max_payment


def random_opponents(rng):
    return [RandomAgent() for _ in range(3)]


def run_episode(env, rng, seed=None, options=None, check=None):
    """Play one episode with uniformly random legal learner moves; return the steps' data."""
    obs, info = env.reset(seed=seed, options=options)
    steps = []
    while True:
        mask = env.action_masks()
        if check:
            check(env, obs, info, mask)
        action = int(rng.choice(np.flatnonzero(mask)))
        obs, reward, terminated, truncated, info = env.step(action)
        steps.append((action, reward, terminated, truncated, info))
        if terminated:
            return steps


def test_check_env_passes():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the no-spec render notice
        check_env(MediatoreSeatEnv(GreedyAgent()))
        check_env(MediatoreSeatEnv(random_opponents, seat=2, normalize_rewards=True))


def test_spaces_and_mask_shapes():
    env = MediatoreSeatEnv(GreedyAgent())
    assert env.observation_space.shape == (OBSERVATION_SIZE,)
    assert env.action_space.n == NUM_MOVES
    obs, info = env.reset(seed=1)
    assert obs.dtype == np.float32 and obs.shape == (OBSERVATION_SIZE,)
    assert obs in env.observation_space
    mask = env.action_masks()
    assert mask.dtype == bool and mask.shape == (NUM_MOVES,)
    assert np.array_equal(info["action_mask"], mask)
    assert mask is not env.action_masks()  # a fresh array every call


def test_observation_and_mask_are_the_learners_at_every_step():
    rng = np.random.default_rng(0)

    def check(env, obs, info, mask):
        assert env.deal.to_move == env.seat  # the env only stops on the learner's turn
        expected = observation(env.deal.view(env.seat))
        assert np.array_equal(obs, expected["observation"])
        assert np.array_equal(mask, expected["action_mask"].astype(bool))
        assert np.array_equal(info["action_mask"], mask)
        assert sorted(np.flatnonzero(mask)) == sorted(env.deal.legal_moves())

    env = MediatoreSeatEnv(GreedyAgent())
    for ep in range(30):
        run_episode(env, rng, seed=ep, check=check)


def test_reward_is_the_payment_however_the_deal_ends():
    """Sum of rewards = the learner's payment, also when an opponent makes the last move."""
    rng = np.random.default_rng(1)
    env = MediatoreSeatEnv(GreedyAgent())
    ended_by = {"learner": 0, "opponent": 0, "opponent, nonzero payment": 0}
    for ep in range(150):
        steps = run_episode(env, rng, seed=ep)
        *before, (action, reward, terminated, truncated, info) = steps
        assert all(r == 0.0 and not t for _, r, t, _, _ in before)
        assert terminated and not truncated
        assert env.deal.is_over
        assert reward == env.deal.payoffs[env.seat] == info["payoffs"][env.seat]
        assert not info["action_mask"].any() and not env.action_masks().any()
        if env.deal.history[-1][0] == env.seat:
            ended_by["learner"] += 1
        else:
            ended_by["opponent"] += 1
            ended_by["opponent, nonzero payment"] += reward != 0
    assert all(ended_by.values()), ended_by


def test_thrown_in_deal_ends_with_zero():
    passer = RandomAgent(bid_rate=0.0)
    env = MediatoreSeatEnv(passer, seat=1)
    obs, info = env.reset(seed=3)
    assert env.action_masks()[PASS]
    obs, reward, terminated, truncated, info = env.step(PASS)
    assert terminated and reward == 0.0 and info["contract"] is None
    assert info["payoffs"] == (0, 0, 0, 0) and env.deal.thrown_in


def test_fixed_and_drawn_seats():
    env = MediatoreSeatEnv(GreedyAgent(), seat=3)
    assert {env.reset(seed=s)[1]["seat"] for s in range(20)} == {3}
    env = MediatoreSeatEnv(GreedyAgent())
    assert {env.reset(seed=s)[1]["seat"] for s in range(40)} == {0, 1, 2, 3}


def test_seeded_reset_replays_the_episode():
    def trace(seed):
        env = MediatoreSeatEnv(lambda rng: [RandomAgent(), GreedyAgent(), RandomAgent()])
        steps = run_episode(env, np.random.default_rng(5), seed=seed)
        return env.seat, env.deal.dealer, env.deal.pack, env.deal.history, [s[1] for s in steps]

    assert trace(11) == trace(11)
    assert trace(11) != trace(12)


def test_reset_options_inject_a_deal():
    env = MediatoreSeatEnv(GreedyAgent())
    pack = list(range(40))
    obs, info = env.reset(seed=0, options={"pack": pack, "dealer": 3, "seat": 0})
    assert env.seat == 0 and env.deal.dealer == 3 and list(env.deal.pack) == pack
    assert env.deal.history == []  # seat 0 is il mano when seat 3 deals: it speaks first
    with pytest.raises(ValueError, match="unknown reset options"):
        env.reset(options={"hand": 1})
    with pytest.raises(ValueError, match="bad seat"):
        env.reset(options={"seat": 4})


def test_opponents_play_in_playing_order_after_the_learner():
    seen = []

    class Spy(Agent):
        wants_observation = True

        def __init__(self, tag):
            self.tag = tag

        def act(self, obs, view):
            seen.append((self.tag, view.seat))
            expected = observation(view)
            assert np.array_equal(obs["observation"], expected["observation"])
            assert np.array_equal(obs["action_mask"], expected["action_mask"])
            return PASS if PASS in view.legal_moves() else view.legal_moves()[0]

    env = MediatoreSeatEnv([Spy("right"), Spy("across"), Spy("left")], seat=2)
    run_episode(env, np.random.default_rng(2), seed=4)
    assert set(seen) == {("right", 3), ("across", 0), ("left", 1)}


def test_reward_scaling():
    assert max_payment(Rules()) == 60 and max_payment(Rules.preset("low")) == 30
    plain = MediatoreSeatEnv(GreedyAgent())
    scaled = MediatoreSeatEnv(GreedyAgent(), normalize_rewards=True, reward_scale=2.0)
    for ep in range(20):
        a = run_episode(plain, np.random.default_rng(ep), seed=ep)
        b = run_episode(scaled, np.random.default_rng(ep), seed=ep)
        assert b[-1][1] == pytest.approx(a[-1][1] * 2 / 60)


def test_illegal_action_ends_the_episode_or_raises():
    env = MediatoreSeatEnv(GreedyAgent(), normalize_rewards=True)
    env.reset(seed=0)
    illegal = parse_move("play D3")
    obs, reward, terminated, truncated, info = env.step(illegal)
    assert terminated and not truncated and reward == -1.0 and info["illegal_action"] == illegal
    with pytest.raises(RuntimeError, match="reset"):
        env.step(PASS)
    env = MediatoreSeatEnv(GreedyAgent(), illegal_reward=-5.0)
    env.reset(seed=0)
    assert env.step(illegal)[1] == -5.0
    env = MediatoreSeatEnv(GreedyAgent(), strict=True)
    env.reset(seed=0)
    with pytest.raises(ValueError, match="play D3"):
        env.step(illegal)


def test_skip_forced_never_asks_a_forced_move():
    rng = np.random.default_rng(4)

    def check(env, obs, info, mask):
        assert mask.sum() > 1

    env = MediatoreSeatEnv(GreedyAgent(), skip_forced=True)
    for ep in range(30):
        steps = run_episode(env, rng, seed=ep, check=check)
        assert steps[-1][1] == env.deal.payoffs[env.seat]


def test_opponent_errors_name_the_agent():
    class Cheat(Agent):
        name = "cheat"

        def act(self, obs, view):
            return 485

    env = MediatoreSeatEnv(Cheat(), seat=0)
    with pytest.raises(ValueError, match="cheat"):
        env.reset(options={"dealer": 0})  # seat 1, a Cheat, speaks first


def test_bad_arguments():
    with pytest.raises(ValueError, match="three agents"):
        MediatoreSeatEnv([GreedyAgent(), GreedyAgent()])
    a = GreedyAgent()
    with pytest.raises(ValueError, match="distinct"):
        MediatoreSeatEnv([a, a, a])
    with pytest.raises(ValueError, match="bad seat"):
        MediatoreSeatEnv(GreedyAgent(), seat=4)
    with pytest.raises(TypeError, match="unknown keyword argument.s. 'colour' for "
                                        "MediatoreSeatEnv; valid: opponents, seat, rules, .*, "
                                        "chiamo_monte, .*capotto_bonus$"):
        MediatoreSeatEnv(GreedyAgent(), colour="red")
    with pytest.raises(RuntimeError, match="reset"):
        MediatoreSeatEnv(GreedyAgent()).step(0)
    env = MediatoreSeatEnv(GreedyAgent(), rules="no_signals", render_mode="ansi")
    env.reset(seed=0)
    assert env.rules.signals == "off" and "hand:" in env.render()


def test_set_opponents_takes_effect_next_episode():
    env = MediatoreSeatEnv(GreedyAgent(), seat=0)
    env.reset(seed=0)
    env.set_opponents(RandomAgent(bid_rate=0.0))
    env.reset(seed=0)
    assert all(isinstance(env._seated[s], RandomAgent) for s in (1, 2, 3))
