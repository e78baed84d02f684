"""A test-only toy game, registered from the tests (tests/conftest.py) as any game of the
family would be, to prove that a game's definition is all that the code above the engines
needs: it gets the universal random-simulation test, both PettingZoo environments, the
tools, the agents and OpenSpiel, with no code of its own beyond this folder.

Its parts: :mod:`.rules` (two switches), :mod:`.moves` (40 ids, one per card), :mod:`.game`
(the engine and its seat view), :mod:`.observation` (the writer), :mod:`.display` (the table's
text), and here its two forms' definitions.
"""

from __future__ import annotations

from functools import partial

from mediatore_env.core.cards import NUM_CARDS, TOTAL_THIRDS
from mediatore_env.core.definition import (THIRDS, TRICKS, GameDef, Limits, MoveTable,
                                           TrickFacts)

from .display import DISPLAY
from .game import HAND_SIZE, ToyGame
from .moves import NUM_MOVES, move_text, parse_move
from .observation import observation
from .rules import ToyRules


def limits(rules: ToyRules) -> Limits:
    """At most every point of the pack to one seat in every hand: ``players - 1`` times it up,
    the others' share down; one move a card."""
    most = rules.hands * TOTAL_THIRDS * (rules.players - 1)
    return Limits(-most, most, rules.hands * rules.players * HAND_SIZE, rules.hands)


def deal_order(rules: ToyRules, dealer: int) -> list[int | None]:
    """Who gets each card of a hand's pack: one at a time from the seat after the dealer, the
    rest unseen."""
    dealt = rules.players * HAND_SIZE
    return [(dealer + 1 + i) % rules.players for i in range(dealt)] + [None] * (NUM_CARDS - dealt)


#: What the generic trick agents need to know; the rest (no trumps, each seat alone, one move
#: a card) is the family's default, and so is the world sampler its deal order gives.
TRICK = TrickFacts(scoring=lambda rules: TRICKS if rules.scoring == "tricks" else THIRDS,
                   deal=deal_order)

_FORM = partial(GameDef, unit="game", rules=ToyRules, engine=ToyGame,
                moves=MoveTable(NUM_MOVES, move_text, parse_move), observation=observation,
                display=DISPLAY, limits=limits, trick=TRICK)

#: The two forms, as Tressette's are: two players, and three (a seat that watches two others).
TOY = _FORM(name="toy", title="Toy trick game", players=2, fixed={"players": 2})
TOY3 = _FORM(name="toy3", title="Three-handed toy trick game", players=3, fixed={"players": 3})
ENTRIES = (TOY, TOY3)
