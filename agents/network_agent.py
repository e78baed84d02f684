"""NetworkAgent: what every agent that plays a network's move logits shares.

A network agent encodes its own seat's view (:class:`mediatore_env.mediatore.observation.Encoder`,
incrementally, so it asks for no observation), asks its network for the logits of the 486 move
ids, and plays among the legal moves only: the one with the highest logit
(``deterministic=True``) or a draw from the softmax of their logits, with a generator seeded by
:meth:`reset`. A subclass supplies :meth:`policy_logits` (the network's forward pass) and loads
its file with :func:`read_saved`, which turns a missing or unreadable file into one line that
names it and says what ``path=`` takes.

Two agents are built on it: :class:`agents.selfplay.SelfPlayAgent` (a numpy forward pass of a
network trained by self-play) and :class:`agents.ppo_agent.PPOAgent` (an sb3-contrib
``MaskablePPO`` policy).
"""

from __future__ import annotations

import copy
import os
import zipfile
from typing import Callable, Sequence

import numpy as np

from mediatore_env.mediatore.observation import Encoder
from mediatore_env.mediatore.view import SeatView

from .base import Agent

#: What the loaders raise on a file that is not what they read: numpy's on a text file or a cut
#: zip, stable-baselines3's (an AssertionError, "No data found") on a zip of something else.
UNREADABLE = (OSError, ValueError, EOFError, KeyError, zipfile.BadZipFile, AssertionError)


def read_saved(path, agent: str, what: str, expected: str, read: Callable,
               suffixes: Sequence[str] = ("",)):
    """``read(file)`` of the first of ``path + suffix`` that is a file. ``ValueError`` in one line,
    beginning with ``agent`` (none when empty), naming the file, ``what`` it should be
    (``"network"``) and ``expected`` (what ``path=`` takes), when none is a file or ``read``
    fails on it."""
    path, lead = os.fspath(path), f"{agent}: " if agent else ""
    for suffix in suffixes:
        if os.path.isfile(path + suffix):
            try:
                return read(path + suffix)
            except UNREADABLE:
                raise ValueError(f"{lead}{path + suffix!r} is not a readable {what} (path= "
                                 f"takes {expected})") from None
    raise ValueError(f"{lead}no {what} at {path!r} (path= takes {expected})")


class NetworkAgent(Agent):
    """An agent playing a network's logits over the legal moves. ``deterministic``: the legal
    move with the highest logit (True) or a draw from their softmax (False); ``seed`` seeds the
    draws until the next :meth:`reset`."""

    wants_observation = False  # it encodes the view itself, incrementally
    view_type = SeatView  # Mediatore's view: what the encoder reads

    def __init__(self, deterministic: bool = True, seed: int | None = None):
        self.deterministic = bool(deterministic)
        self.encoder = Encoder()
        self.rng = np.random.default_rng(seed)

    def __deepcopy__(self, memo):
        # The tournament copies agents per slot: share the (read-only) network. The generator is
        # copied with its state, so that a copy made mid-deal (a copied environment's opponent)
        # draws what the original would; a fresh encoder starts afresh on the next view and
        # writes the same vector.
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        other.encoder = Encoder()
        other.rng = copy.deepcopy(self.rng, memo)
        return other

    def reset(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def policy_logits(self, observation: np.ndarray) -> np.ndarray:
        """The network's logits (486 floats, legal moves or not) for one encoded observation."""
        raise NotImplementedError

    def logits(self, view, observation=None) -> np.ndarray:
        """The network's logits (486 floats) for ``view``'s seat, legal moves or not (the view
        encoded here: ``observation`` is for a network that reads the table's)."""
        return self.policy_logits(self.encoder.encode(view))

    def act(self, observation, view) -> int:
        legal = view.legal_moves()
        if len(legal) == 1:
            return legal[0]  # the encoder catches up at the next real decision
        scores = self.logits(view, observation)[legal]
        if self.deterministic:
            return legal[int(np.argmax(scores))]
        p = np.exp(scores - scores.max())
        return legal[int(self.rng.choice(len(legal), p=p / p.sum()))]
