"""Every environment deep-copies and pickles at any point of a game (before reset, mid-deal,
after the episode ended) and the copy goes on exactly as the original: the same observations,
masks, rewards, terminations, truncations, infos and game records for the same actions, to the
end of the episode and across further resets with and without a seed; and stepping a copy
leaves the original as it was (mediatore_env.envs.base)."""

import copy
import pickle
import random
import warnings

import numpy as np
import pytest

from agents import GreedyAgent, PIMCAgent, RandomAgent
from mediatore_env import (mediatore_bidding_v0, mediatore_v0, tressette2_v0, tressette3_v0,
                           tressette_v0)
from mediatore_env.mediatore.tables import build_table
from mediatore_env.club import club_mediatore_v0
from mediatore_env.mediatore.single_seat import MediatoreSeatEnv
from mediatore_env.mediatore.moves import PASS
from mediatore_env.mediatore.records import make_record


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


@pytest.fixture(scope="module")
def table():
    return build_table(3, seed=21, values="made")


def plain(x):
    """``x`` with arrays as (dtype, shape, bytes), so that == compares them exactly."""
    if isinstance(x, np.ndarray):
        return ("array", str(x.dtype), x.shape, x.tobytes())
    if isinstance(x, dict):
        return {k: plain(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)) and not hasattr(x, "_fields"):
        return [plain(v) for v in x]
    return x


def round_trip(env):
    return pickle.loads(pickle.dumps(env))


# -- driving each kind of environment ------------------------------------------------------------

class AEC:
    """Drives a PettingZoo environment (raw or in env()) with random legal actions."""

    seeds = (1, 2)

    def __init__(self, make, name):
        self.make, self.name = make, name

    def choose(self, env, rng):
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            return None
        legal = np.flatnonzero(obs["action_mask"])
        if legal[0] == PASS and rng.random() < 0.3:
            return PASS  # fewer bids than uniform: low contracts and thrown-in deals too
        return int(rng.choice(legal))

    def started(self, env):
        return env.unwrapped.deal is not None

    def over(self, env):
        return not env.agents

    def state(self, env):
        """Everything an agent can read now, the moves and the records of finished deals."""
        raw = env.unwrapped
        if raw.deal is None:
            return None
        seen = {"history": list(raw.deal.history), "records": getattr(raw, "records", None),
                "entry": getattr(raw, "entry", None),
                "observations": [plain(env.observe(a)) for a in env.possible_agents]}
        if env.agents:
            seen.update(agent=env.agent_selection, last=plain(env.last()),
                        rewards=dict(env.rewards), terminations=dict(env.terminations),
                        truncations=dict(env.truncations), infos=plain(env.infos),
                        cumulative=dict(raw._cumulative_rewards))
        return seen

    def step(self, env, action):
        env.step(action)

    def reset(self, env, seed):
        env.reset(seed=seed)


class GameAEC(AEC):
    """Drives an environment whose game is not a Mediatore deal: its state machine is the
    attribute ``game`` names (``raw.game``, ``raw.session``), its record ``raw.record``."""

    game = "game"

    def started(self, env):
        return getattr(env.unwrapped, self.game) is not None

    def state(self, env):
        raw = env.unwrapped
        if getattr(raw, self.game) is None:
            return None
        seen = {"history": list(getattr(raw, self.game).history), "record": raw.record,
                "observations": [plain(env.observe(a)) for a in env.possible_agents]}
        if env.agents:
            seen.update(agent=env.agent_selection, last=plain(env.last()),
                        rewards=dict(env.rewards), terminations=dict(env.terminations),
                        truncations=dict(env.truncations), infos=plain(env.infos),
                        cumulative=dict(raw._cumulative_rewards))
        return seen


class ClubAEC(GameAEC):
    """Drives club_mediatore_v0: its game is a session of deals (``raw.session``)."""

    game = "session"


