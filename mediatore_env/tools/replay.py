"""``mediatore-replay``: step through a recorded deal, trick by trick.

    mediatore-replay game.json                  # the open table: every hand
    mediatore-replay game.json --seat 2         # only what seat 2 knew, as it knew it
    mediatore-replay recs/ --all                # every record in a folder, without stopping
    mediatore-replay session.json               # a club Mediatore session, deal by deal

Records of the Tressette games (``"format": "tressette-record"``, from ``mediatore-play --game
tressette --save`` and ``mediatore-bench --game ... --save-records``) are re-simulated with
``TressetteGame.replay`` and shown hand by hand, trick by trick (:mod:`.tressette`).

Reads the game records (:mod:`mediatore_env.mediatore.records`) written by ``mediatore-play --save``,
``mediatore-bench --save-records`` and the environment (``env.unwrapped.records``): a file
holding one record or a list of them, or a folder of such files. Each record is first
re-simulated with :func:`mediatore_env.mediatore.records.replay`, so what is shown is what the rules
give; a file that is not a valid record gets a clear error.

The replay rebuilds the deal move by move and stops after the auction, after the exchange and
after every trick; at a terminal it waits for Enter (``a`` shows the rest without stopping,
``q`` quits), otherwise (``--all``, or input from a pipe) it prints everything. With
``--seat N`` the text is built from that seat's :class:`~mediatore_env.mediatore.view.SeatView`, so it
shows exactly what that player knew; the full result is shown at the end either way.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Callable, Iterator, TextIO

from ..core.records import entry_of, replay
from ..mediatore.display import (STYLES, YOU, cards_inline, changes, format_thirds, hand_inline,
                                 hand_lines, result_lines, rules_text, snapshot, view_text)
from ..mediatore.game import Deal
from ..mediatore.moves import AUCTION, END, PLAY, parse_move
from ..mediatore.rules import Rules
from ..tressette.rules import TressetteRules
from .checks import ArgumentParser
from .club import show_session
from .terminal import Pager
from .tressette import show_record as show_tressette_record


def replayer(record: dict) -> tuple[Callable, Callable]:
    """How to re-simulate and how to show a record, by its ``"format"``: a Tressette game
    (:mod:`.tressette`), a club Mediatore session (:mod:`.club`), else a Mediatore deal."""
    unit = entry_of(record).unit
    if unit == "game":
        return replay, show_tressette_record
    if unit == "session":
        return replay, show_session
    return replay, show_record


class BadRecord(ValueError):
    """A file that is not a valid game record; the message names the file and the problem."""


def load_records(path) -> list[dict]:
    """The records in ``path``: a JSON file holding one record or a list of records, a folder
    of such files (in name order), or ``-`` for standard input. Each is checked with
    :func:`records.replay`. Raises :class:`BadRecord` naming the file and what is wrong."""
    if str(path) == "-":
        return _checked(sys.stdin.read(), "standard input")
    path = Path(path)
    if path.is_dir():
        files = sorted(path.glob("*.json"))
        if not files:
            raise BadRecord(f"{path}: no .json files in this folder")
        return [r for f in files for r in load_records(f)]
    try:
        text = path.read_text()
    except FileNotFoundError:
        raise BadRecord(f"{path}: no such file") from None
    except UnicodeDecodeError:
        raise BadRecord(f"{path}: not a game record (not a text file)") from None
    except OSError as e:
        raise BadRecord(f"{path}: cannot read it: {e.strerror or e}") from None
    return _checked(text, str(path))


def _checked(text: str, path: str) -> list[dict]:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise BadRecord(f"{path}: not JSON ({e})") from None
    records = data if isinstance(data, list) else [data]
    if not records:
        raise BadRecord(f"{path}: an empty list, no game record in it")
    for i, record in enumerate(records):
        where = f"{path}" + (f" (record {i})" if isinstance(data, list) else "")
        if not isinstance(record, dict):
            raise BadRecord(f"{where}: not a game record (expected a JSON object)")
        try:
            entry_of(record)
        except ValueError as e:
            raise BadRecord(f"{where}: {e}") from None
        try:
            replayer(record)[0](record)
        except (KeyError, TypeError, AttributeError) as e:
            raise BadRecord(f"{where}: not a valid game record: malformed ({type(e).__name__}: {e})") from None
        except ValueError as e:
            raise BadRecord(f"{where}: not a valid game record: {e}") from None
    return records


def record_names(record: dict, seat: int | None = None) -> list[str]:
    """Display names of the seats: ``greedy(1)`` from the record's ``meta.agents``, else
    ``seat 1``; ``You`` for the human of a ``mediatore-play`` record replayed from its seat."""
    meta = record.get("meta") or {}
    agents = meta.get("agents")
    names = []
    for s in range(4):
        if seat is not None and seat == meta.get("human_seat"):
            if s == seat:
                names.append(YOU)
                continue
        if isinstance(agents, list) and len(agents) == 4 and isinstance(agents[s], str):
            head, _, rest = agents[s].partition(":")
            short = rest.partition(":")[0] if "." in head and rest else head
            names.append(f"{short[:12]}({s})")
        else:
            names.append(f"seat {s}")
    return names


def stops(record: dict, seat: int | None = None) -> Iterator[tuple[str, object]]:
    """Rebuild the deal of ``record`` move by move; yield ``(label, source)`` at each stop:
    ``start`` (the deal dealt), ``auction``, ``exchange`` (call, monte and discards done),
    ``trick 1`` .. ``trick 8``, ``end``. ``source`` is the live Deal (open table) or
    ``deal.view(seat)``."""
    deal = Deal(Rules.from_dict(record["rules"]), record["dealer"], record["pack"])
    source = deal if seat is None else deal.view(seat)
    yield "start", source
    for entry in record["moves"]:
        phase, tricks = deal.phase, len(deal.tricks)
        deal.apply(parse_move(entry["move"]))
        if deal.phase == END:
            yield "end", source
        elif phase == AUCTION and deal.phase != AUCTION:
            yield "auction", source
        elif phase != PLAY and deal.phase == PLAY and phase != AUCTION:
            yield "exchange", source
        elif len(deal.tricks) > tricks:
            yield f"trick {len(deal.tricks)}", source


_ABOUT = {"program": "from", "seed": "seed", "deal_index": "deal", "lineup": "lineup",
          "rotation": "rotation"}


def show_record(record: dict, seat: int | None = None, style: str = "english",
                pager: Pager | None = None, label: str = "") -> bool:
    """Step through one record (already checked). Returns False if the person quit."""
    pager = pager or Pager(False)
    names = record_names(record, seat)
    meta = record.get("meta") or {}
    rules = Rules.from_dict(record["rules"])
    about = ", ".join(f"{label} {meta[key]}" for key, label in _ABOUT.items() if key in meta)
    pager.say(f"== {label or 'Record'} ".ljust(78, "="),
              f"rules: {rules_text(rules)} · dealer {names[record['dealer']]}"
              + (f" · {about}" if about else ""),
              "seen by " + ("everyone: the open table" if seat is None else
                            f"{names[seat]} only" if names[seat] == f"seat {seat}" else
                            f"{names[seat]} (seat {seat}) only"))
    before = None
    title = label or "Record"
    for what, source in stops(record, seat):
        if what == "start":
            before = snapshot(source)
            if seat is None:
                w = max(map(len, names))
                pager.say("Hands as dealt:",
                          *(f"  {names[s]:<{w}}  {hand_inline(source.hands[s], style)}" for s in range(4)),
                          f"  {'monte':<{w}}  {cards_inline(source.monte, style)}")
            else:
                pager.say(f"Hand of {names[seat]}:",
                          *("  " + line for line in hand_lines(source.hand, style)))
            if not pager.wait():
                return False
            continue
        after = snapshot(source)
        pager.say("", f"-- {what} ".ljust(40, "-"), *changes(before, after, names, style))
        before = after
        if what == "end":
            pager.say("", view_text(source, names, style, f"{title}: the end"),
                      f"== {title}: the result ".ljust(78, "="),
                      *result_lines(record, names, style))
            return True
        if what.startswith("trick") or what == "exchange":
            if seat is None:
                w = max(map(len, names))
                pager.say(*(f"  {names[s]:<{w}}  {hand_inline(source.hands[s], style)}"
                            for s in range(4) if source.hands[s]))
            else:
                whose = "your hand" if names[seat] == YOU else f"{names[seat]} holds"
                pager.say(f"  {whose}: {hand_inline(source.hand, style)}")
            if source.tricks:
                pager.say("  points taken: " + " · ".join(
                    f"{names[s]} {format_thirds(source.thirds_won[s])}" for s in range(4)))
        if not pager.wait():
            return False
    return True


def build_parser() -> ArgumentParser:
    p = ArgumentParser(
        prog="mediatore-replay",
        description="Step through recorded Mediatore deals, or Tressette games, trick by trick "
                    "(records from mediatore-play --save, mediatore-bench --save-records or the "
                    "environment).")
    p.add_argument("records", nargs="+", metavar="RECORD",
                   help="a record file (one record or a JSON list of them), a folder of them, "
                        "or - for standard input")
    p.add_argument("--seat", type=int, choices=range(4),
                   help="show only what this seat knew (default: the open table)")
    p.add_argument("--all", action="store_true",
                   help="print everything without waiting (the default when input is not a terminal)")
    p.add_argument("--cards", default="english", choices=STYLES, help="how cards are named")
    return p


def main(argv=None, ask: Callable[[str], str] | None = None, out: TextIO | None = None,
         interactive: bool | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    out = out if out is not None else sys.stdout
    try:
        records = []
        for path in args.records:
            records += [(f"{path}" + (f" #{i + 1}" if len(recs) > 1 else ""), r)
                        for recs in [load_records(path)] for i, r in enumerate(recs)]
        players = [TressetteRules.from_dict(r["rules"]).players for _, r in records
                   if entry_of(r).unit == "game"]
        if args.seat is not None and any(args.seat >= n for n in players):
            raise BadRecord(f"--seat {args.seat}: a Tressette record here has seats "
                            f"0-{min(players) - 1}")
    except BadRecord as e:
        print(f"mediatore-replay: error: {e}", file=sys.stderr)
        return 2
    if interactive is None:
        interactive = sys.stdin.isatty() and "-" not in args.records
    pager = Pager(interactive and not args.all, ask or input, out)
    try:
        for label, record in records:
            if not replayer(record)[1](record, args.seat, args.cards, pager, label):
                break
    except KeyboardInterrupt:
        pager.say("", "Interrupted.")
        return 130
    except BrokenPipeError:  # the output was cut short (| head): not an error
        sys.stdout = open(os.devnull, "w")
    return 0


if __name__ == "__main__":
    sys.exit(main())
