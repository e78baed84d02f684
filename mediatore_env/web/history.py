"""The history of ``mediatore-web``: every finished deal, game or session of its tables, kept
in SQLite (the standard library's :mod:`sqlite3`), with who sat where, the rules, the time and
the outcome, so that people see how they do against each agent and their games become
training data (:func:`export`).

    >>> history = History(":memory:")
    >>> history.version == len(MIGRATIONS)
    True

**Schema.** ``episodes`` (one row a finished episode: the game, its unit, when it finished,
the rules, the outcome and its record, the JSON of :mod:`mediatore_env.core.records`) and
``seats`` (one row a seat of an episode: its name, person or agent, and its result). The
schema's version is SQLite's ``PRAGMA user_version``; :data:`MIGRATIONS` ``[i]`` takes a
database from version ``i`` to ``i + 1``, each in one transaction with its version, so a
database is always at a version this list names. A database newer than this code is refused,
not changed.

**Saving.** :meth:`History.save` writes an episode and its seats in one transaction (``BEGIN
IMMEDIATE`` ... ``COMMIT``) on a database in write-ahead-log mode with full synchronisation:
a process killed in the middle of a save leaves the episodes saved before it and none of the
one being saved (``tests/test_web_history.py`` kills a writer with SIGKILL mid-save).
"""

from __future__ import annotations

import datetime as _dt
import json
import os
import sqlite3
import sys
import threading
from pathlib import Path
from typing import Iterator, Sequence

from agents.tournament import half_width

__all__ = ["History", "MIGRATIONS", "HistoryError", "default_path", "export"]

#: ``MIGRATIONS[i]``: the statements that take the schema from version ``i`` to ``i + 1``.
#: Append to it; never change a migration that has shipped.
MIGRATIONS: list[list[str]] = [
    [  # 0 -> 1: episodes and their seats
        """CREATE TABLE episodes (
               id INTEGER PRIMARY KEY,
               game TEXT NOT NULL,
               unit TEXT NOT NULL,
               finished TEXT NOT NULL,       -- ISO 8601, UTC
               rules TEXT NOT NULL,          -- JSON
               outcome TEXT NOT NULL,        -- JSON: each seat's result
               record TEXT NOT NULL)         -- JSON: the episode's record""",
        """CREATE TABLE seats (
               episode INTEGER NOT NULL REFERENCES episodes(id) ON DELETE CASCADE,
               seat INTEGER NOT NULL,
               name TEXT NOT NULL,           -- a person's name or an agent's
               person INTEGER NOT NULL,      -- 1: a person, 0: an agent
               result REAL NOT NULL,
               PRIMARY KEY (episode, seat))""",
        "CREATE INDEX seats_by_name ON seats(name)",
        "CREATE INDEX episodes_by_game ON episodes(game, id)",
    ],
]


class HistoryError(RuntimeError):
    """A database this code cannot use (newer than it, or not a history)."""


def default_path() -> Path:
    """Where the history is kept by default: the user's data folder
    (``$XDG_DATA_HOME`` or ``~/.local/share``; ``~/Library/Application Support`` on macOS;
    ``%APPDATA%`` on Windows), in ``mediatore-env/history.sqlite3``."""
    if sys.platform == "win32":
        base = Path(os.environ.get("APPDATA") or Path.home() / "AppData" / "Roaming")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "mediatore-env" / "history.sqlite3"


def now_text() -> str:
    return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")


