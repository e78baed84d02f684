"""What the terminal tools share: reading and writing at a terminal, and reading cards typed
by a person.

- :class:`Terminal` (``mediatore-play``) and :class:`Pager` (``mediatore-replay``): text out,
  answers in, scripted in tests;
- :func:`parse_cards_words`: cards as people type them (``d3``, ``3d``, ``ace of swords``,
  ``asso di spade``), and the commands (``q``, ``?``, ``t``);
- :func:`seat_names`: ``You`` and ``greedy(1)``;
- :func:`record_path`: where ``--save`` puts the record of each game played;
- :func:`wait_for_next`: Enter between two hands, deals or games;
- :func:`running_score` and :func:`stopped`: the score between several deals or games, and
  when the player quits;

Mediatore's play (:mod:`.play`) and the Tressette games' (:mod:`.tressette`) both use them.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Callable, Sequence, TextIO

from ..core.text import YOU, counted
from ..core.cards import CC, make_card

_RANK_WORDS = {  # the English and the Italian names: "three of coins", "tre di denari"
    "4": 0, "5": 1, "6": 2, "7": 3, "four": 0, "five": 1, "six": 2, "seven": 3,
    "quattro": 0, "cinque": 1, "sei": 2, "sette": 3, "due": 8, "tre": 9,
    "f": 4, "j": 4, "jack": 4, "knave": 4, "fante": 4,
    "c": 5, "q": 5, "horse": 5, "knight": 5, "queen": 5, "cavallo": 5, "donna": 5,
    "r": 6, "k": 6, "king": 6, "re": 6,
    "a": 7, "1": 7, "ace": 7, "asso": 7,
    "2": 8, "two": 8, "3": 9, "three": 9,
}
_SUIT_WORDS = {
    "d": 0, "coins": 0, "coin": 0, "denari": 0, "diamonds": 0, "♦": 0,
    "c": 1, "cups": 1, "cup": 1, "coppe": 1, "hearts": 1, "♥": 1,
    "s": 2, "swords": 2, "sword": 2, "spade": 2, "spades": 2, "♠": 2,
    "b": 3, "batons": 3, "baton": 3, "bastoni": 3, "clubs": 3, "♣": 3,
}

QUIT, HELP, TABLE = "quit", "help", "table"
_COMMANDS = {"q": QUIT, "quit": QUIT, "exit": QUIT, "?": HELP, "h": HELP, "help": HELP,
             "t": TABLE, "table": TABLE, "show": TABLE}


class BadInput(ValueError):
    """What a person typed does not name a legal move; the message says why."""


def _compact_card(token: str) -> int | None:
    """``'d3'``, ``'3d'``, ``'sk'`` (K = Re), ``'a♠'``: a card in two characters, or None."""
    t = token.strip()
    if len(t) != 2:
        return None
    first, second = t[0].lower(), t[1].lower()
    for suit_ch, rank_ch in ((first, second), (second, first)):
        if suit_ch in "dcsb♦♥♠♣" and rank_ch in _RANK_WORDS and len(rank_ch) == 1:
            if suit_ch == rank_ch == "c":
                return CC  # the Cavallo di Coppe, either way round
            return make_card(_SUIT_WORDS[suit_ch], _RANK_WORDS[rank_ch])
    return None


def parse_cards_words(tokens: Sequence[str]) -> tuple[list[int], list[str]]:
    """Cards at the start of ``tokens`` (lower-case words), and the words left after them.

    A card is two characters (``d3``, ``3d``, ``sa``, ``as``, ``a♠``; J, Q, K stand for Fante,
    Cavallo, Re) or a rank word and a suit word (``ace of swords``, ``asso di spade``, ``3 coins``).
    """
    cards, i = [], 0
    while i < len(tokens):
        card = _compact_card(tokens[i])
        if card is not None:
            cards.append(card)
            i += 1
            continue
        if (i + 1 < len(tokens) and tokens[i] in _RANK_WORDS and tokens[i + 1] in _SUIT_WORDS):
            cards.append(make_card(_SUIT_WORDS[tokens[i + 1]], _RANK_WORDS[tokens[i]]))
            i += 2
            continue
        break
    return cards, list(tokens[i:])


class Quit(Exception):
    """The person asked to stop (q, or Ctrl-D: the end of the input)."""


class Terminal:
    """Reads answers and writes text; ``ask(prompt)`` is ``input`` by default, and raises
    EOFError at the end of the input. Tests pass a scripted ``ask`` and a StringIO ``out``."""

    def __init__(self, ask: Callable[[str], str] = input, out: TextIO | None = None):
        self.ask_fn, self.out = ask, out if out is not None else sys.stdout

    def say(self, *lines: str) -> None:
        for line in lines:
            print(line, file=self.out)
        self.out.flush()

    def ask(self, prompt: str) -> str:
        try:
            return self.ask_fn(prompt)
        except EOFError:  # the end of the input: quit (Ctrl-C is the command's, 130)
            self.say("")
            raise Quit from None
        except KeyboardInterrupt:
            self.say("")  # off the prompt's line
            raise


def seat_names(agent_names: Sequence[str | None], human: int) -> list[str]:
    """Display names: ``You`` for the human seat, ``greedy(1)`` for an agent at seat 1."""
    return [YOU if s == human else agent_seat_name(spec or "", s)
            for s, spec in enumerate(agent_names)]


def agent_seat_name(spec: str, seat: int) -> str:
    """An agent's text as its seat's name: its registry name, or a class's name where it is a
    path (``pkg.mod:MyAgent:depth=3`` is ``MyAgent``), short, with the seat: ``greedy(1)``."""
    head, _, rest = spec.partition(":")
    short = rest.partition(":")[0] if "." in head and rest else head
    return f"{short[:12]}({seat})"


def record_path(save: str | None, index: int, several: bool) -> Path | None:
    """Where ``--save PATH`` puts the record of deal or game ``index``: PATH itself when one is
    played, ``PATH-index.json`` (PATH's own suffix kept) when several are; None without --save."""
    if not save:
        return None
    path = Path(save)
    if not several:
        return path
    return path.with_name(f"{path.stem}-{index}{path.suffix or '.json'}")


def score_line(names: Sequence[str], totals: Sequence[int]) -> str:
    """``You +2 · greedy(1) -2 · ...``: each seat's total."""
    return " · ".join(f"{names[s]} {t:+d}" for s, t in enumerate(totals))


def wait_for_next(term: Terminal, what: str) -> None:
    """Wait for Enter before the next deal, hand or game (``what``), so that the end of the
    last one can be read; ``q`` raises :class:`Quit`."""
    answer = term.ask(f"Press Enter for the next {what}, q to stop: ").strip().lower()
    if _COMMANDS.get(answer) == QUIT:
        raise Quit


def running_score(term: Terminal, what: str, played: int, names: Sequence[str],
                  totals: Sequence[int], last: bool) -> None:
    """After each of several deals or games (``what``): the score so far; then, unless it was
    the last, wait for Enter (:func:`wait_for_next`)."""
    term.say(f"Running score after {counted(played, what)}: "
             + score_line(names, totals))
    if not last:
        wait_for_next(term, what)


def stopped(what: str, played: int, names: Sequence[str], totals: Sequence[int]) -> str:
    """The line said when the player quits after ``played`` finished deals or games."""
    if not played:
        return f"Stopped. No {what} was finished."
    return (f"Stopped. Score over {counted(played, 'finished ' + what)}: "
            + score_line(names, totals))


def _echoing_input(prompt: str) -> str:
    """``input``, echoing the answer when stdin is not a terminal, so a transcript reads well."""
    answer = input(prompt)
    if not sys.stdin.isatty():
        print(answer)
    return answer


class Pager:
    """Waits between stops when interactive: Enter goes on, ``a`` shows the rest, ``q`` quits."""

    def __init__(self, interactive: bool, ask: Callable[[str], str] = input, out: TextIO | None = None):
        self.interactive, self.ask_fn = interactive, ask
        self.out = out if out is not None else sys.stdout

    def say(self, *lines: str) -> None:
        for line in lines:
            print(line, file=self.out)
        self.out.flush()

    def wait(self) -> bool:
        """False when the person wants to stop."""
        if not self.interactive:
            return True
        try:
            answer = self.ask_fn("[Enter] next, a = all the rest, q = quit: ").strip().lower()
        except EOFError:  # the end of the input: stop (Ctrl-C is the command's, 130)
            self.say("")
            return False
        except KeyboardInterrupt:
            self.say("")  # off the prompt's line
            raise
        if answer in ("q", "quit", "exit"):
            return False
        if answer in ("a", "all"):
            self.interactive = False
        return True
