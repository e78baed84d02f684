"""Club Mediatore (docs/rules.md 10.3): scenarios from the rules, worked out by hand on packs
chosen for them, and the engine's refusals."""

from __future__ import annotations

import pytest

from mediatore_env.club.game import Session
from mediatore_env.club.moves import (ACCEPT, ALONE, AUCTION, CALL, DISCARD, NUM_MOVES,
                                      PASS, PLAY, call_move, discard_move, move_text,
                                      parse_move, play_move)
from mediatore_env.club.rules import ClubRules, shares
from mediatore_env.core.cards import LAST_TRICK_THIRDS, POINTS, parse_card
from tests.packs import build_pack, mask

# Dealer 3: seat 0 (the dealer's left) speaks and leads first.
STRONG = build_pack(
    ["C3 S3 B3 C2 S2 B2 CA SA BA",     # seat 0: every trick it leads is its own
     "D4 D5 D6 D7 C4 C5 C6 C7 S4",
     "DF DC DR S5 S6 S7 B4 B5 B6",
     "CF CC CR SF SC SR BF BC BR"],
    "D3 D2 DA B7", dealer=3)
WEAK = build_pack(
    ["D4 D5 D6 D7 C4 C5 C6 C7 S4",     # seat 0: nothing but low cards, and a low widow
     "C3 S3 B3 C2 S2 B2 CA SA BA",
     "DF DC DR D3 D2 DA B4 B5 B6",
     "CF CC CR SF SC SR BF BC BR"],
    "S5 S6 S7 B7", dealer=3)
# The same hands one seat on, dealt by seat 0: seat 1 speaks and leads first, seat 3 holds DR.
STRONG_DEALER_0 = build_pack(
    ["CF CC CR SF SC SR BF BC BR",
     "C3 S3 B3 C2 S2 B2 CA SA BA",
     "D4 D5 D6 D7 C4 C5 C6 C7 S4",
     "DF DC DR S5 S6 S7 B4 B5 B6"],
    "D3 D2 DA B7", dealer=0)


def lowest(session: Session) -> None:
    """Play the session's current deal to its end (or the session's), every seat choosing
    its lowest legal move id: the mediator discards its lowest cards, everyone plays its
    lowest legal card."""
    number = session.deal_number
    while not session.is_over and session.deal_number == number:
        session.apply(session.legal_moves()[0])


def moves(session: Session, *texts: str) -> None:
    for text in texts:
        session.apply(parse_move(text))


def test_antes_when_the_pot_is_empty():
    session = Session(ClubRules(), dealer=3, packs=[STRONG])
    assert session.pot == 20 and session.stakes == [5, 5, 5, 5] and session.chips == [-5] * 4
    assert Session(ClubRules(ante=3), dealer=0, packs=[STRONG]).pot == 12


def test_all_pass_the_same_dealer_deals_again_pot_unchanged_and_the_deal_counts():
    session = Session(ClubRules(deals=3), dealer=3, packs=[STRONG, WEAK, STRONG])
    moves(session, "pass", "pass", "pass", "pass")
    assert session.deal_number == 2 and session.dealer == 3 and session.to_move == 0
    assert session.pot == 20 and session.chips == [-5] * 4  # no one antes again
    assert session.results[0].passed and session.results[0].chips == (-5, -5, -5, -5)  # antes
    assert session.phase == AUCTION and session.hands[0] == mask(WEAK[:3] + WEAK[12:15] + WEAK[24:27])


def test_a_session_of_one_deal_all_passed_returns_the_antes():
    session = Session(ClubRules(deals=1), dealer=3, packs=[STRONG])
    moves(session, "pass", "pass", "pass", "pass")
    assert session.is_over and session.chips == [0, 0, 0, 0] and session.pot == 0
    assert session.results[0].chips == (0, 0, 0, 0)  # the antes put in and back


def test_the_first_acceptance_ends_the_choice():
    session = Session(ClubRules(), dealer=3, packs=[STRONG])
    moves(session, "pass", "accept")
    assert session.mediator == 1 and session.phase == CALL and session.to_move == 1
    assert session.auction == [(0, PASS), (1, ACCEPT)]  # seats 2 and 3 never speak
    assert session.pot_accepted == 20


