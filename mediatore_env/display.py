"""Moved to mediatore_env.mediatore.display (deprecated alias)."""
from ._moved import moved

moved(__name__, "mediatore_env.mediatore.display")
