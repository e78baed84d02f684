"""``mediatore-web``: a table in the browser for every game of the registry.

    mediatore-web                          # http://127.0.0.1:8765/ (printed), play and watch
    mediatore-web --port 0                 # any free port
    mediatore-web --records recs/          # also offer a tournament's --save-records to watch

One page (``static/index.html``, ``table.js``, ``table.css``: plain files, no build step) over
a small JSON API on Starlette (the logic is :mod:`.tables`):

=================================  ==========================================================
``GET  /api/games``                the games, their rules switches and agents
``POST /api/games``                a new table: ``{game, seat, agents, rules, seed, packs}``
``GET  /api/games/{id}?since=N``   the person's table and the events from number N on
``POST /api/games/{id}/move``      ``{move, version}``: the person's move; the agents answer
``POST /api/games/{id}/next``      ``{version}``: the next deal, game or session
``GET  /api/records``              the records given on the command line or sent
``POST /api/records``              a record, or a list of them, as JSON: to watch
``GET  /api/records/{id}?step=K&seat=S``   the table after K steps, from seat S or open
=================================  ==========================================================

Errors are ``{"error": "one line"}`` with status 400 (bad request), 404 (no such table) or
409 (a stale move, not your turn), and change nothing.
"""

from __future__ import annotations

import itertools
import json
import socket
import sys
from pathlib import Path

from ..tools.checks import ArgumentParser
from ..tools.replay import BadRecord, load_records
from .tables import BadRequest, Table, Watch, games_json

STATIC = Path(__file__).with_name("static")