def test_the_call_is_alone_or_a_card_the_mediator_does_not_hold():
    session = Session(ClubRules(), dealer=3, packs=[STRONG])
    moves(session, "accept")
    legal = session.legal_moves()
    assert legal[0] == ALONE and len(legal) == 1 + 31
    assert call_move(parse_card("C3")) not in legal and call_move(parse_card("D3")) in legal
    with pytest.raises(ValueError, match="illegal move 'call C3'.*seat 0 in phase call"):
        session.apply(call_move(parse_card("C3")))
    assert session.phase == CALL and session.called_card is None  # unchanged


def test_a_called_card_in_the_widow_means_alone_known_when_the_widow_is_taken():
    session = Session(ClubRules(), dealer=3, packs=[STRONG])
    moves(session, "accept", "call D3")  # D3 lies in the widow
    assert session.alone is True and session.partner is None and not session.announced_alone
    assert session.phase == DISCARD and session.hands[0] == mask("C3 S3 B3 C2 S2 B2 CA SA BA D3 D2 DA B7")
    for seat in range(4):
        assert session.view(seat).alone is True
    assert session.view(0).widow == mask("D3 D2 DA B7") and session.view(1).widow == 0


def test_a_called_card_in_a_hand_makes_its_holder_the_secret_partner():
    session = Session(ClubRules(), dealer=3, packs=[STRONG])
    moves(session, "accept", "call DR")  # seat 2 holds DR
    assert session.partner == 2 and session.alone is False
    assert [session.view(s).partner for s in range(4)] == [None, None, 2, None]
    assert all(session.view(s).alone is False for s in range(4))
    moves(session, "discard D3", "discard D2", "discard DA", "discard B7")
    assert session.view(1).discards == 0 and session.view(0).discards == mask("D3 D2 DA B7")
    session.apply(session.legal_moves()[0])   # seat 0 leads
    moves(session, "play C4", "play DR")      # seat 2 shows out with the called card
    assert [session.view(s).partner for s in range(4)] == [2, 2, 2, 2]


def test_alone_won_even_pot_the_mediator_takes_it_all_and_the_session_ends():
    session = Session(ClubRules(), dealer=3, packs=[STRONG])
    moves(session, "accept", "alone")
    assert session.alone is True and session.announced_alone and session.hands[0].bit_count() == 13
    moves(session, "discard D3", "discard D2", "discard DA", "discard B7")
    lowest(session)  # it keeps the 3, 2 and Asso of three suits: all nine tricks
    deal = session.results[0]
    assert deal.discards == mask("DA D2 D3 B7") and deal.thirds == 35 and deal.won
    assert deal.pot == 20 and deal.matched == (20, 0) and deal.taken == (40, 0)
    assert deal.chips == (15, -5, -5, -5)  # ante 5, matching 20, pot of 40 taken
    assert session.is_over and session.chips == [15, -5, -5, -5] and session.pot == 0


def test_with_a_partner_won_each_matches_half_and_they_split_the_pot():
    session = Session(ClubRules(), dealer=3, packs=[STRONG])
    moves(session, "accept", "call DR", "discard D3", "discard D2", "discard DA", "discard B7")
    lowest(session)
    deal = session.results[0]
    assert deal.won and deal.partner == 2 and deal.matched == (10, 10) and deal.taken == (20, 20)
    assert session.chips == [5, -5, 5, -5] and sum(session.chips) == 0


def test_a_loss_carries_the_pot_and_the_next_mediator_matches_the_larger_pot():
    session = Session(ClubRules(), dealer=3, packs=[WEAK, STRONG_DEALER_0])
    moves(session, "accept", "alone")
    lowest(session)
    first = session.results[0]
    assert first.won is False and first.matched == (20, 0) and first.taken == (0, 0)
    assert session.pot == 40 and session.stakes == [25, 5, 5, 5]  # no other penalty
    assert session.chips == [-25, -5, -5, -5]
    # Deal 2: the deal has passed to seat 0, so seat 1 speaks first; no one antes.
    assert session.deal_number == 2 and session.dealer == 0 and session.to_move == 1
    moves(session, "accept", "call DR", "discard D3", "discard D2", "discard DA", "discard B7")
    assert session.pot_accepted == 40 and session.partner == 3
    lowest(session)
    second = session.results[1]
    assert second.won and second.pot == 40 and second.matched == (20, 20)
    assert second.taken == (40, 40)  # the whole pot of 80, split
    assert second.chips == (0, 20, 0, 20) and session.is_over
    assert session.chips == [-25, 15, -5, 15]


