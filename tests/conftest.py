"""Test-session settings shared by every test file.

The tests that run JAX (tests/test_jax_*.py, and test_selfplay.py's training) run last.
Importing JAX starts its thread pools in the test process, and several other tests fork it
(the tournament's --jobs, Ray, the tables' workers): a fork of a multithreaded process can
deadlock, and JAX warns at every fork. Run after them, the JAX tests leave nothing to fork.

The toy game of tests/toy_game (two forms) is registered here, before any test module is collected, so
that every test parametrized over the registry's games (tests/test_universal.py,
tests/test_registry.py) covers it as it would any registered game.

Ray runs its workers at niceness 15 (what is left of the cores after everything else): the
tests of Ray get an equal share beside the other test worker, or they waited on it for minutes.

JAX keeps its compiled programs in a cache folder shared by the test workers (set before any
test imports JAX): the workers run tests of the same engines and compile the same programs,
and on 2 cores a compilation is seconds. Results do not change with it; the folder, under the
system's temporary folder, also serves the next run.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path, PurePosixPath

from toy_game import DEFINITIONS as TOY_GAMES

from mediatore_env.registry import register

os.environ.setdefault("RAY_worker_niceness", "0")
os.environ.setdefault("JAX_COMPILATION_CACHE_DIR",
                      str(Path(tempfile.gettempdir()) / "mediatore-env-jax-cache"))
os.environ.setdefault("JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS", "0.5")

for definition in TOY_GAMES:
    register(definition)


def runs_jax(name: str) -> bool:
    """Whether the test file ``name`` runs JAX computations."""
    return name.startswith("test_jax_") or name == "test_selfplay.py"


def pytest_collection_modifyitems(session, config, items):
    items.sort(key=lambda item: runs_jax(PurePosixPath(item.nodeid.split("::")[0]).name))
