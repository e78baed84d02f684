"""mediatore-replay: stepping through records from the engine tests, the tournament and
mediatore-play; one seat's view only; bad files refused with a clear message."""

import copy
import io
import json
import re

import pytest
from packs import SIX_DENARI, SIX_DENARI_MONTE, make_deal, play
from test_records import finished  # the Mediatore deal of the engine's record tests

from mediatore_env.mediatore.records import make_record, save_record
from mediatore_env.tools.replay import BadRecord, load_records, main


def run(args, answers=None):
    """main() with output captured; ``answers`` given: interactive, answering from the list."""
    out = io.StringIO()
    if answers is None:
        return main(args, out=out, interactive=False), out.getvalue()
    answers = list(answers)

    def ask(prompt):
        out.write(prompt + "\n")
        if not answers:
            raise EOFError
        return answers.pop(0)
    return main(args, ask=ask, out=out, interactive=True), out.getvalue()


@pytest.fixture
def record_file(tmp_path):
    path = tmp_path / "mediatore.json"
    save_record(make_record(finished(), agents=["greedy", "random", "random", "greedy"]), path)
    return path


def test_stops_after_auction_exchange_and_each_trick(record_file):
    _, text = run([str(record_file)])
    labels = re.findall(r"^-- (.+?) -+$", text, re.M)
    assert labels == ["auction", "exchange"] + [f"trick {n}" for n in range(1, 9)] + ["end"]


def test_replay_of_an_engine_record_shows_every_trick_and_the_result(record_file):
    status, text = run([str(record_file)])
    assert status == 0
    assert "seen by everyone: the open table" in text
    assert "  greedy(0)  D3 D2 DA DR DC DF · C4 · S4 · B4" in text  # hands as dealt
    assert "greedy(0) calls 3 of cups (C3)." in text
    assert "random(1) holds it and gives it openly to greedy(0)." in text
    assert "greedy(0) discards D7 D6 D5 D4 as the new monte." in text
    assert "greedy(0) passes 3 of cups (C3) to random(1)." in text
    for n in range(1, 9):
        assert f"-- trick {n} " in text
    assert "  greedy(0)  leads 3 of coins (D3), busso" in text
    assert "-> trick 9 to random(1), 3 points" in text
    assert "declarer's side 6 -> 6 points, defenders 5 2/3 -> 5: contract WON" in text
    assert "payoffs: greedy(0) +22 · random(1) -6 · random(2) -8 · greedy(3) -8" in text
    assert "Traceback" not in text


def test_one_seats_view_shows_only_what_it_knew(record_file):
    status, text = run([str(record_file), "--seat", "2"])
    assert status == 0
    assert "seen by random(2) (seat 2) only" in text
    result = text.split("the result")[1]
    body = text[:text.index("-- end")]
    assert "greedy(0) discards 4 cards face down." in body
    assert "greedy(0) passes a card face down to random(1)." in body
    assert "D3 D2 DA" not in body  # seat 0's hand is not shown
    assert "random(2) holds: - · - · S3 S2 SA SR SC SF S6 S5 · -" in body
    assert "passed back to random(1): C3" in result  # the full result at the end


def test_interactive_stepping_enter_all_and_quit(record_file):
    status, text = run([str(record_file)], ["", "q"])
    assert status == 0 and "-- auction" in text and "-- exchange" not in text
    _, text = run([str(record_file)], ["", "", "a"])
    assert "-- trick 8" in text and text.count("[Enter] next") == 3
    _, text = run([str(record_file)], [])  # Ctrl-D at the first question
    assert "-- auction" not in text


def test_a_play_record_replayed_from_the_humans_seat(tmp_path):
    from mediatore_env.tools.play import main as play_main
    path = tmp_path / "played.json"
    answers = iter(["arcisolissimo"])
    play_main(["--agents", "random:bid_rate=0", "--seed", "3", "--save", str(path)],
              ask=lambda prompt: next(answers, "1"), out=io.StringIO())
    status, text = run([str(path), "--seat", "0", "--cards", "french"])
    assert status == 0
    assert "from mediatore-play, seed 3, deal 0" in text
    assert "You        bid arcisolissimo" in text
    assert "== " + str(path) + ": the result" in text


