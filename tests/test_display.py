"""The text of the table (mediatore_env.mediatore.display): card styles, hands, moves, the auction grid,
tricks, results, narration, and that a seat's text never shows a card the seat does not know."""

import re

import numpy as np
import pytest
from packs import SIX_DENARI, SIX_DENARI_MONTE, make_deal, mask, play, play_tricks

from mediatore_env.mediatore.display import (auction_lines, card_label, card_text, changes,
                                             format_thirds, hand_inline, hand_lines, move_words,
                                             moves_lines, result_lines, rules_text, snapshot,
                                             tricks_table, table_text)
from mediatore_env.core.cards import CARD_NAMES, parse_card, suit_of
from mediatore_env.mediatore.game import Deal
from mediatore_env.mediatore.moves import card_of_move, parse_move
from mediatore_env.mediatore.records import make_record
from mediatore_env.mediatore.rules import Rules

CODE = re.compile(r"\b[DCSB][4567FCRA23]\b")


def test_card_styles():
    sa = parse_card("SA")
    assert card_text(sa) == "ace of swords"
    assert card_text(sa, "italian") == "Asso di Spade"
    assert card_text(sa, "french") == "A♠"
    assert card_text(sa, "short") == "SA"
    assert card_label(sa) == "ace of swords (SA)"
    with pytest.raises(ValueError, match="unknown card style"):
        card_text(sa, "klingon")


@pytest.mark.parametrize("thirds,text", [(0, "0"), (1, "1/3"), (2, "2/3"), (3, "1"), (5, "1 2/3"),
                                         (35, "11 2/3")])
def test_format_thirds(thirds, text):
    assert format_thirds(thirds) == text


def test_hand_by_suit_strongest_first():
    hand = mask("D4 D3 DA C2 B5 BF B3 SR SA")
    assert hand_lines(hand) == [
        "coins   3  ace  4    D3 DA D4",
        "cups    2            C2",
        "swords  ace  king    SA SR",
        "batons  3  jack  5   B3 BF B5",
    ]
    assert hand_lines(hand, "italian")[0].split() == ["Denari", "3", "Asso", "4", "D3", "DA", "D4"]
    assert hand_lines(hand, "french")[2] == "♠ spades    A♠ K♠"
    assert hand_lines(mask("D3"), "short") == ["D  D3", "C  -", "S  -", "B  -"]
    assert hand_inline(hand) == "D3 DA D4 · C2 · SA SR · B3 BF B5"


def test_move_words():
    assert move_words(parse_move("pass")) == "pass"
    assert move_words(parse_move("bid solo")) == "bid solo"
    assert move_words(parse_move("call D3")) == "call 3 of coins"
    assert move_words(parse_move("discard C4")) == "discard 4 of cups"
    assert move_words(parse_move("give BR")) == "give king of batons"
    assert move_words(parse_move("play SA volo")) == "play ace of swords, volo"
    assert move_words(parse_move("play SA busso"), "italian") == "play Asso di Spade, busso"


def test_moves_list_groups_a_leads_signals_on_the_card_line():
    deal = make_deal(SIX_DENARI, SIX_DENARI_MONTE)
    play(deal, "bid solissimo", "pass", "pass", "pass")
    lines = moves_lines(deal.legal_moves())
    assert lines[0].split() == ["1", "3", "of", "coins", "2", "busso", "3", "striscio"]
    assert lines[-1].split() == ["25", "4", "of", "batons", "26", "busso", "27", "volo"]
    assert len(lines) == 9  # one line per card


def test_moves_list_auction_and_calls_fit_the_width():
    deal = make_deal(SIX_DENARI, SIX_DENARI_MONTE)
    lines = moves_lines(deal.legal_moves())
    assert "1  pass" in lines[0] and any("bid arcisolissimo" in line for line in lines)
    play(deal, "bid chiamo", "pass", "pass", "pass")
    strongest_first = sorted(deal.legal_moves(), key=lambda m: (suit_of(card_of_move(m)), -m))
    calls = moves_lines(strongest_first)  # one column per suit
    assert len(calls) == 11 and all(len(line) <= 78 for line in calls)
    assert calls[0].split() == ["coins", "cups", "swords", "batons"]
    assert calls[1].split() == ["1", "3", "11", "3", "21", "3", "31", "3"]
    assert calls[10].split() == ["10", "4", "20", "4", "30", "4", "40", "4"]


def test_auction_grid_starts_with_il_mano():
    lines = auction_lines([(2, 0), (3, 1), (0, 0), (1, 0), (2, 3)], mano=2)
    assert lines[0].split() == ["seat", "2", "seat", "3", "seat", "0", "seat", "1"]
    assert lines[1].split() == ["pass", "chiamo", "pass", "pass"]
    assert lines[2].split() == ["solo"]


