"""What each seat knows (docs/rules.md sections 5 and 8, variants 1-3): the monte, the discards, the
card passed back, and the partnership.

Dealer 3, so il mano is seat 0. SEGREGATED hands: seat 0 Denari, 1 Coppe, 2 Spade, 3 Bastoni,
monte D4 C4 S4 B4. In most tests seat 1 is the declarer, so the declarer is not il mano.
"""

import pytest
from packs import SEGREGATED, SEGREGATED_MONTE, make_deal, mask, play, play_out

from mediatore_env.core.cards import parse_card
from mediatore_env.mediatore.moves import END, PLAY

MONTE = mask(SEGREGATED_MONTE)
ALL, DECLARER, NOBODY = {0, 1, 2, 3}, {1}, set()


def declare(contract, called=None, **switches):
    """Seat 0 passes, seat 1 bids ``contract`` and the others pass; then the call, if any."""
    deal = make_deal(SEGREGATED, SEGREGATED_MONTE, **switches)
    play(deal, "pass", "bid " + contract, "pass", "pass", "pass")
    if called:
        play(deal, "call " + called)
    return deal


def exchange(deal):
    """Seat 1 (holding the Coppe and, after taking the monte, the four 4s) discards the 4s of
    the other suits; in Mediatore it passes C5 back."""
    if deal.phase != PLAY:
        for card in ("D4", "S4", "B4", "C4"):
            play(deal, "discard " + card)
        if deal.giver is not None:
            play(deal, "give C5")
    assert deal.phase == PLAY
    return deal


def seen_by(deal):
    seen = {seat for seat in range(4) if deal.view(seat).monte_seen}
    for seat in seen:
        assert deal.view(seat).monte_seen == MONTE
    return seen


@pytest.mark.parametrize("contract,called,switches,who", [
    # Chiamo: the declarer takes the monte without showing it (5); variant 2 shows it to all;
    # variant 3 changes nothing here; variant 1: no one sees it, whatever variant 2/3 say.
    ("chiamo", "S3", {}, DECLARER),
    ("chiamo", "S3", {"monte_shown": "always"}, ALL),
    ("chiamo", "S3", {"monte_shown": "never"}, DECLARER),
    ("chiamo", "S3", {"chiamo_monte": False}, NOBODY),
    ("chiamo", "S3", {"chiamo_monte": False, "monte_shown": "always"}, NOBODY),
    ("chiamo", "S3", {"chiamo_monte": False, "monte_shown": "never"}, NOBODY),
    # Mediatore and Solo: shown to everyone, except under variant 3 (declarer only).
    ("mediatore", "S3", {}, ALL),
    ("mediatore", "S3", {"monte_shown": "always"}, ALL),
    ("mediatore", "S3", {"monte_shown": "never"}, DECLARER),
    ("mediatore", "D3", {}, ALL),  # no giver: the monte is still shown
    ("solo", None, {}, ALL),
    ("solo", None, {"monte_shown": "always"}, ALL),
    ("solo", None, {"monte_shown": "never"}, DECLARER),
    # Solissimo: the declarer looks privately; variant 5: not even the declarer. Variants 2/3
    # do not apply. Arcisolissimo: no one.
    ("solissimo", None, {}, DECLARER),
    ("solissimo", None, {"monte_shown": "always"}, DECLARER),
    ("solissimo", None, {"monte_shown": "never"}, DECLARER),
    ("solissimo", None, {"arcisolissimo": False}, NOBODY),
    ("arcisolissimo", None, {}, NOBODY),
    ("arcisolissimo", None, {"monte_shown": "always"}, NOBODY),
])
def test_who_sees_the_monte(contract, called, switches, who):
    deal = make_deal(SEGREGATED, SEGREGATED_MONTE, **switches)
    play(deal, "pass", "bid " + contract, "pass")
    assert seen_by(deal) == NOBODY  # not during the auction
    play(deal, "pass", "pass")
    if called:
        assert seen_by(deal) == NOBODY  # looked at after the call, never before
        play(deal, "call " + called)
    assert seen_by(deal) == who
    exchange(deal)
    assert seen_by(deal) == who
    play_out(deal)
    assert seen_by(deal) == who  # decision 10: the original monte is not turned over later
    for seat in range(4):
        assert deal.view(seat).final_monte == deal.monte  # the final monte is


def test_discards_known_to_the_declarer_only():
    deal = exchange(declare("solo"))
    assert deal.view(1).discards == mask("D4 S4 B4 C4")
    assert [deal.view(s).discards for s in (0, 2, 3)] == [0, 0, 0]
    assert [deal.view(s).final_monte for s in range(4)] == [0, 0, 0, 0]
    play_out(deal)  # after the last trick the monte is turned over for everyone
    assert [deal.view(s).discards for s in range(4)] == [mask("D4 S4 B4 C4")] * 4


