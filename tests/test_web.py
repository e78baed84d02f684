"""mediatore-web's server without a browser (Starlette's TestClient): every registered game
that draws a table for the browser can be played to its end through the API; a seat's JSON
holds none of the cards it may not see; bad requests are refused with the state unchanged;
two tables stay apart; records are stepped through to their recorded result."""

from __future__ import annotations

import json
import random
import re

import pytest

pytest.importorskip("starlette", reason="mediatore-web needs the web extra: pip install '.[web]'")
pytest.importorskip("httpx2", reason="Starlette's TestClient needs httpx2 (the web extra)")

from concurrent.futures import ThreadPoolExecutor  # noqa: E402

from starlette.testclient import TestClient  # noqa: E402

from mediatore_env.core.cards import CARD_NAMES, NUM_CARDS  # noqa: E402
from mediatore_env.core.game import CHANCE  # noqa: E402
from mediatore_env.registry import GAMES, get  # noqa: E402
from mediatore_env.web.app import create_app, main  # noqa: E402
from mediatore_env.web.tables import games_json  # noqa: E402

PLAYABLE = list(GAMES)


@pytest.fixture
def client():
    """The app with its agents on threads (the server's own pool of processes is tested in
    test_web_security.py), under the loopback name a real server answers to."""
    with ThreadPoolExecutor(2) as pool, TestClient(create_app(executor=pool),
                                                   base_url="http://127.0.0.1:8765") as c:
        yield c


class Seat:
    """A person's seat at a table of ``client``: the table's id and the seat's token."""

    def __init__(self, client, state: dict):
        self.client, self.id, self.token = client, state["id"], state["token"]
        self.headers = {"Authorization": f"Bearer {self.token}"}
        self.state = self.settle(state)

    def settle(self, state: dict) -> dict:
        """``state`` once the agents have moved (the server has them think in its worker)."""
        while state["thinking"]:
            response = self.client.get(f"/api/games/{self.id}?since={state['next']}&wait=5",
                                       headers=self.headers)
            assert response.status_code == 200, response.text
            later = response.json()
            state = {**later, "events": state["events"] + later["events"]}
        return state

    def get(self, query: str = ""):
        return self.client.get(f"/api/games/{self.id}{query}", headers=self.headers)

    def post(self, verb: str, body: dict, headers: dict | None = None):
        return self.client.post(f"/api/games/{self.id}/{verb}", json=body,
                                headers={**self.headers, **(headers or {})})

    def move(self, move: int) -> dict:
        response = self.post("move", {"move": move, "version": self.state["version"],
                                      "since": self.state["next"]})
        assert response.status_code == 200, response.text
        self.state = self.settle(response.json())
        return self.state

    def next(self) -> dict:
        response = self.post("next", {"version": self.state["version"]})
        assert response.status_code == 200, response.text
        self.state = self.settle(response.json())
        return self.state


def new_table(client, game: str, seat: int = 0, seed: int = 1, agents="random",
              **fields) -> Seat:
    """A table of ``game``, its creator at ``seat``, ``agents`` at every other seat (a name,
    or a list: one entry for each other seat, null for a person), dealt from ``seed`` (None:
    by the server, as a table with other people must be)."""
    players = get(game).players
    others = iter(agents if isinstance(agents, list) else [agents] * (players - 1))
    chosen = {} if seed is None else {"seed": seed}
    response = client.post("/api/games", json={
        "game": game, "seat": seat, **chosen,
        "agents": [None if s == seat else next(others) for s in range(players)], **fields})
    assert response.status_code == 200, response.text
    return Seat(client, response.json())


def known_cards(view) -> int:
    """The cards of other hands a seat's view may legitimately know (as a bitset): the called
    card, the monte it saw, the card passed back, the widow, the discards, the melds, the
    draws it saw."""
    known = 0
    for attr in ("called_card", "given_back"):
        card = getattr(view, attr, None)
        if card is not None:
            known |= 1 << card
    for attr in ("monte_seen", "widow", "discards", "final_monte"):
        known |= getattr(view, attr, 0) or 0
    for _, meld in getattr(view, "melds", ()):
        known |= meld.cards
    for _, card in getattr(view, "draws", ()):
        if card is not None:
            known |= 1 << card
    return known


