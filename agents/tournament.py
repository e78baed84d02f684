"""Duplicate tournaments of any registered game: every agent plays every hand, and the results
are compared episode by episode.

One engine serves every game of :mod:`mediatore_env.registry`; what differs between games --
how an episode's packs come from the seed, what is kept of a play beyond its outcome, the extra
statistics, the report and the JSON -- is the game's :class:`Hooks`, named by its registry
definition's ``tournament`` field (Mediatore's roles and contracts in
:mod:`agents.mediatore.tournament`, the Tressette games' games won in
:mod:`agents.tressette.tournament`, club Mediatore's mediator deals in
:mod:`agents.club.tournament`; a game without hooks gets the units alone).

**Episodes.** An episode is the definition's unit: a deal, a game to 31, a session. Episode ``i``
of a run with seed ``S`` is first dealt by seat ``i % n`` (``n`` players; :meth:`Hooks.dealer`),
and the packs it needs come from the seed, the episode and the hand (:meth:`Hooks.pack`): by
default the ``k``-th pack is ``numpy.random.default_rng([S, i, k]).permutation(40)``. Whatever
plays a tournament's episode elsewhere (``mediatore-play --deal K``, the demonstrations) asks
the same two hooks, so that episode ``K`` is the same cards there. The same ``S`` gives
the same episodes in every run, whatever the agents, the number of episodes or of processes.

**Rotations.** A lineup is one agent per seat. Each episode is played ``n`` times by the same
lineup over the same packs, rotated one seat each time: in rotation ``r`` seat ``s`` is played
by ``lineup[(s - r) % n]``. So every agent holds every hand of the episode once, and luck of
the cards cancels out. Before each play an agent is reset with a seed derived from ``S``, the
episode number and the *seat* (:func:`derive_seed`), so a random agent in a given seat makes
the same random choices in every rotation and identical agents play identical games.

**The result of an episode.** For each agent, its outcome (``game.outcome``: units, game
points, chips) summed over all the seats it played in the rotations, divided by that number of
seats: the mean outcome of one seat played by that agent. An agent listed twice is averaged
over all its seats. Outcomes are zero-sum in every play, so the results of an episode,
weighted by the agents' numbers of copies, sum to zero, and identical agents come out at
exactly 0.

**Confidence intervals** are over episodes, not plays: the episode results ``x_1 .. x_n`` are
independent draws (the rotations of an episode are not), and the interval is
``mean +- t * sd / sqrt(n)`` with Student's t quantile for 95% (1.96 for large n).

**Processes and Ray.** ``jobs > 1`` spreads the episodes over worker processes (started
fresh, not forked, so that a process that loaded JAX is never forked; no more than the episodes
or the cores; ended with the run however it ends: :func:`mediatore_env.runinfo.process_pool`),
and ``ray`` over the workers of a Ray instance, local or a cluster. Either way the episodes go
out in chunks of consecutive numbers, a few at a time, each played by the same function
(:func:`_play_chunk`) from the seed alone; the statistics are running sums, added in episode order in the main
process, so the results are identical for any number of jobs, with or without Ray, and the
memory a run holds does not grow with the number of episodes asked for (only each agent's
result per episode is kept, 8 bytes each, for the JSON and the intervals).

    >>> result = run_tournament(["random", "random", "random", "random"], deals=20, seed=3)
    >>> result.standings[0].mean
    0.0
"""

from __future__ import annotations

import contextlib
import copy
import math
import operator
import sys
import time
import uuid
import warnings
from array import array
from collections import deque
from dataclasses import dataclass
from typing import Any, Callable, Iterator, NamedTuple, Sequence

import mediatore_env.registry as registry
from mediatore_env.core.cards import NUM_CARDS
from mediatore_env.runinfo import counting, ignore_interrupts, process_pool, worker_count

from .base import Agent, agent_name, is_agent, play, wants_observation
from .registry import agents_of, make_agent
from .report import counted

# -- packs, seeds and rotations ---------------------------------------------------------------

_MASK64 = (1 << 64) - 1


def shuffled_pack(*key: int) -> list[int]:
    """The pack that the seed sequence ``key`` shuffles: numpy's
    ``default_rng(list(key)).permutation(40)``, the one source of every tournament's packs."""
    import numpy as np
    return np.random.default_rng(list(key)).permutation(NUM_CARDS).tolist()


