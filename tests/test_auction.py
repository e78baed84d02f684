"""The auction (docs/rules.md section 4). Move ids: 0 = pass, 1..5 = bid chiamo..arcisolissimo."""

import pytest
from packs import SEGREGATED, SEGREGATED_MONTE, make_deal, play

from mediatore_env.mediatore.moves import AUCTION, CALL, DISCARD, END, PLAY, parse_move
from mediatore_env.mediatore.rules import ARCISOLISSIMO, CHIAMO, MEDIATORE, SOLISSIMO, SOLO

PASS = 0


def new_deal(dealer=3, **switches):
    return make_deal(SEGREGATED, SEGREGATED_MONTE, dealer=dealer, **switches)


@pytest.mark.parametrize("dealer", range(4))
def test_mano_speaks_first(dealer):
    deal = new_deal(dealer)
    assert deal.phase == AUCTION and deal.to_move == (dealer + 1) % 4
    # each call passes the turn to the next seat in playing order
    for k in range(1, 4):
        deal.apply(PASS)
        assert deal.to_move == (dealer + 1 + k) % 4


def test_opening_bids():
    assert new_deal().legal_moves() == [PASS, 1, 2, 3, 4, 5]
    # variant 5: no Arcisolissimo, Solissimo is the top bid
    assert new_deal(arcisolissimo=False).legal_moves() == [PASS, 1, 2, 3, 4]


@pytest.mark.parametrize("bid,then_legal", [
    ("chiamo", [PASS, 2, 3, 4, 5]),
    ("mediatore", [PASS, 3, 4, 5]),
    ("solo", [PASS, 4, 5]),
    ("solissimo", [PASS, 5]),
    ("arcisolissimo", [PASS]),  # top bid: the others can only pass
])
def test_next_bids_only_above_the_current_one(bid, then_legal):
    deal = play(new_deal(), "bid " + bid)
    assert deal.to_move == 1 and deal.legal_moves() == then_legal
    deal.apply(PASS)
    assert deal.to_move == 2 and deal.legal_moves() == then_legal  # a pass does not lower it


def test_equal_or_lower_bid_refused():
    deal = play(new_deal(), "bid solo")
    for text in ("bid solo", "bid mediatore", "bid chiamo"):
        with pytest.raises(ValueError, match="illegal"):
            deal.apply(parse_move(text))
    assert deal.to_move == 1 and deal.high_bid == SOLO


def test_top_bid_is_solissimo_without_arcisolissimo():
    deal = play(new_deal(arcisolissimo=False), "pass", "bid solissimo")
    assert deal.legal_moves() == [PASS]
    with pytest.raises(ValueError):
        deal.apply(parse_move("bid arcisolissimo"))
    play(deal, "pass", "pass")
    assert deal.phase == AUCTION and deal.legal_moves() == [PASS]  # seat 0 still passes
    play(deal, "pass")
    assert deal.contract == SOLISSIMO and deal.declarer == 1 and deal.phase == PLAY


def test_forced_passes_after_top_bid_are_recorded():
    deal = play(new_deal(), "bid arcisolissimo")
    for seat in (1, 2, 3):
        assert deal.phase == AUCTION and deal.to_move == seat and deal.legal_moves() == [PASS]
        deal.apply(PASS)
    assert deal.contract == ARCISOLISSIMO and deal.declarer == 0
    assert deal.auction == [(0, ARCISOLISSIMO), (1, PASS), (2, PASS), (3, PASS)]


def test_three_passes_after_the_last_bid_end_it():
    deal = play(new_deal(), "bid chiamo", "pass", "pass")
    assert deal.phase == AUCTION and deal.to_move == 3  # two passes are not enough
    play(deal, "pass")
    assert deal.phase == CALL and deal.contract == CHIAMO and deal.declarer == 0
    assert deal.to_move == 0  # the declarer calls


def test_passes_before_the_bid_do_not_count():
    # 0 and 1 pass, 2 bids; then 3 and 0 pass: only two passes after the bid.
    deal = play(new_deal(), "pass", "pass", "bid mediatore", "pass", "pass")
    assert deal.phase == AUCTION and deal.to_move == 1
    play(deal, "pass")
    assert deal.phase == CALL and deal.contract == MEDIATORE and deal.declarer == 2


def test_re_entry_after_passing():
    # Seat 0 passes, seat 1 bids; seat 0 may bid again while the auction is open (seed 002).
    deal = play(new_deal(), "pass", "bid chiamo", "pass", "pass")
    assert deal.to_move == 0 and deal.legal_moves() == [PASS, 2, 3, 4, 5]
    play(deal, "bid solo")
    # seat 1 may also come back over it
    assert deal.to_move == 1 and deal.legal_moves() == [PASS, 4, 5]
    play(deal, "pass", "pass", "pass")
    assert deal.contract == SOLO and deal.declarer == 0 and deal.phase == DISCARD


def test_overbidding_resets_the_pass_count():
    deal = play(new_deal(), "bid chiamo", "pass", "pass", "bid mediatore", "pass", "pass")
    assert deal.phase == AUCTION and deal.to_move == 2
    play(deal, "pass")
    assert deal.contract == MEDIATORE and deal.declarer == 3


def test_fourth_seat_may_open_after_three_passes():
    deal = play(new_deal(), "pass", "pass", "pass")
    assert deal.phase == AUCTION and deal.to_move == 3
    play(deal, "bid chiamo", "pass", "pass")
    assert deal.phase == AUCTION
    play(deal, "pass")
    assert deal.contract == CHIAMO and deal.declarer == 3


@pytest.mark.parametrize("dealer", range(4))
def test_throw_in(dealer):
    deal = play(new_deal(dealer), "pass", "pass", "pass", "pass")
    assert deal.is_over and deal.phase == END and deal.thrown_in
    assert deal.payoffs == (0, 0, 0, 0) and deal.contract is None and deal.declarer is None
    assert deal.legal_moves() == [] and deal.to_move is None
    with pytest.raises(ValueError, match="over"):
        deal.apply(PASS)
    assert deal.view(0).alone is None and deal.view(0).monte_seen == 0


def test_auction_is_public():
    deal = play(new_deal(), "pass", "bid chiamo", "bid solo")
    for seat in range(4):
        assert deal.view(seat).auction == ((0, PASS), (1, CHIAMO), (2, SOLO))
    assert deal.view(3).legal_moves() == [PASS, 4, 5]
    assert deal.view(0).legal_moves() == []  # not this seat's turn


@pytest.mark.parametrize("contract,phase,declarer_cards", [
    ("chiamo", CALL, 9), ("mediatore", CALL, 9), ("solo", DISCARD, 13),
    ("solissimo", PLAY, 9), ("arcisolissimo", PLAY, 9),
])
def test_what_follows_the_auction(contract, phase, declarer_cards):
    # Solo: the declarer takes the monte at once (13 cards); Solissimo/Arcisolissimo: no exchange.
    deal = play(new_deal(), "pass", "bid " + contract, "pass", "pass", "pass")
    assert deal.declarer == 1 and deal.phase == phase
    assert deal.hands[1].bit_count() == declarer_cards
    assert deal.to_move == (1 if phase != PLAY else 0)  # il mano (seat 0) leads by default
