"""Moved to mediatore_env.codec.observation (deprecated alias)."""
from ._moved import moved

moved(__name__, "mediatore_env.codec.observation")