def derive_seed(seed: int, index: int, seat: int) -> int:
    """The seed an agent at ``seat`` is reset with in episode ``index`` (a 64-bit mix of the
    three)."""
    x = (seed * 0x9E3779B97F4A7C15 + index * 0xD1B54A32D192ED03 + seat * 0x8CB92BA72F3D8DD7
         + 0x632BE59BD9B4E019) & _MASK64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK64
    return x ^ (x >> 31)


def rotate(lineup: Sequence, rotation: int) -> list:
    """Who plays each seat in ``rotation``: seat ``s`` gets ``lineup[(s - rotation) % n]`` for a
    lineup of ``n``."""
    n = len(lineup)
    return [lineup[(s - rotation) % n] for s in range(n)]


def cyclic_lineups(names: Sequence[str], seats: int = 4) -> list[tuple[str, ...]]:
    """Lineups of ``seats`` in which each of ``names`` fills the same number of slots:
    ``names[k:k+seats]`` cyclically, for each ``k``. Two names give ``(a, b, a, b)`` and
    ``(b, a, b, a)``."""
    n = len(names)
    if n < 1:
        raise ValueError("need at least one name")
    return [tuple(names[(k + j) % n] for j in range(seats)) for k in range(n)]


# -- statistics ---------------------------------------------------------------------------------

# Two-sided 95% quantiles of Student's t for 1..30 degrees of freedom; the normal one beyond.
_T95 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179,
        2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
        2.060, 2.056, 2.052, 2.048, 2.045, 2.042)
Z95 = 1.959963984540054


def t95(df: int) -> float:
    """Two-sided 95% quantile of Student's t with ``df`` degrees of freedom."""
    if df < 1:
        raise ValueError("a confidence interval needs at least two values")
    return _T95[df - 1] if df <= len(_T95) else Z95 + 2.4 / df  # within 0.001 of the exact value


def mean_ci(values: Sequence[float]) -> tuple[float, float, float]:
    """(mean, low, high) of a 95% confidence interval for the mean of independent ``values``.

    With a single value the interval is (nan, nan); with identical values it has no width.
    """
    n = len(values)
    if n == 0:
        raise ValueError("no values")
    mean = math.fsum(values) / n
    if n == 1:
        return mean, math.nan, math.nan
    half = half_width(math.fsum((v - mean) ** 2 for v in values) / (n - 1), n)
    return mean, mean - half, mean + half


def has_interval(ci) -> bool:
    """Whether a mean's 95% interval ``(low, high)`` exists: over one value it is
    ``(nan, nan)`` (:func:`mean_ci`), and null in the JSON saved (``runinfo.json_text``)."""
    return not any(x is None or math.isnan(x) for x in ci)


def half_width(variance: float, n: int) -> float:
    """Half the 95% confidence interval (Student's t) of the mean of ``n`` >= 2 independent
    values whose sample variance is ``variance``."""
    return t95(n - 1) * math.sqrt(variance / n)


class Play(NamedTuple):
    """One play of an episode by one lineup in one rotation, seen from the seats: what the
    statistics are made of (the game itself is not kept)."""
    lineup: int
    rotation: int
    outcome: tuple[int, ...]      #: per seat, zero-sum
    facts: Any = ()               #: what the game's hooks keep of it (:meth:`Hooks.facts`)


@dataclass
class Standing:
    """One agent's results over a tournament."""
    name: str
    copies: int                    #: slots it fills over all lineups
    per_deal: Sequence[float]      #: its result in each episode (see the module docstring)
    mean: float
    ci: tuple[float, float]
    plays: int                     #: seat-plays over the whole run
    #: the game's own sums for the agent, its hooks' :meth:`Hooks.agent_totals` (Mediatore's
    #: ``roles`` and ``contracts``, the Tressette games' ``won`` and ``points``...)
    stats: dict


