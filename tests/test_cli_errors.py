"""Every command-line tool answers bad arguments as a new user meets them with one line on
stderr naming what was wrong, exit status 2 and no traceback, and checks what it will write
before the work starts (mediatore_env/tools/checks.py)."""

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from mediatore_env.tools import checks
from mediatore_env.tools.play import main as play_main
from mediatore_env.tools.replay import main as replay_main
from mediatore_env.tools.tables import main as tables_main

ROOT = Path(__file__).resolve().parent.parent
RECORDS = ROOT / "tests" / "data" / "records_0_1.json"


def one_line_error(capsys, run, *words):
    """Run ``run()``; the exit status (returned or raised) must be 2 and stderr one line naming
    ``words``, without a traceback. Returns stdout."""
    try:
        status = run()
    except SystemExit as e:
        status = e.code
    out, err = capsys.readouterr()
    assert status == 2, (status, err)
    assert err.count("\n") == 1 and err.endswith("\n"), err
    assert "Traceback" not in err + out
    for word in words:
        assert word in err, (word, err)
    return out


@pytest.fixture
def files(tmp_path):
    """A file, a folder, a non-JSON text, JSON that is not a record, a record of another game."""
    (tmp_path / "plain.txt").write_text("hello\n")
    (tmp_path / "folder").mkdir()
    (tmp_path / "other.json").write_text('{"cards": 40}\n')
    (tmp_path / "empty.json").write_text("[]\n")
    (tmp_path / "binary.json").write_bytes(bytes(range(256)))
    (tmp_path / "deep.json").write_text("[" * 100_000 + "]" * 100_000)  # past json's recursion
    record = json.loads(RECORDS.read_text())["records"][0]
    (tmp_path / "game.json").write_text(json.dumps(record))
    (tmp_path / "chess.json").write_text(json.dumps({**record, "format": "chess-record"}))
    moves = record["moves"][:-1] + [{**record["moves"][-1], "move": "bid solo"}]
    (tmp_path / "tampered.json").write_text(json.dumps({**record, "moves": moves}))
    np.savez(tmp_path / "numbers.npz", x=np.arange(3))
    (tmp_path / "nothing.npz").write_bytes(b"")
    np.save(tmp_path / "one.npy", np.arange(3))
    np.savez(tmp_path / "no-packs.npz", meta=np.array(json.dumps(
        {"format": "mediatore-tables", "version": 1, "rules": {}})))
    (tmp_path / "meta-text.json").write_text(json.dumps({**record, "meta": "anna"}))
    return tmp_path


# -- the shared checks -----------------------------------------------------------------------------

def test_number_checks():
    assert checks.positive_int("3") == 3 and checks.non_negative_int("0") == 0
    assert checks.probability("0.25") == 0.25
    for check, text, words in [(checks.positive_int, "0", "must be 1 or more, not 0"),
                               (checks.positive_int, "x", "not a whole number: 'x'"),
                               (checks.non_negative_int, "-3", "must be 0 or more, not -3"),
                               (checks.probability, "1.5", "between 0 and 1")]:
        with pytest.raises(argparse.ArgumentTypeError, match=words):
            check(text)


def test_path_checks(files):
    assert checks.output_file(str(files / "new.json")) == str(files / "new.json")
    assert checks.output_dir(str(files / "a" / "b")) == str(files / "a" / "b")  # created later
    assert checks.input_file(str(files / "plain.txt")) == str(files / "plain.txt")
    for check, path, words in [
            (checks.output_file, files / "missing" / "x.json", "does not exist"),
            (checks.output_file, files / "folder", "is a folder, not a file"),
            (checks.output_file, files / "plain.txt" / "x.json", "is not a folder"),
            (checks.output_dir, files / "plain.txt", "is a file, not a folder"),
            (checks.output_dir, files / "plain.txt" / "sub", "cannot create the folder"),
            (checks.input_file, files / "nope.json", "no such file"),
            (checks.input_file, files / "folder", "is a folder")]:
        with pytest.raises(argparse.ArgumentTypeError, match=words):
            check(str(path))
    for check in (checks.output_file, checks.output_dir, checks.input_file):
        with pytest.raises(argparse.ArgumentTypeError, match="'' is an empty path"):
            check("")  # not the current folder, nor the option left out


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write anywhere")
def test_unwritable_folder(files):
    locked = files / "locked"
    locked.mkdir(mode=0o500)
    with pytest.raises(argparse.ArgumentTypeError, match="cannot write in the folder"):
        checks.output_file(str(locked / "x.json"))


