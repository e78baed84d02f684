"""Duplicate tournaments: every agent plays every hand, and the results are compared deal by deal.

**Deals.** Deal ``i`` of a run with seed ``S`` is the pack
``numpy.random.default_rng([S, i]).permutation(40)`` dealt by seat ``i % 4``. The same ``S``
gives the same deals in every run, whatever the agents, the number of deals or of processes.

**Rotations.** A lineup is four agents, one per seat. Each deal is played four times by the
same lineup, rotated one seat each time: in rotation ``r`` seat ``s`` is played by
``lineup[(s - r) % 4]``. So every agent holds every hand of the deal once, and luck of the
cards cancels out. Before each play an agent is reset with a seed derived from ``S``, the
deal number and the *seat* (:func:`derive_seed`), so a random agent in a given seat makes the
same random choices in every rotation and four identical agents play four identical games.

**The result of a deal.** For each agent, its units summed over all the seats it played in
the four rotations, divided by that number of seats: the mean payoff of one seat played by
that agent, over the deal's four rotations (units per deal). With one agent in one slot that
is the sum over rotations divided by 4; an agent listed twice (``greedy greedy random
random``) is averaged over its 8 seats. A thrown-in deal counts, with zero payoffs. Payments
are zero-sum in every play, so the results of a deal, weighted by the agents' numbers of
copies, sum to zero, and four identical agents come out at exactly 0.

**Confidence intervals** are over deals, not hands: the deal results ``x_1 .. x_n`` are
independent draws (the four rotations of a deal are not), and the interval is
``mean +- t * sd / sqrt(n)`` with Student's t quantile for 95% (1.96 for large n).

**Roles and contracts.** Each seat-play also has a role: declarer, partner (the called
partner in Chiamo) or defender (or none, in a thrown-in deal). The report gives, per agent and
role, how often the agent was in it, its mean payoff in it, and its contribution to the units
per deal (the contributions add up to the total). The contract table gives per agent and
contract how often it won the auction with it (share of its seat-plays), how often it made it,
and its mean payoff as declarer.

**Bidding tournaments.** :func:`run_bidding_tournament` compares bidding policies inside one
shared player (by default the greedy agent): with ``n`` policies it plays the lineups
``(p_k, p_k+1, p_k+2, p_k+3)`` (indices mod ``n``) for ``k = 0 .. n-1`` on every deal, four
rotations each, so every policy holds every seat equally often, and ranks the policies.

**Processes and Ray.** ``jobs > 1`` spreads the deals over worker processes, and ``ray``
over the workers of a Ray instance, local or a cluster. Either way the deals go out in chunks
of consecutive numbers, each played by the same function (:func:`_play_chunk`); each deal's
plays are computed from the seed alone and the statistics are summed in deal order in the
main process, so the results are identical for any number of jobs, with or without Ray.

    >>> result = run_tournament(["random", "random", "random", "random"], deals=20, seed=3)
    >>> result.standings[0].mean
    0.0
"""

from __future__ import annotations

import copy
import math
import operator
import time
import uuid
from dataclasses import dataclass, field
from typing import Any, Callable, NamedTuple, Sequence

from mediatore_env.core.cards import NUM_CARDS
from mediatore_env.mediatore.game import Deal
from mediatore_env.mediatore.records import make_record
from mediatore_env.mediatore.rules import CONTRACT_NAMES, CONTRACTS, Rules

from .base import Agent, play_deal

ROLES = ("declarer", "partner", "defender", "none")

# -- deals, seeds and rotations ---------------------------------------------------------------

_MASK64 = (1 << 64) - 1


def deal_pack(seed: int, index: int) -> list[int]:
    """The pack of deal ``index`` of a run with ``seed``."""
    import numpy as np
    return np.random.default_rng([seed, index]).permutation(NUM_CARDS).tolist()


def deal_dealer(index: int) -> int:
    return index % 4


def derive_seed(seed: int, index: int, seat: int) -> int:
    """The seed an agent at ``seat`` is reset with in deal ``index`` (a 64-bit mix of the three)."""
    x = (seed * 0x9E3779B97F4A7C15 + index * 0xD1B54A32D192ED03 + seat * 0x8CB92BA72F3D8DD7
         + 0x632BE59BD9B4E019) & _MASK64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK64
    return x ^ (x >> 31)


def rotate(lineup: Sequence, rotation: int) -> list:
    """Who plays each seat in ``rotation``: seat ``s`` gets ``lineup[(s - rotation) % n]`` for a
    lineup of ``n`` (4 in Mediatore; the Tressette tournament rotates 3 and 2 players too)."""
    n = len(lineup)
    return [lineup[(s - rotation) % n] for s in range(n)]


