"""The PettingZoo environment mediatore_v0: PettingZoo's own API, seed and render tests, the
observations and masks, seeding and replayed deals, rewards over one and several deals, records,
illegal actions (raw: ValueError; env(): the standard wrappers' behaviour), and its docs."""

import json
import pickle
import random
import re
import subprocess
import sys
import warnings

import numpy as np
import pytest
from gymnasium import spaces
from pettingzoo.test import api_test, render_test, seed_test
from pettingzoo.utils.env import AECEnv
from pettingzoo.utils.wrappers import OrderEnforcingWrapper

from mediatore_env import mediatore_v0
from mediatore_env.mediatore import observation as encoding
from mediatore_env.core.cards import parse_card
from mediatore_env.mediatore.moves import (CALL_BASE, DISCARD_BASE, GIVE_BASE, NUM_MOVES, PASS,
                                           PHASE_NAMES, PLAY_BASE, move_text, parse_move,
                                           play_move)
from mediatore_env.mediatore.records import replay
from mediatore_env.mediatore.rules import BUSSO, PRESETS, Rules
from mediatore_env.mediatore.view import SeatView

AGENTS = ["player_0", "player_1", "player_2", "player_3"]


@pytest.fixture(autouse=True)
def _quiet():
    """PettingZoo's tests warn about things every dict-observation env does; keep the log clean."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*(NumPy array|gymnasium.spaces.box|all zeros|ignoring unknown option).*")
        yield


def choose(obs, rng: random.Random, bid_rate=0.4) -> int:
    """A random legal action from the mask; in the auction, pass with probability 1 - bid_rate."""
    legal = np.flatnonzero(obs["action_mask"])
    if legal[0] == PASS and rng.random() >= bid_rate:
        return PASS
    return int(rng.choice(legal))


def play_episode(env, rng: random.Random, bid_rate=0.4, seed=None, options=None, on_step=None):
    """Play an episode to its end with random legal actions; return {agent: total reward}."""
    env.reset(seed=seed, options=options)
    totals = dict.fromkeys(AGENTS, 0.0)
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        totals[agent] += reward
        if termination or truncation:
            env.step(None)
            continue
        if on_step:
            on_step(env, agent, obs)
        env.step(choose(obs, rng, bid_rate))
    return totals


# -- PettingZoo's own tests ----------------------------------------------------------------------

@pytest.mark.parametrize("make", [mediatore_v0.env, mediatore_v0.raw_env])
def test_pettingzoo_api_test(make):
    api_test(make(), num_cycles=300)
    api_test(make(deals=3, rules="low"), num_cycles=300)


def test_pettingzoo_seed_test():
    seed_test(mediatore_v0.env, num_cycles=100)
    seed_test(lambda: mediatore_v0.env(deals=2, signals="alternative"), num_cycles=100)
    seed_test(mediatore_v0.raw_env, num_cycles=100)


def test_pettingzoo_render_test(capsys):
    render_test(mediatore_v0.env)
    render_test(lambda render_mode: mediatore_v0.env(render_mode=render_mode, render_all=True))
    assert "mediatore_v0" in capsys.readouterr().out  # human mode printed the table


def test_registered_with_pettingzoo():
    import pettingzoo
    env = pettingzoo.make("aec", "mediatore/mediatore-v0", rules="low")
    assert isinstance(env, AECEnv) and str(env) == "mediatore_v0"
    assert env.unwrapped.rules == PRESETS["low"]


# -- construction ---------------------------------------------------------------------------------

def test_metadata_agents_and_spaces():
    env = mediatore_v0.env()
    raw = env.unwrapped
    assert isinstance(raw, mediatore_v0.raw_env) and isinstance(env, OrderEnforcingWrapper)
    assert raw.metadata["name"] == "mediatore_v0" == str(env)
    assert raw.metadata["render_modes"] == ["ansi", "human"]
    assert raw.metadata["is_parallelizable"] is False
    assert env.possible_agents == AGENTS
    obs_space, act_space = env.observation_space("player_0"), env.action_space("player_0")
    assert act_space == spaces.Discrete(NUM_MOVES) == spaces.Discrete(486)
    assert obs_space["observation"] == spaces.Box(0.0, 1.0, (encoding.OBSERVATION_SIZE,), np.float32)
    assert obs_space["action_mask"] == spaces.Box(0, 1, (NUM_MOVES,), np.int8)
    for agent in AGENTS:  # the same objects for every agent, on every call, before and after reset
        assert env.observation_space(agent) is obs_space and env.action_space(agent) is act_space
    env.reset(seed=0)
    for agent in AGENTS:
        assert env.observation_space(agent) is obs_space and env.action_space(agent) is act_space


def test_rules_keywords():
    assert mediatore_v0.raw_env().rules == Rules()
    assert mediatore_v0.raw_env(rules="low").rules == PRESETS["low"]
    assert mediatore_v0.raw_env(rules=PRESETS["open_monte"]).rules == PRESETS["open_monte"]
    assert mediatore_v0.raw_env(rules={"signals": "off"}).rules == Rules(signals="off")
    assert mediatore_v0.raw_env(signals="off", first_lead="declarer").rules == \
        Rules(signals="off", first_lead="declarer")
    assert mediatore_v0.raw_env(rules="low", capotto_bonus=False).rules == \
        PRESETS["low"].replace(capotto_bonus=False)
    with pytest.raises(TypeError, match="'colour'.*valid: rules, render_mode"):
        mediatore_v0.raw_env(colour="red")
    with pytest.raises(ValueError, match="signals"):
        mediatore_v0.raw_env(signals="loud")
    with pytest.raises(ValueError, match="unknown rules preset 'fast'"):
        mediatore_v0.raw_env(rules="fast")
    with pytest.raises(ValueError, match="render_mode"):
        mediatore_v0.raw_env(render_mode="rgb_array")
    for bad in (0, -1, 1.5, True, "2"):
        with pytest.raises(ValueError, match="deals"):
            mediatore_v0.raw_env(deals=bad)


def test_pickle_keeps_the_game():
    env = mediatore_v0.raw_env(rules="low", deals=2, signals="off")
    env.reset(seed=1)
    for move in (PASS, PASS, PASS):
        env.step(move)
    clone = pickle.loads(pickle.dumps(env))  # not rebuilt from the constructor arguments
    assert clone.rules == env.rules and clone.deals == 2
    assert clone.deal.history == env.deal.history and clone.deal.pack == env.deal.pack
    assert clone.agent_selection == env.agent_selection
    assert np.array_equal(clone.observe(clone.agent_selection)["observation"],
                          env.observe(env.agent_selection)["observation"])


# -- observations ---------------------------------------------------------------------------------

def test_observations_are_the_seat_views_encoded():
    rng = random.Random(5)
    seen_phases = set()

    def check(env, agent, obs):
        raw = env.unwrapped
        deal = raw.deal
        seen_phases.add(deal.phase)
        for other in AGENTS:
            o = env.observe(other)
            view = raw.view(other)
            assert isinstance(view, SeatView) and view.seat == AGENTS.index(other)
            want = encoding.observation(view)
            assert o["observation"].dtype == np.float32 and o["action_mask"].dtype == np.int8
            np.testing.assert_array_equal(o["observation"], want["observation"])
            np.testing.assert_array_equal(o["action_mask"], want["action_mask"])
            legal = deal.legal_moves() if other == agent else []
            assert sorted(np.flatnonzero(o["action_mask"])) == sorted(legal)
        # Observations are fresh arrays: writing into one changes nothing in the env.
        scratch = env.observe(agent)
        scratch["observation"][:] = 7
        scratch["action_mask"][:] = 1
        np.testing.assert_array_equal(env.observe(agent)["observation"],
                                      encoding.observation(raw.view(agent))["observation"])

    env = mediatore_v0.env()
    for i in range(12):
        env.unwrapped.rules = Rules.preset(list(PRESETS)[i % len(PRESETS)])
        play_episode(env, rng, bid_rate=0.5, seed=i, on_step=check)
    assert seen_phases == set(range(5))  # auction, call, discard, give, play


def test_terminal_observations_and_masks():
    env = mediatore_v0.env()
    play_episode(env, random.Random(1), seed=3)
    for agent in AGENTS:
        obs = env.observe(agent)
        assert not obs["action_mask"].any()
        assert encoding.decode_observation(obs["observation"])["phase"] == "end"


# -- seeds and given deals ------------------------------------------------------------------------

def test_seeds_give_reproducible_and_different_episodes():
    def episode(seed):
        env = mediatore_v0.raw_env(deals=2)
        play_episode(env, random.Random(seed), seed=seed)
        return env.records

    a, b = episode(11), episode(11)
    assert a == b and len(a) == 2
    packs = {tuple(episode(s)[0]["pack"]) for s in range(8)}
    assert len(packs) == 8
    # Unseeded resets continue the seeded stream: a new deal each time.
    env = mediatore_v0.raw_env()
    env.reset(seed=4)
    first = env.deal.pack
    env.reset()
    assert env.deal.pack != first
    env.reset(seed=4)
    assert env.deal.pack == first


def test_options_replay_a_given_deal():
    env = mediatore_v0.raw_env()
    play_episode(env, random.Random(2), seed=21, bid_rate=0.6)
    record = env.record
    again = mediatore_v0.raw_env()
    for pack in (record["pack"], " ".join(record["pack"]), [parse_card(c) for c in record["pack"]]):
        again.reset(seed=999, options={"pack": pack, "dealer": record["dealer"]})
        assert [c for c in again.deal.pack] == [parse_card(c) for c in record["pack"]]
        for entry in record["moves"]:
            assert again.agent_selection == AGENTS[entry["seat"]]
            again.step(parse_move(entry["move"]))
        assert again.record == record
    again.reset(options={"pack": record["pack"], "dealer": AGENTS[record["dealer"]]})
    assert again.deal.dealer == record["dealer"]


def test_options_give_the_packs_of_an_episodes_deals_in_order():
    """``packs`` as every environment of the family takes them: one per deal, in order (the
    deal passing on), the rest shuffled; ``pack`` is the first deal's alone."""
    env = mediatore_v0.raw_env(deals=3)
    packs = [list(range(40)), list(range(39, -1, -1))]
    env.reset(seed=3, options={"packs": packs, "dealer": 1})
    dealt = []
    while env.agents:
        if not dealt or env.deal.pack != dealt[-1][1]:
            dealt.append((env.deal.dealer, env.deal.pack))
        env.step(env.action_space(env.agent_selection).sample(env.observe(
            env.agent_selection)["action_mask"]) if not env.terminations[env.agent_selection]
            else None)
    assert [d for d, _ in dealt] == [1, 2, 3] and [p for _, p in dealt[:2]] == list(map(tuple, packs))
    with pytest.raises(ValueError, match="pack 1 in options: bad pack"):
        env.reset(options={"packs": [packs[0], [0] * 40]})