def hidden_tags(game, seat: int) -> set[str]:
    """The cards in the other seats' hands that ``seat`` may not see."""
    others = 0
    for s, hand in enumerate(game.hands):
        if s != seat:
            others |= hand
    hidden = others & ~known_cards(game.view(seat))
    return {CARD_NAMES[c] for c in range(NUM_CARDS) if hidden >> c & 1}


def without_moves(data):
    """``data`` less every ``"moves"`` list: calls name any card, legally."""
    if isinstance(data, dict):
        return {k: without_moves(v) for k, v in data.items() if k != "moves"}
    if isinstance(data, list):
        return [without_moves(v) for v in data]
    return data


def assert_no_hidden_card(state: dict, game, seat: int) -> None:
    """Nothing sent holds a card now in another hand that ``seat`` may not see: the table and
    the events since the last pack was dealt (earlier hands' cards were dealt again)."""
    events = state["events"]
    deals = [i for i, e in enumerate(events) if e["kind"] == "deal"]
    sent = {**state, "events": events[deals[-1]:] if deals else events}
    text = json.dumps(without_moves(sent))
    leaked = sorted(t for t in hidden_tags(game, seat) if re.search(rf"\b{t}\b", text))
    assert leaked == [], f"seat {seat} was sent cards it may not see: {leaked}"


@pytest.mark.parametrize("game", PLAYABLE)
def test_every_game_plays_to_the_end_with_no_hidden_card_sent(client, game, monkeypatch):
    entry = get(game)
    # the table keeps every event of the episode, to read its story whole below (a table
    # keeps its latest MAX_EVENTS: test_web_security.py)
    monkeypatch.setattr("mediatore_env.web.tables.MAX_EVENTS", 10_000)
    rng = random.Random(game)
    for seat in range(entry.players):
        table_seat = new_table(client, game, seat=seat, seed=seat)
        table = client.app.state.lobby.tables[table_seat.id]
        state, moves = table_seat.state, 0
        while not state["view"]["over"]:
            assert_no_hidden_card(state, table.game, seat)
            legal = [m["move"] for m in state["view"]["moves"]]
            # every legal move and nothing else (a call's cards come in the page's order)
            assert sorted(legal) == sorted(table.game.legal_moves()) and table.game.to_move == seat
            state = table_seat.move(rng.choice(legal))
            moves += 1
        assert table.game.is_over and moves > 0
        assert state["view"]["outcome"] == list(table.game.outcome) == state["totals"]
        assert sum(state["totals"]) == 0
        # the end as a table of the server's view: a row per seat, its result last
        summary = state["view"]["summary"]
        assert [row[-1] for row in summary["rows"]] == state["view"]["outcome"]
        outcome = state["view"]["outcome"]
        assert summary["best"] == [s for s, o in enumerate(outcome) if o > 0]  # who won
        assert state["view"]["panels"]
        # a hand of the episode over, another to come (a Tressette hand, a club deal): its
        # end is told before the next is dealt, as the terminal tells it
        # (the toy game tells nothing there: the core display's default)
        kinds = [e["kind"] for e in table.events[seat]]
        dealt_again = [i for i, k in enumerate(kinds) if k == "deal" and i > kinds.index("deal")]
        stops = [e["lines"] for e in table.events[seat] if e["kind"] == "stop"]
        if not game.startswith("toy"):
            assert all(kinds[i - 1] == "stop" for i in dealt_again), kinds
            assert len(stops) == len(dealt_again)
        assert all(any(": the end " in line for line in lines) for lines in stops)
        # and as data for the page's table (display.stop_json), the same end in the same words
        for event in (e for e in table.events[seat] if e["kind"] == "stop"):
            assert event["end"]["parts"] and any(
                line.startswith(f"== {event['end']['title']} ") for line in event["lines"])
            assert "You" in json.dumps(event["end"])  # in the person's own words
        # the episode's last hand (deal) ends as the others do, before the result, even where
        # the game ended in its middle (a side reached 31, a claim)
        end_event = next(e for e in table.events[seat] if e["kind"] == "end")
        end = end_event["lines"]
        if game.startswith(("tressette", "club")):
            word, number = ("hand", table.game.hand_number) if game.startswith("tressette") \
                else ("deal", table.game.deal_number)
            assert any(line.startswith(f"== {word} {number}: the end ") for line in end), end
            # and as data, for the page to draw under the summary, as the stops' are
            assert end_event["end"]["title"] == f"{word} {number}: the end"
            assert end_event["end"]["parts"] and "You" in json.dumps(end_event["end"])
        else:
            assert end_event.get("end") is None
        if game.startswith("tressette") and stops:
            assert any(line.split()[-5:] == ["cards", "last", "melds", "hand", "game"]
                       for line in stops[0])
        # a Tressette table at a hand's end is that hand's, its dealer and mano included (the
        # engine names the next dealer at once; the page showed him beside the ended hand's
        # mano). So is a club table between deals: the session has cleared the deal, but the
        # dealer it names is the ended deal's, and no one is choosing a mediator yet.
        dealer = None
        for event in table.events[seat] if not game.startswith("toy") else ():
            view = event["view"]
            if event["kind"] == "deal":
                dealer = view["dealer"]
            elif event["kind"] == "stop":
                assert view["dealer"] == dealer, (game, event["lines"])
                assert view["mano"] == (dealer + 1) % entry.players
                said = [line for label, lines in view["facts"] if label in ("Hand", "Deal")
                        for line in lines]
                said += [line for p in view["panels"] if p["kind"] == "note"
                         and p["label"] in ("Hand", "Deal") for line in p["lines"]]
                assert said and all(f"dealer {view['names'][dealer]} " in line
                                    for line in said), said
                assert not [p for p in view["panels"] if p["kind"] == "choosing"
                            and p["choosing"] is not None]