class Hooks:
    """What one game adds to the duplicate tournament. This base class serves a game without
    hooks (its outcome per episode only); a game's hooks subclass it and are named by its
    definition's ``tournament`` field."""

    #: The JSON's ``"format"``.
    format = "tournament"
    #: A function drawing a result's chart into a path (``--plot``), where the game has one.
    chart: Callable | None = None
    #: ``bidding(policies, deals, **options)``: a tournament of bidding policies
    #: (``--bidding``), where the game has an auction to compare them in.
    bidding: Callable | None = None
    #: The names of the bidding policies ``bidding`` compares, for the help.
    bidding_policies: tuple[str, ...] = ()

    def pack(self, seed: int, index: int, hand: int) -> list[int]:
        """The pack of the ``hand``-th deal (0, 1, ...) of episode ``index``."""
        return shuffled_pack(seed, index, hand)

    def dealer(self, index: int, players: int) -> int:
        """The seat that deals first in episode ``index`` of a game of ``players``: the seats
        take turns, so that over ``players`` episodes each deals first once."""
        return index % players

    def facts(self, game) -> Any:
        """What the statistics keep of a finished play beyond its outcome (small, picklable)."""
        return ()

    def record(self, game, **meta) -> dict:
        """The record of a finished play, ``meta`` under ``"meta"``."""
        return game.record(**meta)

    def run_totals(self) -> dict:
        """Fresh running sums over the whole run (:meth:`count_play` adds to them)."""
        return {}

    def agent_totals(self) -> dict:
        """Fresh running sums of one agent (:meth:`count_seat` adds to them)."""
        return {}

    def count_play(self, totals: dict, facts) -> None:
        """Add one play to the run's sums."""

    def count_seat(self, totals: dict, facts, seat: int, outcome: int) -> None:
        """Add one seat-play (``seat`` of a play, its ``outcome``) to its agent's sums."""

    def to_dict(self, result: "TournamentResult") -> dict:
        """The result, JSON-ready."""
        return {**result.header(), "standings": [
            {"name": s.name, "copies": s.copies, "mean": s.mean, "ci95": list(s.ci),
             "plays": s.plays, "per_episode": list(s.per_deal)} for s in result.standings]}

    def report(self, result: "TournamentResult") -> str:
        """The text report."""
        from .report import standings_table
        return "\n".join([*result.heading(), "", *standings_table(result)])


def hooks_of(game: str) -> Hooks:
    """The tournament hooks of registered game ``game`` (a plain :class:`Hooks` if it has
    none)."""
    hooks = registry.get(game).tournament
    return hooks.load() if hooks else Hooks()


class Tally:
    """The running sums of a tournament, fed one episode's plays at a time, in episode order;
    :meth:`standings` turns them into each agent's results."""

    def __init__(self, names: Sequence[str], lineups: Sequence[Sequence[str]], hooks: Hooks):
        copies = {name: sum(list(lineup).count(name) for lineup in lineups) for name in names}
        unknown = {n for lineup in lineups for n in lineup} - set(copies)
        if unknown:
            raise ValueError(f"lineups name unknown agents: {sorted(unknown)}")
        self.names = [name for name in names if copies[name]]
        self.lineups, self.hooks, self.copies = lineups, hooks, copies
        # seat-plays per episode: each lineup is played in one rotation per seat
        self.seats = {name: len(lineups[0]) * copies[name] for name in self.names}
        self.per_episode = {name: array("d") for name in self.names}
        self.agents = {name: hooks.agent_totals() for name in self.names}
        self.run = hooks.run_totals()

    def add(self, plays: Sequence[Play]) -> None:
        """Add the plays of the next episode."""
        units = dict.fromkeys(self.names, 0)
        for play_ in plays:
            lineup = self.lineups[play_.lineup]
            n = len(lineup)
            self.hooks.count_play(self.run, play_.facts)
            for seat in range(n):
                name = lineup[(seat - play_.rotation) % n]
                units[name] += play_.outcome[seat]
                self.hooks.count_seat(self.agents[name], play_.facts, seat, play_.outcome[seat])
        for name in self.names:
            self.per_episode[name].append(units[name] / self.seats[name])

    def standings(self) -> list[Standing]:
        """Each agent's results, best first."""
        out = []
        for name in self.names:
            values = self.per_episode[name]
            mean, low, high = mean_ci(values)
            out.append(Standing(name, self.copies[name], values, mean + 0.0,
                                (low + 0.0, high + 0.0), self.seats[name] * len(values),
                                self.agents[name]))
        out.sort(key=lambda s: -s.mean)
        return out


