"""Moved to mediatore_env.tools.bench (deprecated alias)."""
from mediatore_env._moved import moved

moved(__name__, "mediatore_env.tools.bench")
