"""Several persons at one table of mediatore-web (Starlette's TestClient, no browser): the
creator gets a code per free seat, a code seats one person once, each person sees only their
own seat and hears of every move, the push channel (a WebSocket) sends each change to every
seat's page, and a stand-in agent moves for a seat that stays away."""

from __future__ import annotations

import json
import random
import time

import pytest

pytest.importorskip("starlette", reason="mediatore-web needs the web extra: pip install '.[web]'")
pytest.importorskip("httpx2", reason="Starlette's TestClient needs httpx2 (the web extra)")

from concurrent.futures import ThreadPoolExecutor  # noqa: E402

from starlette.testclient import TestClient  # noqa: E402
from starlette.websockets import WebSocketDisconnect  # noqa: E402

from mediatore_env.web import app as app_module  # noqa: E402
from mediatore_env.web.app import create_app  # noqa: E402
from test_web import assert_no_hidden_card  # noqa: E402

URL = "http://127.0.0.1:8765"
WS = "ws://127.0.0.1:8765"  # the test client's sockets name their host in full


@pytest.fixture
def client():
    with ThreadPoolExecutor(2) as pool, TestClient(create_app(executor=pool), base_url=URL) as c:
        yield c


class Person:
    """A person's seat at a table: its token, and the events it has been told."""

    def __init__(self, client, state: dict):
        self.client, self.id, self.seat = client, state["id"], state["seat"]
        self.headers = {"Authorization": f"Bearer {state['token']}"}
        self.state, self.events = state, list(state["events"])

    def look(self, wait: float = 0) -> dict:
        """The table now (after ``wait`` seconds at most for news), with the events since
        the last look."""
        response = self.client.get(f"/api/games/{self.id}?since={self.state['next']}&wait={wait}",
                                   headers=self.headers)
        assert response.status_code == 200, response.text
        self.state = response.json()
        self.events += self.state["events"]
        return self.state

    def move(self, move: int):
        return self.client.post(f"/api/games/{self.id}/move", headers=self.headers,
                                json={"move": move, "version": self.state["version"],
                                      "since": self.state["next"]})


def open_table(client, game="mediatore", agents=("random", None, "random"), **fields):
    """A table whose creator sits at seat 0 (named Anna) and ``agents`` at the other seats."""
    response = client.post("/api/games", json={"game": game, "seat": 0,
                                               "agents": [None, *agents], "name": "Anna",
                                               **fields})
    assert response.status_code == 200, response.text
    return Person(client, response.json())


def join(client, tid, seat, code, name="Bruno"):
    return client.post(f"/api/games/{tid}/join", json={"seat": seat, "code": code, "name": name})


def test_a_code_seats_one_person_once(client):
    anna = open_table(client)
    codes = anna.state["join"]
    assert codes[0] is None and codes[1] is None and codes[3] is None and codes[2]
    assert [s["kind"] for s in anna.state["seats"]] == ["person", "agent", "person", "agent"]
    assert not anna.state["seats"][2]["taken"]
    lobby = client.app.state.lobby
    before = lobby.fingerprint()
    for body, status, words in (
            ({"seat": 2, "code": "x" * 16, "name": "Bruno"}, 403, "not seat 2's code"),
            ({"seat": 1, "code": codes[2], "name": "Bruno"}, 409, "an agent's"),
            ({"seat": 0, "code": codes[2], "name": "Bruno"}, 409, "taken"),
            ({"seat": 2, "code": codes[2], "name": "anna"}, 409, "taken at this table"),
            ({"seat": 2, "code": codes[2], "name": "You"}, 400, "bad name"),
            ({"seat": 2, "code": codes[2], "name": "x" * 25}, 400, "bad name"),
            ({"seat": 2, "code": codes[2], "name": "a\x00b"}, 400, "bad name"),
            ({"seat": 2, "code": codes[2], "cheat": 1}, 400, "unknown field"),
            ({"seat": 9, "code": codes[2]}, 400, "bad seat 9")):
        response = client.post(f"/api/games/{anna.id}/join", json=body)
        assert response.status_code == status and words in response.json()["error"], body
        assert lobby.fingerprint() == before
    assert join(client, "nope", 2, codes[2]).status_code == 404
    response = join(client, anna.id, 2, codes[2], "  Bruno   B. ")
    assert response.status_code == 200, response.text
    bruno = Person(client, response.json())
    assert bruno.seat == 2 and "join" not in bruno.state
    assert bruno.state["view"]["names"][2] == "You" and bruno.state["view"]["names"][0] == "Anna"
    again = join(client, anna.id, 2, codes[2], "Carla")
    assert again.status_code == 409 and "worked once" in again.json()["error"]
    state = anna.look()
    assert state["join"] == [None] * 4 and state["seats"][2]["name"] == "Bruno B."
    assert state["view"]["names"][2] == "Bruno B." and state["view"]["names"][0] == "You"
    assert any("Bruno B. takes seat 2" in line for e in state["events"] for line in e["lines"])
    # each token is its own seat's
    assert bruno.headers != anna.headers


