"""Test-session settings shared by every test file.

The tests that run JAX (tests/test_jax_*.py, and test_selfplay.py's training) run last.
Importing JAX starts its thread pools in the test process, and several other tests fork it
(the tournament's --jobs, Ray, the tables' workers): a fork of a multithreaded process can
deadlock, and JAX warns at every fork. Run after them, the JAX tests leave nothing to fork.

The toy game of tests/toy_game (two forms) is registered here, before any test module is collected, so
that every test parametrized over the registry's games (tests/test_universal.py,
tests/test_registry.py) covers it as it would any registered game.
"""

from __future__ import annotations

from pathlib import PurePosixPath

from toy_game import DEFINITIONS as TOY_GAMES

from mediatore_env.registry import register

for definition in TOY_GAMES:
    register(definition)


def runs_jax(name: str) -> bool:
    """Whether the test file ``name`` runs JAX computations."""
    return name.startswith("test_jax_") or name == "test_selfplay.py"


def pytest_collection_modifyitems(session, config, items):
    items.sort(key=lambda item: runs_jax(PurePosixPath(item.nodeid.split("::")[0]).name))