def test_every_registered_game_has_a_browser_table():
    """The tests' toy game too: the default view_json of a trick game (core.display) is all
    the page needs of it."""
    assert [game["name"] for game in games_json()] == PLAYABLE
    assert set(PLAYABLE) >= {"mediatore", "tressette", "tressette3", "tressette2", "club",
                             "toy", "toy3"}


def test_the_page_offers_only_agents_that_can_sit_at_a_table(client):
    """Every agent the page lists for a game seats at its table with no options; one that
    needs a file (``selfplay`` where the game ships no network) is left out of the list."""
    from agents.tressette import SELFPLAY
    offered = {game["name"]: game["agents"] for game in client.get("/api/games").json()["games"]}
    assert "selfplay" in offered["mediatore"]  # Mediatore ships its network
    for form in ("tressette", "tressette3", "tressette2"):
        assert ("selfplay" in offered[form]) == (form in SELFPLAY)
    assert "selfplay" not in offered["club"]  # registered, but no network is shipped
    # the generic agents go to the agents' processes (they read their game's trick facts,
    # functions, through its definition, which pickles by name); IS-MCTS's bot does not
    for game in ("mediatore", "tressette", "tressette3", "tressette2", "club"):
        assert {"generic-greedy", "generic-pimc"} <= set(offered[game])
        assert "openspiel-ismcts" not in offered[game]
    for name in offered["tressette2"]:
        new_table(client, "tressette2", agents=name)  # 200, or new_table's assert fails


def test_an_agent_whose_network_is_missing_cannot_sit(client, tmp_path, monkeypatch):
    """What keeps an agent off the page: its factory fails without options (here ``selfplay``
    in a checkout without agents/data's networks); a request naming it still gets a 400."""
    from functools import partial

    import agents.selfplay
    from mediatore_env.web import tables
    monkeypatch.setattr(agents.selfplay, "DATA", tmp_path)
    monkeypatch.setattr(tables, "_SEATABLE", {})
    assert not tables.seatable("tressette2", "selfplay",
                               partial(agents.selfplay.SelfPlayAgent, game="tressette2"))
    assert tables.seatable("tressette2", "greedy", lambda: object())
    response = client.post("/api/games", json={"game": "tressette2", "seat": 0,
                                               "agents": [None, "selfplay"]})
    assert response.status_code == 400 and "selfplay" in response.text


def snapshot(seat: Seat):
    state = seat.get().json()
    return state["version"], state["view"], state["next"]


