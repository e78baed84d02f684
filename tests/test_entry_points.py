"""A game installed as a distribution of its own appears everywhere with nothing to edit here:
the toy game, packaged in a temporary folder with one entry point per form under
``mediatore_env.games``, installed (``pip install --target``) beside this package, is found by
``make``, the tournament's command line, OpenSpiel and the browser table, in a fresh process
that never ran the tests' conftest."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TOY = Path(__file__).resolve().parent / "toy_game"

PYPROJECT = """\
[build-system]
requires = ["setuptools", "wheel"]
build-backend = "setuptools.build_meta"

[project]
name = "mediatore-toy-game"
version = "0.1"
dependencies = ["mediatore-env"]

[project.entry-points."mediatore_env.games"]
toy = "toy_game:TOY"
toy3 = "toy_game:TOY3"

[tool.setuptools]
packages = ["toy_game"]
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """The toy game built and installed as its own distribution into a folder of its own."""
    project = tmp_path_factory.mktemp("toy_dist")
    shutil.copytree(TOY, project / "toy_game", ignore=shutil.ignore_patterns("__pycache__"))
    (project / "pyproject.toml").write_text(PYPROJECT)
    target = tmp_path_factory.mktemp("site")
    run = subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps",
                          "--no-build-isolation", "--target", str(target), str(project)],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    return target


def run_with(site: Path, *command: str) -> subprocess.CompletedProcess:
    """``command`` in a fresh process that sees this checkout and the installed toy
    distribution."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(site)])}
    return subprocess.run(command, capture_output=True, text=True, env=env, cwd=site,
                          timeout=300)


def test_the_installed_game_is_found_by_name(site):
    run = run_with(site, sys.executable, "-c", "import mediatore_env as m\n"
                   "g = m.make('toy3', scoring='tricks')\n"
                   "print(sorted(m.GAMES), g.players, g.rules.scoring)")
    assert run.returncode == 0, run.stderr
    assert run.stdout.split("]")[1].split() == ["3", "tricks"]
    assert "'toy'" in run.stdout and "'toy3'" in run.stdout


def test_the_tournament_command_plays_it(site):
    # the console script as installed (as a module where this checkout is not installed)
    bench = [shutil.which("mediatore-bench")] if shutil.which("mediatore-bench") else [
        sys.executable, "-m", "mediatore_env.tools.bench"]
    run = run_with(site, *bench, "--game", "toy", "--agents",
                   "random", "random", "--deals", "6", "--seed", "3", "--json", "out.json")
    assert run.returncode == 0, run.stderr
    result = json.loads((site / "out.json").read_text())
    assert result["game"] == "toy" and result["games"] == 6  # the toy's unit: a game


def test_openspiel_and_the_browser_table_serve_it(site):
    pytest.importorskip("pyspiel", reason="the openspiel extra")
    pytest.importorskip("starlette", reason="the web extra")
    run = run_with(site, sys.executable, "-c",
                   "import pyspiel, mediatore_env.openspiel\n"
                   "game = pyspiel.load_game('toy')\n"
                   "from mediatore_env.web.tables import games_json\n"
                   "print(game.num_players(), 'toy' in [g['name'] for g in games_json()])")
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["2", "True"]
