"""What the search agents of every game share: Perfect Information Monte Carlo over the worlds
a seat cannot tell from the real one, in one loop, within one budget per decision.

A :class:`WorldSearch` scores some ``options`` (the legal moves, or a game's own candidates:
Mediatore's cards, its declarer's calls and exchanges) by drawing worlds from a sampler of the
seat's view (:meth:`WorldSearch.world_sampler`; by default :meth:`WorldSearch.world`, which a
game builds from the registry's ``worlds``: ``redeal(view, rng) -> (pack, moves)``, reading only
the seat's view) and scoring every option in each world (:meth:`WorldSearch.move_values`: by
default the option played, then the rest of the episode's part -- a Tressette hand, a club
deal -- played out by :meth:`roll_out` and valued by :meth:`value` from the seat's point of
view; a game may score a world otherwise, by an exact solver). Every option is scored on the
same worlds, so the comparison is paired; :meth:`WorldSearch.best_move` plays the move of best
total (ties: the lowest id), and a game with its own tie-breaks reads :meth:`search`'s totals.

The **budget** of a decision (:class:`SearchBudget`) counts its work: the worlds scored (at
most ``max_worlds``, at least ``min_worlds`` before a time limit may stop the search) and the
solver's nodes (``max_nodes``); a ``time_limit`` in seconds (on the wall clock, or on the
thread's CPU clock for a search that should play alike on a busy machine) and a ``ceiling`` of
seconds that the nodes left are converted from are optional. With ``time_limit=None`` the
budget is work alone, so the agent's choices depend only on its seed and the same command
gives the same moves on any machine. A world whose scoring runs out of the budget half way
(:meth:`WorldSearch.move_values` returns None) is left out, and the search ends there.
"""

from __future__ import annotations

import random
import time

from mediatore_env.analysis.solver import NODES_PER_SECOND, clear_table, last_nodes

from .base import Agent

__all__ = ["SearchBudget", "WorldSearch", "check_budget"]

#: The clocks a time limit may be read on.
CLOCKS = ("wall", "cpu")


class SearchBudget:
    """The work and time one decision may spend (the module docstring), counted from its
    creation. :meth:`more` says whether another world may start; :meth:`solve` runs a solver
    search within the nodes left. :attr:`worlds` counts the worlds scored, :attr:`nodes` the
    nodes searched; :attr:`spent` is set once a search ran out of nodes.

    ``max_nodes``: the nodes of the whole decision (the solver's table is cleared first, so
    that the count depends on this decision alone); else ``ceiling`` seconds, each search
    getting the nodes the time left before it buys at ``NODES_PER_SECOND``; else no limit."""

    def __init__(self, max_worlds: int, min_worlds: int = 1, time_limit: float | None = None,
                 max_nodes: int | None = None, ceiling: float | None = None,
                 clock: str = "wall"):
        if clock not in CLOCKS:
            raise ValueError(f"clock must be one of {', '.join(CLOCKS)}, got {clock!r}")
        self.max_worlds, self.min_worlds, self.time_limit = max_worlds, min_worlds, time_limit
        self.max_nodes, self.ceiling, self.cpu = max_nodes, ceiling, clock == "cpu"
        self.worlds = self.nodes = 0
        self.spent = False
        if max_nodes is not None:
            clear_table()  # reproducible: the same nodes whatever was searched before
        self.start = self.now()

    def now(self) -> float:
        # Read through the module, so that a test can give it a clock of its own.
        return time.thread_time() if self.cpu else time.perf_counter()

    def in_time(self) -> bool:
        """Whether the time limit lets the search go on (always before ``min_worlds``)."""
        return (self.time_limit is None or self.worlds < self.min_worlds
                or self.now() - self.start <= self.time_limit)

    def more(self) -> bool:
        """Whether another world may start."""
        return self.worlds < self.max_worlds and not self.spent and self.in_time()

    def nodes_left(self) -> int | None:
        """The nodes the next search may take (None: no limit)."""
        if self.max_nodes is not None:
            return self.max_nodes - self.nodes
        if self.ceiling is not None:
            return max(0, int((self.ceiling - (self.now() - self.start)) * NODES_PER_SECOND))
        return None

    def solve(self, search, *args):
        """``search(*args, node_limit=<the nodes left>)``, a search of
        :mod:`mediatore_env.analysis.solver`, its nodes counted; None when they ran out (the
        budget is then spent: no other world starts)."""
        limit = self.nodes_left()
        answer = search(*args, node_limit=limit)
        self.nodes += last_nodes()
        if answer is None and limit is not None:
            self.spent = True
        return answer


