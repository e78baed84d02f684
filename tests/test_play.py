"""Play (docs/rules.md section 6 and variant 6): the first lead, following suit, the trick
winner."""

import pytest
from packs import SEGREGATED, SEGREGATED_MONTE, make_deal, mask, play

from mediatore_env.core.cards import parse_card, parse_cards
from mediatore_env.core.tricks import trick_winner
from mediatore_env.mediatore.moves import PLAY, PLAY_BASE, parse_move

# Mixed hands (dealer 3, il mano seat 0); the monte holds the low Bastoni.
MIXED = (
    "D3 DA D7 C2 CF S5 S4 B3 BC",
    "D2 D6 CA C7 C6 SR SF B2 B7",
    "DR D5 C3 CR C5 S3 SA S7 BA",
    "DC DF D4 CC C4 S2 SC S6 BR",
)
MIXED_MONTE = "B4 B5 B6 BF"


def plays(texts):
    """The play move ids (no signal) of the cards given as text, sorted."""
    return sorted(PLAY_BASE + c for c in parse_cards(texts))


def to_play(contract, first_lead):
    """SEGREGATED hands, seat 2 declares ``contract`` (il mano is seat 0), up to the first lead."""
    deal = make_deal(SEGREGATED, SEGREGATED_MONTE, first_lead=first_lead)
    play(deal, "pass", "pass", "bid " + contract, "pass", "pass", "pass")
    if contract in ("chiamo", "mediatore"):
        play(deal, "call B3")  # seat 3's card: partner in Chiamo, giver in Mediatore
    if contract in ("chiamo", "mediatore", "solo"):
        play(deal, "discard D4", "discard C4", "discard B4", "discard S4")
    if contract == "mediatore":
        play(deal, "give S5")
    assert deal.phase == PLAY
    return deal


CONTRACTS = ("chiamo", "mediatore", "solo", "solissimo", "arcisolissimo")


@pytest.mark.parametrize("first_lead,leaders", [
    # docs/rules.md 8.6: who leads to trick one, il mano being seat 0 and the declarer seat 2,
    # for chiamo, mediatore, solo, solissimo, arcisolissimo.
    ("mano", (0, 0, 0, 0, 0)),
    ("declarer_solissimo", (0, 0, 0, 2, 2)),
    ("declarer_solo", (0, 0, 2, 2, 2)),
    ("declarer", (2, 2, 2, 2, 2)),
])
def test_first_lead(first_lead, leaders):
    for contract, leader in zip(CONTRACTS, leaders):
        deal = to_play(contract, first_lead)
        assert (contract, deal.to_move, deal.leader) == (contract, leader, leader)
        assert all(m >= PLAY_BASE for m in deal.legal_moves())


def mixed_deal(**switches):
    deal = make_deal(MIXED, MIXED_MONTE, signals="off", **switches)
    return play(deal, "bid arcisolissimo", "pass", "pass", "pass")  # no exchange


