"""Move ids and their text (game.py docstring), and what an illegal move does: a ValueError
naming the move, the seat, the phase and the legal moves, with the state left unchanged."""

import re

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from packs import SEGREGATED, SEGREGATED_MONTE, make_deal, play

from mediatore_env.core.cards import CARD_NAMES
from mediatore_env.mediatore.moves import (AUCTION, CALL, DISCARD, GIVE, NUM_MOVES, PLAY, bid_move,
                                           call_move, card_of_move, discard_move, give_move,
                                           move_text, parse_move, phase_of_move, play_move,
                                           signal_of_move)

SIGNALS = ["", "busso", "volo", "striscio", "ribusso", "meglio", "busso+meglio",
           "ribusso+meglio", "tutto fuori"]


def expected_text(move):
    """The move table of game.py's docstring, written out independently."""
    if move == 0:
        return "pass"
    if move <= 5:
        return "bid " + ["chiamo", "mediatore", "solo", "solissimo", "arcisolissimo"][move - 1]
    for verb, base in (("call", 6), ("discard", 46), ("give", 86)):
        if move < base + 40:
            return f"{verb} {CARD_NAMES[move - base]}"
    signal, card = divmod(move - 126, 40)
    return f"play {CARD_NAMES[card]}" + (f" {SIGNALS[signal]}" if signal else "")


def test_486_move_ids():
    assert NUM_MOVES == 486
    texts = [move_text(m) for m in range(NUM_MOVES)]
    assert len(set(texts)) == NUM_MOVES


@pytest.mark.parametrize("move", range(NUM_MOVES))
def test_move_text_round_trip(move):
    text = move_text(move)
    assert text == expected_text(move)
    assert parse_move(text) == move
    assert parse_move(text.upper()) == move
    assert parse_move("  " + text + " ") == move


@pytest.mark.parametrize("move", range(NUM_MOVES))
def test_builders_and_decoders(move):
    # The layout of the table, written out independently: (phase, card, signal) of each id.
    if move <= 5:
        assert phase_of_move(move) == AUCTION and bid_move(move) == move
        with pytest.raises(ValueError, match="names no card"):
            card_of_move(move)
        with pytest.raises(ValueError, match="not a play"):
            signal_of_move(move)
        return
    for phase, base, build in ((CALL, 6, call_move), (DISCARD, 46, discard_move), (GIVE, 86, give_move)):
        if move < base + 40:
            assert (phase_of_move(move), card_of_move(move)) == (phase, move - base)
            assert build(move - base) == move
            with pytest.raises(ValueError, match="not a play"):
                signal_of_move(move)
            return
    signal, card = divmod(move - 126, 40)
    assert (phase_of_move(move), card_of_move(move), signal_of_move(move)) == (PLAY, card, signal)
    assert play_move(card, signal) == move
    assert signal or play_move(card) == move


@pytest.mark.parametrize("bad", [-1, NUM_MOVES])
def test_decoders_reject_ids_out_of_range(bad):
    with pytest.raises(ValueError):
        card_of_move(bad)
    with pytest.raises(ValueError):
        signal_of_move(bad)


@given(st.integers(0, NUM_MOVES - 1))
def test_move_text_round_trip_property(move):
    assert parse_move(move_text(move)) == move


@pytest.mark.parametrize("bad", [-1, NUM_MOVES, 1.0, "pass", None])
def test_move_text_bad_id(bad):
    with pytest.raises(ValueError, match="0..485"):
        move_text(bad)


@pytest.mark.parametrize("text", ["", "pas", "bid", "bid grande", "call", "call D1", "call D3 x",
                                  "discard D3 busso", "give", "play", "play D3 knock",
                                  "play ZZ", "pass pass", "6"])
def test_parse_move_bad_text(text):
    with pytest.raises(ValueError, match="not a move"):
        parse_move(text)


# -- illegal moves ----------------------------------------------------------------------------

def check_illegal(deal, move, seat, phase):
    before_json, before = deal.to_json(), deal.clone()
    legal = deal.legal_moves()
    with pytest.raises(ValueError) as e:
        deal.apply(move)
    msg = str(e.value)
    assert "illegal move" in msg
    if type(move) is int and 0 <= move < NUM_MOVES:
        assert repr(move_text(move)) in msg
    else:
        assert repr(move) in msg
    assert f"seat {seat}" in msg and f"phase {phase}" in msg
    listed = msg.split("legal: ", 1)[1]
    for m in legal:
        assert f"{move_text(m)} ({m})" in listed
    assert len(re.findall(r"\(\d+\)", listed)) == len(legal)
    assert deal.to_json() == before_json and deal == before
    assert deal.legal_moves() == legal


def test_illegal_in_every_phase():
    deal = make_deal(SEGREGATED, SEGREGATED_MONTE, call_restriction="no_ace")
    check_illegal(deal, parse_move("call D3"), 0, "auction")
    check_illegal(deal, parse_move("play D3"), 0, "auction")
    for bad in (NUM_MOVES, -1, 1.0, "pass", True, None, [0], np.array([1]), np.array(1.0)):
        check_illegal(deal, bad, 0, "auction")
    play(deal, "pass", "bid mediatore")
    check_illegal(deal, parse_move("bid chiamo"), 2, "auction")
    check_illegal(deal, parse_move("bid mediatore"), 2, "auction")
    play(deal, "pass", "pass", "pass")
    check_illegal(deal, parse_move("call CA"), 1, "call")  # no_ace
    check_illegal(deal, parse_move("pass"), 1, "call")
    play(deal, "call S3")  # seat 2 gives S3
    check_illegal(deal, parse_move("discard S5"), 1, "discard")  # seat 2's card
    check_illegal(deal, parse_move("give C3"), 1, "discard")
    play(deal, "discard C4", "discard D4", "discard S4", "discard B4")
    check_illegal(deal, parse_move("give C4"), 1, "give")  # discarded already
    check_illegal(deal, parse_move("discard C5"), 1, "give")
    play(deal, "give C5")
    check_illegal(deal, parse_move("play C3"), 0, "play")  # seat 0's turn: il mano leads
    play(deal, "play D3")
    check_illegal(deal, parse_move("play C3 busso"), 1, "play")  # signal on a follow
    check_illegal(deal, parse_move("play D2"), 1, "play")  # not in hand
    while not deal.is_over:
        deal.apply(deal.legal_moves()[0])
    before = deal.to_json()
    with pytest.raises(ValueError, match="over"):
        deal.apply(0)
    assert deal.to_json() == before


def test_numpy_move_ids_accepted():
    deal = make_deal(SEGREGATED, SEGREGATED_MONTE)
    deal.apply(np.int64(1))
    assert deal.high_bid == 1 and type(deal.history[-1][1]) is int
    deal.apply(np.int32(0))
    assert deal.to_move == 2


def test_bools_are_not_move_ids_or_cards():
    # True == 1 in Python; a bool is still not a move id nor a card of a pack.
    import pytest

    from mediatore_env.mediatore.game import Deal
    from mediatore_env.mediatore.moves import move_text
    with pytest.raises(ValueError, match="integers 0..485"):
        move_text(True)
    with pytest.raises(ValueError, match="not a card"):
        Deal(pack=[True] + list(range(2, 40)) + [0])
