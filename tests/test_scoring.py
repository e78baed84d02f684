"""Scoring (docs/rules.md sections 1 and 7, variant 8): thirds, the monte and the last trick, the
win at 6 points, and every payment line of the standard and low schedules, won and lost, with
capotto either way and with the capotto bonus switched off.

Every expected number below is worked out by hand from docs/rules.md; the comments say how.
Dealer 3 throughout, so il mano is seat 0.
"""

import pytest
from hypothesis import given
from hypothesis import strategies as st
from packs import (SEGREGATED, SEGREGATED_MONTE, SIX_DENARI, SIX_DENARI_MONTE, make_deal, play,
                   play_out, play_tricks)
from schedule import CAPOTTO, LINES, expected, lost

from mediatore_env.mediatore.moves import END
from mediatore_env.mediatore.rules import (ARCISOLISSIMO, CHIAMO, MEDIATORE, SOLISSIMO, SOLO, Rules,
                                           payments)

STANDARD = Rules()
LOW = Rules.preset("low")


# -- scenario: seat 0 wins six Denari tricks, then loses the lead ---------------------------
# SIX_DENARI: seat 0 holds D3 D2 DA DR DC DF C4 S4 B4; monte D7 D6 D5 D4 (no points).
# How each line reaches the same nine cards for seat 0 (calls by seat 0):
SETUPS = {
    "chiamo partner": ("bid chiamo", "call S5", "discard D7", "discard D6", "discard D5", "discard D4"),
    "chiamo alone": ("bid chiamo", "call D3", "discard D7", "discard D6", "discard D5", "discard D4"),
    "chiamo monte": ("bid chiamo", "call D7", "discard D7", "discard D6", "discard D5", "discard D4"),
    # Mediatore: seat 1 gives C3; seat 0 discards the low Denari and gives C3 back.
    "mediatore giver": ("bid mediatore", "call C3", "discard D7", "discard D6", "discard D5",
                        "discard D4", "give C3"),
    "mediatore alone": ("bid mediatore", "call D3", "discard D7", "discard D6", "discard D5", "discard D4"),
    "mediatore monte": ("bid mediatore", "call D4", "discard D7", "discard D6", "discard D5", "discard D4"),
    "solo": ("bid solo", "discard D7", "discard D6", "discard D5", "discard D4"),
    "solissimo": ("bid solissimo",),
    "arcisolissimo": ("bid arcisolissimo",),
}
# Seat 0 wins tricks 1-6 with D3 D2 DA DR DC DF (1+1+3+1+1+1 = 8 thirds); the others throw
# C7 C6 C5, S7 S6 S5, B7 B6 and the Fante, Cavallo, Re of each suit (3 x 3 = 9 thirds); seat 3
# throws B2 (1 third) on trick 3 in the winning version, B5 (0) in the losing one.
# Then seat 0 leads C4 and seat 1 wins the last three tricks; the monte has no points.
# Won:  seat 0 has 8 + 9 + 1 = 18 thirds (6 points); seats 1-3 have C3 S3 B3 (3) + C2 S2 (2)
#       + CA SA BA (9) + last trick (3) = 17 (5 points).
# Lost: 17 (5 points) against 18 (6 points).
WIN_TRICKS = ("D3 C7 S7 B7", "D2 C6 S6 B6", "DA C5 S5 B2", "DR CF SF BF", "DC CC SC BC",
              "DF CR SR BR", "C4 C3 S3 B3", "C2 S2 B5 S4", "CA SA BA B4")
LOSE_TRICKS = WIN_TRICKS[:2] + ("DA C5 S5 B5",) + WIN_TRICKS[3:7] + ("C2 S2 B2 S4", WIN_TRICKS[8])

# setup -> (payment line, partner, giver)
LINE_OF = {
    "chiamo partner": ("chiamo partner", 2, None),
    "chiamo alone": ("chiamo alone", None, None),
    "chiamo monte": ("chiamo alone", None, None),
    "mediatore giver": ("mediatore giver", None, 1),
    "mediatore alone": ("mediatore alone", None, None),
    "mediatore monte": ("mediatore alone", None, None),
    "solo": ("solo", None, None),
    "solissimo": ("solissimo", None, None),
    "arcisolissimo": ("arcisolissimo", None, None),
}


def six_denari(setup, rules, tricks):
    deal = make_deal(SIX_DENARI, SIX_DENARI_MONTE, rules=rules)
    play(deal, SETUPS[setup][0], "pass", "pass", "pass", *SETUPS[setup][1:])
    assert deal.hands[0] == make_deal(SIX_DENARI, SIX_DENARI_MONTE).hands[0]
    return play_tricks(deal, *tricks)


