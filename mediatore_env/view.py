"""Moved to mediatore_env.mediatore.view and mediatore_env.mediatore.worlds (deprecated alias)."""
from ._moved import moved

moved(__name__, "mediatore_env.mediatore.view", "mediatore_env.mediatore.worlds")
