"""The flat 0.1 module paths keep working until 0.3, each with a DeprecationWarning naming where
it moved, and give the very objects of the new modules."""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest

MOVED = {
    "mediatore_env.cards": ("mediatore_env.core.cards", "parse_card"),
    "mediatore_env.rules": ("mediatore_env.mediatore.rules", "Rules"),
    "mediatore_env.game": ("mediatore_env.mediatore.game", "Deal"),
    "mediatore_env.view": ("mediatore_env.mediatore.view", "SeatView"),
    "mediatore_env.records": ("mediatore_env.mediatore.records", "replay"),
    "mediatore_env.encoding": ("mediatore_env.mediatore.observation", "Encoder"),
    "mediatore_env.display": ("mediatore_env.mediatore.display", "view_text"),
    "mediatore_env.solver": ("mediatore_env.analysis.solver", "solve"),
    "mediatore_env.tables": ("mediatore_env.analysis.tables", "ContractTable"),
    "mediatore_env.mediatore_v0": ("mediatore_env.mediatore.mediatore_v0", "raw_env"),
    "mediatore_env.mediatore_bidding_v0": ("mediatore_env.mediatore.mediatore_bidding_v0", "raw_env"),
    "mediatore_env.single_seat": ("mediatore_env.mediatore.single_seat", "MediatoreSeatEnv"),
    "mediatore_env.play": ("mediatore_env.tools.play", "main"),
    "mediatore_env.replay_cli": ("mediatore_env.tools.replay", "main"),
    "agents.cli": ("mediatore_env.tools.bench", "main"),
}


@pytest.mark.parametrize("old", sorted(MOVED))
def test_an_old_path_warns_and_gives_the_new_objects(old):
    new, name = MOVED[old]
    sys.modules.pop(old, None)
    with pytest.warns(DeprecationWarning, match=f"{old} has moved to {new}"):
        module = importlib.import_module(old)
    assert getattr(module, name) is getattr(importlib.import_module(new), name)


def test_the_old_game_module_still_holds_what_it_held():
    """0.1's game.py held the move ids, the pack check and the trick winner as well."""
    code = ("import warnings; warnings.simplefilter('ignore')\n"
            "from mediatore_env.game import CALL_BASE, Deal, move_text, trick_winner, validate_pack\n"
            "from mediatore_env.view import SeatView, WorldSampler\n"
            "print(CALL_BASE, move_text(0), trick_winner(0, (1, 2, 3, 4)))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["6", "pass", "3"]


def test_the_environments_are_attributes_of_the_package_without_a_warning():
    code = ("import warnings; warnings.simplefilter('error')\n"
            "import mediatore_env\n"
            "from mediatore_env import mediatore_v0, mediatore_bidding_v0, single_seat\n"
            "print(mediatore_v0.__name__)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "mediatore_env.mediatore.mediatore_v0"


def test_an_old_command_path_runs_the_new_command():
    """``python -m mediatore_env.tables ...`` (0.1's documented command) still runs it."""
    out = subprocess.run([sys.executable, "-W", "default", "-m", "mediatore_env.tables", "show",
                          "/nonexistent"],
                         capture_output=True, text=True)
    assert out.returncode == 2
    assert "has moved to mediatore_env.analysis.tables" in out.stderr
    assert "mediatore-tables show: error:" in out.stderr and "no such file" in out.stderr
