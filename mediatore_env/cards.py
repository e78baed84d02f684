"""Moved to mediatore_env.core.cards (deprecated alias)."""
from ._moved import moved

moved(__name__, "mediatore_env.core.cards")