def test_bad_moves_are_refused_with_the_state_unchanged(client):
    seat = new_table(client, "mediatore", seat=0, seed=5)
    state = seat.state
    version = state["version"]
    legal = [m["move"] for m in state["view"]["moves"]]
    illegal = next(m for m in range(486) if m not in legal)
    before = snapshot(seat)
    cases = [
        ({"move": illegal, "version": version}, 400, "illegal move"),
        ({"move": legal[0], "version": version + 1}, 409, "stale move"),
        ({"move": "pass", "version": version}, 400, "bad move"),
        ({"move": True, "version": version}, 400, "bad move"),
        ({"move": 9999, "version": version}, 400, "bad move"),
        ({"version": version}, 400, "move and version"),
        ({"move": legal[0], "version": version, "cheat": 1}, 400, "unknown field"),
        # every field is checked before the move is made (a bad `since` once moved anyway)
        ({"move": legal[0], "version": version, "since": -3}, 400, "bad since -3"),
        ({"move": legal[0], "version": version, "since": 10 ** 6}, 400, "bad since"),
    ]
    for body, status, words in cases:
        response = seat.post("move", body)
        assert response.status_code == status, body
        assert words in response.json()["error"] and "\n" not in response.json()["error"]
        assert snapshot(seat) == before
    for raw in (b"{not json", b"[1, 2", b"\xff"):
        response = client.post(f"/api/games/{seat.id}/move", content=raw,
                               headers={**seat.headers, "Content-Type": "application/json"})
        assert response.status_code == 400 and "malformed JSON" in response.json()["error"]
        assert snapshot(seat) == before
    response = client.post("/api/games/999/move", json={"move": legal[0], "version": version},
                           headers=seat.headers)
    assert response.status_code == 404 and "no such table" in response.json()["error"]
    response = seat.post("next", {"version": version})
    assert response.status_code == 409 and "not over" in response.json()["error"]
    assert snapshot(seat) == before


@pytest.mark.parametrize("body, words", [
    ({"game": "chess"}, "unknown game 'chess'; valid: mediatore"),
    ({}, "game is missing"),
    ({"game": "mediatore", "seat": 4}, "bad seat 4; valid: 0-3"),
    ({"game": "tressette2", "seat": 2}, "bad seat 2; valid: 0-1"),
    ({"game": "mediatore", "agents": ["greedy"]}, "a list of 4 agent names"),
    ({"game": "mediatore", "agents": [None] + ["nobody"] * 3}, "unknown agent 'nobody'"),
    ({"game": "mediatore", "agents": [None, "greedy", "greedy", 7]}, "agent at seat 3: 7 is not"),
    ({"game": "mediatore", "rules": {"wings": True}}, "bad rules for mediatore"),
    ({"game": "tressette", "rules": {"players": 3}}, "tressette fixes players"),
    # "rules" is no switch: not a preset by the back door of make_rules' first argument
    ({"game": "mediatore", "rules": {"rules": "low"}}, "unknown rules switch(es) 'rules'"),
    ({"game": "mediatore", "rules": {"rules": {"signals": "off"}}}, "switch(es) 'rules'"),
    ({"game": "club", "rules": {"deals": "3"}}, "bad rules for club"),
    ({"game": "mediatore", "packs": [[0] * 40]}, "bad pack"),
    ({"game": "mediatore", "seed": "x"}, "bad seed"),
    ({"game": "mediatore", "seed": -1}, "bad seed -1"),
    ({"game": "mediatore", "seed": 2 ** 64}, "bad seed"),
    ({"game": "mediatore", "cards": "klingon"}, "bad cards 'klingon'; valid: english, italian, short"),
    ({"game": "mediatore", "cards": "french"}, "bad cards 'french'"),  # not the faces' suits
    ({"game": "mediatore", "cards": ["italian"]}, "bad cards"),
])
def test_bad_tables_are_refused_in_one_line(client, body, words):
    response = client.post("/api/games", json=body)
    assert response.status_code == 400
    assert words in response.json()["error"] and "\n" not in response.json()["error"]
    assert client.app.state.lobby.tables == {}  # no table was made


@pytest.mark.parametrize("game", PLAYABLE)
def test_every_switch_is_typed_for_the_form_and_its_default_is_valid(client, game):
    """The page draws each switch's input from its kind; each kind's default (and a value of
    each choice) makes a table, so every game starts from the page with any valid setting."""
    (info,) = [g for g in client.get("/api/games").json()["games"] if g["name"] == game]
    entry = get(game)
    assert [s["name"] for s in info["switches"]] == [
        k for k in entry.make_rules().to_dict() if k not in entry.fixed]
    for switch in info["switches"]:
        assert switch["kind"] in ("bool", "choice", "int", "optional int", "text")
        values = {"bool": [True, False], "choice": switch.get("choices"),
                  "int": [switch["default"], 2], "optional int": [None, 3],
                  "text": [switch["default"]]}[switch["kind"]]
        for value in values:
            try:  # a switch may clash with another's default (Mediatore's low schedule)
                entry.make_rules(**{switch["name"]: value})
                valid = True
            except ValueError:
                valid = False
            response = client.post("/api/games", json={
                "game": game, "rules": {switch["name"]: value}, "agents": None})
            assert response.status_code == (200 if valid else 400), (switch, value)
        assert client.post("/api/games", json={  # the form's defaults, as it sends them
            "game": game, "rules": {s["name"]: s["default"] for s in info["switches"]},
            "agents": None}).status_code == 200