class TressetteAEC(GameAEC):
    """Drives a Tressette environment with random legal actions (a claim as any other). An
    episode is a whole game of several hands, so one seed is enough."""

    seeds = (1,)

    def choose(self, env, rng):
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            return None
        return int(rng.choice(np.flatnonzero(obs["action_mask"])))


class Seat:
    """Drives the single-seat Gymnasium environment with random legal learner moves."""

    seeds = (1, 2)

    def __init__(self, make, name):
        self.make, self.name = make, name

    def choose(self, env, rng):
        return int(rng.choice(np.flatnonzero(env.action_masks())))

    def started(self, env):
        return env.deal is not None

    def over(self, env):
        return env._done

    def state(self, env):
        if env.deal is None:
            return None
        return {"mask": plain(env.action_masks()), "observation": plain(env._observation()),
                "info": plain(env._info()), "history": list(env.deal.history),
                "record": make_record(env.deal) if env.deal.is_over else None}

    def step(self, env, action):
        return plain(env.step(action))

    def reset(self, env, seed):
        return plain(env.reset(seed=seed))


def greedy_random_pimc():
    # PIMC by a node budget (time_limit=None): its choices do not depend on the clock
    return [GreedyAgent(), RandomAgent(), PIMCAgent(worlds=2, time_limit=None, max_time=0.001)]


# Every environment of the package, in several presets. ``make(table)``: a fresh one.
KINDS = [
    AEC(lambda table: mediatore_v0.raw_env(), "v0 raw"),
    AEC(lambda table: mediatore_v0.env(rules="low", deals=2), "v0 env, low, 2 deals"),
    AEC(lambda table: mediatore_v0.raw_env(rules="chiamo_blind", normalize_rewards=True),
        "v0 raw, chiamo_blind"),
    AEC(lambda table: mediatore_v0.env(rules="open_monte", signals="off"), "v0 env, open_monte"),
    AEC(lambda table: mediatore_v0.standard_wrapped_env(rules="call_three"),
        "v0 in PettingZoo's wrappers, call_three"),
    AEC(lambda table: mediatore_bidding_v0.raw_env(table=table), "bidding raw"),
    AEC(lambda table: mediatore_bidding_v0.env(table=table), "bidding env"),
    ClubAEC(lambda table: club_mediatore_v0.env(deals=2, normalize_rewards=True), "club env, 2 deals"),
    TressetteAEC(lambda table: tressette_v0.env(), "tressette env"),
    TressetteAEC(lambda table: tressette_v0.raw_env(claim=True, reward="hand"),
                 "tressette raw, claims, hand rewards"),
    TressetteAEC(lambda table: tressette3_v0.env(low=True), "tressette3 env, low"),
    TressetteAEC(lambda table: tressette2_v0.raw_env(show_draws=False), "tressette2 raw, hidden draws"),
    Seat(lambda table: MediatoreSeatEnv(greedy_random_pimc()), "seat, greedy/random/pimc"),
    Seat(lambda table: MediatoreSeatEnv(RandomAgent(), seat=2, rules="low", skip_forced=True),
         "seat, random, low"),
]


def go_on(kind, env, rng=None, actions=None):
    """From where ``env`` is: play the episode out (starting one if there is none), reset
    without a seed and play that episode through, reset with a seed and play a few moves.
    The actions come from ``rng``, or are replayed from ``actions``. Return what was seen
    at every step, and the actions."""
    chosen, replayed = [], iter(actions or ())
    seen = [kind.state(env)]

    def act():
        action = next(replayed) if actions is not None else kind.choose(env, rng)
        chosen.append(action)
        return action

    def play(moves=None):
        n = 0
        while not kind.over(env) and (moves is None or n < moves):
            seen.extend((kind.step(env, act()), kind.state(env)))
            n += 1

    def reset(seed):
        seen.extend((kind.reset(env, seed), kind.state(env)))

    if not kind.started(env):
        reset(None)
    play()
    reset(None)
    play()
    reset(7)
    play(12)
    return seen, chosen


