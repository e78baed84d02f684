"""What every long run does the same way (mediatore_env/runinfo.py): a progress bar from tqdm,
on stderr, off where stderr is not a terminal unless asked."""

from __future__ import annotations

import os

from agents.tournament import run_tournament
from mediatore_env import runinfo
from mediatore_env.tools.bench import main as bench_main


# -- progress ---------------------------------------------------------------------------------------

def test_progress_bars_come_from_tqdm_on_stderr_when_asked(capsys):
    from tqdm.auto import tqdm
    bar = runinfo.progress_bar(3, "deals")
    assert isinstance(bar, tqdm)  # the auto form: a widget in a notebook
    bar.close()
    capsys.readouterr()
    run_tournament(["random"] * 4, deals=4, seed=1, progress=True)
    out, err = capsys.readouterr()
    assert "/4 deals" in err and out == ""  # the bar (it draws at most ten times a second)
    run_tournament(["random"] * 4, deals=4, seed=1)
    assert capsys.readouterr() == ("", "")
    done = []
    run_tournament(["random"] * 4, deals=4, seed=1, progress=done.append)
    assert sum(done) == 4


def test_a_league_shows_one_bar_over_all_its_pairs(capsys):
    from agents.league import run_league
    agents = ["random", "greedy", "random:bid_rate=0.5"]  # three pairs
    done = []
    run_league("mediatore", agents, episodes=2, seed=1, progress=done.append)
    assert sum(done) == 6
    run_league("mediatore", agents, episodes=2, seed=1, progress=True)
    err = capsys.readouterr().err
    assert "/6 deals" in err and "/2 deals" not in err


def test_commands_show_the_bar_on_a_terminal_or_when_asked(capsys):
    lineup = ["--agents", "random", "random", "random", "random", "--deals", "3"]
    assert bench_main(lineup) == 0
    assert capsys.readouterr().err == ""  # stderr is not a terminal here
    assert bench_main([*lineup, "--progress"]) == 0
    assert "/3 deals" in capsys.readouterr().err
    assert runinfo.wants_progress(None, stream=open(os.devnull)) is False
    assert runinfo.wants_progress(True) and not runinfo.wants_progress(False)
