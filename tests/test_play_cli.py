"""mediatore-play: reading what a person types, a full deal driven by scripted input (bad input
included), quitting, several deals with a running score, and the saved game record."""

import ast
import io
import json
import subprocess
import sys

import pytest
from packs import SIX_DENARI, SIX_DENARI_MONTE, make_deal, play

from agents import RandomAgent
from mediatore_env.mediatore.display import DISPLAY, hand_inline
from mediatore_env.core.cards import CARD_NAMES, parse_card, suit_of, to_mask
from mediatore_env.mediatore.game import Deal
from mediatore_env.mediatore.moves import parse_move
from mediatore_env.mediatore.records import load_record, replay
from mediatore_env import registry
from mediatore_env.mediatore.observation import observation
from mediatore_env.tools.answers import help_text, read_answer, reader_of
from mediatore_env.tools.play import main, play_game
from mediatore_env.tools.terminal import HELP, QUIT, TABLE, BadInput, Quit, Terminal

MEDIATORE = reader_of(registry.get("mediatore"))


class Script:
    """An ``input`` replacement: answers from a list, echoed to ``out`` after the prompt like a
    terminal would; EOFError when the list runs out (or ``then`` forever, if given)."""

    def __init__(self, answers, out, then=None):
        self.answers, self.out, self.then = list(answers), out, then
        self.prompts = []

    def __call__(self, prompt):
        self.prompts.append(prompt)
        if self.answers:
            answer = self.answers.pop(0)
        elif self.then is not None:
            answer = self.then
        else:
            raise EOFError
        self.out.write(prompt + answer + "\n")
        return answer


# -- reading answers ------------------------------------------------------------------------------

def auction():
    return make_deal(SIX_DENARI, SIX_DENARI_MONTE)  # seat 0 (il mano) to speak


def leading():
    deal = make_deal(SIX_DENARI, SIX_DENARI_MONTE)
    play(deal, "bid solissimo", "pass", "pass", "pass")
    return deal  # seat 0 leads: D3 D2 DA DR DC DF C4 S4 B4


def answer(deal, text):
    view = deal.view(deal.to_move)
    return read_answer(text, view, view.legal_moves(), MEDIATORE)


@pytest.mark.parametrize("text,move", [
    ("1", "pass"), ("pass", "pass"), ("P", "pass"), ("solo", "bid solo"), ("bid solo", "bid solo"),
    ("  Bid   Mediatore ", "bid mediatore"), ("arci", "bid arcisolissimo"), ("ch", "bid chiamo"),
    ("soli", "bid solissimo"), ("3", "bid mediatore"), ("c", "bid chiamo"), ("m", "bid mediatore"),
    ("a", "bid arcisolissimo"),
])
def test_auction_answers(text, move):
    assert answer(auction(), text) == [parse_move(move)]


@pytest.mark.parametrize("text,move", [
    ("D3", "play D3"), ("d3", "play D3"), ("3D", "play D3"), ("3 of coins", "play D3"),
    ("play 3 of coins", "play D3"), ("tre", None), ("D3 busso", "play D3 busso"),
    ("play D3 busso", "play D3 busso"), ("D3 b", "play D3 busso"), ("d3, striscio", "play D3 striscio"),
    ("C4 v", "play C4 volo"), ("c4 volo", "play C4 volo"), ("AD", "play DA"), ("A♦", "play DA"),
    ("asso di denari", "play DA"), ("king of coins", "play DR"), ("DK", "play DR"),
    ("dq", "play DC"), ("DJ", "play DF"), ("ace of coins knock", "play DA busso"),
    ("2", "play D3 busso"),
])
def test_play_answers(text, move):
    if move is None:
        with pytest.raises(BadInput, match="Not a card or a move"):
            answer(leading(), text)
    else:
        assert answer(leading(), text) == [parse_move(move)]