def finished_mediatore():
    """The Mediatore deal of test_records: seat 1 gives C3, seat 0 wins 18 thirds to 17."""
    deal = make_deal(SIX_DENARI, SIX_DENARI_MONTE)
    play(deal, "bid mediatore", "pass", "pass", "pass", "call C3",
         "discard D7", "discard D6", "discard D5", "discard D4", "give C3", "play D3 busso")
    play_tricks(deal, "C7 S7 B7", "D2 C6 S6 B6", "DA C5 S5 B2", "DR CF SF BF", "DC CC SC BC",
                "DF CR SR BR", "C4 C3 S3 B3", "C2 S2 B5 S4", "CA SA BA B4")
    return deal


def test_tricks_table_marks_leader_and_winner():
    deal = finished_mediatore()
    lines = tricks_table(deal.tricks, deal.mano, thirds_won=deal.thirds_won)
    assert lines[0].split()[:2] == ["#", "seat"]
    assert lines[1].split() == ["1", ">D3*", "C7", "S7", "B7", "busso", "seat", "0", "1/3"]
    assert lines[8].split() == ["8", "S4", ">C2*", "S2", "B5", "-", "seat", "1", "2/3"]
    assert lines[10].split() == ["taken", "6", "5", "2/3", "0", "0"]


def test_result_lines_show_payoffs_and_every_hand():
    record = make_record(finished_mediatore())
    text = "\n".join(result_lines(record))
    assert "mediatore by seat 0, called 3 of cups (C3), given by seat 1" in text
    assert "declarer's side 6 -> 6 points, defenders 5 2/3 -> 5: contract WON" in text
    assert "payoffs: seat 0 +22 · seat 1 -6 · seat 2 -8 · seat 3 -8" in text
    for hand in record["hands"]:
        assert all(card in text for card in hand)
    assert "passed back to seat 1: C3" in text


def test_thrown_in_result():
    deal = play(make_deal(SIX_DENARI, SIX_DENARI_MONTE), "pass", "pass", "pass", "pass")
    assert result_lines(make_record(deal))[0] == "All four passed: the deal is thrown in, no one pays."


def test_rules_text():
    assert rules_text(Rules()) == "standard"
    assert rules_text(Rules.preset("low")) == "low"
    assert rules_text(Rules(signals="off", monte_shown="always")) == \
        "standard with monte_shown=always, signals=off"


def narrate(deal, moves, seat, names=("seat 0", "seat 1", "seat 2", "seat 3")):
    source = deal if seat is None else deal.view(seat)
    before = snapshot(source)
    play(deal, *moves)
    return changes(before, snapshot(source), names)


def test_narration_of_a_mediatore_exchange_by_seat():
    texts = {}
    for seat in (None, 0, 1, 2):
        deal = make_deal(SIX_DENARI, SIX_DENARI_MONTE)
        texts[seat] = "\n".join(narrate(deal, ["bid mediatore", "pass", "pass", "pass", "call C3",
                                               "discard D7", "discard D6", "discard D5",
                                               "discard D4", "give C4"], seat))
    for text in texts.values():
        assert "seat 0 wins the auction: mediatore." in text
        assert "seat 1 holds it and gives it openly to seat 0." in text
        assert "seat 0 turns the monte face up and takes it: D7 D6 D5 D4." in text
    for seat in (None, 0):
        assert "seat 0 discards D7 D6 D5 D4 as the new monte." in texts[seat]
    assert "seat 0 passes 4 of cups (C4) to seat 1." in texts[0]
    assert "seat 0 passes 4 of cups (C4) to seat 1." in texts[1]
    assert "seat 0 discards 4 cards face down." in texts[2]
    assert "seat 0 passes a card face down to seat 1." in texts[2]


def test_narration_keeps_the_chiamo_partner_secret():
    names = ("You", "seat 1", "seat 2", "seat 3")
    moves = ["bid chiamo", "pass", "pass", "pass", "call B3",
             "discard D7", "discard D6", "discard D5", "discard D4"]
    by_seat = {s: "\n".join(narrate(make_deal(SIX_DENARI, SIX_DENARI_MONTE), moves, s, names))
               for s in range(4)}
    assert "You win the auction: chiamo." in by_seat[1]
    assert "seat 3 holds the called card and is your secret partner." in by_seat[3]
    assert "You have a secret partner" in by_seat[0]
    assert "partner" not in by_seat[1] and "partner" not in by_seat[2]
    deal = make_deal(SIX_DENARI, SIX_DENARI_MONTE)
    play(deal, *moves)
    view = deal.view(2)
    assert "partner not known yet" in table_text(view, names)
    text = "\n".join(narrate(deal, ["play D3", "play C7", "play S7", "play B3"], 2, names))
    assert "seat 3  plays 3 of batons (B3)   (the called card: partner of you)" in text
    assert "partner seat 3" in table_text(view, names)


