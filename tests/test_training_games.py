"""Self-play for every JAX game (issue 37): the trainer on any game of ``jaxgame.make``, the
``selfplay`` agent over any game's observation and moves, the shipped networks of the Tressette
forms, and the one-line refusals (a network of another game, a bad ``--game``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

jax = pytest.importorskip("jax")
pytest.importorskip("optax")

from agents import agents_of, make_agent  # noqa: E402
from agents.base import play  # noqa: E402
from agents.selfplay import (SelfPlayAgent, default_path, game_shape, load_network,  # noqa: E402
                             save_half)
from agents.training import Config, make_train  # noqa: E402
from agents.training.ppo import engine_of, episode_stake, seat_rewards  # noqa: E402
from agents.tressette import SELFPLAY  # noqa: E402
from mediatore_env import jaxgame  # noqa: E402
from mediatore_env.jaxgame import games  # noqa: E402
from mediatore_env.registry import get  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
TINY = dict(envs=4, rollout=8, epochs=1, minibatches=2, hidden=(8,), pool_size=2, pool_every=1)


def tiny_network(game: str, seed: int = 0, hidden=(8,)) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    size, moves = game_shape(game)
    sizes = (size, *hidden)
    params = {}
    for i in range(len(hidden)):
        params[f"layer{i}/w"] = rng.normal(0, 0.1, (sizes[i], sizes[i + 1])).astype(np.float32)
        params[f"layer{i}/b"] = np.zeros(sizes[i + 1], np.float32)
    params["policy/w"] = rng.normal(0, 1, (sizes[-1], moves)).astype(np.float32)
    params["policy/b"] = np.zeros(moves, np.float32)
    params["value/w"] = rng.normal(0, 1, (sizes[-1], 1)).astype(np.float32)
    params["value/b"] = np.zeros(1, np.float32)
    return params


def save(path: Path, params: dict, game: str) -> Path:
    np.savez(path, **params, format=np.array("mediatore-selfplay-mlp-v1"),
             meta=np.array(json.dumps({"game": game})))
    return path


@pytest.mark.slow
@pytest.mark.parametrize("game", games())
def test_the_trainer_runs_on_every_jax_game(game):
    """Two updates of a tiny config on each game's engine: the network has the engine's sizes,
    the losses are finite, and the learner's parameters moved."""
    cfg = Config(game=game, **TINY)
    env = engine_of(game)
    train = make_train(cfg)
    runner = train.init(jax.random.PRNGKey(0))
    start = np.asarray(runner.params["policy/b"])
    runner, metrics = train.run(runner, 2)
    assert runner.params["layer0/w"].shape == (env.observation_shape[0], 8)
    assert runner.params["policy/b"].shape == (env.num_actions,)
    assert runner.learner.shape == (4, env.num_players)
    assert all(np.isfinite(float(v)) for v in metrics.values()), metrics
    assert not np.array_equal(start, np.asarray(runner.params["policy/b"]))


def test_the_stake_is_the_mean_over_the_episodes_ended_not_over_the_updates():
    """A two-handed game is always worth 1 (+1/-1): the logged stake of updates of which most
    end no game is 1, not 1 times the share of updates that ended one."""
    train = make_train(Config(game="tressette2", **TINY))
    runner, metrics = train.run(train.init(jax.random.PRNGKey(0)), 30)
    ended = float(metrics["deals"]) * 30
    assert 1 <= ended < 30  # 960 moves in all, a game to 31 takes about a hundred
    assert float(metrics["stake"]) == 1.0