def cyclic_lineups(names: Sequence[str]) -> list[tuple[str, ...]]:
    """Lineups in which each of ``names`` fills the same number of slots: ``names[k:k+4]``
    cyclically, for each ``k``. Two names give ``(a, b, a, b)`` and ``(b, a, b, a)``."""
    n = len(names)
    if n < 1:
        raise ValueError("need at least one name")
    return [tuple(names[(k + j) % n] for j in range(4)) for k in range(n)]


# -- one play of a deal -----------------------------------------------------------------------

class GameResult(NamedTuple):
    """One play of a deal by one lineup in one rotation, seen from the seats."""
    lineup: int
    rotation: int
    payoffs: tuple[int, int, int, int]
    contract: int | None      # None: thrown in
    declarer: int | None
    partner: int | None
    won: bool | None

    @classmethod
    def of(cls, deal: Deal, lineup: int, rotation: int) -> "GameResult":
        return cls(lineup, rotation, tuple(deal.payoffs), deal.contract, deal.declarer,
                   deal.partner, deal.declarer_won)

    def role(self, seat: int) -> str:
        if self.contract is None:
            return "none"
        if seat == self.declarer:
            return "declarer"
        return "partner" if seat == self.partner else "defender"


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
    var = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    half = t95(n - 1) * math.sqrt(var / n)
    return mean, mean - half, mean + half


@dataclass
class Standing:
    """One agent's results over a tournament."""
    name: str
    copies: int                    # slots it fills over all lineups
    per_deal: list[float]          # its units in each deal (see the module docstring)
    mean: float = 0.0
    ci: tuple[float, float] = (math.nan, math.nan)
    plays: int = 0                 # seat-plays over the whole run
    roles: dict = field(default_factory=dict)       # role -> {"count", "units"}
    contracts: dict = field(default_factory=dict)   # contract name -> {"declared", "made", "units"}

    def role_rows(self):
        """(role, share of seat-plays, mean payoff in the role, contribution in units/deal)."""
        deals = len(self.per_deal)
        seats_per_deal = self.plays / deals
        for role in ROLES:
            r = self.roles[role]
            n = r["count"]
            yield (role, n / self.plays, r["units"] / n if n else math.nan,
                   r["units"] / seats_per_deal / deals)

    def contract_rows(self):
        """(contract, share of seat-plays declared, share made, mean payoff as declarer)."""
        for name in (CONTRACT_NAMES[c] for c in CONTRACTS):
            c = self.contracts.get(name)
            if c is None:
                continue
            n = c["declared"]
            yield (name, n / self.plays, c["made"] / n if n else math.nan,
                   c["units"] / n if n else math.nan)

    def to_dict(self) -> dict:
        return {"name": self.name, "copies": self.copies, "mean": self.mean,
                "ci95": list(self.ci), "plays": self.plays, "roles": self.roles,
                "contracts": self.contracts, "per_deal": self.per_deal}


def standings(names: Sequence[str], lineups: Sequence[Sequence[str]],
              deals: Sequence[Sequence[GameResult]]) -> list[Standing]:
    """Each agent's results from the plays of every deal (``deals[i]``: the plays of deal i),
    sorted best first. Pure arithmetic; see the module docstring for the definitions."""
    copies = {name: sum(lineup.count(name) for lineup in lineups) for name in names}
    unknown = {n for lineup in lineups for n in lineup} - set(copies)
    if unknown:
        raise ValueError(f"lineups name unknown agents: {sorted(unknown)}")
    seats = {name: 4 * copies[name] for name in names}  # seat-plays per deal
    totals = {name: [] for name in names}
    roles = {name: {role: {"count": 0, "units": 0} for role in ROLES} for name in names}
    contracts = {name: {} for name in names}
    for plays in deals:
        units = dict.fromkeys(names, 0)
        for game in plays:
            lineup = lineups[game.lineup]
            for seat in range(4):
                name = lineup[(seat - game.rotation) % 4]
                pay = game.payoffs[seat]
                units[name] += pay
                role = roles[name][game.role(seat)]
                role["count"] += 1
                role["units"] += pay
                if seat == game.declarer:
                    c = contracts[name].setdefault(CONTRACT_NAMES[game.contract],
                                                   {"declared": 0, "made": 0, "units": 0})
                    c["declared"] += 1
                    c["made"] += bool(game.won)
                    c["units"] += pay
        for name in names:
            if seats[name]:
                totals[name].append(units[name] / seats[name])
    out = []
    for name in names:
        if not copies[name]:
            continue
        values = totals[name]
        mean, low, high = mean_ci(values)
        out.append(Standing(name, copies[name], values, mean + 0.0, (low + 0.0, high + 0.0),
                            seats[name] * len(values), roles[name], contracts[name]))
    out.sort(key=lambda s: -s.mean)
    return out