def check_budget(worlds, time_limit, max_time) -> None:
    """ValueError unless ``worlds`` is a positive int, ``time_limit`` and ``max_time`` positive
    seconds or None, and the limit not above the ceiling."""
    if not isinstance(worlds, int) or worlds < 1:
        raise ValueError(f"worlds must be a positive int, got {worlds!r}")
    if time_limit is not None and not time_limit > 0:
        raise ValueError(f"time_limit must be a positive number of seconds or None, "
                         f"got {time_limit!r}")
    if max_time is not None and not max_time > 0:
        raise ValueError(f"max_time must be a positive number of seconds or None, got {max_time!r}")
    if max_time is not None and time_limit is not None and time_limit > max_time:
        raise ValueError(f"time_limit {time_limit} is above the ceiling max_time {max_time}: "
                         "raise max_time too, or set it to None")


class _Drawn:
    """A search's worlds drawn by its :meth:`WorldSearch.world`."""

    def __init__(self, search: "WorldSearch", view):
        self.search, self.view = search, view

    def sample(self, rng):
        return self.search.world(self.view, rng)


class WorldSearch(Agent):
    """PIMC over sampled worlds (the module docstring). ``time_limit``: seconds a decision may
    take (None: work alone, reproducible from the seed); ``min_worlds``, ``max_worlds``: the
    worlds scored; ``max_time``: a ceiling in seconds on the solver's searches, converted to
    nodes at ``NODES_PER_SECOND`` (with ``time_limit=None``, a fixed number of nodes per
    decision; None: no node limit); :attr:`clock`: what the time limit is read on."""

    wants_observation = False
    #: ``"wall"`` or ``"cpu"`` (the thread's CPU time: the same play on a busy machine).
    clock = "wall"

    def __init__(self, time_limit: float | None = 0.1, min_worlds: int = 4,
                 max_worlds: int = 32, seed: int | None = None, max_time: float | None = None):
        if time_limit is not None and not time_limit > 0:
            raise ValueError(f"time_limit must be a positive number of seconds or None, "
                             f"got {time_limit!r}")
        if min(int(min_worlds), int(max_worlds)) < 1:
            raise ValueError(f"min_worlds and max_worlds must be at least 1, got {min_worlds} "
                             f"and {max_worlds}")
        self.time_limit, self.max_time = time_limit, max_time
        self.min_worlds, self.max_worlds = int(min_worlds), int(max_worlds)
        self.rng = random.Random(seed)

    def reset(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    # -- what a game's search says ---------------------------------------------------------

    def world(self, view, rng):
        """A game in a world ``view``'s seat cannot tell from the real one, drawn with ``rng``."""
        raise NotImplementedError

    def world_sampler(self, view):
        """What one decision draws its worlds from: anything with ``sample(rng)``. By default
        :meth:`world`; a game that prepares its sampler once per decision returns it."""
        return _Drawn(self, view)

    def roll_out(self, game) -> None:
        """Play ``game`` on to the end of the part of the episode the search scores."""
        raise NotImplementedError

    def value(self, game, view) -> float:
        """What ``game``, played out, is worth to ``view``'s seat."""
        raise NotImplementedError

    # -- the search ------------------------------------------------------------------------

    def budget(self) -> SearchBudget:
        """A fresh budget for one decision (the module docstring)."""
        fixed = self.max_time is not None and self.time_limit is None
        return SearchBudget(self.max_worlds, self.min_worlds, self.time_limit,
                            int(self.max_time * NODES_PER_SECOND) if fixed else None,
                            self.max_time, self.clock)

    def search(self, view, options: list) -> tuple[dict, SearchBudget]:
        """Each option's total value over the worlds drawn for this decision, and the budget
        they were drawn within (its ``worlds`` and ``nodes``)."""
        budget = self.budget()
        sampler = self.world_sampler(view)
        totals = dict.fromkeys(options, 0)
        while budget.more():
            values = self.move_values(sampler.sample(self.rng), view, options, budget)
            if values is None:
                break  # out of the budget half way: this world is left out, no other starts
            for option, value in values.items():
                totals[option] += value
            budget.worlds += 1
        return totals, budget

    def best_move(self, view, legal: list[int]) -> int:
        """The move of ``legal`` of best total value over the sampled worlds (ties: the lowest
        id)."""
        totals, _ = self.search(view, legal)
        return max(legal, key=lambda m: (totals[m], -m))

    def move_values(self, world, view, options: list, budget: SearchBudget) -> dict | None:
        """Each option scored in ``world``: played, then rolled out and valued. A game whose
        search can score a world otherwise (an exact solver) overrides this; the values of one
        world need only be comparable with each other and on one scale across worlds (a
        constant added to all of one world's values changes no choice). None: the budget ran
        out before the world was scored."""
        values = {}
        for move in options:
            trial = world.clone()
            trial.apply(move)
            self.roll_out(trial)
            values[move] = self.value(trial, view)
        return values
