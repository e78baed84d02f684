"""PPOAgent: a policy trained with sb3-contrib's ``MaskablePPO`` as a Mediatore agent.

It plays wherever agents play: in the duplicate tournament, in :func:`agents.base.play`,
in the PettingZoo environment and as an opponent in
:class:`mediatore_env.single_seat.MediatoreSeatEnv`. Load a saved model by path, or wrap a
model or policy held in memory::

    from agents.ppo_agent import PPOAgent
    from agents.tournament import run_tournament
    agent = PPOAgent("runs/ppo/model.zip")
    result = run_tournament([agent, "greedy", "greedy", "greedy"], deals=1000, seed=1)

or by name, through the registry's ``module:Class:options`` form (``mediatore-bench --agents
agents.ppo_agent:PPOAgent:path=runs/ppo/model.zip greedy greedy greedy``).

The agent encodes its own seat's view with :class:`mediatore_env.mediatore.observation.Encoder` (the
observation the model was trained on), takes the policy's action logits, and plays the legal
move with the highest one (``deterministic=True``, the default), or draws from the policy's
distribution over the legal moves with a generator seeded by :meth:`reset`.

torch and sb3-contrib are imported only when a model is loaded (``pip install
"mediatore-env[train]"``), so the rest of the package never needs them.
"""

from __future__ import annotations

import copy
import os

import numpy as np

from mediatore_env.mediatore.observation import Encoder

from .base import Agent


def model_file(path) -> str:
    """The file ``MaskablePPO.load(path)`` reads: ``path`` itself, or ``path.zip`` as
    stable-baselines3 tries next. Raises ``ValueError`` naming the path given when neither is a
    file, before torch is imported (so the error is the same with or without it)."""
    path = os.fspath(path)
    for candidate in (path, path + ".zip"):
        if os.path.isfile(candidate):
            return candidate
    raise ValueError(f"PPOAgent: no saved model at {path!r} (path= takes the .zip written by "
                     "model.save, e.g. runs/ppo/model.zip)")


def load_model(path: str, device: str = "cpu"):
    """A saved ``MaskablePPO`` model (a ``.zip`` written by ``model.save``)."""
    path = model_file(path)
    try:
        from sb3_contrib import MaskablePPO
    except ImportError as e:  # pragma: no cover - depends on the installation
        raise ImportError(f"PPOAgent needs sb3-contrib and torch: pip install "
                          f"'mediatore-env[train]' ({e})") from None
    return MaskablePPO.load(path, device=device)


class PPOAgent(Agent):
    """A trained (maskable) actor-critic policy playing one seat.

    ``path``: a saved MaskablePPO model; or ``model``: a MaskablePPO model or its policy
    (``model.policy``) in memory. ``deterministic``: play the most likely legal move (True)
    or sample one (False).
    """

    name = "ppo"
    wants_observation = False  # it encodes the view itself, incrementally

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
        self.deterministic = bool(deterministic)
        self.encoder = Encoder()
        self.rng = np.random.default_rng(seed)

    def __deepcopy__(self, memo):
        # The tournament copies agents per slot: share the (read-only) policy, not its weights.
        # The generator is copied with its state, so that a copy made mid-deal (a copied
        # environment's opponent) draws what the original would; a fresh encoder starts
        # afresh on the next view and writes the same vector.
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        other.encoder = Encoder()
        other.rng = copy.deepcopy(self.rng, memo)
        return other

    def reset(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def logits(self, view) -> np.ndarray:
        """The policy's action logits (486 floats) for ``view``'s seat, legal or not."""
        import torch
        obs = torch.as_tensor(self.encoder.encode(view)).unsqueeze(0)
        with torch.no_grad():
            return self.policy.get_distribution(obs).distribution.logits[0].numpy()

    def act(self, observation, view) -> int:
        legal = view.legal_moves()
        if len(legal) == 1:
            return legal[0]  # the encoder catches up at the next real decision
        scores = self.logits(view)[legal]
        if self.deterministic:
            return legal[int(np.argmax(scores))]
        p = np.exp(scores - scores.max())
        return legal[int(self.rng.choice(len(legal), p=p / p.sum()))]