def create_app(records: list[tuple[str, dict]] = ()):
    """The ASGI application; ``records`` ``(label, record)`` are offered to watch."""
    from starlette.applications import Starlette
    from starlette.responses import FileResponse, JSONResponse
    from starlette.routing import Mount, Route
    from starlette.staticfiles import StaticFiles

    tables: dict[str, Table] = {}
    watches: dict[str, Watch] = {}
    ids = itertools.count(1)

    def error(message: str, status: int = 400) -> JSONResponse:
        return JSONResponse({"error": message}, status_code=status)

    def api(handler):
        """A route whose BadRequest becomes its one-line JSON error."""
        async def route(request):
            try:
                return JSONResponse(await handler(request))
            except BadRequest as e:
                return error(str(e), e.status)
        return route

    async def body(request) -> dict:
        try:
            data = json.loads(await request.body())
        except (json.JSONDecodeError, UnicodeDecodeError) as e:
            raise BadRequest(f"malformed JSON: {e}") from None
        if not isinstance(data, (dict, list)):
            raise BadRequest("a JSON object is expected")
        return data

    def table_of(request) -> Table:
        table = tables.get(request.path_params["id"])
        if table is None:
            raise BadRequest(f"no table {request.path_params['id']!r}; start one with "
                             "POST /api/games", 404)
        return table

    def fields(data, allowed: set[str]) -> dict:
        if not isinstance(data, dict):
            raise BadRequest("a JSON object is expected")
        unknown = sorted(set(data) - allowed)
        if unknown:
            raise BadRequest(f"unknown field {unknown[0]!r}; valid: {', '.join(sorted(allowed))}")
        return data

    def int_param(request, name: str, default):
        value = request.query_params.get(name)
        if value is None or value == "":
            return default
        try:
            return int(value)
        except ValueError:
            raise BadRequest(f"bad {name} {value!r}: an integer is expected") from None

    async def list_games(request):
        return {"games": games_json()}

    async def new_table(request):
        data = fields(await body(request), {"game", "seat", "agents", "rules", "seed", "packs"})
        if "game" not in data:
            raise BadRequest("game is missing; valid: " + ", ".join(g["name"] for g in games_json()))
        try:
            table = Table(**data)
        except ValueError as e:  # an unknown game: the registry's message
            raise BadRequest(str(e)) from None
        table.id = str(next(ids))
        tables[table.id] = table
        return table.state()

    async def get_table(request):
        return table_of(request).state(int_param(request, "since", 0))

    async def move(request):
        table = table_of(request)
        data = fields(await body(request), {"move", "version", "since"})
        if "move" not in data or "version" not in data:
            raise BadRequest("move and version are expected: {\"move\": id, \"version\": n}")
        table.move(data["move"], data["version"])
        return table.state(data.get("since", 0))

    async def next_episode(request):
        table = table_of(request)
        data = fields(await body(request), {"version", "since"})
        table.next_episode(data.get("version"))
        return table.state(data.get("since", 0))

    def add_records(found: list[tuple[str, dict]]) -> list[dict]:
        added = []
        for label, record in found:
            wid = str(next(ids))
            watches[wid] = Watch(record, label)
            added.append(watch_json(wid))
        return added

    def watch_json(wid: str) -> dict:
        w = watches[wid]
        return {"id": wid, "label": w.label, "game": w.entry.name, "title": w.entry.title,
                "players": w.final.players, "steps": len(w.steps)}

    async def list_records(request):
        return {"records": [watch_json(w) for w in watches]}

    async def post_records(request):
        data = await body(request)
        records = data if isinstance(data, list) else [data]
        if not records:
            raise BadRequest("an empty list: no record in it")
        found = [(f"upload #{i + 1}" if len(records) > 1 else "upload", r)
                 for i, r in enumerate(records)]
        for label, record in found:  # check them all before adding any
            Watch(record, label)
        return {"records": add_records(found)}

    async def get_record(request):
        w = watches.get(request.path_params["id"])
        if w is None:
            raise BadRequest(f"no record {request.path_params['id']!r}", 404)
        seat = request.query_params.get("seat", "open")
        return w.at(int_param(request, "step", 0),
                    None if seat == "open" else int_param(request, "seat", 0))

    async def index(request):
        return FileResponse(STATIC / "index.html")

    add_records(list(records))
    return Starlette(routes=[
        Route("/", index),
        Route("/api/games", api(list_games), methods=["GET"]),
        Route("/api/games", api(new_table), methods=["POST"]),
        Route("/api/games/{id}", api(get_table)),
        Route("/api/games/{id}/move", api(move), methods=["POST"]),
        Route("/api/games/{id}/next", api(next_episode), methods=["POST"]),
        Route("/api/records", api(list_records), methods=["GET"]),
        Route("/api/records", api(post_records), methods=["POST"]),
        Route("/api/records/{id}", api(get_record)),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ])


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as s:
        s.bind((host, 0))
        return s.getsockname()[1]


def build_parser() -> ArgumentParser:
    p = ArgumentParser(prog="mediatore-web",
                       description="A table in the browser: play any game of the family against "
                                   "the agents, and watch recorded games.")
    p.add_argument("--port", type=int, default=8765,
                   help="the port on 127.0.0.1 (0: any free port; default 8765)")
    p.add_argument("--records", nargs="*", default=[], metavar="RECORD",
                   help="record files or folders (a tournament's --save-records) to watch")
    return p


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    if not 0 <= args.port < 65536:
        print(f"mediatore-web: error: --port {args.port}: valid ports are 0-65535",
              file=sys.stderr)
        return 2
    try:
        records = [(f"{path}" + (f" #{i + 1}" if len(recs) > 1 else ""), r)
                   for path in args.records for recs in [load_records(path)]
                   for i, r in enumerate(recs)]
    except BadRecord as e:
        print(f"mediatore-web: error: {e}", file=sys.stderr)
        return 2
    try:
        import uvicorn
        app = create_app(records)
    except ImportError as e:
        print(f"mediatore-web: error: {e.name} is not installed: pip install "
              "'mediatore-env[web]'", file=sys.stderr)
        return 2
    port = args.port or free_port()
    print(f"mediatore-web: the table is at http://127.0.0.1:{port}/  (Ctrl-C stops it)",
          flush=True)
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning")
    return 0


if __name__ == "__main__":
    sys.exit(main())
