"""What long runs share, whatever the game: their progress bar, the machine line of their
reports, their worker processes, and how a command ends on Ctrl-C.

Shared by ``mediatore-bench``, ``mediatore-tables``, the other commands, the training and the
scripts in ``benchmarks/``, so that every figure the project reports names its machine the same
way and every command behaves the same at a terminal:

- :func:`counting` / :func:`progress_bar`: tqdm's bar (its ``auto`` form: a widget in a
  notebook) on stderr, off where stderr is not a terminal unless asked (:func:`wants_progress`);
- :func:`machine`, :func:`print_results`, :func:`median_p90`: what reports print;
- :func:`worker_count`, :func:`jobs_note`, :func:`process_pool`: worker processes, no more
  than the work and the cores can use, that end with the run however it ends;
- :func:`command`: Ctrl-C ends a command with one line and status 130 (SIGTERM: 143), its
  workers and bars cleaned up first; :class:`ArgumentParser`: a bad argument is one line and
  status 2.
"""

from __future__ import annotations

import argparse
import functools
import math
import os
import platform
import signal
import statistics
import sys
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator


def print_results(result, json_path: str | None = None) -> None:
    """Print a run's report and the machine line, and save its results (``result.to_dict()``,
    the machine added) as JSON at ``json_path`` if given: the end of every benchmark tool's
    run, whatever the game."""
    print(result.report())
    print(f"machine: {machine()}")
    if json_path:
        data = result.to_dict()
        data["machine"] = machine()
        with open(json_path, "w") as f:
            f.write(json_text(data) + "\n")
        print(f"results saved to {json_path}")


def json_text(data, indent: int = 1) -> str:
    """``data`` as strict JSON, which any parser reads: a float that is not a number (the
    interval of a mean over one value, ``(nan, nan)``) is written null, where ``json.dumps``
    would write ``NaN``, which only Python reads."""
    import json

    def strict(x):
        if isinstance(x, float) and not math.isfinite(x):
            return None
        if isinstance(x, dict):
            return {k: strict(v) for k, v in x.items()}
        if isinstance(x, (list, tuple)):
            return [strict(v) for v in x]
        return x
    return json.dumps(strict(data), indent=indent, allow_nan=False)


