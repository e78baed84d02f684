"""The toy game as a PettingZoo AEC environment: the package's generic environment over the
toy game's registry entry, with no code of its own."""

from __future__ import annotations

from functools import partial

from mediatore_env.envs.base import GameEnv, make_env

raw_env = partial(GameEnv, "toy")
env = partial(make_env, "toy")
