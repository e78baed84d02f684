"""Signals on the lead (docs/rules.md section 6 and variant 7), under every code.

Seat 0 (il mano) declares Arcisolissimo, so it leads with its dealt hand
D3 DA D7 C2 CF SR B3 B2 BA. Seat 1 is void in Denari.
"""

import pytest
from packs import make_deal, play

from mediatore_env.core.cards import ALL_CARDS, LOW_MASKS, SUIT_MASKS, bit, parse_card
from mediatore_env.mediatore.moves import NUM_MOVES, parse_move, play_move
from mediatore_env.mediatore.rules import (BUSSO, BUSSO_MEGLIO, MEGLIO, NO_SIGNAL, RIBUSSO,
                                           RIBUSSO_MEGLIO, STRISCIO, TUTTO_FUORI, VOLO, Claim,
                                           allowed_signals, signal_claim)

HANDS = (
    "D3 DA D7 C2 CF SR B3 B2 BA",
    "C3 CA S3 S2 SA SC SF S7 S6",
    "D2 DR DC DF D6 D5 D4 CR CC",
    "C7 C6 C5 C4 S5 S4 BR BC BF",
)
MONTE = "B7 B6 B5 B4"
LEADER_HAND = HANDS[0].split()


def leading(signals):
    deal = make_deal(HANDS, MONTE, signals=signals)
    return play(deal, "bid arcisolissimo", "pass", "pass", "pass")


def moves(spec):
    """{card: [signals]} -> sorted play ids, each card with no signal plus the signals given."""
    out = []
    for card, signals in spec.items():
        c = parse_card(card)
        out.extend(play_move(c, s) for s in (NO_SIGNAL, *signals))
    return sorted(out)


def check_is_legal_agrees(deal):
    legal = set(deal.legal_moves())
    assert [m for m in range(NUM_MOVES) if deal.is_legal(m)] == sorted(legal)


# Standard code, by hand: busso is a request (always); volo only when the led card is the
# leader's last of its suit (SR is a singleton); striscio only when the leader keeps a Re or
# lower of the suit (D3 and DA keep D7, C2 keeps CF; B3/B2/BA keep only 3, 2, A).
STANDARD = {
    "D3": [BUSSO, STRISCIO], "DA": [BUSSO, STRISCIO], "D7": [BUSSO],
    "C2": [BUSSO, STRISCIO], "CF": [BUSSO],
    "SR": [BUSSO, VOLO],
    "B3": [BUSSO], "B2": [BUSSO], "BA": [BUSSO],
}


def test_standard_code():
    deal = leading("standard")
    assert sorted(deal.legal_moves()) == moves(STANDARD)
    check_is_legal_agrees(deal)


def test_no_striscio_code():
    deal = leading("no_striscio")
    spec = {card: [s for s in signals if s != STRISCIO] for card, signals in STANDARD.items()}
    assert sorted(deal.legal_moves()) == moves(spec)
    check_is_legal_agrees(deal)
    with pytest.raises(ValueError, match="striscio"):
        deal.apply(parse_move("play D3 striscio"))


def test_signals_off():
    deal = leading("off")
    assert sorted(deal.legal_moves()) == moves({card: [] for card in LEADER_HAND})
    check_is_legal_agrees(deal)
    before = deal.clone()
    for text in ("play D3 busso", "play SR volo", "play D3 striscio", "play D3 tutto fuori"):
        assert not deal.is_legal(parse_move(text))
        with pytest.raises(ValueError, match="illegal"):
            deal.apply(parse_move(text))
    assert deal == before


@pytest.mark.parametrize("code", ["standard", "no_striscio", "off"])
def test_standard_codes_never_allow_alternative_signals(code):
    deal = leading(code)
    for s in (RIBUSSO, MEGLIO, BUSSO_MEGLIO, RIBUSSO_MEGLIO, TUTTO_FUORI):
        for card in LEADER_HAND:
            assert not deal.is_legal(play_move(parse_card(card), s))


def alternative(busso, ribusso):
    """Signals of the alternative code: one of {none, busso, ribusso} with or without la
    meglio (a request, always), or tutto fuori alone (bluff allowed, always)."""
    out = [MEGLIO, TUTTO_FUORI]
    if busso:
        out += [BUSSO, BUSSO_MEGLIO]
    if ribusso:
        out += [RIBUSSO, RIBUSSO_MEGLIO]
    return out


