"""Cards (docs/rules.md section 1): notation, rank order, points in thirds, bitsets."""

import re

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from mediatore_env.core import cards
from mediatore_env.core.cards import (ALL_CARDS, CARD_NAMES, DECK_THIRDS, NUM_CARDS, TOTAL_THIRDS,
                                      card_long_name, card_name, cards_of, format_cards, parse_card,
                                      parse_cards, thirds_of, to_mask)

SUITS = "DCSB"
# docs/rules.md 1: rank order within a suit, highest first.
RANKS_HIGH_FIRST = ["3", "2", "A", "R", "C", "F", "7", "6", "5", "4"]
# docs/rules.md 1: A = 3 thirds; 3, 2, Re, Cavallo, Fante = 1 third; 7, 6, 5, 4 = 0.
THIRDS_BY_RANK = {"A": 3, "3": 1, "2": 1, "R": 1, "C": 1, "F": 1, "7": 0, "6": 0, "5": 0, "4": 0}
ALL_TEXTS = [s + r for s in SUITS for r in RANKS_HIGH_FIRST]


def test_forty_distinct_cards():
    assert len(ALL_TEXTS) == 40 == NUM_CARDS
    assert sorted(parse_card(t) for t in ALL_TEXTS) == list(range(40))


@pytest.mark.parametrize("text", ALL_TEXTS)
def test_card_text_round_trip(text):
    card = parse_card(text)
    assert card_name(card) == text == CARD_NAMES[card]
    assert parse_card(text.lower()) == card
    assert parse_card(f"  {text} ") == card
    assert getattr(cards, text) == card  # the named constant equals its text


@pytest.mark.parametrize("card", range(40))
def test_card_id_round_trip(card):
    assert parse_card(card_name(card)) == card


@pytest.mark.parametrize("bad", ["", "D", "D1", "DK", "DQ", "X3", "D33", "3D", "10D", None, 5, "D 3"])
def test_bad_card_text(bad):
    with pytest.raises(ValueError, match="not a card"):
        parse_card(bad)


@pytest.mark.parametrize("bad", [None, 5, ["D3"], b"D3"])
def test_parse_cards_names_a_value_that_is_no_text(bad):
    """As parse_card: a ValueError naming it, not str.split's AttributeError."""
    with pytest.raises(ValueError, match=f"not cards: {re.escape(repr(bad))}; cards are "):
        parse_cards(bad)


@pytest.mark.parametrize("bad", [-1, 40, True, 1.5, None, "D3"])
def test_card_name_refuses_what_is_no_card_id(bad):
    """-1 was 'B3' (a negative index), True 'D5', 40 an IndexError."""
    with pytest.raises(ValueError, match=f"not a card id: {re.escape(repr(bad))}; card ids "
                                         "are integers 0..39"):
        card_name(bad)
    assert card_name(np.int64(3)) == "D7"  # a numpy integer is a card id, as for a move


def test_rank_order_within_suit():
    # A larger id beats a smaller one of the same suit: the ids of a suit, highest first, must
    # follow docs/rules.md's order 3, 2, A, Re, Cavallo, Fante, 7, 6, 5, 4.
    for s in SUITS:
        ids = [parse_card(s + r) for r in RANKS_HIGH_FIRST]
        assert ids == sorted(ids, reverse=True)
        assert all(cards.suit_of(i) == SUITS.index(s) for i in ids)


@pytest.mark.parametrize("text", ALL_TEXTS)
def test_suit_power_and_bit(text):
    card = parse_card(text)
    suit, power = SUITS.index(text[0]), RANKS_HIGH_FIRST[::-1].index(text[1])  # power: weakest 0
    assert (cards.suit_of(card), cards.power_of(card)) == (suit, power)
    assert (cards.SUIT_OF[card], cards.POWER_OF[card]) == (suit, power)
    assert cards.make_card(suit, power) == card
    assert cards.bit(card) == cards.BIT_OF[card] == to_mask([card])
    assert cards.bit(card) & cards.SUIT_MASKS[suit] and cards.cards_of(cards.bit(card)) == [card]
    assert bool(cards.bit(card) & cards.LOW_MASKS[suit]) == (text[1] in "4567FCR")  # Re or lower


@pytest.mark.parametrize("text", ALL_TEXTS)
def test_points(text):
    assert cards.POINTS[parse_card(text)] == THIRDS_BY_RANK[text[1]]


def test_deck_thirds():
    # 4 suits x (3 + 1 + 1 + 1 + 1 + 1) = 32 thirds; with the last trick (3) 35.
    assert DECK_THIRDS == 32 and thirds_of(ALL_CARDS) == 32
    assert TOTAL_THIRDS == 35
    assert thirds_of(to_mask(parse_cards("DA SA D3 C7"))) == 3 + 3 + 1 + 0


def test_cards_of_order_and_format():
    mask = to_mask(parse_cards("B4 D3 SA DA C7 S3"))
    # grouped by suit D, C, S, B, strongest first within a suit
    assert format_cards(mask) == "D3 DA C7 S3 SA B4"
    assert [card_name(c) for c in cards_of(mask)] == "D3 DA C7 S3 SA B4".split()
    assert format_cards(0) == ""


def test_long_names():
    assert card_long_name(parse_card("BR")) == "Re di Bastoni"
    assert card_long_name(parse_card("SA"), "english") == "ace of swords"
    assert card_long_name(parse_card("CC"), "french") == "Q♥"  # the Cavallo is the queen
    assert card_long_name(parse_card("D3"), "french") == "3♦"
    with pytest.raises(ValueError, match="italian"):
        card_long_name(0, "german")


@given(st.sets(st.integers(0, 39)))
def test_mask_round_trip(card_set):
    mask = to_mask(card_set)
    assert set(cards_of(mask)) == card_set
    assert set(parse_cards(format_cards(mask))) == card_set
    assert mask.bit_count() == len(card_set)
    assert not card_set or cards.highest(mask) == max(card_set)
    assert thirds_of(mask) == sum(THIRDS_BY_RANK[card_name(c)[1]] for c in card_set)
