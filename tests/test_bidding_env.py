"""mediatore_bidding_v0: the auction and the call, paid from the deal's contract table."""

import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from mediatore_env import mediatore_bidding_v0 as bidding
from mediatore_env.mediatore.tables import ContractTable, build_table
from mediatore_env.core.cards import cards_of, parse_card
from mediatore_env.mediatore.moves import PASS, call_move, move_text
from mediatore_env.mediatore.rules import CHIAMO, MEDIATORE, SOLO

AGENTS = ["player_0", "player_1", "player_2", "player_3"]


@pytest.fixture(scope="module")
def table():
    return build_table(4, seed=21, values="made")


def run(env, moves, deal=0):
    """Reset to table deal ``deal``, play ``moves`` (ids) for whoever is to act."""
    env.reset(options={"deal": deal})
    for move in moves:
        env.step(move)
    return env


def test_pettingzoo_api_and_seed_tests(table, tmp_path):
    path = tmp_path / "t.npz"
    table.save(path)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(bidding.env(table=table), num_cycles=200)
        api_test(bidding.raw_env(table=str(path)), num_cycles=200)
        seed_test(lambda: bidding.env(table=table), num_cycles=50)


def test_spaces_and_metadata(table):
    env = bidding.env(table=table)
    assert env.unwrapped.metadata["name"] == "mediatore_bidding_v0" == str(env)
    assert env.action_space("player_0").n == bidding.NUM_ACTIONS == 46
    assert env.observation_space("player_2")["observation"].shape == (bidding.OBSERVATION_SIZE,)
    assert bidding.OBSERVATION_SIZE == 99
    assert [move_text(a) for a in (0, 3, 6, 45)] == ["pass", "bid solo", "call D4", "call B3"]


def test_rewards_are_the_table_payoffs(table):
    raw = bidding.raw_env(table=table)
    for deal in range(len(table)):
        mano = (int(table.dealers[deal]) + 1) % 4
        run(raw, [SOLO, PASS, PASS, PASS], deal)
        assert all(raw.terminations.values())
        expected = table.entry(deal, mano, SOLO).payoffs
        assert [raw._cumulative_rewards[a] for a in AGENTS] == list(expected)
        assert raw.infos[AGENTS[0]]["entry"] == table.entry(deal, mano, SOLO)


def test_the_call_and_its_mask(table):
    env = bidding.raw_env(table=table)
    dealer = int(table.dealers[1])
    declarer = (dealer + 2) % 4  # il mano passes, the next seat bids Chiamo, then three passes
    run(env, [PASS, CHIAMO, PASS, PASS, PASS], deal=1)
    assert env.agent_selection == AGENTS[declarer]
    obs = env.observe(AGENTS[declarer])
    calls = table.call_cards(1, declarer, CHIAMO)
    assert list(np.flatnonzero(obs["action_mask"])) == [call_move(c) for c in calls]
    assert obs["observation"][bidding.OFFSETS["phase"] + 1] == 1
    with pytest.raises(ValueError, match="illegal action"):
        env.step(PASS)
    env.step(call_move(calls[-1]))
    assert [env._cumulative_rewards[a] for a in AGENTS] == \
        list(table.entry(1, declarer, CHIAMO, calls[-1]).payoffs)
    run(env, [MEDIATORE, PASS, PASS, PASS], deal=2)
    mano = (int(table.dealers[2]) + 1) % 4
    card = table.call_cards(2, mano, MEDIATORE)[0]
    env.step(call_move(card))
    assert env.infos[AGENTS[0]]["entry"].called == card


def test_thrown_in_pays_nothing_and_reentry(table):
    env = bidding.raw_env(table=table)
    run(env, [PASS] * 4)
    assert all(env.terminations.values()) and not any(env._cumulative_rewards.values())
    # a seat that passed may bid again while the auction is open (docs/rules.md 4)
    run(env, [PASS, CHIAMO, PASS, PASS, MEDIATORE, PASS, PASS, PASS])
    mano = (int(table.dealers[0]) + 1) % 4
    assert env.deal.declarer == mano + 0 and env.deal.contract == MEDIATORE


