"""Checks shared by the command-line tools, so that every tool answers a bad argument the same
way: one line on stderr, ``<prog>: error: <what was wrong and what is valid>``, and exit status 2,
before any work starts (a deal played, a table built) rather than after it.

- :class:`ArgumentParser`: argparse with one-line errors (argparse prints the whole usage first;
  defined in :mod:`mediatore_env.runinfo`, for the commands outside the tools too).
- argparse ``type=`` checks, each returning the number or the text it was given:
  :func:`positive_int` (deals, jobs), :func:`non_negative_int` (seeds, deal numbers),
  :func:`probability` (a rate from 0 to 1), :func:`output_file` (a file the tool will write),
  :func:`output_dir` (a folder it will write into, created if missing), :func:`input_file`
  (a file it will read).
- :func:`parse_game_rules` (any registered game's rules: ``--preset`` where it has presets,
  with ``--rule name=value`` on top) and :func:`rules_of` (them from the arguments
  ``mediatore-bench`` and ``mediatore-play`` share), :func:`check_lineup` (one agent per seat
  of the game) and :func:`check_agents` (agent specs made once, so a bad name or option fails
  before the first deal). They raise ``ValueError``;
  a tool turns it into its one-line error with ``parser.error(str(e))``.
- Options that the tournaments of every game share, written once: :func:`add_worker_options`
  (``--jobs`` and ``--ray [ADDRESS]``), and :func:`parse_deal_list` with
  :func:`deals_to_record` (``--record-deals LIST`` with ``--save-records DIR``).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path
from typing import Sequence

import mediatore_env.registry as registry
from mediatore_env.runinfo import ArgumentParser  # noqa: F401  (the tools' parser, from here)


def _number(text: str, kind: type, what: str):
    """``text`` as a ``kind`` (int, float), else argparse's error saying it is not ``what``."""
    try:
        return kind(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not {what}: {text!r}") from None


def _int(text: str) -> int:
    return _number(text, int, "a whole number")


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
    return _number(text, float, "a number")


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


def _not_empty(text: str) -> None:
    # An empty path is no path: not the current folder, nor an option left out.
    if not text:
        raise argparse.ArgumentTypeError("'' is an empty path; give a file or folder name")


def output_file(text: str) -> str:
    """A file the tool will write: its folder must exist and be writable, and the path must not
    be a folder or a file that cannot be overwritten. Checked when the arguments are read, so a
    typo fails at once, not after the work."""
    _not_empty(text)
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
    _not_empty(text)
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
    _not_empty(text)
    path = Path(text)
    if not path.exists():
        raise argparse.ArgumentTypeError(f"{text!r}: no such file")
    if path.is_dir():
        raise argparse.ArgumentTypeError(f"{text!r} is a folder, not a file")
    if not os.access(path, os.R_OK):
        raise argparse.ArgumentTypeError(f"{text!r}: cannot read it (permission denied)")
    return text


_TRUE_WORDS = ("true", "on", "yes", "1")
_FALSE_WORDS = ("false", "off", "no", "0")


def _value_text(value) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def rule_switches(game: str) -> dict[str, tuple | None]:
    """The switches ``--rule`` may set in registered game ``game``, each with its valid values
    (None where the rules class checks them itself): the fields of its rules but the ones the
    game fixes, and but a switch none of whose other values any rules of the game allow
    (Tressette's ``show_draws`` without a stock). A value that wants another switch changed
    too (Mediatore's low schedule, Arcisolissimo off) is the rules' to explain."""
    definition = registry.get(game)
    rules = definition.make_rules()
    free = [s for s in definition.rules.switches() if s.name not in definition.fixed]
    # the changes that may go with a value: none, or one other switch's value
    company: list[dict] = [{}] + [{s.name: v} for s in free for v in s.choices or ()]
    out = {}
    for switch in free:
        values = switch.choices or None
        if values is not None and not any(
                _allows(rules, {**other, switch.name: v}) for v in values
                if v != getattr(rules, switch.name) for other in company):
            continue
        out[switch.name] = values
    return out


def _allows(rules, changes: dict) -> bool:
    try:
        _with(rules, changes)
    except ValueError:
        return False
    return True


def _with(rules, changes: dict):
    return type(rules).from_dict({**rules.to_dict(), **changes}) if changes else rules


def _parse_value(name: str, text: str, values: tuple | None):
    """The value of switch ``name`` that ``text`` names: one of ``values`` by its text (any case;
    true/false, on/off, yes/no for a yes-or-no switch), or where the rules check the values
    themselves a whole number or ``none``."""
    word = text.strip().lower()
    if values is None:
        if word == "none":
            return None
        try:
            return int(word)
        except ValueError:
            raise ValueError(f"bad value {text.strip()!r} for rules switch {name!r}: a whole "
                             "number or none") from None
    for v in values:
        if str(v).lower() == word or isinstance(v, bool) and word in (
                _TRUE_WORDS if v else _FALSE_WORDS):
            return v
    shown = ("true", "false") if all(isinstance(v, bool) for v in values) else map(_value_text,
                                                                                values)
    raise ValueError(f"bad value {text.strip()!r} for rules switch {name!r}; valid: "
                     + ", ".join(shown))


def parse_game_rules(game: str, items: Sequence[str] = (), preset: str | None = None):
    """The rules of registered game ``game`` -- its preset ``preset`` where its rules module has
    ``PRESETS``, else its own -- with ``name=value`` items on top (``--rule signals=off``,
    ``--rule low=true``, ``--rule ante=3``). Raises ``ValueError`` naming the bad item and the
    valid names, values or presets."""
    definition = registry.get(game)
    presets = definition.rules.PRESETS
    if preset is not None and not presets:
        raise ValueError(f"{game} has no rules presets; give its switches with --rule, e.g. "
                         f"--rule {rule_example(game)}")
    if preset is not None and preset not in presets:
        raise ValueError(f"unknown rules preset {preset!r}; valid: {', '.join(presets)}")
    rules = presets[preset] if preset is not None else definition.make_rules()
    switches = rule_switches(game)
    changes = {}
    for item in items:
        name, eq, value = item.partition("=")
        name = name.strip()
        if not eq:
            raise ValueError(f"bad --rule {item!r}: write name=value, e.g. {rule_example(game)}")
        if name not in switches:
            raise ValueError(f"unknown rules switch {name!r} of {game}; valid: "
                             f"{', '.join(switches)}")
        changes[name] = _parse_value(name, value, switches[name])
    return _with(rules, changes)


#: Options that set one rules switch, for the games that have it (club Mediatore's): the
#: option, the switch, its metavar and help. A game's parser has those of its switches.
SHORTCUTS = (("--ante", "ante", "N", "chips each player puts into an empty pot (--rule ante=N)"),
             ("--session-deals", "deals", "K",
              "sessions of exactly K deals (--rule deals=K; default: until a pot is won)"))


def bidding_player(args) -> str | None:
    """The player ``--bidding``'s policies share: ``--player``, greedy by default; None
    without ``--bidding``, where ``--player`` is refused rather than ignored."""
    if not args.bidding:
        if args.player is not None:
            raise ValueError("--player goes with --bidding: the player the policies share")
        return None
    return args.player or "greedy"


def game_of(argv: Sequence[str] | None, default: str = "mediatore") -> str:
    """The game that ``--game`` names in ``argv`` (default ``default``), read first so that a
    tool builds its parser, and its help, for that game alone. A name that is no game gives
    the default: the tool's parser then refuses it, naming the games."""
    first = argparse.ArgumentParser(add_help=False)
    first.add_argument("--game", default=default)
    game = first.parse_known_args(argv)[0].game
    return game if game in registry.GAMES else default


def add_rules_options(p: argparse.ArgumentParser, game: str) -> None:
    """The options that set ``game``'s rules, and only its own: ``--preset`` where its rules
    have presets, ``--rule NAME=VALUE`` with its switches listed, and the :data:`SHORTCUTS` of
    its switches. :func:`rules_of` reads them back."""
    presets = list(registry.get(game).rules.PRESETS)
    switches = rule_switches(game)
    p.set_defaults(preset=None, **{option[2:].replace("-", "_"): None
                                   for option, *_ in SHORTCUTS})
    if presets:
        p.add_argument("--preset", choices=presets,
                       help=f"{game}'s rules preset (default {presets[0]})")
    p.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE",
                   help=f"a rules switch of {game}" + (" on top of the preset" if presets else "")
                        + f", e.g. --rule {rule_example(game)}; its switches: "
                        + ", ".join(switches))
    for option, switch, metavar, words in SHORTCUTS:
        if switch in switches:
            p.add_argument(option, type=positive_int, metavar=metavar, help=words)