def test_an_evaluation_of_one_episode_has_no_interval_to_print_or_save(tmp_path):
    """One episode has a mean and no interval: the line shows the mean alone (not [+nan,
    +nan]), and the run's evaluations.json writes null (NaN is not JSON)."""
    from agents.training import describe
    from mediatore_env.runinfo import json_text
    ev = {"step": 0, "vs_greedy": {"mean": -1.0, "ci95": [float("nan")] * 2, "deals": 1},
          "vs_pimc": {"mean": 0.5, "ci95": [-0.25, 1.25], "deals": 2}}
    assert describe(ev) == "vs greedy  -1.00   vs pimc  +0.50 [-0.25, +1.25]"
    back = json.loads(json_text({"evaluations": [ev]}), parse_constant=pytest.fail)
    assert back["evaluations"][0]["vs_greedy"]["ci95"] == [None, None]
    assert describe(back["evaluations"][0]) == describe(ev)  # as a resumed run reads it


def test_outcomes_of_any_sides_become_each_seats_reward():
    """seat_rewards keeps each seat's own outcome, scaled; the stake of an ended episode is its
    largest outcome whatever the number of seats and sides."""
    jnp = jax.numpy
    outcomes = jnp.array([[1.0, -1, 1, -1], [-1, -1, 3, -1], [0, 0, 0, 0]])
    np.testing.assert_allclose(seat_rewards(outcomes, 0.5), np.asarray(outcomes) * 0.5)
    np.testing.assert_allclose(episode_stake(outcomes), [1, 3, 0])
    np.testing.assert_allclose(episode_stake(jnp.array([[2.0, -1, -1], [1, -1, 0]])), [2, 1])
    assert Config(game="tressette").reward_per_unit == 3.0  # the largest outcome is 1
    assert Config(game="tressette3").reward_per_unit == 1.5  # +2/-1/-1
    # club: the first pot (4 antes of 5), not the largest outcome (millions of chips over 20
    # deals, which would leave every reward far below a fresh value head's noise)
    assert Config(game="club").reward_per_unit == 3.0 / 20
    assert jaxgame.make("club", ante=2).reward_unit == 8 and \
        jaxgame.make("club").illegal_penalty == 20 * 2 ** 19


@pytest.mark.parametrize("game", ["tressette", "tressette3", "tressette2", "club"])
def test_selfplay_plays_legal_moves_in_any_game(game, tmp_path):
    """A network of the game's sizes, saved with the game's name, plays a whole episode at
    every seat (an illegal move would raise); a file names the game the agent plays."""
    path = save(tmp_path / "net.npz", tiny_network(game), game)
    agent = SelfPlayAgent(str(path))
    assert agent.game == game and agent.wants_observation
    entry = get(game)
    rng = np.random.default_rng(1)
    finished = play(entry.new_game(), [SelfPlayAgent(str(path), game=game)
                                      for _ in range(entry.players)],
                    packs=lambda k: rng.permutation(40).tolist())
    assert finished.is_over


def test_a_network_saved_half_reads_back_as_its_float16_rounding(tmp_path):
    """save_half (how agents/data's networks are stored): every weight is the float16 nearest
    the trained one, read back as float32, and the file keeps its game."""
    params = tiny_network("tressette2", hidden=(16, 8))
    half = tmp_path / "half.npz"
    save_half(save(tmp_path / "net.npz", params, "tressette2"), half)
    loaded, meta = load_network(half, "tressette2")
    assert meta["game"] == "tressette2" and set(loaded) == set(params)
    for k, v in params.items():
        assert loaded[k].dtype == np.float32
        np.testing.assert_array_equal(loaded[k], v.astype(np.float16).astype(np.float32))
    assert half.stat().st_size < 0.6 * (tmp_path / "net.npz").stat().st_size


@pytest.mark.parametrize("game", SELFPLAY)
def test_shipped_networks_load_and_play(game):
    """Each shipped network is its form's ``selfplay`` by name, and plays a game to the end."""
    assert default_path(game).is_file()
    entry = get(game)
    agents = [make_agent("selfplay", agents_of(game)) for _ in range(entry.players)]
    assert all(a.game == game and a.path == str(default_path(game)) for a in agents)
    assert agents[0].meta["game"] == game
    rng = np.random.default_rng(2)
    assert play(entry.new_game(), agents, packs=lambda k: rng.permutation(40).tolist()).is_over