@pytest.mark.parametrize("options, message", [
    ({"pack": list(range(39))}, "bad pack: need the 40 distinct cards, got 39"),
    ({"pack": list(range(39)) + [0]}, "repeated: D4"),
    ({"pack": ["D3"] * 40}, "bad pack"),
    ({"pack": "D3 XX"}, "not a card: 'XX'"),
    ({"pack": list(range(1, 41))}, "card ids must be 0..39"),
    ({"dealer": 4}, "bad dealer 4"),
    ({"dealer": "player_9"}, "bad dealer 'player_9'"),
    ({"dealer": 1.0}, "bad dealer 1.0"),
    ({"dealer": True}, "bad dealer True"),
    ("pack", "options must be a dict"),
])
def test_bad_options_raise_a_clear_value_error(options, message):
    env = mediatore_v0.raw_env()
    with pytest.raises(ValueError, match=re.escape(message)):
        env.reset(options=options)


def test_unknown_options_warn_at_the_users_line():
    """The warning names the line that called reset, not a reset or wrapper of the package's
    (mediatore_v0.reset calls the base's; env() and PettingZoo's wrappers add layers)."""
    for make in (mediatore_v0.raw_env, mediatore_v0.env, mediatore_v0.standard_wrapped_env):
        env = make()
        with pytest.warns(UserWarning, match="ignoring unknown option.*'dealr'") as caught:
            env.reset(options={"dealr": 1})
        assert caught[0].filename == __file__, make


