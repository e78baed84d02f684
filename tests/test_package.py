"""The package's paths in 0.3: the environments are attributes of ``mediatore_env`` that give the
very modules in their games' folders, the flat 0.1 modules are gone, and the version is one."""

from __future__ import annotations

import dataclasses
import importlib
import re
import subprocess
import sys
from pathlib import Path

import pytest

import mediatore_env
from mediatore_env.registry import GAMES

ROOT = Path(__file__).resolve().parent.parent
# The environment modules of every registered game's definition (the tests' toy game has
# none: the generic environment is its), and those of the package's own games.
ENVIRONMENTS = {env.name: env.module for entry in GAMES.values() for env in entry.environments}
OWN = {name: module for name, module in ENVIRONMENTS.items()
       if module.startswith("mediatore_env.")}
# The flat 0.1 modules, aliases in 0.2 (each with a DeprecationWarning), gone in 0.3.
OLD_MODULES = ("cards", "display", "encoding", "game", "play", "records", "replay_cli", "rules",
               "solver", "tables", "view", "_moved")


def test_the_packages_environments_are_its_games_in_the_registry():
    assert OWN == {
        "mediatore_v0": "mediatore_env.mediatore.mediatore_v0",
        "mediatore_bidding_v0": "mediatore_env.mediatore.mediatore_bidding_v0",
        "single_seat": "mediatore_env.mediatore.single_seat",
        "tressette_v0": "mediatore_env.tressette.env:tressette_v0",
        "tressette3_v0": "mediatore_env.tressette.env:tressette3_v0",
        "tressette2_v0": "mediatore_env.tressette.env:tressette2_v0",
        "club_mediatore_v0": "mediatore_env.club.club_mediatore_v0"}
    assert OWN == mediatore_env.ENVIRONMENTS  # the facade's list, written out, is the games'
    assert set(OWN) <= set(mediatore_env.__all__)
    assert set(ENVIRONMENTS) <= set(dir(mediatore_env))


def loaded(path: str):
    """The module ``path`` names, or the module object ``module:name`` names in its module."""
    module, _, name = path.partition(":")
    return getattr(importlib.import_module(module), name) if name else importlib.import_module(module)


@pytest.mark.parametrize("name", sorted(ENVIRONMENTS))
def test_an_environment_of_any_registered_game_is_an_attribute_that_gives_its_module(name):
    assert getattr(mediatore_env, name) is loaded(ENVIRONMENTS[name])


@pytest.mark.parametrize("name", sorted(OWN))
def test_the_import_of_an_environment_warns_of_nothing(name):
    code = ("import warnings; warnings.simplefilter('error')\n"
            f"from mediatore_env import {name}\n"
            f"print({name}.__name__)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == OWN[name].replace(":", ".")  # a module object: its place


@pytest.mark.parametrize("name", sorted(ENVIRONMENTS))
def test_an_environment_is_an_attribute_of_the_package_not_a_module_of_it(name):
    """0.1's alias modules of these names went away in 0.3: ``import mediatore_env.<name>``
    fails, and ``from mediatore_env import <name>`` gives the module in its game's folder."""
    with pytest.raises(ModuleNotFoundError, match=f"No module named 'mediatore_env.{name}'"):
        importlib.import_module(f"mediatore_env.{name}")
    assert getattr(mediatore_env, name).__name__ == ENVIRONMENTS[name].replace(":", ".")


def test_other_names_are_neither_attributes_nor_modules():
    with pytest.raises(AttributeError, match="has no attribute 'nothing_v0'"):
        mediatore_env.nothing_v0  # noqa: B018
    with pytest.raises(ModuleNotFoundError, match="No module named 'mediatore_env.nothing_v0'"):
        importlib.import_module("mediatore_env.nothing_v0")


def test_the_flat_0_1_modules_are_gone():
    """(By file: an editable install of an older checkout would still find them by name.)"""
    top = {path.stem for path in (ROOT / "mediatore_env").glob("*.py")}
    assert top & set(OLD_MODULES) == set() and not (ROOT / "agents" / "cli.py").exists()


def test_the_package_and_the_distribution_have_one_version():
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert re.search(r'^version = "(.+)"$', pyproject, re.M).group(1) == mediatore_env.__version__


def test_every_pettingzoo_environment_of_the_registry_is_registered_with_its_id():
    pettingzoo = pytest.importorskip("pettingzoo")
    from mediatore_env import envs
    registered = envs.registered()
    assert {k: v for k, v in registered.items() if isinstance(v, str)} == {
        "mediatore/mediatore-v0": "mediatore_env.mediatore.mediatore_v0:env",
        "mediatore/mediatore-bidding-v0": "mediatore_env.mediatore.mediatore_bidding_v0:env",
        "mediatore/club-mediatore-v0": "mediatore_env.club.club_mediatore_v0:env"}
    # the Tressette forms, module objects of one module, load it when first made
    for form in ("tressette_v0", "tressette3_v0", "tressette2_v0"):
        made = registered[f"mediatore/{form.replace('_', '-')}"](claim=True)
        assert type(made.unwrapped) is getattr(mediatore_env, form).raw_env
        assert made.unwrapped.rules.claim
    # a game with no environment module of its own (the toy) gets the generic one
    assert {"mediatore/toy-v0", "mediatore/toy3-v0"} <= set(registered)
    assert set(registered) <= set(pettingzoo.aec_registry)


def test_a_game_registered_later_is_registered_with_pettingzoo_on_the_next_call(monkeypatch):
    pettingzoo = pytest.importorskip("pettingzoo")
    from mediatore_env import envs
    later = GAMES["tressette2"].environments[0]
    entry = dataclasses.replace(GAMES["tressette2"], name="later", environments=(
        dataclasses.replace(later, pettingzoo_id="test/later-v0"),))
    monkeypatch.setitem(GAMES._known, "later", entry)
    monkeypatch.delitem(pettingzoo.aec_registry, "test/later-v0", raising=False)
    envs.register_with_pettingzoo()
    try:
        game = pettingzoo.make("aec", "test/later-v0")
        game.reset(seed=1)
        assert type(game.unwrapped) is mediatore_env.tressette2_v0.raw_env
    finally:
        pettingzoo.aec_registry.pop("test/later-v0", None)


def test_the_docs_pages_are_those_the_code_writes():
    """``python -m mediatore_env docs --check``: one page per environment of the package's games
    in the registry, each up to date."""
    from mediatore_env import __main__ as cli
    names = {entry.environments[0].name for entry in GAMES.values()
             if entry.environments and entry.environments[0].module.startswith("mediatore_env.")
             and entry.name != "mediatore"}
    assert set(cli.env_pages()) == {cli.DOCS.with_name(f"environment-{n}.md") for n in names}
    out = subprocess.run([sys.executable, "-m", "mediatore_env", "docs", "--check"],
                         capture_output=True, text=True, cwd=ROOT)
    assert (out.returncode, out.stderr) == (0, "")