def standings(names: Sequence[str], lineups: Sequence[Sequence[str]],
              episodes: Sequence[Sequence[Play]], hooks: Hooks | None = None) -> list[Standing]:
    """Each agent's results from the plays of every episode (``episodes[i]``: the plays of
    episode i), sorted best first: :class:`Tally` at once."""
    tally = Tally(names, lineups, Hooks() if hooks is None else hooks)
    for plays in episodes:
        tally.add(plays)
    return tally.standings()


# -- building agents ----------------------------------------------------------------------------

def build_agent(spec, name: str, agents: dict | None = None) -> Agent:
    """A fresh agent from a spec: a name of ``agents`` (the game's agents registry; default
    Mediatore's) or ``module:Class`` text (see :func:`agents.make_agent`), an ``(text, {option:
    value})`` pair, an agent instance (copied), or an agent class / zero-argument factory."""
    if isinstance(spec, str):
        agent = make_agent(spec, agents)
    elif isinstance(spec, tuple) and len(spec) == 2 and isinstance(spec[0], str):
        agent = make_agent(spec[0], agents, **spec[1])
    elif is_agent(spec) and not isinstance(spec, type):
        agent = copy.deepcopy(spec)
    elif callable(spec):
        agent = spec()
    else:
        raise ValueError(f"not an agent spec: {spec!r}")
    if not is_agent(agent):
        raise ValueError(f"{spec!r} did not make an agent (no act method): {agent!r}")
    try:
        agent.name = name
    except AttributeError:
        pass
    return agent


def spec_name(spec) -> str:
    """The name a spec of :func:`build_agent` goes by: its text, an agent's name, a class's."""
    if isinstance(spec, str):
        return spec
    if isinstance(spec, tuple):
        return spec[0] + "".join(f",{k}={v}" for k, v in spec[1].items())
    if is_agent(spec) and not isinstance(spec, type):
        return agent_name(spec)
    return getattr(spec, "name", None) or getattr(spec, "__name__", None) or repr(spec)


def name_lineup(agents: Sequence) -> tuple[dict[str, Any], tuple[str, ...]]:
    """A lineup's names, one per slot, and each name's spec. Equal specs share a name (one
    agent listed several times); different specs with the same name get ``#2``, ``#3``..."""
    entries: dict[str, Any] = {}
    lineup = []
    for spec in agents:
        name = spec_name(spec)
        base, k = name, 1
        while name in entries and entries[name] is not spec and entries[name] != spec:
            k += 1
            name = f"{base}#{k}"
        entries[name] = spec
        lineup.append(name)
    return entries, tuple(lineup)


class _Player:
    """Plays episodes for one tournament (in the main process or in a worker)."""

    def __init__(self, game: str, rules, seed: int, entries: dict, lineups, record=()):
        definition = registry.get(game)
        self.rules, self.seed, self.lineups = rules, seed, lineups
        self.engine, self.hooks = definition.engine, hooks_of(game)
        self.unit = definition.unit
        self.index_key = f"{definition.unit}_index"  # the records' meta: deal_index, game_index...
        known = agents_of(definition)
        # One agent per (lineup, slot): a slot holds exactly one seat in each play.
        self.agents = [[build_agent(entries[name], name, known) for name in lineup]
                       for lineup in lineups]
        wanted = any(wants_observation(a) for row in self.agents for a in row)
        self.observation = definition.observation if wanted else None
        self.record = frozenset(record)

    def play(self, index: int) -> tuple[list[Play], list[dict]]:
        n = len(self.lineups[0])
        seeds = [derive_seed(self.seed, index, s) for s in range(n)]
        packs: list[list[int]] = []

        def pack(k: int) -> list[int]:  # the same packs, drawn once, for every rotation
            while len(packs) <= k:
                packs.append(self.hooks.pack(self.seed, index, len(packs)))
            return packs[k]

        plays, records = [], []
        for k, agents in enumerate(self.agents):
            for r in range(n):
                seated = rotate(agents, r)
                try:
                    game = play(self.engine(self.rules, self.hooks.dealer(index, n)), seated,
                                pack, seeds, self.observation)
                except Exception as e:  # where in the tournament: to play it again alone
                    e.add_note(f"in {self.unit} {index} (lineup "
                               f"{k}, rotation {r}) of the run of seed {self.seed}")
                    raise
                plays.append(Play(k, r, tuple(game.outcome), self.hooks.facts(game)))
                if index in self.record:
                    records.append(self.hooks.record(
                        game, agents=[agent_name(a) for a in seated], **{self.index_key: index},
                        lineup=k, rotation=r, seed=self.seed))
        return plays, records

    def play_range(self, start: int, stop: int):
        return [self.play(i) for i in range(start, stop)]


