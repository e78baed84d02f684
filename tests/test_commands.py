"""What every command does the same way (mediatore_env/runinfo.py): Ctrl-C ends it with one line
and exit status 130 (SIGTERM: 143), sent to real processes; worker processes no more than the
work and the cores can use, with a line when --jobs is lowered, that end with the run however
it ends, leaving no worker and no semaphore behind; and a progress bar from tqdm, on stderr,
off where stderr is not a terminal unless asked."""

from __future__ import annotations

import json
import multiprocessing
import os
import pty
import re
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from agents.tournament import run_tournament
from mediatore_env import runinfo
from mediatore_env.mediatore.tables import build_table
from mediatore_env.runinfo import command, cores, jobs_note, worker_count
from mediatore_env.tools.bench import main as bench_main

ROOT = Path(__file__).resolve().parent.parent
RECORDS = ROOT / "tests" / "data" / "records_0_1.json"


# -- real processes -------------------------------------------------------------------------------

def script(module: str) -> list[str]:
    """How a console script starts: its module's ``main``, from a folder that is not the
    checkout (``-c`` puts only the current folder, a temporary one, on sys.path)."""
    return ["-c", f"import sys\nfrom {module} import main\nsys.exit(main())\n"]


def start(args: list[str], cwd: Path) -> subprocess.Popen:
    """A command in a session of its own (so that a signal can go to its whole process group,
    as a terminal's Ctrl-C does), its stdin a terminal (so that the interactive tools wait at
    their prompts), stdout and stderr read here. Ctrl-C is restored to Python's default: a
    test runner in the background may have left it ignored."""
    master, slave = pty.openpty()
    run = subprocess.Popen([sys.executable, *args], cwd=cwd, stdin=slave, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, start_new_session=True,
                           env={**os.environ, "PYTHONPATH": str(ROOT)},
                           preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    os.close(slave)
    run.terminal = master
    return run


def wait_for(run: subprocess.Popen, pattern: str, stream: str = "stderr",
             timeout: float = 180) -> str:
    """Read ``stream`` until ``pattern`` (a regular expression) turns up: the command is at
    work. Returns what was read."""
    pipe = getattr(run, stream)
    seen, deadline = b"", time.monotonic() + timeout
    while not re.search(pattern, seen.decode(errors="replace")):
        assert time.monotonic() < deadline and run.poll() is None, (
            f"{pattern!r} never came; {stream}: {seen[-2000:]!r}")
        if select.select([pipe], [], [], 1)[0]:
            seen += os.read(pipe.fileno(), 65536)
    return seen.decode(errors="replace")


def settle(pid: int, timeout: float = 10) -> None:
    """Wait until process ``pid`` sleeps (seen three times running), as a program waiting at a
    prompt does. Python answers a signal between two steps of its own code: one caught in the
    instant between a prompt's printing and the read that waits for the answer is answered
    only when the read returns, and no person types Ctrl-C in that instant, but a test can."""
    deadline, asleep = time.monotonic() + timeout, 0
    while asleep < 3 and time.monotonic() < deadline:
        state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
        asleep = asleep + 1 if state == "S" else 0
        time.sleep(0.1)


def stop(run: subprocess.Popen, sig=signal.SIGINT, group: bool = True) -> tuple[int, str, str]:
    """Send ``sig`` (to the whole process group, as Ctrl-C does, or to the command alone, as
    ``kill`` and ``timeout`` do) and wait for the end: the status, and what came on stdout and
    stderr after the signal (after every process holding them let go: the workers, the fork
    server, the resource tracker, which warns of leaked semaphores there)."""
    try:
        (os.killpg if group else os.kill)(run.pid, sig)
        out, err = run.communicate(timeout=90)
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
        os.close(run.terminal)
    return run.returncode, out.decode(errors="replace"), err.decode(errors="replace")


def group_left(pgid: int, timeout: float = 20) -> list[str]:
    """The processes of group ``pgid`` still running after ``timeout`` s (zombies waiting to
    be reaped do not count): a worker or a fork server that outlived its command."""
    deadline = time.monotonic() + timeout
    while True:
        left = []
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                fields = stat.read_text().rpartition(")")[2].split()
            except OSError:
                continue
            if int(fields[2]) == pgid and fields[0] != "Z":
                left.append(stat.parent.name)
        if not left or time.monotonic() > deadline:
            return left
        time.sleep(0.2)


def assert_one_line(status: int, err: str, line: str, expected: int, before: str = "") -> None:
    assert status == expected, err
    lines = [text for text in err.replace("\r", "\n").splitlines() if text.strip()]
    assert lines == [line], err  # after the bar it wiped: one line
    assert "Traceback" not in before + err and "leaked" not in err


def sit_down(site: str) -> None:
    """Open a table of three greedy agents on the browser table at ``site``: its agents think
    in processes of their own."""
    import urllib.request
    body = json.dumps({"game": "mediatore", "seat": 0, "seed": 1,
                       "agents": [None, "greedy", "greedy", "greedy"]}).encode()
    request = urllib.request.Request(f"{site}/api/games", data=body, headers={
        "Content-Type": "application/json", "Origin": site})
    with urllib.request.urlopen(request, timeout=120) as response:
        assert response.status == 200


def a_record(tmp_path: Path) -> Path:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(json.loads(RECORDS.read_text())["records"][0]))
    return path


