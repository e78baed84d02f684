"""Every example in a docstring of the package runs and prints what it shows: the doctests of
every module of ``mediatore_env`` and ``agents`` that has one (a module that needs an extra
that is not installed is skipped, saying which)."""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def modules_with_examples() -> list[str]:
    out = []
    for top in ("mediatore_env", "agents"):
        for path in sorted((ROOT / top).rglob("*.py")):
            if ">>> " not in path.read_text():
                continue
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            out.append(".".join(parts))
    return out


@pytest.mark.parametrize("name", modules_with_examples())
def test_the_examples_of_the_docstrings_run(name):
    try:
        module = importlib.import_module(name)
    except ImportError as e:
        pytest.skip(f"{name} needs {e.name}, not installed")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples of {name} fail"
