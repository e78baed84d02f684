"""``mediatore-replay``: step through a recorded game of any game of the family, trick by
trick.

    mediatore-replay game.json                  # the open table: every hand
    mediatore-replay game.json --seat 2         # only what seat 2 knew, as it knew it
    mediatore-replay recs/ --all                # every record in a folder, without stopping
    mediatore-replay session.json               # a club Mediatore session, deal by deal

Reads the records (:mod:`mediatore_env.core.records`) of every game of the registry, written by
``mediatore-play --save``, ``mediatore-bench --save-records`` and the environments
(``env.unwrapped.records``): a file holding one record or a list of them, or a folder of such
files. Each record is first re-simulated with :func:`mediatore_env.registry.replay`, so what
is shown is what the rules give; a file that is not a valid record gets a clear error.

One viewer serves every game: it rebuilds the game pack by pack and move by move through the
game interface and stops at each stage its game's display names (Mediatore: the auction,
the exchange, every trick; Tressette: every trick of every hand; club Mediatore: the same, deal
after deal), telling what happened in between in its words. At a terminal it waits
for Enter (``a`` shows the rest without stopping, ``q`` quits), otherwise (``--all``, or input
from a pipe) it prints everything. With ``--seat N`` the text is built from that seat's view, so
it shows exactly what that player knew; the full result is shown at the end either way.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, Callable, Iterator, TextIO

from ..core.game import CHANCE
from ..registry import definition_of, replay
from ..registry import get
from ..core.text import STYLES, YOU
from ..runinfo import command
from .checks import ArgumentParser
from .terminal import Pager, agent_seat_name

#: the largest file of records read (a 9-trick Mediatore deal's record is about 3 KB)
MAX_RECORDS_FILE = 256 * 2 ** 20


class BadRecord(ValueError):
    """A file that is not a valid game record; the message names the file and the problem."""


def record_files(path) -> list[Path]:
    """The record files ``path`` names: the file itself, or a folder's ``.json`` files in name
    order. Raises :class:`BadRecord` for an empty path or a folder without one."""
    if not str(path):  # Path("") would be the current folder
        raise BadRecord("an empty path; give a record file or a folder of them")
    path = Path(path)
    if not path.is_dir():
        return [path]
    files = sorted(path.glob("*.json"))
    if not files:
        raise BadRecord(f"{path}: no .json files in this folder")
    return files


def load_records(path) -> list[dict]:
    """The records in ``path``: a JSON file holding one record or a list of records, a folder
    of such files (in name order), or ``-`` for standard input. Each is checked with
    :func:`records.replay`. Raises :class:`BadRecord` naming the file and what is wrong."""
    if str(path) == "-":
        return _checked(_bounded(sys.stdin, "standard input"), "standard input")
    files = record_files(path)
    if files != [Path(path)]:
        return [r for f in files for r in load_records(f)]
    path = files[0]
    try:
        with open(path) as f:
            text = _bounded(f, str(path))
    except FileNotFoundError:
        raise BadRecord(f"{path}: no such file") from None
    except UnicodeDecodeError:
        raise BadRecord(f"{path}: not a game record (not a text file)") from None
    except OSError as e:
        raise BadRecord(f"{path}: cannot read it: {e.strerror or e}") from None
    return _checked(text, str(path))


def _bounded(stream, where: str) -> str:
    """All of the text ``stream``, refused past MAX_RECORDS_FILE characters: /dev/zero, or a
    device given by mistake, was read until memory ran out."""
    data = stream.read(MAX_RECORDS_FILE + 1)
    if len(data) > MAX_RECORDS_FILE:
        raise BadRecord(f"{where}: over {MAX_RECORDS_FILE:,} characters, more than files of "
                        "records are; split it into files of a folder")
    return data


def _checked(text: str, path: str) -> list[dict]:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise BadRecord(f"{path}: not JSON ({e})") from None
    except RecursionError:  # lists or objects nested past Python's recursion limit
        raise BadRecord(f"{path}: not a game record (its JSON is nested too deeply)") from None
    records = data if isinstance(data, list) else [data]
    if not records:
        raise BadRecord(f"{path}: an empty list, no game record in it")
    for i, record in enumerate(records):
        where = f"{path}" + (f" (record {i})" if isinstance(data, list) else "")
        if not isinstance(record, dict):
            raise BadRecord(f"{where}: not a game record (expected a JSON object)")
        try:
            definition_of(record)
        except ValueError as e:
            raise BadRecord(f"{where}: {e}") from None
        try:
            replay(record)
        except ValueError as e:
            raise BadRecord(f"{where}: not a valid game record: {e}") from None
    return records


def record_names(record: dict, players: int, seat: int | None = None) -> list[str]:
    """Display names of the seats: ``greedy(1)`` from the record's ``meta.agents`` (a text
    of printable characters), else ``seat 1``; ``You`` for the human of a ``mediatore-play``
    record replayed from its seat."""
    meta = record.get("meta") or {}
    agents = meta.get("agents")
    names = []
    for s in range(players):
        if seat is not None and s == seat == meta.get("human_seat"):
            names.append(YOU)
        elif (isinstance(agents, list) and len(agents) == players
              and isinstance(agents[s], str) and agents[s].isprintable()):
            names.append(agent_seat_name(agents[s], s))
        else:
            names.append(f"seat {s}")
    return names


_ABOUT = {"program": "from", "seed": "seed", "deal_index": "deal", "game_index": "game",
          "session_index": "session", "lineup": "lineup", "rotation": "rotation"}


def record_start(final):
    """A new game of the game, rules and first dealer of ``final`` (a record replayed), to step
    through it with :func:`record_steps`."""
    definition = get(final.record()["game"])  # a version 1 Tressette record names no form
    return definition.new_game(final.rules, final.first_dealer)


def record_steps(game, final) -> Iterator[tuple[str, Any]]:
    """Step ``game`` (a :func:`record_start`) through ``final``'s packs and moves as they were
    played: yields ``("pack", pack)`` after each pack dealt (whenever the game asks for one)
    and ``("move", move)`` after each move. Stops early where a record of an unfinished game
    ends."""
    packs = iter(final.packs)
    moves = iter(final.history)
    while not game.is_over:
        if game.to_move == CHANCE:
            pack = next(packs, None)
            if pack is None:
                return
            game.deal(pack)
            yield "pack", pack
        else:
            step = next(moves, None)
            if step is None:
                return
            game.apply(step[1])
            yield "move", step[1]


def show_record(record: dict, seat: int | None = None, style: str = "english",
                pager: Pager | None = None, label: str = "") -> bool:
    """Step through one record (already checked), of any game: the game rebuilt pack by pack
    and move by move, a stop at each stage its display names. Returns False if the person
    quit."""
    pager = pager or Pager(False)
    final = replay(record)
    definition = get(final.record()["game"])  # a version 1 Tressette record names no form
    text = definition.display
    names = record_names(record, final.players, seat)
    meta = record.get("meta") or {}
    title = label or "Record"
    about = ", ".join(f"{word} {meta[key]}" for key, word in _ABOUT.items() if key in meta)
    pager.say(f"== {title} ".ljust(78, "="),
              f"{definition.title}, rules: {text.rules_line(final.rules)} · "
              f"dealer {names[record['dealer']]}"
              + (f" · {about}" if about else ""),
              "seen by " + ("everyone: the open table" if seat is None else
                            f"{names[seat]} only" if names[seat] == f"seat {seat}" else
                            f"{names[seat]} (seat {seat}) only"))
    game = record_start(final)
    narrator = text.narrator(game, seat, names, style)
    stage = text.stage(game, seat)
    for kind, _ in record_steps(game, final):
        if kind == "pack":
            narrator.skip()
            pager.say("", *text.dealt_lines(game, seat, names, style))
            stage = text.stage(game, seat)
            if not pager.wait():
                return False
        elif text.stage(game, seat) != stage:
            stage = text.stage(game, seat)
            pager.say("", f"-- {stage} ".ljust(40, "-"), *narrator.news(),
                      *text.stop_lines(game, seat, names, style))
            if not game.is_over and not pager.wait():
                return False
    if not game.is_over:
        pager.say(*narrator.news(), "", "(the record ends here: the game was not finished)")
        return True
    pager.say(f"== {title}: the result ".ljust(78, "="), *text.end_lines(game, names, style))
    return True


def build_parser() -> ArgumentParser:
    p = ArgumentParser(
        prog="mediatore-replay",
        description="Step through recorded games of every game of the family (Mediatore deals, "
                    "Tressette games, club Mediatore sessions) trick by trick (records from "
                    "mediatore-play --save, mediatore-bench --save-records or the environments).")
    p.add_argument("records", nargs="+", metavar="RECORD",
                   help="a record file (one record or a JSON list of them), a folder of them, "
                        "or - for standard input")
    p.add_argument("--seat", type=int, choices=range(4),
                   help="show only what this seat knew (default: the open table)")
    p.add_argument("--all", action="store_true",
                   help="print everything without waiting (the default when input is not a terminal)")
    p.add_argument("--cards", default="english", choices=STYLES, help="how cards are named")
    return p


@command("mediatore-replay")  # Ctrl-C, at a prompt too: one line and status 130
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
        for _, r in records:
            players = replay(r).players
            if args.seat is not None and args.seat >= players:
                raise BadRecord(f"--seat {args.seat}: a {definition_of(r).title} record here has "
                                f"seats 0-{players - 1}")
    except BadRecord as e:
        print(f"mediatore-replay: error: {e}", file=sys.stderr)
        return 2
    if interactive is None:
        interactive = sys.stdin.isatty() and "-" not in args.records
    pager = Pager(interactive and not args.all, ask or input, out)

    def show_all() -> int:
        for label, record in records:
            if not show_record(record, args.seat, args.cards, pager, label):
                break  # the person quit
        return 0

    return show_all()


if __name__ == "__main__":
    sys.exit(main())