# -- mediatore-play ----------------------------------------------------------------------------------

@pytest.mark.parametrize("args,words", [
    (["--agents", "nosuch"], ["unknown agent 'nosuch'", "greedy"]),
    (["--rule", "colour=red"], ["unknown rules switch 'colour'", "signals"]),
    (["--rule", "signals=loud"], ["bad value 'loud'", "no_striscio"]),
    (["--rule", "signals"], ["write name=value"]),
    (["--preset", "fast"], ["invalid choice: 'fast'", "standard"]),
    (["--deals", "0"], ["--deals: must be 1 or more, not 0"]),
    (["--deals", "-2"], ["--deals: must be 1 or more, not -2"]),
    (["--seed", "-3"], ["--seed: must be 0 or more, not -3"]),
    (["--deal", "-1"], ["--deal: must be 0 or more, not -1"]),
    (["--seat", "4"], ["--seat: invalid choice: 4"]),
    (["--agents", "agents.ppo_agent:PPOAgent:path=nope.zip"], ["no saved model at 'nope.zip'"]),
    (["--game", "tressette2", "--agents", "agents.mediatore.greedy:GreedyAgent"],
     ["(GreedyAgent) at seat 1 is written for another game", "mediatore.view.SeatView",
      "tressette.view.TressetteView"]),
])
def test_play_bad_arguments(args, words, capsys):
    asked = []
    out = one_line_error(capsys, lambda: play_main(args, ask=asked.append, out=sys.stdout), *words)
    assert not asked and not out  # refused before the first deal
    assert ".zip.zip" not in out


@pytest.mark.parametrize("where,words", [("missing/game.json", "the folder"),
                                         ("folder", "is a folder"),
                                         ("plain.txt/game.json", "is not a folder")])
def test_play_checks_the_save_path_before_the_deal(files, where, words, capsys):
    asked = []
    out = one_line_error(capsys, lambda: play_main(["--save", str(files / where)], ask=asked.append,
                                                   out=sys.stdout), "--save", words)
    assert not asked and not out


