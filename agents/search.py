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
most ``max_worlds``, at least ``min_worlds`` before a time limit may stop the search), the
cards played by the rollouts of those scored by playing on rather than solved (at most
``max_cards``: a world costs by the cards its rollouts play, so that early in a hand few
worlds fit and late in it many) and the solver's nodes (``max_nodes``). **Every search agent's
default budget is work alone** (``time_limit=None``), so its choices depend only on its seed
and the same command gives the same moves, and the same tables, on any machine, with any
number of jobs, on Ray; the defaults were calibrated so that a decision
takes about what it took under the time limits they replace (docs/agents.md, *Budgets*). A
``time_limit`` in seconds (on the wall clock, or on the thread's CPU clock for a search that
should play alike on a busy machine) stays an option, for play against people, and so does a
``ceiling`` of seconds that the nodes left are converted from; with a time limit the worlds
are drawn until it is spent (``max_worlds`` still bounds them, ``max_cards`` does not). A
world whose scoring runs out of the budget half way (:meth:`WorldSearch.move_values` returns
None) is left out, and the search ends there.

**Inference** (:class:`WeighedWorlds`, an option of the Tressette games' ``pimc``): a uniform
world takes no account of how the other seats played; a world where a model of them (the greedy
agent) would have made the moves they made is more likely than one where it would not. So
``candidates`` worlds are drawn uniformly, each is weighed by ``miss`` to the power of the
moves of the other seats, with a choice, that the model would not have made in it
(:func:`misses`), and the search scores them in an order drawn by those weights without
replacement: the likely worlds first, the unlikely rarely within the budget.
"""

from __future__ import annotations

import math
import random
import time

from mediatore_env.analysis.solver import NODES_PER_SECOND, clear_table, last_nodes

from .base import Agent

__all__ = ["SearchBudget", "WeighedWorlds", "WorldSearch", "check_budget", "check_work", "misses"]

#: The clocks a time limit may be read on.
CLOCKS = ("wall", "cpu")


class SearchBudget:
    """The work and time one decision may spend (the module docstring), counted from its
    creation. :meth:`more` says whether another world may start; :meth:`solve` runs a solver
    search within the nodes left. :attr:`worlds` counts the worlds scored, :attr:`rollouts`
    those of them scored by playing on and :attr:`cards` the cards their rollouts played (at
    most ``max_cards``: None, no limit but ``max_worlds``), :attr:`nodes` the nodes searched;
    :attr:`spent` is set once a search ran out of nodes.

    ``max_nodes``: the nodes of the whole decision (the solver's table is cleared first, so
    that the count depends on this decision alone); else ``ceiling`` seconds, each search
    getting the nodes the time left before it buys at ``NODES_PER_SECOND``; else no limit."""

    def __init__(self, max_worlds: int, min_worlds: int = 1, time_limit: float | None = None,
                 max_nodes: int | None = None, ceiling: float | None = None,
                 clock: str = "wall", max_cards: int | None = None):
        if clock not in CLOCKS:
            raise ValueError(f"clock must be one of {', '.join(CLOCKS)}, got {clock!r}")
        self.max_worlds, self.min_worlds, self.time_limit = max_worlds, min_worlds, time_limit
        self.max_nodes, self.ceiling, self.cpu = max_nodes, ceiling, clock == "cpu"
        self.max_cards = max_cards
        self.worlds = self.nodes = self.rollouts = self.cards = 0
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
        return (self.worlds < self.max_worlds and not self.spent and self.in_time()
                and (self.max_cards is None or self.cards < self.max_cards))

    def rolled_out(self, cards: int) -> None:
        """Count a world scored by rollouts that played ``cards`` cards in all."""
        self.rollouts += 1
        self.cards += cards

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

    def solve_world(self, search, position, world_nodes: int | None):
        """``search(position, node_limit=)`` for one world, from an empty table (so that the
        nodes it takes, and so the choice, depend on this world alone), within ``world_nodes``
        and the nodes the decision has left: ``(answer, spent)``. ``answer`` None and
        ``spent`` False: the world is past ``world_nodes`` (score it otherwise); ``spent``
        True: the decision is out of nodes (leave the world out: no other starts)."""
        limit, left = world_nodes, self.nodes_left()
        by_decision = left is not None and (limit is None or left <= limit)
        if by_decision:
            limit = left
        clear_table()
        answer = search(position, node_limit=limit)
        self.nodes += last_nodes()
        if answer is None and by_decision:
            self.spent = True
            return None, True
        return answer, False


def check_work(name: str, value) -> None:
    """ValueError unless ``value``, the work budget ``name`` (cards, nodes), is a positive int
    or None."""
    if value is not None and (type(value) is not int or value < 1):
        raise ValueError(f"{name} must be a positive int or None, got {value!r}")


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


def misses(game, moves, seat: int, model) -> int:
    """Apply ``moves`` to ``game`` (a world, from its deal), counting the moves of seats other
    than ``seat`` that ``model`` (an agent) would not have made there with the world's cards in
    their hands; moves without a choice do not count."""
    count = 0
    for move in moves:
        mover = game.to_move
        if mover != seat and len(game.legal_moves()) > 1:
            count += model.act(None, game.view(mover)) != move
        game.apply(move)
    return count


class WeighedWorlds:
    """One decision's worlds by inference (the module docstring): ``draw(rng) -> (world,
    misses)`` drawn ``candidates`` times, then handed out by :meth:`sample` in an order drawn
    with weights ``miss ** misses`` without replacement (the keys of Efraimidis and Spirakis,
    in logarithms so that a weight of 1e-40 is still ordered), each world at most once."""

    def __init__(self, draw, candidates: int, miss: float, rng):
        drawn = [draw(rng) for _ in range(candidates)]
        keys = [math.log(-math.log(1.0 - rng.random())) - k * math.log(miss) for _, k in drawn]
        order = sorted(range(candidates), key=keys.__getitem__)
        self.worlds = [drawn[i][0] for i in order]
        self.misses = [drawn[i][1] for i in order]
        self.next = 0

    def sample(self, rng):
        """The next world in the order drawn when the worlds were (``rng``, the samplers'
        common argument, is not read again: each world comes at most once)."""
        if self.next == len(self.worlds):
            raise IndexError(f"all {len(self.worlds)} candidate worlds were handed out: draw "
                             "at least max_worlds candidates")
        self.next += 1
        return self.worlds[self.next - 1]


class WorldSearch(Agent):
    """PIMC over sampled worlds (the module docstring). ``time_limit``: seconds a decision may
    take (None, the default: work alone, reproducible from the seed); ``min_worlds``,
    ``max_worlds``: the worlds scored; ``rollout_cards``: with ``time_limit=None``, the most
    cards a decision's rollouts may play (None: no limit but ``max_worlds``); ``nodes``: with
    ``time_limit=None``, the solver's nodes a decision may search (None: ``max_time``'s);
    ``max_time``: a ceiling in seconds on the solver's searches, converted to nodes at
    ``NODES_PER_SECOND`` (with ``time_limit=None``, a fixed number of nodes per decision;
    None: no node limit); :attr:`clock`: what the time limit is read on."""

    wants_observation = False
    #: ``"wall"`` or ``"cpu"`` (the thread's CPU time: the same play on a busy machine).
    clock = "wall"

    def __init__(self, time_limit: float | None = None, min_worlds: int = 4,
                 max_worlds: int = 32, seed: int | None = None, max_time: float | None = None,
                 rollout_cards: int | None = None, nodes: int | None = None):
        if time_limit is not None and not time_limit > 0:
            raise ValueError(f"time_limit must be a positive number of seconds or None, "
                             f"got {time_limit!r}")
        if min(int(min_worlds), int(max_worlds)) < 1:
            raise ValueError(f"min_worlds and max_worlds must be at least 1, got {min_worlds} "
                             f"and {max_worlds}")
        check_work("rollout_cards", rollout_cards)
        check_work("nodes", nodes)
        self.time_limit, self.max_time = time_limit, max_time
        self.min_worlds, self.max_worlds = int(min_worlds), int(max_worlds)
        #: the work budget's most cards played by rollouts (None: no such limit)
        self.max_cards = rollout_cards
        #: the work budget's solver nodes per decision (None: ``max_time``'s, if any)
        self.max_nodes = nodes
        self.rng = random.Random(seed)
        #: each move's mean value over the worlds of the last :meth:`best_move` (None: none
        #: scored); :class:`agents.demos.Recorder` records it beside the move
        self.last_values: dict | None = None

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

    def cards_in_play(self, world) -> int:
        """The cards still to be played in the part of the episode the search scores: what a
        rollout of ``world`` plays, and so what it costs in the budget's ``max_cards``. 0 (the
        default): a game whose budget does not count them."""
        return 0

    # -- the search ------------------------------------------------------------------------

    def budget(self) -> SearchBudget:
        """A fresh budget for one decision (the module docstring)."""
        nodes = None
        if self.time_limit is None:
            nodes = (self.max_nodes if self.max_nodes is not None else None
                     if self.max_time is None else int(self.max_time * NODES_PER_SECOND))
        return SearchBudget(self.max_worlds, self.min_worlds, self.time_limit, nodes,
                            self.max_time, self.clock,
                            self.max_cards if self.time_limit is None else None)

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
        totals, budget = self.search(view, legal)
        # Kept for demonstrations (agents.demos): what the search thought of every move.
        self.last_values = {m: totals[m] / budget.worlds for m in legal} if budget.worlds \
            else None
        return max(legal, key=lambda m: (totals[m], -m))

    def move_values(self, world, view, options: list, budget: SearchBudget) -> dict | None:
        """Each option scored in ``world``: played, then rolled out and valued. A game whose
        search can score a world otherwise (an exact solver) overrides this; the values of one
        world need only be comparable with each other and on one scale across worlds (a
        constant added to all of one world's values changes no choice). None: the budget ran
        out before the world was scored. A world scored by rollouts counts in the budget's
        :attr:`~SearchBudget.rollouts`, with the cards its rollouts play."""
        budget.rolled_out(len(options) * self.cards_in_play(world))
        values = {}
        for move in options:
            trial = world.clone()
            trial.apply(move)
            self.roll_out(trial)
            values[move] = self.value(trial, view)
        return values