# Each command at work, and the sign that it is: (program, arguments, stream, pattern).
COMMANDS = {
    "bench": ("mediatore-bench", lambda tmp: script("mediatore_env.tools.bench") + [
        "--agents", "greedy", "random", "random", "random", "--deals", "100000000",
        "--jobs", "2", "--progress"], "stderr", r"[1-9]\d*/100000000 deals"),
    "league": ("mediatore-league", lambda tmp: script("mediatore_env.tools.league") + [
        "--agents", "greedy", "random", "--deals", "100000000", "--jobs", "2", "--progress"],
        "stderr", r"[1-9]\d*/100000000 deals"),
    "tables": ("mediatore-tables", lambda tmp: script("mediatore_env.tools.tables") + [
        # 8 deals come one by one (build_table's chunks), so the first progress is a second or
        # two away (a chunk of 10 deals, as 100,000 would have, took 20 s), and deals are left
        "build", "--deals", "8", "--jobs", "2", "--values", "made", "--progress",
        "--out", str(tmp / "table.npz")], "stderr", r"[1-9]\d*/8 deals"),
    "play": ("mediatore-play", lambda tmp: script("mediatore_env.tools.play") + [
        "--agents", "greedy", "--seed", "1"], "stdout", r"Your move \["),
    "replay": ("mediatore-replay", lambda tmp: script("mediatore_env.tools.replay") + [
        str(a_record(tmp))], "stdout", r"\[Enter\] next"),
    "web": ("mediatore-web", lambda tmp: script("mediatore_env.web.app") + ["--port", "0"],
            "stdout", r"the table is at"),
    "training": ("python3 -m agents.training.infer", lambda tmp: [
        "-m", "agents.training.infer", "--deals", "500", "--records", str(tmp / "r.jsonl"),
        "--out", str(tmp / "w.npz"), "--progress"], "stderr", r"[1-9]\d*/500 deals"),
}


@pytest.mark.parametrize("name", COMMANDS)
def test_ctrl_c_ends_every_command_with_one_line_and_status_130(name, tmp_path):
    if name == "web":
        pytest.importorskip("uvicorn")
        pytest.importorskip("starlette")
    prog, args, stream, pattern = COMMANDS[name]
    run = start(args(tmp_path), tmp_path)
    before = wait_for(run, pattern, stream)
    if name == "web":  # a table of agents: their pool of processes started
        sit_down(re.search(r"http://[^/ ]+", before).group(0))
    if stream == "stdout":  # at its prompt, or serving
        settle(run.pid)
    status, out, err = stop(run)
    assert_one_line(status, err, f"{prog}: interrupted", 130, before)
    assert group_left(run.pid) == []  # its workers, its fork server: gone with it
    if name == "training":
        assert not (tmp_path / "r.jsonl").exists()  # the records: whole or not at all


