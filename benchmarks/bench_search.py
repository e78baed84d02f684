"""The time a decision of the search agents (``pimc``) of the Tressette games and club Mediatore
takes: one PIMC agent against greedy agents, every decision it makes timed.

    python3 benchmarks/bench_search.py [--episodes 3] [--seed 0] [--time-limit 0.1]
                                       [--games tressette tressette3 tressette2 club]

For each game (tressette, tressette3, tressette2, each also with ``low``; club) it plays
``--episodes`` episodes (games to 31, club sessions) with ``pimc`` at seat 0 and ``greedy`` at
the others (``--games``: only those), and prints the median and the 90th percentile of the
wall-clock time per decision of the PIMC agent: over the card plays with a choice (where it
searches) and over all its decisions, with the machine it ran on. The tournament's results are
mediatore-bench's business (docs/search.md); this script only times.
"""

from __future__ import annotations

import time

from agents.base import play
from agents.club import ClubGreedyAgent, ClubPimcAgent
from agents.tournament import hooks_of
from agents.tressette import TressetteGreedyAgent, TressettePimcAgent
from mediatore_env.club.game import Session
from mediatore_env.club.rules import ClubRules
from mediatore_env.runinfo import machine, median_p90
from mediatore_env.tools.checks import (ArgumentParser, non_negative_int, positive_float,
                                        positive_int)
from mediatore_env.tressette.game import TressetteGame
from mediatore_env.tressette.rules import FORMS


class Timed:
    """Wraps an agent: the wall-clock seconds of each decision, and whether it had a choice."""

    wants_observation = False

    def __init__(self, agent):
        self.agent, self.name, self.times = agent, agent.name, []

    def reset(self, seed=None):
        self.agent.reset(seed)

    def act(self, observation, view):
        start = time.perf_counter()
        move = self.agent.act(None, view)
        self.times.append((time.perf_counter() - start, len(view.legal_moves()) > 1))
        return move


def tressette_times(rules, episodes: int, seed: int, time_limit: float) -> list:
    timed = Timed(TressettePimcAgent(time_limit=time_limit))
    for i in range(episodes):
        lineup = [timed] + [TressetteGreedyAgent() for _ in range(rules.players - 1)]
        play(TressetteGame(rules, i % rules.players), lineup,
             lambda k, i=i: hooks_of(rules.form).pack(seed, i, k),
             seeds=[seed + i] + [None] * (rules.players - 1))
    return timed.times


def club_times(episodes: int, seed: int, time_limit: float) -> list:
    timed = Timed(ClubPimcAgent(time_limit=time_limit))
    for i in range(episodes):
        lineup = [timed] + [ClubGreedyAgent() for _ in range(3)]
        packs = [hooks_of("club").pack(seed, i, j) for j in range(40)]
        play(Session(ClubRules(), i % 4, packs), lineup, seeds=[seed + i, None, None, None])
    return timed.times


def summary(times: list) -> str:
    def ms(values):
        median, p90 = median_p90(values)
        return f"{1000 * median:6.1f} {1000 * p90:6.1f}"
    searched = [t for t, choice in times if choice]
    return f"{len(searched):5d} {ms(searched)}   {len(times):5d} {ms([t for t, _ in times])}"


def main(argv=None) -> None:
    parser = ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=positive_int, default=3)
    parser.add_argument("--seed", type=non_negative_int, default=0)
    parser.add_argument("--time-limit", type=positive_float, default=0.1)
    parser.add_argument("--games", nargs="+", choices=[*FORMS, "club"], default=[*FORMS, "club"],
                        help="the games to time (default: all)")
    args = parser.parse_args(argv)
    print(f"pimc at seat 0, greedy elsewhere; time_limit {args.time_limit} s; {machine()}")
    print(f"{'game':16s} {'searched':>5s} {'median':>6s} {'p90':>6s}   {'all':>5s} "
          f"{'median':>6s} {'p90':>6s}  (ms)")
    for form, rules in FORMS.items():
        if form not in args.games:
            continue
        for low in (False, True):
            times = tressette_times(rules.replace(low=low), args.episodes, args.seed,
                                    args.time_limit)
            print(f"{form + (' low' if low else ''):16s} {summary(times)}", flush=True)
    if "club" in args.games:
        print(f"{'club':16s} {summary(club_times(args.episodes, args.seed, args.time_limit))}")


if __name__ == "__main__":
    main()