def rules_options_elsewhere(game: str) -> dict[str, str]:
    """The rules options of :func:`add_rules_options` that ``game`` has not, each with why, for
    :func:`parse_for_game`."""
    out = {}
    if not registry.get(game).rules.PRESETS:
        out["--preset"] = (f"{game} has no rules presets; give its switches with --rule, "
                           f"e.g. --rule {rule_example(game)}")
    switches = rule_switches(game)
    for option, switch, _, _ in SHORTCUTS:
        if switch not in switches:
            games = [name for name in registry.GAMES if switch in rule_switches(name)]
            out[option] = (f"{option} sets the {switch!r} switch of {', '.join(games)}, not a "
                           f"switch of {game}")
    return out


def parse_for_game(parser: argparse.ArgumentParser, argv: Sequence[str] | None, game: str,
                   elsewhere: dict[str, str]) -> argparse.Namespace:
    """``parser.parse_args(argv)`` for a parser built for ``game``; an option of other games
    (``elsewhere``: the option, and why ``game`` has it not) is refused in one line saying why
    and naming the options ``game`` has."""
    words = sys.argv[1:] if argv is None else argv
    for option in (word.partition("=")[0] for word in words if word.startswith("--")):
        if option in elsewhere:  # before argparse, which would first ask for what is missing
            own = [o for action in parser._actions for o in action.option_strings
                   if o.startswith("--") and o != "--help"]
            parser.error(f"{elsewhere[option]}; the options of {game}: {', '.join(own)}")
    return parser.parse_args(argv)