def test_tournament_records_folder(tmp_path):
    from mediatore_env.tools.bench import main as bench
    bench(["--agents", "random", "random", "random", "random", "--deals", "2", "--seed", "5",
           "--save-records", str(tmp_path), "--record-deals", "1", "--quiet"])
    files = sorted(tmp_path.glob("*.json"))
    assert len(files) == 4  # deal 1, its four rotations
    status, text = run([str(tmp_path)])
    assert status == 0
    assert text.count("seen by everyone") == 4
    assert "seed 5, deal 1, lineup 0, rotation 3" in text


def test_a_list_of_records_and_a_thrown_in_deal(tmp_path):
    thrown = make_record(play(make_deal(SIX_DENARI, SIX_DENARI_MONTE), "pass", "pass", "pass", "pass"))
    path = tmp_path / "two.json"
    path.write_text(json.dumps([make_record(finished()), thrown]))
    assert len(load_records(path)) == 2
    status, text = run([str(path)])
    assert status == 0
    assert f"== {path} #1 " in text and f"== {path} #2 " in text
    assert "All four passed: the deal is thrown in." in text


def tampered(change):
    record = copy.deepcopy(make_record(finished()))
    change(record)
    return record


@pytest.mark.parametrize("content,words", [
    (None, "no such file"),
    ("{not json", "not JSON"),
    ("[1, 2]", "(record 0): not a game record (expected a JSON object)"),
    (json.dumps({"format": "chess-pgn"}), "not a game record: format is 'chess-pgn'"),
    (json.dumps(tampered(lambda r: r["result"].update(payoffs=[0, 0, 0, 0]))),
     "not a valid game record: result differs at 'payoffs'"),
    (json.dumps(tampered(lambda r: r["moves"][10].update(move="play SA"))),
     "not a valid game record: move 10: illegal move 'play SA'"),
    (json.dumps(tampered(lambda r: r.pop("pack"))), "not a valid game record: a field missing or of the wrong kind (KeyError"),
    (json.dumps(tampered(lambda r: r["moves"].pop())), "moves do not finish the deal"),
])
def test_bad_files_get_a_clear_error(tmp_path, capsys, content, words):
    path = tmp_path / "bad.json"
    if content is not None:
        path.write_text(content)
    status, text = run([str(path)])
    err = capsys.readouterr().err
    assert status == 2 and text == ""
    assert err.startswith(f"mediatore-replay: error: {path}")
    assert words in err
    assert "Traceback" not in err


def test_a_file_past_the_bound_is_refused_before_it_is_read_whole(tmp_path, monkeypatch):
    """/dev/zero given as a record was read until memory ran out: a file (or standard input)
    over MAX_RECORDS_FILE is refused naming the bound, and one at the bound is read."""
    text = json.dumps(make_record(finished()))
    monkeypatch.setattr("mediatore_env.tools.replay.MAX_RECORDS_FILE", len(text))
    (tmp_path / "at.json").write_text(text)
    assert len(load_records(tmp_path / "at.json")) == 1
    (tmp_path / "over.json").write_text(text + " ")
    with pytest.raises(BadRecord, match=rf"over.json: over {len(text):,} characters, more than "
                                        "files of records are; split it"):
        load_records(tmp_path / "over.json")
    monkeypatch.setattr("sys.stdin", io.StringIO(text + " "))
    with pytest.raises(BadRecord, match=f"standard input: over {len(text):,} characters"):
        load_records("-")


def test_empty_folder(tmp_path, capsys):
    assert run([str(tmp_path)])[0] == 2
    assert "no .json files in this folder" in capsys.readouterr().err


def test_load_records_raises_bad_record(tmp_path):
    with pytest.raises(BadRecord):
        load_records(tmp_path / "missing.json")


def test_standard_input(monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(make_record(finished()))))
    status, text = run(["-"])
    assert status == 0 and "== - " in text and "contract WON" in text


def test_environment_records(tmp_path):
    import random

    from mediatore_env import mediatore_v0
    env = mediatore_v0.env(deals=2)
    env.reset(seed=4)
    rng = random.Random(4)
    for name in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        legal = [a for a, ok in enumerate(obs["action_mask"]) if ok]
        env.step(None if terminated or truncated else rng.choice(legal))
    path = tmp_path / "episode.json"
    path.write_text(json.dumps(env.unwrapped.records))
    status, text = run([str(path), "--seat", "3"])
    assert status == 0 and f"== {path} #2 " in text and text.count("seen by seat 3 only") == 2
