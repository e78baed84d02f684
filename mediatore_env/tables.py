"""Moved to mediatore_env.analysis.tables and mediatore_env.tools.tables (deprecated alias)."""
from ._moved import moved

moved(__name__, "mediatore_env.analysis.tables", "mediatore_env.tools.tables")