def allowed_cards(view) -> set[str]:
    """The cards a seat may see named: its hand, the cards played, what it saw of the monte,
    the discards and card passed back if it knows them, the called card."""
    known = view.hand | view.played | view.monte_seen | view.discards | view.final_monte
    names = {CARD_NAMES[c] for c in range(40) if known >> c & 1}
    for c in (view.called_card, view.given_back):
        if c is not None:
            names.add(CARD_NAMES[c])
    return names


@pytest.mark.parametrize("preset", ["standard", "chiamo_blind", "closed_monte", "open_monte"])
def test_a_seats_text_names_no_card_it_does_not_know(preset):
    """Random deals: at every move, each seat's table text and narration name only cards the
    seat knows (what the engine's SeatView exposes), in the short notation."""
    from agents import RandomAgent
    rng = np.random.default_rng(11)
    rules = Rules.preset(preset)
    for n in range(12):
        deal = Deal(rules, n % 4, rng=rng)
        agent = RandomAgent(bid_rate=0.4, seed=n)
        views = [deal.view(s) for s in range(4)]
        snaps = [snapshot(v) for v in views]
        while not deal.is_over:
            deal.apply(agent.act(None, views[deal.to_move]))
            for s, view in enumerate(views):
                allowed = allowed_cards(view)
                after = snapshot(view)
                text = table_text(view, style="short") + "\n".join(changes(snaps[s], after, style="short"))
                snaps[s] = after
                leaked = set(CODE.findall(text)) - allowed
                assert not leaked, (preset, n, s, leaked)


def hand_ended(name: str, seed: int):
    """Game ``name`` played by random legal moves until a hand (a club deal) of it is over."""
    from mediatore_env.core.game import CHANCE
    from mediatore_env.registry import make
    game, rng = make(name), np.random.default_rng(seed)
    while not game.is_over:
        if game.to_move == CHANCE:
            if getattr(game, "results", None) or getattr(game, "log", None):
                return game
            game.deal(rng.permutation(40).tolist())
        else:
            moves = game.legal_moves()
            game.apply(moves[rng.integers(len(moves))])
    return game


@pytest.mark.parametrize("name", ["tressette", "tressette3", "tressette2", "club"])
@pytest.mark.parametrize("seed", range(4))
def test_a_hands_end_as_data_says_what_its_text_says(name, seed):
    """The page's table of a hand's end (``stop_json``) and the terminal's (``stop_lines``)
    come from the same rows: every row's cells stand on a line of the text in order, its
    labels and words too; and the figures are the game's own (a Tressette side's hand and
    game, club's points taken)."""
    from mediatore_env.registry import get
    display, game = get(name).display, hand_ended(name, seed)
    names = ["You", "greedy(1)", "greedy(2)", "greedy(3)"][:game.players]
    end, text = display.stop_json(game, 0, names, "english"), display.stop_lines(game, 0, names, "english")
    assert any(line.startswith(f"== {end['title']} ") for line in text)
    cells = lambda row: r"\s+".join(re.escape(str(c)) for c in row)  # noqa: E731
    for part in end["parts"]:
        if part["columns"]:
            for row in [part["columns"], *part["rows"], *([part["foot"]] if part["foot"] else [])]:
                pattern = re.compile(r"(?<!\S)>?" + cells(row).replace(r"\s+", r"\s+>?") + r"(?!\S)")
                assert sum(bool(pattern.search(line)) for line in text) >= 1, (row, text)
        words = lambda lines: " ".join(" ".join(lines).split())  # noqa: E731
        for said in part["lines"] + part["notes"]:
            assert words([said]) in words(text), (said, text)
    if name == "club":
        tricks = next(p for p in end["parts"] if p["label"] == "Tricks")
        r, mano = game.results[-1], (game.results[-1].dealer + 1) % 4
        assert tricks["foot"][1:] == [format_thirds(r.thirds_won[(mano + k) % 4]) for k in range(4)]
        assert len(tricks["rows"]) == 9
    else:
        rules, log = game.rules, game.log[-1]
        rows = end["parts"][0]["rows"]
        assert [row[-1] for row in rows] == list(game.totals)
        assert [row[-2] for row in rows] == list(log.points(rules))
    # a stop that is no hand's end has neither
    assert get("mediatore").display.stop_json(hand_ended("mediatore", seed), 0, names, "english") is None
