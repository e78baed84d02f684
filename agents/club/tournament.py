"""Duplicate tournaments of club Mediatore: every agent plays every session from every seat.

The engine is every game's (:mod:`agents.tournament`): the seeds of the agents, the rotations,
the executors that spread the work over processes, and the confidence intervals. This module is
what club Mediatore adds to it (:data:`HOOKS`, named by its registry entry): the mediator
statistics and the report. The unit is a *session* (docs/rules.md 10.3).

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
from typing import Any, Callable, NamedTuple, Sequence

from mediatore_env.club.records import make_record
from mediatore_env.club.rules import ClubRules

from ..report import counted, pct, signed, table
from ..tournament import Hooks, TournamentResult, run_tournament

__all__ = ["run_club_tournament", "HOOKS"]


class SessionFacts(NamedTuple):
    """What the statistics keep of one play of a session besides its chips."""
    deals: int
    mediator: tuple[int, ...]   #: deals each seat was the mediator in
    won: tuple[int, ...]        #: of them, the deals its side won


class ClubHooks(Hooks):
    format = "club-mediatore-tournament"

    def facts(self, session) -> SessionFacts:
        mediator, won = [0] * 4, [0] * 4
        for deal in session.results:
            if deal.mediator is not None:
                mediator[deal.mediator] += 1
                won[deal.mediator] += bool(deal.won)
        return SessionFacts(len(session.results), tuple(mediator), tuple(won))

    def record(self, session, **meta) -> dict:
        del meta["lineup"]  # a club tournament has one lineup; its records never said so
        return make_record(session, **meta)

    def run_totals(self) -> dict:
        return {"deals": 0}

    def agent_totals(self) -> dict:
        return {"mediator": 0, "won": 0, "deals": 0}

    def count_play(self, totals, facts) -> None:
        totals["deals"] += facts.deals

    def count_seat(self, totals, facts, seat, outcome) -> None:
        totals["mediator"] += facts.mediator[seat]
        totals["won"] += facts.won[seat]
        totals["deals"] += facts.deals

    def to_dict(self, result) -> dict:
        return {"format": self.format, "version": 1, "agents": result.names,
                "lineup": list(result.lineups[0]), "sessions": result.deals,
                "seed": result.seed, "rules": result.rules.to_dict(), "jobs": result.jobs,
                "executor": result.executor, "seconds": round(result.seconds, 3),
                "standings": [{"name": s.name, "mean": s.mean, "ci95": list(s.ci),
                               "plays": s.plays, "mediator_deals": s.stats["mediator"],
                               "mediator_won": s.stats["won"], "deals": s.stats["deals"]}
                              for s in result.standings]}

    def report(self, result) -> str:
        lines = [f"Duplicate club Mediatore tournament: {counted(result.deals, 'session')} x 4 "
                 f"rotations = {result.plays} sessions played "
                 f"({counted(result.totals['deals'], 'deal')}); seed {result.seed}; rules: "
                 f"{result.rules_line}",
                 f"lineup (seats 0-3 in rotation 0): {' '.join(result.lineups[0])}", ""]
        rows = []
        for s in result.standings:
            mediator, won, deals = s.stats["mediator"], s.stats["won"], s.stats["deals"]
            rows.append([s.name, signed(s.mean),
                         "-" if math.isnan(s.ci[0]) else f"[{signed(s.ci[0])}, {signed(s.ci[1])}]",
                         pct(mediator / deals if deals else math.nan),
                         pct(won / mediator if mediator else math.nan)])
        # columns sized to their content, as every game's report: any agent name fits
        lines += table(["agent", "chips/session", "95% CI", "mediator", "won"], rows, "lrlrr")
        lines += ["", "chips/session: the mean chip change of one seat played by the agent; "
                  "mediator: share of its deals in which it was the mediator; won: share of "
                  "those its side won.",
                  f"{result.seconds:.1f} s with {result.workers}"]
        return "\n".join(lines)


HOOKS = ClubHooks()


def run_club_tournament(agents: Sequence, sessions: int = 1000, seed: int = 0,
                        rules: ClubRules | None = None, jobs: int | None = None,
                        record_sessions: Sequence[int] = (),
                        progress: Callable[[int], Any] | bool | None = None,
                        ray: bool | str = False) -> TournamentResult:
    """Play a duplicate tournament of one lineup of four club agents (module docstring):
    :func:`agents.tournament.run_tournament` of club Mediatore, with ``sessions`` sessions."""
    return run_tournament(agents, sessions, seed, rules, jobs, record_sessions, progress, ray,
                          game="club")