@pytest.mark.parametrize("schedule", ["standard", "low"])
@pytest.mark.parametrize("setup", list(SETUPS))
@pytest.mark.parametrize("won", [True, False])
def test_payment_lines(schedule, setup, won):
    rules = STANDARD if schedule == "standard" else LOW
    if setup == "arcisolissimo" and schedule == "low":
        pytest.skip("the low schedule has no Arcisolissimo")
    deal = six_denari(setup, rules, WIN_TRICKS if won else LOSE_TRICKS)
    line, partner, giver = LINE_OF[setup]
    assert deal.phase == END and deal.partner == partner and deal.giver == giver
    assert [t.winner for t in deal.tricks] == [0] * 6 + [1] * 3
    assert deal.side_thirds() == ((18, 17) if won else (17, 18))
    assert deal.side_scores() == ((6, 5) if won else (5, 6))
    assert sum(deal.side_scores()) == 11
    assert deal.declarer_won is won and deal.capotto is False
    pay = expected(LINES, schedule, line, 0, partner, giver)
    assert deal.payoffs == (pay if won else lost(pay))


def test_thirds_by_seat_and_last_trick():
    deal = six_denari("solo", STANDARD, WIN_TRICKS)
    # seat 0: 18 (above); seat 1: tricks 7-9 = 3 + 2 + 9, plus 3 for the last trick = 17.
    assert deal.thirds_won == [18, 17, 0, 0] and deal.tricks_won == [6, 3, 0, 0]
    assert sum(deal.thirds_won) == 35


def test_discards_go_to_the_last_trick_winner():
    # Solo, but seat 0 discards DC (1 third) and keeps D4: trick 5 becomes D4 CC SC BC.
    # Seat 0 now takes 18 - 1 = 17; the discarded DC goes with the monte to seat 1, who wins
    # the last trick: 17 + 1 = 18. The declarer loses: 12 from each opponent reversed.
    deal = make_deal(SIX_DENARI, SIX_DENARI_MONTE)
    play(deal, "bid solo", "pass", "pass", "pass",
         "discard DC", "discard D7", "discard D6", "discard D5")
    tricks = list(WIN_TRICKS)
    tricks[4] = "D4 CC SC BC"
    play_tricks(deal, *tricks)
    assert deal.thirds_won == [17, 18, 0, 0] and deal.side_scores() == (5, 6)
    assert deal.payoffs == (-36, 12, 12, 12)


def test_untouched_monte_goes_to_the_last_trick_winner():
    # Solissimo with DA in the monte: seat 0 holds D7 instead of DA, so trick 3 is D7 C5 S5 B2
    # and seat 0 takes 18 - 3 = 15; seat 1 wins the last trick and the monte: 17 + 3 = 20.
    hands = ("D3 D2 D7 DR DC DF C4 S4 B4",) + SIX_DENARI[1:]
    deal = make_deal(hands, "DA D6 D5 D4")
    play(deal, "bid solissimo", "pass", "pass", "pass")
    tricks = list(WIN_TRICKS)
    tricks[2] = "D7 C5 S5 B2"
    play_tricks(deal, *tricks)
    assert deal.thirds_won == [15, 20, 0, 0] and deal.side_scores() == (5, 6)
    assert deal.payoffs == (-48, 16, 16, 16)


def test_monte_counts_for_the_declarer_winning_the_last_trick():
    # Seat 0 holds every Denari but DA, which is in the monte; in Solissimo it leads Denari
    # nine times and no one can follow: all nine tricks, 32 - 3 thirds in cards, 3 for the last
    # trick, 3 for DA in the monte = 35.
    hands = ("D3 D2 DR DC DF D7 D6 D5 D4",) + SEGREGATED[1:]
    deal = play_out(play(make_deal(hands, "DA C4 S4 B4"), "bid solissimo", "pass", "pass", "pass"))
    assert deal.thirds_won == [35, 0, 0, 0] and deal.side_scores() == (11, 0)
    assert deal.capotto and deal.payoffs == (54, -18, -18, -18)  # 16 + 2 from each


# -- capotto, SEGREGATED hands: the first leader wins all nine tricks -----------------------
# Declarer seat 0 (il mano): it keeps its nine Denari and leads them: capotto for the declarers.
DECLARER_CAPOTTO = {
    "chiamo partner": (("bid chiamo", "call C3", "discard D4", "discard C4", "discard S4",
                        "discard B4"), 1, None),
    "chiamo alone": (("bid chiamo", "call D3", "discard D4", "discard C4", "discard S4",
                      "discard B4"), None, None),
    "mediatore giver": (("bid mediatore", "call C3", "discard D4", "discard C4", "discard S4",
                         "discard B4", "give C3"), None, 1),
    "mediatore alone": (("bid mediatore", "call D4", "discard D4", "discard C4", "discard S4",
                         "discard B4"), None, None),
    "solo": (("bid solo", "discard D4", "discard C4", "discard S4", "discard B4"), None, None),
    "solissimo": (("bid solissimo",), None, None),
    "arcisolissimo": (("bid arcisolissimo",), None, None),
}
# Declarer seat 1; il mano (seat 0, a defender) leads its Denari nine times: capotto against.
DEFENDER_CAPOTTO = {
    "chiamo partner": (("bid chiamo", "call S3", "discard D4", "discard C4", "discard S4",
                        "discard B4"), 2, None),
    "chiamo alone": (("bid chiamo", "call C3", "discard D4", "discard C4", "discard S4",
                      "discard B4"), None, None),
    "mediatore giver": (("bid mediatore", "call S3", "discard D4", "discard C4", "discard S4",
                         "discard B4", "give S3"), None, 2),
    "mediatore alone": (("bid mediatore", "call C3", "discard D4", "discard C4", "discard S4",
                         "discard B4"), None, None),
    "solo": (("bid solo", "discard D4", "discard C4", "discard S4", "discard B4"), None, None),
    "solissimo": (("bid solissimo",), None, None),
    "arcisolissimo": (("bid arcisolissimo",), None, None),
}