class History:
    """The history database at ``path`` (``":memory:"`` for one that is not kept), created
    (unless ``create`` is false: then :class:`HistoryError` where there is none) or migrated
    to the newest schema when opened. Safe to share between threads (one lock)."""

    def __init__(self, path, migrations: Sequence[Sequence[str]] = MIGRATIONS,
                 create: bool = True):
        self.path = str(path)
        if self.path != ":memory:":
            if not create and not (Path(self.path).is_file() and Path(self.path).stat().st_size):
                raise HistoryError(f"{self.path}: no history there")
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        # autocommit mode: every transaction is spelt out (BEGIN IMMEDIATE ... COMMIT)
        try:
            self.db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False,
                                      timeout=30)
        except sqlite3.Error as e:  # a folder, a path where no file can be made
            raise HistoryError(f"{self.path}: cannot open a database there: {e}") from None
        self.lock = threading.Lock()
        #: :meth:`results` by its arguments, least recently asked first, with the newest
        #: episode id and the number of episodes they were summed at
        self._results: dict[tuple, tuple[tuple, dict]] = {}
        try:
            self.db.execute("PRAGMA foreign_keys = ON")
            if self.path != ":memory:":
                self.db.execute("PRAGMA journal_mode = WAL")
            self.db.execute("PRAGMA synchronous = FULL")
            self._migrate(migrations)
        except sqlite3.DatabaseError as e:
            self.db.close()
            raise HistoryError(f"{self.path}: not a history database this server can use: "
                               f"{e}") from None
        except HistoryError:
            self.db.close()
            raise

    @property
    def version(self) -> int:
        return self.db.execute("PRAGMA user_version").fetchone()[0]

    def _migrate(self, migrations) -> None:
        version = self.version
        if version > len(migrations):
            raise HistoryError(f"{self.path}: the history's schema is version {version}, newer "
                               f"than this server's ({len(migrations)}): upgrade mediatore-env")
        for target in range(version + 1, len(migrations) + 1):
            with self._transaction():
                for statement in migrations[target - 1]:
                    self.db.execute(statement)
                self.db.execute(f"PRAGMA user_version = {int(target)}")

    def _transaction(self):
        history = self

        class Transaction:
            def __enter__(self):
                history.db.execute("BEGIN IMMEDIATE")

            def __exit__(self, kind, value, tb):
                history.db.execute("COMMIT" if kind is None else "ROLLBACK")
        return Transaction()

    def close(self) -> None:
        with self.lock:
            self.db.close()

    # -- writing -----------------------------------------------------------------------------

    def save(self, record: dict, names: Sequence[str], persons: Sequence[int],
             outcome: Sequence[float], unit: str, finished: str | None = None) -> int:
        """Save a finished episode, its ``record`` and each seat's name (a person's or an
        agent's), whether a person sat there, and its result, in one transaction; its id."""
        with self.lock, self._transaction():
            cursor = self.db.execute(
                "INSERT INTO episodes (game, unit, finished, rules, outcome, record) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (record["game"], unit, finished or now_text(), json.dumps(record["rules"]),
                 json.dumps(list(outcome)), json.dumps(record)))
            hid = cursor.lastrowid
            self.db.executemany(
                "INSERT INTO seats (episode, seat, name, person, result) VALUES (?, ?, ?, ?, ?)",
                [(hid, s, name, int(s in persons), float(outcome[s]))
                 for s, name in enumerate(names)])
        return hid

    # -- reading -----------------------------------------------------------------------------

    def _where(self, game: str | None, name: str | None) -> tuple[str, list]:
        clauses, args = [], []
        if game:
            clauses.append("e.game = ?")
            args.append(game)
        if name:
            clauses.append("e.id IN (SELECT episode FROM seats WHERE name = ?)")
            args.append(name)
        return (" WHERE " + " AND ".join(clauses)) if clauses else "", args

    def episodes(self, game: str | None = None, name: str | None = None, limit: int = 100,
                 before: int | None = None) -> list[dict]:
        """The finished episodes, newest first, of ``game`` and with ``name`` at the table if
        given: ``{id, game, unit, finished, names, persons, outcome}``; at most ``limit``,
        those with an id below ``before`` (the next page)."""
        where, args = self._where(game, name)
        if before is not None:
            where += (" AND " if where else " WHERE ") + "e.id < ?"
            args.append(before)
        with self.lock:
            rows = self.db.execute(
                f"SELECT e.id, e.game, e.unit, e.finished, e.outcome FROM episodes e{where} "
                "ORDER BY e.id DESC LIMIT ?", (*args, limit)).fetchall()
            seats = self._seats([r[0] for r in rows])
        return [{"id": hid, "game": game_, "unit": unit, "finished": finished,
                 "names": [n for n, _ in seats[hid]],
                 "persons": [s for s, (_, p) in enumerate(seats[hid]) if p],
                 "outcome": json.loads(outcome)}
                for hid, game_, unit, finished, outcome in rows]

    def _seats(self, ids: list[int]) -> dict[int, list[tuple[str, bool]]]:
        out: dict[int, list[tuple[str, bool]]] = {hid: [] for hid in ids}
        if ids:
            marks = ",".join("?" * len(ids))
            for hid, name, person in self.db.execute(
                    f"SELECT episode, name, person FROM seats WHERE episode IN ({marks}) "
                    "ORDER BY episode, seat", ids):
                out[hid].append((name, bool(person)))
        return out

    def episode(self, hid: int) -> dict | None:
        """Episode ``hid``: its summary (as :meth:`episodes`) and its ``record``; None if no
        such episode."""
        with self.lock:
            row = self.db.execute("SELECT id, game, unit, finished, outcome, record "
                                  "FROM episodes WHERE id = ?", (hid,)).fetchone()
            if row is None:
                return None
            seats = self._seats([hid])[hid]
        return {"id": row[0], "game": row[1], "unit": row[2], "finished": row[3],
                "names": [n for n, _ in seats],
                "persons": [s for s, (_, p) in enumerate(seats) if p],
                "outcome": json.loads(row[4]), "record": json.loads(row[5])}

    def records(self, game: str | None = None, name: str | None = None
                ) -> Iterator[tuple[int, dict]]:
        """Every saved record with its id, oldest first (of ``game``, with ``name`` at the
        table)."""
        where, args = self._where(game, name)
        with self.lock:
            rows = self.db.execute(f"SELECT e.id, e.record FROM episodes e{where} ORDER BY e.id",
                                   args).fetchall()
        for hid, text in rows:
            yield hid, json.loads(text)

    def count(self) -> int:
        with self.lock:
            return self.db.execute("SELECT COUNT(*) FROM episodes").fetchone()[0]

    def results(self, game: str | None = None, name: str | None = None) -> dict[str, list]:
        """Each name's results (``results``: per name and game, the number of episodes and
        the mean result with its 95% interval); with a ``name``, also its results at the tables
        of each other name (``against``: the mean of ``name``'s results in the episodes that
        name sat in, partner or opponent). Summed by SQLite, not read row by row, and kept
        while the episodes stay as they were (the 64 answers last asked): a request holds the
        history's one thread for as short a time as may be."""
        where, args = self._where(game, name)
        with self.lock:
            # (newest id, count): an episode saved, or one deleted from outside the server
            state = self.db.execute("SELECT MAX(id), COUNT(*) FROM episodes").fetchone()
            kept = self._results.pop((game, name), None)
            if kept is None or kept[0] != state:
                rows = self.db.execute(
                    f"SELECT s.name, e.game, s.person, {_sums('s.result')} "
                    f"FROM seats s JOIN episodes e ON e.id = s.episode{where} "
                    "GROUP BY s.name, e.game, s.person ORDER BY s.name, e.game, s.person",
                    args).fetchall()
                out: dict[str, list] = {"results": [
                    _summary({"name": n, "game": g, "person": bool(p)}, *sums)
                    for n, g, p, *sums in rows]}
                if name:
                    # name's result (its first seat's, if it sat twice) once per other seat
                    rows = self.db.execute(
                        f"SELECT o.name, e.game, o.person, {_sums('m.result')} "
                        "FROM seats m JOIN episodes e ON e.id = m.episode "
                        "JOIN seats o ON o.episode = m.episode AND o.name != m.name "
                        "WHERE m.name = ? AND m.seat = (SELECT MIN(seat) FROM seats "
                        "WHERE episode = m.episode AND name = m.name)"
                        + (" AND e.game = ?" if game else "")
                        + " GROUP BY o.name, e.game, o.person ORDER BY o.name, e.game, o.person",
                        [name] + ([game] if game else [])).fetchall()
                    out["against"] = [
                        _summary({"name": name, "other": o, "game": g, "person": bool(p)}, *sums)
                        for o, g, p, *sums in rows]
                kept = state, out
            if len(self._results) >= 64:  # bounded, names come from requests: the least
                del self._results[next(iter(self._results))]  # recently asked goes
            self._results[game, name] = kept
        return kept[1]