def test_club_starts_with_its_switches_as_the_form_sends_them(client):
    """club's deals switch is an optional int: the form sends null or a number (it once sent
    the text "null", which no club table accepted)."""
    (club,) = [g for g in client.get("/api/games").json()["games"] if g["name"] == "club"]
    kinds = {s["name"]: s["kind"] for s in club["switches"]}
    assert kinds == {"ante": "int", "deals": "optional int"}
    seat = new_table(client, "club", rules={"ante": 3, "deals": 1})
    table = client.app.state.lobby.tables[seat.id]
    assert table.rules.deals == 1 and table.rules.ante == 3
    rng = random.Random(1)
    while not seat.state["view"]["over"]:
        seat.move(rng.choice([m["move"] for m in seat.state["view"]["moves"]]))
    assert table.game.is_over and len(table.game.results) == 1


def test_a_table_names_the_cards_as_its_creator_chose(client):
    """Italian names (the cards' faces have the Italian letters) in the hand's news, the
    moves and the panels; the default is English."""
    english = new_table(client, "tressette2", seed=4)
    italian = new_table(client, "tressette2", seed=4, cards="italian")
    for seat, word in ((english, " of "), (italian, " di ")):  # "3 of batons", "3 di Bastoni"
        view = seat.state["view"]
        assert all(word in c["text"] for c in view["hand"])
        assert all(word in m["words"] for m in view["moves"])
        lead = [line for e in seat.state["events"] for line in e["lines"] if "leads" in line]
        assert lead and word in lead[0], lead


def test_a_melds_cards_are_named_as_the_creator_chose(client):
    """A meld's cards, in the news ("declares three threes ...") and in a hand's end, in the
    table's card words as every other card: once "three threes (D3 C3 B3)" in English."""
    codes = re.compile(r"\b[DCSB][2-7ARCF]\b")
    for seed in range(1, 30):
        seat = new_table(client, "tressette", seed=seed, agents="greedy")
        events = list(seat.state["events"])
        while not seat.state["view"]["over"] and not any(e["kind"] == "stop" for e in events):
            events += seat.move(seat.state["view"]["moves"][0]["move"])["events"]
        declared = [line for e in events for line in e["lines"] if " declare" in line]
        ends = [part for e in events if e.get("end") for part in e["end"]["parts"]
                if part["label"] == "melds"]
        if declared and ends:
            break
    else:
        pytest.fail("no seed gave a hand with melds")
    for line in declared + [line for part in ends for line in part["lines"]]:
        assert " of " in line and not codes.search(line), line


def test_two_tables_stay_apart(client):
    a = new_table(client, "mediatore", seed=1)
    b = new_table(client, "tressette2", seed=2)
    assert a.id != b.id and a.token != b.token
    b_before = snapshot(b)
    while not a.state["view"]["over"]:
        a.move(a.state["view"]["moves"][0]["move"])
    assert snapshot(b) == b_before
    # a move of table a sent to table b is checked against b alone
    response = b.post("move", {"move": 0, "version": a.state["version"]})
    assert response.status_code in (400, 409) and snapshot(b) == b_before


def test_the_same_packs_give_the_same_deal_and_next_deals_go_on(client):
    pack = list(range(40))
    one = new_table(client, "mediatore", packs=[pack])
    two = new_table(client, "mediatore", packs=[pack], seed=9)
    assert one.state["view"]["hand"] == two.state["view"]["hand"]
    while not one.state["view"]["over"]:
        one.move(one.state["view"]["moves"][-1]["move"])
    totals = one.state["totals"]
    state = one.next()
    assert state["episode"] == 2 and state["totals"] == totals and not state["view"]["over"]


