"""Moved to mediatore_env.analysis.solver (deprecated alias)."""
from ._moved import moved

moved(__name__, "mediatore_env.analysis.solver")
