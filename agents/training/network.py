"""The self-play network in JAX: an MLP on the seat's observation, with policy and value heads.

The arithmetic of :func:`agents.selfplay.forward`, which plays a trained network in numpy; the
array names and the file format are that module's (``network_keys``, ``NETWORK_FORMAT``).
"""

from __future__ import annotations

import math

import jax
import jax.numpy as jnp

from mediatore_env.mediatore.layout import OBSERVATION_SIZE
from mediatore_env.mediatore.moves import NUM_MOVES

from ..selfplay import hidden_count

ILLEGAL = -1e9  # the logit of an illegal move: never drawn, no probability in any loss


def init_network(key, hidden, observation_size: int = OBSERVATION_SIZE,
                 num_actions: int = NUM_MOVES) -> dict:
    """He-initialised ReLU layers from ``observation_size`` inputs, a policy head of
    ``num_actions`` logits near uniform and a value head near zero (the sizes of a game:
    its JAX engine's ``observation_shape[0]`` and ``num_actions``; by default Mediatore's)."""
    sizes = (observation_size, *hidden)
    keys = jax.random.split(key, len(hidden) + 2)
    params = {}
    for i in range(len(hidden)):
        params[f"layer{i}/w"] = (jax.random.normal(keys[i], (sizes[i], sizes[i + 1]))
                                 * math.sqrt(2.0 / sizes[i]))
        params[f"layer{i}/b"] = jnp.zeros(sizes[i + 1])
    params["policy/w"] = jax.random.normal(keys[-2], (sizes[-1], num_actions)) * 0.01
    params["policy/b"] = jnp.zeros(num_actions)
    params["value/w"] = jax.random.normal(keys[-1], (sizes[-1], 1)) / math.sqrt(sizes[-1])
    params["value/b"] = jnp.zeros(1)
    return params


def forward(params: dict, obs):
    """``(logits [..., num_actions], value [...])``: the arithmetic of agents.selfplay.forward."""
    h = obs
    for i in range(hidden_count(params)):
        h = jax.nn.relu(h @ params[f"layer{i}/w"] + params[f"layer{i}/b"])
    return h @ params["policy/w"] + params["policy/b"], (h @ params["value/w"]
                                                         + params["value/b"])[..., 0]


def masked_logits(logits, mask):
    """``logits`` with the illegal moves (``mask`` False) at :data:`ILLEGAL`."""
    return jnp.where(mask, logits, ILLEGAL)
