"""A test-only toy game, registered from the tests (tests/conftest.py) as any game of the
family would be, to prove that a game's definition is all that the code above the engines
needs: it gets the universal random-simulation test, both PettingZoo environments, the
tools, the agents and OpenSpiel, with no code of its own beyond this folder.

Its parts: :mod:`.rules` (two switches), :mod:`.game` (the engine, a plain trick game),
:mod:`.display` (the table's text), and here its two forms' definitions. Its moves (one a
card), its seat view, its observation (:mod:`mediatore_env.codec.trick`), its limits and its
world sampler are those every plain trick game gets.
"""

from __future__ import annotations

from functools import partial

from mediatore_env.codec.trick import trick_observation
from mediatore_env.core.definition import GameDef
from mediatore_env.core.trickgame import CARD_MOVES

from .display import DISPLAY
from .game import ToyGame
from .rules import ToyRules

_FORM = partial(GameDef, unit="game", rules=ToyRules, engine=ToyGame, moves=CARD_MOVES,
                observation=trick_observation, display=DISPLAY, limits=ToyGame.limits,
                trick=ToyGame.trick_facts())

#: The two forms, as Tressette's are: two players, and three (a seat that watches two others).
TOY = _FORM(name="toy", title="Toy trick game", players=2, fixed={"players": 2})
TOY3 = _FORM(name="toy3", title="Three-handed toy trick game", players=3, fixed={"players": 3})
DEFINITIONS = (TOY, TOY3)