@pytest.mark.parametrize("text,words", [
    ("", "Type the number of a move"),
    ("0", "There is no move 0: choose a number from 1 to 27"),
    ("28", "There is no move 28"),
    ("1 2", "One move at a time"),
    ("bid solo", "Now it is the play, not the auction"),
    ("S3", "You do not hold the 3 of swords (S3)"),
    ("D3 volo", "You cannot lead D3 with volo: it says this is your last card of the suit"),
    ("C4 striscio", "You cannot lead C4 with striscio: it says you hold another low card"),
    ("D3 hello", "not a signal: 'hello'; signals with this card: "),
    # a short form of a signal this lead does not allow gets the rule's reason, not a list
    ("D3 v", "You cannot lead D3 with volo: it says this is your last card of the suit"),
    ("C4 s", "You cannot lead C4 with striscio: it says you hold another low card"),
    ("D3 D2", "Play one card at a time"),
    ("xyzzy", "Not a card or a move: 'xyzzy'"),
    # a digit that is no decimal one: int() cannot read it (a ValueError traceback it was)
    ("²", "Not a card or a move: '²'"),
    ("1 ²", "Not a card or a move: '1 ²'"),
])
def test_bad_play_answers_explain(text, words):
    with pytest.raises(BadInput) as e:
        answer(leading(), text)
    assert words in str(e.value)


def test_a_long_bad_answer_is_named_not_echoed_whole():
    """100,000 characters pasted at the prompt were printed back whole in the refusal."""
    for text, words in (("x" * 100_000, "Not a card or a move: 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...'."),
                        ("D3 " + "y" * 100_000, "not a signal: 'yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy...';")):
        with pytest.raises(BadInput) as e:
            answer(leading(), text)
        assert words in str(e.value) and len(str(e.value)) < 300, str(e.value)[:300]


def test_shown_cuts_a_text_to_its_width_escapes_and_all():
    """A character repr escapes ('\\x00', four letters) counts as its escape: 35 of them came
    back as 145 letters, not the 40 promised."""
    from mediatore_env.core.text import shown
    for text in ("x" * 100, "\x00" * 100, "\U000e0001" * 100, "'" * 100, "a\nb" * 50):
        named = shown(text)
        assert len(named) <= 40 and named[-4:] in ("...'", '..."'), named
        assert text.startswith(ast.literal_eval(named)[:-3]), named  # whole escapes: a prefix
    assert shown("ab") == "'ab'" and shown(["a"] * 100) == repr(["a"] * 100)[:37] + "..."


def test_follow_suit_and_signal_only_on_lead_are_explained():
    deal = leading()
    play(deal, "play C4")  # seat 1 (all cups) follows
    with pytest.raises(BadInput, match="Only the player who leads a trick may signal"):
        answer(deal, "C3 busso")
    deal = make_deal(SIX_DENARI, SIX_DENARI_MONTE, dealer=0)  # il mano: seat 1, all cups
    play(deal, "bid solissimo", "pass", "pass", "pass", "play C5", "play S5", "play B5")
    assert deal.to_move == 0
    with pytest.raises(BadInput, match="You must follow suit: cups were led and you hold C4."):
        answer(deal, "S4")
    assert answer(deal, "1") == [parse_move("play C4")]


def test_bids_explained():
    deal = auction()
    play(deal, "bid solo")
    with pytest.raises(BadInput, match="A bid must be higher than solo: pass, or bid one of "
                                       "solissimo, arcisolissimo"):
        answer(deal, "chiamo")
    play(deal, "bid arcisolissimo")
    with pytest.raises(BadInput, match="arcisolissimo is the top bid: everyone else can only pass"):
        answer(deal, "solo")
    with pytest.raises(BadInput, match="not a bid: 'hello'"):
        answer(deal, "hello")