def test_play_negative_seed_as_a_program():
    """The issue's case: a numpy traceback before; now the one line, from the real program."""
    proc = subprocess.run([sys.executable, "-m", "mediatore_env.tools.play", "--seed", "-3"],
                          input="", capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr == ("mediatore-play: error: argument --seed: must be 0 or more, not -3 "
                           "(see mediatore-play --help)\n")


# -- mediatore-replay and python -m mediatore_env replay -------------------------------------------

@pytest.mark.parametrize("name,words", [
    ("nope.json", "no such file"),
    ("folder", "no .json files in this folder"),
    ("plain.txt", "not JSON"),
    ("binary.json", "not a game record (not a text file)"),
    ("deep.json", "not a game record (its JSON is nested too deeply)"),
    ("other.json", "not a game record: format is None"),
    ("empty.json", "no game record in it"),
    ("chess.json", "format is 'chess-record'"),
    ("tampered.json", "not a valid game record"),
    ("meta-text.json", "its meta must be a JSON object"),
])
@pytest.mark.parametrize("main", [replay_main, None], ids=["mediatore-replay", "python -m"])
def test_replay_bad_files(files, name, words, main, capsys):
    from mediatore_env.__main__ import main as module_main
    run = (lambda: main([str(files / name)])) if main else \
        (lambda: module_main(["replay", str(files / name)]))
    one_line_error(capsys, run, str(files / name), words)


def test_replay_bad_options(files, capsys):
    game = str(files / "game.json")
    assert replay_main([game, "--all"], out=sys.stdout) == 0  # the file itself is good
    assert "the result" in capsys.readouterr().out
    one_line_error(capsys, lambda: replay_main([game, "--seat", "5"]), "--seat")
    one_line_error(capsys, lambda: replay_main([game, "--cards", "klingon"]), "--cards")
    one_line_error(capsys, lambda: replay_main([]), "required: RECORD")
    one_line_error(capsys, lambda: replay_main([""]), "an empty path")  # not the current folder


def test_module_bad_command(capsys):
    from mediatore_env.__main__ import main as module_main
    one_line_error(capsys, lambda: module_main(["frob"]), "invalid choice: 'frob'", "replay")
    one_line_error(capsys, lambda: module_main([]), "required: command")


# -- mediatore-tables --------------------------------------------------------------------------------

@pytest.mark.parametrize("args,words", [
    (["build", "--deals", "0"], ["--deals: must be 1 or more"]),
    (["build", "--jobs", "0"], ["--jobs: must be 1 or more"]),
    (["build", "--seed", "-1"], ["--seed: must be 0 or more"]),
    (["build", "--start", "-1"], ["--start: must be 0 or more"]),
    (["build", "--preset", "fast"], ["invalid choice: 'fast'"]),
    (["build", "--out", "{tmp}/missing/t.npz"], ["--out", "does not exist"]),
    (["build", "--out", "{tmp}/folder"], ["--out", "is a folder"]),
    (["show", "{tmp}/nope.npz"], ["no such file"]),
    (["show", "{tmp}/plain.txt"], ["not a table written by mediatore-tables build"]),
    (["show", "{tmp}/other.json"], ["not a table written by mediatore-tables build"]),
    (["show", "{tmp}/numbers.npz"], ["not a Mediatore contract table"]),
    (["show", "{tmp}/folder"], ["is a folder"]),
    (["show", "{tmp}/nothing.npz"], ["not a table written by mediatore-tables build"]),
    (["show", "{tmp}/one.npy"], ["one array, not an .npz"]),
    (["show", "{tmp}/no-packs.npz"], ["not a Mediatore contract table (no packs, dealers, calls, made, thirds in it)"]),
    (["frob"], ["invalid choice: 'frob'"]),
])
def test_tables_bad_arguments(files, args, words, capsys):
    argv = [a.format(tmp=files) for a in args]
    if argv[0] == "build" and "--out" not in argv:
        argv += ["--out", str(files / "t.npz")]
    out = one_line_error(capsys, lambda: tables_main(argv), *words)
    assert not out and not (files / "t.npz").exists()  # nothing built


def test_tables_deal_out_of_range(tmp_path, capsys):
    path = str(tmp_path / "t")  # numpy adds .npz; the tool says so
    assert tables_main(["build", "--deals", "1", "--values", "made", "--quiet", "--out", path]) == 0
    assert f"wrote {path}.npz" in capsys.readouterr().out
    one_line_error(capsys, lambda: tables_main(["show", path + ".npz", "--deal", "3"]),
                   "no deal 3", "deals 0 to 0")
    one_line_error(capsys, lambda: tables_main(["show", path + ".npz", "--deal", "-1"]),
                   "must be 0 or more")


# -- PPOAgent, benchmarks and examples -------------------------------------------------------------

def test_ppo_agent_names_the_missing_model_without_torch():
    code = ("import sys\nfrom agents.ppo_agent import PPOAgent\n"
            "try:\n    PPOAgent(path='runs/none/model')\nexcept ValueError as e:\n    print(e)\n"
            "print('torch' in sys.modules)\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, cwd=ROOT)
    message, torch_loaded = proc.stdout.splitlines()
    assert "no saved model at 'runs/none/model'" in message and ".zip.zip" not in message
    assert torch_loaded == "False"


def script(*args):
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, timeout=120,
                          cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})