def test_alternative_code_first_lead():
    # Nothing played yet; the led card counts as played. Highest / second-highest outstanding:
    # D3 led: D2 (seat 2), DA (held) -> ribusso.   DA led: D3 (held), D2 -> busso.
    # D7 led: D3 (held), D2 -> busso.              C2 led: C3, CA (seat 1) -> neither.
    # CF led: C3 (seat 1), C2 (held) -> ribusso.   SR led: S3, S2 (seat 1) -> neither.
    # B3 led: B2, BA (both held) -> both.          B2 led: B3, BA -> both.  BA led: B3, B2 -> both.
    deal = leading("alternative")
    spec = {"D3": alternative(False, True), "DA": alternative(True, False),
            "D7": alternative(True, False), "C2": alternative(False, False),
            "CF": alternative(False, True), "SR": alternative(False, False),
            "B3": alternative(True, True), "B2": alternative(True, True),
            "BA": alternative(True, True)}
    assert sorted(deal.legal_moves()) == moves(spec)
    check_is_legal_agrees(deal)
    for card in LEADER_HAND:  # the standard code's statements do not exist here
        assert not deal.is_legal(play_move(parse_card(card), VOLO))
        assert not deal.is_legal(play_move(parse_card(card), STRISCIO))


def test_alternative_code_counts_played_cards():
    deal = leading("alternative")
    # Trick 1: D3 led; seat 1 (void) throws C3, seat 2 follows D4, seat 3 (void) throws C4.
    play(deal, "play D3", "play C3", "play D4", "play C4")
    assert deal.to_move == 0
    # Now, by hand, with D3 C3 D4 C4 played:
    # DA led: D2, DR (seat 2) -> neither (it was busso before D3 went).
    # D7 led: D2 (seat 2), DA (held) -> ribusso.
    # C2 led: CA (seat 1), CR (seat 2) -> neither.
    # CF led: C2 (held), CA -> busso (it was ribusso while C3 was out).
    spec = {"DA": alternative(False, False), "D7": alternative(False, True),
            "C2": alternative(False, False), "CF": alternative(True, False),
            "SR": alternative(False, False), "B3": alternative(True, True),
            "B2": alternative(True, True), "BA": alternative(True, True)}
    assert sorted(deal.legal_moves()) == moves(spec)
    check_is_legal_agrees(deal)
    with pytest.raises(ValueError, match="busso"):
        deal.apply(parse_move("play DA busso"))
    play(deal, "play CF busso+meglio")
    assert deal.trick_signal == BUSSO_MEGLIO


@pytest.mark.parametrize("code", ["standard", "no_striscio", "off", "alternative"])
def test_followers_never_signal(code):
    deal = leading(code)
    play(deal, "play B3")
    # seat 1 has no Bastoni: any card, never with a signal
    assert sorted(deal.legal_moves()) == moves({card: [] for card in HANDS[1].split()})
    check_is_legal_agrees(deal)


def test_signal_is_recorded_with_the_trick():
    deal = leading("standard")
    play(deal, "play SR volo", "play S3", "play CR", "play S5")
    assert deal.tricks[0].signal == VOLO and deal.tricks[0].winner == 1
    for seat in range(4):
        assert deal.view(seat).tricks[0].signal == VOLO


def test_what_each_signal_states():
    """rules.signal_claim, the one statement of each signal's meaning, by hand: DA led with
    D2 played before."""
    da, d2 = parse_card("DA"), parse_card("D2")
    denari = SUIT_MASKS[0]
    for code in ("standard", "no_striscio"):
        assert signal_claim(code, BUSSO, da, 0) is None  # a request
        assert signal_claim(code, VOLO, da, 0) == Claim(none_of=denari)
    assert signal_claim("standard", STRISCIO, da, 0) == Claim(one_of=LOW_MASKS[0])  # DA is not low
    assert signal_claim("no_striscio", STRISCIO, da, 0) is None  # not a signal of the code
    # Alternative: with D2 played and DA led, D3 is the highest Denari out and DR the second.
    played = bit(d2)
    d3, dr = bit(parse_card("D3")), bit(parse_card("DR"))
    assert signal_claim("alternative", BUSSO, da, played) == Claim(one_of=d3)
    assert signal_claim("alternative", BUSSO_MEGLIO, da, played) == Claim(one_of=d3)
    assert signal_claim("alternative", RIBUSSO, da, played) == Claim(one_of=dr)
    for request in (MEGLIO, TUTTO_FUORI, NO_SIGNAL):
        assert signal_claim("alternative", request, da, played) is None
    # No Denari out: busso states the impossible.
    every_other = denari & ~bit(parse_card("D4"))
    assert signal_claim("alternative", BUSSO, parse_card("D4"), every_other) == Claim(one_of=0)
    hand = ALL_CARDS & ~every_other
    requests = (MEGLIO, TUTTO_FUORI)
    assert allowed_signals("alternative", hand, parse_card("D4"), every_other) == requests