def test_the_end_of_the_session_returns_the_standing_pot_as_it_was_put_in():
    session = Session(ClubRules(deals=1), dealer=3, packs=[WEAK])
    moves(session, "accept", "alone")
    lowest(session)
    deal = session.results[0]
    assert deal.won is False and session.is_over
    assert session.chips == [0, 0, 0, 0] and session.stakes == [0, 0, 0, 0]
    assert deal.chips == (0, 0, 0, 0)  # ante and matching put in, then returned


def test_the_standing_pot_returns_in_proportion_after_a_loss_and_a_pass():
    session = Session(ClubRules(deals=2), dealer=3, packs=[WEAK, STRONG])
    moves(session, "accept", "call DR")  # seat 2 holds DR in WEAK: a partner
    lowest(session)
    assert session.results[0].won is False and session.stakes == [15, 5, 15, 5]
    assert session.chips == [-15, -5, -15, -5]
    moves(session, "pass", "pass", "pass", "pass")
    assert session.is_over and session.chips == [0, 0, 0, 0]
    assert session.results[1].chips == (15, 5, 15, 5)


def test_a_fixed_number_of_deals_goes_on_after_a_pot_is_won_with_new_antes():
    session = Session(ClubRules(deals=2), dealer=3, packs=[STRONG, WEAK])
    moves(session, "accept", "alone")
    lowest(session)
    assert not session.is_over and session.pot == 20  # won and emptied, then new antes
    assert session.chips == [10, -10, -10, -10] and session.stakes == [5, 5, 5, 5]
    assert session.deal_number == 2 and session.dealer == 0 and session.phase == AUCTION


def test_until_won_stops_at_twenty_deals():
    session = Session(ClubRules(), dealer=0, packs=[STRONG] * 20)
    for _ in range(20):
        moves(session, "pass", "pass", "pass", "pass")
    assert session.is_over and len(session.results) == 20 and session.chips == [0, 0, 0, 0]
    assert {r.dealer for r in session.results} == {0}  # all passed: the same dealer throughout


def test_the_discards_count_for_the_mediator():
    session = Session(ClubRules(), dealer=3, packs=[WEAK])
    moves(session, "accept", "alone", "discard S4", "discard S5", "discard S6", "discard S7")
    lowest(session)
    deal = session.results[0]
    won_in_tricks = sum(1 for t in deal.tricks if t.winner == 0)
    assert deal.discards == mask("S4 S5 S6 S7") and won_in_tricks == 0 and deal.thirds == 0
    session = Session(ClubRules(), dealer=3, packs=[STRONG])
    moves(session, "accept", "call DR", "discard C3", "discard S3", "discard B3", "discard CA")
    assert session.discards == mask("C3 S3 B3 CA")
    lowest(session)
    deal = session.results[0]
    side = (0, 2)
    in_tricks = sum(sum(POINTS[c] for c in t.cards) for t in deal.tricks if t.winner in side)
    last = LAST_TRICK_THIRDS if deal.tricks[-1].winner in side else 0
    assert deal.thirds == in_tricks + last + 6  # 1 + 1 + 1 + 3 thirds discarded


def test_play_follows_suit_and_the_dealers_left_leads():
    session = Session(ClubRules(), dealer=3, packs=[STRONG])
    moves(session, "pass", "accept", "alone", "discard D4", "discard D5", "discard D6", "discard D7")
    assert session.phase == PLAY and session.leader == 0 and session.to_move == 0
    moves(session, "play C3")
    assert session.legal_moves() == [play_move(parse_card(c)) for c in ("C4", "C5", "C6", "C7")]