def _sums(column: str) -> str:
    """What :func:`_summary` is computed from: the count, sum and sum of squares of ``column``
    (exact for the whole-number results every game has)."""
    return f"COUNT(*), SUM({column}), SUM({column} * {column})"


def _summary(head: dict, n: int, total: float, squares: float) -> dict:
    """``head`` with the number of results, their mean and its 95% interval (as
    :func:`agents.tournament.mean_ci`), from their count, sum and sum of squares."""
    mean = total / n
    if n < 2:  # one value: no interval
        return {**head, "games": n, "mean": mean, "low": None, "high": None}
    half = half_width(max(0.0, squares - total * mean) / (n - 1), n)
    return {**head, "games": n, "mean": mean, "low": mean - half, "high": mean + half}


def export(history: History, path, game: str | None = None, name: str | None = None) -> int:
    """Write the history's records to ``path``: a ``.jsonl`` file (one record a line), else a
    folder of JSON files, one a record, named by its id (``000001-mediatore.json``...), the form
    ``mediatore-replay``, ``mediatore-web --records`` and :func:`agents.demos.demos_of_records`
    read. Each file is written whole or not at all; the number of records written."""
    path = Path(path)
    count = 0
    if path.suffix == ".jsonl":
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp")
        with tmp.open("w") as f:
            for _, record in history.records(game, name):
                f.write(json.dumps(record) + "\n")
                count += 1
        tmp.replace(path)
        return count
    path.mkdir(parents=True, exist_ok=True)
    for hid, record in history.records(game, name):
        target = path / f"{hid:06d}-{record['game']}.json"
        tmp = target.with_name(target.name + ".tmp")
        tmp.write_text(json.dumps(record, indent=1) + "\n")
        tmp.replace(target)
        count += 1
    return count
