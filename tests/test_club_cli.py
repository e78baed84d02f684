"""The command-line tools with ``--game club``: a tournament's report, a session played at the
terminal and saved, its replay, and one-line errors for bad arguments."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from mediatore_env.club.records import replay
from mediatore_env.tools import bench, play
from mediatore_env.tools import replay as replay_tool
from mediatore_env import registry
from mediatore_env.tools.answers import read_answer, reader_of
from mediatore_env.tools.terminal import BadInput
from mediatore_env.club.moves import ACCEPT, PASS, call_move, card_of_move, parse_move
from mediatore_env.core.cards import CARD_NAMES

ROOT = Path(__file__).resolve().parent.parent


def test_bench_reports_chips_per_session_and_saves(tmp_path, capsys):
    out = tmp_path / "o.json"
    assert bench.main(["--game", "club", "--agents", "greedy", "random", "greedy", "random",
                       "--deals", "6", "--seed", "2", "--json", str(out), "--save-records",
                       str(tmp_path / "recs"), "--quiet"]) == 0
    text = capsys.readouterr().out
    assert "6 sessions x 4 rotations" in text and "chips/session" in text
    data = json.loads(out.read_text())
    assert data["format"] == "club-mediatore-tournament" and len(data["standings"]) == 2
    records = sorted((tmp_path / "recs").glob("*.json"))
    assert len(records) == 4 and replay(json.loads(records[0].read_text())).is_over


def test_bench_counts_one_session_of_one_deal_in_the_singular(capsys):
    assert bench.main(["--game", "club", "--agents", "greedy", "random", "greedy", "random",
                       "--deals", "1", "--rule", "deals=1", "--quiet"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("Duplicate club Mediatore tournament: 1 session x 4 rotations = 4 "
                           "sessions played (4 deals); seed 0; rules: ante 5, 1 deal (at most 1)\n")
    assert "s with 1 job\n" in text


def test_bench_saves_the_chosen_sessions_as_they_were_played(tmp_path):
    from agents.base import play
    from agents.club import make_club_agent
    from agents.club.tournament import HOOKS
    from agents.tournament import derive_seed, rotate
    from mediatore_env.club.game import Session
    from mediatore_env.club.records import load_record, make_record
    from mediatore_env.club.rules import ClubRules
    lineup = ["greedy", "random", "greedy", "random"]
    recs = tmp_path / "recs"
    assert bench.main(["--game", "club", "--agents", *lineup, "--deals", "3", "--seed", "4",
                       "--session-deals", "2", "--save-records", str(recs), "--record-deals",
                       "0,2", "--quiet"]) == 0
    names = sorted(p.name for p in recs.iterdir())
    assert names == [f"session{i:05d}_rot{r}.json" for i in (0, 2) for r in range(4)]
    rules = ClubRules(deals=2)
    slots = [make_club_agent(name) for name in lineup]  # one agent per slot, as played
    for index in (0, 2):
        for r in range(4):
            # The session again, by hand: its packs, first dealer, seats and agents' seeds.
            seated = rotate(slots, r)
            packs = [HOOKS.pack(4, index, j) for j in range(2)]
            session = play(Session(rules, HOOKS.dealer(index, 4), packs), seated,
                           seeds=[derive_seed(4, index, s) for s in range(4)])
            played = make_record(session, agents=[a.name for a in seated], session_index=index,
                                 rotation=r, seed=4)
            path = recs / f"session{index:05d}_rot{r}.json"
            saved = load_record(path)
            assert saved == json.loads(json.dumps(played))  # every move, pack and chip
            assert replay(saved).chips == session.chips
    shown = io.StringIO()
    assert replay_tool.main([str(recs / "session00002_rot1.json"), "--all"], out=shown) == 0
    assert "club Mediatore" in shown.getvalue() and "session: chips" in shown.getvalue()


def test_bench_on_ray_gives_the_standings_and_records_of_one_process(tmp_path):
    pytest.importorskip("ray")

    def run(*extra):
        out, recs = tmp_path / f"r{len(extra)}.json", tmp_path / f"recs{len(extra)}"
        assert bench.main(["--game", "club", "--agents", "greedy", "random", "random", "random",
                           "--deals", "2", "--seed", "6", "--json", str(out), "--save-records",
                           str(recs), "--record-deals", "1", "--quiet", *extra]) == 0
        data = json.loads(out.read_text())
        return data, {p.name: p.read_text() for p in recs.iterdir()}
    alone, alone_records = run()
    on_ray, ray_records = run("--ray", "--jobs", "2")
    assert (on_ray["executor"], on_ray["jobs"]) == ("ray", 2) and alone["executor"] == "serial"
    assert on_ray["standings"] == alone["standings"] and on_ray["standings"][0]["mean"] != 0
    assert ray_records == alone_records and len(alone_records) == 4


@pytest.mark.parametrize("args, message", [
    (["--agents", "greedy", "nobody", "greedy", "random"], "unknown agent 'nobody'"),
    (["--agents", "greedy"], "--agents: club is played by 4 agents, one per seat; got 1"),
    (["--agents", "greedy", "random", "greedy", "random", "--rule", "ante=0"],
     "bad value 0 for club rules switch 'ante': a positive int"),
    (["--agents", "greedy", "random", "greedy", "random", "--save-records", "{tmp}/recs",
      "--record-deals", "3-1"], "bad deal list '3-1': the range 3-1 runs backwards; write 1-3"),
    (["--agents", "greedy", "random", "greedy", "random", "--deals", "0"], "must be 1 or more"),
    (["--agents", "greedy", "random", "greedy", "random", "--ante", "x"], "not a whole number"),
    (["--agents", "greedy:margin=high", "random", "greedy", "random"],
     "bad value 'high' for option 'margin': it takes a float"),
    (["--agents", "greedy", "random", "greedy", "random", "--record-deals", "0,2"],
     "--record-deals chooses the sessions that --save-records DIR saves; give --save-records too"),
    (["--agents", "greedy", "random", "greedy", "random", "--deals", "3", "--save-records",
      "{tmp}/recs", "--record-deals", "1,3-4"],
     "--record-deals 1,3-4: sessions 3,4 not in the run (with --deals 3 they are 0-2)"),
    (["--agents", "greedy", "random", "greedy", "random", "--save-records", "{tmp}/recs",
      "--record-deals", "one"], "bad deal list 'one'"),
    (["--agents", "greedy", "random", "greedy", "random", "--ray", "ray://127.0.0.1:1",
      "--jobs", "2"], "jobs sets the workers of a local Ray instance"),
])
def test_bench_bad_arguments_get_one_line(args, message, tmp_path):
    args = [a.replace("{tmp}", str(tmp_path)) for a in args]
    run = subprocess.run([sys.executable, "-m", "mediatore_env.tools.bench", "--game", "club", *args],
                         capture_output=True, text=True, cwd=ROOT, env={"PYTHONPATH": str(ROOT)})
    assert run.returncode == 2 and message in run.stderr
    assert run.stderr.count("\n") == 1 and "Traceback" not in run.stderr
    assert not (tmp_path / "recs").exists()  # refused before anything was played or saved


def test_answers_by_number_text_or_card():
    from mediatore_env.club.game import Session
    from agents.club.tournament import HOOKS
    session = Session(None, 0, [HOOKS.pack(5, 0, 0)])
    reader = reader_of(registry.get("club"))

    def read(text):
        view = session.view(session.to_move)
        return read_answer(text, view, view.legal_moves(), reader)
    assert read("accept") == [ACCEPT] and read("1") == [PASS]
    with pytest.raises(BadInput, match="choose a number from 1 to 2"):
        read("3")
    session.apply(ACCEPT)  # seat 1 is the mediator: it calls a card, by its text or alone
    assert read("call D3") == read("d3") == read("3 of coins") == [call_move(0 + 9)]
    session.apply(parse_move("alone"))
    # The four discards in one answer, by number or by card, as Mediatore's.
    view = session.view(session.to_move)
    listed = reader.order(view.legal_moves())
    four = [listed[k] for k in (1, 4, 6, 8)]
    cards = " ".join(CARD_NAMES[card_of_move(m)] for m in four)
    assert read_answer("2 5 7 9", view, listed, reader) == four
    assert read(cards) == read(f"discard {cards.lower()}") == four
    assert reader.note(view) == "name them all in one answer"
    assert registry.get("club").display.question(view) == "Discard 4 cards face down:"
    fifth = CARD_NAMES[card_of_move(listed[0])]
    for few in ("1", f"discard {cards.split()[0]}", "2 5 7", f"{cards} {fifth}"):
        with pytest.raises(BadInput, match=r"Name all 4 cards to discard in one answer, not \d"):
            read(few)
    with pytest.raises(BadInput, match="The same card twice"):
        read("1 1 2 3")
    missing = next(c for c in range(40) if not view.hand >> c & 1)
    with pytest.raises(BadInput, match="You do not hold the"):
        read(CARD_NAMES[missing])
    assert session.discards == 0  # nothing refused was discarded
    for m in four:
        session.apply(m)
    assert reader.note(session.view(session.to_move)) == ""  # the play: one card an answer


def test_play_a_session_save_it_and_replay_it(tmp_path):
    path = tmp_path / "s.json"
    answers = iter(["nonsense", "accept", "1", "1 2 3 4"] + ["1"] * 500)
    out = io.StringIO()
    assert play.main(["--game", "club", "--seed", "5", "--seat", "1", "--agents", "random",
                      "--save", str(path)],
                     ask=lambda prompt: next(answers), out=out) == 0
    text = out.getvalue()
    assert "Not a card or a move: 'nonsense'" in text and "== Session: the result" in text
    record = json.loads(path.read_text())
    session = replay(record)
    assert session.results[0].mediator == 1  # session 0 is dealt by seat 0: we spoke first
    assert record["meta"]["human_seat"] == 1
    shown = io.StringIO()
    assert replay_tool.main([str(path), "--all", "--seat", "1"], out=shown) == 0
    assert "session: chips" in shown.getvalue() and "deal  1" in shown.getvalue()
    assert "== deal 1: the end" in shown.getvalue()  # the replay stops at each deal's end too


def test_the_mediator_discards_the_cards_of_the_numbers_seen():
    # The list is not renumbered under the player: a shorter answer discards nothing, and the
    # four numbers typed are the four cards listed under them when the question was asked.
    from agents.club.tournament import HOOKS
    from mediatore_env.club.game import Session
    answers = iter(["accept", "alone", "2 5", "2 5 7 9"] + ["1"] * 500)
    out = io.StringIO()
    assert play.main(["--game", "club", "--seed", "5", "--seat", "1", "--session-deals", "1",
                      "--agents", "random:accept_rate=0"],
                     ask=lambda prompt: next(answers), out=out) == 0
    text = out.getvalue()
    assert "Discard 4 cards face down (name them all in one answer):" in text
    assert "Name all 4 cards to discard in one answer, not 2" in text
    session = Session(None, 0, [HOOKS.pack(5, 0, 0)])
    session.apply(ACCEPT)
    session.apply(parse_move("alone"))
    listed = reader_of(registry.get("club")).order(session.legal_moves())
    seen = [CARD_NAMES[card_of_move(listed[k - 1])] for k in (2, 5, 7, 9)]
    said = [line.split()[-1].strip("()") for line in text.splitlines()
            if line.startswith("  You        discard ")]
    assert said == seen


def test_each_deal_ends_with_its_tricks_points_and_chips_then_waits_for_enter():
    # A session of three deals; Enter after the first, q after the second: the third is never
    # dealt, and the session is not finished.
    out = io.StringIO()
    waits = []

    def ask(prompt):
        if prompt.startswith("Press Enter for the next deal, q to stop"):
            waits.append(prompt)
        answer = ("" if len(waits) == 1 else "q") if waits and prompt == waits[-1] else "1"
        out.write(prompt + answer + "\n")
        return answer
    assert play.main(["--game", "club", "--seed", "5", "--seat", "1", "--session-deals", "3",
                      "--agents", "greedy"], ask=ask, out=out) == 0
    text = out.getvalue()
    assert len(waits) == 2 and "Session, deal 2:" in text and "Session, deal 3:" not in text
    assert text.rstrip().endswith("Stopped. No session was finished.")
    end = text[text.index("== deal 1: the end"):text.index("Session, deal 2:")]
    lines = end.rstrip().splitlines()
    assert lines[-1] == "Press Enter for the next deal, q to stop:"  # Enter: ""
    assert "Tricks" in lines and sum(re.match(r" +\d  [ >]", line) is not None
                                     for line in lines) == 9  # a row a trick
    assert any(line.startswith("  taken ") for line in lines)
    assert any(re.match(r"Points    the mediator's side [\d /]+, the others [\d /]+ \(the side "
                        r"needs 6\): (won|lost)", line) for line in lines)
    assert any(line.startswith("Chips     this deal ") for line in lines)
    assert "Widow" not in end  # only the mediator saw it; the discards are turned over for all
    assert "Discards  " in end


def test_with_agents_at_every_seat_the_deals_go_on_without_waiting():
    from agents.club import make_club_agent
    from agents.tournament import hooks_of
    from mediatore_env.tools.play import play_game
    from mediatore_env.tools.terminal import Terminal
    definition = registry.get("club")
    game = definition.new_game(definition.make_rules(deals=3), 0)

    def ask(prompt):
        raise AssertionError(f"asked {prompt!r} with no person at the table")
    out = io.StringIO()
    names = [f"greedy({s})" for s in range(4)]
    play_game(game, None, [make_club_agent("greedy") for _ in range(4)], names,
              Terminal(ask, out), definition.display, reader_of(definition), title="Session",
              packs=lambda k: hooks_of("club").pack(5, 0, k), seeds=[1, 2, 3, 4])
    assert game.is_over and len(game.results) == 3
    text = out.getvalue()
    # every deal ends with its table, the session's last too (before the caller's result)
    assert all(f"== deal {k}: the end" in text for k in (1, 2, 3))


def test_play_refuses_a_bad_agent_in_one_line(capsys):
    with pytest.raises(SystemExit) as stop:
        play.main(["--game", "club", "--agents", "greedy", "random"])
    assert stop.value.code == 2
    assert "--agents takes one agent (for all 3 other seats) or 3" in capsys.readouterr().err


def test_play_hides_an_agent_mediators_discards():
    answers = iter(["pass"] + ["1"] * 500)
    out = io.StringIO()
    assert play.main(["--game", "club", "--seed", "5", "--seat", "1", "--session-deals", "1",
                      "--agents", "random:accept_rate=1.0"],
                     ask=lambda prompt: next(answers), out=out) == 0
    lines = out.getvalue().splitlines()
    # We pass first (seat 1, left of dealer 0); seat 2 accepts and discards face down.
    said = [line for line in lines if line.startswith("  random(2)")]
    assert said[0] == "  random(2)  becomes the mediator"
    assert said[2] == "  random(2)  discards 4 cards face down"  # after its call
    assert not any(re.search(r"random\(2\)  discards (?!4 cards face down)", line)
                   for line in lines)


class ObservingAgent:
    """A user's club agent that reads tensors: it checks it gets its own seat's observation."""

    name = "observing"
    wants_observation = True

    def reset(self, seed=None):
        pass

    def act(self, observation, view):
        from mediatore_env.club.observation import observation as encode
        import numpy as np
        mine = encode(view)
        assert observation is not None and all(np.array_equal(observation[k], mine[k]) for k in mine)
        return view.legal_moves()[0]


def test_play_gives_an_agent_that_wants_them_its_observations():
    answers = iter(["pass"] + ["1"] * 500)
    out = io.StringIO()
    assert play.main(["--game", "club", "--seed", "2", "--session-deals", "1",
                      "--agents", "tests.test_club_cli:ObservingAgent"],
                     ask=lambda prompt: next(answers), out=out) == 0
    assert "  ObservingAge(1)  " in out.getvalue()  # it moved, each time from its observation


def test_the_last_deal_of_a_session_ends_with_its_points_and_chips_too():
    """The session's last deal is shown as every other deal's end (not the table of a finished
    session, whose pot is already taken): its points, won or lost, and this deal's chips."""
    out = io.StringIO()
    assert play.main(["--game", "club", "--seed", "3", "--agents", "greedy"],
                     ask=lambda prompt: out.write(prompt + "1\n") and "1", out=out) == 0
    text = out.getvalue()
    last = text[text.rindex(": the end ==="):text.index("== Session: the result")]
    assert "Session: the end" not in text
    assert re.search(r"Points    the mediator's side [\d /]+, the others [\d /]+ .*: won", last)
    assert "Chips     this deal " in last and "pot now 0" in last
