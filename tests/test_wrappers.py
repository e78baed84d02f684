"""envs.wrappers.ProtectedEnv, the env() of both PettingZoo environments, behaves exactly as
PettingZoo's standard chain (TerminateIllegalWrapper, AssertOutOfBoundsWrapper,
OrderEnforcingWrapper): the two are driven side by side with the same actions, legal, illegal
and outside the action space, and must show the same agent order, observations, rewards,
terminations, truncations, infos, warnings, and exceptions with the same messages."""

import random
import warnings

import numpy as np
import pytest
from pettingzoo.utils.env_logger import EnvLogger

from mediatore_env import mediatore_bidding_v0, mediatore_v0
from mediatore_env.analysis.tables import build_table
from mediatore_env.envs.wrappers import ProtectedEnv


@pytest.fixture(scope="module")
def table():
    return build_table(4, seed=21, values="made")


@pytest.fixture(autouse=True)
def _quiet():
    EnvLogger.suppress_output()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield
    EnvLogger.flush()
    EnvLogger.unsuppress_output()


@pytest.fixture(params=["mediatore_v0", "mediatore_bidding_v0"])
def pair(request, table):
    """A function making (env(), the standard chain) of one environment with the same
    arguments."""
    if request.param == "mediatore_v0":
        return lambda **kw: (mediatore_v0.env(**kw), mediatore_v0.standard_wrapped_env(**kw))
    return lambda **kw: (mediatore_bidding_v0.env(table=table, **kw),
                         mediatore_bidding_v0.standard_wrapped_env(table=table, **kw))


def outcome(call):
    """What a call did: ("ok", its result) or ("raised", exception type, message), with the
    warnings PettingZoo logged."""
    EnvLogger.flush()
    try:
        result = ("ok", call())
    except Exception as e:  # noqa: BLE001 - comparing whatever either raises
        result = ("raised", type(e), str(e))
    return result, list(EnvLogger.mqueue)


def snapshot(env):
    """Everything a PettingZoo user can see of an env, for comparing two of them."""
    seen = {"has_updated": env._has_updated}
    if not env._has_reset:
        return seen
    seen.update(agents=list(env.agents), selection=env.agent_selection, rewards=dict(env.rewards),
                cumulative=dict(env._cumulative_rewards), terminations=dict(env.terminations),
                truncations=dict(env.truncations), infos=repr(env.infos), str=str(env))
    seen["observations"] = {a: {k: v.tobytes() for k, v in env.observe(a).items()}
                            for a in env.agents}
    if env.agents:
        obs, reward, term, trunc, info = env.last()
        seen["last"] = (obs["observation"].tobytes(), obs["action_mask"].tobytes(), reward,
                        term, trunc, repr(info))
    return seen


def same(ours, theirs, call, what):
    """Apply ``call`` to both envs; they must do and log the same and end in the same state."""
    a, b = outcome(lambda: call(ours)), outcome(lambda: call(theirs))
    assert a == b, what
    assert snapshot(ours) == snapshot(theirs), what
    return a[0]


# Actions outside the Discrete space (before anything else, both fail the same assertion), and
# values the space contains written other ways.
def odd_actions(n):
    return [-1, n, np.int64(n), 2.0, 1.9, np.float32(1), None, "pass", np.array([0]),
            np.uint64(0), np.True_, [0]]


def test_before_reset_the_same_errors(pair):
    ours, theirs = pair()
    assert isinstance(ours, ProtectedEnv)
    for name in ("agents", "agent_selection", "rewards", "terminations", "truncations", "infos",
                 "num_agents"):
        same(ours, theirs, lambda e: getattr(e, name), name)
    for what, call in (("step", lambda e: e.step(0)), ("observe", lambda e: e.observe("player_0")),
                       ("render", lambda e: e.render()), ("agent_iter", lambda e: e.agent_iter()),
                       ("last", lambda e: e.last()), ("str", str),
                       ("possible_agents", lambda e: e.possible_agents),
                       ("action_space", lambda e: e.action_space("player_1")),
                       ("observation_space", lambda e: e.observation_space("player_1"))):
        same(ours, theirs, call, what)