def test_observation_blocks(table):
    env = bidding.raw_env(table=table)
    run(env, [CHIAMO, PASS, SOLO], deal=3)
    dealer = int(table.dealers[3])
    mano = (dealer + 1) % 4
    seat = (mano + 3) % 4  # to act now
    obs = env.observe(AGENTS[seat])["observation"]
    o = bidding.OFFSETS
    hand = env.deal.hands[seat]
    assert [c for c in range(40) if obs[o["hand"] + c]] == sorted(cards_of(hand))
    assert obs[o["dealer"] + (dealer - seat) % 4] == 1
    bids = [i for i in range(20) if obs[o["auction"] + i]]
    assert bids == sorted([4 * (CHIAMO - 1) + (mano - seat) % 4, 4 * (SOLO - 1) + (mano + 2 - seat) % 4])
    assert obs[o["high_bid"] + SOLO] == 1 and obs[o["high_bidder"] + (mano + 2 - seat) % 4] == 1
    assert obs[o["phase"]] == 1
    assert env.observe(AGENTS[mano])["action_mask"].sum() == 0


def test_wrapped_env_punishes_illegal_actions(table):
    env = bidding.env(table=table)
    env.reset(seed=3)
    agent = env.agent_selection
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env.step(call_move(parse_card("D4")))  # a call in the auction
    assert env._cumulative_rewards[agent] == -1


@pytest.mark.parametrize("wrapped", [False, True])
def test_after_the_episode_last_says_it_is_over_and_step_warns(table, wrapped):
    from pettingzoo.utils.env_logger import EnvLogger
    env = (bidding.env if wrapped else bidding.raw_env)(table=table)
    run(env, [SOLO, PASS, PASS, PASS], deal=1)
    for agent in list(env.agents):
        assert env.last()[2] is True
        env.step(None)
    assert env.agents == []
    final = env.observe(AGENTS[2])
    with pytest.raises(RuntimeError, match="mediatore_bidding_v0: the episode is over"):
        env.last()
    EnvLogger.flush()
    env.step(None)
    assert len(EnvLogger.mqueue) == 1 and "after all agents are terminated" in EnvLogger.mqueue[0]
    assert env.unwrapped.entry.contract == SOLO and env.agents == []
    assert np.array_equal(env.observe(AGENTS[2])["observation"], final["observation"])
    assert not final["action_mask"].any()


def test_bad_arguments(table):
    with pytest.raises(ValueError, match="ContractTable"):
        bidding.raw_env(table=3)
    with pytest.raises(ValueError, match="not both"):
        bidding.raw_env(table=table, rules="low")
    for flag in ("no", 1, None):  # only True or False: "no" must not switch it on
        with pytest.raises(ValueError, match="normalize_rewards must be True or False"):
            bidding.raw_env(table=table, normalize_rewards=flag)
    with pytest.raises(TypeError, match=r"unknown keyword argument\(s\) 'rule' for "
                                        r"mediatore_bidding_v0; valid: table, render_mode"):
        bidding.env(table=table, rule="low")
    env = bidding.raw_env(table=table)
    env.reset(options={"deal": 2})
    before = env.observe(env.agent_selection)["observation"].copy(), env.index
    for options, error in (({"deal": 9}, "bad deal"),
                           ("deal", r"options must be a dict \(keys 'deal'\), got 'deal'"),
                           ([("deal", 1)], "options must be a dict"),
                           ({"deal": True}, "bad deal")):
        with pytest.raises(ValueError, match=error):
            env.reset(options=options)
        assert env.index == before[1]
        assert np.array_equal(env.observe(env.agent_selection)["observation"], before[0])
    with pytest.warns(UserWarning, match="ignoring unknown option.*'pack'; known: 'deal'") as w:
        env.reset(options={"deal": 1, "pack": "D3"})
    assert env.index == 1 and w[0].filename == __file__


def test_without_a_table_deals_are_solved_on_the_spot():
    env = bidding.raw_env(rules="no_arcisolissimo", render_mode="ansi")
    env.reset(seed=1)
    assert isinstance(env._current, ContractTable) and env.rules.arcisolissimo is False
    env.step(SOLO)
    for _ in range(3):
        env.step(PASS)
    assert sum(env._cumulative_rewards.values()) == 0 and any(env._cumulative_rewards.values())
    assert "solo" in env.render()


def test_registered_with_pettingzoo():
    import pettingzoo

    import mediatore_env  # noqa: F401  (registers the environments)
    env = pettingzoo.make("aec", "mediatore/mediatore-bidding-v0")
    assert env.metadata["name"] == "mediatore_bidding_v0"