def rules_of(args):
    """The rules of ``args.game`` from the options of :func:`add_rules_options`: ``--preset``,
    ``--rule`` and the :data:`SHORTCUTS`. Raises ``ValueError`` naming what does not fit the
    game."""
    items = list(args.rule)
    for option, switch, _, _ in SHORTCUTS:
        value = getattr(args, option[2:].replace("-", "_"))
        if value is not None:
            items.append(f"{switch}={value}")
    return parse_game_rules(args.game, items, args.preset)


def rule_example(game: str) -> str:
    """``name=value`` of the game's first switch set to another valid value, for messages."""
    rules = registry.get(game).make_rules()
    for name, values in rule_switches(game).items():
        default = getattr(rules, name)
        other = next((v for v in values or () if v != default), None)
        if other is not None:
            return f"{name}={_value_text(other)}"
        if values is None:
            return f"{name}={default}"
    return "name=value"


def check_lineup(game: str, specs: Sequence[str]) -> None:
    """Refuse a lineup that is not one agent per seat of ``game``. Raises ``ValueError``."""
    players = registry.get(game).players
    if len(specs) != players:
        raise ValueError(f"--agents: {game} is played by {players} agents, one per seat; "
                         f"got {len(specs)}")


def check_agents(specs: Sequence[str], known: dict | None = None) -> None:
    """Make each agent of ``specs`` once (:func:`agents.make_agent`, with the names of
    ``known``, a game's agents registry), so that an unknown name, a bad option or a missing
    model file fails before any deal. Raises ``ValueError``."""
    from agents import make_agent  # the agents layer sits above analysis, below the tools
    for spec in dict.fromkeys(specs):
        try:
            make_agent(spec, known)
        except (ImportError, AttributeError, OSError) as e:
            raise ValueError(f"cannot make agent {spec!r}: {e}") from None


