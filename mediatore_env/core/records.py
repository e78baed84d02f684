"""Game records: one format for every game of the family (the one ``replay`` of a record of
any game is the registry's, :func:`mediatore_env.registry.replay`, which finds its game).

A record is the JSON document people share: what the game was, its packs and every move with
the seat that made it, and the result. Every engine writes it (``game.record(**meta)``) and
rebuilds it (``type(game).replay(record)``); every record opens with the same header, which
names the game by its name in the registry (:mod:`mediatore_env.registry`)::

    {"format": "mediatore-env-record", "game": "tressette3", "version": 2,
     "rules": {...}, "dealer": 0, ...the game's own body..., "meta": {...}}

The body after the header is each game's own (:mod:`mediatore_env.mediatore.records`,
:mod:`mediatore_env.club.records`, ``TressetteGame.record``), and ``"meta"`` (who played, the
seed, a tournament's deal number) is never read by a replay. The registry's ``replay`` reads
the header and hands the record to the engine of its game; every engine rebuilds a
game the same way, through the game interface alone (:func:`rebuild`: a pack dealt whenever the
game waits for one, each move checked), for its ``replay`` and its ``from_json``::

    >>> import mediatore_env
    >>> from mediatore_env.registry import replay
    >>> game = mediatore_env.make("tressette2")
    >>> game.deal(list(range(40))); game.apply(game.legal_moves()[0])
    >>> record = game.record(seed=7)
    >>> record["format"], record["game"], record["version"]
    ('mediatore-env-record', 'tressette2', 2)
    >>> replay(record) == game
    True

Version 1 records, written before the common header, named each game by a format of its own
(the registry's ``record_format``: ``"mediatore-record"``, ``"tressette-record"``,
``"club-mediatore-record"``) with the same body; they still replay, bit-exactly.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Callable, Collection, Iterable, Mapping, Sequence, TypeVar

from .game import CHANCE, Game

__all__ = ["FORMAT", "VERSION", "header", "check_header", "body", "rebuild", "check_result",
           "save_record", "load_record"]

G = TypeVar("G", bound=Game)

FORMAT = "mediatore-env-record"
#: 2: the common header; 1: each game's own format name, the same body.
VERSION = 2
LEGACY_VERSION = 1
HEADER = ("format", "game", "version")


def header(game: str) -> dict:
    """The head of a record of game ``game`` (its registry name)."""
    return {"format": FORMAT, "game": game, "version": VERSION}


def check_header(record, title: str, games: Collection[str], legacy: str | None = None
                 ) -> str | None:
    """Check that ``record`` is a record of one of ``games`` (a ``title`` game, by its header)
    or a version 1 record of format ``legacy`` (a game that had records before the common
    header); return its game's name (None for version 1).
    Raises ``ValueError`` saying what the header is and what it should be."""
    if not isinstance(record, dict):
        raise ValueError(f"not a {title} record: a JSON object is expected, not "
                         f"{type(record).__name__}")
    if not isinstance(record.get("meta", {}), (dict, type(None))):
        raise ValueError(f"bad {title} record: its meta must be a JSON object (who played, "
                         f"the program), not {type(record['meta']).__name__}")
    form, version = record.get("format"), record.get("version")
    if form == FORMAT:
        if version != VERSION:
            raise ValueError(f"unsupported record version {version!r}; this library reads "
                             f"{VERSION} (and {LEGACY_VERSION} of the older formats)")
        if record.get("game") not in games:
            raise ValueError(f"not a {title} record: game is {record.get('game')!r}, expected "
                             + " or ".join(map(repr, games)))
        return record["game"]
    if legacy is not None and form == legacy:
        if version != LEGACY_VERSION:
            raise ValueError(f"unsupported record version {version!r} of format {legacy!r}; "
                             f"this library reads {LEGACY_VERSION}")
        return None
    older = f" (or {legacy!r} of version {LEGACY_VERSION})" if legacy else ""
    raise ValueError(f"not a {title} record: format is {form!r}, expected {FORMAT!r}{older}")


def body(record: dict) -> dict:
    """The record without its header: what the game wrote, the same in every version."""
    return {k: v for k, v in record.items() if k not in HEADER}


def recorded_moves(entries: Iterable[Mapping]) -> list[tuple[int, str]]:
    """A record's moves (``[{"seat": 2, "move": "play D3"}, ...]``) as the ``(seat, text)``
    pairs :func:`rebuild` checks. ``ValueError`` where one names no seat's number: a record
    names the seat of every move, and ``true`` or ``1.0`` is no seat 1 (though ``== 1``)."""
    moves = []
    for count, entry in enumerate(entries):
        seat, text = entry["seat"], entry["move"]
        if type(seat) is not int:
            raise ValueError(f"move {count} ({text!r}) is recorded for seat {seat!r}, not a "
                             "seat's number")
        moves.append((seat, text))
    return moves


def rebuild(game: G, packs: Sequence, moves: Iterable[tuple[int | None, str]],
            parse: Callable[[str], int], hand: str = "hand") -> G:
    """Play a game on from where it stands, as it was played: deal it the next of ``packs``
    (in order) whenever it waits for one (``to_move`` is ``CHANCE``), and make ``moves``, each
    ``(seat, text)`` read by ``parse``, checked to be by ``seat`` (None: not checked) and legal.
    Every engine's ``from_json`` and ``replay`` rebuild their game so. Returns ``game``.

    Raises ``ValueError`` naming the first thing that does not fit: a move by another seat
    than the one to move, an illegal move, a pack too few or too many (``hand`` is what a pack
    deals: ``"hand 2 needs a pack"``)."""
    packs = list(packs)
    dealt, count = 0, 0

    def deal_next(move: int) -> None:
        nonlocal dealt
        if dealt == len(packs):
            raise ValueError(f"move {move}: {hand} {dealt + 1} needs a pack, but only "
                             f"{len(packs)} are given")
        game.deal(packs[dealt])
        dealt += 1

    for count, (seat, text) in enumerate(moves, 1):
        while game.to_move == CHANCE:
            deal_next(count - 1)
        if seat is not None and seat != game.to_move:
            raise ValueError(f"move {count - 1} ({text!r}) is recorded for seat {seat!r}, but "
                             f"seat {game.to_move} is to move")
        try:
            game.apply(parse(text))
        except ValueError as e:
            raise ValueError(f"move {count - 1}: {e}") from None
    while game.to_move == CHANCE and dealt < len(packs):
        deal_next(count)
    if dealt < len(packs):
        raise ValueError(f"{len(packs)} packs given, but the moves use {dealt}")
    return game


def check_result(replayed: Mapping, recorded: Mapping | None, where: str = "") -> None:
    """Check a record's result (None: the record has none) against the ``replayed`` game's;
    ``ValueError`` naming the first key where they differ, after ``where`` (``"deal 2: "``)."""
    if recorded is None:
        return
    for key in sorted(set(replayed) | set(recorded)):
        if replayed.get(key) != recorded.get(key):
            raise ValueError(f"{where}result differs at {key!r}: record says "
                             f"{recorded.get(key)!r}, replay gives {replayed.get(key)!r}")


def save_record(record, path) -> None:
    """Write a record (or a list of them) as a JSON file."""
    Path(path).write_text(json.dumps(record, indent=1) + "\n")


def load_record(path):
    """A record (or a list of them) from a JSON file, unchecked: :func:`replay` checks it."""
    return json.loads(Path(path).read_text())