def played_record(game: str, seed: int) -> dict:
    import numpy as np
    entry = get(game)
    g, rng = entry.new_game(), np.random.default_rng(seed)
    while not g.is_over:
        if g.to_move == CHANCE:
            g.deal(rng.permutation(40).tolist())
        else:
            legal = g.legal_moves()
            g.apply(legal[rng.integers(len(legal))])
    return g.record(agents=["random"] * g.players)


@pytest.mark.parametrize("game", PLAYABLE)
def test_a_record_is_stepped_through_to_its_result(client, game):
    record = played_record(game, 3)
    response = client.post("/api/records", json=record)
    assert response.status_code == 200, response.text
    (info,) = response.json()["records"]
    steps = info["steps"]
    last = client.get(f"/api/records/{info['id']}?step={steps}&seat=open").json()
    assert len(last["views"]) == get(game).players
    assert last["views"][0]["outcome"] == last["recorded_outcome"]
    assert last["recorded_outcome"] == list(record_outcome(record))
    first = client.get(f"/api/records/{info['id']}?step=1&seat=0").json()
    assert len(first["views"]) == 1 and first["views"][0]["outcome"] is None
    assert first["lines"]  # the pack just dealt, as seat 0 saw it
    for query, words in ((f"step={steps + 1}", "bad step"), ("step=x", "bad step 'x'"),
                         ("seat=9", "bad seat 9")):
        response = client.get(f"/api/records/{info['id']}?{query}")
        assert response.status_code == 400 and words in response.json()["error"]


def record_outcome(record):
    from mediatore_env.registry import replay
    return replay(record).outcome


def test_bad_records_are_refused(client):
    record = played_record("tressette2", 1)
    record["moves"] = record["moves"][1:]  # every move a step out of place
    for body, words in (({"format": "x"}, "not a game record"), ([], "empty list"),
                        (record, "not a valid game record")):
        response = client.post("/api/records", json=body)
        assert response.status_code == 400 and words in response.json()["error"], body
    assert client.get("/api/records").json()["records"] == []


def test_command_line_errors_are_one_line(capsys, tmp_path):
    assert main(["--port", "70000", "--no-history"]) == 2
    assert capsys.readouterr().err.strip().count("\n") == 0
    assert main(["--records", str(tmp_path / "nothing.json"), "--no-history"]) == 2
    err = capsys.readouterr().err
    assert "no such file" in err and err.strip().count("\n") == 0
    (tmp_path / "folder").mkdir()
    (tmp_path / "empty.json").write_text("")
    for argv, words in ((["--records", "", "--no-history"], "--records: an empty path"),
                        (["--export", ""], "--export: an empty path"),
                        # not every address, with a warning that named none ("serving on :")
                        # (and before the records: without the check, the server would start)
                        (["--host", "", "--no-history", "--records", str(tmp_path / "no.json")],
                         "--host: an empty address"),
                        (["--db", "/proc/h.sqlite3"], "/proc/h.sqlite3: cannot open a database there"),
                        # an export reads a history: it makes none where there was none
                        (["--db", str(tmp_path / "new.sqlite3"), "--export", str(tmp_path / "e.jsonl")],
                         "new.sqlite3: no history there"),
                        (["--db", str(tmp_path / "empty.json"), "--export", str(tmp_path / "e.jsonl")],
                         "empty.json: no history there"),
                        (["--db", str(tmp_path / "folder"), "--export", str(tmp_path / "e.jsonl")],
                         "folder: no history there"),
                        (["--db", str(tmp_path / "h.sqlite3"), "--no-history"],
                         "--db names the history's file and --no-history keeps none")):
        assert main(argv) == 2, argv
        err = capsys.readouterr().err
        assert words in err and err.strip().count("\n") == 0, (argv, err)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["empty.json", "folder"]
    assert (tmp_path / "empty.json").read_text() == ""  # not made a database


@pytest.mark.parametrize("game", ["mediatore", "club"])
def test_a_record_checked_in_a_worker_process_comes_back_whole(game):
    """The server checks uploaded records (and the history's) in its pool of processes: the
    Watch made there is pickled back (its game's display module goes by the game's name)."""
    import pickle
    from mediatore_env.web.tables import Watch
    watch = Watch(played_record(game, 2), "a label")
    back = pickle.loads(pickle.dumps(watch))
    assert back.definition is watch.definition and back.at(7, 1) == watch.at(7, 1)
