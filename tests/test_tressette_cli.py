"""The command-line tools with the Tressette games, end to end: mediatore-bench --game,
mediatore-play --game at a scripted terminal, mediatore-replay of their records, and the
one-line errors of each."""

import io
import json
import re

import pytest

from agents.tressette.tournament import HOOKS
from mediatore_env.mediatore.display import card_text
from mediatore_env.core.cards import POINTS
from mediatore_env.core.text import card_label, points_text
from mediatore_env.tools.bench import main as bench
from mediatore_env.tools.play import main as play
from mediatore_env.tools.replay import main as replay
from mediatore_env import registry
from mediatore_env.tools.answers import read_answer, reader_of
from mediatore_env.tools.terminal import BadInput
from mediatore_env.tressette.game import TressetteGame
from mediatore_env.tressette.moves import CLAIM


def one_line_error(capsys, run, *words):
    try:
        status = run()
    except SystemExit as e:
        status = e.code
    out, err = capsys.readouterr()
    assert status == 2, (status, err)
    assert err.count("\n") == 1 and "Traceback" not in err + out, err
    for word in words:
        assert word in err, (word, err)


# -- mediatore-bench --game ---------------------------------------------------------------------

def test_bench_plays_a_tressette_tournament_and_saves_json_and_records(tmp_path, capsys):
    out_json, recs = tmp_path / "run.json", tmp_path / "recs"
    assert bench(["--game", "tressette3", "--agents", "greedy", "random", "random", "--deals",
                  "3", "--seed", "2", "--rule", "low=true", "-q", "--json", str(out_json),
                  "--save-records", str(recs), "--record-deals", "1"]) == 0
    text = capsys.readouterr().out
    assert "Duplicate tournament of tressette3 (3 players), low: 3 games x 1 lineup x 3 " \
           "rotations = 9 plays; seed 2" in text
    assert "Units per game" in text and "machine:" in text
    data = json.loads(out_json.read_text())
    assert data["game"] == "tressette3" and data["rules"]["low"] is True
    files = sorted(p.name for p in recs.iterdir())
    assert files == ["game00001_rot0.json", "game00001_rot1.json", "game00001_rot2.json"]
    record = json.loads((recs / files[0]).read_text())
    assert record["packs"][0] == [f"{c}" for c in map(_name, HOOKS.pack(2, 1, 0))]
    TressetteGame.replay(record)


def _name(card):
    from mediatore_env.core.cards import CARD_NAMES
    return CARD_NAMES[card]


@pytest.mark.parametrize("args,words", [
    (["--game", "tressette3", "--agents", "greedy", "random"], ["tressette3 is played by 3 agents"]),
    (["--game", "tressette", "--agents", *["greedy"] * 4, "--rule", "low=maybe"],
     ["bad value 'maybe' for rules switch 'low'", "true, false"]),
    (["--game", "tressette2", "--agents", "greedy", "random", "--rule", "signals=off"],
     ["unknown rules switch 'signals' of tressette2", "valid: low, claim, show_draws"]),
    (["--game", "tressette", "--agents", *["greedy"] * 4, "--rule", "show_draws=false"],
     ["unknown rules switch 'show_draws' of tressette; valid: low, claim"]),
    (["--game", "tressette2", "--agents", "greedy", "solver"],
     ["unknown agent 'solver'", "random, greedy, pimc"]),
    (["--game", "tressette2", "--bidding", "greedy", "bold"], ["tressette2 has no auction"]),
    (["--game", "tressette2", "--agents", "greedy", "random", "--preset", "low"],
     ["tressette2 has no rules presets; give its switches with --rule, e.g. --rule "
      "low=true"]),
    (["--game", "tressette2", "--agents", "greedy", "random", "--plot", "x.png"],
     ["--plot draws mediatore tournaments only"]),
    (["--game", "tressette9", "--agents", "greedy"], ["invalid choice: 'tressette9'"]),
    (["--agents", "greedy", "random", "greedy"], ["mediatore is played by 4 agents"]),
    (["--game", "tressette2", "--agents", "greedy", "random", "--save-records", "{tmp}",
      "--record-deals", "3"], ["game 3 not in the run (with --deals 1 they are 0-0)"]),
])
def test_bench_errors_are_one_line(capsys, tmp_path, args, words):
    args = [a.replace("{tmp}", str(tmp_path)) for a in args]
    one_line_error(capsys, lambda: bench([*args, "--deals", "1", "-q"]), *words)


