"""mediatore-web's history (SQLite): every finished episode is saved with who sat where; the
database survives a restart of the server; a writer killed in the middle of a save leaves it
readable and without a half-saved episode; the schema migrates step by step and refuses a
newer one; the export's records replay to the saved outcomes and feed the training tools;
the results per name have intervals; the history's routes refuse what is not theirs."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="mediatore-web needs the web extra: pip install '.[web]'")
pytest.importorskip("httpx2", reason="Starlette's TestClient needs httpx2 (the web extra)")

from concurrent.futures import ThreadPoolExecutor  # noqa: E402

from starlette.testclient import TestClient  # noqa: E402

from agents.tournament import mean_ci  # noqa: E402
from mediatore_env.registry import replay  # noqa: E402
from mediatore_env.tools.replay import load_records  # noqa: E402
from mediatore_env.web.app import create_app, main  # noqa: E402
from mediatore_env.web.history import MIGRATIONS, History, HistoryError, export  # noqa: E402
from test_web import new_table, played_record  # noqa: E402

URL = "http://127.0.0.1:8765"
ROOT = Path(__file__).resolve().parents[1]


def serve(path):
    """The app over the history at ``path``, agents on threads."""
    pool = ThreadPoolExecutor(2)
    return TestClient(create_app(executor=pool, history=History(path)), base_url=URL), pool


def play_to_the_end(seat) -> dict:
    while not seat.state["view"]["over"]:
        seat.move(seat.state["view"]["moves"][0]["move"])
    return seat.state


def test_a_finished_deal_is_saved_and_survives_a_restart(tmp_path):
    path = tmp_path / "history.sqlite3"
    client, pool = serve(path)
    with pool, client:
        seat = new_table(client, "mediatore", seed=4, agents="random")
        final = play_to_the_end(seat)
        table = client.app.state.lobby.tables[seat.id]
    # the server stopped (its saves finished): a new one over the same file
    client, pool = serve(path)
    with pool, client:
        listing = client.get("/api/history").json()
        assert listing["kept"] and len(listing["episodes"]) == 1
        (episode,) = listing["episodes"]
        assert episode["game"] == "mediatore" and episode["persons"] == [0]
        assert episode["names"] == ["player 0", "random(1)", "random(2)", "random(3)"]
        assert episode["outcome"] == final["view"]["outcome"]
        saved = client.get(f"/api/history/{episode['id']}").json()
        assert replay(saved["record"]) == table.game
        assert saved["record"]["meta"]["names"] == episode["names"]
        # it opens in Watch, named by the names at the table
        watch = client.post(f"/api/history/{episode['id']}/watch", json={}).json()
        assert "player 0, random(1)" in watch["label"] and watch["names"] == episode["names"]
        last = client.get(f"/api/records/{watch['id']}?step={watch['steps']}&seat=open").json()
        assert last["views"][0]["outcome"] == episode["outcome"]
        assert client.get("/api/history?game=tressette").json()["episodes"] == []
        assert len(client.get("/api/history?name=random(2)").json()["episodes"]) == 1
        for path_, status in (("/api/history/99", 404), ("/api/history/x", 404),
                              ("/api/history?limit=0", 400), ("/api/history?name=" + "x" * 99,
                                                              400)):
            response = client.get(path_)
            assert response.status_code == status and "error" in response.json(), path_
        assert client.post("/api/history/99/watch", json={}).status_code == 404
        response = client.post(f"/api/history/{episode['id']}/watch", json={},
                               headers={"Origin": "http://evil.example"})
        assert response.status_code == 403


def test_without_a_history_nothing_is_kept_and_the_routes_say_so():
    with ThreadPoolExecutor(1) as pool, TestClient(create_app(executor=pool),
                                                   base_url=URL) as client:
        assert client.get("/api/history").json() == {"kept": False, "episodes": []}
        assert client.get("/api/results").json() == {"kept": False, "results": []}
        assert client.get("/api/history/1").status_code == 404


WRITER = textwrap.dedent("""
    import json, os, sys, time
    sys.path[:0] = [{root!r}, {tests!r}]
    from mediatore_env.registry import replay
    from mediatore_env.web.history import History
    from test_web import played_record
    history = History(sys.argv[1])
    for seed in range(3):
        record = played_record("tressette2", seed)
        history.save(record, ["Anna", "greedy"], [0], list(replay(record).outcome), "game")
    def stop_mid_save(statement):
        if statement.lstrip().upper().startswith("INSERT INTO SEATS"):
            print("mid-save", flush=True)
            time.sleep(60)  # killed here: the episode is written, its seats are not
    history.db.set_trace_callback(stop_mid_save)
    record = played_record("tressette2", 9)
    history.save(record, ["Anna", "greedy"], [0], [1, -1], "game")
    print("saved", flush=True)