def test_sigterm_ends_a_run_and_its_workers_without_leaks(tmp_path):
    """``timeout`` and ``kill`` send SIGTERM to the command alone: the run unwinds as on Ctrl-C
    (a killed run left its semaphores to the resource tracker, which warned of them)."""
    prog, args, stream, pattern = COMMANDS["bench"]
    run = start(args(tmp_path), tmp_path)
    before = wait_for(run, pattern, stream)
    status, out, err = stop(run, signal.SIGTERM, group=False)
    assert_one_line(status, err, f"{prog}: terminated", 143, before)
    assert group_left(run.pid) == []


def test_a_failing_agent_leaves_no_worker_and_no_semaphore(tmp_path):
    (tmp_path / "bad.py").write_text("class Bad:\n    def act(self, observation, view):\n"
                                     "        raise RuntimeError('my bug')\n")
    run = start(script("mediatore_env.tools.bench") + [
        "--agents", "bad:Bad", "random", "random", "random", "--deals", "8", "--jobs", "2",
        "-q"], tmp_path)
    out, err = run.communicate(timeout=180)
    os.close(run.terminal)
    err = err.decode()
    assert run.returncode == 1 and "RuntimeError: my bug" in err  # the agent's own error
    assert "leaked" not in err and group_left(run.pid) == []


# -- the decorator itself -------------------------------------------------------------------------

def test_command_answers_ctrl_c_and_sigterm_and_puts_the_handlers_back(capsys):
    handlers = signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)

    @command("prog")
    def interrupted():
        print("partial output")
        raise KeyboardInterrupt

    @command("prog")
    def terminated():
        os.kill(os.getpid(), signal.SIGTERM)  # answered by the handler command() set
        time.sleep(5)
        return 0

    assert interrupted() == 130
    assert capsys.readouterr() == ("partial output\n", "prog: interrupted\n")
    assert terminated() == 143
    assert capsys.readouterr().err == "prog: terminated\n"
    assert (signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)) == handlers
    assert command("prog")(lambda: 7)() == 7


# -- worker processes -----------------------------------------------------------------------------

def test_jobs_are_capped_by_the_episodes_and_the_cores(monkeypatch):
    monkeypatch.setattr(runinfo, "cores", lambda: 8)
    assert [worker_count(j, t) for j, t in [(16, 1), (16, 3), (16, 100), (2, 100), (1, 1)]] == [
        1, 3, 8, 2, 1]
    assert jobs_note("mediatore-bench", 16, 1, "deal") == (
        "mediatore-bench: --jobs 16 lowered to 1 (1 deal to play)")
    assert jobs_note("mediatore-bench", 16, 3, "session") == (
        "mediatore-bench: --jobs 16 lowered to 3 (3 sessions to play)")
    assert jobs_note("mediatore-tables", 100000, 50, "deal") == (
        "mediatore-tables: --jobs 100000 lowered to 8 (8 cores here)")
    assert jobs_note("mediatore-bench", 8, 50, "deal") is None
    assert 1 <= cores() <= (os.cpu_count() or 1)


def test_a_tournament_starts_no_more_workers_than_it_can_use():
    one = run_tournament(["greedy", "random", "random", "random"], deals=1, seed=3, jobs=16)
    assert (one.jobs, one.executor) == (1, "serial")
    many = run_tournament(["greedy", "random", "random", "random"], deals=6, seed=3, jobs=64)
    assert many.jobs == min(6, cores()) and many.standings == run_tournament(
        ["greedy", "random", "random", "random"], deals=6, seed=3).standings
    assert len(build_table(2, seed=1, values="made", jobs=100)) == 2


