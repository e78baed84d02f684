"""The Tressette environments (tressette_v0, tressette3_v0, tressette2_v0): PettingZoo's API and
seed tests, registration, replaying a given game from its packs, the two reward modes, errors,
observations that are the codec's (and leak nothing), and the documentation pages."""

from __future__ import annotations

import contextlib
import io
import random
import re
import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from mediatore_env import __main__ as cli
from mediatore_env.tressette.observation import layout_of, write_observation
from mediatore_env import tressette2_v0, tressette3_v0, tressette_v0
from mediatore_env.tressette import CLAIM, TressetteGame

MODULES = {"tressette_v0": tressette_v0, "tressette3_v0": tressette3_v0,
           "tressette2_v0": tressette2_v0}
PLAYERS = {"tressette_v0": 4, "tressette3_v0": 3, "tressette2_v0": 2}


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


def play(env, rng, claim_rate=0.0):
    """Random legal actions to the end; the actions taken."""
    actions = []
    for agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            action = None
        else:
            legal = [int(a) for a in np.flatnonzero(obs["action_mask"])]
            cards = [a for a in legal if a != CLAIM]
            action = CLAIM if CLAIM in legal and rng.random() < claim_rate else rng.choice(cards)
            actions.append(action)
        env.step(action)
    return actions


@pytest.mark.parametrize("name", MODULES)
def test_pettingzoo_api_and_seed_tests(name):
    module = MODULES[name]
    api_test(module.env(), num_cycles=400)
    api_test(module.raw_env(claim=True, low=True, reward="hand"), num_cycles=400)
    seed_test(module.env)


@pytest.mark.parametrize("name", MODULES)
def test_registered_with_pettingzoo(name):
    from pettingzoo import aec_registry, make
    key = "mediatore/" + name.replace("_", "-")
    assert key in aec_registry
    env = make("aec", key)
    env.reset(seed=1)
    assert env.possible_agents == [f"player_{i}" for i in range(PLAYERS[name])]
    size = layout_of(PLAYERS[name]).size
    assert env.observation_space("player_0")["observation"].shape == (size,)
    assert env.action_space("player_0").n == 41


@pytest.mark.parametrize("name", MODULES)
def test_a_game_replays_from_its_packs_and_dealer(name):
    module = MODULES[name]
    env = module.env(claim=True)
    env.reset(seed=11)
    actions = play(env, random.Random(3), claim_rate=0.02)
    record = env.unwrapped.record
    game = env.unwrapped.game
    assert TressetteGame.replay(record) == game
    # The same packs and dealer under another seed, the same actions: the same game.
    again = module.env(claim=True)
    again.reset(seed=999, options={"packs": record["packs"], "dealer": record["dealer"]})
    replayed = iter(actions)
    for agent in again.agent_iter():
        _, _, terminated, truncated, _ = again.last()
        again.step(None if terminated or truncated else next(replayed))
    assert again.unwrapped.record == record
    # Only the first pack given: the first hand is dealt from it, the rest from the seed.
    first = module.raw_env()
    first.reset(seed=5, options={"packs": record["packs"][:1],
                                 "dealer": f"player_{record['dealer']}"})
    assert list(first.game.packs[0]) == [_id(c) for c in record["packs"][0]]
    assert first.game.dealer == record["dealer"]


def _id(text):
    from mediatore_env.core.cards import parse_card
    return parse_card(text)


@pytest.mark.parametrize("name", MODULES)
def test_game_rewards_are_the_outcome_at_the_end(name):
    env = MODULES[name].env(low=True)
    env.reset(seed=4)
    seen = {a: 0.0 for a in env.possible_agents}
    infos = {}
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        seen[agent] += reward
        if not terminated:
            assert reward == 0 and info == {}
        else:
            infos[agent] = info
        env.step(None if terminated or truncated else
                 int(random.Random(len(env.unwrapped.game.history)).choice(
                     np.flatnonzero(obs["action_mask"]))))
    game = env.unwrapped.game
    assert [seen[a] for a in env.possible_agents] == list(game.outcome)
    assert sum(game.outcome) == 0
    assert [infos[a]["outcome"] for a in env.possible_agents] == list(game.outcome)
    assert all(infos[a]["totals"] == game.totals for a in env.possible_agents)


