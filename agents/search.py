"""What the search agents of every game share: Perfect Information Monte Carlo over the worlds
a seat cannot tell from the real one, with a time budget per decision.

A :class:`WorldSearch` agent chooses among ``legal`` moves by drawing worlds from the game's
own sampler (the registry's ``worlds``: ``redeal(view, rng) -> (pack, moves)``, which reads
only the seat's view), building each world's game, and scoring every move in it: the move
played, then the rest of the episode's part (a Tressette hand, a club deal) played out by
:meth:`roll_out`, then :meth:`value` read from the seat's point of view. Every move is scored
on the same worlds, so the comparison is paired; the move of best total wins (ties: the lowest
id). A game may score a world's moves otherwise (:meth:`move_values`: Tressette solves late
worlds exactly). The worlds are drawn until ``time_limit`` seconds are spent (at least
``min_worlds``, at most ``max_worlds``); with ``time_limit=None`` exactly ``max_worlds``
worlds, so that the agent's choices depend only on its seed. Subclasses say how a world's game
is built (:meth:`world`), played out and valued.
"""

from __future__ import annotations

import random
import time

from .base import Agent


class WorldSearch(Agent):
    """PIMC over sampled worlds (the module docstring)."""

    wants_observation = False

    def __init__(self, time_limit: float | None = 0.1, min_worlds: int = 4,
                 max_worlds: int = 32, seed: int | None = None):
        if time_limit is not None and not time_limit > 0:
            raise ValueError(f"time_limit must be a positive number of seconds or None, "
                             f"got {time_limit!r}")
        if min(int(min_worlds), int(max_worlds)) < 1:
            raise ValueError(f"min_worlds and max_worlds must be at least 1, got {min_worlds} "
                             f"and {max_worlds}")
        self.time_limit = time_limit
        self.min_worlds, self.max_worlds = int(min_worlds), int(max_worlds)
        self.rng = random.Random(seed)

    def reset(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    # -- what a game's search says ---------------------------------------------------------

    def world(self, view, rng):
        """A game in a world ``view``'s seat cannot tell from the real one, drawn with ``rng``."""
        raise NotImplementedError

    def roll_out(self, game) -> None:
        """Play ``game`` on to the end of the part of the episode the search scores."""
        raise NotImplementedError

    def value(self, game, view) -> float:
        """What ``game``, played out, is worth to ``view``'s seat."""
        raise NotImplementedError

    # -- the search ------------------------------------------------------------------------

    def best_move(self, view, legal: list[int]) -> int:
        """The move of ``legal`` of best total value over the sampled worlds."""
        start = time.perf_counter()
        totals = dict.fromkeys(legal, 0.0)
        worlds = 0
        while worlds < self.max_worlds:
            if (self.time_limit is not None and worlds >= self.min_worlds
                    and time.perf_counter() - start >= self.time_limit):
                break
            world = self.world(view, self.rng)
            for move, value in self.move_values(world, view, legal).items():
                totals[move] += value
            worlds += 1
        return max(legal, key=lambda m: (totals[m], -m))

    def move_values(self, world, view, legal: list[int]) -> dict[int, float]:
        """Each move of ``legal`` scored in ``world``: played, then rolled out and valued. A
        game whose search can score a world otherwise (an exact solver) overrides this; the
        values of one world need only be comparable with each other and on one scale across
        worlds (a constant added to all of one world's values changes no choice)."""
        values = {}
        for move in legal:
            trial = world.clone()
            trial.apply(move)
            self.roll_out(trial)
            values[move] = self.value(trial, view)
        return values
