"""mediatore-web against a hostile client: no request makes the server import or run what it
names, only the page's own origin may act, a table answers to its seat's token alone, every
bad request is refused with a 4xx that changed nothing (a property-based test over every
route), bodies and tables are bounded, and agents think off the event loop."""

from __future__ import annotations

import json
import pickle
import random
import re
import socket
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

pytest.importorskip("starlette", reason="mediatore-web needs the web extra: pip install '.[web]'")
pytest.importorskip("httpx2", reason="Starlette's TestClient needs httpx2 (the web extra)")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402
from starlette.websockets import WebSocketDisconnect  # noqa: E402

from agents import make_agent  # noqa: E402
from mediatore_env.web.app import create_app, main, parse_agent_option  # noqa: E402
from mediatore_env.web.lobby import Lobby  # noqa: E402
from mediatore_env.web.tables import Watch  # noqa: E402
from test_web import Seat, new_table, played_record  # noqa: E402

URL = "http://127.0.0.1:8765"


@pytest.fixture
def client():
    with ThreadPoolExecutor(2) as pool, TestClient(create_app(executor=pool), base_url=URL) as c:
        yield c


def fingerprint(client):
    return client.app.state.lobby.fingerprint()


# -- agents by name only ------------------------------------------------------------------------

@pytest.mark.parametrize("spec", [
    "os:system:command=touch {marker}",                   # the request that once ran a shell
    "subprocess:getoutput:cmd=touch {marker}",
    "greedy:bidding=os:system",                           # an import path inside an option
    "pimc:bidding=subprocess:getoutput",
    "{module}:Anything",                                  # a module nobody has imported
    "greedy:bidding={module}:Anything",
])
def test_an_import_path_is_refused_and_nothing_is_imported(client, tmp_path, spec):
    marker = tmp_path / "marker"
    module = "xmlrpc.server"  # in the standard library, imported by nothing here
    assert module not in sys.modules
    spec = spec.format(marker=marker, module=module)
    before = fingerprint(client)
    response = client.post("/api/games", json={"game": "mediatore",
                                               "agents": [None, spec, "random", "random"]})
    assert response.status_code == 400, response.text
    assert "agent at seat 1" in response.json()["error"]
    assert not marker.exists() and module not in sys.modules
    assert fingerprint(client) == before


@pytest.mark.parametrize("spec, words", [
    ("pimc:worlds=100000", "bad value 100000 for option 'worlds'"),  # a day of thought
    ("pimc:worlds=-1", "bad value -1"),
    ("pimc:worlds=2.5", "bad value 2.5"),
    ("pimc:time_limit=nan", "bad value 'nan'"),
    ("pimc:time_limit=30", "bad value 30 for option 'time_limit'"),  # None by default: 2 s at most
    ("pimc:time_limit=True", "bad value True"),
    ("selfplay:path=/etc/passwd", "option 'path' cannot be set here"),  # a file of the server
    ("selfplay:game=../x", "option 'game' cannot be set here"),        # names a file too
    ("greedy:colour=1", "option 'colour' cannot be set here"),
    ("random:bid_rate=" + "9" * 200, "not an agent's name"),           # too long to read
    ("pimc:max_time=None", "bad value None for option 'max_time'"),     # a bound lifted by None
    # a parameter whose None default stands for an object (a policy) takes nothing from a
    # request: a number there would break the table at its first card
    ("greedy:play=1", "option 'play' cannot be set here; options: bidding"),
    ("pimc:exchange=1", "bad value 1 for option 'exchange' (default None): a text of at most"),
    ("pimc:calling=xyz", "calling must be 'search' or a policy object"),
    ("selfplay:params=x", "option 'params' cannot be set here"),       # a dict of weights
    # each number at its cap, and all together: ten times ten times the default's work
    ("pimc:worlds=240,pool=30", "options worlds, pool together ask 100 times the default's"),
    ("pimc:worlds=48,max_time=0.75,margin=6", "together ask 40 times"),
    ("generic-pimc:max_worlds=64,nodes=10000000", "together ask 20 times"),
    # None stands for the game's own threshold (at most 28 cards): 40 solves every card
    ("generic-pimc:solve_at=40",
     "bad value 40 for option 'solve_at' (default None): an integer from 0 to 28"),
])
def test_agent_options_are_data_within_bounds(client, spec, words):
    before = fingerprint(client)
    response = client.post("/api/games", json={"game": "mediatore",
                                               "agents": [None, spec, "random", "random"]})
    assert response.status_code == 400 and words in response.json()["error"], response.text
    assert fingerprint(client) == before


@pytest.mark.parametrize("game", ["tressette2", "tressette"])
def test_a_text_option_cannot_buy_a_hundred_times_the_defaults_effort(client, game):
    """The numbers are bounded, ten times the default's effort in all; a text is not a
    number, and ``pimc:rollout=selfplay`` plays its 3,200 rollout cards by the network, a
    forward pass each: 6 to 9 s of CPU a decision early in a Tressette hand against greedy
    rollouts' 0.05 s, a hundred times. A request leaves it at its default (an operator may
    offer it with --agent)."""
    before = fingerprint(client)
    players = 2 if game == "tressette2" else 4
    response = client.post("/api/games", json={
        "game": game, "agents": [None] + ["pimc:rollout=selfplay"] * (players - 1)})
    assert response.status_code == 400, response.text
    assert "option 'rollout' is its default's here" in response.json()["error"]
    assert fingerprint(client) == before
    assert new_table(client, game, agents="pimc:rollout=greedy").id  # the default, named


def test_an_option_takes_only_the_plain_kinds_its_annotation_names_at_the_top():
    # An operator's agent (--agent) may annotate a None default with a container or a
    # callable: an int inside it is no int the option takes.
    from mediatore_env.web.tables import check_agent_options

    # the annotations stay text (from __future__ import annotations): Callable is not imported
    def factory(table: list[int] | None = None, rate: float | None = None,
                score: Callable[[int], float] | None = None,  # noqa: F821
                depth: int | None = None):
        pass
    for option, value in (("table", 1), ("score", 2.0), ("score", "x"), ("depth", 1.5)):
        with pytest.raises(ValueError, match=f"option '{option}'"):
            check_agent_options(factory, {option: value})
    check_agent_options(factory, {"rate": 0.5, "depth": 3})


class Costly:
    """An agent whose making is counted (a self-play network's weights take a while to load)."""

    made: list = []

    def __init__(self):
        Costly.made.append(self)

    def reset(self, seed=None):
        pass

    def act(self, observation, view):
        return view.legal_moves()[0]


@pytest.mark.parametrize("fields, words", [
    ({"name": "You"}, "bad name 'You'"),
    ({"name": "\x07"}, "bad name"),
    ({"name": "costly(1)"}, "the name 'costly(1)' is taken"),
    ({"agents": [None, "costly", "costly", "nope"]}, "agent at seat 3: unknown agent 'nope'"),
    ({"agents": [None, "costly", "costly", "random:claim_rate=2000"]}, "bad value 2000"),
    ({"stand_in": {"agent": "nope", "after": 5}}, "agent at seat 0: unknown agent 'nope'"),
])
def test_a_request_is_checked_whole_before_any_agent_is_made(fields, words):
    """Agents are made on the server's loop, and some are costly: a bad name, a bad agent
    at the last seat, a bad stand-in is refused before the first is made."""
    with ThreadPoolExecutor(1) as pool, TestClient(create_app(
            agents={"tressette": {"costly": Costly}}, executor=pool), base_url=URL) as c:
        Costly.made.clear()  # the catalogue made one, once, to see that it can sit
        response = c.post("/api/games", json={"game": "tressette", "agents": [
            None, "costly", "costly", "costly"], "stand_in": {"agent": "costly", "after": 5},
            **fields})
        assert response.status_code in (400, 409), response.text
        assert words in response.json()["error"], response.text
        assert Costly.made == [] and not c.app.state.lobby.tables
        assert new_table(c, "tressette", agents="costly").id and len(Costly.made) == 3