def machine() -> str:
    """``'AMD EPYC, 2 cores, Python 3.11.7 (Linux)'``: the CPU model, core count and Python."""
    cpu = platform.processor() or "unknown CPU"
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(line.split(":", 1)[1].strip() for line in f if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    return f"{cpu}, {cores()} cores, Python {platform.python_version()} ({platform.system()})"


def median_p90(values) -> tuple[float, float]:
    """The median and the 90th percentile (the value at rank ``int(0.9 * n)``, the last at most)
    of a non-empty list of numbers: the pair the benchmarks report for time per decision."""
    values = sorted(values)
    return statistics.median(values), values[min(len(values) - 1, int(0.9 * len(values)))]


class ArgumentParser(argparse.ArgumentParser):
    """argparse's parser whose errors are one line (the message, then where to find the usage)
    and exit status 2; subcommand parsers made with ``add_subparsers`` are of this class too.
    Every command's (``mediatore_env.tools.checks`` hands it to the tools)."""

    def error(self, message: str):
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def check_output_file(parser: argparse.ArgumentParser, option: str, path: str) -> None:
    """``parser.error`` naming ``option`` unless ``path`` names a file in a folder that exists:
    asked before the work, so that a typo fails at once, not after it."""
    where = Path(path)
    if where.is_dir() or not where.absolute().parent.is_dir():
        parser.error(f"{option} {path}: not a file in a folder that exists")


# -- progress -----------------------------------------------------------------------------------

#: The bar's text: ``42%|████▏     | 840/2000 deals, 00:04 elapsed, 00:05 left``.
BAR_FORMAT = "{l_bar}{bar}| {n_fmt}/{total_fmt} {unit}, {elapsed} elapsed, {remaining} left"


def wants_progress(option: bool | None, stream=None) -> bool:
    """Whether a command shows a progress bar: as ``--progress`` / ``--quiet`` say (``option``
    True or False), else (None) when stderr is a terminal, so that a log or a pipe gets none."""
    if option is not None:
        return option
    stream = sys.stderr if stream is None else stream
    return bool(getattr(stream, "isatty", lambda: False)())


def add_progress_options(parser) -> None:
    """``--progress`` and ``--quiet`` / ``-q`` (``args.progress``: True, False, or None for
    :func:`wants_progress` to decide), the same in every command that shows a bar."""
    bar = parser.add_mutually_exclusive_group()
    bar.add_argument("--progress", action="store_true", default=None,
                     help="show a progress bar on stderr (default: when stderr is a terminal)")
    bar.add_argument("--quiet", "-q", action="store_false", dest="progress",
                     help="no progress bar")


def progress_bar(total: int, unit: str):
    """A progress bar of ``total`` ``unit`` (``"deals"``) on stderr: tqdm's ``auto`` form, a
    widget in a Jupyter notebook and text at a terminal. It is wiped when closed, so a report
    printed after it starts on a clean line."""
    from tqdm.auto import tqdm  # tqdm picks the notebook's form when imported there
    return tqdm(total=total, unit=unit, file=sys.stderr, leave=False, dynamic_ncols=True,
                bar_format=BAR_FORMAT)


@contextmanager
def counting(progress, total: int, unit: str) -> Iterator[Callable[[int], object] | None]:
    """The ``progress(n)`` callable of a run of ``total`` ``unit`` (``n`` more done): the
    ``progress`` given when it is callable, a :func:`progress_bar` when it is True, None when it
    is None or False. A bar made here is closed on the way out, however the run ends."""
    if callable(progress) or not progress:
        yield progress or None
        return
    bar = progress_bar(total, unit)
    try:
        yield bar.update
    finally:
        bar.close()


def say_above(bar_on: bool, say: Callable) -> Callable:
    """``say`` (``print``), its lines written above a progress bar shown on the terminal rather
    than through it, where ``bar_on``."""
    if not bar_on:
        return say

    def said(*args, **kwargs):
        from tqdm import tqdm
        with tqdm.external_write_mode():
            say(*args, **kwargs)
    return said


# -- worker processes -----------------------------------------------------------------------------

def cores() -> int:
    """The cores this process may run on: its CPU affinity where the system tells it (a
    container's or ``taskset``'s limit), else every core of the machine."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def worker_count(jobs: int, tasks: int) -> int:
    """The worker processes worth starting for ``tasks`` tasks that cannot be split (deals,
    games, sessions) when ``jobs`` are asked for: one per task at most, one per core at most.
    More only wait, or share the cores, and each costs its start-up (a second or more: a
    process that imports the agents)."""
    return max(1, min(jobs, tasks, cores()))


def jobs_note(prog: str, jobs: int, tasks: int, unit: str) -> str | None:
    """The line a command prints when :func:`worker_count` lowers its ``--jobs`` for ``tasks``
    ``unit`` (``"deal"``), saying why; None when it does not."""
    used = worker_count(jobs, tasks)
    if used == jobs:
        return None
    why = (f"{tasks} {unit}{'s' * (tasks != 1)} to play" if used == tasks
           else f"{cores()} cores here")
    return f"{prog}: --jobs {jobs} lowered to {used} ({why})"


def worker_context():
    """The multiprocessing context of every pool of workers: processes started fresh
    ('forkserver', else 'spawn'), never forked from a process that may have loaded JAX or Ray
    (their threads do not survive a fork)."""
    import multiprocessing
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")


def ignore_interrupts() -> None:
    """A worker process's initializer: Ctrl-C reaches every process of the terminal's group,
    and it is the main process's to answer (it ends the workers), so a worker ignores it
    rather than print its traceback."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextmanager
def _sigint_held() -> Iterator[None]:
    """Hold Ctrl-C back from this thread while worker processes start. They inherit the held
    signal (through exec too: the fork server, and the workers it forks for as long as it
    runs), so none is interrupted half-started, which printed a worker's traceback after the
    command's line; a Ctrl-C meanwhile reaches this process when the block lifts."""
    if not hasattr(signal, "pthread_sigmask") or threading.current_thread() is not \
            threading.main_thread():
        yield
        return
    from multiprocessing import resource_tracker
    resource_tracker.ensure_running()  # first: starting it lifts any hold on Ctrl-C
    held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)


#: The variables that set how many threads numpy's linear algebra starts (OpenBLAS, MKL,
#: OpenMP): read once, when numpy is imported.
BLAS_THREADS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")


@contextmanager
def one_blas_thread() -> Iterator[None]:
    """Processes started within the block (fresh ones: :func:`worker_context`) run numpy's
    linear algebra on one thread each, unless the caller's environment says otherwise. A pool
    of one worker per core whose workers each start a thread per core for every matrix
    product oversubscribes the cores: a two-worker tournament of a network agent on 2 cores
    took 6.8 times as long (docs/agents.md, *The duplicate tournament*). This process's
    environment is as before on the way out."""
    saved = {name: os.environ.get(name) for name in BLAS_THREADS}
    for name in BLAS_THREADS:
        os.environ.setdefault(name, "1")
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


