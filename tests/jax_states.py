"""For the JAX tests: a state of a JAX game, or a batch of them, as numpy arrays by field."""

from __future__ import annotations

import jax
import numpy as np


def fields(states, n: int | None = None) -> dict[str, np.ndarray]:
    """``states``' fields as numpy arrays by name (``".rewards"``, ...); of a batch, the first
    ``n`` states when ``n`` is given."""
    return {jax.tree_util.keystr(path): np.asarray(leaf) if n is None else np.asarray(leaf)[:n]
            for path, leaf in jax.tree_util.tree_leaves_with_path(states)}
