"""The files of a run: a network alone (what :class:`agents.selfplay.SelfPlayAgent` plays) and a
checkpoint (network, optimiser, opponent pool, counters and key: what a run resumes from).
Both are ``.npz`` of plain arrays with the network's ``format`` and a JSON ``meta``.
"""

from __future__ import annotations

import json
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np

from ..network_agent import UNREADABLE
from ..selfplay import NETWORK_FORMAT, check_shapes, game_of, hidden_count, network_keys, read_npz
from .ppo import Runner


def network_arrays(params: dict, meta: dict) -> dict[str, np.ndarray]:
    """The npz content of a network: its float32 arrays, ``format`` and ``meta``."""
    out = {k: np.asarray(params[k], np.float32) for k in network_keys(hidden_count(params))}
    out["format"] = np.array(NETWORK_FORMAT)
    out["meta"] = np.array(json.dumps(meta))
    return out


def check_widths(params: dict, hidden, path) -> None:
    """ValueError unless the network ``params`` (read from ``path``) has the hidden layers
    ``hidden`` (their widths, as ``--hidden`` gives them)."""
    widths = [int(np.size(params[f"layer{i}/b"])) for i in range(hidden_count(params))]
    if widths != list(hidden):
        raise ValueError(f"{path}: its network has hidden layers {widths}, not {list(hidden)} "
                         "(give the same --hidden)")


def save_checkpoint(path: Path, runner: Runner, meta: dict) -> None:
    """Network, optimiser state (its leaves in order), pool, counters and key, as plain arrays;
    written to a scratch file first, so an interrupted save leaves the previous one."""
    arrays = network_arrays(runner.params, meta)
    for i, leaf in enumerate(jax.tree_util.tree_leaves(runner.opt_state)):
        arrays[f"opt/{i}"] = np.asarray(leaf)
    for k, v in runner.pool.items():
        arrays[f"pool/{k}"] = np.asarray(v)
    arrays["snapshots"] = np.asarray(runner.snapshots)
    arrays["updates"] = np.asarray(runner.updates)
    arrays["key"] = np.asarray(runner.key)
    scratch = path.with_name(path.name + ".part.npz")
    np.savez(scratch, **arrays)
    scratch.replace(path)


def read_checkpoint(path) -> tuple[dict, dict]:
    """The arrays and the meta of the checkpoint at ``path``; ValueError when it is none."""
    try:
        a = read_npz(path)
    except UNREADABLE:
        raise ValueError(f"{path}: not a readable .npz (expected the checkpoint.npz of a run of "
                         "train_selfplay.py)") from None
    if str(a.get("format", "")) != NETWORK_FORMAT or "updates" not in a:
        raise ValueError(f"{path}: not a checkpoint of train_selfplay.py")
    return a, json.loads(str(a["meta"]))


def load_checkpoint(path, runner: Runner) -> tuple[Runner, dict]:
    """``runner`` (a fresh one, with the settings of this run) with the network, optimiser, pool
    and counters of the checkpoint at ``path``; the deals in progress start afresh. Raises
    ValueError when the checkpoint's network or pool does not fit the settings."""
    a, meta = read_checkpoint(path)
    params = {k: jnp.asarray(a[k]) for k in network_keys(hidden_count(a))}
    check_shapes({k: np.asarray(v) for k, v in params.items()}, str(path), game_of(meta))
    check_widths(params, [int(np.size(runner.params[f"layer{i}/b"]))
                          for i in range(hidden_count(runner.params))], path)
    leaves, tree = jax.tree_util.tree_flatten(runner.opt_state)
    opt_state = jax.tree_util.tree_unflatten(
        tree, [jnp.asarray(a[f"opt/{i}"], leaf.dtype) for i, leaf in enumerate(leaves)])
    pool = {k: jnp.asarray(a[f"pool/{k}"]) for k in params}
    if pool["policy/b"].shape[0] != runner.pool["policy/b"].shape[0]:
        raise ValueError(f"{path}: its pool holds {pool['policy/b'].shape[0]} networks, not "
                         f"{runner.pool['policy/b'].shape[0]} (give the same --pool-size)")
    runner = runner._replace(params=params, opt_state=opt_state, pool=pool,
                             snapshots=jnp.int32(a["snapshots"]),
                             updates=jnp.int32(a["updates"]), key=jnp.asarray(a["key"]))
    return runner, meta
