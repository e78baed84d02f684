"""A test-only toy game, registered from the tests (tests/conftest.py) as any game of the
family would be, to prove that the game interface (mediatore_env/core/game.py) and the
registry are all that the code above the engines needs: it gets the universal
random-simulation test, a PettingZoo environment, and the tools, with no code of its own
beyond this folder.

Its parts: :mod:`.rules` (two switches), :mod:`.moves` (40 ids, one per card), :mod:`.game`
(the engine and its seat view), :mod:`.observation` (the writer), :mod:`.display` (the table's
text), :mod:`.toy_v0` (the generic environment) and :mod:`.agents` (a random player).
"""

from __future__ import annotations

from mediatore_env.registry import GameEntry

_PARTS = dict(
    unit="game", engine="toy_game.game:ToyGame", rules="toy_game.rules:ToyRules",
    moves="toy_game.moves", codec="toy_game.observation", text="toy_game.display",
    agents="toy_game.agents:AGENTS")

#: The two forms, as Tressette's are: two players, and three (a seat that watches two others).
ENTRIES = (
    GameEntry("toy", "Toy trick game", players=2, fixed={"players": 2}, env="toy_game.toy_v0",
              env_id="mediatore/toy-v0", **_PARTS),
    GameEntry("toy3", "Three-handed toy trick game", players=3, fixed={"players": 3},
              env="toy_game.toy3_v0", env_id="mediatore/toy3-v0", **_PARTS),
)