def test_a_bid_too_short_to_tell_is_refused_with_the_bids_still_open():
    # "s" could be solo or solissimo: never guessed (a bid binds); the refusal and "not a
    # bid" list only the bids the player may still make, none already too low.
    deal = auction()
    with pytest.raises(BadInput) as e:
        answer(deal, "s")
    assert str(e.value) == ("'s' could be solo or solissimo: write more of it (you may pass, "
                            "or bid one of chiamo, mediatore, solo, solissimo, arcisolissimo)")
    play(deal, "bid solo")
    for text in ("s", "so", "sol"):
        with pytest.raises(BadInput) as e:
            answer(deal, text)
        assert str(e.value) == (f"'{text}' could be solo or solissimo: write more of it (you "
                                "may pass, or bid one of solissimo, arcisolissimo)")
    with pytest.raises(BadInput) as e:
        answer(deal, "hello")
    assert str(e.value) == "not a bid: 'hello'; you may pass, or bid one of solissimo, arcisolissimo"
    assert answer(deal, "soli") == [parse_move("bid solissimo")]
    play(deal, "bid solissimo")  # neither solo nor solissimo may be bid: why, not which
    with pytest.raises(BadInput) as e:
        answer(deal, "s")
    assert str(e.value) == "A bid must be higher than solissimo: pass, or bid arcisolissimo."


def test_calls_discards_and_the_card_passed_back():
    from mediatore_env.mediatore.rules import Rules
    deal = make_deal(SIX_DENARI, SIX_DENARI_MONTE, rules=Rules(call_restriction="three"))
    play(deal, "bid mediatore", "pass", "pass", "pass")
    assert answer(deal, "3 of cups") == [parse_move("call C3")]
    assert answer(deal, "call c3") == [parse_move("call C3")]
    with pytest.raises(BadInput, match="you may call only a 3; ace of cups is not allowed"):
        answer(deal, "CA")
    play(deal, "call C3")
    assert answer(deal, "D7 D6 5D 4 of coins") == [parse_move(f"discard {c}") for c in "D7 D6 D5 D4".split()]
    listed = deal.view(deal.to_move).legal_moves()
    assert answer(deal, "4 3 2 1") == [listed[3], listed[2], listed[1], listed[0]]
    # Fewer than four is refused whole, so the list is never renumbered under the player.
    for few in ("discard D7", "1 2", "D7 D6 D5"):
        with pytest.raises(BadInput, match=r"Name all 4 cards to discard in one answer, not \d"):
            answer(deal, few)
    with pytest.raises(BadInput, match="Name all 4 cards to discard in one answer, not 5"):
        answer(deal, "D7 D6 D5 D4 C4")
    with pytest.raises(BadInput, match="The same card twice"):
        answer(deal, "D7 D7")
    with pytest.raises(BadInput, match="You do not hold the ace of swords"):
        answer(deal, "SA")
    play(deal, "discard D7", "discard D6", "discard D5", "discard D4")
    assert answer(deal, "give C3") == [parse_move("give C3")]
    assert answer(deal, "B4") == [parse_move("give B4")]


def test_refusals_name_the_cards_as_the_player_chose():
    # --cards italian (or french): every refusal names cards as the table does, not in English
    from mediatore_env.mediatore.rules import Rules

    def refusal(deal, text, style):
        view, reader = deal.view(deal.to_move), reader_of(registry.get("mediatore"), style)
        with pytest.raises(BadInput) as e:
            read_answer(text, view, view.legal_moves(), reader)
        return str(e.value)
    assert refusal(leading(), "S3", "italian") == "You do not hold the 3 di Spade (S3)."
    assert refusal(leading(), "S3", "french") == "You do not hold the 3♠."
    assert refusal(leading(), "DA volo", "french").startswith("You cannot lead A♦ with volo")
    deal = make_deal(SIX_DENARI, SIX_DENARI_MONTE, dealer=0)
    play(deal, "bid solissimo", "pass", "pass", "pass", "play C5", "play S5", "play B5")
    assert refusal(deal, "S4", "italian") == ("You must follow suit: Coppe were led and you "
                                              "hold C4.")
    # the short style's suit is a letter: the sentence says it in words
    assert refusal(deal, "S4", "short") == "You must follow suit: cups were led and you hold C4."
    deal = make_deal(SIX_DENARI, SIX_DENARI_MONTE, rules=Rules(call_restriction="three"))
    play(deal, "bid mediatore", "pass", "pass", "pass")
    assert refusal(deal, "CA", "italian").endswith("Asso di Coppe is not allowed.")
    play(deal, "call C3")
    assert refusal(deal, "D7 D6 D5 SA", "italian") == "You do not hold the Asso di Spade (SA)."