@pytest.mark.parametrize("name", ["player 2", "Player 2", "\uff50\uff4c\uff41\uff59\uff45\uff52 2",
                                  "random(1)", "RANDOM(3)"])
def test_the_creator_takes_no_other_seats_name(client, name):
    # A creator named "player 2" would take the name seat 2 waits under (and its person, who
    # joins without a name, would be refused); "random(1)" would pass for the agent at seat 1.
    lobby = client.app.state.lobby
    response = client.post("/api/games", json={"game": "mediatore", "agents": [
        None, "random", None, "random"], "name": name})
    assert response.status_code == 409 and "taken at this table" in response.json()["error"]
    assert not lobby.tables
    anna = open_table(client)  # named Anna: seat 2 joins under its own name
    response = client.post(f"/api/games/{anna.id}/join",
                           json={"seat": 2, "code": anna.state["join"][2]})
    assert response.status_code == 200 and anna.look()["seats"][2]["name"] == "player 2"


def test_a_seats_link_says_what_it_invites_to_before_it_is_taken(client):
    # The code's holder learns the game, who opened the table and who sits where; a wrong
    # code learns nothing, and once the seat is taken the link says so. Nothing changes.
    anna = open_table(client)
    lobby = client.app.state.lobby
    before = lobby.fingerprint()
    path, code = f"/api/games/{anna.id}/invitation", anna.state["join"][2]
    told = client.post(path, json={"seat": 2, "code": code})
    assert told.status_code == 200, told.text
    t = told.json()
    assert (t["host"], t["seat"], t["game"], t["title"]) == ("Anna", 2, "mediatore", "Mediatore")
    assert t["rules"] == "standard"  # bare, as every game's: the page writes "rules: " before it
    assert [x["name"] for x in t["seats"]] == ["Anna", "random(1)", "player 2", "random(3)"]
    wrong = client.post(path, json={"seat": 2, "code": "x" * 16})
    assert wrong.status_code == 403 and "host" not in wrong.text
    assert client.post(path, json={"seat": 1, "code": code}).status_code == 409  # an agent's
    assert lobby.fingerprint() == before
    assert join(client, anna.id, 2, code).status_code == 200
    taken = client.post(path, json={"seat": 2, "code": code})
    assert taken.status_code == 409 and "taken" in taken.json()["error"]


def test_two_persons_play_a_deal_each_seeing_only_their_own_seat(client):
    anna = open_table(client)
    bruno = Person(client, join(client, anna.id, 2, anna.state["join"][2]).json())
    table = client.app.state.lobby.tables[anna.id]
    people, rng = {0: anna, 2: bruno}, random.Random(5)
    while not table.game.is_over:
        while table.thinking:
            time.sleep(0.01)
        for person in people.values():
            state = person.look()
            assert_no_hidden_card(state, table.game, person.seat)
            hand = {c["tag"] for c in state["view"]["hand"]}
            other = people[2 - person.seat].state["view"]["hand"]
            assert not hand & {c["tag"] for c in other}
        if table.game.is_over:
            break
        to_move = table.game.to_move
        if to_move in people:
            person = people[to_move]
            other = people[2 - to_move]
            legal = [m["move"] for m in person.state["view"]["moves"]]
            assert other.state["view"]["moves"] == []  # nothing to click out of turn
            stale = other.move(legal[0])
            assert stale.status_code == 409  # not the other's turn
            response = person.move(rng.choice(legal))
            assert response.status_code == 200, response.text
    anna.look(), bruno.look()
    # both heard every move, by the same seats, each in their own words
    moves = [(e["kind"], e["seat"]) for e in anna.events]
    assert moves == [(e["kind"], e["seat"]) for e in bruno.events]
    assert sum(1 for k, _ in moves if k == "move") == len(table.game.history)
    assert anna.state["view"]["outcome"] == bruno.state["view"]["outcome"] == list(
        table.game.outcome)
    you = [line for e in anna.events if e["seat"] == 0 and e["kind"] == "move"
           for line in e["lines"]]
    assert you and any("You" in line for line in you)


