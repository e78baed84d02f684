"""What the totals are worth in a game to 31: each side's expected outcome of the game from
the sides' totals at the end of a hand, so that a search can value a hand by the game it
leaves, not by its points alone.

Far from 31 a point is worth about as much as any other, and a hand's points margin is the
whole story. Near 31 it is not: in Low Hand a side at 28 loses the game with 3 more points
and does not care whether the others take 4 or 8 of the hand's 11; in the plain game a side
at 29 wins with 2 points, and stopping it is worth more than any margin. A search that values
a world by the game's outcome where the hand ends it, and by :func:`expected_outcome` of the
totals where it does not, plays each hand for the game.

The model: a hand's points (each side's, melds included) are independent draws from
:data:`HANDS` hands of greedy self-play, the sides' points taken in every order (a fixed
seed: the same table everywhere, built once per number of players and Low Hand, in 0.3 to
1.5 s); the game ends after the first hand that brings a side to 31,
settled by the rules' :func:`~mediatore_env.tressette.rules.outcome`. When two sides reach 31
in one hand, which got there first is not modelled: each is taken as the ender with equal
chance. (The search itself plays the world's hand with the game's rule -- the game ends at
the very card that brings a side to 31 -- and asks this model only about hands still to come.)

    >>> from mediatore_env.tressette.rules import TressetteRules
    >>> low = TressetteRules(low=True)
    >>> round(expected_outcome(low, (30, 0))[0], 2)  # any point loses Low Hand at 30
    -1.0
    >>> [round(v, 6) + 0 for v in expected_outcome(low, (12, 12))]  # even totals, even game
    [0.0, 0.0]
"""

from __future__ import annotations

import random
from functools import lru_cache
from itertools import permutations

import numpy as np

from mediatore_env.tressette.game import TressetteGame, random_pack
from mediatore_env.tressette.rules import TARGET, TressetteRules, outcome

from .greedy import roll_out

#: Hands of greedy self-play that make the model of a hand's points.
HANDS = 400
_SEED = 31


def hand_point_model(rules: TressetteRules) -> tuple[tuple[tuple[int, ...], float], ...]:
    """Each way a hand's points fell among the sides (melds, cards and the last trick) in
    :data:`HANDS` hands of greedy self-play under ``rules``, with its frequency."""
    return _hand_point_model(rules.players, rules.low)


def expected_outcome(rules: TressetteRules, totals) -> tuple[float, ...]:
    """Each side's expected outcome of the game (per seat of the side, the rules' units)
    when a hand ends with the sides at ``totals``: the rules' outcome where a side has reached
    31, else the model's (the module docstring)."""
    if max(totals) >= TARGET:
        return ended(rules, totals)
    return tuple(float(v) for v in _outlook(rules.players, rules.low)[tuple(totals)])


def ended(rules: TressetteRules, totals) -> tuple[float, ...]:
    """Each side's outcome of a game ended with the sides at ``totals`` (one or more at 31):
    the rules', each side at 31 taken as the one that got there first with equal chance."""
    enders = [side for side in range(rules.num_sides) if totals[side] >= TARGET]
    seats = [outcome(rules, totals, ender) for ender in enders]
    return tuple(sum(o[seat] for o in seats) / len(seats)
                 for seat in (side[0] for side in rules.sides))


# Only the players and Low Hand change a hand's points or the outcome: one model for each.

@lru_cache(maxsize=None)
def _hand_point_model(players: int, low: bool):
    rules = TressetteRules(players=players, low=low)
    rng = random.Random(_SEED)
    counts: dict[tuple[int, ...], int] = {}
    for i in range(HANDS):
        game = TressetteGame(rules, dealer=i % rules.players)
        game.deal(random_pack(rng))
        roll_out(game)
        # Every seat order of the sides alike: the model knows no dealer, so no side is first.
        for points in permutations(game.hand_points):
            counts[points] = counts.get(points, 0) + 1
    total = sum(counts.values())
    return tuple((points, n / total) for points, n in sorted(counts.items()))


@lru_cache(maxsize=None)
def _outlook(players: int, low: bool) -> np.ndarray:
    """:func:`expected_outcome` of every totals, as an array indexed by the totals (then the
    side); indices at or past 31 hold the outcome of a game ended there."""
    rules = TressetteRules(players=players, low=low)
    sides = rules.num_sides
    drawn = _hand_point_model(players, low)
    points = np.array([p for p, _ in drawn])
    chances = np.array([c for _, c in drawn])
    size = TARGET + int(points.max())
    table = np.zeros((size,) * sides + (sides,))
    for after in np.ndindex(*(size,) * sides):
        if max(after) >= TARGET:
            table[after] = ended(rules, after)
    # A hand adds points, so the totals of a larger sum are known before those of a smaller.
    grid = np.indices((TARGET,) * sides).reshape(sides, -1).T
    for level in range(sides * (TARGET - 1), -1, -1):
        now = grid[grid.sum(axis=1) == level]
        value = sum(c * table[tuple((now + p).T)] for p, c in zip(points, chances))
        table[tuple(now.T)] = value
    return table
