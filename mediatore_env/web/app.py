"""``mediatore-web``: a table in the browser for every game of the registry, for people and
agents together, with a history of what was played.

    mediatore-web                          # http://127.0.0.1:8765/ (printed), play and watch
    mediatore-web --port 0                 # any free port
    mediatore-web --records recs/          # also offer a tournament's --save-records to watch
    mediatore-web --agent mediatore:mine=mypkg.bots:MyAgent   # offer your own agent too
    mediatore-web --export games.jsonl     # write the history's records, and stop

One page (``static/index.html``, ``table.js``, ``table.css``: plain files, no build step) over
a small JSON API on Starlette (the tables themselves are :mod:`.tables`, who may reach them
:mod:`.lobby`, the history :mod:`.history`):

=======================================  ===================================================
``GET  /api/games``                      the games, their typed rules switches and agents
``POST /api/games``                      a new table: ``{game, seat, agents, rules, seed,
                                         packs, name, stand_in, cards}`` (``agents``: null
                                         at each person's seat); answers the table, the
                                         creator's ``token`` and a ``join`` code per free
                                         seat
``POST /api/games/{id}/join``            ``{seat, code, name}``: a free seat's token (a code
                                         works once)
``GET  /api/games/{id}?since=N``         the seat's table and the events from number N on
                                         (``&wait=S``: wait up to S seconds for news)
``WS   /api/games/{id}/socket``          the same, pushed at every change (the token in the
                                         first message: ``{"token", "since"}``)
``POST /api/games/{id}/move``            ``{move, version, since}``: the seat's move
``POST /api/games/{id}/next``            ``{version, since}``: the next deal, game or session
``GET  /api/records``                    the records given on the command line or sent
``POST /api/records``                    a record, or a list of them, as JSON: to watch
``GET  /api/records/{id}?step=K&seat=S`` the table after K steps, from seat S or open
``GET  /api/history?game=&name=``        the finished episodes, newest first
``GET  /api/history/{hid}``              one of them: its record and the names at the table
``POST /api/history/{hid}/watch``        one of them among the records to watch
``GET  /api/results?game=&name=``        each name's mean result with its 95% interval
=======================================  ===================================================

Every request about a table carries ``Authorization: Bearer <token>`` (its seat's). Errors are
``{"error": "one line"}``, and change nothing: 400 (a bad request), 401 (no token), 403 (another
table's token, another site's page, not JSON, a wrong join code), 404 (no such table), 409 (a
stale move, not your turn, a seat taken), 413 (a body too large), 429 (too many tables).
docs/web.md's "Security" says what the server protects and what it does not.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import json
import os
import socket
import sys
from concurrent.futures import Executor, ThreadPoolExecutor
from pathlib import Path
from urllib.parse import urlsplit

import numpy as np

from ..core.agent import check_seats
from ..core.text import counted, shown
from ..runinfo import command, process_executor
from ..tools.checks import ArgumentParser
from ..tools.replay import BadRecord, load_records, record_files
from ..registry import GAMES
from .history import History, HistoryError, default_path, export
from .lobby import IDLE_SECONDS, MAX_TABLES, PER_CLIENT, Lobby
from .tables import (MAX_NAME, MAX_WATCH_STEPS, BadRequest, Table, Watch, games_json, one_line,
                     table_request, think)

STATIC = Path(__file__).with_name("static")

#: The largest body of a request, and of a records upload, in bytes; the most records one
#: upload may hold (a tenth of the uploads the server keeps: one request cannot fill them).
MAX_BODY, MAX_RECORDS_BODY, MAX_RECORDS_AT_ONCE = 64 * 1024, 2 * 1024 * 1024, 20
#: The deepest a body (or a socket's message) may nest its lists and objects: a record nests
#: five deep; an upload is pickled to go to the agents' processes, and pickle fails at a few
#: hundred (JSON's own parser takes about a thousand).
MAX_DEPTH = 32
#: The largest history id asked about (SQLite's integers are 64-bit)
MAX_ID = 2 ** 63 - 1
#: The longest a ``GET /api/games/{id}?wait=S`` waits for news, in seconds.
MAX_WAIT = 30.0
#: How long a socket may take to send its first message (its token), in seconds; the most
#: pages open at once on one seat; the largest message a socket may send (uvicorn's limit).
FIRST_MESSAGE_SECONDS, MAX_SOCKETS, MAX_SOCKET_MESSAGE = 10.0, 8, 16 * 1024
#: The most sockets open at once that have not sent their first message yet (each for at most
#: FIRST_MESSAGE_SECONDS): past it a socket is refused before it opens (4429), and the page
#: asks by long polls meanwhile.
MAX_OPENING = 64
#: The names under which a server bound to the loopback answers (the Host header): a page of
#: another site whose name was made to point at 127.0.0.1 is not served.
LOOPBACK = ("127.0.0.1", "localhost", "::1")
#: What every HTTP answer tells the browser. The page is its own three files and talks only to
#: this server (``'self'`` covers its socket too), so nothing else may load or run in it, even
#: if a name or a record's text ever slipped past the page's escaping; no other site may frame
#: it (a framed table could be clicked through unseen); no content type is guessed; no address
#: goes out as a Referer; and no API answer (a seat's token among them) is kept in a cache.
SECURITY_HEADERS = (
    ("content-security-policy", "default-src 'none'; script-src 'self'; style-src 'self'; "
     "img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; "
     "frame-ancestors 'none'"),
    ("x-content-type-options", "nosniff"),
    ("x-frame-options", "DENY"),  # frame-ancestors for the browsers before it
    ("referrer-policy", "no-referrer"),
)
API_HEADERS = (("cache-control", "no-store"),)


def client_of(request) -> str:
    """The address a request comes from, what the per-client caps count by (behind a reverse
    proxy on this machine, uvicorn takes it from the proxy's ``X-Forwarded-For``)."""
    return request.client.host if request.client else ""


def _host_of(netloc: str) -> str:
    """``'example.org:8765'`` -> ``'example.org'``; ``'[::1]:80'`` -> ``'::1'``."""
    return (urlsplit("//" + netloc).hostname or "").lower()


def create_app(records: list[tuple[str, dict]] = (), *, agents=None, lobby: Lobby | None = None,
               executor: Executor | None = None, allowed_hosts=LOOPBACK,
               history: History | None = None):
    """The ASGI application. ``records`` ``(label, record)`` are offered to watch; ``agents``
    ``{game: {name: factory}}`` are offered beside each game's registry (the operator's
    ``--agent``); ``lobby`` holds the tables and their limits; the agents think in
    ``executor`` (default :func:`agents_pool`); ``allowed_hosts``: the names the server
    answers under (None: any); ``history``: where finished episodes are saved (None: nowhere,
    and the History is empty)."""
    from starlette.applications import Starlette
    from starlette.exceptions import HTTPException
    from starlette.middleware import Middleware
    from starlette.responses import FileResponse, JSONResponse
    from starlette.routing import Mount, Route, WebSocketRoute
    from starlette.staticfiles import StaticFiles
    from starlette.websockets import WebSocketDisconnect

    class JSONAnswer(JSONResponse):
        def render(self, content) -> bytes:
            return dumps(content).encode()

    lobby = Lobby() if lobby is None else lobby
    own_executor = executor is None
    executor = executor or agents_pool()
    # the history's writes, one at a time, off the event loop (each ends with an fsync)
    writer = ThreadPoolExecutor(1, thread_name_prefix="history")
    running: set[asyncio.Task] = set()  # the agents' turns in play, kept from the collector
    timers: dict[str, asyncio.Task] = {}  # per table: the wait before a stand-in moves
    changes: dict[str, asyncio.Event] = {}  # per table: set at its next change
    ticks: dict[str, int] = {}  # per table: how many changes so far (no wake-up is lost)
    opening: set = set()  # the sockets that have not sent their first message yet
    catalogue = games_json(agents)

    def error(message: str, status: int = 400) -> JSONAnswer:
        return JSONAnswer({"error": message}, status_code=status)

    def check_origin(headers) -> None:
        origin = headers.get("origin")
        if origin is not None and (urlsplit(origin).netloc.lower()
                                   != headers.get("host", "").lower()):
            raise BadRequest(f"requests from another site's page ({shown(origin)}) are refused",
                             403)

    def guard(request) -> None:
        """The checks every request passes before it is read (past :class:`Front`'s Host):
        for a POST (every request that changes anything, and the invitation, which sends a
        seat's code), a JSON body (so a browser asks before sending it from another site) and
        no other site's Origin."""
        if request.method != "POST":
            return
        kind = request.headers.get("content-type", "").partition(";")[0].strip().lower()
        if kind != "application/json":
            raise BadRequest("a POST must be sent as Content-Type: application/json", 403)
        check_origin(request.headers)

    def api(handler):
        """A route: its guard, then the handler; a BadRequest becomes its one-line JSON error."""
        async def route(request):
            try:
                guard(request)
                return JSONAnswer(await handler(request))
            except BadRequest as e:
                return error(str(e), e.status)
        return route

    async def raw_body(request, limit: int) -> bytes:
        """The request's body, read no further than ``limit`` bytes (413 beyond)."""
        declared = request.headers.get("content-length", "")
        if declared.isdecimal() and int(declared) > limit:  # not '²': a digit int() refuses
            raise BadRequest(f"the body is over {limit} bytes", 413)
        raw = bytearray()
        async for chunk in request.stream():
            raw += chunk
            if len(raw) > limit:
                raise BadRequest(f"the body is over {limit} bytes", 413)
        return bytes(raw)

    async def body(request, limit: int = MAX_BODY):
        """The request's JSON (:func:`parse_json`), read no further than ``limit`` bytes."""
        return parse_json(await raw_body(request, limit))

    def fields(data, allowed: set[str]) -> dict:
        if not isinstance(data, dict):
            raise BadRequest("a JSON object is expected")
        unknown = sorted(set(data) - allowed)
        if unknown:
            raise BadRequest(f"unknown field {shown(unknown[0])}; valid: "
                             + ", ".join(sorted(allowed)))
        return data

    def number_param(request, name: str, default, kind=int):
        value = request.query_params.get(name)
        if value is None or value == "":
            return default
        try:
            return kind(value) if len(value) <= 20 else kind("x")
        except ValueError:
            raise BadRequest(f"bad {name} {shown(value)}: {kind.__name__} expected") from None

    def text_param(request, name: str, limit: int = 40) -> str | None:
        value = request.query_params.get(name) or None
        if value is not None and len(value) > limit:
            raise BadRequest(f"bad {name}: at most {limit} characters")
        return value

    def table_of(request) -> tuple[Table, int]:
        return lobby.table(request.path_params["id"], request.headers.get("authorization"))

    def check_pages(table: Table, seat: int) -> None:
        """Room for one more page waiting on ``seat`` (a socket or a long poll): each holds
        the server's memory until the table changes."""
        if table.present[seat] >= MAX_SOCKETS:
            raise BadRequest(f"at most {MAX_SOCKETS} pages may be open on one seat", 429)

    # -- what happens at a table reaches its pages ---------------------------------------------

    def changed(table: Table, kind: str = "") -> None:
        """Wake whoever waits on ``table`` (its sockets, its long polls); save an episode that
        has just ended."""
        ticks[table.id] = ticks.get(table.id, 0) + 1
        event = changes.pop(table.id, None)
        if event is not None:
            event.set()
        if kind == "end" and history is not None and table.broken is None and table.game.is_over:
            try:
                names, persons = table.seated()
                future = writer.submit(history.save, table.record(), names, persons,
                                       list(table.game.outcome), table.definition.unit)
            except Exception as e:  # a game whose record fails: the table plays on
                return unsaved(e)
            # not cancelled at shutdown: the writer finishes every save it was given
            future.add_done_callback(lambda f: f.exception() and unsaved(f.exception()))

    def unsaved(e: BaseException) -> None:  # a full disk, a read-only file: say so
        print(f"mediatore-web: error: the history could not save an episode: "
              f"{type(e).__name__}: {one_line(e)}", file=sys.stderr)

    async def news_of(table: Table, tick: int, timeout: float) -> None:
        """Return once ``table`` has changed since its change number ``tick`` (at once if it
        has already), or after ``timeout`` seconds."""
        if ticks.get(table.id, 0) != tick:
            return
        event = changes.setdefault(table.id, asyncio.Event())
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(event.wait(), timeout)

    # -- the agents' turns, and the stand-ins' ------------------------------------------------

    def play_agents(table: Table) -> None:
        """Let the agents of ``table`` move, in the worker, until a person is to move or the
        episode is over; the server answers meanwhile (``thinking`` says they are). A person
        to move who has a stand-in gets a timer: when they have been away long enough, the
        stand-in moves for them."""
        if table.thinking or lobby.tables.get(table.id) is not table:
            return
        turn = table.agent_turn()  # the packs are dealt here, at once
        if turn is None:
            wait_for_stand_in(table)
            return
        table.thinking = True
        task = asyncio.get_running_loop().create_task(agents_turns(table, turn))
        running.add(task)
        task.add_done_callback(running.discard)

    def wait_for_stand_in(table: Table) -> None:
        old = timers.pop(table.id, None)
        if old is not None:
            old.cancel()
        game = table.game
        if (table.after is None or table.broken or game.is_over
                or lobby.tables.get(table.id) is not table):  # let go: no timer keeps it
            return
        at = table.away_at(game.to_move)
        if at is None:
            return

        async def wait():
            await asyncio.sleep(max(0.0, at - lobby.clock()) + 0.01)
            timers.pop(table.id, None)
            play_agents(table)
        timers[table.id] = asyncio.get_running_loop().create_task(wait())

    async def agents_turns(table: Table, turn) -> None:
        loop = asyncio.get_running_loop()
        try:
            while turn is not None:
                seat, agent, game, observe = turn
                try:
                    move, agent = await loop.run_in_executor(executor, think, agent, game,
                                                             seat, observe)
                except Exception as e:  # an agent's bug stops its table, not the server
                    table.fail(f"the agent at seat {seat} failed: {type(e).__name__}: "
                               f"{one_line(e)}")
                    return
                if lobby.tables.get(table.id) is not table:
                    return  # let go while the agent thought
                table.agent_moved(seat, move, agent)
                turn = table.agent_turn()
        finally:
            table.thinking = False
            changed(table)
        wait_for_stand_in(table)

    def let_go(tid: str) -> None:
        """Table ``tid`` has been let go: its stand-in's timer ends (it held the table, and
        its agents, until it rang), and whoever waits on it is woken, to hear it is gone."""
        timer = timers.pop(tid, None)
        if timer is not None:
            timer.cancel()
        ticks.pop(tid, None)
        event = changes.pop(tid, None)
        if event is not None:
            event.set()

    lobby.on_let_go = let_go

    def new_table_made(table: Table, client: str) -> Table:
        table.on_event = changed
        lobby.add(table, client)
        for gone in [tid for tid in ticks if tid not in lobby.tables]:  # let go since
            del ticks[gone]
        play_agents(table)
        return table

    # -- the routes ----------------------------------------------------------------------------

    async def list_games(request):
        return {"games": catalogue}

    async def new_table(request):
        data = await body(request)
        if not isinstance(data, dict):
            raise BadRequest("a JSON object is expected")
        client = client_of(request)
        lobby.check_room(client)  # before the agents are made: the cap costs nothing to check
        table = new_table_made(Table(**table_request(data, agents), clock=lobby.clock), client)
        return {**table.state(), "token": table.token}

    async def join(request):
        table = lobby.find(request.path_params["id"])
        data = fields(await body(request), {"seat", "code", "name"})
        seat, name = table.check_join(data.get("seat"), data.get("code"), data.get("name"))
        token = table.join(seat, name)
        lobby.used[table.id] = lobby.clock()
        play_agents(table)  # the seat's stand-in timer, if any, starts again
        return {**table.state(seat), "token": token}

    async def invitation(request):
        """What a seat's link invites to, for its code's holder (the code is in the body, not
        the address, so it lands in no log); changes nothing."""
        table = lobby.find(request.path_params["id"])
        data = fields(await body(request), {"seat", "code"})
        return table.invitation(table.check_code(data.get("seat"), data.get("code")))

    def others_may_act(table: Table, seat: int) -> bool:
        """Whether anything may happen at ``table`` that ``seat`` does not do itself: the
        agents think, another seat is to move, or another person may start the next episode."""
        if table.broken:
            return False
        if table.thinking:
            return True
        if table.game.is_over:
            return len(table.persons) > 1
        return table.game.to_move != seat

    async def get_table(request):
        table, seat = table_of(request)
        since = table.check_since(number_param(request, "since", 0))
        wait = number_param(request, "wait", 0.0, float)
        if not 0 <= wait <= MAX_WAIT:
            raise BadRequest(f"bad wait {shown(wait)}; valid: 0-{MAX_WAIT:g} seconds")
        if wait and table.next <= since and others_may_act(table, seat):
            check_pages(table, seat)  # only a poll that will wait holds a page open
        loop = asyncio.get_running_loop()
        deadline = loop.time() + wait
        table.present[seat] += 1  # a page waiting here is a page open on the seat
        try:
            while (table.next <= since and others_may_act(table, seat)
                   and loop.time() < deadline and lobby.tables.get(table.id) is table):
                await news_of(table, ticks.get(table.id, 0), deadline - loop.time())
        finally:
            table.present[seat] -= 1
            table.saw(seat)
        return table.state(seat, since)

    async def move(request):
        table, seat = table_of(request)
        data = fields(await body(request), {"move", "version", "since"})
        if "move" not in data or "version" not in data:
            raise BadRequest("move and version are expected: {\"move\": id, \"version\": n}")
        since = table.check_since(data.get("since", 0))
        table.move(table.check_move(data["move"], data["version"], seat), seat)
        play_agents(table)
        return table.state(seat, since)

    async def next_episode(request):
        table, seat = table_of(request)
        data = fields(await body(request), {"version", "since"})
        since = table.check_since(data.get("since", 0))
        table.check_next(data.get("version"))
        table.next_episode()
        play_agents(table)
        return table.state(seat, min(since, table.next))

    async def socket(websocket):
        """The push channel: the page sends ``{"token", "since"}`` first, then is sent its
        seat's table (as ``GET /api/games/{id}?since=``) at once and after every change. An
        error is sent as ``{"error", "status"}`` and the socket closed with 4000 + status."""
        try:
            check_origin(websocket.headers)  # a browser always sends its page's Origin here
            if len(opening) >= MAX_OPENING:  # before a token: anyone's, so bounded
                raise BadRequest("too many sockets are opening", 429)
        except BadRequest as e:
            await websocket.close(code=4000 + e.status)
            return
        await websocket.accept()
        opening.add(websocket)
        try:
            try:
                raw = await asyncio.wait_for(websocket.receive_text(), FIRST_MESSAGE_SECONDS)
            except asyncio.TimeoutError:
                raise BadRequest("send {\"token\": ..., \"since\": n} first", 408) from None
            except (KeyError, RuntimeError):  # a binary message
                raise BadRequest("a JSON text message is expected") from None
            if len(raw) > 4096:
                raise BadRequest("the first message is over 4096 characters", 413)
            hello = fields(parse_json(raw), {"token", "since"})
            table = lobby.find(websocket.path_params["id"])
            seat = lobby.seat(table, hello.get("token"))
            since = table.check_since(hello.get("since", 0))
            check_pages(table, seat)
        except BadRequest as e:
            with contextlib.suppress(Exception):
                await websocket.send_text(dumps({"error": str(e), "status": e.status}))
                await websocket.close(code=4000 + e.status)
            return
        except WebSocketDisconnect:
            return
        finally:
            opening.discard(websocket)
        table.present[seat] += 1
        changed(table)  # the other pages see this seat come back
        play_agents(table)  # a stand-in waiting to move for this seat waits no more

        async def hear():
            """Until the page closes: it has nothing more to say (moves are POSTed)."""
            with contextlib.suppress(WebSocketDisconnect, RuntimeError):
                while True:
                    await websocket.receive()
        listener = asyncio.get_running_loop().create_task(hear())
        try:
            while lobby.tables.get(table.id) is table:
                tick = ticks.get(table.id, 0)
                state = table.state(seat, min(since, table.next))
                await websocket.send_text(dumps(state))
                since = state["next"]
                lobby.used[table.id] = lobby.clock()
                waiter = asyncio.get_running_loop().create_task(news_of(table, tick, MAX_WAIT))
                await asyncio.wait({listener, waiter}, return_when=asyncio.FIRST_COMPLETED)
                waiter.cancel()
                if listener.done():
                    return
            with contextlib.suppress(Exception):
                await websocket.send_text(dumps({"error": "the table was let go",
                                                 "status": 404}))
                await websocket.close(code=4404)
        except (WebSocketDisconnect, RuntimeError, OSError):
            return
        finally:
            listener.cancel()
            table.present[seat] -= 1
            table.saw(seat)
            changed(table)
            play_agents(table)  # away from now on: the stand-in's timer starts

    # -- records to watch -------------------------------------------------------------------

    def watch_json(wid: str) -> dict:
        w = lobby.watches[wid]
        return {"id": wid, "label": w.label, "game": w.definition.name, "title": w.definition.title,
                "players": w.final.players, "steps": len(w.steps), "names": w.names}

    async def list_records(request):
        lobby.sweep()
        return {"records": [watch_json(w) for w in lobby.watches]}

    async def post_records(request):
        raw = await raw_body(request, MAX_RECORDS_BODY)
        # parsed and every record checked (replayed) before any is added, in a worker: a
        # hostile body (2 MiB of small objects parse in about a second) or a long upload
        # does not hold up the other tables
        watches = await asyncio.get_running_loop().run_in_executor(
            executor, uploaded_watches, raw, min(MAX_RECORDS_AT_ONCE, lobby.per_client))
        return {"records": [watch_json(w) for w in lobby.add_watches(watches, uploaded=True,
                                                                     client=client_of(request))]}

    async def get_record(request):
        w = lobby.watch(request.path_params["id"])
        seat = request.query_params.get("seat", "open")
        return w.at(number_param(request, "step", 0),
                    None if seat == "open" else number_param(request, "seat", 0))

    # -- the history ---------------------------------------------------------------------------

    async def in_history(call, *args):
        if history is None:
            return None
        return await asyncio.get_running_loop().run_in_executor(writer, call, *args)

    async def list_history(request):
        game, name = text_param(request, "game"), text_param(request, "name", MAX_NAME)
        limit = number_param(request, "limit", 100)
        before = request.query_params.get("before") or None
        before = None if before is None else _episode_id(before, "before", 400)
        if not 1 <= limit <= 500:
            raise BadRequest(f"bad limit {limit}; valid: 1-500")
        episodes = await in_history(history.episodes if history else None, game, name, limit,
                                    before)
        for e in episodes or []:
            e["title"] = GAMES[e["game"]].title if e["game"] in GAMES else e["game"]
        return {"kept": history is not None, "episodes": episodes or []}

    async def get_history(request):
        hid = _episode_id(request.path_params["hid"], "history id", 404)
        episode = await in_history(history.episode if history else None, hid)
        if episode is None:
            raise BadRequest(f"no episode {hid} in the history", 404)
        meta = episode["record"].get("meta")
        if isinstance(meta, dict):  # older servers kept the seed, which dealt the next packs
            meta.pop("seed", None)
        return episode

    async def watch_history(request):
        """Episode ``hid`` of the history, to watch: the id of its record among the records."""
        hid = _episode_id(request.path_params["hid"], "history id", 404)
        wid = f"h{hid}"
        if wid not in lobby.watches:
            episode = await in_history(history.episode if history else None, hid)
            if episode is None:
                raise BadRequest(f"no episode {hid} in the history", 404)
            label = history_label(episode)
            (watch,) = await asyncio.get_running_loop().run_in_executor(
                executor, _watches, [episode["record"]], [label])
            lobby.add_episode(wid, watch)
        lobby.watch(wid)  # kept while asked about
        return watch_json(wid)

    async def results(request):
        game, name = text_param(request, "game"), text_param(request, "name", MAX_NAME)
        if history is None:
            return {"kept": False, "results": []}
        return {"kept": True, **await in_history(history.results, game, name)}

    async def index(request):
        return FileResponse(STATIC / "index.html")

    async def http_error(request, exc):
        return error(exc.detail if isinstance(exc.detail, str) else "error", exc.status_code)

    lobby.add_watches([Watch(record, label) for label, record in records], uploaded=False)

    @contextlib.asynccontextmanager
    async def lifespan(app):
        yield
        for task in [*running, *timers.values()]:
            if isinstance(task, asyncio.Task):
                task.cancel()
        writer.shutdown(wait=True)  # the saves under way are finished, not lost
        if own_executor:
            executor.shutdown(wait=False, cancel_futures=True)

    app = Starlette(routes=[
        Route("/", index),
        Route("/api/games", api(list_games), methods=["GET"]),
        Route("/api/games", api(new_table), methods=["POST"]),
        Route("/api/games/{id}", api(get_table), methods=["GET"]),
        Route("/api/games/{id}/move", api(move), methods=["POST"]),
        Route("/api/games/{id}/next", api(next_episode), methods=["POST"]),
        Route("/api/games/{id}/join", api(join), methods=["POST"]),
        Route("/api/games/{id}/invitation", api(invitation), methods=["POST"]),
        WebSocketRoute("/api/games/{id}/socket", socket),
        Route("/api/records", api(list_records), methods=["GET"]),
        Route("/api/records", api(post_records), methods=["POST"]),
        Route("/api/records/{id}", api(get_record), methods=["GET"]),
        Route("/api/history", api(list_history), methods=["GET"]),
        Route("/api/history/{hid}", api(get_history), methods=["GET"]),
        Route("/api/history/{hid}/watch", api(watch_history), methods=["POST"]),
        Route("/api/results", api(results), methods=["GET"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ], exception_handlers={HTTPException: http_error}, lifespan=lifespan,
        middleware=[Middleware(Front, allowed_hosts=allowed_hosts)])
    app.state.lobby = lobby
    app.state.history = history
    return app


class Front:
    """ASGI middleware, before any route (the files of ``/static/`` and the router's redirects
    included): a request under a Host the server does not answer under (``allowed_hosts``;
    None: any) is refused, 403 (a socket closed with 4403); every HTTP answer carries
    :data:`SECURITY_HEADERS` (a page, a file, an error), the API's :data:`API_HEADERS` too."""

    def __init__(self, app, allowed_hosts=LOOPBACK):
        self.app, self.allowed_hosts = app, allowed_hosts
        # encoded once, as ASGI sends them, not at every request
        self.page = [(k.encode(), v.encode()) for k, v in SECURITY_HEADERS]
        self.api = self.page + [(k.encode(), v.encode()) for k, v in API_HEADERS]

    async def __call__(self, scope, receive, send):
        if scope["type"] not in ("http", "websocket"):
            return await self.app(scope, receive, send)
        host = next((v for k, v in scope["headers"] if k == b"host"), b"")
        host = _host_of(host.decode("latin-1"))
        refused = self.allowed_hosts is not None and host not in self.allowed_hosts
        if scope["type"] == "websocket":
            if refused:
                return await send({"type": "websocket.close", "code": 4403})
            return await self.app(scope, receive, send)
        extra = self.api if scope["path"].startswith("/api/") else self.page

        async def send_with_headers(message):
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", ()), *extra]}
            await send(message)
        if not refused:
            return await self.app(scope, receive, send_with_headers)
        body = dumps({"error": f"this server does not answer under the name {shown(host)}"})
        await send_with_headers({"type": "http.response.start", "status": 403, "headers": [
            (b"content-type", b"application/json"), (b"content-length", b"%d" % len(body))]})
        await send({"type": "http.response.body", "body": body.encode()})


def dumps(data) -> str:
    """An answer's JSON, in ASCII: a text no request gave (a name in a record file) cannot
    make it fail, whatever it holds."""
    return json.dumps(data, ensure_ascii=True, allow_nan=False, separators=(",", ":"))


def _episode_id(text: str, what: str, status: int) -> int:
    """An episode id of the history from a request's ``text`` (SQLite's integers are 64-bit)."""
    if not (text.isascii() and text.isdigit() and len(text) <= 19 and int(text) <= MAX_ID):
        raise BadRequest(f"bad {what} {shown(text)}: an episode id 0-{MAX_ID} is expected",
                         status)
    return int(text)


#: Every byte but JSON's brackets, to leave out of a text (bytes.translate).
_NOT_BRACKETS = bytes(set(range(256)) - set(b"[]{}"))


def _deeper_than(raw: bytes, limit: int) -> bool:
    """Whether the JSON text ``raw`` nests its lists and objects more than ``limit`` deep (read
    from its brackets outside its strings, at the speed of bytes, before it is parsed: a
    text that is no JSON at all may be read wrong here, and its parser refuses it)."""
    # escaped backslashes first, then escaped quotes: every quote left opens or closes a text
    outside = b"".join(raw.replace(b"\\\\", b"").replace(b'\\"', b"").split(b'"')[::2])
    brackets = np.frombuffer(outside.translate(None, _NOT_BRACKETS), np.uint8)
    if len(brackets) <= limit:
        return False
    steps = ((brackets == ord("[")) | (brackets == ord("{"))).astype(np.int32) * 2 - 1
    return int(np.cumsum(steps).max()) > limit


def _one_of_each(pairs: list[tuple[str, object]]) -> dict:
    """A JSON object whose keys are all different (``{"move": 1, "move": 2}`` means nothing
    that a request should be taken for: ``json`` alone keeps the last)."""
    data = {}
    for key, value in pairs:
        if key in data:
            raise ValueError(f"the key {shown(key)} is given twice")  # parse_json's 400
        data[key] = value
    return data


def _no_constant(name: str):
    """``NaN``, ``Infinity``: no number of JSON's, though Python's ``json`` reads them."""
    raise ValueError(f"{name} is not JSON: a number is finite")  # parse_json's 400


def history_label(episode: dict) -> str:
    """How a saved episode is named to watch: its game, the names at the table, when."""
    title = GAMES[episode["game"]].title if episode["game"] in GAMES else episode["game"]
    return f"{title} · {', '.join(episode['names'])} · {episode['finished'][:16].replace('T', ' ')}"


def agents_pool() -> Executor:
    """Where the agents think: a process per core. Not threads: a search agent holds
    Python's lock nearly all the time it thinks, and the server would answer in tenths of a
    second; in its own process it holds up nothing. Each move sends the agent and a copy of
    the game there and brings the agent back with its move (a few kilobytes; the shipped
    self-play network's weights, 5 MB, the most), so the workers keep nothing between moves.
    Spawned, not forked: the server runs threads, and a fork copies their locks."""
    import multiprocessing
    # Ctrl-C is the server's to answer: the workers neither see it nor print its traceback
    return process_executor(os.cpu_count() or 1, multiprocessing.get_context("spawn"))


def parse_json(raw):
    """A body's (or a socket message's) strict JSON: UTF-8 with no byte-order mark, no
    key twice, no NaN or Infinity, no lone surrogate, nested at most MAX_DEPTH deep."""
    encoded = (bytes(raw) if isinstance(raw, (bytes, bytearray))
               else raw.encode("utf-8", "surrogatepass"))
    if _deeper_than(encoded, MAX_DEPTH):
        raise BadRequest(f"malformed JSON: nested more than {MAX_DEPTH} deep")
    try:
        text = raw.decode() if isinstance(raw, (bytes, bytearray)) else raw
        data = json.loads(text, object_pairs_hook=_one_of_each, parse_constant=_no_constant)
        json.dumps(data, ensure_ascii=False).encode()  # every text is Unicode's
    except RecursionError:
        raise BadRequest("malformed JSON: nested too deeply") from None
    except UnicodeEncodeError:  # "\ud800": half a character, that no answer could send
        raise BadRequest("malformed JSON: a lone surrogate (\\ud800-\\udfff) is no "
                         "character") from None
    except (ValueError, UnicodeDecodeError) as e:  # JSONDecodeError is a ValueError
        raise BadRequest(f"malformed JSON: {one_line(e, 100)}") from None
    return data


def uploaded_watches(raw: bytes, most: int = MAX_RECORDS_AT_ONCE) -> list[Watch]:
    """The records of an upload's body (one, or a list of at most ``most``), each checked to
    watch. ``most`` is counted before any record is replayed: one request does not fill the
    uploads' cap, nor replay records that one address could not hold."""
    data = parse_json(raw)
    records = data if isinstance(data, list) else [data]
    if not records:
        raise BadRequest("an empty list: no record in it")
    if len(records) > most:
        raise BadRequest(f"at most {most} records at once", 413)
    labels = [f"upload #{i + 1}" if len(records) > 1 else "upload" for i in range(len(records))]
    return _watches(records, labels)


def _watches(records: list, labels: list[str]) -> list[Watch]:
    """The records sent (uploads, the history's episodes) to watch, each bounded in steps."""
    return [Watch(record, label, max_steps=MAX_WATCH_STEPS)
            for record, label in zip(records, labels)]


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as s:
        s.bind((host, 0))
        return s.getsockname()[1]


def parse_agent_option(text: str) -> tuple[str, str, object]:
    """``--agent GAME:NAME=SPEC`` -> ``(game, name, factory)``: the operator's own agent,
    offered at the game's tables under ``name``. ``SPEC`` is what ``mediatore-bench`` takes
    (a registered name with options, or ``module:Class[:options]``), imported here, once,
    by the person who starts the server: a request can only name it, with no options."""
    from agents import agent_factory, agents_of, make_agent
    from ..registry import get
    head, eq, spec = text.partition("=")
    game, colon, name = head.partition(":")
    if not eq or not colon or not spec.strip():
        raise ValueError(f"--agent {text!r}: GAME:NAME=SPEC is expected, e.g. "
                         "mediatore:mine=mypkg.bots:MyAgent")
    if not name or not name.replace("-", "").replace("_", "").isalnum():
        raise ValueError(f"--agent {text!r}: a NAME of letters, digits, - and _ is expected")
    definition = get(game)
    registry = agents_of(definition)
    if name in registry:  # a page's 'greedy' would seat it, and the history mix the two
        raise ValueError(f"--agent {text!r}: {name!r} is already an agent of {definition.name}; "
                         f"give yours another NAME (its agents: {', '.join(registry)})")
    agent = make_agent(spec, registry)  # fails now, at the start, if it makes no agent
    try:  # nor one written for another game's views, which would break its first table
        check_seats([agent], definition.new_game())
    except ValueError as e:
        raise ValueError(f"--agent {text!r}: {e}") from None
    factory, options = agent_factory(spec, registry)
    return definition.name, name, lambda: factory(**options)


def build_parser() -> ArgumentParser:
    p = ArgumentParser(prog="mediatore-web",
                       description="A table in the browser: play any game of the family against "
                                   "the agents, and watch recorded games.")
    p.add_argument("--host", default="127.0.0.1",
                   help="the address to serve on (default 127.0.0.1, this machine only; "
                        "0.0.0.0: every address, with a warning: the table has no accounts)")
    p.add_argument("--port", type=int, default=8765,
                   help="the port (0: any free port; default 8765)")
    p.add_argument("--records", nargs="*", default=[], metavar="RECORD",
                   help="record files or folders (a tournament's --save-records) to watch")
    p.add_argument("--agent", action="append", default=[], metavar="GAME:NAME=SPEC",
                   help="offer your own agent at the game's tables, e.g. "
                        "mediatore:mine=mypkg.bots:MyAgent (repeatable)")
    p.add_argument("--max-tables", type=int, default=MAX_TABLES,
                   help=f"the most tables open at once (default {MAX_TABLES})")
    p.add_argument("--per-client", type=int, default=PER_CLIENT, metavar="N",
                   help=f"the most tables, and uploaded records, one address holds at once: "
                        f"its next lets its least recently used go (default {PER_CLIENT})")
    p.add_argument("--idle", type=float, default=IDLE_SECONDS / 60, metavar="MINUTES",
                   help=f"let go of a table nobody asked about for this long (default "
                        f"{IDLE_SECONDS / 60:g})")
    p.add_argument("--db", metavar="PATH", default=None,
                   help=f"the history, an SQLite file (default {default_path()})")
    p.add_argument("--no-history", action="store_true",
                   help="keep no history: finished episodes are not saved")
    p.add_argument("--export", metavar="PATH",
                   help="write the history's records to PATH and stop: a .jsonl file (one "
                        "record a line) or a folder (one JSON file a record)")
    p.add_argument("--game", help="with --export: only this game's records")
    p.add_argument("--name", help="with --export: only the records with this name at the table")
    return p


def labelled_records(paths) -> list[tuple[str, dict]]:
    """The records of ``--records`` (files or folders), each labelled by its file's name and,
    in a file of several, its number there."""
    out = []
    for path in paths:
        for file in record_files(path):
            recs = load_records(file)
            out += [(file.name + (f" #{i + 1}" if len(recs) > 1 else ""), r)
                    for i, r in enumerate(recs)]
    return out


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on ``host:port``; ``OSError`` as the system says."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(128)
    except OSError:
        sock.close()
        raise
    return sock


@command("mediatore-web")  # Ctrl-C: the server stops, then one line and status 130
def main(argv=None) -> int:
    args = build_parser().parse_args(argv)

    def fail(message: str, status: int = 2) -> int:
        print(f"mediatore-web: error: {message}", file=sys.stderr)
        return status

    if not 0 <= args.port < 65536:
        return fail(f"--port {args.port}: valid ports are 0-65535")
    if args.max_tables < 1 or args.per_client < 1 or not args.idle > 0:
        return fail("--max-tables, --per-client and --idle must be positive")
    for option, value in (("--db", args.db), ("--export", args.export)):
        if value == "":
            return fail(f"{option}: an empty path; give a file name")
    if not args.host.strip():  # the socket would take it for every address
        return fail(f"--host: an empty address; give {LOOPBACK[0]} (this machine), 0.0.0.0 "
                    "(every address) or a name of this machine")
    if (args.game or args.name) and not args.export:
        return fail("--game and --name choose what --export writes: give --export PATH")
    if args.export and args.no_history:
        return fail("--export writes the history: drop --no-history")
    if args.db is not None and args.no_history:
        return fail("--db names the history's file and --no-history keeps none: give one")
    history = None
    if not args.no_history:
        try:
            # export reads a history: it never makes one where there was none
            history = History(args.db or default_path(), create=not args.export)
        except (HistoryError, OSError) as e:
            return fail(f"cannot open the history: {one_line(e)}")
    if args.export:
        try:
            count = export(history, args.export, args.game, args.name)
        except OSError as e:
            return fail(f"cannot write {args.export}: {e.strerror or e}")
        print(f"mediatore-web: {counted(count, 'record')} written to {args.export}")
        return 0
    try:
        records = labelled_records(args.records)
    except BadRecord as e:
        return fail(f"--records: {e}")
    try:
        import uvicorn
        extra: dict = {}
        for text in args.agent:
            game, name, factory = parse_agent_option(text)
            if name in extra.get(game, {}):  # the last would silently win
                raise ValueError(f"--agent {text!r}: {game}:{name} is given twice; give each "
                                 "NAME once")
            extra.setdefault(game, {})[name] = factory
        loopback = args.host in LOOPBACK
        app = create_app(records, agents=extra, lobby=Lobby(args.max_tables, args.idle * 60,
                                                                   per_client=args.per_client),
                         allowed_hosts=LOOPBACK if loopback else
                         None if args.host in ("0.0.0.0", "::") else (args.host, *LOOPBACK),
                         history=history)
    except ImportError as e:
        return fail(f"{e.name} is not installed: pip install 'mediatore-env[web]'")
    except (ValueError, BadRequest) as e:
        return fail(str(e))
    try:
        sock = bind(args.host, args.port)
    except OSError as e:
        if e.errno == errno.EADDRINUSE:
            return fail(f"port {args.port} on {args.host} is taken (another mediatore-web?): "
                        "stop it, or give another port (--port 0: any free one)", 3)
        return fail(f"cannot serve on {args.host}:{args.port}: {e.strerror or e}", 3)
    port = sock.getsockname()[1]
    if not loopback:
        print(f"mediatore-web: warning: serving on {args.host}: anyone who can reach it can "
              "open tables; the table has no accounts and no TLS (see docs/web.md, Security)",
              file=sys.stderr)
    shown_host = f"[{args.host}]" if ":" in args.host else args.host
    print(f"mediatore-web: the table is at http://{shown_host}:{port}/  (Ctrl-C stops it)",
          flush=True)
    # log_config=None: uvicorn's own logging set-up (dictConfig) closes every handler the
    # process already had, which breaks a caller's logging when main() runs in-process (a
    # notebook, the tests: absl's handler, from OpenSpiel, closed the stream under it); its
    # warnings and errors still reach stderr through logging's last resort.
    config = uvicorn.Config(app, log_level="warning", log_config=None,
                            ws_max_size=MAX_SOCKET_MESSAGE)
    # uvicorn.Server, not uvicorn.run, which swallows the Ctrl-C it stopped on: the server
    # shuts down, then raises the signal again, for command() to answer.
    uvicorn.Server(config).run(sockets=[sock])
    return 0


if __name__ == "__main__":
    sys.exit(main())