def test_a_network_of_another_game_is_refused_in_one_line(tmp_path):
    path = save(tmp_path / "two.npz", tiny_network("tressette2"), "tressette2")
    with pytest.raises(ValueError, match=r"is a network of tressette2, not of tressette \("):
        SelfPlayAgent(str(path), game="tressette")
    with pytest.raises(ValueError, match="is a network of tressette2, not of tressette3"):
        make_agent(f"selfplay:path={str(path)!r}", agents_of("tressette3"))
    # every game's registry makes its own selfplay, Mediatore's and club's too; a game's name
    # stands for its registry
    for game in ("mediatore", "club"):
        with pytest.raises(ValueError, match=f"is a network of tressette2, not of {game}"):
            make_agent(f"selfplay:path={str(path)!r}", game)
    assert make_agent(f"selfplay:path={str(path)!r}", "tressette2").game == "tressette2"


def test_a_network_warns_once_at_a_table_of_rules_it_was_not_trained_under(tmp_path):
    """The shipped Two-Handed network never saw a claim: with claims on it is told so, once."""
    import warnings
    agent = make_agent("selfplay", "tressette2")
    entry = get("tressette2")
    game = entry.new_game(entry.make_rules(claim=True))
    game.deal(list(range(40)))
    with pytest.warns(UserWarning, match=r"trained under the rules tressette2 \(2 players\), "
                                         r"not tressette2 \(2 players\), claim"):
        agent.act(entry.observation(game.view(game.to_move)), game.view(game.to_move))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the same rules again: no second warning
        agent.act(entry.observation(game.view(game.to_move)), game.view(game.to_move))
        plain = entry.new_game()
        plain.deal(list(range(40)))
        agent.act(entry.observation(plain.view(plain.to_move)), plain.view(plain.to_move))
    old = tmp_path / "old.npz"  # a file without a game is Mediatore's, as before
    np.savez(old, **tiny_network("tressette2"), format=np.array("mediatore-selfplay-mlp-v1"))
    with pytest.raises(ValueError, match="network of mediatore, not of tressette2"):
        SelfPlayAgent(str(old), game="tressette2")
    with pytest.raises(ValueError, match="layer0 has shapes .* for mediatore"):
        SelfPlayAgent(str(old))  # a Mediatore network of the wrong shape


def test_every_tressette_form_registers_selfplay():
    for game in ("tressette", "tressette3", "tressette2"):
        assert "selfplay" in agents_of(game)


def test_a_form_without_its_network_says_where_it_looked(tmp_path, monkeypatch):
    import agents.selfplay
    monkeypatch.setattr(agents.selfplay, "DATA", tmp_path)  # a checkout without the files
    for game in ("tressette", "tressette3", "tressette2"):
        with pytest.raises(ValueError, match=f"no network at .*selfplay-{game}.npz"):
            make_agent("selfplay", agents_of(game))


@pytest.mark.parametrize("args, words", [
    (["--game", "chess"], "argument --game: invalid choice: 'chess'"),
    (["--game", "tressette", "--rules", "no_signals"],
     "--rules 'no_signals': a preset of Mediatore; tressette trains under its standard rules"),
    (["--game", "club", "--shaping", "1.0"],
     "--shaping: club has no score potential (the Tressette forms do)"),
])
def test_bad_game_arguments_are_one_line(tmp_path, args, words):
    out = subprocess.run([sys.executable, "-m", "agents.training", *args, "--out",
                          str(tmp_path / "run")], capture_output=True, text=True, timeout=120,
                         cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert out.returncode == 2 and out.stderr.count("\n") == 1, out.stderr
    assert out.stderr.startswith("python -m agents.training: error:") and words in out.stderr
    assert not (tmp_path / "run").exists()
