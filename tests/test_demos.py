"""Demonstrations (agents/demos.py, examples/record_demos.py) of any game and imitation before
self-play (agents/training/imitation.py; examples/train_selfplay.py --demos)."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from agents import make_agent
from agents.demos import load_demos, record_deals
from agents.mediatore.tournament import HOOKS
from agents.registry import agents_of
from agents.tournament import derive_seed, hooks_of
from mediatore_env.core.game import CHANCE
from mediatore_env.mediatore.observation import Encoder
from mediatore_env.mediatore.game import Deal
from mediatore_env.mediatore.rules import Rules
from mediatore_env.registry import get

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))  # toy_jax_game
GREEDY = ["greedy"] * 4


@pytest.fixture(scope="module")
def demos_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("demos")
    record_deals(GREEDY, Rules(), 5, 0, 30, out / "demos-0000000.npz")
    record_deals(GREEDY, Rules(), 5, 30, 30, out / "demos-0000030.npz")
    return out


def assert_rows(demos, index: int, expected: list, outcome) -> None:
    """The rows of episode ``index`` are the decisions ``expected`` ((observation, legal moves,
    move, seat) each, in order), each with the seat's ``outcome``; float16 keeps the
    observation within 3e-4."""
    rows = np.flatnonzero(demos["deal"] == index)
    assert len(rows) == len(expected) > 0
    for r, (obs, legal, move, seat) in zip(rows, expected):
        assert demos["move"][r] == move and demos["seat"][r] == seat
        assert np.flatnonzero(demos["mask"][r]).tolist() == legal
        np.testing.assert_allclose(demos["obs"][r].astype(np.float32), obs, atol=3e-4)
        assert demos["payoff"][r] == outcome[seat]


def decisions(game, agents, encoders, pack=None) -> list:
    """Play ``game`` to its end with ``agents`` (one per seat), dealing ``pack(k)`` at its
    ``k``-th chance node (a Tressette hand; a Mediatore deal has none): the decisions a
    recorder keeps, as :func:`assert_rows` expects them, each seen through its seat's encoder."""
    expected, packs = [], 0
    while not game.is_over:
        if game.to_move == CHANCE:
            game.deal(pack(packs))
            packs += 1
            continue
        seat, view = game.to_move, game.view(game.to_move)
        obs = encoders[seat].encode(view).copy()
        move = agents[seat].act(None, view)
        if len(view.legal_moves()) > 1:
            expected.append((obs, sorted(view.legal_moves()), move, seat))
        game.apply(move)
    return expected


def test_demos_are_the_decisions_of_the_deals_as_played(demos_dir):
    """Each deal played again with the same agents and seeds makes the recorded moves, in
    order, at its decisions with more than one legal move; each was seen as its seat's
    observation showed it then, was legal, and carries the seat's payment at the end."""
    demos = load_demos(demos_dir)
    assert sorted(set(demos["deal"])) == list(range(60))
    for index in (0, 31, 59):
        deal = Deal(Rules(), HOOKS.dealer(index, 4), HOOKS.pack(5, index, 0))
        agents = [make_agent(s) for s in GREEDY]
        for s, agent in enumerate(agents):
            agent.reset(derive_seed(5, index, s))
        expected = decisions(deal, agents, [Encoder() for _ in range(4)])
        assert_rows(demos, index, expected, deal.payoffs)
    assert demos["mask"][np.arange(len(demos["move"])), demos["move"]].all()


def test_no_demos_is_a_clear_error(tmp_path):
    with pytest.raises(ValueError, match="no demonstrations in"):
        load_demos(tmp_path)


def test_record_demos_command_skips_written_shards(tmp_path):
    def run(*args):
        return subprocess.run([sys.executable, str(ROOT / "examples" / "record_demos.py"),
                               *args], capture_output=True, text=True)
    out = run("--agents", *GREEDY, "--deals", "6", "--shard", "3", "--workers", "1",
              "--out", str(tmp_path))
    assert out.returncode == 0, out.stderr
    assert sorted(p.name for p in tmp_path.glob("*.npz")) == ["demos-0000000.npz",
                                                             "demos-0000003.npz"]
    again = run("--agents", *GREEDY, "--deals", "6", "--shard", "3", "--workers", "1",
                "--out", str(tmp_path))
    assert again.returncode == 0 and again.stdout.startswith("0 deals recorded")
    bad = run("--agents", "greedy", "grody", "greedy", "greedy", "--out", str(tmp_path))
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "'grody'" in bad.stderr