def test_the_socket_pushes_every_change_to_every_seat(client):
    anna = open_table(client, agents=("random", None, "random"))
    bruno = Person(client, join(client, anna.id, 2, anna.state["join"][2]).json())
    table = client.app.state.lobby.tables[anna.id]
    with client.websocket_connect(f"{WS}/api/games/{anna.id}/socket",
                                  headers={"Origin": URL}) as ws:
        ws.send_text(json.dumps({"token": bruno.headers["Authorization"][7:], "since": 0}))
        first = ws.receive_json()
        assert first["seat"] == 2 and first["seats"][2]["present"]
        since, heard = first["next"], list(first["events"])
        assert table.present[2] == 1
        for _ in range(6):  # anna moves whenever it is her turn; bruno's socket hears it all
            while table.thinking:
                time.sleep(0.01)
            anna.look()
            if table.game.to_move == 0:
                assert anna.move(anna.state["view"]["moves"][0]["move"]).status_code == 200
            elif table.game.to_move == 2:
                bruno.look()
                assert bruno.move(bruno.state["view"]["moves"][0]["move"]).status_code == 200
            while table.next > since:
                state = ws.receive_json()
                assert state["seat"] == 2
                heard += state["events"]
                since = state["next"]
        assert len(heard) == table.next - table.first and heard
        assert [e["seat"] for e in heard] == [e["seat"] for e in table.events[2]]
    deadline = time.time() + 5
    while table.present[2] and time.time() < deadline:
        time.sleep(0.01)
    assert table.present[2] == 0  # the page closed: the seat is no longer there


def test_a_seat_has_at_most_eight_pages_waiting_sockets_and_long_polls_alike(client):
    # Each waiting page holds the server's memory until the table changes: the eighth socket
    # fills the seat, and a ninth page is refused whether it opens a socket or a long poll
    # that would wait.
    from contextlib import ExitStack
    anna = open_table(client, agents=("random", None, "random"))  # bruno's seat waits: nobody
    table = client.app.state.lobby.tables[anna.id]                 # moves, no news comes
    path, hello = f"{WS}/api/games/{anna.id}/socket", json.dumps(
        {"token": anna.headers["Authorization"][7:], "since": 0})
    with ExitStack() as pages:
        for _ in range(app_module.MAX_SOCKETS):
            ws = pages.enter_context(client.websocket_connect(path, headers={"Origin": URL}))
            ws.send_text(hello)
            assert ws.receive_json()["seat"] == 0
        assert table.present[0] == app_module.MAX_SOCKETS
        before = client.app.state.lobby.fingerprint()
        response = client.get(f"/api/games/{anna.id}?wait=5&since={table.next}", headers=anna.headers)
        assert response.status_code == 429 and "at most 8 pages" in response.json()["error"]
        # a poll with news to give answers at once: it never holds a page, so it is not refused
        response = client.get(f"/api/games/{anna.id}?wait=5&since=0", headers=anna.headers)
        assert response.status_code == 200 and response.json()["events"]
        with client.websocket_connect(path, headers={"Origin": URL}) as ws:
            ws.send_text(hello)
            assert ws.receive_json()["status"] == 429
        assert client.get(f"/api/games/{anna.id}", headers=anna.headers).status_code == 200
        assert client.app.state.lobby.fingerprint() == before  # a look without waiting is fine


