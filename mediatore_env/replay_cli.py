"""Moved to mediatore_env.tools.replay (deprecated alias)."""
from ._moved import moved

moved(__name__, "mediatore_env.tools.replay")