# -- mediatore-play --game ------------------------------------------------------------------------

class Script:
    """Answers for ``input``: always ``answer``, echoed after the prompt."""

    def __init__(self, out, answers=(), then="1"):
        self.out, self.answers, self.then = out, list(answers), then

    def __call__(self, prompt):
        answer = self.answers.pop(0) if self.answers else self.then
        self.out.write(prompt + answer + "\n")
        return answer


def run_play(args, answers=(), then="1"):
    out = io.StringIO()
    status = play(args, ask=Script(out, answers, then), out=out)
    return status, out.getvalue()


def test_play_a_whole_two_handed_game_and_replay_its_record(tmp_path, capsys):
    path = tmp_path / "game.json"
    status, text = run_play(["--game", "tressette2", "--agents", "greedy", "--seed", "3",
                             "--save", str(path), "--cards", "short"])
    assert status == 0
    assert text.startswith("Two-Handed Tressette · rules: tressette2 (2 players) · seed 3 · game 0")
    assert "Game, hand 1: You deal, greedy(1) leads." in text
    assert "== Game: the result" in text and "Outcome: You " in text
    record = json.loads(path.read_text())
    assert record["meta"]["human_seat"] == 0 and record["meta"]["agents"] == ["human", "greedy"]
    assert record["packs"][0] == [_name(c) for c in HOOKS.pack(3, 0, 0)]
    game = TressetteGame.replay(record)
    assert game.is_over and list(game.outcome) == record["result"]["outcome"]
    # The human saw its own hand and never the other's: its first screen lists ten cards.
    first = text.split("Your hand:")[1].split("\n")[1:5]
    assert sum(len(line.split()) - 1 for line in first) == 10

    out = io.StringIO()
    assert replay([str(path), "--seat", "1", "--cards", "short"], out=out,
                  interactive=False) == 0
    shown = out.getvalue()
    assert "tressette2 (2 players) · dealer You" not in shown  # seat 1 is not the human
    assert "Two-Handed Tressette, rules: tressette2 (2 players) · dealer human(0)" in shown
    assert "seen by greedy(1) (seat 1) only" in shown and "-- hand 1" in shown
    assert "== hand 1: the end" in shown  # a replay stops at each hand's end too
    assert "Outcome:" in shown
    out = io.StringIO()
    assert replay([str(path)], out=out, interactive=False) == 0
    assert "stock" in out.getvalue() and "the open table" in out.getvalue()


def _row(block: str, side_name: str) -> list[str]:
    """A side's row of a hand's points: side, cards, last trick, melds, hand, game."""
    row = next(line for line in block.splitlines() if line.startswith(f"  {side_name}  "))
    return re.split(r" {2,}", row.strip())


