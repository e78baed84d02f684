"""Checks shared by the command-line tools, so that every tool answers a bad argument the same
way: one line on stderr, ``<prog>: error: <what was wrong and what is valid>``, and exit status 2,
before any work starts (a deal played, a table built) rather than after it.

- :class:`ArgumentParser`: argparse with one-line errors (argparse prints the whole usage first).
- argparse ``type=`` checks, each returning the number or the text it was given:
  :func:`positive_int` (deals, jobs), :func:`non_negative_int` (seeds, deal numbers),
  :func:`probability` (a rate from 0 to 1), :func:`output_file` (a file the tool will write),
  :func:`output_dir` (a folder it will write into, created if missing), :func:`input_file`
  (a file it will read).
- :func:`parse_rules` (``--preset`` with ``--rule name=value`` on top),
  :func:`parse_tressette_rules` (a Tressette form's switches from ``--rule low=true``),
  :func:`check_lineup` (one agent per seat of the game) and :func:`check_agents` (agent specs
  made once, so a bad name or option fails before the first deal). They raise ``ValueError``;
  a tool turns it into its one-line error with ``parser.error(str(e))``.
- Options that the tournaments of every game share, written once: :func:`add_worker_options`
  (``--jobs`` and ``--ray [ADDRESS]``), and :func:`parse_deal_list` with
  :func:`deals_to_record` (``--record-deals LIST`` with ``--save-records DIR``).
"""

from __future__ import annotations

import argparse
import os
import tempfile
from pathlib import Path
from typing import Sequence

from ..mediatore.rules import SWITCHES, Rules
from ..tressette.rules import FORMS
from ..tressette.rules import SWITCHES as TRESSETTE_SWITCHES
from ..tressette.rules import TressetteRules

#: The games the tools play (``--game``): Mediatore, the Tressette forms by name, and club
#: Mediatore (whose own options :mod:`.club` reads: the tools hand ``--game club`` over to it).
GAMES = ("mediatore", *FORMS, "club")


