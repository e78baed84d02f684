"""``mediatore-tables``: build a double-dummy contract value table and save it, or show one.

    mediatore-tables build --deals 1000 --jobs 2 --out table.npz
    mediatore-tables show table.npz [--deal N]

The tables themselves (what an entry holds, the policy that fills it, the file format) are
:mod:`mediatore_env.analysis.tables`.
"""

from __future__ import annotations

import argparse
import sys
import time

from ..analysis.tables import CALL_CONTRACTS, ContractTable, build_table
from ..mediatore.rules import CONTRACT_NAMES, CONTRACTS, PRESETS
from ..runinfo import ProgressBar


def _summary(table: ContractTable) -> str:
    lines = [f"{len(table)} deals, seed {table.seed}, calls {table.call_mode}, values "
             f"{table.values}, rules {table.rules.to_dict()}"]
    for contract in CONTRACTS:
        if contract > table.rules.top_contract:
            continue
        made = table.made[:, :, contract, :].astype(int)
        thirds = table.thirds[:, :, contract, :].astype(int)
        if contract in CALL_CONTRACTS:  # the best tabled call
            made, thirds = made.max(axis=-1), thirds.max(axis=-1)
        else:
            made, thirds = made[..., 0], thirds[..., 0]
        line = (f"  {CONTRACT_NAMES[contract]:14s} made {made.mean():6.1%} of seat-deals"
                + (" (its best call)" if contract in CALL_CONTRACTS else ""))
        if table.values == "thirds":
            line += f", mean thirds {thirds.mean():5.1f}"
        lines.append(line)
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        prog="mediatore-tables",
        description="Double-dummy contract value tables of Mediatore deals (mediatore_env.analysis.tables).")
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="compute the table of N deals and save it (.npz)")
    b.add_argument("--deals", type=int, default=100)
    b.add_argument("--seed", type=int, default=0)
    b.add_argument("--start", type=int, default=0, help="first deal number (default 0)")
    b.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    b.add_argument("--preset", default="standard", choices=sorted(PRESETS))
    b.add_argument("--calls", default="top", choices=("top", "all"),
                   help="cards worth calling: the top missing card of each suit, or all")
    b.add_argument("--values", default="thirds", choices=("thirds", "made"),
                   help="exact thirds (default), or only whether made (ten times faster)")
    b.add_argument("--out", required=True, help="file to write (.npz)")
    b.add_argument("--quiet", action="store_true", help="no progress bar")
    s = sub.add_parser("show", help="print a table's summary, or one deal's lines")
    s.add_argument("path")
    s.add_argument("--deal", type=int, help="deal number to print")
    args = parser.parse_args(argv)
    if args.command == "build":
        if args.deals < 1 or args.jobs < 1:
            parser.error("--deals and --jobs must be positive")
        bar = None if args.quiet else ProgressBar(args.deals)
        table = build_table(args.deals, args.seed, PRESETS[args.preset], args.calls,
                            args.values, args.jobs, bar, args.start)
        if bar:
            bar.close()
        table.save(args.out)
        print(f"wrote {args.out} in {time.perf_counter() - (bar.start if bar else 0):.0f} s"
              if bar else f"wrote {args.out}")
        print(_summary(table))
        return 0
    try:
        table = ContractTable.load(args.path)
    except (OSError, ValueError) as e:
        print(f"mediatore-tables: {e}", file=sys.stderr)
        return 2
    if args.deal is None:
        print(_summary(table))
    elif not 0 <= args.deal < len(table):
        print(f"mediatore-tables: deal {args.deal} out of range 0..{len(table) - 1}", file=sys.stderr)
        return 2
    else:
        print(table.text(args.deal))
    return 0


if __name__ == "__main__":
    sys.exit(main())
