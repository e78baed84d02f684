"""Self-play training (agents/training, its command line examples/train_selfplay.py) and the
numpy agent that plays its networks (agents/selfplay.py, on agents/network_agent.py).

The agent's tests need numpy only. The training tests need JAX and optax (the ``train-jax``
extra) and run the real loop for a few updates: on a toy game with the engine's interface
(tests/toy_jax_game.py), whose payments show whether each seat is credited with its own
payment, and, when the JAX engine is importable, on Mediatore itself.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from agents import SelfPlayAgent, make_agent
from agents.selfplay import DEFAULT_PATH, forward, load_network, network_keys
from agents.tournament import run_tournament
from mediatore_env.mediatore.observation import Encoder
from mediatore_env.mediatore.game import Deal

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))


def random_params(seed: int = 0, hidden=(24, 16)) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    sizes = (2132, *hidden)
    params = {}
    for i in range(len(hidden)):
        params[f"layer{i}/w"] = rng.normal(0, 0.3, (sizes[i], sizes[i + 1])).astype(np.float32)
        params[f"layer{i}/b"] = rng.normal(0, 0.1, sizes[i + 1]).astype(np.float32)
    params["policy/w"] = rng.normal(0, 1, (sizes[-1], 486)).astype(np.float32)
    params["policy/b"] = rng.normal(0, 1, 486).astype(np.float32)
    params["value/w"] = rng.normal(0, 1, (sizes[-1], 1)).astype(np.float32)
    params["value/b"] = np.zeros(1, np.float32)
    return params


def save_network(path: Path, params: dict, fmt: str = "mediatore-selfplay-mlp-v1") -> Path:
    np.savez(path, **params, format=np.array(fmt), meta=np.array(json.dumps({"steps": 7})))
    return path


def decisions(deals: int, seed: int):
    """(observation, legal moves) of every decision in ``deals`` random deals."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(deals):
        deal = Deal(None, int(rng.integers(4)), rng.permutation(40).tolist())
        encoders = [Encoder() for _ in range(4)]
        views = [deal.view(s) for s in range(4)]
        while not deal.is_over:
            s = deal.to_move
            legal = deal.legal_moves()
            out.append((encoders[s].encode(views[s]).copy(), legal))
            deal.apply(legal[int(rng.integers(len(legal)))])
    return out


# -- the numpy agent -----------------------------------------------------------------------------

def test_agent_plays_only_legal_moves_and_loads_by_name(tmp_path):
    path = save_network(tmp_path / "net.npz", random_params())
    agent = make_agent(f"selfplay:path={str(path)!r}")
    assert isinstance(agent, SelfPlayAgent) and agent.meta == {"steps": 7}
    # play raises on any illegal move; a random network has no reason to be legal
    result = run_tournament([agent, "random", "random", "random"], deals=6, seed=2)
    assert result.deals == 6
    sampled = SelfPlayAgent(path, deterministic=False)
    assert run_tournament([sampled, "greedy", "greedy", "greedy"], deals=3, seed=5).deals == 3


def test_agent_takes_the_best_legal_logit():
    params = random_params(3)
    agent = SelfPlayAgent(params=params)
    rng = np.random.default_rng(4)
    deal = Deal(None, 0, rng.permutation(40).tolist())
    checked = 0
    while not deal.is_over:
        view = deal.view(deal.to_move)
        legal = deal.legal_moves()
        move = agent.act(None, view)
        if len(legal) > 1:
            logits = forward(params, Encoder().encode(view))[0]
            assert move == legal[int(np.argmax(logits[legal]))]
            assert logits.argmax() not in legal or move == logits.argmax()
            checked += 1
        deal.apply(move)
    assert checked > 10


def test_agent_plays_in_the_pettingzoo_env_and_as_an_opponent(tmp_path):
    from mediatore_env.mediatore import mediatore_v0
    from mediatore_env.mediatore.single_seat import MediatoreSeatEnv
    path = save_network(tmp_path / "net.npz", random_params(7))
    env = mediatore_v0.env()
    env.reset(seed=2)
    players = {name: make_agent(f"selfplay:path={str(path)!r}") for name in env.agents}
    for player in players.values():
        player.reset(seed=2)
    for name in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        done = terminated or truncated
        env.step(None if done else players[name].act(obs, env.unwrapped.view(name)))
    assert env.unwrapped.deal.is_over
    seat_env = MediatoreSeatEnv(SelfPlayAgent(str(path)))  # three copies of it around the learner
    obs, info = seat_env.reset(seed=3)
    terminated = False
    while not terminated:
        obs, reward, terminated, truncated, info = seat_env.step(
            int(np.flatnonzero(seat_env.action_masks())[0]))


