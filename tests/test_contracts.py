"""Contracts (docs/rules.md section 5): the call, the exchange with the monte, the Mediatore give.

Dealer 3, so il mano is seat 0. With the SEGREGATED hands seat 0 holds the Denari (but D4),
seat 1 the Coppe, seat 2 the Spade, seat 3 the Bastoni; the monte is D4 C4 S4 B4.
"""

import pytest
from packs import SEGREGATED, SEGREGATED_MONTE, make_deal, mask, play

from mediatore_env.core.cards import parse_card
from mediatore_env.mediatore.moves import (CALL, CALL_BASE, DISCARD, DISCARD_BASE, GIVE, GIVE_BASE,
                                           PLAY, parse_move)

MONTE = mask(SEGREGATED_MONTE)


def auction(contract, declarer=0, **switches):
    """Seats pass until ``declarer`` bids ``contract``; then the other three pass."""
    deal = make_deal(SEGREGATED, SEGREGATED_MONTE, **switches)
    play(deal, *["pass"] * declarer, "bid " + contract, "pass", "pass", "pass")
    assert deal.declarer == declarer
    return deal


def calls(texts):
    return sorted(CALL_BASE + parse_card(t) for t in texts.split())


ALL = "D4 D5 D6 D7 DF DC DR DA D2 D3 C4 C5 C6 C7 CF CC CR CA C2 C3 " \
      "S4 S5 S6 S7 SF SC SR SA S2 S3 B4 B5 B6 B7 BF BC BR BA B2 B3"


@pytest.mark.parametrize("contract", ["chiamo", "mediatore"])
@pytest.mark.parametrize("restriction,allowed", [
    ("any", ALL),                                        # docs/rules.md 5: any card
    ("three", "D3 C3 S3 B3"),                            # 8.4: only a 3
    ("three_or_two", "D3 C3 S3 B3 D2 C2 S2 B2"),         # a 3 or a 2
    ("no_ace", " ".join(t for t in ALL.split() if t[1] != "A")),  # any but an Ace
])
def test_call_restrictions(contract, restriction, allowed):
    deal = auction(contract, call_restriction=restriction)
    assert deal.phase == CALL and deal.to_move == 0
    assert sorted(deal.legal_moves()) == calls(allowed)
    assert len(deal.legal_moves()) == len(allowed.split())
    for card in ALL.split():
        assert deal.is_legal(CALL_BASE + parse_card(card)) == (card in allowed.split())
    if restriction != "any":
        before = deal.to_json()
        with pytest.raises(ValueError, match="call DA"):
            deal.apply(parse_move("call DA"))
        assert deal.to_json() == before and deal.phase == CALL


def test_chiamo_with_partner():
    deal = play(auction("chiamo"), "call C3")  # seat 1 holds C3
    assert deal.called_card == parse_card("C3") and deal.partner == 1 and deal.holder == 1
    assert deal.declarer_side == (0, 1)
    # The declarer takes the monte without showing it: 13 cards, any 4 may be discarded.
    assert deal.phase == DISCARD and deal.to_move == 0
    hand = mask(SEGREGATED[0]) | MONTE
    assert deal.hands[0] == hand and deal.monte == 0
    assert sorted(deal.legal_moves()) == sorted(DISCARD_BASE + c for c in range(40) if hand >> c & 1)
    assert deal.hands[1] == mask(SEGREGATED[1])  # the partner keeps the called card
    play(deal, "discard D5", "discard D6", "discard C4")
    assert deal.phase == DISCARD and len(deal.legal_moves()) == 10
    assert not deal.is_legal(parse_move("discard D5"))  # already discarded
    play(deal, "discard S4")
    assert deal.phase == PLAY and deal.to_move == 0
    assert [h.bit_count() for h in deal.hands] == [9, 9, 9, 9]
    assert deal.monte == deal.discards == mask("D5 D6 C4 S4")
    assert deal.original_monte == MONTE