def test_documented_options_are_taken(client):
    seat = new_table(client, "mediatore", agents="pimc:worlds=8,time_limit=None")
    agent = client.app.state.lobby.tables[seat.id].agents[1]
    assert agent.worlds == 8 and agent.time_limit is None
    seat = new_table(client, "mediatore", agents="pimc:time_limit=0.05")  # on the clock
    assert client.app.state.lobby.tables[seat.id].agents[1].time_limit == 0.05
    seat = new_table(client, "mediatore", agents="greedy:bidding=cautious")
    assert client.app.state.lobby.tables[seat.id].agents[2].name == "greedy:bidding=cautious"
    # ten times the default's work: in one number, or in several (2 x 5), or lowering some
    for game, spec in (("mediatore", "pimc:worlds=240"), ("mediatore", "pimc:worlds=48,pool=15"),
                       ("mediatore", "pimc:worlds=240,pool=1"),
                       ("tressette2", "pimc:solve_at=28,max_worlds=320")):
        assert new_table(client, game, agents=spec).id, spec


@pytest.mark.parametrize("rules, words", [
    ({"deals": 10 ** 30}, "deals 1000000000000000000000000000000 is more than a table here takes"),
    ({"deals": 101}, "valid: 1-100"),
    ({"ante": 101}, "ante 101 is more than"),
])
def test_a_session_is_bounded_so_stand_ins_cannot_play_it_for_ever(client, rules, words):
    before = fingerprint(client)
    response = client.post("/api/games", json={
        "game": "club", "rules": rules, "agents": [None, "random", "random", "random"],
        "stand_in": {"agent": "random", "after": 1}})
    assert response.status_code == 400 and words in response.json()["error"], response.text
    assert fingerprint(client) == before
    assert new_table(client, "club", rules={"deals": 100, "ante": 100}).id


def test_history_ids_and_bounds_out_of_range_are_4xx(client):
    for url in ("/api/history?before=99999999999999999999", "/api/history?before=-1",
                "/api/history?before=9223372036854775808"):
        response = client.get(url)
        assert response.status_code == 400 and "before" in response.json()["error"], url
    assert client.get("/api/history/\u00b2").status_code == 404  # a digit to isdigit, not to int
    for hid in ("9223372036854775807", "9223372036854775808", "9" * 30):  # SQLite's 64 bits
        assert client.get(f"/api/history/{hid}").status_code == 404, hid
    assert client.post("/api/history/\u00b2/watch", json={}).status_code == 404


def test_a_tables_record_does_not_carry_its_seed(client):
    # The seed deals every pack: a record anyone may read in the history must not give it away.
    seat = new_table(client, "mediatore", seed=8734512987)
    table = client.app.state.lobby.tables[seat.id]
    table.game = type("Game", (), {"record": staticmethod(lambda **meta: {"meta": meta}),
                                   "history": []})()
    meta = table.record()["meta"]  # what the table writes beside the moves
    assert "seed" not in meta and "8734512987" not in json.dumps(meta) and meta["names"]


def test_the_operator_registers_an_agent_before_the_server_starts():
    """--agent GAME:NAME=SPEC: the person who starts the server may name an import path;
    a request may then seat the agent by its name, and give it no options. An agent written
    for another game's views is refused at the start: it was taken, and broke the first table
    that seated it."""
    game, name, factory = parse_agent_option("tressette2:steady=greedy")
    assert (game, name) == ("tressette2", "steady")
    with ThreadPoolExecutor(1) as pool, TestClient(
            create_app(agents={game: {name: factory}}, executor=pool), base_url=URL) as c:
        (info,) = [g for g in c.get("/api/games").json()["games"] if g["name"] == game]
        assert "steady" in info["agents"]
        seat = new_table(c, "tressette2", agents="steady")
        assert type(c.app.state.lobby.tables[seat.id].agents[1]).__name__ == "TressetteGreedyAgent"
        response = c.post("/api/games", json={"game": game, "agents": [None, "steady:x=1"]})
        assert response.status_code == 400 and "cannot be set here" in response.json()["error"]
    for bad in ("mediatore:=greedy", "mediatore:x y=greedy", "chess:x=greedy",
                "mediatore:x=no.such.module:Bot"):
        with pytest.raises(ValueError):
            parse_agent_option(bad)
    with pytest.raises(ValueError, match="written for another game"):  # a Mediatore agent
        parse_agent_option("tressette2:x=agents.mediatore.greedy:GreedyAgent")
    # a name of the game's own agents: the page's 'greedy' would seat the operator's, and the
    # history count the two under one name
    with pytest.raises(ValueError, match="'greedy' is already an agent of mediatore; give "
                                         "yours another NAME"):
        parse_agent_option("mediatore:greedy=random")