def drive(ours, theirs, rng, n, odd_rate, illegal_rate, seed=None):
    """Play one episode on both with random actions: mostly legal (as ints, numpy ints or 0-d
    arrays), some illegal ids, some actions outside the space; dead agents step with None or,
    sometimes, with an id. Every step must come out the same. Returns the steps taken."""
    same(ours, theirs, lambda e: e.reset(seed=seed), "reset")
    steps = 0
    for agent, other in zip(ours.agent_iter(), theirs.agent_iter()):
        assert agent == other
        obs = ours.observe(agent)
        dead = ours.terminations[agent] or ours.truncations[agent]
        legal = np.flatnonzero(obs["action_mask"])
        r = rng.random()
        if dead:
            action = None if r > 0.2 else int(rng.randrange(n))
        elif r < odd_rate:
            action = rng.choice(odd_actions(n))
        elif r < odd_rate + illegal_rate:
            action = int(rng.choice(np.flatnonzero(obs["action_mask"] == 0)))
        else:
            move = int(rng.choice(legal))
            action = rng.choice([move, np.int64(move), np.int32(move), np.array(move)])
        same(ours, theirs, lambda e: e.step(action), f"step {steps}: {agent} plays {action!r}")
        steps += 1
    assert ours.agents == theirs.agents == []
    same(ours, theirs, lambda e: e.step(0), "a step with no agents left warns")
    return steps


def test_side_by_side_on_legal_illegal_and_odd_actions(pair):
    rng = random.Random(1)
    for k in range(24):
        ours, theirs = pair(illegal_reward=-1 - k % 3)
        n = int(ours.action_space("player_0").n)
        drive(ours, theirs, rng, n, odd_rate=0.05 * (k % 4), illegal_rate=0.03 * (k % 3),
              seed=k)


def test_a_bool_is_refused_by_both(pair):
    """True is in Gymnasium's Discrete space (a bool is an int); the standard chain then fails
    indexing the mask with it (numpy's ValueError), ProtectedEnv says it is no action id.
    Either way a ValueError, and nothing changes."""
    ours, theirs = pair()
    for e in (ours, theirs):
        e.reset(seed=3)
        e.observe(e.agent_selection)
    a, b = outcome(lambda: ours.step(True)), outcome(lambda: theirs.step(True))
    assert a[0][:2] == b[0][:2] == ("raised", ValueError)
    assert "True is not an action id" in a[0][2] and "not bools" in a[0][2]
    assert snapshot(ours) == snapshot(theirs)


def test_illegal_move_ends_the_episode_in_the_same_agent_order(pair):
    ours, theirs = pair(illegal_reward=-7)
    for e in (ours, theirs):
        e.reset(seed=11)
    mask = ours.observe(ours.agent_selection)["action_mask"]
    offender = ours.agent_selection
    illegal = int(np.flatnonzero(mask == 0)[0])
    same(ours, theirs, lambda e: e.step(illegal), "illegal")
    assert ours.rewards[offender] == -7.0 and all(ours.terminations.values())
    order = []
    for agent, other in zip(ours.agent_iter(), theirs.agent_iter()):
        order.append((agent, other))
        same(ours, theirs, lambda e: e.step(None), f"{agent} done")
    assert len(order) == 4 and all(a == b for a, b in order)
    assert ours.agents == theirs.agents == []


def test_actions_outside_the_space_fail_the_same_assertion(pair):
    """Alive or done, an agent's action outside the space fails the same assertion, and
    nothing changes; a done agent's id raises the same dead-step error."""
    ours, theirs = pair()
    n = int(ours.action_space("player_0").n)
    same(ours, theirs, lambda e: e.reset(seed=5), "reset")
    for action in odd_actions(n):
        assert same(ours, theirs, lambda e: e.step(action), repr(action))[0] == "raised"
    mask = ours.observe(ours.agent_selection)["action_mask"]
    same(ours, theirs, lambda e: e.step(int(np.flatnonzero(mask == 0)[0])), "illegal")
    for action in [*odd_actions(n), 0, n - 1]:
        if action is not None:
            assert same(ours, theirs, lambda e: e.step(action), f"done, {action!r}")[0] == "raised"