def test_bad_moves_are_refused_and_change_nothing():
    session = Session(ClubRules(), dealer=3, packs=[STRONG])
    before = session.clone()
    for bad in (True, 1.0, "accept", -1, NUM_MOVES, ALONE):
        with pytest.raises(ValueError, match="illegal move"):
            session.apply(bad)
    assert session == before
    with pytest.raises(ValueError, match="not a club Mediatore move"):
        parse_move("bid solo")
    with pytest.raises(ValueError, match="bad dealer"):
        Session(ClubRules(), dealer=4)
    with pytest.raises(ValueError, match="bad pack"):
        Session(ClubRules(), dealer=0, packs=[list(range(39))])
    with pytest.raises(ValueError, match="'ante'"):
        ClubRules(ante=-5)
    with pytest.raises(ValueError, match="valid: ante, deals"):
        ClubRules.from_dict({"antes": 5})


def test_the_odd_chip_is_the_mediators():
    assert shares(20, partner=False) == (20, 0) and shares(20, partner=True) == (10, 10)
    assert shares(21, partner=True) == (11, 10) and shares(21, partner=False) == (21, 0)
    assert shares(41, partner=True) == (21, 20) and shares(1, partner=True) == (1, 0)


def test_move_texts_round_trip():
    assert [move_text(m) for m in (PASS, ACCEPT, ALONE)] == ["pass", "accept", "alone"]
    for move in range(NUM_MOVES):
        assert parse_move(move_text(move)) == move
    assert move_text(discard_move(parse_card("SA"))) == "discard SA"


def test_clone_and_json_round_trip_mid_session():
    session = Session(ClubRules(deals=3), dealer=3, packs=[WEAK, STRONG, WEAK])
    moves(session, "accept", "call DR", "discard S5")
    copy = session.clone()
    copy.apply(copy.legal_moves()[0])
    assert session.discards == mask("S5")  # the original is untouched
    again = Session.from_json(session.to_json())
    assert again == session
    lowest(session)
    assert Session.from_json(session.to_json()) == session


def test_the_caller_can_supply_each_deals_pack_as_it_starts():
    asked = []

    def packs(number, dealer):
        asked.append((number, dealer))
        return WEAK if number == 1 else STRONG_DEALER_0

    session = Session(ClubRules(deals=3), dealer=3, packs=packs)
    moves(session, "pass", "pass", "pass", "pass")  # all passed: the same dealer, a new pack
    moves(session, "accept", "alone")
    lowest(session)
    assert asked == [(1, 3), (2, 3), (3, 0)]
    with pytest.raises(ValueError, match="bad pack"):
        Session(ClubRules(), dealer=0, packs=lambda number, dealer: [1, 2, 3])


def test_the_club_engine_imports_no_rl_stack_and_no_numpy():
    import subprocess
    import sys
    code = ("import sys\n"
            "from mediatore_env.club.game import Session\n"
            "from mediatore_env.club.records import make_record, replay\n"
            "s = Session(dealer=0, packs=[list(range(40))] * 20)\n"
            "s.apply(0)\n"
            "print(sorted({m.split('.')[0] for m in sys.modules} & "
            "{'pettingzoo', 'gymnasium', 'numpy'}))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_the_end_of_a_deal_tells_every_seat_the_mediators_discards_turned_over():
    # rules 10.3: the discards are turned over and count for the mediator; until then only the
    # mediator has seen them
    from mediatore_env.club.display import ClubNarrator
    session = Session(ClubRules(), dealer=3, packs=[WEAK])
    narrators = [ClubNarrator(session, seat) for seat in range(4)]
    moves(session, "accept", "alone", "discard S4", "discard S5", "discard S6", "discard S7")
    told = [n.news() for n in narrators]
    assert "S5" in " ".join(told[0]) and "S5" not in " ".join(told[1])  # face down till the end
    lowest(session)
    for seat, narrator in enumerate(narrators):
        end = [line for line in narrator.news() if "over the discards" in line]
        assert end == ["  seat 0  turns over the discards: 7 of swords (S7), 6 of swords (S6), "
                       "5 of swords (S5), 4 of swords (S4)"], (seat, end)
