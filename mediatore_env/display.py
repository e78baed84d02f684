"""Moved to mediatore_env.codec.display (deprecated alias)."""
from ._moved import moved

moved(__name__, "mediatore_env.codec.display")