""")


def test_a_writer_killed_mid_save_leaves_no_half_saved_episode(tmp_path):
    path = tmp_path / "history.sqlite3"
    script = WRITER.format(root=str(ROOT), tests=str(ROOT / "tests"))
    proc = subprocess.Popen([sys.executable, "-c", script, str(path)], stdout=subprocess.PIPE,
                            text=True)
    try:
        line = proc.stdout.readline()
        assert line.strip() == "mid-save", line
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.wait(30)
    assert proc.returncode == -signal.SIGKILL
    with sqlite3.connect(path) as db:  # readable, whole
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        assert db.execute("SELECT COUNT(*) FROM episodes").fetchone() == (3,)
        assert db.execute("SELECT COUNT(*) FROM seats WHERE episode NOT IN "
                          "(SELECT id FROM episodes)").fetchone() == (0,)
        assert db.execute("SELECT COUNT(*) FROM episodes WHERE id NOT IN "
                          "(SELECT episode FROM seats)").fetchone() == (0,)
    history = History(path)  # and the server opens it and goes on saving
    assert [len(e["names"]) for e in history.episodes()] == [2, 2, 2]
    for _, record in history.records():
        replay(record)
    record = played_record("tressette2", 9)
    history.save(record, ["Anna", "greedy"], [0], list(replay(record).outcome), "game")
    assert history.count() == 4


def test_the_schema_migrates_step_by_step_and_refuses_a_newer_one(tmp_path):
    path = tmp_path / "old.sqlite3"
    old = History(path, migrations=MIGRATIONS[:1])
    record = played_record("tressette2", 1)
    old.save(record, ["Anna", "greedy"], [0], list(replay(record).outcome), "game")
    old.close()
    later = [*MIGRATIONS, ["ALTER TABLE episodes ADD COLUMN note TEXT"]]
    new = History(path, migrations=later)
    assert new.version == len(later) and new.count() == 1
    assert new.db.execute("SELECT note FROM episodes").fetchall() == [(None,)]
    new.close()
    with pytest.raises(HistoryError, match="newer than this server"):
        History(path)  # a database of a later version of the server is not changed
    assert History(path, migrations=later).count() == 1
    (tmp_path / "junk.sqlite3").write_bytes(b"not a database at all" * 100)
    with pytest.raises(HistoryError, match="not a history database"):
        History(tmp_path / "junk.sqlite3")


def fill(history: History) -> list[dict]:
    """Six Tressette-2 games: Anna against greedy four times, against random twice."""
    records = []
    for seed in range(6):
        record = played_record("tressette2", seed)
        opponent = "greedy" if seed < 4 else "random"
        outcome = list(replay(record).outcome)
        record["meta"] = {"names": ["Anna", opponent], "agents": [None, opponent]}
        history.save(record, ["Anna", opponent], [0], outcome, "game")
        records.append(record)
    return records


def test_the_export_replays_to_the_saved_outcomes_and_feeds_the_tools(tmp_path):
    history = History(tmp_path / "h.sqlite3")
    records = fill(history)
    assert export(history, tmp_path / "all.jsonl") == 6
    lines = (tmp_path / "all.jsonl").read_text().splitlines()
    saved = {e["id"]: e["outcome"] for e in history.episodes()}
    for hid, line in zip(sorted(saved), lines):
        assert list(replay(json.loads(line)).outcome) == saved[hid]
    assert export(history, tmp_path / "folder", name="random") == 2
    files = sorted((tmp_path / "folder").glob("*.json"))
    assert [f.name for f in files] == ["000005-tressette2.json", "000006-tressette2.json"]
    assert load_records(tmp_path / "folder") == records[4:]  # what mediatore-replay reads
    # the command: --export, with its filters
    assert main(["--db", str(tmp_path / "h.sqlite3"), "--export", str(tmp_path / "g.jsonl"),
                 "--game", "tressette2"]) == 0
    assert len((tmp_path / "g.jsonl").read_text().splitlines()) == 6
    assert main(["--game", "mediatore"]) == 2  # a filter without --export


def test_a_mediatore_deal_played_by_people_becomes_demonstrations(tmp_path):
    """agents.demos reads the exported records: every decision with a choice, by the persons'
    seats, as the seat saw it, with the seat's payment."""
    from agents.demos import demos_of_records, load_demos
    record = played_record("mediatore", 2)
    record["meta"] = {"names": ["Anna", "greedy", "Bruno", "greedy"], "persons": [0, 2]}
    deal = replay(record)
    assert demos_of_records([record], tmp_path / "demos-000.npz") > 0
    demos = load_demos(tmp_path)
    assert set(demos["seat"].tolist()) == {0, 2}
    for move, mask, seat, payoff in zip(demos["move"], demos["mask"], demos["seat"],
                                        demos["payoff"]):
        assert mask[move] and mask.sum() > 1 and payoff == deal.payoffs[seat]


def test_a_seed_kept_by_an_older_server_is_not_served(tmp_path):
    # Older servers wrote the table's seed into each record, and the seed deals every
    # pack of the table: an old history must not give it away.
    history = History(tmp_path / "h.sqlite3")
    record = played_record("tressette2", 1)
    record["meta"] = {"names": ["Anna", "greedy"], "seed": 8734512987}
    hid = history.save(record, ["Anna", "greedy"], [0], list(replay(record).outcome), "game")
    with ThreadPoolExecutor(1) as pool, TestClient(create_app(
            executor=pool, history=history), base_url=URL) as client:
        served = client.get(f"/api/history/{hid}")
        assert served.status_code == 200 and "8734512987" not in served.text
        assert served.json()["record"]["meta"]["names"] == ["Anna", "greedy"]