def _deal_number(d) -> int:
    """An episode number given by a user: an int or a numpy integer, not a bool or a float."""
    if isinstance(d, bool) or not hasattr(d, "__index__"):
        raise ValueError(f"deals to record are whole numbers, got {d!r}")
    return operator.index(d)


# -- executors: who plays the chunks of episodes --------------------------------------------------
# A chunk is a range of episode numbers; each executor plays the chunks with _Player.play_range
# (through _play_chunk in other processes) and yields (chunk, its results) in chunk order,
# keeping only a few chunks in flight. Every episode depends on the seed alone, so chunks can be
# played anywhere.

_WORKER: tuple[object, _Player] | None = None   # this process's player, with its config's key


def _play_chunk(key, args: tuple, bounds: tuple[int, int]):
    """Episodes ``bounds[0] .. bounds[1] - 1`` of the tournament ``args`` (the arguments of
    :class:`_Player`). The player (its agents) is built once per process and tournament,
    whichever executor the process serves."""
    global _WORKER
    if _WORKER is None or _WORKER[0] != key:
        _WORKER = (key, _Player(*args))
    return _WORKER[1].play_range(*bounds)


def _in_this_process(key, args, bounds):
    player = _Player(*args)  # not kept in _WORKER: the agents go when the run ends
    for b in bounds:
        yield b, player.play_range(*b)


def _in_order(submit: Callable, result: Callable, bounds: Iterator, window: int):
    """Submit chunks as results come back, at most ``window`` in flight, and yield
    ``(chunk, result(handle))`` in chunk order."""
    pending: deque = deque()
    for b in bounds:
        pending.append((b, submit(b)))
        if len(pending) >= window:
            b, handle = pending.popleft()
            yield b, result(handle)
    while pending:
        b, handle = pending.popleft()
        yield b, result(handle)


_TOURNAMENT: tuple | None = None   # (key, args) of a worker process of _in_processes


def _set_tournament(key, args):
    global _TOURNAMENT
    _TOURNAMENT = (key, args)
    ignore_interrupts()  # Ctrl-C is the main process's to answer


def _play_in_worker(bounds):
    return _play_chunk(*_TOURNAMENT, bounds)


def _in_processes(jobs):
    def run(key, args, bounds):
        # The configuration goes to each process once, when it starts. The pool ends with the
        # run, however it ends (runinfo.process_pool).
        with process_pool(jobs, _set_tournament, (key, args)) as pool:
            yield from _in_order(lambda b: pool.apply_async(_play_in_worker, (b,)),
                                 lambda handle: handle.get(), bounds, 2 * jobs)
    return run


RAY_MISSING = ("Ray is not installed; it is an optional extra: pip install -e \".[ray]\" "
               "(or pip install \"ray>=2.9\")")


def import_ray():
    """The ``ray`` module, or an ImportError that names the extra to install."""
    try:
        import ray
    except ImportError:
        raise ImportError(RAY_MISSING) from None
    return ray


def _start_ray(ray, address, jobs) -> bool:
    """Connect to the cluster at ``address``, or (``True``) start a local instance with ``jobs``
    workers (all cores when None). Returns whether this call started it (then it is ours to
    shut down). An instance already running in this process is used as it is."""
    if ray.is_initialized():
        return False
    if address is not True:
        _check_reachable(address)
    options = dict(include_dashboard=False, log_to_driver=False, configure_logging=False)
    try:
        with warnings.catch_warnings():
            # Ray starts its processes with fork and exec at once; JAX's warning against
            # forking its threads, raised where the caller loaded JAX, is not about them.
            warnings.filterwarnings("ignore", r"os\.fork\(\) was called", RuntimeWarning)
            if address is True:
                ray.init(num_cpus=jobs, **options)
            else:
                ray.init(address=address, **options)
    except (ConnectionError, RuntimeError, ValueError) as e:
        where = "a local Ray instance" if address is True else f"Ray at {address!r}"
        raise ValueError(f"could not start {where}: {str(e).strip().splitlines()[0]}") from None
    return True