def test_the_command_says_when_it_lowers_jobs(tmp_path):
    start_time = time.monotonic()
    run = subprocess.run([sys.executable, *script("mediatore_env.tools.bench"), "--agents",
                          "greedy", "random", "random", "random", "--deals", "2", "--jobs",
                          "100000", "-q"], cwd=tmp_path, capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=120)
    assert run.returncode == 0, run.stderr
    used = min(2, cores())
    why = "2 deals to play" if used == 2 else f"{cores()} cores here"
    assert run.stderr == f"mediatore-bench: --jobs 100000 lowered to {used} ({why})\n"
    assert f"\n{used} job{'s' * (used > 1)}, " in run.stdout
    assert time.monotonic() - start_time < 60
    for argv, line in [(["--deals", "1", "--jobs", "16"], "--jobs 16 lowered to 1 (1 deal)"),
                       (["--deals", "1", "--jobs", "1"], None)]:
        err = subprocess.run([sys.executable, *script("mediatore_env.tools.bench"), "--agents",
                              "greedy", "random", "random", "random", "-q", *argv],
                             cwd=tmp_path, capture_output=True, text=True, timeout=120,
                             env={**os.environ, "PYTHONPATH": str(ROOT)}).stderr
        assert err == ("" if line is None else
                       "mediatore-bench: --jobs 16 lowered to 1 (1 deal to play)\n")


def test_workers_run_numpy_on_one_thread_each_and_the_caller_keeps_its_setting(monkeypatch):
    """A pool is the parallelism: its workers' BLAS starts one thread (not one per core, which
    oversubscribed the cores), unless the caller's environment says otherwise; this process's
    environment is as it was afterwards."""
    for name in runinfo.BLAS_THREADS:
        monkeypatch.delenv(name, raising=False)
    with runinfo.process_pool(2) as pool:
        assert [pool.apply(os.getenv, (name,)) for name in runinfo.BLAS_THREADS] == ["1"] * 3
    assert not any(name in os.environ for name in runinfo.BLAS_THREADS)
    monkeypatch.setenv("OMP_NUM_THREADS", "3")
    with runinfo.one_blas_thread():
        assert [os.environ[name] for name in runinfo.BLAS_THREADS] == ["1", "3", "1"]
    assert os.environ["OMP_NUM_THREADS"] == "3" and "MKL_NUM_THREADS" not in os.environ


class _Stop(Exception):
    pass


@pytest.mark.parametrize("stop_with", [_Stop, KeyboardInterrupt])
def test_the_workers_end_with_the_run_however_it_ends(stop_with):
    def stop_at_once(n):
        raise stop_with
    with pytest.raises(stop_with):
        run_tournament(["random"] * 4, deals=100, seed=1, jobs=2, progress=stop_at_once)
    assert multiprocessing.active_children() == []  # terminated and joined, not left to GC
    with pytest.raises(stop_with):
        build_table(8, values="made", jobs=2, progress=stop_at_once)  # stops at its 1st deal
    assert multiprocessing.active_children() == []


# -- progress -------------------------------------------------------------------------------------

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


def test_output_cut_short_by_a_closed_pipe_is_no_error():
    """``mediatore-bench ... | head -1``: the reader goes away, the command ends with status 0
    and no traceback (every command, through runinfo.command)."""
    script = ("import sys\nfrom mediatore_env.runinfo import command\n"
              "@command('talker')\ndef main():\n"
              "    for i in range(200_000):\n        print('line', i)\n    return 0\n"
              "sys.exit(main())\n")
    talker = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, cwd=ROOT)
    assert talker.stdout.readline() == b"line 0\n"
    talker.stdout.close()  # as head does after its line
    assert talker.wait(timeout=60) == 0
    assert talker.stderr.read() == b""
