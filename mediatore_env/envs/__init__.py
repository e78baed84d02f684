"""The environments: PettingZoo AEC (:mod:`.mediatore_v0`, :mod:`.mediatore_bidding_v0`,
:mod:`.club_mediatore_v0` for club Mediatore, and the Tressette games :mod:`.tressette_v0`,
:mod:`.tressette3_v0`, :mod:`.tressette2_v0` on :mod:`.tressette_base`; each ``env()`` is the
raw environment in :class:`.wrappers.ProtectedEnv`) and the single-seat Gymnasium environment
(:mod:`.single_seat`). What they share is written once in :mod:`.base`: copies
(``copy.deepcopy``, ``pickle``) that go on with the game, the start of an episode, ``step``
and the end of an AEC episode.

Importing this package registers ``mediatore/mediatore-v0``, ``mediatore/mediatore-bidding-v0``,
``mediatore/club-mediatore-v0``, ``mediatore/tressette-v0``, ``mediatore/tressette3-v0`` and
``mediatore/tressette2-v0`` with PettingZoo's registry, so
``pettingzoo.make("aec", "mediatore/mediatore-v0")`` works (PettingZoo before 1.27 has no
registry; then nothing happens). ``import mediatore_env`` does the same when PettingZoo is
already imported.
"""

REGISTERED = {"mediatore/mediatore-v0": "mediatore_env.mediatore.mediatore_v0",
              "mediatore/mediatore-bidding-v0": "mediatore_env.mediatore.mediatore_bidding_v0",
              "mediatore/club-mediatore-v0": "mediatore_env.club.club_mediatore_v0",
              "mediatore/tressette-v0": "mediatore_env.tressette.tressette_v0",
              "mediatore/tressette3-v0": "mediatore_env.tressette.tressette3_v0",
              "mediatore/tressette2-v0": "mediatore_env.tressette.tressette2_v0"}


def _register_with_pettingzoo() -> None:
    try:
        from pettingzoo import aec_registry, register
    except ImportError:
        return
    for name, module in REGISTERED.items():
        if name not in aec_registry:
            register("aec", name, entry_point=f"{module}:env")


_register_with_pettingzoo()
