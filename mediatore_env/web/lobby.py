"""The server's tables and records, and who may reach them: no web here, so every rule of
access is a plain method the tests call directly.

- A table is named by an unguessable id and answers only to its seats' tokens
  (``Authorization: Bearer <token>``, one a person's seat): without one 401, with another
  table's 403, an unknown id 404.
- A table nobody has asked about for ``idle`` seconds is let go; at most ``max_tables`` live
  at once, and a new one past that is refused with 429. One client's address holds at most
  ``per_client`` of them: its next lets its least recently used one go, so that one client
  cannot take every table, and a person who opens table after table is never refused.
- Records to watch have their own ids (``r1``, ``r2``...): those given on the command line
  stay, those uploaded are capped at ``max_uploads`` (``per_client`` from one address, as
  tables are) and let go when idle, as tables are.
  Episodes of the history to watch (``h12``) are let go when idle too, and past
  ``max_uploads`` of them the least recently asked about goes: the history has it again, so
  watching it never runs into a cap, nor into the uploads'.
"""

from __future__ import annotations

import itertools
import time
from typing import Callable

from .tables import BadRequest, Table, Watch

__all__ = ["Lobby"]

#: The defaults of ``mediatore-web``'s options.
MAX_TABLES, IDLE_SECONDS, MAX_UPLOADS, PER_CLIENT = 200, 2 * 3600.0, 200, 20