@pytest.mark.parametrize("schedule", ["standard", "low"])
@pytest.mark.parametrize("bonus", [True, False])
@pytest.mark.parametrize("by_declarer", [True, False])
@pytest.mark.parametrize("line", list(DECLARER_CAPOTTO))
def test_capotto(schedule, bonus, by_declarer, line):
    if line == "arcisolissimo" and schedule == "low":
        pytest.skip("the low schedule has no Arcisolissimo")
    rules = (STANDARD if schedule == "standard" else LOW).replace(capotto_bonus=bonus)
    moves, partner, giver = (DECLARER_CAPOTTO if by_declarer else DEFENDER_CAPOTTO)[line]
    declarer = 0 if by_declarer else 1
    deal = make_deal(SEGREGATED, SEGREGATED_MONTE, rules=rules)
    auction = ["pass"] * declarer + [moves[0], "pass", "pass", "pass"]
    play_out(play(deal, *auction, *moves[1:]))
    assert deal.declarer == declarer and deal.partner == partner and deal.giver == giver
    assert all(t.winner == 0 for t in deal.tricks)  # il mano's Denari take everything
    assert deal.capotto is True and deal.declarer_won is by_declarer
    assert deal.side_thirds() == ((35, 0) if by_declarer else (0, 35))
    assert deal.side_scores() == ((11, 0) if by_declarer else (0, 11))
    pay = expected(CAPOTTO if bonus else LINES, schedule, line, declarer, partner, giver)
    assert deal.payoffs == (pay if by_declarer else lost(pay))


# -- payments(), the function ---------------------------------------------------------------

CONTRACT_OF = {"chiamo": CHIAMO, "mediatore": MEDIATORE, "solo": SOLO, "solissimo": SOLISSIMO,
               "arcisolissimo": ARCISOLISSIMO}


@pytest.mark.parametrize("schedule", ["standard", "low"])
@pytest.mark.parametrize("declarer", range(4))
def test_payments_table(schedule, declarer):
    rules = STANDARD if schedule == "standard" else LOW
    other = (declarer + 2) % 4
    cases = [("chiamo partner", CHIAMO, other, None), ("chiamo alone", CHIAMO, None, None),
             ("mediatore giver", MEDIATORE, None, other), ("mediatore alone", MEDIATORE, None, None),
             ("solo", SOLO, None, None), ("solissimo", SOLISSIMO, None, None)]
    if schedule == "standard":
        cases.append(("arcisolissimo", ARCISOLISSIMO, None, None))
    for line, contract, partner, giver in cases:
        for table, capotto in ((LINES, False), (CAPOTTO, True)):
            pay = expected(table, schedule, line, declarer, partner, giver)
            assert payments(rules, contract, declarer, partner, giver, True, capotto) == pay
            assert payments(rules, contract, declarer, partner, giver, False, capotto) == lost(pay)
            off = rules.replace(capotto_bonus=False)
            base = expected(LINES, schedule, line, declarer, partner, giver)
            assert payments(off, contract, declarer, partner, giver, True, capotto) == base


@given(rules=st.sampled_from([STANDARD, LOW, STANDARD.replace(capotto_bonus=False),
                              LOW.replace(capotto_bonus=False)]),
       contract=st.sampled_from(list(CONTRACT_OF.values())),
       declarer=st.integers(0, 3), other=st.integers(1, 3),
       with_other=st.booleans(), won=st.booleans(), capotto=st.booleans())
def test_payments_zero_sum(rules, contract, declarer, other, with_other, won, capotto):
    if contract > rules.top_contract:
        return
    helper = (declarer + other) % 4 if with_other else None
    partner = helper if contract == CHIAMO else None
    giver = helper if contract == MEDIATORE else None
    pay = payments(rules, contract, declarer, partner, giver, won, capotto)
    assert sum(pay) == 0 and len(pay) == 4
    # the declarer's side gains exactly when it won, the others pay exactly then
    side = {declarer, partner} - {None}
    for seat in range(4):
        assert (pay[seat] > 0) == ((seat in side) == won)
