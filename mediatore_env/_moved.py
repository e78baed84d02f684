"""Old import paths of the flat 0.1 layout, kept working for one release with a warning.

Each old module (``mediatore_env/game.py`` and the like) is two lines that call :func:`moved`;
the layer test skips them. They go away in 0.3.
"""

from __future__ import annotations

import importlib
import sys
import warnings


def moved(old: str, *new: str) -> None:
    """Make module ``old`` stand for ``new`` (one module: the same object; several: their
    public names together, the first module's winning), with a ``DeprecationWarning``. Run as
    a command (``python -m mediatore_env.tables ...``), run the new command instead."""
    as_command = old == "__main__"
    if as_command:
        old = sys.modules["__main__"].__spec__.name
    warnings.warn(f"{old} has moved to {' and '.join(new)}; the old path goes away in 0.3",
                  DeprecationWarning, stacklevel=3)
    if as_command:
        command = next(m for m in map(importlib.import_module, new) if hasattr(m, "main"))
        sys.exit(command.main())
    if len(new) == 1:
        sys.modules[old] = importlib.import_module(new[0])
        return
    namespace = sys.modules[old].__dict__
    for name in reversed(new):
        module = importlib.import_module(name)
        namespace.update((k, v) for k, v in vars(module).items() if not k.startswith("__"))