def test_help_names_the_cards_in_the_words_of_the_table():
    # --cards italian: ? shows the Italian names, and every example it gives is read
    for name in ("mediatore", "tressette", "club"):
        reader = reader_of(registry.get(name), "italian")
        assert "D C S B = Denari Coppe Spade Bastoni" in reader.help
        assert "J Q K also mean Fante, Cavallo, Re), or A♠, or Asso di Spade" in reader.help
        assert "coins" not in reader.help and "swords" not in reader.help
        assert "ace of swords" in reader_of(registry.get(name), "short").help
    assert "call 3 di Denari" in reader_of(registry.get("mediatore"), "italian").help
    deal = make_deal(SIX_DENARI, SIX_DENARI_MONTE, dealer=0)
    play(deal, "bid mediatore", "pass", "pass", "pass")
    view = deal.view(deal.to_move)
    italian = reader_of(registry.get("mediatore"), "italian")
    for words in ("call 3 di Denari", "call tre di denari", "three of coins"):
        assert read_answer(words, view, view.legal_moves(), italian) == [parse_move("call D3")]
    with pytest.raises(BadInput, match="e.g. 'D3' or '3 di Denari'"):  # the hint in Italian
        read_answer("call banana", view, view.legal_moves(), italian)
    help = italian.help
    assert "3 2 A(Asso) R(Re) C(Cavallo) F(Fante) 7 6 5 4" in help and "Points: Asso 1, " in help


def test_main_refuses_in_the_cards_chosen():
    from agents.mediatore.tournament import HOOKS
    from mediatore_env.core.text import card_label
    hand = Deal(None, 0, HOOKS.pack(3, 0, 0)).hands[0]
    missing = next(c for c in range(40) if not hand >> c & 1)
    _, text = run_main(["--agents", "random:bid_rate=0", "--seed", "3", "--cards", "italian"],
                       ["arcisolissimo", CARD_NAMES[missing]], then="1")
    assert f"You do not hold the {card_label(missing, 'italian')}." in text
    assert not [w for w in ("coins", "cups", "swords", "batons") if f" of {w}" in text]


@pytest.mark.parametrize("text,command", [("q", QUIT), ("QUIT", QUIT), ("?", HELP), ("help", HELP),
                                          ("t", TABLE)])
def test_commands(text, command):
    assert answer(auction(), text) == command


# -- a full deal through the terminal -------------------------------------------------------------

# Seat 0 holds six coins and one card of each other suit; seats 1-3 hold only cups, swords and
# batons. Seat 0 bids arcisolissimo, leads its six coins (no one can follow: it wins them all),
# then C4: seat 1 wins with a cup and leads cups twice; seat 0 chooses S4 (B4 then is forced).
# Whatever the random agents play, these answers are legal in this order.
SCRIPT = [
    "hello",               # not a bid
    "9",                   # no such number
    "",                    # empty
    "call D3",             # wrong phase
    "?",                   # help
    "t",                   # the table again
    "arci",                # bid arcisolissimo
    "D7",                  # not in hand (it is in the monte)
    "play D3 volo",        # a false volo
    "D3 busso",
    "d2", "AD", "king of coins", "DC b", "play DF",
    "C4",
    "B4 busso",            # not the leader: no signal
    "s4",
]