def _check_reachable(address: str, timeout: float = 10.0) -> None:
    """Refuse a ``HOST:PORT`` or ``ray://HOST:PORT`` address where nothing listens: Ray itself
    would retry for minutes. Other forms (``auto``) are left to Ray, which answers quickly."""
    import socket
    host, colon, port = address.removeprefix("ray://").rpartition(":")
    if not (colon and host and port.isdecimal()):  # what int() reads ('²' is a digit too)
        return
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=timeout).close()
    except OSError as e:
        raise ValueError(f"no Ray cluster answers at {address!r} ({e.strerror or e}); start "
                         f"one with `ray start --head`, or give its address") from None


def _on_ray(ray, workers):
    def get(ref):
        try:
            return ray.get(ref)
        except ray.exceptions.RayTaskError as e:
            # The agent's own error (a bad name, an illegal move), not Ray's wrapping.
            cause = getattr(e, "cause", None)
            raise (cause if isinstance(cause, Exception) else e) from None

    def run(key, args, bounds):
        task = ray.remote(num_cpus=1)(_play_chunk)
        shared = ray.put(args)  # shipped to the object store once, not once per chunk
        yield from _in_order(lambda b: task.remote(key, shared, b), get, bounds, 2 * workers)
    return run


# -- running ------------------------------------------------------------------------------------

@dataclass
class TournamentResult:
    """What a tournament measured. ``standings`` is sorted best first; ``totals`` are the
    game's hooks' sums over the run; ``records`` the records of the episodes asked for."""
    game: str                    #: the registered game's name
    names: list[str]
    lineups: list[tuple[str, ...]]
    deals: int                   #: the episodes played (``--deals``): deals, games, sessions
    seed: int
    rules: Any
    jobs: int
    seconds: float
    standings: list[Standing]
    totals: dict
    records: list[dict]
    mode: str = "agents"
    executor: str = "serial"     #: "serial", "processes" or "ray"; ``jobs`` workers

    @property
    def unit(self) -> str:
        """What one episode is: ``'deal'``, ``'game'``, ``'session'``."""
        return registry.get(self.game).unit

    @property
    def hooks(self) -> Hooks:
        return hooks_of(self.game)

    @property
    def rules_line(self) -> str:
        """The rules in the game's own few words (its display's ``rules_line``: a Mediatore
        preset's name, a Tressette form and its changed switches, club's ante and length)."""
        return registry.get(self.game).display.rules_line(self.rules)

    @property
    def plays(self) -> int:
        """Episodes played, counting every lineup and rotation."""
        return self.deals * len(self.lineups) * len(self.lineups[0])

    def standing(self, name: str) -> Standing:
        for s in self.standings:
            if s.name == name:
                return s
        raise KeyError(f"no agent {name!r}; agents: {', '.join(self.names)}")

    def header(self) -> dict:
        """What every game's JSON starts with."""
        return {"format": self.hooks.format, "version": 1, "game": self.game,
                "agents": self.names, "lineups": [list(l) for l in self.lineups],
                f"{self.unit}s": self.deals, "seed": self.seed,
                "rules": self.rules.to_dict(), "jobs": self.jobs, "executor": self.executor,
                "seconds": round(self.seconds, 3), "plays": self.plays}

    @property
    def workers(self) -> str:
        """What played the episodes, counted: ``1 job``, ``2 jobs``, ``4 Ray workers``."""
        return counted(self.jobs, "Ray worker" if self.executor == "ray" else "job")

    def heading(self) -> list[str]:
        """The report's first lines: what was played, by whom, with what."""
        n, lineups = len(self.lineups[0]), len(self.lineups)
        return [f"Duplicate tournament of {registry.get(self.game).title}: "
                f"{counted(self.deals, self.unit)} x {counted(lineups, 'lineup')} x {n} "
                f"rotations = {self.plays} plays; seed {self.seed}",
                f"lineup{'s' * (lineups > 1)} (seats 0-{n - 1} in rotation 0): "
                + "; ".join(" ".join(l) for l in self.lineups),
                f"{self.workers}, {self.seconds:.1f} s"]

    def to_dict(self) -> dict:
        """Everything, JSON-ready (each agent's result per episode included)."""
        return self.hooks.to_dict(self)

    def report(self) -> str:
        return self.hooks.report(self)

    def plot(self, path) -> str:
        """Draw the game's chart (:attr:`Hooks.chart`; Mediatore's is :mod:`agents.plot`) into
        ``path`` (.png, .svg or .pdf); needs the ``plot`` extra (matplotlib)."""
        if self.hooks.chart is None:
            raise ValueError(f"{self.game} has no chart; save its results as JSON")
        return self.hooks.chart(self, path)