def test_results_per_name_have_intervals(tmp_path):
    history = History(tmp_path / "h.sqlite3")
    fill(history)
    results = history.results(name="Anna")
    (anna,) = [r for r in results["results"] if r["name"] == "Anna"]
    outcomes = [e["outcome"][0] for e in history.episodes()]
    mean, low, high = mean_ci(outcomes)  # summed by SQLite, the same as the tournaments'
    assert anna["games"] == 6 and anna["mean"] == pytest.approx(mean)
    assert (anna["low"], anna["high"]) == pytest.approx((low, high))
    against = {r["other"]: r for r in results["against"]}
    assert against["greedy"]["games"] == 4 and against["random"]["games"] == 2
    assert against["greedy"]["mean"] == pytest.approx(sum(outcomes[2:]) / 4)  # newest first
    assert not against["greedy"]["person"]
    # kept until the next save, then summed again
    assert history.results(name="Anna") == results
    record = played_record("tressette2", 6)
    history.save(record, ["Anna", "random"], [0], list(replay(record).outcome), "game")
    again = {r["other"]: r for r in history.results(name="Anna")["against"]}
    assert again["random"]["games"] == 3 and again["greedy"] == against["greedy"]
    with ThreadPoolExecutor(1) as pool, TestClient(create_app(
            executor=pool, history=history), base_url=URL) as client:
        answer = client.get("/api/results?name=Anna&game=tressette2").json()
        now = history.results(name="Anna", game="tressette2")["against"]
        assert answer["kept"] and answer["against"] == json.loads(json.dumps(now))
        assert client.get("/api/results?game=" + "x" * 50).status_code == 400


@pytest.mark.parametrize("own_moves", [0, 1])
def test_an_episode_a_stand_in_played_whole_is_not_its_persons(own_moves):
    """Bruno takes seat 2 and goes: his stand-in makes every move of the deal. The history
    credits the stand-in, not Bruno, as for a seat nobody took; one move of his own, and
    the deal is his."""
    from mediatore_env.web.lobby import Lobby
    now = [0.0]
    lobby = Lobby(clock=lambda: now[0])
    with ThreadPoolExecutor(1) as pool, TestClient(create_app(
            executor=pool, lobby=lobby, history=History(":memory:")), base_url=URL) as c:
        anna = new_table(c, "mediatore", seed=None, agents=["random", None, "random"],
                         name="Anna", stand_in={"agent": "random", "after": 1})
        code = anna.state["join"][2]
        response = c.post(f"/api/games/{anna.id}/join",
                          json={"seat": 2, "code": code, "name": "Bruno"})
        assert response.status_code == 200, response.text
        table = lobby.tables[anna.id]
        while table.thinking:
            time.sleep(0.01)
        table.thinking = True  # the test plays the table: the server's timers leave it be
        now[0] = 10.0  # Bruno away: his stand-in moves for him (Anna is here)
        moved = 0
        while not table.game.is_over:
            table.saw(0)
            if table.game.to_move == 2 and moved < own_moves:
                table.saw(2)  # Bruno, back for a move
                moved += 1
            turn = table.agent_turn()
            if turn is None:  # a person's own move
                table.move(table.game.legal_moves()[0], table.game.to_move)
            else:
                seat, agent, game, _ = turn
                table.agent_moved(seat, game.legal_moves()[0], agent)
            now[0] += 10.0
        table.thinking = False
        assert any(s == 2 for s, _ in table.game.history)
        (episode,) = c.get("/api/history").json()["episodes"]
        bruno = [(r["person"], r["games"]) for r in c.get("/api/results?name=Bruno").json()[
            "results"] if r["name"] == "Bruno"]
        if own_moves:
            assert episode["persons"] == [0, 2] and episode["names"][2] == "Bruno"
            assert bruno == [(True, 1)]
        else:
            assert episode["persons"] == [0] and episode["names"][2] == "random"
            assert bruno == []
            record = c.get(f"/api/history/{episode['id']}").json()["record"]
            assert record["meta"]["persons"] == [0] and record["meta"]["agents"][2] == "random"


def test_a_save_that_fails_is_told_and_the_table_plays_on(tmp_path, capsys):
    """A full disk or a read-only file: the server says so on its error stream; the table
    goes on to its next deal."""
    class Full(History):
        def save(self, *args, **kwargs):
            raise OSError(28, "No space left on device")
    with ThreadPoolExecutor(2) as pool, TestClient(create_app(
            executor=pool, history=Full(tmp_path / "h.sqlite3")), base_url=URL) as client:
        seat = new_table(client, "mediatore", seed=5)
        play_to_the_end(seat)
        assert seat.next()["episode"] == 2
    assert "could not save an episode: OSError" in capsys.readouterr().err
