"""The architecture: every module imports only from its own layer or the layers below it, and
the engine imports none of the RL stack.

Layers, lowest first (mediatore_env/__init__.py draws the same picture). Imports inside
functions count as much as those at the top; only ``if TYPE_CHECKING:`` blocks are skipped
(they never run). Within one package the modules must not import each other in a cycle.

A game's folder is layered like the package's (the toy game of tests/toy_game too, a game
built outside the package): its engine, above it its observation writer, table text and
definition, then its environments; an ``agents`` module in its folder is of the agents layer,
so that nothing of the game below may import it (its definition names it by a ``Lazy``), and
importing every game's engine and definition leaves the ``agents`` package unimported.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TOY = ROOT / "tests" / "toy_game"

LAYERS = [
    ("mediatore_env.runinfo",),
    # The registry knows where each game's definition lives and imports it when asked for.
    ("mediatore_env.core", "mediatore_env.registry"),
    ("mediatore_env.analysis",),  # the double-dummy solver of every game, on core alone
    ("mediatore_env.mediatore", "mediatore_env.tressette", "toy_game"),  # each engine on core
    ("mediatore_env.club",),  # on Mediatore's deal, phases and trick record
    ("mediatore_env.codec", "mediatore_env.jaxgame"),
    ("mediatore_env.envs", "mediatore_env.openspiel"),  # the games as OpenSpiel games
    ("agents",),
    # the commands; agents.training's __main__ is one (python -m agents.training), on tools.train
    ("mediatore_env.tools", "mediatore_env.web", "mediatore_env.__main__",
     "agents.training.__main__"),
]
CODEC, ENVS, AGENTS = 5, 6, 7
# Each game's folder holds its engine and, above it, its observation writer and table text
# (the codec layer) and its environments, and may hold agents: a module's name says which.
GAME_FOLDERS = ("mediatore_env.mediatore", "mediatore_env.tressette", "mediatore_env.club",
                "toy_game")
# A game's definition names its parts up to the codec layer (those above it are Lazy); a game
# outside the package may define itself in its package's __init__ (the toy).
CODEC_MODULES = ("layout", "observation", "reference", "display", "definition")
DEFINED_IN_INIT = ("toy_game",)
ENV_MODULES = ("env", "single_seat")  # and every versioned environment, name_v0
AGENT_MODULES = ("agents",)
# The package facade (it re-exports the public API from below) stands outside the layers.
OUTSIDE = {"mediatore_env"}


def layer_of(module: str) -> int | None:
    if module in DEFINED_IN_INIT:
        return CODEC
    folder = next((f for f in GAME_FOLDERS if module.startswith(f + ".")), None)
    if folder is not None:
        rest = module[len(folder) + 1:].partition(".")[0]
        if rest in AGENT_MODULES:
            return AGENTS
        if rest in CODEC_MODULES:
            return CODEC
        if rest in ENV_MODULES or rest.endswith("_v0"):
            return ENVS
    # the longest prefix that names the module decides (agents.training.__main__ over agents)
    matches = [(len(p), rank) for rank, prefixes in enumerate(LAYERS) for p in prefixes
               if module == p or module.startswith(p + ".")]
    return max(matches)[1] if matches else None


def project_modules() -> dict[str, Path]:
    out = {}
    for top in (ROOT / "mediatore_env", ROOT / "agents", TOY):
        for path in top.rglob("*.py"):
            parts = list(path.relative_to(top.parent).with_suffix("").parts)
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
                    if (m in MODULES
                        or m.split(".")[0] in ("mediatore_env", "agents", "toy_game"))
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


def test_the_checker_sees_a_game_importing_agents_from_its_own_folder(tmp_path):
    """Agents may live in a game's folder (its definition names them by a Lazy), as a layer
    above the game: they may import the agents package, nothing of the game may import them."""
    agents_module = tmp_path / "agents.py"
    agents_module.write_text("from agents.base import Agent\n")
    definition = tmp_path / "definition.py"
    definition.write_text("from .agents import AGENTS\n")
    assert layer_of("toy_game.agents") == layer_of("agents.base") == AGENTS
    found = imports_of("mediatore_env.tressette.definition", definition)
    assert "mediatore_env.tressette.agents" in found
    assert (layer_of("mediatore_env.tressette.agents")
            > layer_of("mediatore_env.tressette.definition"))
    assert layer_of("toy_game.agents") > layer_of("toy_game") > layer_of("toy_game.game")
    assert all(layer_of(m) <= AGENTS for m in imports_of("toy_game.agents", agents_module))


def test_no_game_imports_the_agents_package():
    """Every registered game (the toy too), its engine played, its world sampler and its
    definition's parts below the Lazy ones used: the agents package is never imported."""
    code = ("import random, sys; sys.path.insert(0, %r)\n"
            "import toy_game\n"
            "from mediatore_env.registry import GAMES, register\n"
            "for d in toy_game.DEFINITIONS: register(d)\n"
            "for name, d in GAMES.items():\n"
            "    game = d.new_game(); game.deal(random.Random(1).sample(range(40), 40))\n"
            "    game.apply(game.legal_moves()[0])\n"
            "    view = game.view(game.to_move); d.observation(view)\n"
            "    d.worlds and d.worlds(view, random.Random(2))\n"
            "    d.trick and d.trick.side(view)\n"
            "print(sorted(m for m in sys.modules if m == 'agents' or m.startswith('agents.')))"
            % str(TOY.parent))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=ROOT)
    assert out.stdout.strip() == "[]"


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
