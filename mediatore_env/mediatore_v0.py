"""Moved to mediatore_env.envs.mediatore_v0 (deprecated alias)."""
from ._moved import moved

moved(__name__, "mediatore_env.envs.mediatore_v0")