def play_scripted(answers, out, **kw):
    deal = make_deal(SIX_DENARI, SIX_DENARI_MONTE)
    agents = [None] + [RandomAgent(bid_rate=0) for _ in range(3)]
    names = ["You", "random(1)", "random(2)", "random(3)"]
    script = Script(answers, out)
    play_game(deal, 0, agents, names, Terminal(script, out), DISPLAY, MEDIATORE, title="Deal",
              seeds=[0, 1, 2, 3], observation=observation, **kw)
    return deal, script


def test_a_full_deal_with_scripted_input():
    out = io.StringIO()
    deal, script = play_scripted(SCRIPT, out)
    assert deal.is_over and not script.answers
    text = out.getvalue()
    # the hand, sorted by suit, strongest first, with the short notation
    assert "  coins   3  2  ace  king  horse  jack   D3 D2 DA DR DC DF" in text
    assert "  batons  4                              B4" in text
    # every bad answer got an explanation and the same question again
    for words in ["not a bid: 'hello'", "There is no move 9: choose a number from 1 to 6",
                  "Type the number of a move", "Now it is the auction, not the call",
                  "How to answer", "You do not hold the 7 of coins (D7)",
                  "You cannot lead D3 with volo", "Only the player who leads a trick may signal"]:
        assert words in text
    assert script.prompts.count("Your move [1-6, ? help, q quit]: ") == 7
    # the auction so far, the contract, the trick in progress and the tricks table
    assert "You        bid arcisolissimo" in text
    assert "Contract  arcisolissimo by you" in text
    assert "Monte     face down until the end" in text
    assert "Lead a card (a signal may go with it):" in text
    assert "   1  3 of coins        2 busso    3 striscio\n" in text
    assert "  1  >D3*" in text
    assert "On table  random(1)  " in text
    assert "Points    declarer's side" in text
    # forced moves are played and said
    assert "(your only legal move: play 4 of batons)" in text
    # the end: the whole table, then nothing more from the deal
    assert "== Deal: the end" in text
    # before the first card is played nothing of the other hands is shown
    opening = text[:text.index("You        lead ")].replace(help_text(), "")
    hidden = {c for hand in SIX_DENARI[1:] for c in hand.split()} | set(SIX_DENARI_MONTE.split())
    assert not [c for c in hidden if f" {c}" in opening and c != "D7"]  # D7: the human typed it
    assert deal.tricks_won[0] >= 6


def test_quit_and_end_of_input_stop_cleanly():
    for answers in (["q"], [], ["arci", "D3", "quit"]):
        out = io.StringIO()
        with pytest.raises(Quit):
            play_scripted(answers, out)


def test_forced_moves_can_be_asked():
    out = io.StringIO()
    deal, script = play_scripted(SCRIPT[6:7] + ["D3", "D2", "DA", "DR", "DC", "DF", "C4", "S4", "1"],
                                 out, auto=False)
    assert deal.is_over and "your only legal move" not in out.getvalue()


# -- the command: sessions, running score, saved records -------------------------------------------

def run_main(args, answers, then=None):
    out = io.StringIO()
    script = Script(answers, out, then)
    status = main(args, ask=script, out=out)
    return status, out.getvalue()


def test_main_plays_a_deal_and_saves_its_record(tmp_path):
    path = tmp_path / "game.json"
    status, text = run_main(["--agents", "random:bid_rate=0", "--seed", "3", "--save", str(path)],
                            ["arcisolissimo"], then="1")
    assert status == 0
    assert "Mediatore · rules: standard · seed 3 · deal 0" in text
    assert "== Deal: the result" in text and "payoffs: You " in text
    assert f"record saved to {path}" in text
    record = load_record(path)
    deal = replay(record)
    assert record["meta"] == {"agents": ["human", "random:bid_rate=0", "random:bid_rate=0",
                                         "random:bid_rate=0"], "human_seat": 0, "seed": 3,
                              "deal_index": 0, "program": "mediatore-play"}
    assert record["result"]["contract"] == "arcisolissimo" and record["result"]["declarer"] == 0
    pays = " · ".join(f"{n} {p:+d}" for n, p in zip(["You", "random(1)", "random(2)", "random(3)"],
                                                      deal.payoffs))
    assert f"payoffs: {pays}" in text
    # every hand is revealed at the end
    for hand in record["hands"]:
        assert hand_inline(to_mask(parse_card(c) for c in hand)) in text