def test_each_hand_ends_with_its_points_by_side_and_a_wait(tmp_path):
    # Partnership Tressette played to its end: at each hand's end, each side's cards (thirds,
    # rounded down), last trick, melds, hand total and game score, as the record has them;
    # then a wait for Enter; the last hand's the same, after the table at the end.
    from mediatore_env.core.cards import POINTS, parse_card
    from mediatore_env.core.text import card_text, format_thirds
    path = tmp_path / "game.json"
    status, text = run_play(["--game", "tressette", "--agents", "greedy", "--seed", "5",
                             "--save", str(path)])
    assert status == 0
    record = json.loads(path.read_text())
    hands, sides = record["result"]["hands"], ["You and greedy(2)", "greedy(1) and greedy(3)"]
    assert len(hands) > 1 and text.count("Press Enter for the next hand, q to stop: ") == \
        len(hands) - 1
    totals = [0, 0]
    melds_seen = 0
    for k, hand in enumerate(hands, 1):
        block = text[text.index(f"== hand {k}: the end "):].split("Press Enter for the next")[0]
        for side, name in enumerate(sides):
            totals[side] += hand["points"][side]
            _, cards, last_trick, melds, points, score = _row(block, name)
            thirds = sum(POINTS[parse_card(c)] for t in hand["tricks"] for c in t["cards"]
                         if t["winner"] % 2 == side)
            assert cards.split(" -> ")[0] == format_thirds(thirds)
            assert int(cards.split(" -> ")[-1]) == thirds // 3
            assert int(points) == hand["points"][side] == (
                thirds // 3 + int(last_trick.replace("-", "0")) + int(melds.replace("-", "0")))
            assert int(score) == totals[side]
        for meld in hand["melds"]:
            # in the play's card words (English), as the news names a card played
            assert ", ".join(card_text(parse_card(c)) for c in meld["cards"]) in \
                block.split("  melds: ")[1].splitlines()[0]
            melds_seen += 1
    assert totals == record["result"]["totals"] and melds_seen  # a game of this seed has melds


def test_play_four_handed_low_claim_with_a_quit(capsys):
    status, text = run_play(["--game", "tressette", "--agents", "random", "--seed", "1",
                             "--rule", "low=true", "--rule", "claim=on", "--seat", "2"],
                            answers=["?", "t", "zz", "q"])
    assert status == 0
    assert "tressette (4 players), low, claim" in text
    assert "partners: random(0) and You · random(1) and random(3)" in text
    assert "claim the game" in text and "Stopped. No game was finished." in text
    assert "Not a card or a move: 'zz'" in text


def test_ctrl_d_stops_with_the_score_and_the_records_of_the_games_finished(tmp_path):
    # Two-handed games to 31, the second interrupted by the end of the input (Ctrl-D): the
    # first is scored and saved, as in Mediatore's deals.
    answers = iter(["1"] * 400)
    state = {"games": 0}

    def ask(prompt):
        if prompt.startswith("Press Enter for the next game"):
            state["games"] += 1
            return ""
        if state["games"]:
            raise EOFError
        return next(answers)
    out = io.StringIO()
    path = tmp_path / "g.json"
    assert play(["--game", "tressette2", "--agents", "random", "--seed", "2", "--deals", "2",
                 "--save", str(path)], ask=ask, out=out) == 0
    text = out.getvalue()
    assert "Running score after 1 game: You " in text
    assert "Stopped. Score over 1 finished game: You " in text
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g-0.json"]


@pytest.mark.parametrize("args,words", [
    (["--game", "tressette3", "--seat", "3"], ["--seat: invalid choice: 3", "0, 1, 2"]),
    (["--game", "tressette3", "--agents", "greedy", "random", "random"],
     ["--agents takes one agent (for all 2 other seats) or 2, got 3"]),
    (["--game", "tressette", "--agents", "solver"], ["unknown agent 'solver'"]),
    (["--game", "tressette", "--rule", "low"], ["bad --rule 'low': write name=value"]),
    (["--game", "tressette", "--preset", "low"], ["tressette has no rules presets; give its "
                                                  "switches with --rule, e.g. --rule low=true"]),
])
def test_play_errors_are_one_line(capsys, args, words):
    one_line_error(capsys, lambda: play(args, ask=lambda p: "q", out=io.StringIO()), *words)


def test_reading_answers():
    # Seat 1 of Partnership Tressette with the claim switch, after seat 0 led the first card.
    game = TressetteGame(registry.get("tressette").make_rules(claim=True), dealer=3)
    game.deal(HOOKS.pack(0, 0, 0))
    game.apply(game.legal_moves()[0])
    view = game.view(1)
    listed = view.legal_moves()
    reader = reader_of(registry.get("tressette"))

    def read(text):
        return read_answer(text, view, listed, reader)
    held = [c for c in range(40) if view.hand >> c & 1]
    first = listed[0]
    assert read("1") == [first] and read(_name(first)) == [first]
    assert read("play " + _name(first).lower()) == read(card_text(first)) == [first]
    assert read("claim") == [CLAIM] and CLAIM in listed
    assert read("?") == "help" and read("q") == "quit"
    missing = next(c for c in range(40) if not view.hand >> c & 1)
    with pytest.raises(BadInput, match=rf"You do not hold the {card_text(missing)}"):
        read(_name(missing))
    refused = [c for c in held if c not in listed]
    if refused:  # a card held, but the suit led must be followed
        with pytest.raises(BadInput, match="You must follow suit"):
            read(_name(refused[0]))
    with pytest.raises(BadInput, match="There is no move 99: choose a number from 1 to"):
        read("99")
    # --cards italian: the refusals name the cards as the table does
    from mediatore_env.core.text import card_label, suit_label
    italian = reader_of(registry.get("tressette"), "italian")
    not_held = f"You do not hold the {card_label(missing, 'italian')}."
    with pytest.raises(BadInput, match=re.escape(not_held)):
        read_answer(_name(missing), view, listed, italian)
    if refused:
        led = suit_label(view.trick[0] // 10, "italian")
        with pytest.raises(BadInput, match=f"You must follow suit: {led} were led"):
            read_answer(_name(refused[0]), view, listed, italian)
    with pytest.raises(BadInput, match="You cannot claim the game now"):
        read_answer("claim", view, listed[:-1], reader)


# -- mediatore-replay -------------------------------------------------------------------------------

def test_replay_refuses_a_tampered_record_and_a_seat_the_game_has_not(tmp_path, capsys):
    bench(["--game", "tressette2", "--agents", "greedy", "random", "--deals", "1", "-q",
           "--save-records", str(tmp_path)])
    capsys.readouterr()
    path = tmp_path / "game00000_rot0.json"
    one_line_error(capsys, lambda: replay([str(path), "--seat", "3"]),
                   "--seat 3: a Two-Handed Tressette record here has seats 0-1")
    record = json.loads(path.read_text())
    record["result"]["outcome"] = list(reversed(record["result"]["outcome"]))
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(record))
    one_line_error(capsys, lambda: replay([str(bad)]), "not a valid game record",
                   "result differs at 'outcome'")


# -- the documentation ------------------------------------------------------------------------------

def test_the_docs_page_shows_the_encoders_layouts_and_links_only_inside_the_repository():
    import re
    from pathlib import Path

    from mediatore_env.tressette.observation import layout_of, layout_table
    root = Path(__file__).resolve().parent.parent
    page = root / "docs" / "tressette.md"
    text = page.read_text()
    for players, form in ((4, "tressette_v0"), (3, "tressette3_v0"), (2, "tressette2_v0")):
        assert layout_table(players).strip() in text  # regenerate the page if the layout moved
        assert f"(`{form}`, {layout_of(players).size} floats)" in text
    # Every relative link names a file of the repository, so a fresh clone has all it cites.
    for target in re.findall(r"\]\(([^)#\s]+)", text):
        if "://" in target:
            continue
        path = (page.parent / target).resolve()
        assert path.is_relative_to(root) and path.exists(), target


def test_replay_shows_an_unfinished_game_to_its_last_card(tmp_path):
    game = TressetteGame(rules=None, dealer=3)
    game.deal(HOOKS.pack(0, 0, 0))
    for _ in range(5):
        game.apply(game.legal_moves()[0])
    path = tmp_path / "part.json"
    path.write_text(json.dumps(game.record()))
    out = io.StringIO()
    assert replay([str(path)], out=out, interactive=False) == 0
    text = out.getvalue()
    seat, card = game.history[-1]  # the first card of trick 2, after the four of trick 1
    # the winner of trick 1 leads trick 2
    first = sum(POINTS[c] for _, c in game.history[:4])
    assert (f"-> seat {seat} wins the trick (1 of 10), {points_text(first)}\n"
            f"  seat {seat}  leads {card_label(card)}\n") in text
    assert text.rstrip().endswith("(the record ends here: the game was not finished)")


def test_a_seats_replay_hides_the_others_draws_without_show_draws(tmp_path, capsys):
    bench(["--game", "tressette2", "--agents", "greedy", "random", "--rule", "show_draws=off",
           "--deals", "1", "-q", "--save-records", str(tmp_path)])
    capsys.readouterr()
    path = tmp_path / "game00000_rot0.json"
    record = json.loads(path.read_text())
    out = io.StringIO()
    assert replay([str(path), "--seat", "0", "--cards", "short"], out=out, interactive=False) == 0
    text = out.getvalue()
    drawn = [(d["seat"], d["card"]) for hand in record["result"]["hands"] for d in hand["draws"]]
    assert drawn and text.count("random(1)  draws a card") == sum(s == 1 for s, _ in drawn)
    assert all(f"greedy(0)  draws {card}" in text for s, card in drawn if s == 0)
    assert not any(f"random(1)  draws {card}" in text for s, card in drawn if s == 1)


def test_each_games_help_names_its_own_moves_and_its_cards_come_strongest_first():
    tressette, club = reader_of(registry.get("tressette2")), reader_of(registry.get("club"))
    assert "as listed, when the list has it: claim\n" in tressette.help
    assert "call D3" not in tressette.help and "discard" not in tressette.help
    assert "call D3" in club.help and "discard D3" in club.help and "claim" not in club.help
    # as the hand is shown: by suit (coins, cups...), strongest first (3, 2, ace ... 4); the
    # claim, which names no card, first
    d4, da, d3, c5 = (registry.get("tressette2").moves.parse(t) for t in ("D4", "DA", "D3", "C5"))
    assert tressette.order([c5, d4, 40, da, d3]) == [40, d3, da, d4, c5]


def test_the_tables_draws_line_keeps_the_last_six_and_counts_the_rest():
    from mediatore_env.tressette.display import draws_line
    names = ("You", "greedy(1)")
    seen = [(k % 2, card) for k, card in enumerate(range(9))]  # D4, D5, ... nine draws
    assert draws_line(seen[:2], names) == "You D4, greedy(1) D5"
    assert draws_line(seen, names) == ("3 earlier, then greedy(1) D7, You DF, greedy(1) DC, "
                                       "You DR, greedy(1) DA, You D2")


@pytest.mark.parametrize("game, who", [("tressette", "side"), ("tressette2", "player"),
                                       ("tressette3", "player")])
def test_a_hands_points_are_by_side_or_by_player_as_the_form_is_played(game, who):
    """Partnership Tressette's rows are its two sides; the other forms' are their players."""
    status, text = run_play(["--game", game, "--agents", "greedy", "--seed", "5"])
    assert status == 0
    block = text[text.index("== hand 1: the end"):]
    assert block.splitlines()[1].split()[:2] == [who, "cards"]


def test_melds_are_named_in_the_tables_words():
    from mediatore_env.tressette.display import meld_name
    from mediatore_env.tressette.melds import MELD_KINDS, Meld
    aces, napoletana = MELD_KINDS.index("aces"), MELD_KINDS.index("napoletana")
    three_aces, four_aces = Meld(aces, 0b111, 3), Meld(aces, 0b1111, 4)
    assert [meld_name(m) for m in (three_aces, four_aces)] == ["three aces", "four aces"]
    assert [meld_name(m, "italian") for m in (three_aces, four_aces)] == ["tre assi",
                                                                          "quattro assi"]
    assert meld_name(Meld(napoletana, 0b111, 3), "italian") == "una napoletana"


def test_a_melds_cards_are_named_in_the_tables_words():
    """A meld's cards as the table names every card: once "three twos (D2 C2 S2)" in every
    style, codes among the words."""
    from mediatore_env.core.cards import parse_card
    from mediatore_env.tressette.display import meld_words
    from mediatore_env.tressette.melds import MELD_KINDS, Meld
    twos = Meld(MELD_KINDS.index("twos"), sum(1 << parse_card(c) for c in ("D2", "C2", "S2")), 3)
    assert [meld_words(twos, style) for style in ("english", "italian", "french", "short")] == [
        "three twos (2 of coins, 2 of cups, 2 of swords), 3 points",
        "tre due (2 di Denari, 2 di Coppe, 2 di Spade), 3 points",
        "three twos (2♦ 2♥ 2♠), 3 points", "three twos (D2 C2 S2), 3 points"]