class Lobby:
    """The live tables by id and the records to watch, with their limits."""

    def __init__(self, max_tables: int = MAX_TABLES, idle: float = IDLE_SECONDS,
                 max_uploads: int = MAX_UPLOADS, clock: Callable[[], float] = time.monotonic,
                 per_client: int = PER_CLIENT):
        self.max_tables, self.idle, self.max_uploads, self.clock = max_tables, idle, max_uploads, clock
        self.per_client = per_client
        self.tables: dict[str, Table] = {}
        self.watches: dict[str, Watch] = {}
        self.uploads: set[str] = set()
        self.episodes: set[str] = set()  # the history's episodes to watch
        self.used: dict[str, float] = {}  # table, upload or episode id -> when last asked about
        self.client: dict[str, str] = {}  # table or upload id -> the address that opened it
        #: told the id of every table let go (the server ends what it keeps for it: a
        #: stand-in's timer, which would keep the table, its agents and all, for a day)
        self.on_let_go: Callable[[str], None] | None = None
        self._record_ids = itertools.count(1)

    # -- tables ------------------------------------------------------------------------------

    def sweep(self) -> None:
        """Let go of the tables, uploaded records and episodes idle for longer than ``idle``."""
        now = self.clock()
        for key in [k for k, t in self.used.items() if now - t > self.idle]:
            self._let_go(key)

    def _let_go(self, key: str) -> None:
        del self.used[key]
        self.client.pop(key, None)
        if self.tables.pop(key, None) is not None and self.on_let_go is not None:
            self.on_let_go(key)
        if key in self.uploads or key in self.episodes:
            self.uploads.discard(key)
            self.episodes.discard(key)
            self.watches.pop(key, None)

    def _crowded_out(self, client: str, ids, count: int) -> list[str]:
        """``client``'s least recently used of ``ids`` that must go for ``count`` more to fit
        in its ``per_client``."""
        held = sorted((k for k in ids if self.client.get(k) == client), key=self.used.__getitem__)
        return held[:max(0, len(held) + count - self.per_client)]

    def check_room(self, client: str = "") -> None:
        """``BadRequest`` 429 when no more table may be opened now from ``client`` (one at
        its ``per_client`` lets its own least recently used go, and so always has room)."""
        self.sweep()
        going = self._crowded_out(client, self.tables, 1)
        if len(self.tables) - len(going) >= self.max_tables:
            raise BadRequest(f"the server has its most tables open ({self.max_tables}); "
                             "try again when one is finished or idle", 429)

    def add(self, table: Table, client: str = "") -> Table:
        """Add ``table``, opened from address ``client`` (see the module docstring)."""
        self.check_room(client)
        for key in self._crowded_out(client, self.tables, 1):
            self._let_go(key)
        self.tables[table.id] = table
        self.used[table.id] = self.clock()
        self.client[table.id] = client
        return table

    def find(self, tid: str) -> Table:
        """Table ``tid``; 404 (``BadRequest``) if there is none."""
        self.sweep()
        table = self.tables.get(tid) if isinstance(tid, str) else None
        if table is None:
            raise BadRequest("no such table (it may have finished idle and been let go); "
                             "start one with POST /api/games", 404)
        return table

    def table(self, tid: str, authorization: str | None) -> tuple[Table, int]:
        """Table ``tid`` and the seat whose token this ``Authorization`` header carries; 404,
        401 or 403 (``BadRequest``) otherwise."""
        table = self.find(tid)
        scheme, _, token = (authorization or "").partition(" ")
        return table, self.seat(table, token if scheme.lower() == "bearer" else "")

    def seat(self, table: Table, token) -> int:
        """The seat of ``table`` whose token ``token`` is; 401 or 403 otherwise."""
        if not isinstance(token, str) or not token.strip():
            raise BadRequest("this table answers to its seat's token: send Authorization: "
                             "Bearer <token> (POST /api/games or its join answered it)", 401)
        seat = table.seat_of(token.strip())
        if seat is None:
            raise BadRequest("this token is not this table's", 403)
        self.used[table.id] = self.clock()
        table.saw(seat)
        return seat

    # -- records to watch ----------------------------------------------------------------------

    def check_upload(self, count: int) -> None:
        """``BadRequest`` 413 for an upload of more records than one address may hold."""
        if count > self.per_client:
            raise BadRequest(f"at most {self.per_client} records at once (what one address "
                             "may hold)", 413)

    def add_watches(self, watches: list[Watch], uploaded: bool, client: str = "") -> list[str]:
        """Add records to watch (checked already); their new ids. Uploads past
        ``max_uploads`` are refused with 429, none of them added, and an upload of more than
        ``per_client`` with 413; past ``per_client`` from ``client``, its least recently
        watched ones go."""
        if uploaded:
            self.check_upload(len(watches))
            self.sweep()
            going = self._crowded_out(client, self.uploads, len(watches))
            if len(self.uploads) - len(going) + len(watches) > self.max_uploads:
                raise BadRequest(f"the server holds its most uploaded records "
                                 f"({self.max_uploads}); try again later", 429)
            for key in going:
                self._let_go(key)
        ids = []
        for watch in watches:
            wid = f"r{next(self._record_ids)}"
            self.watches[wid] = watch
            if uploaded:
                self.uploads.add(wid)
                self.used[wid] = self.clock()
                self.client[wid] = client
            ids.append(wid)
        return ids

    def add_episode(self, wid: str, watch: Watch) -> None:
        """Episode ``wid`` of the history (``h12``) to watch; past ``max_uploads`` of them,
        the least recently asked about goes."""
        self.sweep()
        if wid not in self.episodes and len(self.episodes) >= max(self.max_uploads, 1):
            self._let_go(min(self.episodes, key=self.used.__getitem__))
        self.watches[wid] = watch
        self.episodes.add(wid)
        self.used[wid] = self.clock()

    def watch(self, wid: str) -> Watch:
        self.sweep()
        watch = self.watches.get(wid)
        if watch is None:
            raise BadRequest(f"no record {wid[:24]!r}", 404)
        if wid in self.used:  # uploaded, or of the history: kept while asked about
            self.used[wid] = self.clock()
        return watch

    def fingerprint(self) -> dict:
        """Every table's :meth:`~Table.fingerprint` and the records' ids: what a refused
        request must leave as it was."""
        return {"tables": {tid: t.fingerprint() for tid, t in self.tables.items()},
                "watches": sorted(self.watches)}