def test_mediatore_give_is_open_and_the_card_back_private():
    deal = declare("mediatore", "S3")
    for seat in range(4):  # who gave which card is public
        view = deal.view(seat)
        assert view.giver == 2 and view.called_card == parse_card("S3")
        assert view.alone is True and view.partner is None
    assert deal.view(2).hand == mask(SEGREGATED[2]) & ~mask("S3")
    assert deal.view(1).hand & mask("S3")
    exchange(deal)
    c5 = parse_card("C5")
    assert deal.view(1).given_back == c5 and deal.view(2).given_back == c5
    assert deal.view(0).given_back is None and deal.view(3).given_back is None
    assert deal.view(2).hand & mask("C5")
    play_out(deal)
    assert deal.view(0).given_back is None and deal.view(3).given_back is None  # decision 10


def test_chiamo_partner_knowledge():
    deal = exchange(declare("chiamo", "S3"))  # seat 2 holds S3
    # The partner knows at once; the declarer knows it has a partner (the card was not in its
    # hand or the monte it took) but not who; the others know nothing.
    assert (deal.view(2).alone, deal.view(2).partner) == (False, 2)
    assert (deal.view(1).alone, deal.view(1).partner) == (False, None)
    for seat in (0, 3):
        assert (deal.view(seat).alone, deal.view(seat).partner) == (None, None)
    # Seat 0 leads D3; seat 1 discards C3; seat 2 (void in Denari) plays the called card S3.
    play(deal, "play D3", "play C3")
    assert deal.view(0).partner is None
    play(deal, "play S3")
    for seat in range(4):
        assert (deal.view(seat).alone, deal.view(seat).partner) == (False, 2)


def test_chiamo_alone_with_own_card():
    deal = exchange(declare("chiamo", "C3", monte_shown="always"))  # seat 1 holds C3
    assert deal.view(1).alone is True and deal.view(1).partner is None
    for seat in (0, 2, 3):  # even seeing the monte, the others cannot tell
        assert deal.view(seat).alone is None
    play(deal, "play D3", "play C3")  # the called card is played by the declarer
    for seat in range(4):
        assert deal.view(seat).alone is True and deal.view(seat).partner is None


@pytest.mark.parametrize("switches,declarer_knows,others_know", [
    ({}, True, None),                                   # declarer took the monte
    ({"monte_shown": "never"}, True, None),
    ({"monte_shown": "always"}, True, True),            # variant 2: everyone saw the card
    ({"chiamo_monte": False}, None, None),              # variant 1: no one knows
    ({"chiamo_monte": False, "monte_shown": "always"}, None, None),
])
def test_chiamo_called_card_in_the_monte(switches, declarer_knows, others_know):
    deal = declare("chiamo", "S4", **switches)  # S4 lies in the monte
    assert deal.partner is None
    assert deal.view(1).alone is declarer_knows
    for seat in (0, 2, 3):
        assert deal.view(seat).alone is others_know
        assert deal.view(seat).partner is None
    exchange(deal)  # the declarer discards S4 (it is never played)
    assert deal.view(1).alone is declarer_knows
    play_out(deal)
    for seat in range(4):  # the monte is turned over at the end: everyone knows
        assert deal.view(seat).alone is True and deal.view(seat).partner is None


def test_chiamo_without_monte_declarer_does_not_know():
    # Variant 1, the card with seat 2: the declarer cannot tell it from a card in the monte.
    deal = declare("chiamo", "S3", chiamo_monte=False)
    assert deal.view(1).alone is None and deal.view(1).partner is None
    assert (deal.view(2).alone, deal.view(2).partner) == (False, 2)
    assert deal.view(0).alone is None and deal.view(3).alone is None


@pytest.mark.parametrize("contract,called", [("mediatore", "D3"), ("solo", None),
                                             ("solissimo", None), ("arcisolissimo", None)])
def test_alone_contracts_are_known_alone(contract, called):
    deal = declare(contract, called)
    for seat in range(4):
        assert deal.view(seat).alone is True and deal.view(seat).partner is None


def test_view_before_the_contract():
    deal = make_deal(SEGREGATED, SEGREGATED_MONTE)
    for seat in range(4):
        view = deal.view(seat)
        assert view.hand == mask(SEGREGATED[seat])
        assert view.alone is None and view.partner is None and view.monte_seen == 0
        assert view.hand_sizes == (9, 9, 9, 9)
        assert view.discards == 0 and view.given_back is None
    with pytest.raises(ValueError, match="seat"):
        deal.view(4)


def test_view_is_live_and_public_facts_shared():
    deal = exchange(declare("solo"))
    views = [deal.view(s) for s in range(4)]
    play(deal, "play D3")
    for view in views:
        assert view.trick == (parse_card("D3"),) and view.played == mask("D3")
        assert view.contract == deal.contract and view.declarer == 1
        assert view.hand_sizes == (8, 9, 9, 9) and view.to_move == 1
    assert views[0].hand == mask(SEGREGATED[0]) & ~mask("D3")
    assert views[1].legal_moves() == deal.legal_moves() and views[2].legal_moves() == []


def test_seat_knowledge_at_the_end():
    deal = play_out(exchange(declare("chiamo", "S3")))
    assert deal.phase == END
    for seat in range(4):
        view = deal.view(seat)
        assert view.partner == 2 and view.alone is False and view.payoffs == deal.payoffs