@pytest.fixture(scope="module")
def tressette_dirs(tmp_path_factory):
    """Greedy at every seat: 3 Partnership Tressette games, 24 two-handed ones (two shards)."""
    out = {}
    for game, count in (("tressette", 3), ("tressette2", 24)):
        folder = out[game] = tmp_path_factory.mktemp(game)
        players = get(game).players
        half = count // 2
        record_deals(["greedy"] * players, None, 5, 0, half, folder / "demos-0000000.npz",
                     game=game)
        record_deals(["greedy"] * players, None, 5, half, count - half,
                     folder / f"demos-{half:07d}.npz", game=game)
    return out


@pytest.mark.parametrize("game", ["tressette2", "tressette"])
def test_tressette_demos_are_what_each_seat_saw(tressette_dirs, game):
    """Every recorded decision of a Tressette form, its games played again with the same agents,
    packs and seeds: the observation is the environments' (the incremental Encoder's, held
    equal to the JAX engine's) for that seat at that step, the move legal and the one made,
    the outcome the seat's at the end of the game to 31."""
    from mediatore_env.tressette.observation import Encoder as TressetteEncoder
    definition, hooks = get(game), hooks_of(game)
    demos = load_demos(tressette_dirs[game])
    assert str(demos["game"]) == game and demos["mask"].shape[1] == definition.moves.count
    n, rules = definition.players, definition.make_rules()
    for index in sorted(set(demos["deal"].tolist()))[:3]:
        g = definition.engine(rules, hooks.dealer(index, n))
        agents = [make_agent(s, agents_of(definition)) for s in ["greedy"] * n]
        for s, agent in enumerate(agents):
            agent.reset(derive_seed(5, index, s))
        expected = decisions(g, agents, [TressetteEncoder(rules, s) for s in range(n)],
                             lambda k, index=index: hooks.pack(5, index, k))
        assert_rows(demos, index, expected, g.outcome)
    assert demos["mask"][np.arange(len(demos["move"])), demos["move"]].all()


CHEAP_PIMC = "pimc:max_worlds=2,rollout_cards=200,nodes=20000"


def test_a_search_records_its_value_of_every_legal_move(tmp_path):
    """A PIMC seat's decisions carry the mean value it found for each card it could play (NaN
    elsewhere: the claim, which it decides by the totals, and illegal moves), the card played
    being the best of them (ties: the lowest id, as it plays); greedy's decisions carry none; a folder of greedy alone has no values at all, and a folder whose
    shards do not all have them drops them."""
    from mediatore_env.tressette.moves import CLAIM
    record_deals([CHEAP_PIMC, "greedy"], None, 8, 0, 1, tmp_path / "demos-0000000.npz",
                 game="tressette2")
    demos = load_demos(tmp_path)
    values, valued = demos["values"], np.isfinite(demos["values"])
    searched = valued.any(axis=1)
    assert not searched[demos["seat"] == 1].any() and searched.sum() > 20
    cards = demos["mask"] & (np.arange(demos["mask"].shape[1]) != CLAIM)
    assert (valued[searched] == cards[searched]).all()
    for row in np.flatnonzero(searched):
        best = np.flatnonzero(values[row] == np.nanmax(values[row]))[0]
        assert demos["move"][row] == best
    greedy = tmp_path / "greedy"
    greedy.mkdir()
    record_deals(["greedy"] * 2, None, 8, 1, 1, greedy / "demos-0000001.npz", game="tressette2")
    assert "values" not in load_demos(greedy)
    (tmp_path / "demos-0000001.npz").write_bytes((greedy / "demos-0000001.npz").read_bytes())
    assert "values" not in load_demos(tmp_path)


def test_a_folder_of_two_games_is_refused(tressette_dirs, demos_dir, tmp_path):
    for name, folder in (("a", demos_dir), ("b", tressette_dirs["tressette2"])):
        shard = sorted(folder.glob("*.npz"))[0]
        (tmp_path / f"demos-{name}0.npz").write_bytes(shard.read_bytes())
    with pytest.raises(ValueError, match="several games"):
        load_demos(tmp_path)


def test_record_demos_command_records_any_game(tmp_path):
    def run(*args):
        return subprocess.run([sys.executable, str(ROOT / "examples" / "record_demos.py"),
                               *args], capture_output=True, text=True)
    out = run("--game", "tressette2", "--agents", "greedy", "--deals", "2", "--workers", "1",
              "--out", str(tmp_path))
    assert out.returncode == 0 and out.stdout.endswith(f"2 games recorded in {tmp_path} "
                                                       "(shards already there were kept)\n")
    demos = load_demos(tmp_path)
    assert str(demos["game"]) == "tressette2" and demos["obs"].shape[1] == 2890
    for bad in (["--game", "tressette", "--agents", "greedy", "greedy"],
                ["--game", "tressette", "--rules", "low"],
                ["--game", "tressette2", "--agents", "greedy", "--advisor", "greedy"]):
        out = run(*bad, "--out", str(tmp_path))
        assert out.returncode == 2 and out.stderr.count("\n") == 1, out.stderr


