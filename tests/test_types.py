"""The game's definition is typed, and a type checker holds the code that reads it to the
types: mypy over ``core/`` (the definition, the rules base, the game interface), the registry
and the tools. A tool that reads a field a definition does not have, or a definition that
gives a part of the wrong type, fails here."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("mypy", reason="the type check needs mypy (the test extra)")

ROOT = Path(__file__).resolve().parent.parent
CHECKED = ["mediatore_env/core", "mediatore_env/registry.py", "mediatore_env/tools",
           "mediatore_env/mediatore/definition.py", "mediatore_env/tressette/definition.py",
           "mediatore_env/club/definition.py"]


def mypy(*paths: str) -> subprocess.CompletedProcess:
    # pyproject.toml's [tool.mypy] says which imports are followed
    return subprocess.run([sys.executable, "-m", "mypy", "--no-error-summary", *paths],
                          capture_output=True, text=True, cwd=ROOT)


def test_the_definitions_and_their_readers_type_check():
    run = mypy(*CHECKED)
    assert run.returncode == 0, run.stdout + run.stderr


def test_a_definition_of_the_wrong_type_is_caught(tmp_path):
    """The check has teeth: a definition whose moves are not a MoveTable fails it."""
    bad = tmp_path / "bad_definition.py"
    bad.write_text(
        "from mediatore_env.core.definition import GameDef\n"
        "from mediatore_env.tressette.definition import TRESSETTE\n"
        "import dataclasses\n"
        "BAD = dataclasses.replace(TRESSETTE, name='bad')\n"
        "WORSE = GameDef(name='x', title='x', players=2, unit='hand', rules=TRESSETTE.rules,\n"
        "                engine=TRESSETTE.engine, moves=41, observation=TRESSETTE.observation,\n"
        "                display=TRESSETTE.display, limits=TRESSETTE.limits)\n")
    run = mypy(str(bad))
    assert run.returncode == 1
    assert 'incompatible type "int"; expected "MoveTable"' in run.stdout
    assert 'incompatible type "Literal[\'hand\']"' in run.stdout