@pytest.mark.parametrize("args,words", [
    (["benchmarks/bench_engine.py", "--seed", "-3"], "--seed: must be 0 or more"),
    (["benchmarks/bench_env.py", "--episodes", "0"], "--episodes: must be 1 or more"),
    (["benchmarks/bench_observation.py", "--preset", "fast"], "invalid choice: 'fast'"),
    (["benchmarks/bench_solver.py", "--deals", "0"], "--deals: must be 1 or more"),
    (["benchmarks/bench_jax_observe.py", "--batch", "0"], "--batch: must be 1 or more"),
    (["benchmarks/bench_jax_reset.py", "--game", "chess"], "invalid choice: 'chess'"),
    (["benchmarks/bench_pimc.py", "--pimc", "nosuch"], "unknown agent 'nosuch'"),
    (["benchmarks/bench_agreement.py", "nosuch"], "unknown agent 'nosuch'"),
    (["benchmarks/bench_budgets.py", "greedy", "nosuch", "--episodes", "1"],
     "unknown agent 'nosuch'"),
    (["benchmarks/bench_budgets.py", "greedy", "--opponent", "pimc:x=1", "--episodes", "1"],
     "cannot make agent 'pimc:x=1'"),
    (["benchmarks/bench_agreement.py", "--game", "mediatore"], "invalid choice: 'mediatore'"),
    (["benchmarks/bench_pimc.py", "--json", "missing/out.json"], "--json"),
    (["examples/play_trained.py", "runs/none/model.zip"], "no saved model at 'runs/none/model.zip'"),
    (["-m", "agents.training.infer", "--deals", "2"], "need --deals of 5 or more"),
    (["-m", "agents.mediatore.calibrate", "--packs", "0"], "need --packs and --jobs of 1 or more"),
    (["-m", "agents.mediatore.calibrate", "--seed", "-1"], "--seed >= 0; got 2000, 1, -1"),
    (["-m", "agents.mediatore.calibrate", "--agent", "nosuch"], "--agent: unknown agent 'nosuch'"),
    (["-m", "agents.mediatore.calibrate", "--load", "missing.npz"],
     "--load missing.npz: not the games --save writes (FileNotFoundError"),
    (["-m", "agents.mediatore.calibrate", "--colour", "red"], "unrecognized arguments: --colour"),
    (["-m", "agents.training.infer", "--deals", "many"], "--deals: invalid int value"),
    (["-m", "mediatore_env.tools.bench", "--agents", "greedy", "--progress", "-q"],
     "--quiet/-q: not allowed with argument --progress"),
])
def test_scripts_bad_arguments(args, words):
    proc = script(*args)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
    assert proc.stderr.count("\n") == 1 and words in proc.stderr, proc.stderr
    assert proc.stdout == ""


def test_bench_infer_pools_one_game_and_refuses_to_mix_deals_with_games(tmp_path):
    def result(name, key, values):
        path = tmp_path / name
        path.write_text(json.dumps({"standings": [{"name": "pimc", key: values}]}))
        return f"{path}:pimc"
    deals, more = result("a.json", "per_deal", [1, 3]), result("b.json", "per_deal", [2])
    proc = script("benchmarks/bench_infer.py", "--pooled", deals, more)
    assert proc.returncode == 0 and "+2.00" in proc.stdout and "3 deals" in proc.stdout
    games = result("c.json", "per_game", [1, -1])
    proc = script("benchmarks/bench_infer.py", "--pooled", deals, games)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1, proc.stderr
    assert "cannot pool deals with games" in proc.stderr and proc.stdout == ""
    proc = script("benchmarks/bench_infer.py", "--paired", deals, games)  # the same length
    assert proc.returncode == 2 and "cannot pool deals with games" in proc.stderr, proc.stderr
    proc = script("benchmarks/bench_infer.py", "--paired", deals, deals, more, more)
    assert proc.returncode == 0 and "2 pairs pooled: +0.00" in proc.stdout, proc.stdout
    base = result("d.json", "per_deal", [0, 1])
    proc = script("benchmarks/bench_infer.py", "--paired", deals, base)
    assert proc.returncode == 0 and "+1.50" in proc.stdout and "2 deals" in proc.stdout
    proc = script("benchmarks/bench_infer.py", "--paired", deals, base, more)
    assert proc.returncode == 2 and "--paired takes pairs" in proc.stderr and proc.stdout == ""
    assert "got 3 files" in proc.stderr
    proc = script("benchmarks/bench_infer.py", "--paired", deals)
    assert proc.returncode == 2 and "got 1 file (" in proc.stderr, proc.stderr


