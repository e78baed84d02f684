"""The three Tressette games of the family as :class:`~mediatore_env.core.definition.GameDef`
objects, one per form: :data:`TRESSETTE` (partnership, 4 players), :data:`TRESSETTE3` and
:data:`TRESSETTE2`. A form is the rules with ``players`` fixed; every other part is shared,
its environment too (one module, :mod:`.env`, holds the three forms' environments)."""

from __future__ import annotations

import itertools
from functools import partial

from ..core.cards import POINTS
from ..core.definition import THIRDS, Environment, GameDef, Lazy, Limits, MoveTable, TrickFacts
from .display import DISPLAY
from .game import LEGACY_FORMAT, TressetteGame
from .moves import NUM_MOVES, move_text, parse_move
from .observation import observation, write_observation
from .rules import (LAST_TRICK_POINTS, TARGET, TressetteRules, false_claim_outcome, outcome,
                    score_of_thirds)
from .worlds import redeal

__all__ = ["TRESSETTE", "TRESSETTE3", "TRESSETTE2", "FORMS", "limits"]


def limits(rules: TressetteRules) -> Limits:
    """A game to 31: every hand gives the sides at least ``m`` points between them (the
    fewest the cards in play can make, each side's thirds rounded down, three-handed with the
    richest dead hand, plus the last trick), so at most ``sides * 30 // m + 1`` hands are
    played, each card of them a move, and one claim. The outcomes bound the utilities."""
    sides, thirds = rules.num_sides, sorted(POINTS)
    dead = sum(thirds[-10:]) if rules.has_dead_hand else 0
    fewest = min(sum(score_of_thirds(t) for t in split)
                 for total in range(sum(thirds) - dead, sum(thirds) + 1)
                 for split in _splits(total, sides))
    hands = sides * (TARGET - 1) // (fewest + LAST_TRICK_POINTS) + 1
    results = [false_claim_outcome(rules, side) for side in range(sides)]
    for totals in itertools.product(range(TARGET - 2, TARGET + 2), repeat=sides):
        results += [outcome(rules, totals, ender) for ender in range(sides)]
    cards = rules.players * rules.num_tricks
    return Limits(min(map(min, results)), max(map(max, results)),
                  hands * cards + rules.claim, hands)


def _splits(total: int, parts: int):
    """Every way to write ``total`` as ``parts`` ordered non-negative ints."""
    if parts == 1:
        yield (total,)
        return
    for first in range(total + 1):
        for rest in _splits(total - first, parts - 1):
            yield (first, *rest)


def partners(view) -> int:
    """The seats of the view's seat's side, as a bitmask (a partnership, or the seat alone)."""
    return sum(1 << s for s in view.rules.sides[view.side])


def scoring(rules: TressetteRules):
    """The family's thirds, the fewest wanted in Low Hand (melds aside: the cards' play does
    not change them)."""
    return THIRDS._replace(low=rules.low)


_FORM = partial(
    GameDef, unit="game", rules=TressetteRules, engine=TressetteGame,
    moves=MoveTable(NUM_MOVES, move_text, parse_move), observation=observation,
    reference_observation=write_observation, display=DISPLAY, limits=limits, worlds=redeal,
    record_format=LEGACY_FORMAT,
    tournament=Lazy("agents.tressette.tournament:HOOKS"),
    jax=Lazy("mediatore_env.jaxgame.tressette:TressetteJax"),
    trick=TrickFacts(side=partners, scoring=scoring, stock=lambda game: game.stock))

TRESSETTE = _FORM(name="tressette", title="Partnership Tressette", players=4,
                  agents=Lazy("agents.tressette:TRESSETTE_AGENTS"),
                  fixed={"players": 4}, environments=(Environment(
                      "mediatore_env.tressette.env:tressette_v0", "mediatore/tressette-v0"),))
TRESSETTE3 = _FORM(name="tressette3", title="Three-Handed Tressette", players=3,
                   agents=Lazy("agents.tressette:TRESSETTE3_AGENTS"), fixed={"players": 3}, environments=(Environment(
                       "mediatore_env.tressette.env:tressette3_v0", "mediatore/tressette3-v0"),))
TRESSETTE2 = _FORM(name="tressette2", title="Two-Handed Tressette", players=2,
                   agents=Lazy("agents.tressette:TRESSETTE2_AGENTS"), fixed={"players": 2}, environments=(Environment(
                       "mediatore_env.tressette.env:tressette2_v0", "mediatore/tressette2-v0"),))
#: The forms by name.
FORMS = {d.name: d for d in (TRESSETTE, TRESSETTE3, TRESSETTE2)}
