"""What the environments share, and their registration with PettingZoo.

Each game's environments live in its folder (``mediatore_env.mediatore.mediatore_v0``,
``mediatore_env.tressette.env``, ...; the registry, :mod:`mediatore_env.registry`,
names them): PettingZoo AEC environments whose ``env()`` is the raw environment in
:class:`.wrappers.ProtectedEnv`, and Mediatore's single-seat Gymnasium environment. What they
share is written once here: in :mod:`.base` copies (``copy.deepcopy``, ``pickle``) that go on
with the game, the start of an episode, ``step`` and the end of an AEC episode, and the
generic environment of any game (``GameEnv``) whose hooks the games' own environments fill; in
:mod:`.seat` one seat of any game as a Gymnasium environment (``SeatEnv``, which Mediatore's
fills likewise); in :mod:`.wrappers` the protections; in :mod:`.pages` what their
documentation pages say alike.

Importing this package registers every PettingZoo environment of the registry under its id
(``mediatore/mediatore-v0``, ``mediatore/mediatore-bidding-v0``, ``mediatore/club-mediatore-v0``,
``mediatore/tressette-v0``, ``mediatore/tressette3-v0``, ``mediatore/tressette2-v0``), so
``pettingzoo.make("aec", "mediatore/mediatore-v0")`` works (PettingZoo before 1.27 has no
registry; then nothing happens). ``import mediatore_env`` does the same when PettingZoo is
already imported.
"""

from functools import partial

from ..core.definition import Environment
from ..registry import GAMES


def registered() -> dict[str, object]:
    """The PettingZoo ids of every game's environments, each with its entry point: its module's
    ``env`` (``'module:env'``, or for a module object in a module, a function that loads it
    when the environment is first made), or for a game with no environment module of its own
    the generic one (:func:`.base.make_env` of the game)."""
    out: dict[str, object] = {}
    for definition in GAMES.values():
        if not definition.environments:
            from .base import make_env
            out[definition.pettingzoo_id] = partial(make_env, definition.name)
        out.update({env.pettingzoo_id: (partial(_make, env) if ":" in env.module
                                        else f"{env.module}:env")
                    for env in definition.environments if env.pettingzoo_id is not None})
    return out


def _make(environment: Environment, **kwargs):
    """``env(**kwargs)`` of ``environment``'s module, loaded now (PettingZoo's string entry
    points name a module's attribute, not an attribute of one)."""
    return environment.load().env(**kwargs)


def register_with_pettingzoo() -> None:
    """Register every environment of :func:`registered` PettingZoo does not know yet (again
    after a game is registered later)."""
    try:
        from pettingzoo import aec_registry, register
    except ImportError:
        return
    for env_id, entry_point in registered().items():
        if env_id not in aec_registry:
            register("aec", env_id, entry_point=entry_point)


register_with_pettingzoo()