# -- building agents ----------------------------------------------------------------------------

def build_agent(spec, name: str, registry: dict | None = None) -> Agent:
    """A fresh agent from a spec: a registry name or ``module:Class`` text (see
    :func:`agents.make_agent`; ``registry`` as there), an ``(text, {option: value})`` pair, an
    Agent instance (copied), or an Agent class / zero-argument factory."""
    from . import make_agent
    if isinstance(spec, str):
        agent = make_agent(spec, registry)
    elif isinstance(spec, tuple) and len(spec) == 2 and isinstance(spec[0], str):
        agent = make_agent(spec[0], registry, **spec[1])
    elif isinstance(spec, Agent):
        agent = copy.deepcopy(spec)
    elif callable(spec):
        agent = spec()
    else:
        raise ValueError(f"not an agent spec: {spec!r}")
    if not callable(getattr(agent, "act", None)):
        raise ValueError(f"{spec!r} did not make an agent (no act method): {agent!r}")
    try:
        agent.name = name
    except AttributeError:
        pass
    return agent


def spec_name(spec) -> str:
    if isinstance(spec, str):
        return spec
    if isinstance(spec, tuple):
        return spec[0] + "".join(f",{k}={v}" for k, v in spec[1].items())
    if isinstance(spec, Agent):
        return spec.name
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
    """Plays deals for one tournament configuration (in the main process or in a worker)."""

    def __init__(self, rules: Rules, seed: int, entries: dict, lineups, record_deals=()):
        self.rules, self.seed, self.lineups = rules, seed, lineups
        # One agent per (lineup, slot): a slot holds exactly one seat in each play.
        self.agents = [[build_agent(entries[name], name) for name in lineup] for lineup in lineups]
        self.record_deals = frozenset(record_deals)

    def play(self, index: int) -> tuple[list[GameResult], list[dict]]:
        pack = deal_pack(self.seed, index)
        dealer = deal_dealer(index)
        seeds = [derive_seed(self.seed, index, s) for s in range(4)]
        games, records = [], []
        for k, agents in enumerate(self.agents):
            for r in range(4):
                seated = rotate(agents, r)
                deal = play_deal(Deal(self.rules, dealer, pack), seated, seeds)
                games.append(GameResult.of(deal, k, r))
                if index in self.record_deals:
                    records.append(make_record(
                        deal, agents=[a.name for a in seated], deal_index=index, lineup=k,
                        rotation=r, seed=self.seed))
        return games, records

    def play_range(self, start: int, stop: int):
        return [self.play(i) for i in range(start, stop)]


def _deal_number(d) -> int:
    """A deal number given by a user: an int or a numpy integer, not a bool or a float."""
    if isinstance(d, bool) or not hasattr(d, "__index__"):
        raise ValueError(f"deals to record are whole numbers, got {d!r}")
    return operator.index(d)


# -- executors: who plays the chunks of deals ----------------------------------------------------
# A chunk is a range of deal numbers; each executor plays the chunks with _Player.play_range
# (or another game's player: agents/club/tournament.py)
# (through _play_chunk in other processes) and yields (chunk number, its results) as they
# finish. Every deal depends on the seed alone, so chunks can be played in any order, anywhere.

_WORKER: tuple[object, _Player] | None = None   # this process's player, with its config's key


def _play_chunk(key, args: tuple, bounds: tuple[int, int]):
    """Deals ``bounds[0] .. bounds[1] - 1`` of the tournament ``args``: a player class (with a
    ``play_range(start, stop)`` method; :class:`_Player` here, the Tressette games' player in
    :mod:`agents.tressette.tournament`) and its arguments. The player (its agents) is built
    once per process and tournament, whichever executor the process serves."""
    global _WORKER
    if _WORKER is None or _WORKER[0] != key:
        _WORKER = (key, args[0](*args[1:]))
    return _WORKER[1].play_range(*bounds)


def _in_this_process(key, args, bounds):
    player = args[0](*args[1:])  # not kept in _WORKER: the agents go when the run ends
    for i, b in enumerate(bounds):
        yield i, player.play_range(*b)


_TOURNAMENT: tuple | None = None   # (key, args) of a worker process of _in_processes


def _set_tournament(key, args):
    global _TOURNAMENT
    _TOURNAMENT = (key, args)