def test_chiamo_called_card_in_monte():
    deal = play(auction("chiamo"), "call B4")  # B4 lies in the monte
    assert deal.partner is None and deal.holder is None and deal.declarer_side == (0,)
    assert deal.phase == DISCARD and deal.hands[0] >> parse_card("B4") & 1


def test_chiamo_called_card_in_own_hand():
    deal = play(auction("chiamo"), "call D3")
    assert deal.partner is None and deal.holder == 0 and deal.declarer_side == (0,)
    assert deal.phase == DISCARD


def test_chiamo_without_the_monte():
    # Variant 1: the declarer neither takes nor sees the monte; play starts after the call.
    deal = play(auction("chiamo", chiamo_monte=False), "call S2")
    assert deal.partner == 2 and deal.phase == PLAY
    assert deal.hands[0] == mask(SEGREGATED[0]) and deal.monte == MONTE and deal.discards == 0
    with pytest.raises(ValueError, match="discard"):
        deal.apply(parse_move("discard D3"))


def test_mediatore_with_a_giver():
    deal = play(auction("mediatore"), "call C3")
    # The holder (seat 1) gives C3 openly; the declarer then takes the monte: 9 + 1 + 4 = 14.
    assert deal.giver == 1 and deal.partner is None and deal.declarer_side == (0,)
    assert deal.hands[1] == mask(SEGREGATED[1]) & ~mask("C3")
    assert deal.hands[0] == mask(SEGREGATED[0]) | mask("C3") | MONTE
    assert deal.hands[0].bit_count() == 14 and deal.phase == DISCARD
    play(deal, "discard D5", "discard D6", "discard D7", "discard D4")
    # Then one card back, face down, to the giver: any of the declarer's ten cards.
    assert deal.phase == GIVE and deal.to_move == 0
    ten = mask("D3 D2 DA DR DC DF C3 C4 S4 B4")
    assert deal.hands[0] == ten
    assert sorted(deal.legal_moves()) == sorted(GIVE_BASE + c for c in range(40) if ten >> c & 1)
    with pytest.raises(ValueError):
        deal.apply(parse_move("give C5"))  # not the declarer's card
    play(deal, "give S4")
    assert deal.given_back == parse_card("S4")
    assert deal.hands[1] == mask(SEGREGATED[1]) & ~mask("C3") | mask("S4")
    assert deal.hands[0] == mask("D3 D2 DA DR DC DF C3 C4 B4")
    assert [h.bit_count() for h in deal.hands] == [9, 9, 9, 9]
    assert deal.monte == mask("D5 D6 D7 D4") and deal.phase == PLAY and deal.to_move == 0


@pytest.mark.parametrize("called", ["B4", "D3"])  # in the monte / in the declarer's own hand
def test_mediatore_without_a_giver(called):
    deal = play(auction("mediatore"), "call " + called)
    assert deal.giver is None and deal.hands[0].bit_count() == 13
    assert deal.hands[1:] == [mask(h) for h in SEGREGATED[1:]]
    play(deal, "discard D5", "discard D6", "discard D7", "discard C4")
    assert deal.phase == PLAY and deal.given_back is None  # no give phase
    assert [h.bit_count() for h in deal.hands] == [9, 9, 9, 9]


def test_solo_takes_the_monte():
    deal = auction("solo", declarer=2)
    assert deal.phase == DISCARD and deal.to_move == 2 and deal.called_card is None
    assert deal.hands[2] == mask(SEGREGATED[2]) | MONTE
    play(deal, "discard S5", "discard S6", "discard D4", "discard C4")
    assert deal.phase == PLAY and deal.monte == mask("S5 S6 D4 C4")
    assert [h.bit_count() for h in deal.hands] == [9, 9, 9, 9]


@pytest.mark.parametrize("contract", ["solissimo", "arcisolissimo"])
def test_no_exchange_in_solissimo_and_arcisolissimo(contract):
    deal = auction(contract, declarer=3)
    assert deal.phase == PLAY and deal.to_move == 0  # il mano leads
    assert deal.hands == [mask(h) for h in SEGREGATED] and deal.monte == MONTE
    assert deal.called_card is None and deal.partner is None and deal.discards == 0
