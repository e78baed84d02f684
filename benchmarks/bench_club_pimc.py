"""The time a decision of club Mediatore's search agent (``pimc``) takes, by kind of decision:
its accept/pass and call (searched over sampled worlds since the bidding search), its discards
(greedy's), its card plays with a choice (PIMC), and all of them together.

    python3 benchmarks/bench_club_pimc.py [--sessions 20] [--seed 0] [--time-limit 0.1]

It plays ``--sessions`` sessions (until a pot is won) with ``pimc`` at seat 0 and ``greedy``
at the others, session ``i`` dealt first by seat ``i % 4`` from the tournament's packs, and
prints the count, the median and the 90th percentile of the wall-clock time per decision of
each kind, with the machine it ran on. The chips are mediatore-bench's business (docs/club.md).
"""

from __future__ import annotations

from agents.base import play
from agents.club import ClubGreedyAgent, ClubPimcAgent
from agents.club.tournament import HOOKS
from mediatore_env.club.game import Session
from mediatore_env.club.moves import AUCTION, CALL, DISCARD, PLAY
from mediatore_env.club.rules import ClubRules
from mediatore_env.runinfo import machine, median_p90
from mediatore_env.tools.checks import (ArgumentParser, non_negative_int, positive_float,
                                        positive_int)

from bench_search import Timed  # noqa: E402  (benchmarks/ is the script's directory)

#: The kinds of decision, as printed, and the phase each is made in.
KINDS = {"accept/pass": AUCTION, "call": CALL, "discard": DISCARD, "card (choice)": PLAY}


class TimedByPhase(Timed):
    """:class:`bench_search.Timed` (each decision's seconds, and whether it had a choice),
    with the phase of each decision beside."""

    def __init__(self, agent):
        super().__init__(agent)
        self.phases = []

    def act(self, observation, view):
        self.phases.append(view.phase)
        return super().act(observation, view)


def decision_times(sessions: int, seed: int, time_limit: float) -> list:
    """(seconds, phase, had a choice) of every decision of ``pimc`` at seat 0."""
    timed = TimedByPhase(ClubPimcAgent(time_limit=time_limit))
    for i in range(sessions):
        lineup = [timed] + [ClubGreedyAgent() for _ in range(3)]
        play(Session(ClubRules(), i % 4, [HOOKS.pack(seed, i, j) for j in range(40)]), lineup,
             seeds=[seed + i, None, None, None])
    return [(t, phase, choice) for (t, choice), phase in zip(timed.times, timed.phases)]


def row(name: str, seconds: list) -> str:
    if not seconds:
        return f"{name:14s} {0:5d}      -      -"
    median, p90 = median_p90(seconds)
    return f"{name:14s} {len(seconds):5d} {1000 * median:6.1f} {1000 * p90:6.1f}"


def main(argv=None) -> None:
    parser = ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=positive_int, default=20)
    parser.add_argument("--seed", type=non_negative_int, default=0)
    parser.add_argument("--time-limit", type=positive_float, default=0.1)
    args = parser.parse_args(argv)
    times = decision_times(args.sessions, args.seed, args.time_limit)
    print(f"club pimc at seat 0, greedy elsewhere; {args.sessions} sessions, seed {args.seed}; "
          f"time_limit {args.time_limit} s; {machine()}")
    print(f"{'decision':14s} {'count':>5s} {'median':>6s} {'p90':>6s}  (ms)")
    for name, phase in KINDS.items():
        print(row(name, [t for t, p, choice in times if p == phase and (choice or p != PLAY)]))
    print(row("bidding", [t for t, p, _ in times if p in (AUCTION, CALL)]))
    print(row("all", [t for t, _, _ in times]))


if __name__ == "__main__":
    main()
