"""Moved to mediatore_env.tools.play (deprecated alias)."""
from ._moved import moved

moved(__name__, "mediatore_env.tools.play")
