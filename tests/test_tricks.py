"""Tricks as the Tressette family plays them (docs/rules.md section 6): follow suit if able, no
trumps, the highest card of the suit led wins -- core/tricks.py."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mediatore_env.core.cards import SUIT_MASKS, format_cards, parse_card, parse_cards, to_mask
from mediatore_env.core.tricks import follow_suit, playable, trick_winner


@pytest.mark.parametrize("leader,cards,winner", [
    # a trick in progress: the seat winning it so far
    (2, "D4", 2),
    (2, "D4 D5", 3),
    (1, "C7 S3", 1),            # S3 does not follow: the lead still wins
    (3, "BR BA BC", 0),         # BA by seat (3 + 1) % 4 = 0
    (0, "D3 D2 DA DR", 0),      # complete, as in test_play.py
])
def test_trick_winner_so_far(leader, cards, winner):
    assert trick_winner(leader, parse_cards(cards)) == winner


@pytest.mark.parametrize("hand,led,allowed", [
    ("D3 D4 C5 SA", "D7", "D3 D4"),          # must follow Denari
    ("D3 D4 C5 SA", "CA", "C5"),
    ("D3 D4 C5 SA", "B4", "D3 D4 C5 SA"),    # void in Bastoni: anything
    ("", "B4", ""),
])
def test_follow_suit(hand, led, allowed):
    hand, allowed = to_mask(parse_cards(hand)), to_mask(parse_cards(allowed))
    assert follow_suit(hand, parse_card(led)) == allowed
    assert playable(hand, parse_cards(led + " S4")) == allowed   # only the card led counts
    assert playable(hand, ()) == playable(hand, []) == hand      # a lead: any card


@given(st.sets(st.integers(0, 39), max_size=10), st.integers(0, 39))
def test_follow_suit_property(hand_cards, led):
    hand = to_mask(hand_cards - {led})
    in_suit = hand & SUIT_MASKS[led // 10]
    allowed = follow_suit(hand, led)
    assert allowed == (in_suit if in_suit else hand), format_cards(allowed)