@pytest.mark.parametrize("text,words", [
    ("[]", "not a tournament result as mediatore-bench --json saves it"),
    ('{"standings": 5}', "not a tournament result"),
    ('{"standings": [{"games": 3}]}', "not a tournament result"),
    ('{"standings": [{"name": "pimc"}]}', "agent 'pimc' has no per-episode results"),
    ("[" * 100_000 + "]" * 100_000, "not a tournament result (its JSON is nested too deeply)"),
    ("", "not JSON (Expecting value"),
], ids=["list", "standings-number", "no-name", "no-results", "deep", "empty"])
def test_bench_infer_names_a_file_that_is_no_tournament_result(tmp_path, text, words):
    path = tmp_path / "r.json"
    path.write_text(text)
    proc = script("benchmarks/bench_infer.py", "--pooled", f"{path}:pimc")
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
    assert proc.stderr.count("\n") == 1 and f"{path}: " in proc.stderr, proc.stderr
    assert words in proc.stderr and proc.stdout == ""


@pytest.mark.parametrize("records,out,words", [
    ('{"a": 1}\n', "w.npz", "not deals recorded by this command (KeyError: 'dealer')"),
    ("not json\n", "w.npz", "not deals recorded by this command (JSONDecodeError"),
    ("", "w.npz", "0 deals; the fit needs 5 or more"),
    (None, "w.npz", "is a folder, not the file of recorded deals"),
    ("", ".", "not a file in a folder that exists"),
    ("", "missing/w.npz", "not a file in a folder that exists"),
], ids=["other-json", "not-json", "empty", "folder", "out-folder", "out-missing"])
def test_infer_names_bad_records_and_a_bad_out_in_one_line(tmp_path, records, out, words):
    """A records file it did not write was a traceback (a KeyError, a ZeroDivisionError for
    too few deals), and --out a folder one after the whole fit."""
    path = tmp_path / "records.jsonl"
    path.mkdir() if records is None else path.write_text(records)
    proc = script("-m", "agents.training.infer", "--records", str(path),
                  "--out", str(tmp_path / out), "--quiet")
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
    assert proc.stderr.count("\n") == 1 and words in proc.stderr, proc.stderr
    assert proc.stdout == "" and not (tmp_path / "w.npz").exists()


def test_bench_agreement_counts_greedy_agreeing_with_itself_and_not_with_random():
    """The model pimc:infer weighs worlds by agrees with itself at every decision with a
    choice, and with a random player far less often."""
    proc = script("benchmarks/bench_agreement.py", "greedy", "--game", "tressette2",
                  "--games", "1", "--seed", "3")
    assert proc.returncode == 0, proc.stderr
    assert "all" in proc.stdout and "same card at 100.0%" in proc.stdout.splitlines()[-1]
    proc = script("benchmarks/bench_agreement.py", "random", "--game", "tressette2",
                  "--games", "1", "--seed", "3")
    share = float(proc.stdout.splitlines()[-1].split(" at ")[1].rstrip("%"))
    assert proc.returncode == 0 and 0 < share < 70


def test_bench_env_compare_names_what_is_missing():
    """texas_holdem_v4 needs rlcard and pygame: the error names the one really missing, before
    any timing."""
    import importlib.util
    missing = [m for m in ("pettingzoo", "rlcard", "pygame") if importlib.util.find_spec(m) is None]
    proc = script("benchmarks/bench_env.py", "--compare", "--episodes", "3", "--repeat", "1")
    if not missing:
        assert proc.returncode == 0 and "texas_holdem_v4.env()" in proc.stdout
        return
    assert proc.returncode == 2 and proc.stdout == "", proc.stderr
    assert proc.stderr.count("\n") == 1
    named = proc.stderr.partition("--compare needs the package '")[2].partition("'")[0]
    assert named in missing, proc.stderr


@pytest.mark.parametrize("parser", [
    "bench:build_parser", "play:build_parser", "replay:build_parser"])
