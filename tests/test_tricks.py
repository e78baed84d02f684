"""Tricks as the Tressette family plays them (docs/rules.md section 6): follow suit if able, no
trumps, the highest card of the suit led wins -- core/tricks.py."""

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mediatore_env.core.cards import (DENARI, SPADE, SUIT_MASKS, format_cards, parse_card,
                                      parse_cards, to_mask)
from mediatore_env.core.tricks import (Trick, follow_suit, playable, plays_and_voids,
                                       trick_winner, tricks_so_far)
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


def test_plays_and_voids_of_two_tricks():
    """Seat 3 does not follow Denari, seat 0 does not follow Spade: each is void there."""
    tricks = [(1, tuple(parse_cards("D3 D4 C5 DA"))), (3, tuple(parse_cards("S4 B2")))]
    played_by, voids = plays_and_voids(tricks, 4)
    assert played_by == [to_mask(parse_cards(c)) for c in ("DA B2", "D3", "D4", "C5 S4")]
    assert voids == [SUIT_MASKS[SPADE], 0, 0, SUIT_MASKS[DENARI]]


@pytest.mark.parametrize("name", sorted(GAMES))
def test_what_the_tricks_so_far_show_of_the_hands(name):
    """Over random play of every game: the tricks so far are the hand's finished ones, then the
    one on the table if a card is on it; the plays they show are every card of them, none
    still in a hand; and a seat void in a suit holds none of it -- except two-handed, where the
    stock may give it the suit again (so its sampler and greedy date the voids)."""
    rng = random.Random(2)
    game, checked = make(name), 0
    while not game.is_over and checked < 40:
        if game.needs_pack:
            game.deal(rng.sample(range(40), 40))
            continue
        view = game.view(0)
        tricks = tricks_so_far(view)
        assert tricks[:len(view.tricks)] == [(t.leader, t.cards) for t in view.tricks]
        assert tricks[len(view.tricks):] == ([(view.leader, view.trick)] if view.trick else [])
        played_by, voids = plays_and_voids(tricks, game.players)
        assert sum(played_by) == to_mask(c for _, cards in tricks for c in cards)
        for seat in range(game.players):
            hand = game.view(seat).hand
            assert not played_by[seat] & hand
            assert name == "tressette2" or not voids[seat] & hand, seat
        checked += bool(tricks)
        game.apply(rng.choice(game.legal_moves()))
