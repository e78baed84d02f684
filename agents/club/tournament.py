"""Duplicate tournaments of club Mediatore: every agent plays every session from every seat.

The machinery is Mediatore's (agents/tournament.py): the seeds of the agents
(:func:`~agents.tournament.derive_seed`), the rotations, the executors that spread the work
over processes, and the confidence intervals (:func:`~agents.tournament.mean_ci`). What
differs is the unit: a *session* (docs/rules.md 10.3) instead of a deal.

**Sessions.** Session ``i`` of a run with seed ``S`` is first dealt by seat ``i % 4``, and its
``j``-th deal is dealt from the pack ``numpy.random.default_rng([S, i, j]).permutation(40)``.
The same ``S`` gives the same sessions in every run, whatever the agents or the processes.

**Rotations.** A lineup of four agents plays each session four times over the same packs,
rotated one seat each time (seat ``s`` is played by ``lineup[(s - r) % 4]`` in rotation
``r``), so every agent holds every hand. The sessions' lengths may differ between rotations
(a pot won earlier or later), but the packs of deal ``j`` are the same in all four.

**The result of a session.** For each agent, its chips summed over the seats it played in the
four rotations, divided by that number of seats: the mean chip change of one seat played by
that agent (chips per session). Chips are zero-sum in every play, so four identical agents
come out at exactly 0. Confidence intervals (95%, Student's t) are over sessions.

    >>> result = run_club_tournament(["random"] * 4, sessions=10, seed=3)
    >>> result.standings[0].mean
    0.0
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any, Callable, NamedTuple, Sequence

from mediatore_env.club.game import Session
from mediatore_env.club.records import make_record
from mediatore_env.club.rules import ClubRules
from mediatore_env.core.cards import NUM_CARDS

from ..tournament import (StandingsByName, build_agent, check_run, derive_seed, mean_ci,
                          name_lineup, play_all, record_numbers, rotate, uses_workers)
from .base import play_session

__all__ = ["session_packs", "run_club_tournament", "ClubTournamentResult", "ClubStanding"]


def session_packs(seed: int, index: int, deals: int) -> list[list[int]]:
    """The packs of the first ``deals`` deals of session ``index`` of a run with ``seed``."""
    import numpy as np
    return [np.random.default_rng([seed, index, j]).permutation(NUM_CARDS).tolist()
            for j in range(deals)]


class SessionResult(NamedTuple):
    """One play of a session by one lineup in one rotation, seen from the seats."""
    lineup: int
    rotation: int
    chips: tuple[int, int, int, int]
    deals: int
    mediator: tuple[int, int, int, int]   #: deals each seat was the mediator in
    won: tuple[int, int, int, int]        #: of them, the deals its side won

    @classmethod
    def of(cls, session: Session, lineup: int, rotation: int) -> "SessionResult":
        mediator, won = [0] * 4, [0] * 4
        for deal in session.results:
            if deal.mediator is not None:
                mediator[deal.mediator] += 1
                won[deal.mediator] += bool(deal.won)
        return cls(lineup, rotation, tuple(session.chips), len(session.results), tuple(mediator),
                   tuple(won))


class _ClubPlayer:
    """Plays sessions for one tournament (in this process or a worker's): the ``play_range``
    that the executors of agents/tournament.py call."""

    def __init__(self, rules: ClubRules, seed: int, entries: dict, lineups, record_sessions=()):
        self.rules, self.seed, self.lineups = rules, seed, lineups
        from . import CLUB_AGENTS
        self.agents = [[build_agent(entries[name], name, CLUB_AGENTS) for name in lineup]
                       for lineup in lineups]
        self.record_sessions = frozenset(record_sessions)

    def play(self, index: int) -> tuple[list[SessionResult], list[dict]]:
        packs = session_packs(self.seed, index, self.rules.max_deals)
        seeds = [derive_seed(self.seed, index, s) for s in range(4)]
        games, records = [], []
        for k, agents in enumerate(self.agents):
            for r in range(4):
                seated = rotate(agents, r)
                session = play_session(Session(self.rules, index % 4, packs), seated, seeds)
                games.append(SessionResult.of(session, k, r))
                if index in self.record_sessions:
                    records.append(make_record(session, agents=[a.name for a in seated],
                                               session_index=index, rotation=r, seed=self.seed))
        return games, records

    def play_range(self, start: int, stop: int):
        return [self.play(i) for i in range(start, stop)]


@dataclass
class ClubStanding:
    """One agent's results over a tournament."""
    name: str
    per_session: list[float]
    mean: float
    ci: tuple[float, float]
    plays: int            #: seat-plays
    mediator: int         #: deals in which it was the mediator
    won: int              #: of them, won
    deals: int            #: deals it sat in

    def to_dict(self) -> dict:
        return {"name": self.name, "mean": self.mean, "ci95": list(self.ci), "plays": self.plays,
                "mediator_deals": self.mediator, "mediator_won": self.won, "deals": self.deals}


def club_standings(names: Sequence[str], lineup: Sequence[str],
                   sessions: Sequence[Sequence[SessionResult]]) -> list[ClubStanding]:
    """Each agent's results from the plays of every session, sorted best first."""
    seats = {name: 4 * lineup.count(name) for name in names}
    per = {name: [] for name in names}
    counts = {name: [0, 0, 0, 0] for name in names}  # plays, mediator, won, deals
    for plays in sessions:
        chips = dict.fromkeys(names, 0)
        for game in plays:
            for seat in range(4):
                name = lineup[(seat - game.rotation) % 4]
                chips[name] += game.chips[seat]
                c = counts[name]
                c[0] += 1
                c[1] += game.mediator[seat]
                c[2] += game.won[seat]
                c[3] += game.deals
        for name in names:
            per[name].append(chips[name] / seats[name])
    out = []
    for name in names:
        mean, low, high = mean_ci(per[name])
        out.append(ClubStanding(name, per[name], mean + 0.0, (low + 0.0, high + 0.0), *counts[name]))
    out.sort(key=lambda s: -s.mean)
    return out


@dataclass
class ClubTournamentResult(StandingsByName):
    """What a club tournament measured. ``standings`` is sorted best first."""
    names: list[str]
    lineup: tuple[str, ...]
    sessions: int
    seed: int
    rules: ClubRules
    jobs: int
    seconds: float
    standings: list[ClubStanding]
    games: list[list[SessionResult]]
    records: list[dict]
    executor: str = "serial"     # "serial", "processes" or "ray"; ``jobs`` workers

    def to_dict(self) -> dict:
        return {"format": "club-mediatore-tournament", "version": 1, "agents": self.names,
                "lineup": list(self.lineup), "sessions": self.sessions, "seed": self.seed,
                "rules": self.rules.to_dict(), "jobs": self.jobs, "executor": self.executor,
                "seconds": round(self.seconds, 3),
                "standings": [s.to_dict() for s in self.standings]}

    def report(self) -> str:
        plays = sum(len(g) for g in self.games)
        deals = sum(g.deals for plays_ in self.games for g in plays_)
        rules = self.rules
        length = (f"until a pot is won (at most {rules.max_deals} deals)" if rules.until_won
                  else f"of {rules.deals} deals")
        lines = [f"Duplicate club Mediatore tournament: {self.sessions} sessions x 4 rotations = "
                 f"{plays} sessions played ({deals} deals); seed {self.seed}; ante {rules.ante}, "
                 f"sessions {length}",
                 f"lineup (seats 0-3 in rotation 0): {' '.join(self.lineup)}", "",
                 f"{'agent':<12}{'chips/session':>14}  {'95% CI':<20}{'mediator':>9}{'won':>8}"]
        for s in self.standings:
            ci = "-" if math.isnan(s.ci[0]) else f"[{s.ci[0]:+.2f}, {s.ci[1]:+.2f}]"
            share = s.mediator / s.deals if s.deals else math.nan
            won = s.won / s.mediator if s.mediator else math.nan
            lines.append(f"{s.name:<12}{s.mean:>+14.2f}  {ci:<20}{100 * share:>8.1f}%"
                         f"{100 * won:>7.1f}%")
        lines += ["", "chips/session: the mean chip change of one seat played by the agent; "
                  "mediator: share of its deals in which it was the mediator; won: share of "
                  "those its side won.",
                  f"{self.seconds:.1f} s with {self.jobs} "
                  f"{'Ray worker' if self.executor == 'ray' else 'job'}{'s' * (self.jobs > 1)}"]
        return "\n".join(lines)


def run_club_tournament(agents: Sequence, sessions: int = 1000, seed: int = 0,
                        rules: ClubRules | None = None, jobs: int | None = None,
                        record_sessions: Sequence[int] = (),
                        progress: Callable[[int], Any] | None = None,
                        ray: bool | str = False) -> ClubTournamentResult:
    """Play a duplicate tournament of one lineup of four club agents (module docstring).

    ``agents``: four specs (club registry names such as ``"greedy"``, ``module:Class`` texts,
    or Agent classes / factories); equal specs are one agent listed several times.
    ``record_sessions``: session numbers whose plays are kept as records. ``jobs`` and ``ray``:
    worker processes (default 1) or Ray, as in :func:`agents.tournament.run_tournament`; the
    results are the same for any number.
    """
    from . import CLUB_AGENTS
    if len(agents) != 4:
        raise ValueError(f"a lineup is 4 agents, one per seat; got {len(agents)}")
    rules = ClubRules() if rules is None else rules
    check_run(sessions, seed, jobs, ray, "sessions")
    record_sessions = record_numbers(record_sessions, sessions, "sessions")
    entries, lineup = name_lineup(agents)
    start = time.perf_counter()
    if uses_workers(jobs, ray):  # a bad spec fails here, before workers start
        for name, spec in entries.items():
            build_agent(spec, name, CLUB_AGENTS)
    args = (_ClubPlayer, rules, seed, entries, [lineup], record_sessions)
    results, workers, how = play_all(args, sessions, jobs, ray, progress)
    games = [g for g, _ in results]
    records = [r for _, recs in results for r in recs]
    names = list(entries)
    return ClubTournamentResult(names, lineup, sessions, seed, rules, workers,
                                time.perf_counter() - start,
                                club_standings(names, lineup, games), games, records, how)
