"""Moved to mediatore_env.mediatore.single_seat (deprecated alias)."""
from ._moved import moved

moved(__name__, "mediatore_env.mediatore.single_seat")
