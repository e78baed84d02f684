"""Club Mediatore's tournament at the command line: ``mediatore-bench --game club`` hands over
to this module (``mediatore-play --game club`` is the one play loop of :mod:`.play`).

    mediatore-bench --game club --agents greedy random greedy random --deals 500 --seed 1
    mediatore-bench --game club --agents greedy random random random --ante 3 --session-deals 5
    mediatore-bench --game club --agents greedy random greedy random --deals 2000 --ray
    mediatore-bench --game club --agents greedy random greedy random --save-records recs \\
        --record-deals 0,2

``--deals`` counts sessions here (docs/rules.md 10.3: an episode of club Mediatore is a
session: until a pot is won, at most 20 deals, or ``--session-deals`` deals), and
``--record-deals`` chooses sessions: each is saved in its 4 rotations, as
``sessionNNNNN_rotR.json``. ``--jobs``, ``--ray [ADDRESS]`` and ``--record-deals`` are
Mediatore's options (:mod:`.checks`), with the same results whatever the workers. Bad arguments
get one line on stderr and exit status 2, as in every tool.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Sequence

from ..club.records import save_record
from ..club.rules import ClubRules
from ..runinfo import ProgressBar, print_results
from .checks import (ArgumentParser, add_worker_options, check_agents, deals_to_record,
                     non_negative_int, output_dir, output_file, positive_int)

__all__ = ["game_argv", "bench_main"]


def game_argv(argv: Sequence[str]) -> list[str] | None:
    """``argv`` without its ``--game club`` (or ``--game=club``) if it asks for club Mediatore,
    else None: how the Mediatore tools know to hand over."""
    argv = list(argv)
    for i, arg in enumerate(argv):
        if arg == "--game=club":
            return argv[:i] + argv[i + 1:]
        if arg == "--game" and i + 1 < len(argv) and argv[i + 1] == "club":
            return argv[:i] + argv[i + 2:]
    return None


def _rules(args) -> ClubRules:
    return ClubRules(ante=args.ante, deals=args.session_deals)


def _common(p: ArgumentParser) -> None:
    p.add_argument("--ante", type=positive_int, default=5,
                   help="chips each player puts into an empty pot (default 5)")
    p.add_argument("--session-deals", type=positive_int, metavar="K",
                   help="sessions of exactly K deals (default: until a pot is won, at most 20)")


# -- mediatore-bench --game club -------------------------------------------------------------------

def build_bench_parser() -> ArgumentParser:
    from agents.club import CLUB_AGENTS
    p = ArgumentParser(
        prog="mediatore-bench --game club",
        description="Duplicate tournament of club Mediatore agents: every session is played in "
                    "the 4 rotations of the lineup over the same packs. Prints chips per session "
                    "with 95% confidence intervals over sessions.",
        epilog=f"Agents: {', '.join(CLUB_AGENTS)}, with options after a colon "
               "(greedy:margin=0.1), or your own as package.module:Class.")
    p.add_argument("--agents", nargs=4, metavar="AGENT", required=True,
                   help="the lineup: four agents, seats 0-3 of the first rotation")
    p.add_argument("--deals", type=positive_int, default=1000, metavar="N",
                   help="number of sessions (default 1000)")
    p.add_argument("--seed", type=non_negative_int, default=0, help="seed of the packs (default 0)")
    add_worker_options(p, "sessions")
    _common(p)
    p.add_argument("--json", metavar="PATH", type=output_file, help="save the results as JSON")
    p.add_argument("--save-records", metavar="DIR", type=output_dir,
                   help="save the session records of --record-deals (each in its 4 rotations) here")
    p.add_argument("--record-deals", metavar="LIST",
                   help="sessions to record with --save-records, e.g. 0,2 or 0-9 (default 0)")
    bar = p.add_mutually_exclusive_group()
    bar.add_argument("--progress", action="store_true", default=None, help="show a progress bar")
    bar.add_argument("--quiet", "-q", action="store_false", dest="progress", help="no progress bar")
    return p


def bench_main(argv: Sequence[str]) -> int:
    from agents.club import CLUB_AGENTS  # the agents, only when a club tool runs
    from agents.club.tournament import run_club_tournament
    parser = build_bench_parser()
    args = parser.parse_args(list(argv))
    try:
        check_agents(args.agents, CLUB_AGENTS)
        record_sessions = deals_to_record(args.save_records, args.record_deals, args.deals,
                                          "session", "sessions")
        show = sys.stderr.isatty() if args.progress is None else args.progress
        bar = ProgressBar(args.deals) if show else None
        try:
            result = run_club_tournament(args.agents, sessions=args.deals, seed=args.seed,
                                         rules=_rules(args), jobs=args.jobs, ray=args.ray,
                                         record_sessions=record_sessions, progress=bar)
        finally:
            if bar:
                bar.close()
    except (ValueError, ImportError) as e:  # ImportError: --ray without the ray extra
        parser.error(str(e))
    try:
        print_results(result, args.json)
        if args.save_records:
            out = Path(args.save_records)
            out.mkdir(parents=True, exist_ok=True)
            for rec in result.records:
                save_record(rec, out / f"session{rec['meta']['session_index']:05d}_rot"
                                       f"{rec['meta']['rotation']}.json")
            print(f"{len(result.records)} session records saved in {out}/")
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0
