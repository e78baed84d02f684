"""``mediatore-tables``: build a double-dummy contract value table and save it, or show one.

    mediatore-tables build --deals 1000 --jobs 2 --out table.npz
    mediatore-tables show table.npz [--deal N]

The tables themselves (what an entry holds, the policy that fills it, the file format) are
:mod:`mediatore_env.mediatore.tables`.
"""

from __future__ import annotations

import sys
import time
import zipfile

from ..core.text import counted
from ..mediatore.tables import CALL_CONTRACTS, ContractTable, build_table
from ..mediatore.rules import CONTRACT_NAMES, CONTRACTS, PRESETS
from ..runinfo import add_progress_options, command, jobs_note, wants_progress
from .checks import ArgumentParser, input_file, non_negative_int, output_file, positive_int

PROG = "mediatore-tables"


def _summary(table: ContractTable) -> str:
    lines = [f"{counted(len(table), 'deal')}, seed {table.seed}, calls {table.call_mode}, values "
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


@command(PROG)  # Ctrl-C: one line and status 130; the workers and the bar go with the build
def main(argv=None) -> int:
    parser = ArgumentParser(
        prog=PROG,
        description="Double-dummy contract value tables of Mediatore deals (mediatore_env.mediatore.tables).")
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="compute the table of N deals and save it (.npz)")
    b.add_argument("--deals", type=positive_int, default=100, help="number of deals (default 100)")
    b.add_argument("--seed", type=non_negative_int, default=0, help="seed of the deals (default 0)")
    b.add_argument("--start", type=non_negative_int, default=0, help="first deal number (default 0)")
    b.add_argument("--jobs", type=positive_int, default=1, help="worker processes (default 1)")
    b.add_argument("--preset", default="standard", choices=sorted(PRESETS))
    b.add_argument("--calls", default="top", choices=("top", "all"),
                   help="cards worth calling: the top missing card of each suit, or all")
    b.add_argument("--values", default="thirds", choices=("thirds", "made"),
                   help="exact thirds (default), or only whether made (ten times faster)")
    b.add_argument("--out", required=True, type=output_file,
                   help="file to write (.npz); its folder must exist")
    add_progress_options(b)
    s = sub.add_parser("show", help="print a table's summary, or one deal's lines")
    s.add_argument("path", type=input_file, help="a table written by build (.npz)")
    s.add_argument("--deal", type=non_negative_int, help="deal number to print")
    args = parser.parse_args(argv)
    if args.command == "build":
        note = jobs_note(PROG, args.jobs, args.deals, "deal")
        if note:
            print(note, file=sys.stderr)
        start = time.perf_counter()
        table = build_table(args.deals, args.seed, PRESETS[args.preset], args.calls,
                            args.values, args.jobs, wants_progress(args.progress), args.start)
        out = args.out if args.out.endswith(".npz") else f"{args.out}.npz"  # as numpy names it
        try:
            table.save(out)
        except OSError as e:  # checked before the work, but a disk can still fill up
            print(f"{PROG}: error: cannot write {out}: {e.strerror or e}", file=sys.stderr)
            return 1
        print(f"wrote {out} in {time.perf_counter() - start:.0f} s")
        print(_summary(table))
        return 0
    try:
        table = ContractTable.load(args.path)
    except (OSError, ValueError, KeyError, zipfile.BadZipFile) as e:
        if str(args.path) in str(e):  # the table format's own message
            why = str(e)
        elif isinstance(e, OSError):
            why = f"{args.path}: cannot read it: {e.strerror or e}"
        else:  # numpy's message about pickles would only mislead here
            why = f"{args.path}: not a table written by mediatore-tables build (not an .npz file)"
        print(f"{PROG} show: error: {why}", file=sys.stderr)
        return 2
    if args.deal is None:
        print(_summary(table))
    elif not args.deal < len(table):
        print(f"{PROG} show: error: no deal {args.deal} in {args.path}: "
              f"it holds deals 0 to {len(table) - 1}", file=sys.stderr)
        return 2
    else:
        print(table.text(args.deal))
    return 0


if __name__ == "__main__":
    sys.exit(main())
