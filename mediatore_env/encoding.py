"""Moved to mediatore_env.mediatore.observation (deprecated alias)."""
from ._moved import moved

moved(__name__, "mediatore_env.mediatore.observation")