def test_same_cards_as_the_tournament_deal():
    from agents.mediatore.tournament import HOOKS
    _, text = run_main(["--agents", "random:bid_rate=0", "--seed", "8", "--deal", "5", "--seat", "2"],
                       [], then="1")
    deal = Deal(None, HOOKS.dealer(5, 4), HOOKS.pack(8, 5, 0))
    mine = " ".join(CARD_NAMES[c] for c in sorted(range(40), key=lambda c: (suit_of(c), -c))
                    if deal.hands[2] >> c & 1)
    assert "You are seat 2" in text
    assert "All four passed: the deal is thrown in, no one pays." in text
    assert all(card in text.split("Your hand:")[1].split("\n  random")[0] for card in mine.split())


def test_several_deals_keep_a_running_score(tmp_path):
    path = tmp_path / "g.json"
    status, text = run_main(["--agents", "random:bid_rate=0", "random:bid_rate=0", "random",
                             "--seed", "1", "--deals", "3", "--save", str(path)],
                            ["1", "", "1", "q"])
    assert status == 0
    assert "Deal 1 of 3" in text and "Deal 2 of 3" in text and "Deal 3 of 3" not in text
    assert "Running score after 2 deals: You " in text
    assert "Stopped. Score over 2 finished deals" in text
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g-0.json", "g-1.json"]
    for p in tmp_path.iterdir():
        replay(load_record(p))


def test_eof_mid_deal_is_a_clean_stop():
    status, text = run_main(["--agents", "random:bid_rate=0", "--seed", "3"], ["solo"])
    assert status == 0 and text.rstrip().endswith("Stopped. No deal was finished.")


@pytest.mark.parametrize("args,words", [
    (["--agents", "nosuch"], "unknown agent 'nosuch'"),
    (["--agents", "greedy", "greedy"], "--agents takes one agent (for all 3 other seats) or 3, got 2"),
    (["--rule", "signals=loud"], "bad value 'loud' for rules switch 'signals'"),
    (["--rule", "colour=red"], "unknown rules switch 'colour'"),
    (["--deals", "0"], "argument --deals: must be 1 or more, not 0"),
])
def test_bad_options(args, words, capsys):
    with pytest.raises(SystemExit) as e:
        main(args, ask=lambda p: "q", out=io.StringIO())
    assert e.value.code == 2
    assert words in capsys.readouterr().err