def _chunks(episodes: int, workers: int) -> Iterator[tuple[int, int]]:
    """Episode ranges small enough to keep ``workers`` busy to the end (about four per worker)
    and to move the progress bar, big enough that handing one out costs little; made as they
    are handed out, never listed."""
    size = max(1, min(25, episodes // (4 * workers) or 1))
    return ((i, min(i + size, episodes)) for i in range(0, episodes, size))


def check_run(deals: int, seed: int, jobs: int | None, ray: bool | str,
              what: str = "deals") -> None:
    """Refuse a bad seed, number of episodes (``what``), jobs or Ray address with a
    ``ValueError``."""
    if not isinstance(seed, int) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
    if not isinstance(deals, int) or deals < 1:
        raise ValueError(f"{what} must be a positive integer, got {deals!r}")
    if jobs is not None and (not isinstance(jobs, int) or jobs < 1):
        raise ValueError(f"jobs must be a positive integer, got {jobs!r}")
    if not (ray is False or ray is True or (isinstance(ray, str) and ray)):
        raise ValueError(f"ray must be False, True (a local instance) or a cluster address "
                         f"such as 'auto' or 'ray://head:10001', got {ray!r}")
    if isinstance(ray, str) and jobs is not None:
        raise ValueError("jobs sets the workers of a local Ray instance; a cluster at an "
                         "address uses all its CPUs, so give one or the other")


def record_numbers(record_deals, deals: int, what: str = "deals") -> list[int]:
    """The sorted episode numbers to record, each checked to lie in the run."""
    record_deals = sorted(set(map(_deal_number, record_deals)))
    outside = [d for d in record_deals if not 0 <= d < deals]
    if outside:
        raise ValueError(f"{what} to record {outside} are not in the run: with {deals} {what} "
                         f"they are numbered 0-{deals - 1}")
    return record_deals


def uses_workers(jobs: int | None, ray: bool | str) -> bool:
    """Whether :func:`play_all` plays in other processes (Ray, or more than one job)."""
    return ray is not False or (jobs or 1) > 1


def play_all(args: tuple, episodes: int, jobs: int | None, ray: bool | str,
             add: Callable[[tuple], Any], progress: Callable[[int], Any] | None = None
             ) -> tuple[int, str]:
    """Play episodes ``0 .. episodes - 1`` with ``_Player(*args)``, in this process, in ``jobs``
    processes or on Ray, handing each episode's ``(plays, records)`` to ``add`` in episode
    order; the number of workers and the executor's name. ``jobs`` is lowered to the episodes
    and the cores (:func:`mediatore_env.runinfo.worker_count`; the workers of a local Ray
    instance too): an episode is played by one worker, and more workers than cores only share
    them. The caller builds its agents once first when workers will play
    (:func:`uses_workers`), so that a bad spec fails before they start."""
    key = uuid.uuid4().hex  # tells this tournament's player apart in reused worker processes
    started_ray = False
    if ray is not False:
        ray_module = import_ray()
        started_ray = _start_ray(ray_module, ray,
                                 None if jobs is None else worker_count(jobs, episodes))
        workers = max(1, int(ray_module.cluster_resources().get("CPU", 1)))
        executor, how = _on_ray(ray_module, workers), "ray"
    else:
        workers = worker_count(jobs or 1, episodes)
        executor, how = ((_in_this_process, "serial") if workers == 1
                         else (_in_processes(workers), "processes"))
    try:
        # closed at once however the loop ends, so that its worker pool goes with it
        with contextlib.closing(executor(key, args, _chunks(episodes, workers))) as chunks:
            for (start, stop), part in chunks:
                for episode in part:
                    add(episode)
                if progress:
                    progress(stop - start)
    finally:
        if started_ray:
            ray_module.shutdown()
    return workers, how


def run(game: str, entries: dict, lineups: list[tuple[str, ...]], episodes: int, seed: int = 0,
        rules=None, jobs: int | None = None, record: Sequence[int] = (),
        progress: Callable[[int], Any] | bool | None = None, ray: bool | str = False,
        mode: str = "agents") -> TournamentResult:
    """A duplicate tournament of registered game ``game``: the agents ``entries`` (name ->
    spec, see :func:`build_agent`) in ``lineups`` (names, one per seat). What
    :func:`run_tournament` and the games' own wrappers call."""
    definition = registry.get(game)
    rules = definition.make_rules() if rules is None else rules
    unit = f"{definition.unit}s"
    if any(len(lineup) != definition.players for lineup in lineups):
        raise ValueError(f"a lineup of {game} is {definition.players} agents, one per seat; got "
                         f"{', '.join(str(len(l)) for l in lineups)}")
    check_run(episodes, seed, jobs, ray, unit)
    record = record_numbers(record, episodes, unit)
    start = time.perf_counter()
    if uses_workers(jobs, ray):  # a bad spec fails here, before workers start
        known = agents_of(definition)
        for name, spec in entries.items():
            build_agent(spec, name, known)
    names = list(entries)
    tally = Tally(names, lineups, hooks_of(game))
    records: list[dict] = []

    def add(episode):
        tally.add(episode[0])
        records.extend(episode[1])

    args = (game, rules, seed, entries, lineups, record)
    with counting(progress, episodes, unit) as tick:
        workers, how = play_all(args, episodes, jobs, ray, add, tick)
    return TournamentResult(game, names, lineups, episodes, seed, rules, workers,
                            time.perf_counter() - start, tally.standings(), tally.run, records,
                            mode, how)


def run_tournament(agents: Sequence, deals: int = 1000, seed: int = 0, rules=None,
                   jobs: int | None = None, record_deals: Sequence[int] = (),
                   progress: Callable[[int], Any] | bool | None = None, ray: bool | str = False,
                   game: str = "mediatore") -> TournamentResult:
    """Play a duplicate tournament of one lineup in registered game ``game`` (see the module
    docstring).

    ``agents``: one spec per seat -- names of the game's agents (``"greedy"``), ``module:Class``
    texts, agent instances (copied per slot), or agent classes / factories. Equal specs are one
    agent listed several times. ``deals``: the number of episodes (deals, games to 31,
    sessions: the game's unit). ``rules``: the game's rules (default: the definition's).
    ``record_deals``: episode numbers (below ``deals``) whose plays are kept as records in
    ``result.records``. ``progress``: True shows a progress bar on stderr (tqdm's: a widget in
    a Jupyter notebook), or a function ``progress(n)`` is called as episodes finish; none by
    default. ``jobs``: worker processes (default 1), no more than the episodes or the cores
    (``result.jobs`` says how many played). ``ray``: play the episodes as Ray tasks -- ``True``
    on a local instance with ``jobs`` workers (default: every core), or a cluster address
    (``"auto"``, ``"ray://head:10001"``); needs the ``ray`` extra. The results are the same in
    every case.
    """
    definition = registry.get(game)
    if len(agents) != definition.players:
        raise ValueError(f"a lineup of {game} is {definition.players} agents, one per seat; "
                         f"got {len(agents)}")
    entries, lineup = name_lineup(agents)
    return run(game, entries, [lineup], deals, seed, rules, jobs, record_deals, progress, ray)


if __name__ == "__main__":
    # The command line is mediatore_env.tools.bench's, in the layer above this library, which
    # may not import it (tests/test_layers.py): name the command rather than do nothing.
    print("agents.tournament is the tournaments' library; its command is mediatore-bench "
          "(python -m mediatore_env.tools.bench --help)", file=sys.stderr)
    raise SystemExit(2)