def add_worker_options(p: argparse.ArgumentParser, what: str = "deals") -> None:
    """Add ``--jobs`` and ``--ray [ADDRESS]``, the workers of a tournament (``jobs=`` and
    ``ray=`` of :func:`agents.tournament.run_tournament`), whose ``what`` (deals, sessions,
    episodes) they play."""
    p.add_argument("--jobs", type=positive_int,
                   help="worker processes (default 1), or with --ray the workers of the local Ray "
                        "instance (default: every core); the results do not depend on it")
    p.add_argument("--ray", nargs="?", const=True, default=False, metavar="ADDRESS",
                   help=f"play the {what} as Ray tasks: on a local Ray instance, or on the cluster "
                        "at ADDRESS ('auto' for one started with `ray start` on this machine, "
                        "ray://HEAD:10001 for a remote one); needs the ray extra")


def _deal_ranges(text: str) -> list[tuple[int, int]]:
    """``'0,5,10-19'`` -> ``[(0, 0), (5, 5), (10, 19)]``; ``ValueError`` for anything else,
    a reversed range and a list of no number included."""
    out = []
    for part in filter(None, (p.strip() for p in text.split(","))):
        lo, dash, hi = part.partition("-")
        try:
            first, last = int(lo), int(hi if dash else lo)
        except ValueError:
            raise ValueError(f"bad deal list {text!r}: write numbers and ranges, "
                             "e.g. 0,5,10-19") from None
        if last < first:
            raise ValueError(f"bad deal list {text!r}: the range {part} runs backwards; "
                             f"write {last}-{first}")
        out.append((first, last))
    if not out:  # '' or ',': a list that names no episode (not the default, deal 0)
        raise ValueError(f"bad deal list {text!r}: no number in it; write numbers and ranges, "
                         "e.g. 0,5,10-19")
    return out


def parse_deal_list(text: str) -> list[int]:
    """``'0,5,17'`` or ``'0-9,20'`` -> deal numbers. Raises ``ValueError`` for a bad list or a
    reversed range (``3-1``)."""
    return [n for first, last in _deal_ranges(text) for n in range(first, last + 1)]


def deals_to_record(save_records: str | None, record_deals: str | None, deals: int,
                    episode: str = "deal", chosen: str = "deals") -> list[int]:
    """The numbers that ``--save-records DIR`` saves: those of ``--record-deals LIST`` (default
    0), each checked to lie in a run of ``deals`` episodes (an ``episode``: a deal, a game to
    31, a session); none without ``--save-records``. Raises ``ValueError`` for
    ``--record-deals`` without ``--save-records`` (it chooses the ``chosen``), a bad list, or a
    number outside the run (checked before the list is spelled out). The folder itself is
    checked by :func:`output_dir`."""
    if record_deals is not None and not save_records:
        raise ValueError(f"--record-deals chooses the {chosen} that --save-records DIR saves; "
                         "give --save-records too")
    if not save_records:
        return []
    ranges = _deal_ranges("0" if record_deals is None else record_deals)
    outside: set[int] = set()
    for first, last in ranges:
        start = max(first, deals)
        outside.update(range(start, min(last, start + 10) + 1))  # a few of each, not millions
    if outside:
        shown = sorted(outside)
        raise ValueError(f"--record-deals {record_deals}: {episode}{'s' * (len(shown) > 1)} "
                         f"{','.join(map(str, shown[:10]))}{',...' * (len(shown) > 10)} not in "
                         f"the run (with --deals {deals} they are 0-{deals - 1})")
    return parse_deal_list(record_deals or "0")