@pytest.mark.parametrize("name", MODULES)
def test_hand_rewards_are_the_hand_point_differences_plus_the_outcome(name):
    env = MODULES[name].raw_env(reward="hand")
    env.reset(seed=8)
    totals = {a: 0.0 for a in env.possible_agents}
    rng = random.Random(2)
    while env.agents:
        agent = env.agent_selection
        if env.terminations[agent]:
            totals[agent] += env._cumulative_rewards[agent]
            env.step(None)
            continue
        totals[agent] += env._cumulative_rewards[agent]
        env.step(rng.choice(env.game.legal_moves()))
    game = env.unwrapped.game
    rules = game.rules
    expected = [0.0] * rules.players
    for log in game.log:
        points = log.points(rules)
        for seat in range(rules.players):
            mine = points[rules.side_of(seat)]
            others = [p for side, p in enumerate(points) if side != rules.side_of(seat)]
            expected[seat] += mine - sum(others) / len(others)
    for seat, agent in enumerate(env.possible_agents):
        assert totals[agent] == pytest.approx(expected[seat] + game.outcome[seat])
    assert sum(totals.values()) == pytest.approx(0)


def test_hand_rewards_are_negated_in_low_hand():
    env = tressette_v0.raw_env(reward="hand", low=True)
    env.reset(seed=8)
    rng = random.Random(2)
    while env.game.hand_number == 1 and env.agents:
        env.step(rng.choice(env.game.legal_moves()))
    points = env.game.log[0].points(env.rules)
    assert env.rewards["player_0"] == pytest.approx(points[1] - points[0])


def test_the_observation_is_the_codecs_and_the_mask_the_legal_moves():
    env = tressette2_v0.env(show_draws=False)
    env.reset(seed=2)
    rng = random.Random(0)
    for _ in range(30):
        agent = env.agent_selection
        obs = env.observe(agent)
        raw = env.unwrapped
        assert np.array_equal(obs["observation"], write_observation(raw.view(agent)))
        assert [int(m) for m in np.flatnonzero(obs["action_mask"])] == raw.game.legal_moves()
        other = env.observe(f"player_{1 - int(agent[-1])}")
        assert not other["action_mask"].any()
        env.step(rng.choice(raw.game.legal_moves()))


def test_a_seats_observation_ignores_the_other_hands():
    """Two games whose packs differ only in two Coppe of seats 2 and 3 (no meld made or
    broken): seat 0 observes the same at the start and after the first trick, with melds."""
    # Dealer 3: seat 0 gets cards 0-4 and 20-24, seat 1 5-9 and 25-29 (napoletane of Denari
    # and Spade), seat 2 10-14 and 30-34, seat 3 15-19 and 35-39 (napoletane of Coppe and
    # Bastoni). Swapped: seat 2's C4 (10) and seat 3's CC (15).
    base = list(range(40))
    swapped = base[:]
    swapped[10], swapped[15] = 15, 10
    envs = []
    for pack in (base, swapped):
        env = tressette_v0.raw_env()
        env.reset(options={"packs": [pack], "dealer": 3})
        envs.append(env)
    for moves in ((), (0, 5, 30, 35)):  # D4 led, DC wins; seats 2 and 3 discard Bastoni
        for env in envs:
            for move in moves:
                env.step(move)
        assert [len(env.game.log[0].melds) for env in envs] == ([4, 4] if moves else [0, 0])
        a, b = (e.observe("player_0")["observation"] for e in envs)
        assert np.array_equal(a, b)
        c, d = (e.observe("player_2")["observation"] for e in envs)
        assert not np.array_equal(c, d)