def test_help_texts_print_as_written(parser):
    """argparse %-formats the help of each option but not the description or epilog (unless they
    name %(prog)s): a ``%%`` written there to escape a percent sign prints as ``%%``."""
    import importlib
    module, function = parser.split(":")
    text = getattr(importlib.import_module(f"mediatore_env.tools.{module}"), function)().format_help()
    assert "%%" not in text and "%(" not in text, text


# -- each game's own options -------------------------------------------------------------------

GENERIC_WORDS = {"deals", "low", "claim"}  # switch names that are also words of every help


@pytest.mark.parametrize("tool", ["bench", "play"])
@pytest.mark.parametrize("game", ["mediatore", "tressette", "tressette3", "tressette2", "club"])
def test_a_games_help_lists_its_own_options_and_not_the_others(capsys, tool, game):
    import importlib
    import re

    from mediatore_env.registry import GAMES
    main = importlib.import_module(f"mediatore_env.tools.{tool}").main
    with pytest.raises(SystemExit) as e:
        main(["--game", game, "--help"])
    assert e.value.code == 0
    text = " ".join(capsys.readouterr().out.split())  # argparse's wrapping undone
    own = checks.rule_switches(game)
    assert all(re.search(rf"\b{name}\b", text) for name in own), text
    others = {name for other in GAMES for name in checks.rule_switches(other)}
    for name in others - set(own) - GENERIC_WORDS:
        assert not re.search(rf"\b{name}\b", text), (name, text)
    presets = list(GAMES[game].rules.PRESETS)
    assert ("--preset" in text) == bool(presets) and all(p in text for p in presets)
    assert ("--ante" in text) == ("--session-deals" in text) == (game == "club")
    assert ("--bidding" in text) == ("--plot" in text) == (tool == "bench" and game == "mediatore")
    if tool == "play":
        seats = ",".join(map(str, range(GAMES[game].players)))
        assert f"--seat {{{seats}}}" in text


@pytest.mark.parametrize("tool,args,words", [
    ("play", ["--game", "tressette3", "--ante", "3"],
     ["--ante sets the 'ante' switch of club, not a switch of tressette3",
      "the options of tressette3: --game, --agents, --seat, --rule"]),
    ("play", ["--game", "tressette", "--session-deals", "2"], ["switch of club", "--rule"]),
    ("play", ["--game", "tressette2", "--session", "2"], ["--session is club's word for --deal",
                                                          "--deal, --deals"]),
    ("bench", ["--game", "club", "--agents", *["random"] * 4, "--preset", "low"],
     ["club has no rules presets", "the options of club:", "--ante, --session-deals"]),
    ("bench", ["--game", "tressette", "--agents", *["random"] * 4, "--ante", "3"],
     ["--ante sets the 'ante' switch of club", "the options of tressette: --game, --agents"]),
    ("bench", ["--game", "club", "--bidding", "a", "b"], ["club has no auction", "--agents"]),
    # --player is the player the bidding policies share: alone it would be ignored
    ("bench", ["--agents", *["random"] * 4, "--player", "pimc"], ["--player goes with --bidding"]),
    ("bench", ["--bidding", "greedy", "bold", "--player", "random"],
     ["the player 'random' takes no bidding policy (its options: bid_rate, seed)"]),
    ("bench", ["--bidding", "greedy", "nobody"], ["unknown bidding policy 'nobody'"]),
    ("bench", ["--agents", *["random"] * 4, "--colour", "red"],
     ["unrecognized arguments: --colour red"]),
    # a switch whose value wants another changed too is the rules' to explain, not unknown
    ("bench", ["--agents", *["random"] * 4, "--rule", "schedule=low"],
     ["the low schedule has no Arcisolissimo: use schedule='low' with arcisolissimo=False"]),
    ("bench", ["--game", "tressette", "--agents", *["random"] * 4, "--rule", "show_draws=no"],
     ["unknown rules switch 'show_draws' of tressette; valid: low, claim"]),
])
def test_another_games_option_is_one_line_naming_the_games_own(capsys, tool, args, words):
    import importlib
    main = importlib.import_module(f"mediatore_env.tools.{tool}").main
    one_line_error(capsys, lambda: main(args), *words)
