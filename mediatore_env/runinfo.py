"""What long command-line runs print about themselves: a progress bar and the machine.

Shared by ``mediatore-bench``, ``mediatore-tables`` and the scripts in ``benchmarks/``, so
every figure the project reports names its machine the same way.
"""

from __future__ import annotations

import os
import platform
import statistics
import sys
import time


def print_results(result, json_path: str | None = None) -> None:
    """Print a run's report and the machine line, and save its results (``result.to_dict()``,
    the machine added) as JSON at ``json_path`` if given: the end of every benchmark tool's
    run, whatever the game."""
    import json
    print(result.report())
    print(f"machine: {machine()}")
    if json_path:
        data = result.to_dict()
        data["machine"] = machine()
        with open(json_path, "w") as f:
            f.write(json.dumps(data, indent=1) + "\n")
        print(f"results saved to {json_path}")


def machine() -> str:
    """``'AMD EPYC, 2 cores, Python 3.11.7 (Linux)'``: the CPU model, core count and Python."""
    cpu = platform.processor() or "unknown CPU"
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(line.split(":", 1)[1].strip() for line in f if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    return f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()} ({platform.system()})"


def median_p90(values) -> tuple[float, float]:
    """The median and the 90th percentile (the value at rank ``int(0.9 * n)``, the last at most)
    of a non-empty list of numbers: the pair the benchmarks report for time per decision."""
    values = sorted(values)
    return statistics.median(values), values[min(len(values) - 1, int(0.9 * len(values)))]


class ProgressBar:
    """A one-line progress bar on stderr: deals done, elapsed time, time left.

    Call it with the number of deals just finished; :meth:`close` wipes the line. ``unit``
    names what is counted (``"games"`` in the Tressette games' tournament).
    """

    def __init__(self, total: int, stream=None, width: int = 30, unit: str = "deals"):
        self.total, self.done, self.width, self.unit = total, 0, width, unit
        self.stream = stream or sys.stderr
        self.start = time.perf_counter()

    def __call__(self, n: int) -> None:
        self.done += n
        elapsed = time.perf_counter() - self.start
        filled = self.width * self.done // self.total
        left = elapsed / self.done * (self.total - self.done) if self.done else 0.0
        self.stream.write(f"\r[{'#' * filled}{'.' * (self.width - filled)}] {self.done}/{self.total} "
                          f"{self.unit}, {elapsed:.0f} s, ~{left:.0f} s left ")
        self.stream.flush()

    def close(self) -> None:
        self.stream.write("\r" + " " * (self.width + 50) + "\r")
        self.stream.flush()