def test_the_socket_refuses_another_sites_page_and_a_bad_token(client, monkeypatch):
    anna = open_table(client)
    lobby = client.app.state.lobby
    before = lobby.fingerprint()
    path = f"{WS}/api/games/{anna.id}/socket"
    with pytest.raises(WebSocketDisconnect) as e:  # refused before the socket opens
        with client.websocket_connect(path, headers={"Origin": "http://evil.example"}):
            pass
    assert e.value.code == 4403
    for hello, status in (({"token": "nope"}, 403), ({}, 401), ({"token": 5}, 401),
                          ({"token": "x", "cheat": 1}, 400), ("not json", 400),
                          ({"token": anna.headers["Authorization"][7:], "since": -1}, 400)):
        with client.websocket_connect(path, headers={"Origin": URL}) as ws:
            ws.send_text(hello if isinstance(hello, str) else json.dumps(hello))
            answer = ws.receive_json()
            assert answer["status"] == status and "\n" not in answer["error"], hello
            with pytest.raises(WebSocketDisconnect) as e:
                ws.receive_json()
            assert e.value.code == 4000 + status
        assert lobby.fingerprint() == before
    with client.websocket_connect(f"{WS}/api/games/{'x' * 22}/socket") as ws:
        ws.send_text(json.dumps({"token": "x"}))
        assert ws.receive_json()["status"] == 404
    monkeypatch.setattr(app_module, "FIRST_MESSAGE_SECONDS", 0.2)
    with client.websocket_connect(path) as ws:  # says nothing: let go
        assert ws.receive_json()["status"] == 408
    assert lobby.fingerprint() == before


def test_a_long_poll_returns_when_another_person_moves(client):
    anna = open_table(client, agents=(None, "random", "random"))  # seat 1 a person
    bruno = Person(client, join(client, anna.id, 1, anna.state["join"][1]).json())
    table = client.app.state.lobby.tables[anna.id]
    while table.thinking:
        time.sleep(0.01)
    anna.look(), bruno.look()
    waiter, mover = (bruno, anna) if table.game.to_move == 0 else (anna, bruno)
    with ThreadPoolExecutor(1) as pool:
        started = time.perf_counter()
        future = pool.submit(waiter.look, 10)
        time.sleep(0.3)
        assert not future.done()  # held: the other person has not moved
        assert mover.move(mover.state["view"]["moves"][0]["move"]).status_code == 200
        state = future.result(timeout=10)
    assert time.perf_counter() - started < 5 and state["events"]
    assert state["events"][0]["seat"] == mover.seat


def test_a_stand_in_moves_for_a_seat_away_too_long(client):
    """Seat 2's person never comes: after a second, its stand-in plays for it; the record
    names the moves it made."""
    anna = open_table(client, agents=("random", None, "random"),
                      stand_in={"agent": "random", "after": 1})
    assert anna.state["stand_in"] == {"agent": "random", "after": 1.0}
    table = client.app.state.lobby.tables[anna.id]
    deadline = time.time() + 60
    while not table.game.is_over and time.time() < deadline:
        state = anna.look(wait=5)
        if table.game.to_move == 0 and not table.thinking and state["view"]["moves"]:
            assert anna.move(state["view"]["moves"][0]["move"]).status_code == 200
    assert table.game.is_over
    by_two = [i for i, (s, _) in enumerate(table.game.history) if s == 2]
    assert by_two and table.stood_in == by_two
    record = table.record()
    assert record["meta"]["stood_in"] == by_two and record["meta"]["persons"] == [0]
    assert record["meta"]["names"][2] == "random"  # nobody took the seat
    assert any(e.get("stand_in") for e in anna.events)


@pytest.mark.parametrize("stand_in, words", [
    ({"agent": "random"}, "bad stand_in"),
    ({"agent": "random", "after": 0}, "bad stand_in after 0"),
    ({"agent": "random", "after": "1"}, "bad stand_in after"),
    ({"agent": "os:system", "after": 5}, "agent at seat"),
    ("random", "bad stand_in"),
])
def test_a_bad_stand_in_is_refused(client, stand_in, words):
    response = client.post("/api/games", json={"game": "mediatore", "agents": [None] * 4,
                                               "stand_in": stand_in})
    assert response.status_code == 400 and words in response.json()["error"]
    assert client.app.state.lobby.tables == {}


@pytest.mark.parametrize("deals", [{"seed": 3}, {"seed": 0}, {"packs": [list(range(40))]}])
def test_a_table_with_other_people_takes_no_seed_nor_packs(client, deals):
    # whoever chose the deals would know every hand the others are dealt
    for agents in ([None, None, "random", "random"], [None, "random", "random", None]):
        response = client.post("/api/games", json={"game": "mediatore", "agents": agents,
                                                   **deals})
        assert response.status_code == 400, response.text
        assert "only at a table of one person" in response.json()["error"]
        assert client.app.state.lobby.tables == {}
    # alone with agents, the deals may be chosen (to play them again)
    response = client.post("/api/games", json={"game": "mediatore",
                                               "agents": [None, "random", "random", "random"],
                                               **deals})
    assert response.status_code == 200, response.text
