"""Moved to mediatore_env.mediatore.mediatore_bidding_v0 (deprecated alias)."""
from ._moved import moved

moved(__name__, "mediatore_env.mediatore.mediatore_bidding_v0")
