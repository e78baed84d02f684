"""Tricks as the Tressette family plays them (docs/rules.md section 6): follow suit if able, no
trumps, the highest card of the suit led wins -- core/tricks.py."""

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mediatore_env.core.cards import SUIT_MASKS, format_cards, parse_card, parse_cards, to_mask
from mediatore_env.core.tricks import Trick, follow_suit, playable, trick_winner
from mediatore_env.registry import GAMES, make


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


def test_one_trick_record_for_every_game():
    """Every engine records its finished tricks as core's Trick (club's and Tressette's with
    no signal); the games are played at random until a trick is finished."""
    rng = random.Random(1)
    trick = Trick(leader=2, cards=(parse_card("D4"), parse_card("D3"), parse_card("D5")),
                  winner=0)
    assert trick.signal == 0 and trick.card_of(0) == parse_card("D3")
    assert trick.card_of(1) == parse_card("D5")  # three seats: seat 1 plays after 2 and 0
    for name in GAMES:
        tricks = []
        while not tricks:
            game = make(name)
            game.deal(rng.sample(range(40), 40))
            while not game.is_over and not game.needs_pack and not tricks:
                game.apply(rng.choice(game.legal_moves()))
                tricks = game.tricks if hasattr(game, "tricks") else game.log[-1].tricks
        assert type(tricks[0]) is Trick and len(tricks[0].cards) == game.players
        assert tricks[0].winner == trick_winner(tricks[0].leader, tricks[0].cards, game.players)
