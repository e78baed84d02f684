"""examples/train_selfplay.py loaded as a module (examples/ is not a package), for the tests
that call its functions: tests/test_selfplay.py and tests/test_demos.py. Import it after
``pytest.importorskip("jax")``: the script needs JAX and optax."""

from __future__ import annotations

import importlib.util
from pathlib import Path

_PATH = Path(__file__).resolve().parent.parent / "examples" / "train_selfplay.py"


def load_script():
    spec = importlib.util.spec_from_file_location("train_selfplay", _PATH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