def _play_in_worker(bounds):
    return _play_chunk(*_TOURNAMENT, bounds)


def _in_processes(jobs):
    def run(key, args, bounds):
        import multiprocessing
        # The configuration goes to each process once, when it starts (inherited as it is
        # where processes fork, so agents that cannot be pickled still work).
        with multiprocessing.get_context().Pool(jobs, _set_tournament, (key, args)) as pool:
            yield from enumerate(pool.imap(_play_in_worker, bounds))
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
    if not (colon and host and port.isdigit()):
        return
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=timeout).close()
    except OSError as e:
        raise ValueError(f"no Ray cluster answers at {address!r} ({e.strerror or e}); start "
                         f"one with `ray start --head`, or give its address") from None


def _on_ray(ray):
    def run(key, args, bounds):
        task = ray.remote(num_cpus=1)(_play_chunk)
        shared = ray.put(args)  # shipped to the object store once, not once per chunk
        chunk_of = {task.remote(key, shared, b): i for i, b in enumerate(bounds)}
        pending = list(chunk_of)
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                try:
                    part = ray.get(ref)
                except ray.exceptions.RayTaskError as e:
                    # The agent's own error (a bad name, an illegal move), not Ray's wrapping.
                    cause = getattr(e, "cause", None)
                    raise (cause if isinstance(cause, Exception) else e) from None
                yield chunk_of[ref], part
    return run


# -- running ------------------------------------------------------------------------------------

class StandingsByName:
    """What every tournament result (Mediatore's, the Tressette games', club's) shares: an
    agent's standing by its name, from its ``standings`` and ``names``."""

    def standing(self, name: str):
        for s in self.standings:
            if s.name == name:
                return s
        raise KeyError(f"no agent {name!r}; agents: {', '.join(self.names)}")


@dataclass
class TournamentResult(StandingsByName):
    """What a tournament measured. ``standings`` is sorted best first."""
    names: list[str]
    lineups: list[tuple[str, ...]]
    deals: int
    seed: int
    rules: Rules
    jobs: int
    seconds: float
    standings: list[Standing]
    games: list[list[GameResult]]
    records: list[dict]
    mode: str = "agents"
    executor: str = "serial"     # "serial", "processes" or "ray"; ``jobs`` workers

    def thrown_in_share(self) -> float:
        n = sum(len(g) for g in self.games)
        return sum(g.contract is None for plays in self.games for g in plays) / n if n else 0.0

    def to_dict(self) -> dict:
        """Everything, JSON-ready (the per-deal results included; the plays are summarised)."""
        return {
            "format": "mediatore-tournament", "version": 1, "mode": self.mode,
            "agents": self.names, "lineups": [list(l) for l in self.lineups],
            "deals": self.deals, "seed": self.seed, "rules": self.rules.to_dict(),
            "jobs": self.jobs, "executor": self.executor, "seconds": round(self.seconds, 3),
            "plays": sum(len(g) for g in self.games), "thrown_in_share": self.thrown_in_share(),
            "standings": [s.to_dict() for s in self.standings],
        }

    def report(self) -> str:
        from .report import format_report
        return format_report(self)

    def plot(self, path) -> str:
        """Draw the chart of :mod:`agents.plot` into ``path`` (.png, .svg or .pdf); needs the
        ``plot`` extra (matplotlib)."""
        from .plot import plot_tournament
        return plot_tournament(self, path)