# -- rewards, episodes of several deals, records --------------------------------------------------

def test_rewards_are_the_payoffs_of_the_deal():
    for seed in range(30):
        env = mediatore_v0.env()
        totals = play_episode(env, random.Random(seed), seed=seed, bid_rate=0.5)
        payoffs = env.unwrapped.record["result"]["payoffs"]
        assert [totals[a] for a in AGENTS] == payoffs
        assert sum(payoffs) == 0
        assert not env.agents  # every agent stepped out with None


def test_normalized_rewards():
    assert mediatore_v0.max_payment(Rules()) == 60        # Arcisolissimo with capotto: 3 x (18 + 2)
    assert mediatore_v0.max_payment(PRESETS["low"]) == 30  # Solissimo with capotto: 3 x (8 + 2)
    assert mediatore_v0.max_payment(Rules(capotto_bonus=False)) == 54
    for seed in range(10):
        env = mediatore_v0.env(normalize_rewards=True, rules="low")
        totals = play_episode(env, random.Random(seed), seed=seed, bid_rate=0.6)
        payoffs = env.unwrapped.record["result"]["payoffs"]
        assert [totals[a] for a in AGENTS] == pytest.approx([p / 30 for p in payoffs])
        assert all(-1 <= t <= 1 for t in totals.values())


