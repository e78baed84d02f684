"""SelfPlayAgent: a network trained by self-play on the JAX engine, played with numpy alone.

:mod:`agents.training` (its command line: ``examples/train_selfplay.py``) trains one network
for all four seats (masked PPO on the batched JAX engine) and saves it as a ``.npz`` of plain
numpy arrays; this agent reads that file and computes the same forward pass in numpy, so
playing it needs neither JAX nor torch.
By name::

    mediatore-bench --agents selfplay pimc pimc pimc           # the shipped network
    mediatore-bench --agents selfplay:path=runs/selfplay/checkpoint.npz greedy greedy greedy
    mediatore-play --agents selfplay selfplay selfplay

or in Python (the tournament, :func:`agents.base.play`, the PettingZoo environment as
in :mod:`agents.base`)::

    from agents.selfplay import SelfPlayAgent
    from agents.tournament import run_tournament
    result = run_tournament([SelfPlayAgent(), "greedy", "greedy", "greedy"], deals=1000)

**The network** (``NETWORK_FORMAT``): the seat's observation (the 2132 floats of
:mod:`mediatore_env.mediatore.observation`, which the JAX engine writes bit for bit) through
hidden layers ``h = relu(x @ W + b)``, then two heads on the last hidden layer: the action
logits (486, one per move id of :mod:`mediatore_env.mediatore.moves`) and the value (the
seat's expected scaled payment). The file holds ``layer{i}/w``, ``layer{i}/b``, ``policy/w``,
``policy/b``, ``value/w``, ``value/b`` (float32, or float16 to halve the file: read as
float32), ``format`` and ``meta`` (a JSON text: how it was trained and measured). A training
checkpoint holds the same keys and more (optimiser state, opponent pool), which the agent
ignores, so ``path=`` takes either.

**Playing** (:class:`agents.network_agent.NetworkAgent`): the logits of the legal moves only;
the highest one (``deterministic=True``, the default) or a draw from their softmax with a
generator seeded by :meth:`reset`.

**The shipped network** (``DEFAULT_PATH``, ``agents/data/selfplay.npz``) was trained on two
CPU cores, not on an accelerator: it first imitated four PIMC agents (10,600 recorded deals),
then played self-play anchored to that imitation (``train_selfplay.py --demos
--anchor-coef``); its weights are stored as float16 (half the file; the agent computes in
float32). Its ``meta`` says how it was made, docs/training.md what it scores.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np

from mediatore_env.mediatore.layout import OBSERVATION_SIZE
from mediatore_env.mediatore.moves import NUM_MOVES

from .network_agent import NetworkAgent, read_saved

NETWORK_FORMAT = "mediatore-selfplay-mlp-v1"
DEFAULT_PATH = Path(__file__).resolve().parent / "data" / "selfplay.npz"
EXPECTED = "a .npz written by examples/train_selfplay.py, e.g. runs/selfplay/network.npz"


def network_keys(hidden_layers: int) -> list[str]:
    """The array names of a network with ``hidden_layers`` hidden layers, input to output."""
    keys = [f"layer{i}/{p}" for i in range(hidden_layers) for p in ("w", "b")]
    return keys + ["policy/w", "policy/b", "value/w", "value/b"]


def hidden_count(arrays) -> int:
    """How many hidden layers the arrays (a dict or an open npz) hold."""
    n = 0
    while f"layer{n}/w" in arrays:
        n += 1
    return n


def load_network(path) -> tuple[dict[str, np.ndarray], dict]:
    """``(params, meta)`` of a saved network or checkpoint: the network's float32 arrays by name
    and the JSON ``meta``. Raises ``ValueError`` in one line naming the file when it is missing,
    not an npz, not of ``NETWORK_FORMAT`` or not shaped as a network of this game."""
    path = os.fspath(path)
    arrays = read_saved(path, "SelfPlayAgent", "network", EXPECTED, read_npz)
    fmt = str(arrays.get("format", ""))
    if fmt != NETWORK_FORMAT:
        raise ValueError(f"SelfPlayAgent: {path!r} is not a self-play network (format {fmt!r}, "
                         f"expected {NETWORK_FORMAT!r})")
    keys = network_keys(hidden_count(arrays))
    missing = [k for k in keys if k not in arrays]
    if missing:
        raise ValueError(f"SelfPlayAgent: {path!r} lacks arrays {missing}")
    params = {k: arrays[k].astype(np.float32) for k in keys}
    check_shapes(params, f"SelfPlayAgent: {path!r}")
    meta = json.loads(str(arrays["meta"])) if "meta" in arrays else {}
    return params, meta


def read_npz(path: str) -> dict[str, np.ndarray]:
    """Every array of an ``.npz`` file, read without unpickling anything."""
    with np.load(path, allow_pickle=False) as f:
        return {k: f[k] for k in f.files}


def check_shapes(params: dict[str, np.ndarray], where: str = "network") -> None:
    """ValueError unless the layers chain from the observation to 486 logits and one value."""
    width = OBSERVATION_SIZE
    for i in range(hidden_count(params)):
        w, b = params[f"layer{i}/w"], params[f"layer{i}/b"]
        if w.ndim != 2 or w.shape[0] != width or b.shape != (w.shape[1],):
            raise ValueError(f"{where}: layer{i} has shapes {w.shape}, {b.shape}; expected "
                             f"({width}, n) and (n,)")
        width = w.shape[1]
    for head, n in (("policy", NUM_MOVES), ("value", 1)):
        if params[f"{head}/w"].shape != (width, n) or params[f"{head}/b"].shape != (n,):
            raise ValueError(f"{where}: {head} head has shapes {params[f'{head}/w'].shape}, "
                             f"{params[f'{head}/b'].shape}; expected ({width}, {n}) and ({n},)")


def forward(params: dict[str, np.ndarray], obs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(logits, value)`` of observations ``obs`` (``[..., 2132]``): logits ``[..., 486]`` for
    every move, legal or not, and the value ``[...]``. The same arithmetic as the training's
    JAX forward pass (:func:`agents.training.network.forward`)."""
    h = np.asarray(obs, np.float32)
    for i in range(hidden_count(params)):
        h = np.maximum(h @ params[f"layer{i}/w"] + params[f"layer{i}/b"], 0.0)
    logits = h @ params["policy/w"] + params["policy/b"]
    value = (h @ params["value/w"] + params["value/b"])[..., 0]
    return logits, value


class SelfPlayAgent(NetworkAgent):
    """A self-play network playing one seat.

    ``path``: a ``.npz`` network or checkpoint of ``examples/train_selfplay.py`` (default: the
    shipped network, ``DEFAULT_PATH``); or ``params``: the network's arrays in memory (a dict
    as :func:`load_network` returns). ``deterministic``: the most likely legal move (True) or a
    draw from the policy over the legal moves (False).
    """

    name = "selfplay"

    def __init__(self, path: str | None = None, params: dict | None = None,
                 deterministic: bool = True, seed: int | None = None):
        if path is not None and params is not None:
            raise ValueError("give either path (a saved .npz) or params, not both")
        if params is None:
            self.path = os.fspath(path) if path is not None else str(DEFAULT_PATH)
            params, self.meta = load_network(self.path)
        else:
            self.path, self.meta = None, {}
            params = {k: np.asarray(v, np.float32) for k, v in params.items()}
            check_shapes(params)
        self.params = params
        super().__init__(deterministic, seed)

    def policy_logits(self, observation: np.ndarray) -> np.ndarray:
        return forward(self.params, observation)[0]