# -- imitation -----------------------------------------------------------------------------------

jax = pytest.importorskip("jax")
pytest.importorskip("optax")
from agents.training import (Config, Plan, forward, imitate, init_network,  # noqa: E402
                             self_play)


def quiet(*args, **kwargs):
    pass


def test_imitation_learns_the_demonstrated_moves(demos_dir):
    """After imitating greedy on 57 deals, the network's most likely legal move is greedy's at
    about half the held-out decisions (3 deals held out), far more than before (a quarter)."""
    cfg = Config(hidden=(64,))
    params = init_network(jax.random.PRNGKey(0), cfg.hidden)
    demos = load_demos(demos_dir)
    _, before = imitate(params, demos, cfg, 1, 64, 1e-12, jax.random.PRNGKey(1), say=quiet)
    trained, history = imitate(params, demos, cfg, 8, 64, 3e-3, jax.random.PRNGKey(1),
                               say=quiet)
    assert [h["epoch"] for h in history] == list(range(1, 9))
    assert history[-1]["held_out_match"] > max(0.45, before[0]["held_out_match"] + 0.2), (
        before, history)
    with pytest.raises(ValueError, match="fewer than one minibatch"):
        imitate(params, demos, cfg, 1, 10**6, 1e-3, jax.random.PRNGKey(1))


@pytest.mark.slow  # 15-25 s on 2 cores: learning or search behaviour (-m slow)
def test_self_play_starts_from_the_imitated_network(demos_dir, tmp_path):
    """Plan.demos: the run imitates first, and the imitated network fills the opponent pool
    (its first slot keeps it for good)."""
    from toy_jax_game import ToyGame
    cfg = Config(envs=16, rollout=24, epochs=1, minibatches=2, hidden=(64,), pool_every=50)
    plan = Plan(steps=384, eval_every=384, eval_deals=2, pimc_deals=0, final_deals=0,
                final_pimc_deals=0, imitate_epochs=8, imitate_batch=64, imitate_lr=0.003,
                demos=str(demos_dir), out=str(tmp_path / "run"))
    log = self_play(cfg, plan, env=ToyGame(), say=quiet)
    assert len(log["imitation"]) == 8 and log["imitation_decisions"] > 1000
    with np.load(tmp_path / "run" / "checkpoint.npz") as f:
        pool = {k[5:]: f[k] for k in f.files if k.startswith("pool/")}
    assert all((v == v[:1]).all() for v in pool.values())  # every slot the imitated network
    demos = load_demos(demos_dir)
    first = {k: v[0] for k, v in pool.items()}
    logits = np.asarray(forward(first, demos["obs"].astype(np.float32))[0])
    chosen = np.where(demos["mask"], logits, -np.inf).argmax(1)
    assert (chosen == demos["move"]).mean() > 0.5  # it plays as greedy does, mostly
    with pytest.raises(ValueError, match="fewer than one minibatch") as e:
        self_play(cfg, replace(plan, imitate_batch=10**6, out=str(tmp_path / "r2")),
                  env=ToyGame(), say=quiet)
    assert e.value.setting == "demos" and not (tmp_path / "r2").exists()


def test_imitation_lowers_the_loss_on_two_handed_tressette(tressette_dirs):
    """Imitating greedy on 22 two-handed games (2 held out) lowers the held-out cross-entropy of
    greedy's moves and matches more of them than the untrained network."""
    cfg = Config(hidden=(64,), game="tressette2")
    demos = load_demos(tressette_dirs["tressette2"])
    params = init_network(jax.random.PRNGKey(0), cfg.hidden, demos["obs"].shape[1],
                          demos["mask"].shape[1])
    _, before = imitate(params, demos, cfg, 1, 64, 1e-12, jax.random.PRNGKey(1), say=quiet)
    _, history = imitate(params, demos, cfg, 6, 64, 3e-3, jax.random.PRNGKey(1), say=quiet)
    assert history[-1]["held_out_loss"] < 0.9 * before[0]["held_out_loss"], (before, history)
    assert history[-1]["held_out_match"] > before[0]["held_out_match"] + 0.15, (before, history)


def test_value_targets_share_out_the_search_values():
    """softmax(values / T) over the moves valued, worked by hand; a decision with no values
    (a seat that did not search) targets its move alone."""
    from agents.training.imitation import value_targets
    values = np.full((3, 4), np.nan, np.float32)
    values[0, [1, 2]] = [6, 0]      # a point apart (six thirds, two-handed): e / (1 + e) at T 6
    values[2, [0, 3]] = [5, 5]      # alike: half each, whatever the move played
    targets = value_targets(values, np.array([2, 3, 3]), 6.0)
    e = np.e / (1 + np.e)
    np.testing.assert_allclose(targets, [[0, e, 1 - e, 0], [0, 0, 0, 1], [0.5, 0, 0, 0.5]],
                               rtol=1e-6)