def test_several_deals_rotate_the_dealer_and_accumulate():
    for seed in range(6):
        env = mediatore_v0.env(deals=5)
        rewards_seen = []
        terminations_before_end = []

        def watch(env, agent, obs):
            terminations_before_end.append(any(env.terminations.values()))
            if any(env.rewards.values()):
                rewards_seen.append(dict(env.rewards))

        totals = play_episode(env, random.Random(seed), seed=seed, bid_rate=0.3, on_step=watch)
        records = env.unwrapped.records
        assert len(records) == 5 and not any(terminations_before_end)
        dealers = [r["dealer"] for r in records]
        assert dealers == [(dealers[0] + k) % 4 for k in range(5)]
        for k, r in enumerate(records, 1):
            assert r["meta"] == {"episode_deal": k, "episode_deals": 5}
            assert replay(r).payoffs == tuple(r["result"]["payoffs"])
        assert [totals[a] for a in AGENTS] == [sum(r["result"]["payoffs"][s] for r in records)
                                               for s in range(4)]
        # The payoffs of every deal but the last were handed out at once, to all four.
        nonzero = [[r["result"]["payoffs"][s] for s in range(4)] for r in records[:-1]
                   if any(r["result"]["payoffs"])]
        assert [[x[a] for a in AGENTS] for x in rewards_seen] == nonzero
    # Thrown-in deals count as deals.
    env = mediatore_v0.env(deals=3)
    play_episode(env, random.Random(0), seed=0, bid_rate=0.0)
    assert [r["result"]["thrown_in"] for r in env.unwrapped.records] == [True] * 3


def test_records_and_unwrapped_attributes():
    env = mediatore_v0.env()
    env.reset(seed=8)
    raw = env.unwrapped
    assert raw.record is None and raw.records == []
    assert raw.deal.to_move == AGENTS.index(env.agent_selection)
    play_episode(env, random.Random(8), seed=8)
    record = raw.record
    assert (record["format"], record["game"]) == ("mediatore-env-record", "mediatore")
    assert "meta" not in record
    assert json.loads(json.dumps(record)) == record
    assert replay(record).history == raw.deal.history


