"""``mediatore-bench``: play a duplicate tournament of agents and print the standings.

    mediatore-bench --agents greedy random random random --deals 2000 --seed 1
    mediatore-bench --agents greedy greedy random random --deals 2000 --jobs 2 --json out.json
    mediatore-bench --agents greedy mypkg.bots:MyAgent greedy greedy --preset no_signals
    mediatore-bench --bidding greedy cautious bold chiamo --deals 1000
    mediatore-bench --agents greedy greedy random random --save-records recs --record-deals 0,5,17
    mediatore-bench --agents greedy greedy random random --deals 2000 --ray --plot out.png
    mediatore-bench --plot-json out.json --plot out.svg     # the chart of a saved run
    mediatore-bench --game club --agents greedy random greedy random --deals 500  # sessions

The Tressette games (docs/tressette.md) with ``--game``: each of the ``--deals N`` episodes is
then a game to 31, played in every rotation of the lineup (one agent per seat: 4, 3 or 2) over
the same packs, and the switches are given with ``--rule``::

    mediatore-bench --game tressette --agents greedy random greedy random --deals 500
    mediatore-bench --game tressette3 --agents greedy random random --rule low=true --jobs 2
    mediatore-bench --game tressette2 --agents greedy random --rule claim=true --save-records recs

See :mod:`agents.tournament` for the format (rotations, units per deal, confidence intervals),
and :mod:`agents.tressette.tournament` for the Tressette games'.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import sys
from pathlib import Path

from agents import AGENTS
from agents.mediatore.greedy import BIDDING_POLICIES
from agents.plot import FORMATS, PLOT_MISSING, plot_tournament
from agents.tournament import run_bidding_tournament, run_tournament
from agents.tressette import AGENTS as TRESSETTE_AGENTS
from agents.tressette.tournament import run_tressette_tournament

from ..mediatore.records import save_record
from ..mediatore.rules import PRESETS, SWITCHES
from ..runinfo import ProgressBar, print_results
from ..tressette.rules import SWITCHES as TRESSETTE_SWITCHES
from .checks import (GAMES, ArgumentParser, add_worker_options, check_lineup, deals_to_record,
                     non_negative_int, output_dir, output_file, parse_rules, parse_tressette_rules,
                     positive_int)
from .checks import parse_deal_list  # noqa: F401  (moved to .checks; still importable from here)
from .club import bench_main, game_argv


def build_parser() -> argparse.ArgumentParser:
    p = ArgumentParser(
        prog="mediatore-bench",
        description="Duplicate tournament of Mediatore agents: every deal is played in the 4 "
                    "rotations of the lineup, so every agent holds every hand. Prints units per "
                    "deal with 95% confidence intervals over deals, by seat role and by contract. "
                    "With --game tressette, tressette3 or tressette2: the same for games to 31 of "
                    "that Tressette form, in units per game. With --game club: chips per session "
                    "of club Mediatore (mediatore-bench --game club --help for its options).",
        epilog=f"Agents: {', '.join(AGENTS)}, with options after a colon (random:bid_rate=0.5), "
               f"or your own as package.module:Class; in the Tressette games "
               f"{', '.join(TRESSETTE_AGENTS)} (random:claim_rate=0.1). Bidding policies: "
               f"{', '.join(BIDDING_POLICIES)}. Rules presets: {', '.join(PRESETS)}.")
    p.add_argument("--game", default="mediatore", choices=GAMES,
                   help="the game (default mediatore): Tressette with four players in "
                        "partnerships, three-handed or two-handed, or club Mediatore")
    who = p.add_mutually_exclusive_group(required=True)
    who.add_argument("--agents", nargs="+", metavar="AGENT",
                     help="the lineup: one agent per seat (four; three-handed 3, two-handed 2), "
                          "the seats of the first rotation")
    who.add_argument("--bidding", nargs="+", metavar="POLICY",
                     help="compare these bidding policies (2 or more) inside one shared player")
    who.add_argument("--plot-json", metavar="PATH",
                     help="play nothing: draw the chart (--plot) of results saved with --json")
    p.add_argument("--player", default="greedy",
                   help="with --bidding: the player whose calling, exchange and play they share "
                        "(default greedy)")
    p.add_argument("--deals", type=positive_int, default=1000,
                   help="number of deals (default 1000); in the Tressette games, of games to 31")
    p.add_argument("--seed", type=non_negative_int, default=0, help="seed of the deals (default 0)")
    add_worker_options(p)
    p.add_argument("--preset", default="standard", choices=list(PRESETS), help="rules preset")
    p.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE",
                   help="a rules switch on top of the preset, e.g. --rule signals=off "
                        f"(switches: {', '.join(SWITCHES)}); in the Tressette games "
                        + ", ".join(k for k in TRESSETTE_SWITCHES if k != "players")
                        + ", e.g. --rule low=true")
    p.add_argument("--json", metavar="PATH", help="save the full results as JSON")
    p.add_argument("--plot", metavar="PATH",
                   help="draw units per deal with CIs and the contract breakdown into PATH "
                        f"({', '.join('.' + f for f in FORMATS)}); needs the plot extra")
    p.add_argument("--save-records", metavar="DIR", help="save game records of --record-deals here")
    p.add_argument("--record-deals", metavar="LIST",
                   help="deals (games) to record with --save-records, e.g. 0,5,17 or 0-9 "
                        "(default 0)")
    bar = p.add_mutually_exclusive_group()
    bar.add_argument("--progress", action="store_true", default=None,
                     help="show a progress bar (default: when stderr is a terminal)")
    bar.add_argument("--quiet", "-q", action="store_false", dest="progress",
                     help="no progress bar")
    return p


def _check_path(option: str, check, path: str) -> None:
    """Refuse, before any deal is played, an output path that ``check`` (:mod:`.checks`)
    refuses, naming the option."""
    try:
        check(path)
    except argparse.ArgumentTypeError as e:
        raise ValueError(f"{option} {e}") from None


def check_outputs(args) -> list[int]:
    """Check every output path and its options before the run; the deals to record."""
    if args.json:
        _check_path("--json", output_file, args.json)
    if args.plot:
        suffix = Path(args.plot).suffix.lower().lstrip(".")
        if suffix not in FORMATS:
            raise ValueError(f"--plot {args.plot}: the chart is written as "
                             + ", ".join("." + f for f in FORMATS) + "; end the name in one")
        _check_path("--plot", output_file, args.plot)
        if importlib.util.find_spec("matplotlib") is None:
            raise ValueError(PLOT_MISSING)
    if args.save_records:
        _check_path("--save-records", output_dir, args.save_records)
    episode = "deal" if args.game == "mediatore" else "game"  # a Tressette game is to 31
    return deals_to_record(args.save_records, args.record_deals, args.deals, episode)


def _plot_saved(args) -> int:
    """--plot-json: draw the chart of a saved run."""
    if not args.plot:
        raise ValueError("--plot-json draws a saved run's chart: give --plot OUT.png too")
    check_outputs(args)
    try:
        data = json.loads(Path(args.plot_json).read_text())
    except OSError as e:
        raise ValueError(f"--plot-json {args.plot_json}: {e.strerror}") from None
    except ValueError as e:  # not text, or not JSON
        raise ValueError(f"--plot-json {args.plot_json}: not JSON ({e})") from None
    plot_tournament(data, args.plot)
    print(f"chart saved to {args.plot}")
    return 0


def main(argv=None) -> int:
    club_argv = game_argv(sys.argv[1:] if argv is None else argv)
    if club_argv is not None:  # --game club: club Mediatore's tournament (tools/club.py)
        return bench_main(club_argv)
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        if args.plot_json:
            return _plot_saved(args)
        if args.game != "mediatore":
            check_tressette_options(args)
        record_deals = check_outputs(args)
        if args.game == "mediatore":
            rules = parse_rules(args.preset, args.rule)
            if args.agents:
                check_lineup(args.game, args.agents)
        else:
            rules = parse_tressette_rules(args.game, args.rule)
        show = sys.stderr.isatty() if args.progress is None else args.progress
        unit = "deals" if args.game == "mediatore" else "games"
        bar = ProgressBar(args.deals, unit=unit) if show else None
        common = dict(seed=args.seed, rules=rules, jobs=args.jobs, progress=bar, ray=args.ray)
        try:
            if args.game != "mediatore":
                result = run_tressette_tournament(args.agents, games=args.deals,
                                                  record_games=record_deals, **common)
            elif args.agents:
                result = run_tournament(args.agents, deals=args.deals, record_deals=record_deals,
                                        **common)
            else:
                result = run_bidding_tournament(args.bidding, base=args.player, deals=args.deals,
                                                record_deals=record_deals, **common)
        finally:
            if bar:
                bar.close()
    except (ValueError, ImportError) as e:
        parser.exit(2, f"mediatore-bench: error: {e}\n")
    try:
        _output(args, result)
    except BrokenPipeError:  # e.g. piped into `head`
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0


def check_tressette_options(args) -> None:
    """Refuse what the Tressette games do not have (bidding policies, presets, the chart), and
    a lineup of the wrong size, before anything is played."""
    if args.bidding:
        raise ValueError(f"--bidding compares Mediatore bidding policies; {args.game} has no "
                         f"auction (give --agents)")
    if args.preset != "standard":
        raise ValueError(f"--preset names Mediatore rules; {args.game}'s switches are given "
                         f"with --rule, e.g. --rule low=true")
    if args.plot:
        raise ValueError(f"--plot draws Mediatore tournaments only; save {args.game}'s "
                         f"results with --json")
    check_lineup(args.game, args.agents)


def _output(args, result) -> None:
    print_results(result, args.json)
    if args.plot:
        plot_tournament(result, args.plot)
        print(f"chart saved to {args.plot}")
    if args.save_records:
        out = Path(args.save_records)
        out.mkdir(parents=True, exist_ok=True)
        several = len(result.lineups) > 1
        for rec in result.records:
            m = rec["meta"]
            number = f"deal{m['deal_index']:05d}" if "deal_index" in m \
                else f"game{m['game_index']:05d}"
            name = number + (f"_lineup{m['lineup']}" if several else "") \
                + f"_rot{m['rotation']}.json"
            save_record(rec, out / name)
        print(f"{len(result.records)} game records saved in {out}/")


if __name__ == "__main__":
    sys.exit(main())