@pytest.mark.parametrize("change, message", [
    ("missing", "no network at"),
    ("text", r"is not a readable network \(path= takes a .npz written by "),
    ("cut", r"is not a readable network \(path= takes a .npz written by "),
    ("format", "not a self-play network"),
    ("shape", "layer0 has shapes"),
    ("head", "policy head has shapes"),
])
def test_agent_refuses_bad_files(tmp_path, change, message):
    """One line naming the file and what path= takes (numpy's words about unpickling or zip
    files are not the user's)."""
    params = random_params()
    path = tmp_path / "net.npz"
    if change == "text":
        path.write_text("a text file\n")
    elif change == "cut":
        path.write_bytes(save_network(path, params).read_bytes()[:3000])
    elif change == "format":
        save_network(path, params, fmt="something-else")
    elif change == "shape":
        params["layer0/w"] = params["layer0/w"][:100]
        save_network(path, params)
    elif change == "head":
        params["policy/w"] = params["policy/w"][:, :400]
        save_network(path, params)
    with pytest.raises(ValueError, match=message) as e:
        SelfPlayAgent(str(path))
    assert "\n" not in str(e.value) and repr(str(path)) in str(e.value)
    assert "pickle" not in str(e.value)


def test_bench_names_a_bad_network_file_in_one_line(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("not a network\n")
    out = subprocess.run([sys.executable, "-m", "mediatore_env.tools.bench", "--agents",
                          f"selfplay:path={path}", "greedy", "greedy", "greedy", "--deals", "1"],
                         cwd=ROOT, capture_output=True, text=True, timeout=120,
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert out.returncode == 2 and out.stderr.count("\n") == 1, out.stderr
    assert f"{str(path)!r} is not a readable network" in out.stderr


def test_a_float16_file_plays_its_weights_in_float32(tmp_path):
    params = random_params(3)
    half = {k: v.astype(np.float16) for k, v in params.items()}
    loaded, _ = load_network(save_network(tmp_path / "half.npz", half))
    assert all(v.dtype == np.float32 for v in loaded.values())
    for k in params:
        np.testing.assert_array_equal(loaded[k], half[k].astype(np.float32))


def test_shipped_network_loads_and_plays():
    params, meta = load_network(DEFAULT_PATH)
    assert set(params) == set(network_keys(len(meta["hidden"])))
    assert DEFAULT_PATH.stat().st_size < 5_000_000
    assert meta["rules"] == "standard" and "imitat" in meta["label"]
    result = run_tournament(["selfplay", "greedy", "greedy", "greedy"], deals=2, seed=9)
    assert result.deals == 2


def test_bench_plays_the_shipped_agent_by_name():
    out = subprocess.run([sys.executable, "-m", "mediatore_env.tools.bench", "--agents",
                          "selfplay", "random", "random", "random", "--deals", "2"],
                         cwd=ROOT, capture_output=True, text=True, timeout=120,
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert out.returncode == 0, out.stderr
    assert "selfplay" in out.stdout


# -- training ------------------------------------------------------------------------------------

jax = pytest.importorskip("jax")
pytest.importorskip("optax")
import agents.training as training  # noqa: E402
from agents.training import Config, Plan, SettingError, make_train, self_play  # noqa: E402

TOY = Config(envs=16, rollout=24, epochs=2, minibatches=2, hidden=(32,), lr=0.003, pool_every=2,
             pool_size=3, explore=0.0)
TOY_PLAN = Plan(eval_every=3840, eval_deals=2, pimc_deals=0, final_deals=2, final_pimc_deals=0)


def quiet(*args, **kwargs):
    pass


def test_seat_advantages_by_hand():
    """One env, seats 0 1 2 0 1 of a deal that ends at step 4 paying [4, -2, -1, -1] (scaled),
    then seat 3 of the next deal, cut by the rollout's end. Each decision's advantage is its own
    seat's: with lambda 1, payment - value; with lambda 0, the value of the seat's next
    decision (or its payment) - value; the first deal's payments never reach the second."""
    jnp = jax.numpy
    seats = [0, 1, 2, 0, 1, 3]
    reward = np.zeros((6, 1, 4), np.float32)
    reward[4, 0] = [4, -2, -1, -1]
    reward[5, 0] = [9, 9, 9, 9]  # would only reach a seat of the second deal after step 5
    done = np.array([0, 0, 0, 0, 1, 0], bool)[:, None]
    value = np.array([0.1, 0.2, 0.3, 0.4, 0.5, 0.6], np.float32)[:, None]
    traj = training.Transition(obs=jnp.zeros((6, 1, 1)), mask=jnp.zeros((6, 1, 1), bool),
                               action=jnp.zeros((6, 1), jnp.int32), logp=jnp.zeros((6, 1)),
                               value=jnp.asarray(value),
                               seat=jnp.asarray(seats, jnp.int32)[:, None],
                               mine=jnp.ones((6, 1), bool), reward=jnp.asarray(reward),
                               done=jnp.asarray(done))
    last = jnp.asarray([[0.0, 0.0, 0.0, 0.7]])
    mc = np.asarray(training.seat_advantages(traj, last, 1.0))[:, 0]
    np.testing.assert_allclose(mc, [3.9, -2.2, -1.3, 3.6, -2.5, 9 + 0.7 - 0.6], atol=1e-6)
    td = np.asarray(training.seat_advantages(traj, last, 0.0))[:, 0]
    np.testing.assert_allclose(td, [0.3, 0.3, -1.3, 3.6, -2.5, 9.1], atol=1e-6)


def test_scripted_auction_passes_when_no_bid_is_left():
    """A scripted auction draws only legal moves, even at --bid-rate 1 when only pass is left
    (the top contract is bid): pass then has probability 1, and bids share bid_rate."""
    jnp = jax.numpy
    from mediatore_env.mediatore.moves import CALL_BASE, PASS
    mask = np.zeros((2, 486), bool)
    mask[:, PASS] = True
    mask[1, PASS + 1:CALL_BASE] = True  # every bid still open
    for rate in (0.0, 0.3, 1.0):
        logits = training.masked_logits(training.random_bids(jnp.asarray(mask), rate),
                                        jnp.asarray(mask))
        p = np.asarray(jax.nn.softmax(logits))
        np.testing.assert_allclose(p[0, PASS], 1.0, atol=1e-6)
        np.testing.assert_allclose(p[1, PASS], 1 - rate, atol=1e-6)
        np.testing.assert_allclose(p[1, PASS + 1:CALL_BASE], rate / (CALL_BASE - 1), atol=1e-6)


def test_one_reward_scale_in_one_place():
    """The reward of a payment is reward_scale / the rules' largest payment: 3/60 by default in
    the standard rules, whichever way the settings are made."""
    from mediatore_env.mediatore.rules import PRESETS, max_payment
    assert Config().reward_per_unit == 3.0 / max_payment(PRESETS["standard"]) == 3.0 / 60
    assert Config(reward_scale=6.0).reward_per_unit == 0.1
    with pytest.raises(ValueError, match="must divide into --minibatches"):
        make_train(Config(envs=3, rollout=3, minibatches=2))


@pytest.fixture(scope="module")
def toy():
    from toy_jax_game import ToyGame
    return ToyGame()


@pytest.fixture(scope="module")
def toy_train(toy):
    """The jitted training of TOY, shared: a second run of it compiles nothing."""
    return make_train(TOY, toy)


def good_move_share(params) -> np.ndarray:
    """Per seat, the probability the network gives its seat's good toy moves (2s, 2s + 1) in
    the first round (0.25 for a uniform policy over the 8 legal moves)."""
    obs = np.zeros((4, 2132), np.float32)
    obs[np.arange(4), np.arange(4)] = 1.0
    obs[:, 4] = 1.0  # the first round
    logits = forward(params, obs)[0][:, :8]
    p = np.exp(logits - logits.max(1, keepdims=True))
    p /= p.sum(1, keepdims=True)
    return p[np.arange(4), 2 * np.arange(4)] + p[np.arange(4), 2 * np.arange(4) + 1]


@pytest.mark.slow  # 15-25 s on 2 cores: learning or search behaviour (-m slow)
def test_self_play_learns_each_seats_own_moves_and_resumes(tmp_path, toy_train):
    """Self-play on the toy game: every seat learns its own good moves (2s, 2s+1), which it
    can only do if each decision is credited with its own seat's payment; a checkpoint resumes
    where it stopped, and the network plays Mediatore's legal moves in the evaluations."""
    out = tmp_path / "run"
    plan = replace(TOY_PLAN, steps=11520, out=str(out))  # 30 updates
    log = self_play(TOY, plan, train=toy_train, say=quiet)
    assert [e["step"] for e in log["evaluations"]] == [0, 3840, 7680, 11520]
    assert log["final"]["vs_greedy"]["deals"] == 2
    params, meta = load_network(out / "checkpoint.npz")
    assert meta["updates"] == 30
    assert good_move_share(params).min() > 0.6  # 0.25 for a random player
    assert_best_kept(out, log)

    steps = []  # the progress: a resumed run's steps first, then each chunk's
    log2 = self_play(TOY, replace(plan, steps=15360, resume=str(out / "checkpoint.npz")),
                     train=toy_train, say=quiet, progress=steps.append)
    assert [e["step"] for e in log2["evaluations"]] == [0, 3840, 7680, 11520, 15360]
    assert steps == [11520, 3840]
    params2, meta2 = load_network(out / "network.npz")
    assert meta2["updates"] == 40 and meta2["train_seconds"] > meta["train_seconds"]
    assert any(not np.array_equal(params[k], params2[k]) for k in params)
    assert (out / "learning_curve.png").stat().st_size > 1000
    saved = json.loads((out / "evaluations.json").read_text())
    assert len(saved["throughput"]) == 4 and saved["final"]["step"] == 15360
    assert saved["config"]["reward_scale_per_unit"] == TOY.reward_per_unit
    assert_best_kept(out, log2)


def test_a_run_is_the_jitted_train_cut_at_evaluations(tmp_path, toy_train):
    """PureJaxRL's shape: ``train(key, updates)`` is the whole training in one call, and a run
    of the driver with the same seed, evaluating between its chunks, trains the same network."""
    runner, metrics = toy_train(jax.random.PRNGKey(4), 10)
    assert int(runner.updates) == 10 and set(metrics) >= {"entropy", "value_loss", "deals"}
    self_play(TOY, replace(TOY_PLAN, steps=3840, seed=4, final_deals=0, out=str(tmp_path)),
              train=toy_train, say=quiet)
    params, meta = load_network(tmp_path / "network.npz")
    assert meta["updates"] == 10
    for k, v in params.items():
        np.testing.assert_array_equal(v, np.asarray(runner.params[k], np.float32))
    again, _ = toy_train(jax.random.PRNGKey(4), 10)
    other, _ = toy_train(jax.random.PRNGKey(5), 10)
    assert all(np.array_equal(again.params[k], runner.params[k]) for k in params)
    assert not np.array_equal(other.params["policy/w"], runner.params["policy/w"])
    with pytest.raises(ValueError, match="train was made for"):  # not for other settings
        self_play(TOY._replace(lr=0.1), TOY_PLAN, train=toy_train, say=quiet)


@pytest.mark.slow  # 15-25 s on 2 cores: learning or search behaviour (-m slow)
def test_the_anchor_holds_the_policy_near_the_pools_first_network(tmp_path, toy):
    """The same run as above with a heavy anchor_coef: the policy stays near the initial
    network (uniform over the 8 legal moves, so 2 good ones weigh a quarter) instead of
    learning its good moves, and the logged KL from it stays small."""
    log = self_play(TOY._replace(anchor_coef=30.0),
                    replace(TOY_PLAN, steps=11520, final_deals=0, out=str(tmp_path)),
                    env=toy, say=quiet)
    params, _ = load_network(tmp_path / "network.npz")
    assert good_move_share(params).max() < 0.4
    assert all(0 < t["anchor_kl"] < 0.05 for t in log["throughput"])


def assert_best_kept(out: Path, log: dict) -> None:
    """best.npz is the network of the first evaluation with the top mean against greedy."""
    best = max(log["evaluations"], key=lambda e: e["vs_greedy"]["mean"])
    _, meta = load_network(out / "best.npz")
    assert meta["last_evaluation"]["step"] == best["step"]
    assert meta["last_evaluation"]["vs_greedy"] == best["vs_greedy"]


def test_checkpoint_round_trip(tmp_path, toy_train):
    runner = toy_train.init(jax.random.PRNGKey(1))
    runner = runner._replace(updates=jax.numpy.int32(17), snapshots=jax.numpy.int32(3))
    training.save_checkpoint(tmp_path / "c.npz", runner, {"note": "x"})
    loaded, meta = training.load_checkpoint(tmp_path / "c.npz",
                                            toy_train.init(jax.random.PRNGKey(2)))
    assert meta == {"note": "x"} and int(loaded.updates) == 17 and int(loaded.snapshots) == 3
    for a, b in zip(jax.tree_util.tree_leaves((runner.params, runner.opt_state, runner.pool,
                                               runner.key)),
                    jax.tree_util.tree_leaves((loaded.params, loaded.opt_state, loaded.pool,
                                               loaded.key))):
        np.testing.assert_array_equal(np.asarray(a), np.asarray(b))
    other = runner._replace(params=training.init_network(jax.random.PRNGKey(0), (9,)))
    with pytest.raises(ValueError, match="give the same --hidden"):
        training.load_checkpoint(tmp_path / "c.npz", other)


def test_resume_from_a_bad_file_names_the_setting(tmp_path, toy_train):
    bad = tmp_path / "checkpoint.npz"
    bad.write_text("not an npz")
    with pytest.raises(SettingError, match="not a readable") as e:
        self_play(TOY, replace(TOY_PLAN, out=str(tmp_path / "run"), resume=str(bad)),
                  train=toy_train, say=quiet)
    assert e.value.setting == "resume" and "pickle" not in str(e.value)


def test_resume_under_other_rules_is_refused_before_compiling(tmp_path, toy, toy_train,
                                                              monkeypatch):
    out = tmp_path / "run"
    plan = replace(TOY_PLAN, steps=3840, final_deals=0, out=str(out))  # compiled already
    self_play(TOY, plan, train=toy_train, say=quiet)

    def compile_nothing(*args):
        raise AssertionError("compiled before the checkpoint was checked")
    monkeypatch.setattr(training.run, "make_train", compile_nothing)
    with pytest.raises(SettingError, match="trained under --rules standard, not no_signals"):
        self_play(TOY._replace(rules="no_signals"),
                  replace(plan, steps=7680, resume=str(out / "checkpoint.npz")), env=toy,
                  say=quiet)


def saved_network(path, hidden=(32,), game="mediatore", seed=6):
    params = random_params(seed, hidden)
    np.savez(path, **training.network_arrays(params, {"game": game}))
    return params


def test_a_run_starts_from_a_saved_network(tmp_path, toy_train):
    """Plan.init: the run starts from the saved network, not a random one, and it fills the
    opponent pool (its first slot keeps it while the network trains on)."""
    start = saved_network(tmp_path / "start.npz")
    out = tmp_path / "run"
    plan = replace(TOY_PLAN, steps=0, final_deals=0, out=str(out),
                   init=str(tmp_path / "start.npz"))
    self_play(TOY, plan, train=toy_train, say=quiet)
    params, _ = load_network(out / "network.npz")
    assert all(np.array_equal(params[k], start[k]) for k in start)
    self_play(TOY, replace(plan, steps=3840), train=toy_train, say=quiet)  # 10 updates
    trained, _ = load_network(out / "network.npz")
    assert not np.array_equal(trained["policy/w"], start["policy/w"])
    with np.load(out / "checkpoint.npz") as f:
        assert all(np.array_equal(f[f"pool/{k}"][0], start[k]) for k in start)


@pytest.mark.parametrize("hidden, game, resume, words", [
    ((32,), "mediatore", True, "give --init or --resume, not both"),
    ((64,), "mediatore", False, "its network has hidden layers [64], not [32] (give the same "
                                "--hidden)"),
    ((32,), "tressette2", False, "is a network of tressette2, not of mediatore"),
])
def test_a_start_that_does_not_fit_is_refused_before_compiling(tmp_path, toy, monkeypatch,
                                                               hidden, game, resume, words):
    saved_network(tmp_path / "start.npz", hidden, game)

    def compile_nothing(*args):
        raise AssertionError("compiled before the start was checked")
    monkeypatch.setattr(training.run, "make_train", compile_nothing)
    plan = replace(TOY_PLAN, out=str(tmp_path / "run"), init=str(tmp_path / "start.npz"),
                   resume=str(tmp_path / "start.npz") if resume else None)
    with pytest.raises(SettingError) as e:
        self_play(TOY, plan, env=toy, say=quiet)
    assert e.value.setting == "init" and words in str(e.value), str(e.value)
    assert "SelfPlayAgent" not in str(e.value)  # the setting speaks, not the agent
    assert not (tmp_path / "run").exists()


def train_selfplay(*args, timeout=120):
    return subprocess.run([sys.executable, str(ROOT / "examples" / "train_selfplay.py"), *args],
                          capture_output=True, text=True, timeout=timeout, cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})


@pytest.mark.parametrize("args, words", [
    (["--hidden", "3,x"], "--hidden: expected layer sizes from 1 to 8192 such as 256,256, "
                          "not '3,x'"),
    (["--hidden", "64,99999999"], "--hidden: expected layer sizes from 1 to 8192"),
    (["--envs", "3", "--rollout", "3", "--minibatches", "2"], "must divide into --minibatches"),
    (["--bid-rate", "1.5"], "--bid-rate: must be between 0 and 1, not 1.5"),
    (["--lr", "0"], "--lr: must be more than 0, not 0"),
    (["--demos", "{tmp}"], "train_selfplay.py: error: --demos: no demonstrations in"),
    (["--resume", "{tmp}/checkpoint.npz", "--envs", "4"],
     "train_selfplay.py: error: --resume: {tmp}/checkpoint.npz: not a readable .npz"),
    (["--init", "{tmp}/checkpoint.npz", "--envs", "4"],
     "train_selfplay.py: error: --init: '{tmp}/checkpoint.npz' is not a readable network"),
])
def test_bad_arguments_are_one_line(tmp_path, args, words):
    (tmp_path / "checkpoint.npz").write_text("not an npz")
    out = train_selfplay(*(a.format(tmp=tmp_path) for a in args), "--out", str(tmp_path / "run"))
    assert out.returncode == 2 and out.stderr.count("\n") == 1, out.stderr
    assert words.format(tmp=tmp_path) in out.stderr and not out.stdout, out.stderr
    assert not (tmp_path / "run").exists()  # refused before anything was written


def test_numpy_agent_matches_the_jax_network():
    """The same moves as the JAX forward pass on the observations of real deals."""
    params = random_params(5, hidden=(64, 32))
    jparams = {k: jax.numpy.asarray(v) for k, v in params.items()}
    cases = decisions(4, 6)
    obs = np.stack([o for o, _ in cases])
    jl, jv = (np.asarray(x) for x in training.forward(jparams, jax.numpy.asarray(obs)))
    nl, nv = forward(params, obs)
    np.testing.assert_allclose(nl, jl, rtol=1e-4, atol=1e-3)
    np.testing.assert_allclose(nv, jv, rtol=1e-4, atol=1e-3)
    mask = np.zeros((len(cases), 486), bool)
    for i, (_, legal) in enumerate(cases):
        mask[i, legal] = True
    jax_moves = np.asarray(training.masked_logits(jax.numpy.asarray(jl), mask).argmax(1))
    numpy_moves = [legal[int(np.argmax(nl[i][legal]))] for i, (_, legal) in enumerate(cases)]
    assert list(jax_moves) == numpy_moves
    assert all(m in legal for m, (_, legal) in zip(numpy_moves, cases))


@pytest.mark.slow  # compiling the engine into the training loop takes about a minute here
def test_training_on_the_jax_engine(tmp_path):
    """A few updates of self-play on Mediatore itself (the default engine): deals finish,
    payments flow, the checkpoint is a network the numpy agent plays."""
    pytest.importorskip("mediatore_env.jaxgame")
    log = self_play(Config(envs=8, rollout=64, epochs=1, minibatches=2, hidden=(32,)),
                    Plan(steps=1024, eval_every=1024, eval_deals=2, pimc_deals=0,
                         final_deals=0, final_pimc_deals=0, out=str(tmp_path)), say=quiet)
    assert sum(t["deals"] for t in log["throughput"]) > 0
    assert log["throughput"][-1]["stake"] > 0
    agent = SelfPlayAgent(str(tmp_path / "network.npz"))
    assert run_tournament([agent, "greedy", "greedy", "greedy"], deals=2, seed=3).deals == 2


def test_an_evaluation_in_mediatore_says_how_often_the_network_declared():
    from agents.training import init_network
    from agents.training.evaluation import evaluate
    from mediatore_env.mediatore.rules import Rules
    params = init_network(jax.random.PRNGKey(0), (8,))
    out = evaluate(params, {"random": 2}, seed=1, rules=Rules(), jobs=1)["vs_random"]
    assert out["deals"] == 2 and 0 <= out["declarer_share"] <= 1
