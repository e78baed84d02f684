"""What a decision of a search agent costs in time: the agent at seat 0 of any registered game,
``greedy`` at the others, each decision it makes with a choice timed on the thread's CPU clock
and on the wall clock. What docs/agents.md's budget table was measured with, and how a search
agent's default budget (worlds and solver nodes) was calibrated against the time limit it had
before (give both specs and compare).

    python3 benchmarks/bench_budgets.py --game mediatore --episodes 4 --seed 0 \\
        pimc pimc:time_limit=0.07

For each spec it prints the decisions with a choice, the median and 90th percentile of their
CPU and wall seconds and the longest on the CPU, split into card plays and the other phases
(in Mediatore: 0 the auction, 1 the call, 2 the discards -- the first of a searched exchange
searches, the others follow its plan --, 3 the card passed back), and the machine it ran on.
Seat 0's agent deals first in episode 0, the next seat in episode 1, and so on; the packs come
from ``--seed`` as a tournament's do, so two specs are timed on the same deals.
"""

from __future__ import annotations

import time

from agents.base import play
from agents.registry import agents_of, make_agent
from agents.tournament import derive_seed, hooks_of
from mediatore_env import registry
from mediatore_env.runinfo import machine, median_p90
from mediatore_env.tools.checks import (ArgumentParser, check_agents, non_negative_int,
                                        parse_game_rules, positive_int)


class Timed:
    """Wraps an agent: each decision with a choice as (what: ``"card"`` or the phase,
    CPU seconds, wall seconds)."""

    def __init__(self, agent, is_card):
        self.agent, self.is_card, self.times = agent, is_card, []
        self.wants_observation = getattr(agent, "wants_observation", True)

    def reset(self, seed=None):
        self.agent.reset(seed)

    def act(self, observation, view):
        legal = view.legal_moves()
        cpu, wall = time.thread_time(), time.perf_counter()
        move = self.agent.act(observation, view)
        if len(legal) > 1:
            what = "card" if self.is_card(legal[0]) else f"phase {getattr(view, 'phase', '?')}"
            self.times.append((what, time.thread_time() - cpu,
                               time.perf_counter() - wall))
        return move


def decision_times(game: str, spec: str, episodes: int, seed: int, opponent: str = "greedy",
                   rules=None):
    """The timed decisions of ``spec`` at seat 0 of ``game`` (its ``rules``; None: the
    default) against ``opponent`` elsewhere."""
    entry = registry.get(game)
    known = agents_of(entry)
    card = entry.trick.card if entry.trick is not None else (lambda move: None)
    timed = Timed(make_agent(spec, known), lambda move: card(move) is not None)
    others = [make_agent(opponent, known) for _ in range(entry.players - 1)]
    hooks, rules = hooks_of(game), entry.make_rules() if rules is None else rules
    for index in range(episodes):
        packs = {}

        def pack(k, index=index):
            if k not in packs:
                packs[k] = hooks.pack(seed, index, k)
            return packs[k]

        seeds = [derive_seed(seed, index, s) for s in range(entry.players)]
        play(entry.engine(rules, hooks.dealer(index, entry.players)), [timed] + others, pack, seeds)
    return timed.times


def summary(rows) -> str:
    if not rows:
        return "none"
    top = max(r[1] for r in rows)
    cpu, wall = median_p90([r[1] for r in rows]), median_p90([r[2] for r in rows])
    return (f"{len(rows):4d} decisions, CPU median {cpu[0] * 1000:6.1f} ms "
            f"(p90 {cpu[1] * 1000:6.1f}), wall median {wall[0] * 1000:6.1f} ms "
            f"(p90 {wall[1] * 1000:6.1f}); CPU max {top * 1000:.0f} ms")


def main(argv=None) -> None:
    parser = ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("specs", nargs="+", help="the agents to time, each at seat 0 in turn")
    parser.add_argument("--game", default="mediatore", help="a registered game")
    parser.add_argument("--episodes", type=positive_int, default=4)
    parser.add_argument("--seed", type=non_negative_int, default=0)
    parser.add_argument("--opponent", default="greedy", help="the agent at the other seats")
    parser.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE",
                        help="a rules switch of the game, e.g. --rule low=true (repeatable)")
    args = parser.parse_args(argv)
    try:
        rules = parse_game_rules(args.game, args.rule)
        # every agent made once: a bad name or option is one line before the first episode
        check_agents([*args.specs, args.opponent], agents_of(args.game))
    except ValueError as error:
        parser.error(str(error))
    print(f"{args.game}{''.join(' ' + r for r in args.rule)}, {args.episodes} episodes, seed "
          f"{args.seed}, {args.opponent} elsewhere; {machine()}")
    for spec in args.specs:
        rows = decision_times(args.game, spec, args.episodes, args.seed, args.opponent, rules)
        print(spec)
        for what in sorted({r[0] for r in rows}, key=lambda w: (w != "card", w)):
            print(f"  {what:8s} {summary([r for r in rows if r[0] == what])}", flush=True)


if __name__ == "__main__":
    main()