def test_follow_suit_and_trick_winner():
    deal = mixed_deal()
    assert deal.to_move == 0
    assert sorted(deal.legal_moves()) == plays(MIXED[0])  # any card may be led
    play(deal, "play S4")
    assert sorted(deal.legal_moves()) == plays("SR SF")  # seat 1 must follow Spade
    play(deal, "play SF")
    assert sorted(deal.legal_moves()) == plays("S3 SA S7")
    with pytest.raises(ValueError, match="play DR"):
        deal.apply(parse_move("play DR"))  # seat 2 holds Spade: cannot discard
    play(deal, "play S7")
    assert sorted(deal.legal_moves()) == plays("S2 SC S6")
    play(deal, "play S6")
    # S4 SF S7 S6: the Fante is the highest Spade -> seat 1, one third (the Fante).
    trick = deal.tricks[0]
    assert trick.leader == 0 and trick.cards == tuple(parse_cards("S4 SF S7 S6"))
    assert trick.winner == 1 and deal.to_move == 1 and deal.leader == 1
    assert deal.thirds_won == [0, 1, 0, 0] and deal.tricks_won == [0, 1, 0, 0]

    play(deal, "play B7")
    assert sorted(deal.legal_moves()) == plays("BA")  # seat 2's only Bastoni
    play(deal, "play BA", "play BR")
    assert sorted(deal.legal_moves()) == plays("B3 BC")
    play(deal, "play BC")
    # B7 BA BR BC: the Asso beats Re and Cavallo -> seat 2; 3 + 1 + 1 = 5 thirds.
    assert deal.tricks[1].winner == 2 and deal.to_move == 2
    assert deal.thirds_won == [0, 1, 5, 0]

    # Seat 2 leads C5; seat 3 holds CC C4, seat 0 C2 CF, seat 1 CA C7 C6.
    play(deal, "play C5", "play C4", "play C2", "play CA")
    # C2 beats CA (order 3, 2, A, ...) -> seat 0: C2 1 + CA 3 = 4 thirds.
    assert deal.tricks[2].winner == 0 and deal.thirds_won == [4, 1, 5, 0]

    # Seat 0 leads B3; seats 2 and 3 have no Bastoni left and may play anything: a void seat's
    # card of another suit never wins (no trumps).
    play(deal, "play B3", "play B2")
    assert sorted(deal.legal_moves()) == plays("DR D5 C3 CR S3 SA")
    play(deal, "play SA")
    assert sorted(deal.legal_moves()) == plays("DC DF D4 CC S2 SC")
    play(deal, "play S2")
    # B3 B2 SA S2: Bastoni led, B3 highest -> seat 0; 1 + 1 + 3 + 1 = 6 thirds.
    assert deal.tricks[3].winner == 0 and deal.thirds_won == [10, 1, 5, 0]
    assert [h.bit_count() for h in deal.hands] == [5, 5, 5, 5]


def test_signals_only_on_leads():
    deal = make_deal(MIXED, MIXED_MONTE)  # standard signals
    play(deal, "bid arcisolissimo", "pass", "pass", "pass", "play S4 busso")
    assert deal.trick_signal == 1
    assert sorted(deal.legal_moves()) == plays("SR SF")  # followers: no signal
    for text in ("play SR busso", "play SF volo", "play SR striscio"):
        with pytest.raises(ValueError):
            deal.apply(parse_move(text))
    play(deal, "play SR", "play S3", "play S2")
    assert deal.tricks[0].signal == 1 and deal.trick_signal == 0


@pytest.mark.parametrize("leader,cards,winner", [
    # hand-checked: the highest card of the suit led wins, whatever the other suits
    (0, "D4 D5 D6 D7", 3),
    (0, "D3 D2 DA DR", 0),
    (1, "C7 S3 B3 D3", 1),      # no one follows: the leader wins
    (2, "SA S2 S3 SR", 0),      # S3 played by seat 2 + 2 = seat 0
    (3, "BR BA BC B2", 2),      # B2 is the fourth card: seat (3 + 3) % 4 = 2
    (3, "CF CC SA C7", 0),      # CC by seat 0
])
def test_trick_winner(leader, cards, winner):
    assert trick_winner(leader, parse_cards(cards)) == winner


def test_nine_tricks_then_the_end():
    deal = mixed_deal()
    while not deal.is_over:
        assert deal.phase == PLAY
        deal.apply(sorted(deal.legal_moves())[0])
    assert len(deal.tricks) == 9 and sum(deal.tricks_won) == 9
    assert deal.hands == [0, 0, 0, 0] and deal.played == (1 << 40) - 1 - mask(MIXED_MONTE)
    assert deal.legal_moves() == []


def test_the_card_led_leaves_the_hand():
    deal = mixed_deal()
    play(deal, "play D3")
    assert parse_card("D3") not in [m - PLAY_BASE for m in deal.legal_moves()]
    assert sorted(deal.legal_moves()) == plays("D2 D6")