class ArgumentParser(argparse.ArgumentParser):
    """argparse's parser whose errors are one line (the message, then where to find the usage)
    and exit status 2; subcommand parsers made with ``add_subparsers`` are of this class too."""

    def error(self, message: str):
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def _int(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None


def positive_int(text: str) -> int:
    """A count that must be 1 or more (deals, jobs, repeats)."""
    n = _int(text)
    if n < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more, not {n}")
    return n


def non_negative_int(text: str) -> int:
    """A seed or a deal number: 0 or more (numpy's generators refuse negative seeds)."""
    n = _int(text)
    if n < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, not {n}")
    return n


def _float(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None


def positive_float(text: str) -> float:
    """A size that must be more than 0 (a learning rate, a scale)."""
    x = _float(text)
    if not x > 0:
        raise argparse.ArgumentTypeError(f"must be more than 0, not {x:g}")
    return x


def non_negative_float(text: str) -> float:
    """A weight that may be 0 (off) or more."""
    x = _float(text)
    if not x >= 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, not {x:g}")
    return x


def probability(text: str) -> float:
    """A rate between 0 and 1 (a random player's bid rate)."""
    x = _float(text)
    if not 0 <= x <= 1:
        raise argparse.ArgumentTypeError(f"must be between 0 and 1, not {x:g}")
    return x


def can_write_in(folder: Path) -> bool:
    """Whether a file can be made in ``folder``: tried, with a scratch file removed at once
    (permission bits alone do not tell, e.g. for root, or in /proc)."""
    try:
        fd, name = tempfile.mkstemp(dir=folder, prefix=".mediatore-")
    except OSError:
        return False
    os.close(fd)
    os.unlink(name)
    return True


def _writable_folder(folder: Path, what: str) -> None:
    if not folder.exists():
        raise argparse.ArgumentTypeError(f"{what}: the folder {str(folder)!r} does not exist")
    if not folder.is_dir():
        raise argparse.ArgumentTypeError(f"{what}: {str(folder)!r} is not a folder")
    if not can_write_in(folder):
        raise argparse.ArgumentTypeError(f"{what}: cannot write in the folder {str(folder)!r}")


def output_file(text: str) -> str:
    """A file the tool will write: its folder must exist and be writable, and the path must not
    be a folder or a file that cannot be overwritten. Checked when the arguments are read, so a
    typo fails at once, not after the work."""
    path = Path(text)
    if path.is_dir():
        raise argparse.ArgumentTypeError(f"{text!r} is a folder, not a file")
    _writable_folder(path.parent, text)
    if path.exists() and not os.access(path, os.W_OK):
        raise argparse.ArgumentTypeError(f"cannot overwrite {text!r} (not writable)")
    return text


def output_dir(text: str) -> str:
    """A folder the tool will write files into: it exists and is writable, or it does not exist
    yet and its nearest existing parent is a writable folder (the tool creates it)."""
    path = Path(text)
    if path.exists():
        if not path.is_dir():
            raise argparse.ArgumentTypeError(f"{text!r} is a file, not a folder")
        _writable_folder(path, text)
        return text
    parent = path.absolute().parent
    while not parent.exists():
        parent = parent.parent
    if not parent.is_dir():
        raise argparse.ArgumentTypeError(f"cannot create the folder {text!r}: {str(parent)!r} "
                                         "is a file, not a folder")
    if not can_write_in(parent):
        raise argparse.ArgumentTypeError(f"cannot create the folder {text!r} in {str(parent)!r}")
    return text


def input_file(text: str) -> str:
    """A file the tool will read: it exists, is a file, and is readable."""
    path = Path(text)
    if not path.exists():
        raise argparse.ArgumentTypeError(f"{text!r}: no such file")
    if path.is_dir():
        raise argparse.ArgumentTypeError(f"{text!r} is a folder, not a file")
    if not os.access(path, os.R_OK):
        raise argparse.ArgumentTypeError(f"{text!r}: cannot read it (permission denied)")
    return text


def parse_rules(preset: str, switches: Sequence[str]) -> Rules:
    """A rules preset with ``name=value`` switches on top (values as :data:`SWITCHES` spells
    them, any case). Raises ``ValueError`` naming the bad item and the valid names or values."""
    rules = Rules.preset(preset)
    changes = {}
    for item in switches:
        name, eq, value = item.partition("=")
        name = name.strip()
        if not eq:
            raise ValueError(f"bad --rule {item!r}: write name=value, e.g. signals=off")
        if name not in SWITCHES:
            raise ValueError(f"unknown rules switch {name!r}; valid: {', '.join(SWITCHES)}")
        matches = [v for v in SWITCHES[name] if str(v).lower() == value.strip().lower()]
        if not matches:
            raise ValueError(f"bad value {value!r} for rules switch {name!r}; valid: "
                             + ", ".join(str(v) for v in SWITCHES[name]))
        changes[name] = matches[0]
    return rules.replace(**changes) if changes else rules


_TRUE_WORDS = ("true", "on", "yes", "1")
_FALSE_WORDS = ("false", "off", "no", "0")


def parse_tressette_rules(game: str, switches: Sequence[str]) -> TressetteRules:
    """The rules of the Tressette form ``game`` (``'tressette'``, ``'tressette3'``,
    ``'tressette2'``) with ``name=value`` switches on top (``low=true``, ``claim=on``; the
    number of players is the form's). Raises ``ValueError`` naming the bad item and the valid
    names or values."""
    if game not in FORMS:
        raise ValueError(f"unknown game {game!r}; valid: {', '.join(GAMES)}")
    rules = FORMS[game]
    # The number of players is the form's; show_draws exists only where there is a stock.
    names = [k for k in TRESSETTE_SWITCHES
             if k != "players" and (k != "show_draws" or rules.stock_size)]
    changes = {}
    for item in switches:
        name, eq, value = item.partition("=")
        name, value = name.strip(), value.strip().lower()
        if not eq:
            raise ValueError(f"bad --rule {item!r}: write name=value, e.g. low=true")
        if name not in names:
            raise ValueError(f"unknown rules switch {name!r} of {game}; valid: {', '.join(names)}")
        if value not in _TRUE_WORDS + _FALSE_WORDS:
            raise ValueError(f"bad value {value!r} for rules switch {name!r}; valid: true, false")
        changes[name] = value in _TRUE_WORDS
    return rules.replace(**changes) if changes else rules


def check_lineup(game: str, specs: Sequence[str]) -> None:
    """Refuse a lineup that is not one agent per seat of ``game``. Raises ``ValueError``."""
    players = FORMS[game].players if game in FORMS else 4
    if len(specs) != players:
        raise ValueError(f"--agents: {game} is played by {players} agents, one per seat; "
                         f"got {len(specs)}")


def check_agents(specs: Sequence[str], registry: dict | None = None) -> None:
    """Make each agent of ``specs`` once (:func:`agents.make_agent`, with the names of
    ``registry``), so that an unknown name, a bad option or a missing model file fails before
    any deal. Raises ``ValueError``."""
    from agents import make_agent  # the agents layer sits above analysis, below the tools
    for spec in dict.fromkeys(specs):
        try:
            make_agent(spec, registry)
        except (ImportError, AttributeError, OSError) as e:
            raise ValueError(f"cannot make agent {spec!r}: {e}") from None


def add_worker_options(p: argparse.ArgumentParser, what: str = "deals") -> None:
    """Add ``--jobs`` and ``--ray [ADDRESS]``, the workers of a tournament (``jobs=`` and
    ``ray=`` of the ``run_*_tournament`` functions), whose ``what`` (deals, sessions) they
    play."""
    p.add_argument("--jobs", type=positive_int,
                   help="worker processes (default 1), or with --ray the workers of the local Ray "
                        "instance (default: every core); the results do not depend on it")
    p.add_argument("--ray", nargs="?", const=True, default=False, metavar="ADDRESS",
                   help=f"play the {what} as Ray tasks: on a local Ray instance, or on the cluster "
                        "at ADDRESS ('auto' for one started with `ray start` on this machine, "
                        "ray://HEAD:10001 for a remote one); needs the ray extra")


def parse_deal_list(text: str) -> list[int]:
    """``'0,5,17'`` or ``'0-9,20'`` -> deal numbers."""
    out = []
    for part in filter(None, (p.strip() for p in text.split(","))):
        lo, dash, hi = part.partition("-")
        try:
            out.extend(range(int(lo), int(hi) + 1) if dash else [int(lo)])
        except ValueError:
            raise ValueError(f"bad deal list {text!r}: write numbers and ranges, "
                             "e.g. 0,5,10-19") from None
    return out


def deals_to_record(save_records: str | None, record_deals: str | None, deals: int,
                    episode: str = "deal", chosen: str = "deals") -> list[int]:
    """The numbers that ``--save-records DIR`` saves: those of ``--record-deals LIST`` (default
    0), each checked to lie in a run of ``deals`` episodes (an ``episode``: a deal, a game to
    31, a session); none without ``--save-records``. Raises ``ValueError`` for
    ``--record-deals`` without ``--save-records`` (it chooses the ``chosen``), a bad list, or a
    number outside the run. The folder itself is checked by :func:`output_dir`."""
    if record_deals is not None and not save_records:
        raise ValueError(f"--record-deals chooses the {chosen} that --save-records DIR saves; "
                         "give --save-records too")
    if not save_records:
        return []
    numbers = parse_deal_list("0" if record_deals is None else record_deals)
    outside = [d for d in numbers if d >= deals]
    if outside:
        raise ValueError(f"--record-deals {record_deals}: {episode}{'s' * (len(outside) > 1)} "
                         f"{','.join(map(str, outside))} not in the run (with --deals "
                         f"{deals} they are 0-{deals - 1})")
    return numbers