def test_the_operator_names_each_agent_once(capsys, monkeypatch):
    """Two --agent options of one name: the second silently replaced the first."""
    import mediatore_env.web.app as app

    def no_serving(host, port):  # had the options been taken, the server would start here
        raise OSError("not served in this test")
    monkeypatch.setattr(app, "bind", no_serving)
    assert main(["--no-history", "--agent", "tressette2:mine=greedy",
                 "--agent", "tressette2:mine=random"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "tressette2:mine is given twice" in err, err
    assert main(["--no-history", "--agent", "mediatore:pimc=greedy"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "'pimc' is already an agent of mediatore" in err, err


def test_the_command_line_keeps_its_import_paths():
    """mediatore-bench and mediatore-play, run by a person on their own machine, still take
    ``module:Class`` (the refusal is the server's, not the agents')."""
    agent = make_agent("agents.mediatore.greedy:GreedyAgent")
    assert type(agent).__name__ == "GreedyAgent"
    with pytest.raises(ValueError, match="unknown agent"):
        make_agent("agents.mediatore.greedy:GreedyAgent", imports=False)


# -- only the page's own origin may act ------------------------------------------------------

def changing_requests(seat: Seat, free: Seat):
    """Every route that changes something, with a body it would accept (``free``: a table
    with a seat free)."""
    state = seat.state
    move = state["view"]["moves"][0]["move"]
    code = next(c for c in free.state["join"] if c)
    return [("/api/games", {"game": "mediatore"}),
            (f"/api/games/{seat.id}/move", {"move": move, "version": state["version"]}),
            (f"/api/games/{seat.id}/next", {"version": state["version"]}),
            (f"/api/games/{free.id}/join", {"seat": 2, "code": code, "name": "Eve"}),
            (f"/api/games/{free.id}/invitation", {"seat": 2, "code": code}),
            ("/api/history/1/watch", {}),
            ("/api/records", {"format": "x"})]


def test_another_sites_page_and_a_plain_text_body_are_refused(client):
    seat = new_table(client, "mediatore", seed=3)
    free = new_table(client, "mediatore", seed=None, agents=["random", None, "random"])
    before = fingerprint(client)
    for path, body in changing_requests(seat, free):
        for headers in ({"Content-Type": "text/plain"},
                        {"Content-Type": "application/x-www-form-urlencoded"},
                        {"Content-Type": "multipart/form-data; boundary=x"},
                        {"Content-Type": "application/json", "Origin": "http://evil.example"},
                        {"Content-Type": "application/json", "Origin": "http://127.0.0.1:9999"},
                        {"Content-Type": "application/json", "Origin": "null"}):
            response = client.post(path, content=json.dumps(body),
                                   headers={**seat.headers, **headers})
            assert response.status_code == 403, (path, headers, response.text)
            assert "error" in response.json()
            assert fingerprint(client) == before
    # the page's own origin is welcome
    response = seat.post("move", {"move": seat.state["view"]["moves"][0]["move"],
                                  "version": seat.state["version"]},
                         headers={**seat.headers, "Origin": URL})
    assert response.status_code == 200, response.text


def test_a_version_is_an_integer_and_a_key_comes_once(client):
    # true == 1 and 1.0 == 1 in Python: a move sent with either would pass for version 1, and
    # {"move": a, "move": b} would be taken for b alone. Both are refused, and so is a
    # request for the next deal that gives no version at all.
    seat = new_table(client, "tressette2", agents="random")
    first = seat.state["view"]["moves"][0]["move"]
    seat.move(first)
    state = seat.settle(seat.get().json())
    assert state["version"] == 1  # one move of a person's: the agents' do not count
    move = state["view"]["moves"][0]["move"]
    before = fingerprint(client)
    for version in (True, 1.0, "1", None):
        response = seat.post("move", {"move": move, "version": version})
        assert response.status_code == 400 and "bad version" in response.json()["error"], version
    raw = '{"move": %d, "version": 1, "move": %d}' % (move, move)
    response = client.post(f"/api/games/{seat.id}/move", content=raw,
                           headers={**seat.headers, "Content-Type": "application/json"})
    assert response.status_code == 400
    assert response.json()["error"] == "malformed JSON: the key 'move' is given twice"
    response = seat.post("next", {})
    assert response.status_code == 400 and "bad version None" in response.json()["error"]
    assert fingerprint(client) == before


@pytest.mark.parametrize("field, value", [
    ("rules", []), ("rules", 0), ("rules", False), ("rules", ""), ("rules", "standard"),
    ("packs", 0), ("packs", False), ("packs", {}), ("packs", ""),
])
def test_a_field_of_the_wrong_kind_is_not_taken_for_its_default(client, field, value):
    # `data.get("rules") or {}` took [], 0, false and "" for the defaults; null is the default
    before = fingerprint(client)
    response = client.post("/api/games", json={"game": "tressette2", field: value})
    assert response.status_code == 400, response.text
    assert response.json()["error"].startswith(f"bad {field} {value!r}: ")
    assert fingerprint(client) == before
    assert client.post("/api/games", json={"game": "tressette2", field: None}).status_code == 200


def test_an_agents_option_given_twice_is_refused(client):
    before = fingerprint(client)
    response = client.post("/api/games", json={"game": "mediatore", "agents": [
        None, "random:bid_rate=0.1, bid_rate=0.2", "random", "random"]})
    assert response.status_code == 400, response.text
    assert response.json()["error"] == ("agent at seat 1: option 'bid_rate' is given twice; "
                                        "give each option once")
    assert fingerprint(client) == before


@pytest.mark.parametrize("body", [
    '{"game": "tressette2", "seed": NaN}', '{"game": "tressette2", "seed": Infinity}',
    '{"game": "tressette2", "seed": -Infinity}',
    "\ufeff" + '{"game": "tressette2"}',                         # a byte-order mark
    '{"game": "tressette2"}'.encode("utf-16"),                      # UTF-16, with its mark
    '{"game": "tressette2"}'.encode("utf-16-le"),                   # and without
    '{"game": "tressette2"}'.encode("utf-32"),
])
def test_a_body_is_strict_json_in_utf8(client, body):
    # Python's json reads NaN, a byte-order mark and UTF-16 or 32: no JSON text has them
    before = fingerprint(client)
    response = client.post("/api/games", content=body if isinstance(body, bytes) else body.encode(),
                           headers={"Content-Type": "application/json"})
    assert response.status_code == 400, response.text
    assert response.json()["error"].startswith("malformed JSON: ")
    assert fingerprint(client) == before


def test_an_uploads_body_is_parsed_in_the_pool_not_on_the_event_loop():
    """Parsing 2 MiB of small JSON objects takes about a second: on the event loop it would
    stall every table. The body goes to the agents' pool as bytes, and its errors come back
    as the same 4xx."""
    handed = []

    class Watching(ThreadPoolExecutor):
        def submit(self, fn, *args, **kwargs):
            handed.append((fn.__name__, [type(a) for a in args]))
            return super().submit(fn, *args, **kwargs)

    with Watching(1) as pool, TestClient(create_app(executor=pool), base_url=URL) as c:
        before = fingerprint(c)
        response = post_raw(c, "/api/records", '{"format": NaN}')
        assert response.status_code == 400 and "NaN is not JSON" in response.json()["error"]
        assert fingerprint(c) == before
        assert c.post("/api/records", json=played_record("tressette2", 2)).status_code == 200
    assert handed == [("uploaded_watches", [bytes, int])] * 2  # the body, and how many it may hold


def test_an_upload_is_bounded_in_steps_and_the_operators_records_are_not(monkeypatch):
    """Each look at an uploaded record's step replays it to there, on the event loop: a record
    of thousands of deals (2 MiB holds a club session of a thousand) would stall every table at
    each look. An upload is refused past MAX_WATCH_STEPS, nothing kept; a record the operator
    gave on the command line is watched whole."""
    from mediatore_env.web import app as app_module
    record = played_record("tressette2", 2)
    monkeypatch.setattr(app_module, "MAX_WATCH_STEPS", 50)
    with ThreadPoolExecutor(1) as pool, TestClient(
            create_app([("operator's", record)], executor=pool), base_url=URL) as c:
        before = fingerprint(c)
        response = c.post("/api/records", json=record)
        assert response.status_code == 400, response.text
        assert re.search(r"upload: \d+ steps .*; at most 50 may be uploaded",
                         response.json()["error"])
        assert fingerprint(c) == before
        (mine,) = c.get("/api/records").json()["records"]  # the operator's, watched whole
        steps = c.get(f"/api/records/{mine['id']}?step=0").json()["steps"]
        assert steps > 50 and c.get(f"/api/records/{mine['id']}?step={steps}").status_code == 200


def test_an_uploads_unread_fields_are_strict_json_and_its_seats_numbers(client):
    record = played_record("tressette2", 2)
    record["meta"] = {"agents": ["random", "random"], "x": "PH"}
    before = fingerprint(client)
    response = post_raw(client, "/api/records", json.dumps(record).replace('"PH"', "NaN"))
    assert response.status_code == 400 and "NaN is not JSON" in response.json()["error"]
    # a record names the seat of every move, and true is no seat 1 (core.records.recorded_moves)
    first_by_one = next(i for i, m in enumerate(record["moves"]) if m["seat"] == 1)
    for index, seat in ((first_by_one, True), (0, None), (first_by_one, 1.0)):
        broken = json.loads(json.dumps(record))
        broken["moves"][index]["seat"] = seat
        response = client.post("/api/records", json=broken)
        assert response.status_code == 400, (seat, response.text)
        assert f"is recorded for seat {seat!r}, not a seat's number" in response.json()["error"]
    assert fingerprint(client) == before
    club = played_record("club", 2)
    club["deals"][-1]["moves"][-1]["seat"] = None
    response = client.post("/api/records", json=club)
    assert response.status_code == 400 and "seat's number" in response.json()["error"]
    assert fingerprint(client) == before
    assert client.post("/api/records", json=record).status_code == 200


def test_a_name_the_server_does_not_answer_under_is_refused(client):
    """A page of another site whose name was made to point at 127.0.0.1 (DNS rebinding)
    sends its own name as Host: the server answers to its loopback names only."""
    seat = new_table(client, "tressette2", agents="random")
    for path in ("/", "/api/games", "/static/table.js", "/static/nothing.js", "/static",
                 "/api/nothing"):
        response = client.get(path, headers={"Host": "evil.example:8765"}, follow_redirects=False)
        assert response.status_code == 403, path  # not the file, nor a redirect to evil.example
        assert "evil.example" not in response.headers.get("location", "")
        assert response.json()["error"] == ("this server does not answer under the name "
                                            "'evil.example'")
    with pytest.raises(WebSocketDisconnect) as closed:
        with client.websocket_connect(f"ws://evil.example/api/games/{seat.id}/socket") as ws:
            ws.receive_json()
    assert closed.value.code == 4403
    assert client.get("/api/games", headers={"Host": "localhost:8765"}).status_code == 200
    assert client.get("/static/table.js").status_code == 200
    response = client.get("/static", follow_redirects=False)
    assert response.headers["location"] == "http://127.0.0.1:8765/static/"


def test_every_answer_forbids_framing_foreign_code_and_caching_a_token(client):
    """The page, its files, the API and its errors all carry the security headers: only the
    server's own scripts, styles and sockets, no frame on another site (a framed table could be
    clicked through unseen), no guessed content type, no Referer; an API answer, which may hold
    a seat's token, is never cached. A socket is not an HTTP answer and opens as before."""
    seat = new_table(client, "tressette2", agents="random")
    answers = {"page": client.get("/"), "script": client.get("/static/table.js"),
               "file that is not there": client.get("/static/nothing.js"),
               "games": client.get("/api/games"), "table": seat.get(),
               "no table": client.get("/api/games/nothing", headers=seat.headers),
               "bad request": seat.post("move", {"move": "x", "version": 0}),
               "other site": client.get("/", headers={"Host": "evil.example"})}
    assert [a.status_code for a in answers.values()] == [200, 200, 404, 200, 200, 404, 400, 403]
    for what, answer in answers.items():
        policy = dict(part.strip().split(" ", 1)
                      for part in answer.headers["content-security-policy"].split(";"))
        assert policy["default-src"] == "'none'" and policy["frame-ancestors"] == "'none'", what
        assert policy["script-src"] == policy["connect-src"] == "'self'", what
        assert answer.headers["x-frame-options"] == "DENY", what
        assert answer.headers["x-content-type-options"] == "nosniff", what
        assert answer.headers["referrer-policy"] == "no-referrer", what
        api = what not in ("page", "script", "file that is not there", "other site")
        assert (answer.headers.get("cache-control") == "no-store") == api, what
    with client.websocket_connect(f"ws://127.0.0.1:8765/api/games/{seat.id}/socket",
                                  headers={"Origin": URL}) as ws:
        ws.send_json({"token": seat.token, "since": 0})
        assert ws.receive_json()["id"] == seat.id


def test_the_page_has_no_inline_script_or_style_for_the_policy_to_block():
    """The policy allows no inline code: the page's own HTML must need none."""
    from mediatore_env.web.app import STATIC
    html = (STATIC / "index.html").read_text()
    assert "<script>" not in html and "<style" not in html
    assert not re.search(r"\s(style|on[a-z]+)=", html)


# -- a table answers to its seat's token ----------------------------------------------------

def test_every_table_route_wants_the_seats_token(client):
    mine = new_table(client, "mediatore", seed=4)
    other = new_table(client, "mediatore", seed=5)
    assert len(mine.id) >= 16 and len(mine.token) >= 16 and mine.id != mine.token
    before = fingerprint(client)
    state = mine.state
    routes = [("GET", f"/api/games/{mine.id}", None),
              ("GET", f"/api/games/{mine.id}?since=0&wait=0", None),
              ("POST", f"/api/games/{mine.id}/move",
               {"move": state["view"]["moves"][0]["move"], "version": state["version"]}),
              ("POST", f"/api/games/{mine.id}/next", {"version": state["version"]})]
    for method, path, body in routes:
        for headers, status in (({}, 401), ({"Authorization": "Basic x"}, 401),
                                ({"Authorization": "Bearer "}, 401),
                                ({"Authorization": "Bearer nope"}, 403),
                                (other.headers, 403)):
            response = client.request(method, path, json=body, headers=headers)
            assert response.status_code == status, (method, path, headers)
            assert "\n" not in response.json()["error"]
            assert fingerprint(client) == before
    response = client.get("/api/games/" + "x" * 22, headers=mine.headers)
    assert response.status_code == 404


def post_raw(client, path: str, text: str, headers: dict | None = None):
    """POST ``text`` as it is (``json=`` would escape what the test means to send raw)."""
    return client.post(path, content=text.encode("utf-8", "surrogatepass"),
                       headers={"Content-Type": "application/json", **(headers or {})})


@pytest.mark.parametrize("where", ["meta.agents", "meta.names", "moves.seat", "a key"])
def test_a_lone_surrogate_in_an_upload_is_a_400_and_nothing_is_kept(client, where):
    # "\ud800" is valid JSON text but half a character: a record that kept it in its names
    # made every later GET /api/records a 500, for everyone, until it was let go.
    (kept,) = client.post("/api/records", json=played_record("tressette2", 1)).json()["records"]
    record = played_record("tressette2", 2)
    record["meta"] = {"agents": ["random", "random"], "names": ["Anna", "Bruno"]}
    if where == "a key":
        record["meta"]["PH"] = 1
    else:
        *path, last = {"meta.agents": ["meta", "agents", 1], "meta.names": ["meta", "names", 1],
                       "moves.seat": ["moves", 0, "seat"]}[where]
        inner = record
        for key in path:
            inner = inner[key]
        inner[last] = "PH"
    before = fingerprint(client)
    response = post_raw(client, "/api/records", json.dumps(record).replace('"PH"', '"\\ud800"'))
    assert response.status_code == 400 and "surrogate" in response.json()["error"], response.text
    assert fingerprint(client) == before
    listed = client.get("/api/records")
    assert listed.status_code == 200 and [r["id"] for r in listed.json()["records"]] == [kept["id"]]
    assert client.get(f"/api/records/{kept['id']}?step=3").status_code == 200


def test_a_lone_surrogate_is_refused_in_every_body_and_socket(client):
    seat = new_table(client, "tressette2", agents="random")
    before = fingerprint(client)
    for path, text in (("/api/games", '{"game": "tressette2", "name": "\\ud800"}'),
                       ("/api/games", '{"game": "tressette2", "cards": "\\udbff"}'),
                       (f"/api/games/{seat.id}/move", '{"move": "\\ud800", "version": 0}')):
        response = post_raw(client, path, text, seat.headers)
        assert response.status_code == 400, (path, text, response.text)
        assert fingerprint(client) == before
    with client.websocket_connect(f"ws://127.0.0.1:8765/api/games/{seat.id}/socket") as ws:
        ws.send_text('{"token": "\\ud800"}')
        answer = ws.receive_json()
    assert answer["status"] == 400 and "surrogate" in answer["error"]
    # a surrogate pair is one character, and welcome
    response = post_raw(client, "/api/games", '{"game": "tressette2", "name": "\\ud83d\\ude00"}')
    assert response.status_code == 200 and response.json()["seats"][0]["name"] == "\U0001f600"


@pytest.mark.parametrize("names", [["Anna", "a\nb"], ["Anna", "\u202e"], ["Anna", ""],
                                   ["Anna", "x" * 41], ["Anna", 7]])
def test_a_records_names_are_shown_only_if_a_person_could_have_them(client, names):
    """A record's names reach every page that watches it: control characters, a reversed
    text, an empty or overlong name are not shown; its agents' names, or its seats', are."""
    from mediatore_env.tools.replay import record_names
    record = played_record("tressette2", 2)
    record["meta"] = {"names": names, "agents": ["random", "\x1b[2J"]}
    (info,) = client.post("/api/records", json=record).json()["records"]
    assert info["names"] == ["random(0)", "seat 1"]
    record["meta"]["agents"] = ["random", "\ud800"]  # a record file of the server's own
    assert record_names(record, 2) == ["random(0)", "seat 1"]


def test_a_records_seat_is_named_in_its_error_as_a_repr():
    from mediatore_env.registry import replay
    record = played_record("tressette2", 2)
    for seat in ("\ud800", "1"):
        record["moves"][0]["seat"] = seat
        with pytest.raises(ValueError) as error:
            replay(record)
        assert f"recorded for seat {seat!r}" in str(error.value)
        assert str(error.value).isprintable()


def test_no_answer_fails_on_a_text_that_is_no_unicode(client):
    """A record given on the command line (no request's body: nothing refused it) with a
    lone surrogate wherever it may show: its answers are JSON in ASCII, not a 500."""
    record = played_record("tressette2", 2)
    client.app.state.lobby.add_watches([Watch(record, "a \ud800 file")], uploaded=False)
    listed = client.get("/api/records")
    assert listed.status_code == 200 and listed.content.isascii()
    assert listed.json()["records"][-1]["label"] == "a \ud800 file"


def test_tables_and_records_have_ids_of_their_own(client):
    seat = new_table(client, "tressette2")
    (record,) = client.post("/api/records", json=played_record("tressette2", 1)).json()["records"]
    assert record["id"] != seat.id
    assert client.get(f"/api/games/{record['id']}", headers=seat.headers).status_code == 404
    assert client.get(f"/api/records/{seat.id}").status_code == 404


# -- every bad request changes nothing: any body to any route ----------------------------------

TEXT = st.text(st.characters(exclude_categories=()), max_size=12)  # lone surrogates too
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXT, inner,
                                                                 max_size=4),
    max_leaves=12)
# the fields the routes read, given any JSON values, so the test reaches past the first check
FIELDS = st.fixed_dictionaries({}, optional={
    "game": st.sampled_from(["mediatore", "club", "tressette2", "chess"]) | JSON,
    "seat": st.integers(-2, 5) | JSON, "agents": st.lists(
        st.none() | st.sampled_from(["random", "greedy:x=1", "os:system", ""]) | JSON,
        max_size=5) | JSON,
    "rules": st.dictionaries(st.sampled_from(["deals", "ante", "low", "signals"]), JSON,
                             max_size=3) | JSON,
    "seed": st.integers(-5, 2 ** 65) | JSON, "packs": JSON,
    "move": st.integers(-5, 500) | JSON, "version": st.integers(-2, 3) | JSON,
    "since": st.integers(-3, 50) | JSON,
    "format": JSON, "moves": JSON, "dealer": JSON,
    "code": st.sampled_from(["", "x" * 16]) | JSON, "name": st.sampled_from(["Eve", "You"]) | JSON,
    "stand_in": st.fixed_dictionaries({"agent": st.sampled_from(["random", "os:system"]) | JSON,
                                       "after": st.floats(-1, 100) | JSON}) | JSON})
BODIES = (JSON.map(lambda v: json.dumps(v).encode()) | FIELDS.map(lambda v: json.dumps(v).encode())
          | st.binary(max_size=64))
QUERIES = st.dictionaries(st.sampled_from(["since", "wait", "step", "seat", "game", "name",
                                           "limit", "before"]),
                          st.text(max_size=6) | st.integers(-5, 99).map(str), max_size=3)


@pytest.fixture(scope="module")
def hostile():
    """One server with a table and a record, shared by the examples: what a 4xx must leave
    as it was."""
    from mediatore_env.registry import replay
    from mediatore_env.web.history import History
    from test_web import played_record
    history = History(":memory:")
    saved = played_record("tressette2", 4)
    history.save(saved, ["Anna", "greedy"], [0], list(replay(saved).outcome), "game")
    with ThreadPoolExecutor(2) as pool, TestClient(
            create_app(executor=pool, lobby=Lobby(max_tables=10_000, per_client=10_000),
                       history=history),
            base_url=URL) as c:
        seat = new_table(c, "mediatore", seed=7)
        # a table with a seat free, for the join route (the long polls ask the one above: a
        # free seat to move would hold them)
        free = new_table(c, "mediatore", seed=None, agents=["random", None, "random"])
        (record,) = c.post("/api/records", json=played_record("tressette2", 2)).json()["records"]
        yield c, seat, record["id"], free


def check_answer(client, response, before) -> None:
    assert response.status_code < 500, response.text
    assert response.headers["content-type"].startswith("application/json")
    if response.status_code >= 400:
        error = response.json()["error"]
        assert isinstance(error, str) and "\n" not in error
        assert fingerprint(client) == before
    for seat in client.app.state.lobby.tables.values():  # agents moved: let them finish
        while seat.thinking:
            time.sleep(0.01)


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(route=st.sampled_from(["/api/games", "/api/games/{id}/move", "/api/games/{id}/next",
                              "/api/games/{id}/join", "/api/games/{id}/invitation",
                              "/api/history/1/watch",
                              "/api/history/x/watch", "/api/records"]),
       body=BODIES, token=st.booleans())
def test_any_body_to_any_post_route_is_answered_in_json_without_a_5xx(hostile, route, body, token):
    client, seat, _, free = hostile
    before = fingerprint(client)
    headers = {"Content-Type": "application/json", **(seat.headers if token else {})}
    tid = free.id if route.endswith(("/join", "/invitation")) else seat.id
    response = client.post(route.format(id=tid), content=body, headers=headers)
    check_answer(client, response, before)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(route=st.sampled_from(["/api/games/{id}", "/api/records/{rid}", "/api/records",
                              "/api/games", "/api/history", "/api/history/1", "/api/results"]),
       query=QUERIES)
def test_any_query_to_any_get_route_is_answered_in_json_without_a_5xx(hostile, route, query):
    client, seat, rid, _ = hostile
    before = fingerprint(client)
    response = client.get(route.format(id=seat.id, rid=rid), params=query, headers=seat.headers)
    check_answer(client, response, before)
    assert fingerprint(client) == before  # a GET changes nothing, answered or not


# -- bounded ------------------------------------------------------------------------------------

def test_a_body_over_the_limit_is_refused_unread_and_deep_nesting_is_a_400(client):
    before = fingerprint(client)
    big = b'{"game": "' + b"x" * 70_000 + b'"}'
    response = client.post("/api/games", content=big, headers={"Content-Type": "application/json"})
    assert response.status_code == 413 and "over 65536 bytes" in response.json()["error"]

    def chunks():  # no Content-Length: the server stops reading past the limit
        for _ in range(10_000):
            yield b" " * 1024
    response = client.post("/api/games", content=chunks(),
                           headers={"Content-Type": "application/json"})
    assert response.status_code == 413
    for depth in (2_000, 60_000):
        response = client.post("/api/games", content=b"[" * depth,
                               headers={"Content-Type": "application/json"})
        assert response.status_code == 400, depth
        assert "malformed JSON" in response.json()["error"]
    assert fingerprint(client) == before


def asgi_post(app, path: str, body: bytes, headers: list[tuple[bytes, bytes]]):
    """POST ``body`` to ``app`` as an ASGI server would pass it, with exactly ``headers`` (the
    bytes a client sent: the TestClient's httpx refuses a header that is not ASCII); the
    status and body answered."""
    import asyncio
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
             "method": "POST", "scheme": "http", "path": path, "raw_path": path.encode(),
             "query_string": b"", "root_path": "", "client": ("127.0.0.1", 1),
             "server": ("127.0.0.1", 8765),
             "headers": [(b"host", b"127.0.0.1:8765"), (b"content-type", b"application/json"),
                         *headers]}
    messages = [{"type": "http.request", "body": body, "more_body": False}]
    sent = []

    async def receive():
        return messages.pop(0) if messages else {"type": "http.disconnect"}

    async def send(message):
        sent.append(message)
    asyncio.run(app(scope, receive, send))
    return sent[0]["status"], b"".join(m.get("body", b"") for m in sent[1:])


def test_a_content_length_of_digits_int_cannot_read_is_no_500():
    """The declared length is read only where int() reads it: '²' and '¹' (latin-1 digits
    that are no decimal ones) are taken as 'abc' is, not int()'s ValueError (a 500), whatever
    ASGI server passes them on."""
    with ThreadPoolExecutor(1) as pool:
        app = create_app(executor=pool)
        answers = {declared: asgi_post(app, "/api/games", b'{"game": "chess"}',
                                       [(b"content-length", declared)])
                   for declared in (b"abc", b"\xb2", b"\xb9")}
    assert {status for status, _ in answers.values()} == {400}, answers
    assert all(b"unknown game 'chess'" in body for _, body in answers.values()), answers


def test_an_upload_nested_deep_enough_to_break_the_agents_pool_is_a_400():
    """An upload is replayed in the agents' pool of processes, which pickles it to send it
    there: a record whose free meta nested 600 lists deep (JSON's own parser takes 990) could
    not be pickled, and the server answered 500, in plain text. A body nested deeper than
    MAX_DEPTH is a 400, before anything is done with it, on every route and socket."""
    from mediatore_env.web.app import MAX_DEPTH
    record = played_record("tressette2", 1)
    with TestClient(create_app(), base_url=URL) as c:  # the server's own pool of processes
        before = fingerprint(c)
        for depth in (MAX_DEPTH + 1, 600):
            record["meta"] = {"x": json.loads("[" * depth + "]" * depth)}
            response = c.post("/api/records", json=record)
            assert response.status_code == 400, response.text
            assert "nested more than" in response.json()["error"]
            assert fingerprint(c) == before
        record["meta"] = {"x": json.loads("[" * (MAX_DEPTH - 3) + "]" * (MAX_DEPTH - 3))}
        assert c.post("/api/records", json=record).status_code == 200


def test_an_uploaded_records_free_fields_are_not_kept(client):
    # A record's meta is free-form: 2 MiB of it, uploaded again and again, must not stay in
    # memory with the record to watch (only its checked steps and names do).
    import tracemalloc
    record = played_record("mediatore", 5)
    record["meta"]["junk"] = ["x" * 1000 for _ in range(1900)]
    tracemalloc.start(40)  # deep enough to see the server's frames under the JSON parser's
    try:
        for _ in range(6):
            assert client.post("/api/records", json=record).status_code == 200
        server = tracemalloc.Filter(True, "*/mediatore_env/*", all_frames=True)  # not the client's
        kept = sum(t.size for t in tracemalloc.take_snapshot().filter_traces([server]).traces)
    finally:
        tracemalloc.stop()
    assert len(client.get("/api/records").json()["records"]) == 6
    assert kept < 3 * 2 ** 20, f"{kept / 2 ** 20:.1f} MiB kept for 6 records"


def test_idle_tables_are_let_go_and_the_number_of_tables_is_capped():
    now = [0.0]
    lobby = Lobby(max_tables=2, idle=60.0, clock=lambda: now[0])
    with ThreadPoolExecutor(1) as pool, TestClient(create_app(lobby=lobby, executor=pool),
                                                   base_url=URL) as c:
        a = new_table(c, "tressette2")
        now[0] = 30.0
        b = new_table(c, "tressette2")
        response = c.post("/api/games", json={"game": "tressette2"})
        assert response.status_code == 429 and "most tables" in response.json()["error"]
        assert len(lobby.tables) == 2
        now[0] = 80.0  # a idle for 80 s, b for 50 s
        assert a.get().status_code == 404 and b.get().status_code == 200
        new_table(c, "tressette2")  # a's place
        assert len(lobby.tables) == 2


def test_one_address_holds_at_most_per_client_tables_and_uploads():
    """One client could open every table (or fill the uploads) and lock the others out. An
    address holds at most ``per_client`` of each: its next lets its least recently used one
    go (a person opening table after table is never refused), and another address's are
    untouched."""
    from test_web import played_record
    now = [0.0]
    lobby = Lobby(max_tables=10, idle=600.0, clock=lambda: now[0], per_client=2)
    with ThreadPoolExecutor(1) as pool, \
            TestClient(app := create_app(lobby=lobby, executor=pool), base_url=URL,
                       client=("10.0.0.5", 5000)) as greedy, \
            TestClient(app, base_url=URL, client=("10.0.0.6", 5000)) as other:
        theirs = new_table(other, "tressette2")
        first = new_table(greedy, "tressette2")
        now[0] = 1.0
        second = new_table(greedy, "tressette2")
        now[0] = 2.0
        first.get()  # the first used since: the second is the least recently used
        now[0] = 3.0
        third = new_table(greedy, "tressette2")
        assert second.get().status_code == 404
        assert all(t.get().status_code == 200 for t in (first, third, theirs))
        assert len(lobby.tables) == 3
        record = played_record("tressette2", 4)
        (mine,) = greedy.post("/api/records", json=record).json()["records"]
        (kept,) = other.post("/api/records", json=record).json()["records"]
        now[0] = 4.0
        assert greedy.post("/api/records", json=[record] * 2).status_code == 200
        assert greedy.get(f"/api/records/{mine['id']}").status_code == 404  # crowded out
        assert other.get(f"/api/records/{kept['id']}").status_code == 200
        assert len(lobby.uploads) == 3


def test_a_table_let_go_is_let_go_whole_with_its_stand_ins_timer():
    """A person's seat with a stand-in has a timer, sleeping until the seat is away (up to a
    day), and the timer held its table: a table crowded out (or idle) stayed in memory with
    its agents, 18 MB a table of self-play networks, a day after the lobby let it go, so one
    client opening table after table filled the server's memory. A table let go is let go
    whole: its timer ends with it."""
    import gc
    import weakref
    now = [0.0]
    lobby = Lobby(max_tables=10, idle=600.0, clock=lambda: now[0], per_client=2)
    with ThreadPoolExecutor(1) as pool, TestClient(create_app(lobby=lobby, executor=pool),
                                                   base_url=URL) as c:
        made = []
        for _ in range(6):
            seat = new_table(c, "tressette2", agents="greedy",
                             stand_in={"agent": "greedy", "after": 24 * 3600})
            made.append(weakref.ref(lobby.tables[seat.id]))
        now[0] = 700.0  # the last two idle: let go at the next ask
        assert c.get("/api/records").status_code == 200 and not lobby.tables
        del seat
        gc.collect()
        kept = sum(ref() is not None for ref in made)
        assert not kept, f"{kept} of the 6 tables let go kept"


def test_per_client_holds_for_one_upload_of_many_and_at_a_full_server():
    """``--per-client 2`` let one upload of 20 records stay whole (the address's least
    recently used went, the new ones all stayed: 20 held); and an address at its cap whose
    next table would let its own least recently used go was refused 429 when the server was
    full, though the new table takes no room. An upload holds at most per_client records
    (413, before any is replayed), and an address at its cap always gets its next table."""
    lobby = Lobby(max_tables=3, per_client=2)
    with ThreadPoolExecutor(1) as pool, \
            TestClient(app := create_app(lobby=lobby, executor=pool), base_url=URL,
                       client=("10.0.0.5", 5000)) as mine, \
            TestClient(app, base_url=URL, client=("10.0.0.6", 5000)) as theirs:
        record = played_record("tressette2", 4)
        before = fingerprint(mine)
        response = mine.post("/api/records", json=[record] * 3)
        assert response.status_code == 413 and "at most 2 records" in response.json()["error"]
        assert fingerprint(mine) == before and not lobby.uploads
        # counted before any is replayed: three that are no records are refused as too many
        response = mine.post("/api/records", json=[{"game": "tressette2"}] * 3)
        assert response.status_code == 413 and "at most 2 records" in response.json()["error"]
        assert mine.post("/api/records", json=[record] * 2).status_code == 200
        new_table(theirs, "tressette2")
        first = new_table(mine, "tressette2")
        new_table(mine, "tressette2")  # the server full, this address at its cap
        third = new_table(mine, "tressette2")  # its first goes: room enough
        assert first.get().status_code == 404 and third.get().status_code == 200
        response = theirs.post("/api/games", json={"game": "tressette2"})
        assert response.status_code == 429  # another address, under its cap: no room


def test_one_client_cannot_lock_the_others_out_of_watching():
    """One upload of many records filled the server's uploads, and watching the history then
    answered 429 to everyone, as it counted against them: an upload holds at most 20
    records, and the history's episodes are let go, least recently watched first, as they
    come back at the next ask."""
    from mediatore_env.registry import replay
    from mediatore_env.web.history import History
    history = History(":memory:")
    for seed in (1, 2, 3):
        saved = played_record("tressette2", seed)
        history.save(saved, ["Anna", "greedy"], [0], list(replay(saved).outcome), "game")
    lobby = Lobby(max_uploads=2)
    with ThreadPoolExecutor(1) as pool, TestClient(
            create_app(lobby=lobby, executor=pool, history=history), base_url=URL) as c:
        record = played_record("tressette2", 4)
        before = fingerprint(c)
        response = c.post("/api/records", json=[record] * 21)
        assert response.status_code == 413 and "at most 20 records" in response.json()["error"]
        assert fingerprint(c) == before
        assert c.post("/api/records", json=[record] * 2).status_code == 200  # the uploads full
        assert c.post("/api/records", json=record).status_code == 429
        watched = []
        for hid in (1, 2, 3, 1):  # more episodes than the cap: the least recent goes
            response = c.post(f"/api/history/{hid}/watch", json={})
            assert response.status_code == 200, response.text
            watched.append(response.json()["id"])
        assert watched == ["h1", "h2", "h3", "h1"] and len(lobby.episodes) == 2
        assert c.get("/api/records/h2").status_code == 404  # let go; h1 came back
        assert c.get("/api/records/h1?step=2").status_code == 200
        assert len(lobby.uploads) == 2  # the uploads, untouched


def test_sockets_that_have_not_said_who_they_are_are_bounded(client, monkeypatch):
    """A socket is accepted before its first message (its token): each holds a task for up
    to ten seconds, and anyone may open them. Past MAX_OPENING at once, a socket is refused
    before it opens (4429; the page asks by long polls); one that speaks makes room."""
    from contextlib import ExitStack
    from mediatore_env.web import app as app_module
    monkeypatch.setattr(app_module, "MAX_OPENING", 3, raising=False)
    seat = new_table(client, "tressette2", agents="random")
    path = f"ws://127.0.0.1:8765/api/games/{seat.id}/socket"
    with ExitStack() as stack:
        silent = [stack.enter_context(client.websocket_connect(path)) for _ in range(3)]
        with pytest.raises(WebSocketDisconnect) as refused:
            with client.websocket_connect(path):
                pass
        assert refused.value.code == 4429
        silent[0].send_text(json.dumps({"token": seat.token}))  # says who it is: room for one
        assert silent[0].receive_json()["id"] == seat.id
        with client.websocket_connect(path) as ws:
            ws.send_text(json.dumps({"token": seat.token}))
            assert ws.receive_json()["id"] == seat.id


def test_a_tables_events_are_bounded_however_long_its_stand_ins_play():
    """Every person's seat keeps a view per event: a session of many deals, its persons'
    seats played by their stand-ins, kept them all (160 MB a table at 100 deals) and sent
    them all to ?since=0 (10 MB an answer). A seat keeps the latest MAX_EVENTS, and an
    answer carries no more; its numbers go on, so a page behind gets the latest and its
    place (``next``)."""
    from mediatore_env.web.tables import MAX_EVENTS
    now = [0.0]
    lobby = Lobby(clock=lambda: now[0])
    with ThreadPoolExecutor(1) as pool, TestClient(create_app(lobby=lobby, executor=pool),
                                                   base_url=URL) as c:
        # away after an hour of the test's clock: the server's own timer, which sleeps that hour
        # in real time, never wakes to play a turn beside this test's
        seat = new_table(c, "club", seed=None, agents=[None, None, None],
                         rules={"deals": 4}, stand_in={"agent": "random", "after": 3600})
        table = lobby.tables[seat.id]
        now[0] = 3700.0  # every person away: their stand-ins play the session through
        made, rng = 0, random.Random(1)
        while (turn := table.agent_turn()) is not None:
            mover, agent, game, _ = turn
            table.agent_moved(mover, rng.choice(game.legal_moves()), agent)
            made += 1
        assert table.game.is_over and made > 2 * MAX_EVENTS  # so many events, and more
        assert all(len(events) == MAX_EVENTS for events in table.events.values())
        state = seat.get("?since=0").json()
        assert len(state["events"]) == MAX_EVENTS and state["next"] > 2 * MAX_EVENTS
        assert state["events"][-1]["kind"] == "end"  # the latest, up to the end
        assert state["events"] == seat.get(f"?since={state['next'] - MAX_EVENTS}").json()["events"]
        later = seat.get(f"?since={state['next'] - 2}").json()
        assert later["events"] == state["events"][-2:] and later["next"] == state["next"]


# -- agents think off the event loop --------------------------------------------------------------

class Sleepy:
    """An agent that takes its time: 0.4 s a move, asleep (so it holds no lock)."""

    wants_observation = False

    def reset(self, seed=None):
        pass

    def act(self, observation, view):
        time.sleep(0.4)
        return view.legal_moves()[0]


class Gated(Sleepy):
    """An agent that thinks until the test lets it move (the pool here is threads: the gate
    is shared)."""

    thinking, go = threading.Event(), threading.Event()

    def act(self, observation, view):
        Gated.thinking.set()
        if not Gated.go.wait(30):
            raise RuntimeError("never let go")
        return view.legal_moves()[0]


def test_a_thinking_agent_does_not_hold_up_the_server():
    """While an agent thinks, in the pool, the server answers everyone: were it thinking on the
    event loop, no answer would come before the gate opened (it opens only after them)."""
    Gated.go.set()  # open while the table is dealt and settles
    with ThreadPoolExecutor(4) as pool, TestClient(create_app(
            agents={"tressette2": {"gated": Gated}}, executor=pool), base_url=URL) as c:
        seat = new_table(c, "tressette2", agents="gated")
        Gated.thinking.clear(), Gated.go.clear()
        while True:  # until a move of the person's gives the agent the turn
            state = seat.state
            response = seat.post("move", {"move": state["view"]["moves"][0]["move"],
                                          "version": state["version"]})
            assert response.status_code == 200, response.text
            if response.json()["thinking"]:
                break  # answered at once: the agent thinks meanwhile
            seat.state = response.json()
        assert Gated.thinking.wait(30)
        for _ in range(3):
            assert c.get("/api/games").status_code == 200
            assert seat.get().json()["thinking"]
        moves = len(seat.get().json()["events"])
        Gated.go.set()
        state = seat.get("?wait=10&since=0").json()
        while state["thinking"]:
            state = seat.get("?wait=10&since=0").json()
        assert len(state["events"]) > moves  # its move made, once let go


class Locked(Sleepy):
    """An agent that holds a lock: no process of the agents' pool can be sent it."""

    def __init__(self):
        self.lock = threading.Lock()


def test_an_agent_that_cannot_go_to_the_agents_processes_is_not_seated():
    """Every move sends the agent to a worker process and back, pickled: an agent that does
    not pickle (OpenSpiel's IS-MCTS builds its bot with a local function) stopped its table
    at its first move. It is not offered, and a request naming it is a 400."""
    from agents import agents_of
    from mediatore_env.registry import get
    with ThreadPoolExecutor(1) as pool, TestClient(create_app(
            agents={"tressette2": {"locked": Locked, "sleepy": Sleepy}}, executor=pool),
            base_url=URL) as c:
        (info,) = [g for g in c.get("/api/games").json()["games"] if g["name"] == "tressette2"]
        assert "sleepy" in info["agents"] and "locked" not in info["agents"]
        unpicklable = ["locked"] + [n for n in ("openspiel-ismcts",)
                                    if n in agents_of(get("tressette2"))]
        for name in unpicklable:
            assert name not in info["agents"]
            before = fingerprint(c)
            response = c.post("/api/games", json={"game": "tressette2", "agents": [None, name]})
            assert response.status_code == 400, response.text
            error = response.json()["error"]
            assert error.startswith(f"agent at seat 1: {name!r} cannot sit at a table here")
            assert fingerprint(c) == before
        # and every agent offered goes there and back
        for game in c.get("/api/games").json()["games"]:
            registry = agents_of(get(game["name"]))
            for name in set(game["agents"]) & set(registry):
                pickle.loads(pickle.dumps(registry[name]()))


def test_search_agents_think_in_the_servers_own_pool_of_processes():
    """The default pool: the agent and a copy of the game go to a process and the agent comes
    back with its move (its state carried on); meanwhile the server answers."""
    with TestClient(create_app(), base_url=URL) as c:
        seat = new_table(c, "tressette2", seat=1, agents="pimc:max_worlds=4")
        table = c.app.state.lobby.tables[seat.id]
        while not seat.state["view"]["over"] and table.game.hand_number == 1:
            seat.move(seat.state["view"]["moves"][0]["move"])
        assert table.broken is None and len(table.game.history) > 10
        assert sum(1 for s, _ in table.game.history if s == 0) > 5  # the agent's moves


# -- the command line ------------------------------------------------------------------------------

def test_a_taken_port_is_one_line_and_status_3(capsys):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen(1)
        port = s.getsockname()[1]
        assert main(["--port", str(port), "--no-history"]) == 3
    out, err = capsys.readouterr()
    assert "the table is at" not in out + err
    assert err.strip().count("\n") == 0 and f"port {port}" in err and "--port 0" in err


def test_serving_beyond_this_machine_warns_that_there_are_no_accounts(tmp_path):
    proc = subprocess.Popen([sys.executable, "-m", "mediatore_env.web.app", "--host", "0.0.0.0",
                             "--port", "0", "--db", str(tmp_path / "history.sqlite3")],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        assert "the table is at http://0.0.0.0:" in line
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=20)
    assert "warning" in err and "no accounts" in err


def test_the_default_is_this_machine_only(capsys, tmp_path, monkeypatch):
    """Without --host the server binds the loopback: nothing to warn about."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))  # the history's default folder
    ready = threading.Event()
    from mediatore_env.web import app as app_module
    calls = []

    class FakeServer:
        def __init__(self, config):
            calls.append(config)

        def run(self, sockets):
            calls.append(sockets[0].getsockname())
            sockets[0].close()
            ready.set()
    import uvicorn
    real = uvicorn.Server
    uvicorn.Server = FakeServer
    try:
        assert app_module.main(["--port", "0"]) == 0
    finally:
        uvicorn.Server = real
    out, err = capsys.readouterr()
    assert (tmp_path / "mediatore-env" / "history.sqlite3").exists()
    assert ready.is_set() and calls[1][0] == "127.0.0.1"
    assert "warning" not in err and f":{calls[1][1]}/" in out


# -- the push channel: a socket answers to a seat's token, sent first ---------------------------

@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(first=BODIES | TEXT.map(lambda t: t.encode("utf-8", "surrogatepass")))  # bad UTF-8 too
def test_any_first_message_to_a_socket_is_refused_in_json_and_changes_nothing(hostile, first):
    client, seat, _, _ = hostile
    before = fingerprint(client)
    try:
        text = first.decode()
    except UnicodeDecodeError:
        text = None
    with client.websocket_connect(f"ws://127.0.0.1:8765/api/games/{seat.id}/socket") as ws:
        ws.send_text(text) if text is not None else ws.send_bytes(first)
        answer = ws.receive_json()
    # no body holds the seat's token: always refused, in one line
    assert 400 <= answer["status"] < 500 and "\n" not in answer["error"]
    assert fingerprint(client) == before
