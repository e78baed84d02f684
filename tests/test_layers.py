"""The architecture: every module imports only from its own layer or the layers below it, and
the engine imports none of the RL stack.

Layers, lowest first (mediatore_env/__init__.py draws the same picture). Imports inside
functions count as much as those at the top; only ``if TYPE_CHECKING:`` blocks are skipped
(they never run). Within one package the modules must not import each other in a cycle.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

LAYERS = [
    ("mediatore_env.runinfo",),
    # The registry knows where each game's definition lives and imports it when asked for.
    ("mediatore_env.core", "mediatore_env.registry"),
    ("mediatore_env.analysis",),  # the double-dummy solver of every game, on core alone
    ("mediatore_env.mediatore", "mediatore_env.tressette"),  # each engine on core alone
    ("mediatore_env.club",),  # on Mediatore's deal, phases and trick record
    ("mediatore_env.codec", "mediatore_env.jaxgame"),
    ("mediatore_env.envs", "mediatore_env.openspiel"),  # the games as OpenSpiel games
    ("agents",),
    ("mediatore_env.tools", "mediatore_env.web", "mediatore_env.__main__"),
]
CODEC, ENVS = 5, 6
# Each game's folder holds its engine and, above it, its observation writer and table text
# (the codec layer) and its environments: a module's name says which.
GAME_FOLDERS = ("mediatore_env.mediatore", "mediatore_env.tressette", "mediatore_env.club")
# A game's definition names its parts up to the codec layer (those above it are Lazy).
CODEC_MODULES = ("layout", "observation", "reference", "display", "definition")
ENV_MODULES = ("env", "single_seat")  # and every versioned environment, name_v0
# The package facade (it re-exports the public API from below) stands outside the layers.
OUTSIDE = {"mediatore_env"}


def layer_of(module: str) -> int | None:
    folder, _, rest = module.rpartition(".") if module.count(".") == 2 else ("", "", "")
    if folder in GAME_FOLDERS:
        if rest in CODEC_MODULES:
            return CODEC
        if rest in ENV_MODULES or rest.endswith("_v0"):
            return ENVS
    for rank, prefixes in enumerate(LAYERS):
        if any(module == p or module.startswith(p + ".") for p in prefixes):
            return rank
    return None


def project_modules() -> dict[str, Path]:
    out = {}
    for top in ("mediatore_env", "agents"):
        for path in (ROOT / top).rglob("*.py"):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            out[".".join(parts)] = path
    return out


def imports_of(module: str, path: Path) -> set[str]:
    """Absolute names of the modules ``module`` imports (``from x import y`` counts as x.y
    too, when x.y is a module of the project)."""
    tree = ast.parse(path.read_text())
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    skip = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skip.update(id(n) for child in node.body for n in ast.walk(child))
    out = set()
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                name = ".".join(base + ([node.module] if node.module else []))
            else:
                name = node.module
            out.add(name)
            out.update(f"{name}.{alias.name}" for alias in node.names)
    return out


MODULES = project_modules()
LAYERED = {m: p for m, p in MODULES.items() if m not in OUTSIDE}


def test_every_module_has_a_layer():
    assert [m for m in LAYERED if layer_of(m) is None] == []


@pytest.mark.parametrize("module", sorted(LAYERED))
def test_imports_point_down(module):
    mine = layer_of(module)
    upward = sorted(m for m in imports_of(module, LAYERED[module])
                    if (m in MODULES or m.split(".")[0] in ("mediatore_env", "agents"))
                    and (m in OUTSIDE or (layer_of(m) or 0) > mine))
    assert upward == [], f"{module} (layer {mine}) imports from above or the facade: {upward}"


def test_no_import_cycles_within_a_package():
    graph = {m: {i for i in imports_of(m, p) if i in LAYERED and i != m}
             for m, p in LAYERED.items()}

    def cycle_from(start):
        stack, seen = [(start, [start])], set()
        while stack:
            node, path = stack.pop()
            for nxt in graph[node]:
                if nxt == start:
                    return path
                if nxt not in seen and nxt.rpartition(".")[0] == start.rpartition(".")[0]:
                    seen.add(nxt)
                    stack.append((nxt, path + [nxt]))
        return None

    assert [c for m in graph if (c := cycle_from(m))] == []


def test_the_checker_sees_an_upward_import(tmp_path):
    """The checker itself: a game module that imports an environment is caught."""
    bad = tmp_path / "game.py"
    bad.write_text("def f():\n    from .mediatore_v0 import env\n")
    found = imports_of("mediatore_env.mediatore.game", bad)
    assert "mediatore_env.mediatore.mediatore_v0" in found
    assert layer_of("mediatore_env.mediatore.mediatore_v0") > layer_of("mediatore_env.mediatore.game")


def test_the_engine_imports_no_rl_stack_and_no_numpy():
    code = ("import sys, mediatore_env, mediatore_env.core.cards, mediatore_env.mediatore.game, "
            "mediatore_env.mediatore.records, mediatore_env.mediatore.worlds, "
            "mediatore_env.tressette\n"
            "from mediatore_env import Deal, Rules\n"
            "Deal(Rules(), 0, list(range(40))).apply(0)\n"
            "from mediatore_env.tressette import TressetteGame\n"
            "game = TressetteGame(); game.deal(list(range(40))); game.apply(0)\n"
            "print(sorted({m.split('.')[0] for m in sys.modules} & "
            "{'pettingzoo', 'gymnasium', 'numpy'}))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