@pytest.mark.parametrize("name", MODULES)
def test_errors_name_what_is_wrong(name):
    module = MODULES[name]
    with pytest.raises(TypeError, match=r"unknown keyword argument.*'trumps'.*valid: render_mode, "
                                        r"reward, illegal_reward \(with env\(\)\), and the rules "
                                        r"switches low, claim"):
        module.raw_env(trumps=True)
    with pytest.raises(ValueError, match="bad reward 'points'; valid: 'game', 'hand'"):
        module.raw_env(reward="points")
    with pytest.raises(ValueError, match="bad value 2 for rules switch 'low'"):
        module.raw_env(low=2)
    env = module.raw_env()
    env.reset(seed=3)
    game = env.game
    with pytest.raises(ValueError, match="pack 1 in options: bad pack.*repeated"):
        env.reset(seed=4, options={"packs": [list(range(40)), [0] * 40]})
    assert env.game is game  # a bad option changes nothing, the generator included
    env.reset()
    again = module.raw_env()
    again.reset(seed=3)
    again.reset()
    assert again.game.packs == env.game.packs
    with pytest.raises(ValueError, match="bad packs 'D3' in options"):
        env.reset(options={"packs": "D3"})
    with pytest.raises(ValueError, match="bad dealer 7 in options; valid: 0, 1"):
        env.reset(options={"dealer": 7})
    with pytest.warns(UserWarning, match="ignoring unknown option.*'deck'"):
        warnings.simplefilter("always")
        env.reset(options={"deck": []})
    with pytest.raises(ValueError, match="pack 0 in options"):
        env.reset(options={"pack": []})  # the first hand's pack: checked as the packs are
    env.reset(seed=0)
    game = env.game
    before = game.clone()
    illegal = next(m for m in range(41) if m not in game.legal_moves())
    with pytest.raises(ValueError, match=r"illegal action \d+ \(\w+\) for player_\d; legal "
                                         r"actions: \d+ \(\w+\)"):
        env.step(illegal)
    for bad in (1.0, True, "D3", 41):
        with pytest.raises(ValueError, match="not an action id"):
            env.step(bad)
    assert env.game == before
    wrapped = module.env()
    wrapped.reset(seed=0)
    agent = wrapped.agent_selection
    wrapped.step(illegal)  # env(): the offender gets -1, every agent is done
    assert wrapped.rewards[agent] == -1 and all(wrapped.terminations.values())


def test_show_draws_is_a_two_handed_switch():
    with pytest.raises(TypeError, match="unknown keyword argument.*'show_draws'"):
        tressette_v0.raw_env(show_draws=False)
    assert tressette2_v0.raw_env(show_draws=False).rules.show_draws is False


@pytest.mark.parametrize("name", MODULES)
def test_render_shows_the_seat_to_play(name):
    env = MODULES[name].raw_env(render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    seat = env.game.to_move
    assert f"player_{seat} holds:" in text and "to play:" in text and "hand 1" in text


@pytest.mark.parametrize("name", MODULES)
def test_the_page_shows_the_layout_and_is_generated(name):
    module = MODULES[name]
    assert layout_of(PLAYERS[name]).table() in module.__doc__
    assert f"Observation Shape  | ({layout_of(PLAYERS[name]).size},)" in module.__doc__
    pages = cli.env_pages()
    path = cli.DOCS.with_name(f"environment-{name}.md")
    assert path.read_text() == pages[path], "run: python -m mediatore_env docs"


@pytest.mark.parametrize("name", MODULES)
def test_the_pages_usage_example_prints_what_the_page_says(name):
    page = MODULES[name].__doc__
    code = re.search(r"```python\n(import numpy.*?)```", page, re.S).group(1)
    said = re.search(r"prints \(a real run\)\n\n```\n(.*?)```", page, re.S).group(1)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(code, {})
    assert out.getvalue() == said