def test_piped_stdin_full_deal_no_traceback(tmp_path):
    """The real program, input from a pipe (not a terminal): bad input, a full deal, a record."""
    path = tmp_path / "piped.json"
    answers = "what?\n99\narcisolissimo\n" + "1\n" * 12
    proc = subprocess.run([sys.executable, "-m", "mediatore_env.tools.play", "--agents", "random:bid_rate=0",
                           "--seed", "4", "--save", str(path)], input=answers, text=True,
                          capture_output=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr + proc.stdout
    assert "Your move [1-6, ? help, q quit]: what?\n" in proc.stdout  # answers are echoed
    assert "There is no move 99" in proc.stdout
    assert "== Deal: the result" in proc.stdout
    assert json.loads(path.read_text())["result"]["contract"] == "arcisolissimo"


def test_record_path_numbers_the_records_of_several_deals_or_games():
    from mediatore_env.tools.terminal import record_path
    assert record_path(None, 3, True) is None
    assert str(record_path("out/game.json", 3, False)) == "out/game.json"
    assert str(record_path("out/game.json", 3, True)) == "out/game-3.json"
    assert str(record_path("out/game", 0, True)) == "out/game-0.json"


@pytest.mark.parametrize("game", sorted(registry.GAMES))
def test_every_games_first_line_says_rules_once(game):
    # Every game's rules_line is the rules bare; the one play loop writes "rules: " before
    # them, so the first line reads the same way in every game.
    definition = registry.get(game)
    rules = definition.display.rules_line(definition.make_rules())
    assert rules and not rules.startswith("rules")
    status, text = run_main(["--game", game, "--seed", "1"], ["q"])
    assert status == 0
    assert text.splitlines()[0] == (f"{definition.title} · rules: {rules} · seed 1 · "
                                    f"{definition.unit} 0")


# -- any registered game: the toy game of tests/toy_game at the terminal -------------------------

def test_the_toy_game_is_played_by_the_one_loop(tmp_path):
    """The toy game, registered from the tests (conftest.py), gets terminal play with nothing
    but its registry entry and its display: the same loop, the same answers, the same quit."""
    from mediatore_env.registry import replay as replay_any
    from mediatore_env.tools.play import play_session
    out = io.StringIO()
    script = Script(["?", "t", "zz", "9"], out, then="1")
    path = tmp_path / "toy.json"
    assert play_session("toy3", ["random", "random"], human=1, seed=4, count=2, save=str(path),
                        term=Terminal(script, out), auto=False) == 0
    text = out.getvalue()
    assert text.startswith("Three-handed toy trick game · rules: 2 hands, scoring by thirds · "
                           "seed 4")
    assert "How to answer" in text and "Not a card or a move: 'zz'" in text
    assert "There is no move 9" in text
    assert "Game 1 of 2, hand 1: " in text and "wins the trick" in text
    assert "Running score after 1 game: " in text and "Final score: " in text
    for k in (0, 1):
        record = json.loads((tmp_path / f"toy-{k}.json").read_text())
        assert replay_any(record).is_over and record["meta"]["human_seat"] == 1
        assert record["meta"]["game_index"] == k and record["game"] == "toy3"
    # A card the human does not hold, then Ctrl-D: a clean stop, nothing finished.
    out = io.StringIO()
    from agents.tournament import hooks_of
    first = registry.make("toy")
    first.deal(hooks_of("toy").pack(1, 0, 0))
    missing = next(c for c in range(40) if not first.hands[0] >> c & 1)
    assert play_session("toy", ["random"], seed=1, term=Terminal(Script([CARD_NAMES[missing]],
                                                                        out), out)) == 0
    assert "You do not hold the" in out.getvalue()
    assert out.getvalue().rstrip().endswith("Stopped. No game was finished.")


def test_the_games_hooks_deal_each_episode_wherever_it_is_played(monkeypatch, tmp_path):
    """mediatore-play --deal K deals mediatore-bench's episode K, and the demonstrations its
    first rotation, because all three ask the game's hooks who deals first (and the packs):
    change the hooks' dealer and every one of them follows."""
    from agents.demos import load_demos, record_deals
    from agents.tournament import Hooks, run_tournament
    from mediatore_env.tools.play import play_session
    # the toy game's hooks are the plain ones: seat 2, not 1, deals first in episode 1 of 3
    monkeypatch.setattr(Hooks, "dealer", lambda self, index, players: (index + 1) % players)
    bench = run_tournament(["random"] * 3, deals=2, seed=6, record_deals=[1], game="toy3")
    first = bench.records[0]
    assert first["dealer"] == 2
    path = tmp_path / "toy.json"
    play_session("toy3", ["random"] * 3, human=None, seed=6, first=1, save=str(path),
                 term=Terminal(None, io.StringIO()))
    assert json.loads(path.read_text()) == {**first, "meta": json.loads(path.read_text())["meta"]}
    record_deals(["random"] * 3, None, 6, 1, 1, tmp_path / "demos-0.npz", game="toy3")
    demos = load_demos(tmp_path)
    assert demos["seat"][0] == first["moves"][0]["seat"] == 0  # the lead after seat 2's deal
    assert list(demos["payoff"][:1]) == [first["result"]["outcome"][0]]