def _chunks(deals: int, workers: int) -> list[tuple[int, int]]:
    """Deal ranges small enough to keep ``workers`` busy to the end (about four per worker)
    and to move the progress bar, big enough that handing one out costs little."""
    size = max(1, min(25, deals // (4 * workers) or 1))
    return [(i, min(i + size, deals)) for i in range(0, deals, size)]


def check_run(deals: int, seed: int, jobs: int | None, ray: bool | str,
              what: str = "deals") -> None:
    """Refuse a bad seed, number of deals (games), jobs or Ray address with a ``ValueError``."""
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
    """The sorted deal (game) numbers to record, each checked to lie in the run."""
    record_deals = sorted(set(map(_deal_number, record_deals)))
    outside = [d for d in record_deals if not 0 <= d < deals]
    if outside:
        raise ValueError(f"{what} to record {outside} are not in the run: with {deals} {what} "
                         f"they are numbered 0-{deals - 1}")
    return record_deals


def uses_workers(jobs: int | None, ray: bool | str) -> bool:
    """Whether :func:`play_all` plays in other processes (Ray, or more than one job)."""
    return ray is not False or (jobs or 1) > 1


def play_all(args: tuple, deals: int, jobs: int | None, ray: bool | str,
             progress: Callable[[int], Any] | None) -> tuple[list, int, str]:
    """Play deals (or games) ``0 .. deals - 1`` with the player ``args[0](*args[1:])``, in this
    process, in ``jobs`` processes or on Ray; the results in deal order, the number of workers
    and the executor's name. The caller builds its agents once first when workers will play
    (:func:`uses_workers`), so that a bad spec fails before they start."""
    key = uuid.uuid4().hex  # tells this tournament's player apart in reused worker processes
    started_ray = False
    if ray is not False:
        ray_module = import_ray()
        started_ray = _start_ray(ray_module, ray, jobs)
        workers = max(1, int(ray_module.cluster_resources().get("CPU", 1)))
        executor, how = _on_ray(ray_module), "ray"
    else:
        workers = jobs or 1
        executor, how = ((_in_this_process, "serial") if workers == 1
                         else (_in_processes(workers), "processes"))
    bounds = _chunks(deals, workers)
    parts: list = [None] * len(bounds)
    try:
        for i, part in executor(key, args, bounds):
            parts[i] = part
            if progress:
                progress(bounds[i][1] - bounds[i][0])
    finally:
        if started_ray:
            ray_module.shutdown()
    return [deal for part in parts for deal in part], workers, how


def _run(entries: dict, lineups: list[tuple[str, ...]], deals: int, seed: int,
         rules: Rules | None, jobs: int | None, record_deals, progress: Callable[[int], Any] | None,
         mode: str, ray: bool | str = False) -> TournamentResult:
    rules = Rules() if rules is None else rules
    check_run(deals, seed, jobs, ray)
    record_deals = record_numbers(record_deals, deals)
    start = time.perf_counter()
    args = (_Player, rules, seed, entries, lineups, record_deals)
    if uses_workers(jobs, ray):  # a bad spec fails here, before workers start
        for name, spec in entries.items():
            build_agent(spec, name)
    results, workers, how = play_all(args, deals, jobs, ray, progress)
    games = [g for g, _ in results]
    records = [r for _, recs in results for r in recs]
    names = list(entries)
    return TournamentResult(names, lineups, deals, seed, rules, workers,
                            time.perf_counter() - start, standings(names, lineups, games),
                            games, records, mode, how)


def run_tournament(agents: Sequence, deals: int = 1000, seed: int = 0, rules: Rules | None = None,
                   jobs: int | None = None, record_deals: Sequence[int] = (),
                   progress: Callable[[int], Any] | None = None,
                   ray: bool | str = False) -> TournamentResult:
    """Play a duplicate tournament of one lineup of four agents (see the module docstring).

    ``agents``: four specs, one per slot -- registry names (``"greedy"``), ``module:Class``
    texts, Agent instances (copied per slot), or Agent classes / factories. Equal specs are
    one agent listed several times. ``record_deals``: deal numbers (below ``deals``) whose
    plays are kept as game records in ``result.records``. ``progress(n)`` is called as deals
    finish. ``jobs``: worker processes (default 1). ``ray``: play the deals as Ray tasks --
    ``True`` on a local instance with ``jobs`` workers (default: every core), or a cluster
    address (``"auto"``, ``"ray://head:10001"``); needs the ``ray`` extra. The results are the
    same in every case.
    """
    if len(agents) != 4:
        raise ValueError(f"a lineup is 4 agents, one per seat; got {len(agents)}")
    entries, lineup = name_lineup(agents)
    return _run(entries, [lineup], deals, seed, rules, jobs, record_deals, progress,
                "agents", ray)


def run_bidding_tournament(policies: Sequence[str], deals: int = 1000, seed: int = 0,
                           rules: Rules | None = None, jobs: int | None = None,
                           base: str = "greedy", record_deals: Sequence[int] = (),
                           progress: Callable[[int], Any] | None = None,
                           ray: bool | str = False) -> TournamentResult:
    """Compare bidding policies (names of :data:`agents.mediatore.greedy.BIDDING_POLICIES` or
    ``module:Class`` texts) inside one shared player ``base`` (its calling, exchange and card
    play), over the cyclic lineups of the module docstring. Ranks the policies. The other
    arguments are those of :func:`run_tournament`."""
    if len(policies) < 2:
        raise ValueError("a bidding tournament compares at least two bidding policies")
    if len(set(policies)) != len(policies):
        raise ValueError(f"bidding policies listed twice: {list(policies)}")
    entries = {p: (base, {"bidding": p}) for p in policies}
    return _run(entries, cyclic_lineups(list(policies)), deals, seed, rules, jobs, record_deals,
                progress, "bidding", ray)