@contextmanager
def process_pool(jobs: int, initializer=None, initargs=()):
    """A ``multiprocessing`` pool of ``jobs`` workers (:func:`worker_context`) that Ctrl-C does
    not reach (the main process answers it), terminated and joined on the way out, however the
    run ends (the end of the work, an error, Ctrl-C, :func:`command`'s SIGTERM): no worker and
    no semaphore outlives it, so the resource tracker finds nothing leaked. Its workers run
    numpy on one thread each (:func:`one_blas_thread`): the pool is the parallelism."""
    from multiprocessing import forkserver
    context = worker_context()
    pool = None
    try:
        # a Ctrl-C held back arrives as the block lifts, the pool made
        with _sigint_held(), one_blas_thread():
            if context.get_start_method() == "forkserver":
                forkserver.ensure_running()  # started here, it holds Ctrl-C from its workers
            pool = context.Pool(jobs, initializer, initargs)
        yield pool
    finally:
        if pool is not None:
            pool.terminate()
            pool.join()


def process_executor(workers: int, context):
    """``concurrent.futures``' pool of ``workers`` processes of ``context`` whose workers Ctrl-C
    does not reach, as :func:`process_pool`'s: each starts, when a task is submitted, with Ctrl-C
    held back, and ignores it, so that the main process alone answers it (its shutdown ends
    them) and no worker prints a traceback. For a server that submits from its main thread."""
    from concurrent.futures import ProcessPoolExecutor

    class Executor(ProcessPoolExecutor):
        def submit(self, fn, /, *args, **kwargs):
            with _sigint_held():  # a worker may be started here
                return super().submit(fn, *args, **kwargs)

    return Executor(workers, context, initializer=ignore_interrupts)


# -- ending a command -----------------------------------------------------------------------------

class Terminated(BaseException):
    """SIGTERM (``kill``, ``timeout``), raised in the main thread by :func:`command` so that a
    run ends as on Ctrl-C, its ``finally`` blocks run (worker pools, bars), rather than being
    killed where it stands (which left the resource tracker warning of leaked semaphores)."""


INTERRUPTED, TERMINATED = 130, 143  # 128 + the signal's number, as a shell reports a kill


def command(prog: str):
    """Decorate a command's ``main``: Ctrl-C ends it with one line, ``<prog>: interrupted``, on
    stderr and exit status 130, as a shell expects, whatever it was doing (SIGTERM: ``<prog>:
    terminated``, 143). What was running is unwound first, so its ``finally`` blocks close the
    bars and end the worker processes, and a second Ctrl-C meanwhile does not cut that short.
    A command started with Ctrl-C ignored (``command &`` in a script) keeps ignoring it.
    Output cut short by a closed pipe (``| head``) is no error: status 0, and nothing more is
    written."""
    def decorate(main):
        @functools.wraps(main)
        def run(*args, **kwargs):
            handlers = _install() if threading.current_thread() is threading.main_thread() else {}
            try:
                return main(*args, **kwargs)
            except BrokenPipeError:
                # what is left in stdout's buffer would fail again at exit: send it nowhere
                os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
                return 0
            except KeyboardInterrupt:
                return _stopped(prog, "interrupted", INTERRUPTED)
            except Terminated:
                return _stopped(prog, "terminated", TERMINATED)
            finally:
                for signum, handler in handlers.items():
                    signal.signal(signum, handler)
        return run
    return decorate


def _install() -> dict:
    """Set the handlers of :func:`command`; the ones they replace, to put back."""
    previous = {signal.SIGTERM: signal.signal(signal.SIGTERM, _terminate)}
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        previous[signal.SIGINT] = signal.signal(signal.SIGINT, _interrupt)
    return previous


def _interrupt(signum, frame):
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # once: the unwinding is not interrupted
    raise KeyboardInterrupt


def _terminate(signum, frame):
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    raise Terminated


def _stopped(prog: str, what: str, status: int) -> int:
    try:
        sys.stdout.flush()  # what was printed comes before the line
    except (OSError, ValueError):  # a closed pipe or file: the line matters more
        pass
    sys.stderr.write(f"{prog}: {what}\n")
    sys.stderr.flush()
    return status
