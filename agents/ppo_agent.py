"""PPOAgent: a policy trained with sb3-contrib's ``MaskablePPO`` as a Mediatore agent.

It plays wherever agents play: in the duplicate tournament, in :func:`agents.base.play`,
in the PettingZoo environment and as an opponent in
:class:`mediatore_env.mediatore.single_seat.MediatoreSeatEnv`. Load a saved model by path, or
wrap a model or policy held in memory::

    from agents.ppo_agent import PPOAgent
    from agents.tournament import run_tournament
    agent = PPOAgent("runs/ppo/model.zip")
    result = run_tournament([agent, "greedy", "greedy", "greedy"], deals=1000, seed=1)

or by name, through the registry's ``module:Class:options`` form (``mediatore-bench --agents
agents.ppo_agent:PPOAgent:path=runs/ppo/model.zip greedy greedy greedy``).

The agent (a :class:`agents.network_agent.NetworkAgent`) encodes its own seat's view with
:class:`mediatore_env.mediatore.observation.Encoder` (the observation the model was trained on),
takes the policy's action logits, and plays the legal move with the highest one
(``deterministic=True``, the default), or draws from the policy's distribution over the legal
moves with a generator seeded by :meth:`reset`.

torch and sb3-contrib are imported only when a model is loaded (``pip install
"mediatore-env[train]"``), so the rest of the package never needs them.
"""

from __future__ import annotations

import numpy as np

from .network_agent import NetworkAgent, read_saved

EXPECTED = "the .zip written by model.save, e.g. runs/ppo/model.zip"


def load_model(path, device: str = "cpu"):
    """A saved ``MaskablePPO`` model: ``path`` itself, or ``path.zip`` as stable-baselines3 tries
    next. Raises ``ValueError`` in one line naming the path given when neither is a file (before
    torch is imported, so the error is the same with or without it) or the file is not a model."""
    def read(file):
        try:
            from sb3_contrib import MaskablePPO
        except ImportError as e:  # pragma: no cover - depends on the installation
            raise ImportError(f"PPOAgent needs sb3-contrib and torch: pip install "
                              f"'mediatore-env[train]' ({e})") from None
        return MaskablePPO.load(file, device=device)
    return read_saved(path, "PPOAgent", "saved model", EXPECTED, read, suffixes=("", ".zip"))


class PPOAgent(NetworkAgent):
    """A trained (maskable) actor-critic policy playing one seat.

    ``path``: a saved MaskablePPO model; or ``model``: a MaskablePPO model or its policy
    (``model.policy``) in memory. ``deterministic``: play the most likely legal move (True)
    or sample one (False).
    """

    name = "ppo"

    def __init__(self, path: str | None = None, model=None, deterministic: bool = True,
                 device: str = "cpu", seed: int | None = None):
        if (path is None) == (model is None):
            raise ValueError("give either path (a saved MaskablePPO .zip) or model, not both")
        if model is None:
            model = load_model(path, device)
        self.path = path
        self.policy = getattr(model, "policy", model)
        if not callable(getattr(self.policy, "get_distribution", None)):
            raise ValueError(f"not an actor-critic policy or model: {model!r}")
        super().__init__(deterministic, seed)

    def policy_logits(self, observation: np.ndarray) -> np.ndarray:
        import torch
        obs = torch.as_tensor(observation).unsqueeze(0)
        with torch.no_grad():
            return self.policy.get_distribution(obs).distribution.logits[0].numpy()
