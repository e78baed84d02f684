"""Moved to mediatore_env.mediatore.game and mediatore_env.mediatore.moves and mediatore_env.core.cards and mediatore_env.core.tricks (deprecated alias)."""
from ._moved import moved

moved(__name__, "mediatore_env.mediatore.game", "mediatore_env.mediatore.moves", "mediatore_env.core.cards", "mediatore_env.core.tricks")
