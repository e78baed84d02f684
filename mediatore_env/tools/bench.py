"""``mediatore-bench``: play a duplicate tournament of agents and print the standings.

    mediatore-bench --agents greedy random random random --deals 2000 --seed 1
    mediatore-bench --agents greedy greedy random random --deals 2000 --jobs 2 --json out.json
    mediatore-bench --agents greedy mypkg.bots:MyAgent greedy greedy --preset no_signals
    mediatore-bench --bidding greedy cautious bold chiamo --deals 1000
    mediatore-bench --agents greedy greedy random random --save-records recs --record-deals 0,5,17

See :mod:`agents.tournament` for the format (rotations, units per deal, confidence intervals).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from agents import AGENTS
from agents.greedy import BIDDING_POLICIES
from agents.tournament import run_bidding_tournament, run_tournament

from ..mediatore.records import save_record
from ..mediatore.rules import PRESETS, SWITCHES, Rules
from ..runinfo import ProgressBar, machine


def _switch_value(name: str, text: str):
    for v in SWITCHES[name]:
        if str(v).lower() == text.strip().lower():
            return v
    raise ValueError(f"bad value {text!r} for rules switch {name!r}; valid: "
                     + ", ".join(str(v) for v in SWITCHES[name]))


def parse_rules(preset: str, switches: list[str]) -> Rules:
    rules = Rules.preset(preset)
    changes = {}
    for item in switches:
        name, eq, value = item.partition("=")
        if not eq:
            raise ValueError(f"bad --rule {item!r}: write name=value, e.g. signals=off")
        if name not in SWITCHES:
            raise ValueError(f"unknown rules switch {name!r}; valid: {', '.join(SWITCHES)}")
        changes[name] = _switch_value(name, value)
    return rules.replace(**changes) if changes else rules


def parse_deal_list(text: str) -> list[int]:
    """``'0,5,17'`` or ``'0-9,20'`` -> deal numbers."""
    out = []
    for part in filter(None, (p.strip() for p in text.split(","))):
        lo, dash, hi = part.partition("-")
        try:
            out.extend(range(int(lo), int(hi) + 1) if dash else [int(lo)])
        except ValueError:
            raise ValueError(f"bad deal list {text!r}: write numbers and ranges, e.g. 0,5,10-19") from None
    return out


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="mediatore-bench",
        description="Duplicate tournament of Mediatore agents: every deal is played in the 4 "
                    "rotations of the lineup, so every agent holds every hand. Prints units per "
                    "deal with 95%% confidence intervals over deals, by seat role and by contract.",
        epilog=f"Agents: {', '.join(AGENTS)}, with options after a colon (random:bid_rate=0.5), "
               f"or your own as package.module:Class. Bidding policies: "
               f"{', '.join(BIDDING_POLICIES)}. Rules presets: {', '.join(PRESETS)}.")
    who = p.add_mutually_exclusive_group(required=True)
    who.add_argument("--agents", nargs=4, metavar="AGENT",
                     help="the lineup: four agents, seats 0-3 of the first rotation")
    who.add_argument("--bidding", nargs="+", metavar="POLICY",
                     help="compare these bidding policies (2 or more) inside one shared player")
    p.add_argument("--player", default="greedy",
                   help="with --bidding: the player whose calling, exchange and play they share "
                        "(default greedy)")
    p.add_argument("--deals", type=int, default=1000, help="number of deals (default 1000)")
    p.add_argument("--seed", type=int, default=0, help="seed of the deals (default 0)")
    p.add_argument("--jobs", type=int, default=1, help="worker processes (default 1); the "
                   "results do not depend on it")
    p.add_argument("--preset", default="standard", choices=list(PRESETS), help="rules preset")
    p.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE",
                   help="a rules switch on top of the preset, e.g. --rule signals=off "
                        f"(switches: {', '.join(SWITCHES)})")
    p.add_argument("--json", metavar="PATH", help="save the full results as JSON")
    p.add_argument("--save-records", metavar="DIR", help="save game records of --record-deals here")
    p.add_argument("--record-deals", default="0", metavar="LIST",
                   help="deals to record with --save-records, e.g. 0,5,17 or 0-9 (default 0)")
    bar = p.add_mutually_exclusive_group()
    bar.add_argument("--progress", action="store_true", default=None,
                     help="show a progress bar (default: when stderr is a terminal)")
    bar.add_argument("--quiet", "-q", action="store_false", dest="progress",
                     help="no progress bar")
    return p


def main(argv=None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        rules = parse_rules(args.preset, args.rule)
        record_deals = parse_deal_list(args.record_deals) if args.save_records else []
        show = sys.stderr.isatty() if args.progress is None else args.progress
        bar = ProgressBar(args.deals) if show else None
        common = dict(deals=args.deals, seed=args.seed, rules=rules, jobs=args.jobs,
                      record_deals=record_deals, progress=bar)
        try:
            if args.agents:
                result = run_tournament(args.agents, **common)
            else:
                result = run_bidding_tournament(args.bidding, base=args.player, **common)
        finally:
            if bar:
                bar.close()
    except ValueError as e:
        parser.exit(2, f"mediatore-bench: error: {e}\n")
    try:
        _output(args, result)
    except BrokenPipeError:  # e.g. piped into `head`
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0


def _output(args, result) -> None:
    print(result.report())
    print(f"machine: {machine()}")
    if args.json:
        data = result.to_dict()
        data["machine"] = machine()
        Path(args.json).write_text(json.dumps(data, indent=1) + "\n")
        print(f"results saved to {args.json}")
    if args.save_records:
        out = Path(args.save_records)
        out.mkdir(parents=True, exist_ok=True)
        several = len(result.lineups) > 1
        for rec in result.records:
            m = rec["meta"]
            name = f"deal{m['deal_index']:05d}" + (f"_lineup{m['lineup']}" if several else "") \
                + f"_rot{m['rotation']}.json"
            save_record(rec, out / name)
        print(f"{len(result.records)} game records saved in {out}/")


if __name__ == "__main__":
    sys.exit(main())
