"""envs.wrappers.ProtectedEnv, the env() of every PettingZoo environment, behaves exactly as
PettingZoo's standard chain (TerminateIllegalWrapper, AssertOutOfBoundsWrapper,
OrderEnforcingWrapper): the two are driven side by side with the same actions, legal, illegal
and outside the action space, and must show the same agent order, observations, rewards,
terminations, truncations, infos, warnings, and exceptions with the same messages; except that
ProtectedEnv, like every raw environment, takes the action ids that the chain's Discrete space
refuses (np.uint64(3), np.array([3])), in every environment."""

import random
import warnings
from functools import partial

import numpy as np
import pytest
from pettingzoo.utils.env_logger import EnvLogger

from agents import GreedyAgent
from mediatore_env import envs, mediatore_bidding_v0, mediatore_v0
from mediatore_env.mediatore.tables import build_table
from mediatore_env.envs.base import environment_module
from mediatore_env.envs.wrappers import ProtectedEnv
from mediatore_env.registry import GAMES
from mediatore_env.mediatore.moves import PASS
from mediatore_env.mediatore.single_seat import MediatoreSeatEnv


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
    return [-1, n, np.int64(n), 2.0, 1.9, np.float32(1), None, "pass", np.array([2.0]),
            np.uint64(n), np.True_, [0], np.array([0, 1])]


# Action ids that the raw environments take but Gymnasium's Discrete.contains refuses, so the
# standard chain fails its assertion: ProtectedEnv takes them, as the environment pages promise.
def ids_the_chain_refuses(move):
    return [np.uint64(move), np.array([move]), np.array([move], dtype=np.uint64)]


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


def test_the_chain_refuses_ids_that_protected_env_takes(pair):
    """The one difference in what is accepted, side by side: the chain's assertion, and
    ProtectedEnv playing the id as the plain int."""
    ours, theirs = pair()
    plain, _ = pair()
    for e in (ours, theirs, plain):
        e.reset(seed=7)
    move = int(np.flatnonzero(ours.observe(ours.agent_selection)["action_mask"])[0])
    for action in ids_the_chain_refuses(move):
        assert outcome(lambda: theirs.step(action))[0] == (
            "raised", AssertionError, "action is not in action space")
    ours.step(ids_the_chain_refuses(move)[1])
    plain.step(move)
    assert snapshot(ours) == snapshot(plain)


def environment_modules() -> dict:
    """Every PettingZoo environment of every game, by id: its module (``env``, ``raw_env``),
    the generic environment's for a game with none of its own."""
    out = {}
    for definition in GAMES.values():
        if not definition.environments:
            out[definition.pettingzoo_id] = partial(environment_module, definition)
        out.update({env.pettingzoo_id: env.load for env in definition.environments
                    if env.pettingzoo_id})
    return out


ENVIRONMENTS = environment_modules()
assert set(ENVIRONMENTS) == set(envs.registered())


def first_legal(env) -> int:
    return int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0])


@pytest.mark.parametrize("wrapped", [True, False], ids=["env", "raw_env"])
@pytest.mark.parametrize("env_id", sorted(ENVIRONMENTS))
def test_every_environment_takes_every_action_id_its_page_promises(env_id, wrapped, table):
    """A Python or numpy integer (signed or not), a 0-d or 1-element integer array: each plays
    the very move the plain int plays, in env() and raw_env() alike."""
    module = ENVIRONMENTS[env_id]()
    kwargs = {"table": table} if env_id.endswith("bidding-v0") else {}
    make = module.env if wrapped else module.raw_env
    plain = make(**kwargs)
    plain.reset(seed=5)
    move = first_legal(plain)
    plain.step(move)
    for action in (np.int64(move), np.int8(move), np.uint8(move), np.array(move),
                   *ids_the_chain_refuses(move)):
        env = make(**kwargs)
        env.reset(seed=5)
        env.step(action)
        assert env.agent_selection == plain.agent_selection, repr(action)
        assert all(np.array_equal(env.observe(a)["observation"], plain.observe(a)["observation"])
                   for a in env.possible_agents), repr(action)


def test_the_single_seat_environment_takes_the_same_action_ids():
    for action in (np.int8(PASS), np.array(PASS), *ids_the_chain_refuses(PASS)):
        env = MediatoreSeatEnv(GreedyAgent(), seat=0)
        env.reset(seed=0, options={"dealer": 3})
        before = len(env.deal.history)
        env.step(action)
        assert env.deal.history[before] == (0, PASS), repr(action)