def at_point(kind, table, seed, stop):
    """A fresh environment played to a point: ``stop`` None before reset, else after ``stop``
    random legal moves or at the end, whichever comes first; and the moves played."""
    env, n = kind.make(table), 0
    if stop is not None:
        rng = random.Random(f"{kind.name} {seed}")
        kind.reset(env, seed)
        while n < stop and not kind.over(env):
            kind.step(env, kind.choose(env, rng))
            n += 1
    return env, n


@pytest.mark.parametrize("kind", KINDS, ids=lambda kind: kind.name)
def test_copies_go_on_as_the_original(kind, table):
    for seed in kind.seeds:
        length = at_point(kind, table, seed, 10 ** 6)[1]
        mid_game = sorted(random.Random(f"{kind.name} {seed}").sample(range(1, length), 2))
        for stop in (None, *mid_game, length):
            env, _ = at_point(kind, table, seed, stop)
            label = f"{kind.name}, seed {seed}, " + ("before reset" if stop is None else
                                                     f"after {stop} of {length} moves")
            deep, pickled = copy.deepcopy(env), round_trip(env)
            before = kind.state(env)
            seen, actions = go_on(kind, deep, random.Random(label))
            assert kind.state(env) == before, f"stepping a copy changed the original: {label}"
            assert go_on(kind, env, actions=actions)[0] == seen, label
            assert go_on(kind, pickled, actions=actions)[0] == seen, label


def test_a_copy_keeps_its_seats_sharing_one_table_of_its_own():
    env = mediatore_v0.raw_env()
    env.reset(seed=3)
    for _ in range(12):
        env.step(AEC(None, "").choose(env, random.Random(0)))
    for clone in (copy.deepcopy(env), round_trip(env)):
        assert clone.deal is not env.deal and clone.deal.history == env.deal.history
        assert clone._table is not env._table
        assert all(e._table is clone._table for e in clone._encoders)
        assert all(v._game is clone.deal for v in clone._views)


def test_bidding_deepcopies_share_the_read_only_contract_table(table):
    env = mediatore_bidding_v0.raw_env(table=table)
    env.reset(seed=1)
    assert copy.deepcopy(env).table is table
    assert round_trip(env).table is not table  # a pickle carries the table with it


def test_bidding_without_a_table_copies_its_generator(table, monkeypatch):
    """Without a table each reset solves a deal drawn from the generator: a copy draws the same
    deals (the solving, a second a deal, is left out: the table built is the test's)."""
    drawn = []

    def build_table(deals, seed, rules, values):
        drawn.append(seed)
        return table

    monkeypatch.setattr(mediatore_bidding_v0, "build_table", build_table)
    env = mediatore_bidding_v0.raw_env()
    clone = copy.deepcopy(env)  # before the first reset
    for e in (env, clone, env, clone):
        e.reset()
    env.step(PASS)
    for clone in (copy.deepcopy(env), round_trip(env)):  # mid-auction
        clone.reset()
    env.reset()
    # resets: the original, its copy, again both; then the two copies and the original
    assert drawn[0] == drawn[1] != drawn[2] == drawn[3]
    assert drawn[4] == drawn[5] == drawn[6]


class Policy:
    """Enough of an actor-critic policy to make a PPOAgent without torch."""

    def get_distribution(self, obs):
        raise NotImplementedError


def test_agents_copy_with_their_generators():
    """Copies of the agents draw what the originals would (a copied environment's opponents)."""
    from agents.ppo_agent import PPOAgent
    made = [RandomAgent(), PIMCAgent(), PPOAgent(model=Policy(), deterministic=False)]
    for agent in made:
        agent.reset(11)
        agent.rng.random()  # mid-deal: the generator has moved on from its seed
        for clone in (copy.deepcopy(agent), round_trip(agent)):
            assert clone.rng is not agent.rng
            assert copy.deepcopy(clone.rng).random() == copy.deepcopy(agent.rng).random()