def test_replay_command(tmp_path):
    env = mediatore_v0.env(deals=2)
    play_episode(env, random.Random(3), seed=3, bid_rate=0.6)
    one = tmp_path / "one.json"
    one.write_text(json.dumps(env.unwrapped.records[0]))
    both = tmp_path / "both.json"
    both.write_text(json.dumps(env.unwrapped.records))
    out = subprocess.run([sys.executable, "-m", "mediatore_env", "replay", str(one)],
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert "-- end" in out.stdout and "payoffs:" in out.stdout  # the viewer of mediatore-replay
    out = subprocess.run([sys.executable, "-m", "mediatore_env", "replay", str(both)],
                         capture_output=True, text=True)
    assert out.returncode == 0 and f"== {both} #2" in out.stdout
    bad = dict(env.unwrapped.records[0], moves=env.unwrapped.records[0]["moves"][:-1])
    (tmp_path / "bad.json").write_text(json.dumps(bad))
    out = subprocess.run([sys.executable, "-m", "mediatore_env", "replay", str(tmp_path / "bad.json")],
                         capture_output=True, text=True)
    assert out.returncode == 2 and "not a valid game record" in out.stderr


# -- illegal actions --------------------------------------------------------------------------------

def test_raw_env_refuses_illegal_actions_and_changes_nothing():
    env = mediatore_v0.raw_env()
    env.reset(seed=2, options={"dealer": 3})
    env.step(parse_move("bid solo"))
    before = (env.agent_selection, list(env.deal.history), dict(env.rewards),
              dict(env._cumulative_rewards), env.observe("player_1")["observation"].copy())
    for bad, meaning in ((parse_move("bid chiamo"), "bid chiamo"), (play_move(parse_card("D7")), "play D7"),
                         (np.int64(2), "bid mediatore")):
        with pytest.raises(ValueError) as e:
            env.step(bad)
        text = str(e.value)
        assert f"illegal action {int(bad)} ({meaning}) for player_1 in phase auction" in text
        assert "legal actions: 0 (pass), 4 (bid solissimo), 5 (bid arcisolissimo)" in text
    for bad in (-1, NUM_MOVES, 3.0, "pass", None):
        with pytest.raises(ValueError, match="illegal action .*not an action id|illegal action -1|illegal action 486"):
            env.step(bad)
    after = (env.agent_selection, list(env.deal.history), dict(env.rewards),
             dict(env._cumulative_rewards), env.observe("player_1")["observation"])
    assert after[:4] == before[:4]
    np.testing.assert_array_equal(after[4], before[4])
    env.step(np.int32(4))  # numpy integers are actions too
    assert move_text(env.deal.history[-1][1]) == "bid solissimo"


def snapshot(env):
    """Everything a PettingZoo user can see of an env, for comparing two of them."""
    agent = env.agent_selection
    if not env.agents:
        return {"agents": [], "selection": agent}
    obs, reward, term, trunc, info = env.last()
    return {"agents": list(env.agents), "selection": agent, "rewards": dict(env.rewards),
            "cumulative": dict(env._cumulative_rewards), "terminations": dict(env.terminations),
            "truncations": dict(env.truncations), "infos": dict(env.infos),
            "last": (obs["observation"].tobytes(), obs["action_mask"].tobytes(), reward, term, trunc)}


def run_side_by_side(seed, deals, illegal_at, illegal_kind, rng_seed):
    """Drive env() and the standard-wrapper stack with the same actions; compare everything."""
    from pettingzoo.utils.env_logger import EnvLogger
    ours, theirs = mediatore_v0.env(deals=deals), mediatore_v0.standard_wrapped_env(deals=deals)
    for e in (ours, theirs):
        e.reset(seed=seed)
    rng = random.Random(rng_seed)
    step = 0
    while True:
        a, b = snapshot(ours), snapshot(theirs)
        assert a == b, f"differ at step {step}"
        if not ours.agents:
            break
        obs = ours.observe(ours.agent_selection)
        dead = ours.terminations[ours.agent_selection] or ours.truncations[ours.agent_selection]
        if dead:
            action = None
        elif step == illegal_at:
            illegal = np.flatnonzero(obs["action_mask"] == 0)
            action = int(illegal[0] if illegal_kind == "first" else rng.choice(illegal))
        else:
            action = choose(obs, rng, 0.5)
        logs = []
        for e in (ours, theirs):
            EnvLogger.flush()
            e.step(action)
            logs.append(list(EnvLogger.mqueue))
        assert logs[0] == logs[1]
        step += 1
    EnvLogger.flush()
    return step


def test_env_behaves_as_the_standard_wrappers_on_legal_and_illegal_play():
    from pettingzoo.utils.env_logger import EnvLogger
    EnvLogger.suppress_output()
    try:
        for k in range(30):
            run_side_by_side(seed=k, deals=1 + k % 3, illegal_at=None if k % 3 == 0 else 3 + 7 * k,
                             illegal_kind="first" if k % 2 else "random", rng_seed=k)
    finally:
        EnvLogger.unsuppress_output()


def test_env_illegal_action_ends_the_episode_with_a_penalty():
    env = mediatore_v0.env(deals=2)
    env.reset(seed=5, options={"dealer": 3})
    env.step(parse_move("bid solo"))
    from pettingzoo.utils.env_logger import EnvLogger
    EnvLogger.flush()
    env.step(parse_move("bid chiamo"))  # player_1 may not bid below Solo
    assert len(EnvLogger.mqueue) == 1 and "Illegal move made" in EnvLogger.mqueue[0]
    assert env.rewards == {"player_0": 0, "player_1": -1.0, "player_2": 0, "player_3": 0}
    assert all(env.terminations.values()) and all(env.truncations.values())
    assert env.agent_selection == "player_0"
    for agent in AGENTS:
        assert env.agent_selection == agent
        assert env.last()[1:4] == ((-1.0 if agent == "player_1" else 0), True, True)
        env.step(None)
    assert env.agents == []
    env2 = mediatore_v0.env(illegal_reward=-60)
    env2.reset(seed=1, options={"dealer": 3})
    env2.step(play_move(parse_card("D4")))  # a play in the auction
    assert env2.rewards["player_0"] == -60


def test_env_out_of_bounds_and_order_enforcement():
    env = mediatore_v0.env()
    for call in (lambda: env.step(0), lambda: env.observe("player_0"), lambda: env.render(),
                 lambda: env.agent_iter()):
        with pytest.raises(AssertionError, match="reset\\(\\) needs to be called before"):
            call()
    for name in ("agents", "agent_selection", "rewards", "terminations", "truncations", "infos",
                 "num_agents"):
        with pytest.raises(AttributeError, match=f"{name} cannot be accessed before reset"):
            getattr(env, name)
    with pytest.raises(AttributeError, match="agent_selection cannot be accessed before reset"):
        env.last()
    env.reset(seed=0)
    for bad in (NUM_MOVES, -1, 2.0, None, "pass", np.float32(1)):
        with pytest.raises(AssertionError, match="action is not in action space"):
            env.step(bad)
    assert env.unwrapped.deal.history == []
    # agent_iter insists on a step between two agents.
    it = iter(env.agent_iter())
    next(it)
    with pytest.raises(AssertionError, match="need to call step"):
        next(it)
    play_episode(env, random.Random(0), seed=0)
    from pettingzoo.utils.env_logger import EnvLogger
    EnvLogger.flush()
    env.step(0)  # no agents left: a warning, nothing else
    assert len(EnvLogger.mqueue) == 1 and "terminated" in EnvLogger.mqueue[0]


@pytest.mark.parametrize("make", [mediatore_v0.raw_env, mediatore_v0.env])
def test_after_the_episode_last_says_it_is_over_and_step_warns(make):
    """The end of an episode (mediatore_env.envs.base.GameAEC): ``agents`` is empty, last()
    raises a RuntimeError saying so, step() warns as OrderEnforcingWrapper does and changes
    nothing, observe() still gives the final observations."""
    from pettingzoo.utils.env_logger import EnvLogger
    env = make(deals=2)
    play_episode(env, random.Random(4), seed=4)
    assert env.agents == [] and len(env.unwrapped.records) == 2
    final = {a: env.observe(a) for a in AGENTS}
    with pytest.raises(RuntimeError, match="mediatore_v0: the episode is over .* call reset"):
        env.last()
    with pytest.raises(RuntimeError, match="episode is over"):
        env.last(observe=False)
    records = env.unwrapped.records
    for action in (None, 0, PASS):
        EnvLogger.flush()
        env.step(action)
        assert len(EnvLogger.mqueue) == 1
        assert "after all agents are terminated" in EnvLogger.mqueue[0]
    assert env.unwrapped.records == records and env.agents == []
    for a in AGENTS:
        assert np.array_equal(env.observe(a)["observation"], final[a]["observation"])
        assert not env.observe(a)["action_mask"].any()
    env.reset(seed=4)  # and a new episode starts as usual
    assert env.agents == AGENTS and env.last()[2] is False


def test_dead_agents_step_with_none_only():
    for make in (mediatore_v0.env, mediatore_v0.raw_env, mediatore_v0.standard_wrapped_env):
        env = make()
        env.reset(seed=0, options={"dealer": 3})
        for _ in range(4):
            env.step(PASS)  # thrown in: the episode is over
        assert all(env.terminations.values()) and not any(env.truncations.values())
        with pytest.raises(ValueError, match="dead, the only valid action is None"):
            env.step(0)
        for _ in range(4):
            env.step(None)
        assert env.agents == []


# -- rendering ------------------------------------------------------------------------------------

def test_render_shows_the_acting_seat_or_everything(capsys):
    env = mediatore_v0.env(render_mode="ansi")
    env.reset(seed=3, options={"dealer": 3})
    raw = env.unwrapped
    text = env.render()
    assert "player_0 (seat 0)" in text and "Hand" in text
    from mediatore_env.mediatore.display import hand_inline
    for seat in (1, 2, 3):  # other hands are not in the acting seat's view
        assert hand_inline(raw.deal.hands[seat]) not in text
    everything = mediatore_v0.env(render_mode="ansi", render_all=True)
    everything.reset(seed=3, options={"dealer": 3})
    text = everything.render()
    for seat in range(4):
        assert hand_inline(raw.deal.hands[seat]) in text
    human = mediatore_v0.env(render_mode="human")
    human.reset(seed=3)
    assert human.render() is None and "mediatore_v0 · deal 1 of 1" in capsys.readouterr().out
    human.step(PASS)  # human mode prints after every step
    assert "mediatore_v0" in capsys.readouterr().out
    silent = mediatore_v0.env()
    silent.reset(seed=3)
    with pytest.warns(UserWarning, match="without specifying any render mode"):
        assert silent.render() is None


# -- the documented tables ------------------------------------------------------------------------

def test_documented_action_table_matches_the_code():
    doc = mediatore_v0.__doc__
    section = doc[doc.index("## Action Space"):doc.index("## Rewards")]
    rows = re.findall(r"^\| (\d+)(?: - (\d+))? \| (\w+) \|", section, re.MULTILINE)
    documented = [(int(a), int(b or a), phase) for a, b, phase in rows]
    assert documented == [(first, last, phase) for first, last, phase, _ in mediatore_v0.ACTIONS]
    assert documented == [(0, 0, "auction"), (1, CALL_BASE - 1, "auction"),
                          (CALL_BASE, DISCARD_BASE - 1, "call"), (DISCARD_BASE, GIVE_BASE - 1, "discard"),
                          (GIVE_BASE, PLAY_BASE - 1, "give"), (PLAY_BASE, NUM_MOVES - 1, "play")]
    assert f"Discrete({NUM_MOVES})" in doc
    # Every id has a text that parses back, and names its phase's verb.
    verbs = {"auction": ("pass", "bid"), "call": ("call",), "discard": ("discard",),
             "give": ("give",), "play": ("play",)}
    for action in range(NUM_MOVES):
        text = mediatore_v0.move_text(action)
        assert mediatore_v0.parse_move(text) == action
        assert text.split()[0] in verbs[mediatore_v0.action_phase(action)]
    table = mediatore_v0.action_table()
    assert table.count("\n") == NUM_MOVES + 1 and "| 131 | play | `play C4` |" not in table
    assert f"| {play_move(parse_card('D3'), BUSSO)} | play | `play D3 busso` |" in table


def test_legal_actions_lie_in_their_phase_rows():
    rng = random.Random(9)

    def check(env, agent, obs):
        phase = PHASE_NAMES[env.unwrapped.deal.phase]
        for action in np.flatnonzero(obs["action_mask"]):
            assert mediatore_v0.action_phase(int(action)) == phase

    env = mediatore_v0.env(rules="alternative_signals")
    for seed in range(15):
        play_episode(env, rng, seed=seed, bid_rate=0.5, on_step=check)


def test_documented_observation_layout_matches_the_encoder():
    rows = re.findall(r"^\| (\d+) \| (\d+) \| `(\w+)` \|", mediatore_v0.__doc__, re.MULTILINE)
    assert [(int(o), int(n), name) for o, n, name in rows] == \
        [(encoding.OFFSETS[name], length, name) for name, length, _ in encoding.LAYOUT]
    assert f"({encoding.OBSERVATION_SIZE},)" in mediatore_v0.__doc__
    assert f"Layout version {encoding.OBSERVATION_VERSION}" in mediatore_v0.__doc__


def test_usage_example_runs(capsys):
    doc = mediatore_v0.__doc__
    code = doc[doc.index("```python\nfrom mediatore_env"):].split("```")[1][len("python"):]
    exec(compile(code, "mediatore_v0 usage", "exec"), {})
    assert "payoffs" in capsys.readouterr().out


def test_docs_page_is_generated_from_the_code():
    from mediatore_env.__main__ import DOCS, documentation
    assert DOCS.read_text() == documentation(), "run: python -m mediatore_env docs"