def test_an_advisor_values_the_moves_that_greedy_plays(tmp_path):
    """record_demos' --advisor: greedy plays every move (the same games as without an
    advisor), and each decision carries pimc's values, greedy's own move among them."""
    (tmp_path / "a").mkdir(), (tmp_path / "b").mkdir()
    record_deals(["greedy"] * 2, None, 8, 0, 1, tmp_path / "a" / "demos-0000000.npz",
                 game="tressette2", advisor=CHEAP_PIMC)
    record_deals(["greedy"] * 2, None, 8, 0, 1, tmp_path / "b" / "demos-0000000.npz",
                 game="tressette2")
    advised, plain = load_demos(tmp_path / "a"), load_demos(tmp_path / "b")
    for key in ("obs", "move", "seat", "payoff"):
        np.testing.assert_array_equal(advised[key], plain[key])
    valued = np.isfinite(advised["values"])
    assert valued.any(axis=1).mean() > 0.9
    assert valued[np.flatnonzero(valued.any(axis=1)), advised["move"][valued.any(axis=1)]].all()
    with pytest.raises(ValueError, match="advisor 'greedy' does not search worlds"):
        record_deals(["greedy"] * 2, None, 8, 0, 1, tmp_path / "c.npz", game="tressette2",
                     advisor="greedy")


def test_corrected_moves_follow_the_values_past_the_margin():
    """The move played stays unless the values put another more than the margin above it; a
    move without a value (a decision not searched, the claim) stays."""
    from agents.training.imitation import corrected_moves
    values = np.full((4, 5), np.nan, np.float32)
    values[0, [0, 1, 2]] = [3, 9, 1]   # 2 played, 1 is 8 above: corrected
    values[1, [0, 1]] = [3, 4]         # 0 played, 1 is 1 above: within the margin
    values[3, [2, 4]] = [5, 5]         # 4 played, as good as any
    np.testing.assert_array_equal(corrected_moves(values, np.array([2, 0, 3, 4]), 1.0),
                                  [1, 0, 3, 4])
    np.testing.assert_array_equal(corrected_moves(values, np.array([2, 0, 3, 4]), 0.5),
                                  [1, 1, 3, 4])


def test_imitating_values_wants_demonstrations_with_values(tressette_dirs, tmp_path):
    """--imitate-temperature or --imitate-margin on greedy's demonstrations (no values): one
    SettingError naming --demos before anything is compiled or written; the two together are
    refused too."""
    cfg = Config(envs=16, rollout=24, epochs=1, minibatches=2, hidden=(64,), game="tressette2")
    plan = Plan(steps=384, demos=str(tressette_dirs["tressette2"]), imitate_temperature=3.0,
                out=str(tmp_path / "r"))
    with pytest.raises(ValueError, match="hold no move values") as e:
        self_play(cfg, plan, say=quiet)
    assert e.value.setting == "demos" and not (tmp_path / "r").exists()
    with pytest.raises(ValueError, match="hold no move values") as e:
        self_play(cfg, replace(plan, imitate_temperature=None, imitate_margin=1.0), say=quiet)
    assert e.value.setting == "demos" and not (tmp_path / "r").exists()
    with pytest.raises(ValueError, match="hold no move values"):
        imitate({}, load_demos(tressette_dirs["tressette2"]), cfg, 1, 64, 1e-3,
                jax.random.PRNGKey(0), temperature=3.0)
    from agents.training.imitation import check_targets
    with pytest.raises(ValueError, match="not both"):
        check_targets({"values": np.zeros((1, 41), np.float32)}, 3.0, 1.0)


def test_self_play_refuses_demonstrations_of_another_game(tressette_dirs, tmp_path):
    """--demos of two-handed games for a Partnership run, or a network that does not fit:
    one SettingError naming the setting, nothing written."""
    from toy_jax_game import ToyGame
    cfg = Config(envs=16, rollout=24, epochs=1, minibatches=2, hidden=(64,), game="tressette")
    plan = Plan(steps=384, demos=str(tressette_dirs["tressette2"]), out=str(tmp_path / "r"))
    with pytest.raises(ValueError, match="demonstrations of tressette2, not of tressette .*"
                       "--game tressette") as e:
        self_play(cfg, plan, say=quiet)
    assert e.value.setting == "demos" and not (tmp_path / "r").exists()
    cfg = Config(envs=16, rollout=24, epochs=1, minibatches=2, hidden=(64,), game="tressette2")
    with pytest.raises(ValueError, match="2890 and 41 wide, the network's 2132") as e:
        self_play(cfg, plan, env=ToyGame(), say=quiet)
    assert e.value.setting == "demos" and not (tmp_path / "r").exists()
