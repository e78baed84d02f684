"""Tressette's engine (docs/rules.md 10.1-10.2) on deals built by hand: the deal of each form,
every meld, the declaration order, the game to 31 ending mid-hand, claims, Low Hand, the dead
hand, the two-handed stock; and the engine's errors, copies, JSON text and records.

The policy of the scripted hands is "play your lowest legal card (by id)", so each trick below
can be followed by hand; the expected numbers are worked out in the comments.
"""

from __future__ import annotations

import copy
import doctest
import json
import pickle

import numpy as np
import pytest
from tressette_packs import build_pack, cards

from mediatore_env.core.cards import parse_card, to_mask
from mediatore_env.tressette import game as game_module
from mediatore_env.tressette import melds as melds_module
from mediatore_env.tressette import moves as moves_module
from mediatore_env.tressette import rules as rules_module
from mediatore_env.tressette import (CLAIM, FORMS, NUM_MOVES, TARGET, TressetteGame,
                                     TressetteRules, deal_hands, melds_of, move_text, parse_move)
from mediatore_env.tressette.melds import ACES, NAPOLETANA, THREES, TWOS
from mediatore_env.tressette.rules import false_claim_outcome, outcome

import mediatore_env.tressette as package


def mask(text):
    return to_mask(cards(text))


def lowest(game):
    """The scripted policy: the lowest legal card by id (never a claim)."""
    return min(m for m in game.legal_moves() if m != CLAIM)


def play_trick(game):
    for _ in range(game.players - len(game.trick)):
        game.apply(lowest(game))


def play_hand(game):
    while not game.needs_pack and not game.is_over:
        game.apply(lowest(game))


@pytest.mark.parametrize("module", [package, game_module, melds_module, moves_module,
                                    rules_module])
def test_docstring_examples(module):
    assert doctest.testmod(module).failed == 0


# -- rules ------------------------------------------------------------------------------------

def test_forms_and_sides():
    four, three, two = FORMS["tressette"], FORMS["tressette3"], FORMS["tressette2"]
    assert (four.players, three.players, two.players) == (4, 3, 2)
    assert four.sides == ((0, 2), (1, 3)) and three.sides == ((0,), (1,), (2,))
    assert two.sides == ((0,), (1,))
    assert (four.num_tricks, three.num_tricks, two.num_tricks) == (10, 10, 20)
    assert all(TressetteRules.from_dict(r.to_dict()) == r for r in FORMS.values())
    assert four.replace(low=True).low and not four.low
    assert TARGET == 31


@pytest.mark.parametrize("switches, message", [
    ({"players": 5}, "bad value 5 for rules switch 'players'; valid: 4, 3, 2"),
    ({"players": True}, "bad value True for rules switch 'players'"),
    ({"low": 1}, "bad value 1 for rules switch 'low'; valid: False, True"),
    ({"players": 4, "show_draws": False}, "show_draws=False applies only to the two-handed"),
])
def test_bad_rules_are_refused(switches, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        TressetteRules(**switches)


def test_unknown_switch_names_the_valid_ones():
    with pytest.raises(ValueError, match="unknown Tressette rules switch.*'trumps'.*valid: "
                                         "players, low, claim, show_draws"):
        TressetteRules.from_dict({"trumps": True})


def test_outcomes_of_the_spec():
    four, three, two = FORMS["tressette"], FORMS["tressette3"], FORMS["tressette2"]
    assert outcome(four, [31, 20], ender=0) == (1, -1, 1, -1)
    assert outcome(four, [12, 33], ender=1) == (-1, 1, -1, 1)
    assert outcome(three, [5, 31, 30], ender=1) == (-1, 2, -1)
    assert outcome(two, [31, 30], ender=0) == (1, -1)
    # Low Hand: the lower total wins.
    assert outcome(four.replace(low=True), [31, 20], ender=0) == (-1, 1, -1, 1)
    assert outcome(two.replace(low=True), [31, 30], ender=0) == (-1, 1)
    low3 = three.replace(low=True)
    assert outcome(low3, [31, 10, 12], ender=0) == (-1, 2, -1)
    assert outcome(low3, [10, 31, 10], ender=1) == (1, -2, 1)  # the two others tie: +1 each
    # Ties that only claims make possible go against the side that ended the game (decision 17).
    assert outcome(low3, [31, 31, 40], ender=0) == (-1, 2, -1)
    assert outcome(low3, [35, 35, 35], ender=2) == (1, 1, -2)
    assert outcome(four.replace(low=True), [33, 33], ender=1) == (1, -1, 1, -1)
    # A false claim: the claimant's side loses.
    assert false_claim_outcome(four, 1) == (1, -1, 1, -1)
    assert false_claim_outcome(three, 2) == (1, 1, -2)
    assert false_claim_outcome(two, 0) == (-1, 1)


# -- moves ------------------------------------------------------------------------------------

def test_move_ids_and_text():
    assert NUM_MOVES == 41 and CLAIM == 40
    assert [move_text(m) for m in (0, 9, 27, 39, 40)] == ["D4", "D3", "SA", "B3", "claim"]
    assert parse_move("sa") == parse_move("play SA") == 27 and parse_move(" claim ") == CLAIM
    for bad in ("claim game", "D9", "", "play"):
        with pytest.raises(ValueError, match="not a Tressette move"):
            parse_move(bad)
    with pytest.raises(ValueError, match="valid ids are 0..40"):
        move_text(41)


# -- the deal ---------------------------------------------------------------------------------

def test_four_handed_deal_is_batches_of_five_from_the_dealers_next_seat():
    pack = list(range(40))
    hands, dead, stock = deal_hands(FORMS["tressette"], pack, dealer=3)
    # Seat 0 (after dealer 3) gets cards 0-4 and 20-24, seat 1 5-9 and 25-29, ...
    assert hands == [mask(list(range(0, 5)) + list(range(20, 25))),
                     mask(list(range(5, 10)) + list(range(25, 30))),
                     mask(list(range(10, 15)) + list(range(30, 35))),
                     mask(list(range(15, 20)) + list(range(35, 40)))]
    assert dead == 0 and stock == ()


def test_three_handed_deal_has_the_dead_hand_in_the_fourth_place():
    """docs/rules.md decision 18."""
    hands, dead, stock = deal_hands(FORMS["tressette3"], list(range(40)), dealer=0)
    assert hands == [mask(list(range(10, 15)) + list(range(30, 35))),
                     mask(list(range(0, 5)) + list(range(20, 25))),
                     mask(list(range(5, 10)) + list(range(25, 30)))]
    assert dead == mask(list(range(15, 20)) + list(range(35, 40))) and stock == ()


def test_two_handed_deal_leaves_twenty_cards_in_the_stock_top_first():
    hands, dead, stock = deal_hands(FORMS["tressette2"], list(range(40)), dealer=1)
    assert hands == [mask(list(range(0, 5)) + list(range(10, 15))),
                     mask(list(range(5, 10)) + list(range(15, 20)))]
    assert dead == 0 and stock == tuple(range(20, 40))


@pytest.mark.parametrize("players", [4, 3, 2])
@pytest.mark.parametrize("dealer", [0, 1])
def test_the_test_packs_deal_what_they_say(players, dealer):
    hands = {seat: cards(["D4", "CA", "SR", "B3", "B7"][seat:seat + 1]) for seat in range(players)}
    pack = build_pack(players, dealer, hands, dead="DA" if players == 3 else "",
                      stock="D3" if players == 2 else "")
    dealt, dead, stock = deal_hands(TressetteRules(players=players), pack, dealer)
    for seat, want in hands.items():
        assert dealt[seat] & mask(want) == mask(want)
    assert bool(dead >> parse_card("DA") & 1) == (players == 3)
    assert stock[:1] == ((parse_card("D3"),) if players == 2 else ())


# -- melds ------------------------------------------------------------------------------------

def test_every_meld_kind():
    assert [(m.kind, m.points) for m in melds_of(mask("CA C2 C3 D4 D5"))] == [(NAPOLETANA, 3)]
    for kind, ranks in ((ACES, "A"), (TWOS, "2"), (THREES, "3")):
        three = mask(f"D{ranks} C{ranks} B{ranks}")
        four = mask(f"D{ranks} C{ranks} S{ranks} B{ranks}")
        assert melds_of(three) == [(kind, three, 3)]
        assert melds_of(four) == [(kind, four, 4)]
        assert melds_of(mask(f"D{ranks} C{ranks} SR BR")) == []  # two of them count nothing
    assert melds_of(mask("DA D2 SA B2 C3 S3 D7 DR")) == []  # two Assi, two 2s, two 3s


def test_the_chapters_nineteen_point_hand():
    # Three napoletane (9) and three 2s, three 3s (3 + 3) with the four Assi (4): 19, the most.
    hand = mask("DA D2 D3 CA C2 C3 SA S2 S3 BA")
    melds = melds_of(hand)
    assert sum(m.points for m in melds) == 19
    assert [str(m) for m in melds] == ["napoletana DA D2 D3 (3)", "napoletana CA C2 C3 (3)",
                                       "napoletana SA S2 S3 (3)", "four aces DA CA SA BA (4)",
                                       "three twos D2 C2 S2 (3)", "three threes D3 C3 S3 (3)"]
    # With a four instead of the fourth Asso: 18.
    assert sum(m.points for m in melds_of(hand & ~mask("BA") | mask("B4"))) == 18


def test_a_card_counts_in_a_napoletana_and_a_group():
    melds = melds_of(mask("DA D2 D3 CA SA"))
    assert [(m.kind, m.cards) for m in melds] == [(NAPOLETANA, mask("DA D2 D3")),
                                                  (ACES, mask("DA CA SA"))]
    assert sum(m.points for m in melds) == 6


# -- the first scripted game (four-handed) ----------------------------------------------------
# Hand 1, dealer 3: seat 0 leads and holds the 19-point hand. Playing its lowest card it leads
# DA, D2, D3, CA, C2, C3, SA, S2, S3 and wins each trick (every higher card of those suits is
# its own), then BA; seat 2 keeps B3 to the end (the highest id, never its lowest card) and
# takes the last trick. Side 0 takes all 32 thirds: 10 points + 1 for the last trick + 19 of
# melds = 30, one short of 31; side 1 scores 0.
HAND_1 = {0: "DA D2 D3 CA C2 C3 SA S2 S3 BA", 2: "B3 B2"}
# Hand 2, dealer 0: seat 1 leads D4; seat 2 plays D7, seat 3 D5, seat 0 D6 (each its lowest
# Denaro): seat 2 wins a trick of no points. Everyone holds a napoletana; the declarations go
# seat 2, 1, 3, 0 (the winner, then the others in playing order from the dealer's next seat,
# seat 1, as they played to the trick).
HAND_2 = {0: "D6 DA D2 D3", 1: "D4 SA S2 S3", 2: "D7 BA B2 B3", 3: "D5 CA C2 C3"}


def scripted_game(**switches):
    game = TressetteGame(FORMS["tressette"].replace(**switches), dealer=3)
    game.deal(build_pack(4, 3, HAND_1))
    return game


def test_melds_are_declared_after_the_first_trick_from_the_cards_dealt():
    game = scripted_game()
    assert game.to_move == 0
    play_trick(game)
    trick = game.log[-1].tricks[0]
    assert trick.leader == 0 and trick.cards[0] == parse_card("DA") and trick.winner == 0
    # DA was played, yet the melds are counted from the ten cards dealt: all 19 points.
    assert [(d.seat, d.meld.points) for d in game.log[-1].melds] == [
        (0, 3), (0, 3), (0, 3), (0, 4), (0, 3), (0, 3)]
    thirds_of_trick = sum(1 if c % 10 in (4, 5, 6, 8, 9) else 3 if c % 10 == 7 else 0
                          for c in trick.cards)
    assert game.totals == [19 + thirds_of_trick // 3, 0]


def test_the_first_hand_scores_thirty_and_eleven_card_points():
    game = scripted_game()
    play_hand(game)
    log = game.log[0]
    assert [t.winner % 2 for t in log.tricks] == [0] * 10
    assert log.tricks[-1].winner == 2 and log.tricks[-1].cards[2] == parse_card("B3")
    assert log.thirds[0] + log.thirds[2] == 32 and log.last_winner == 2
    assert game.hand_points == [30, 0] and game.totals == [30, 0]
    # Card points alone: 10 + 1 and 0, which add up to 11.
    assert [p - m for p, m in zip(game.hand_points, log.meld_points)] == [11, 0]
    # the hand's dealer stays on the table until the next hand's pack passes the deal on
    assert game.needs_pack and not game.is_over and game.dealer == 3
    game.deal(list(range(40)))
    assert game.dealer == 0 and game.to_move == 1 and game.first_dealer == 3


def test_declaration_order_is_the_winner_then_playing_order_from_the_dealers_next_seat():
    """docs/rules.md decision 15."""
    game = TressetteGame(FORMS["tressette"], dealer=0)
    game.deal(build_pack(4, 0, HAND_2))
    play_trick(game)
    assert [t.cards for t in game.log[-1].tricks] == [tuple(cards("D4 D7 D5 D6"))]
    assert [d.seat for d in game.log[-1].melds] == [2, 1, 3, 0]
    assert [d.meld.cards for d in game.log[-1].melds] == [mask("BA B2 B3"), mask("SA S2 S3"),
                                                         mask("CA C2 C3"), mask("DA D2 D3")]
    assert game.totals == [6, 6]


def test_three_handed_declarations_go_on_from_the_dealers_next_seat():
    """docs/rules.md decision 15."""
    # Dealer 0: seat 1 leads D4, seat 2 wins with DR, seat 0 plays D5. Seat 2 declares, then
    # seat 1 and seat 0, in the order they played (not seat 0 first, the seat after the winner).
    game = TressetteGame(FORMS["tressette3"], dealer=0)
    game.deal(build_pack(3, 0, {1: "D4 DA D2 D3", 2: "DR CA C2 C3", 0: "D5 SA S2 S3"},
                         dead="D6 D7 DF DC"))
    for card in ("D4", "DR", "D5"):
        game.apply(parse_card(card))
    assert game.log[0].tricks[0].winner == 2
    assert [d.seat for d in game.log[0].melds] == [2, 1, 0]


def test_the_game_ends_mid_hand_the_moment_a_side_reaches_31():
    """docs/rules.md decision 14."""
    game = scripted_game()
    play_hand(game)
    game.deal(build_pack(4, 0, HAND_2))
    play_trick(game)
    # Seat 2 declares first: 30 + 3 = 33, and the game ends before seats 1, 3, 0 declare.
    assert game.is_over and game.end_reason == "target" and game.ender == 0
    assert [d.seat for d in game.log[-1].melds] == [2]
    assert game.totals == [33, 0] and game.outcome == (1, -1, 1, -1)
    assert game.to_move is None and game.legal_moves() == []
    assert all(h.bit_count() == 9 for h in game.hands)  # the hand in play ends at once
    with pytest.raises(ValueError, match="the game is over"):
        game.apply(lowest_card_of(game, 1))
    with pytest.raises(ValueError, match="no pack is needed now: the game is over"):
        game.deal(list(range(40)))


# Hand 2', dealer 0: seat 1 leads D4 (its lowest; it holds every other Denaro but the three
# below), seat 2 follows with DA, its only Denaro, seats 3 and 0 with D5 and D6: seat 2 wins 3
# thirds, one point, and side 0 goes from 30 to 31 before anyone declares (seat 2's napoletana
# of Bastoni would come first).
HAND_2_ACE = {1: "D4 D7 DF DC DR D2 D3", 2: "DA BA B2 B3", 3: "D5", 0: "D6"}


def test_the_first_trick_can_end_the_game_before_the_melds():
    """docs/rules.md decision 14."""
    game = scripted_game()
    play_hand(game)
    game.deal(build_pack(4, 0, HAND_2_ACE))
    play_trick(game)
    trick = game.log[-1].tricks[0]
    assert trick.cards == tuple(cards("D4 DA D5 D6")) and trick.winner == 2
    assert game.is_over and game.totals == [31, 0] and game.end_reason == "target"
    assert game.log[-1].melds == [] and game.outcome == (1, -1, 1, -1)


def lowest_card_of(game, seat):
    return (game.hands[seat] & -game.hands[seat]).bit_length() - 1


def test_low_hand_the_side_reaching_31_loses():
    game = scripted_game(low=True)
    play_hand(game)
    game.deal(build_pack(4, 0, HAND_2))
    play_trick(game)
    assert game.is_over and game.totals == [33, 0] and game.outcome == (-1, 1, -1, 1)


def test_with_claims_the_game_goes_on_until_a_claim():
    game = scripted_game(claim=True)
    assert CLAIM in game.legal_moves()
    play_hand(game)
    game.deal(build_pack(4, 0, HAND_2))
    play_trick(game)
    # No automatic end: all four declare; side 0 has 30 + 3 + 3 = 36, side 1 0 + 3 + 3 = 6.
    assert not game.is_over and [d.seat for d in game.log[-1].melds] == [2, 1, 3, 0]
    assert game.totals == [36, 6] and game.first_to_target == 0
    assert game.to_move == 2
    game.apply(CLAIM)
    assert game.is_over and game.end_reason == "claim" and game.claimant == 2
    assert game.outcome == (1, -1, 1, -1)


def test_a_false_claim_loses_the_game():
    game = scripted_game(claim=True)
    game.apply(lowest(game))  # seat 0 leads DA
    game.apply(CLAIM)  # seat 1 claims with 0 points
    assert game.is_over and game.end_reason == "false_claim" and game.claimant == 1
    assert game.outcome == (1, -1, 1, -1)
    three = TressetteGame(FORMS["tressette3"].replace(claim=True), dealer=2)
    three.deal(list(range(40)))
    three.apply(CLAIM)  # seat 0, no points
    assert three.outcome == (-2, 1, 1)


def test_an_unclaimed_hand_ends_the_game_for_the_first_to_31():
    """docs/rules.md decision 16."""
    game = scripted_game(claim=True)
    play_hand(game)
    game.deal(build_pack(4, 0, HAND_2))
    play_hand(game)  # nobody claims: the hand is scored, and side 0 passed 31 first
    assert game.is_over and game.end_reason == "hand_end" and game.ender == 0
    assert len(game.log[-1].tricks) == 10 and game.outcome == (1, -1, 1, -1)


# -- three-handed -----------------------------------------------------------------------------

def test_the_dead_hand_never_plays_never_declares_never_shows():
    dead = "DA D2 D3 CA SA BA C3 S3 B3 B2"  # 10 points of melds, 6 + 12 = 18 thirds
    game = TressetteGame(FORMS["tressette3"], dealer=2)
    game.deal(build_pack(3, 2, {}, dead=dead))
    assert game.log[0].dead == mask(dead) and game.to_move == 0
    play_hand(game)
    log = game.log[0]
    assert len(log.tricks) == 10 and all(len(t.cards) == 3 for t in log.tricks)
    played = to_mask(c for t in log.tricks for c in t.cards)
    assert played & mask(dead) == 0 and played | mask(dead) == (1 << 40) - 1
    assert log.melds == []  # nobody holds a meld; the dead hand's are never declared
    assert sum(log.thirds) == 32 - 18
    for seat in range(3):
        view = game.view(seat)
        seen = view.hand | view.dealt | to_mask(c for _, c in view.draws if c is not None)
        assert seen & mask(dead) == 0
        assert "dead" not in dir(view)
    # Each player's thirds are rounded down apart, plus the last trick: at most 11, here less.
    assert sum(game.hand_points) == sum(t // 3 for t in log.thirds) + 1 <= 11


# -- two-handed -------------------------------------------------------------------------------

def test_two_handed_draws_winner_first_and_melds_count_the_first_ten_cards_only():
    """docs/rules.md decision 19."""
    # Seat 0 (after dealer 1) leads D4; seat 1 follows with its lowest Denaro, D5, and wins.
    # The winner draws the top card (D3), seat 0 the next (B3). Seat 0 was dealt DA D2; the D3
    # comes after the melds and to the other player, so no napoletana of Denari is declared.
    pack = build_pack(2, 1, {0: "D4 DA D2", 1: "D5 C4"}, stock="D3 B3")
    game = TressetteGame(FORMS["tressette2"], dealer=1)
    game.deal(pack)
    assert game.stock[:2] == tuple(cards("D3 B3")) and len(game.stock) == 20
    play_trick(game)
    log = game.log[0]
    assert log.tricks[0].cards == tuple(cards("D4 D5")) and log.tricks[0].winner == 1
    assert log.draws == [(1, parse_card("D3")), (0, parse_card("B3"))]
    assert all(h.bit_count() == 10 for h in game.hands) and len(game.stock) == 18
    assert all(d.meld.cards != mask("DA D2 D3") for d in log.melds)
    # Shown draws: seat 0 sees seat 1's D3; without the switch it sees only that a card came.
    assert game.view(0).draws == ((1, parse_card("D3")), (0, parse_card("B3")))
    hidden = TressetteGame(FORMS["tressette2"].replace(show_draws=False), dealer=1)
    hidden.deal(pack)
    play_trick(hidden)
    assert hidden.view(0).draws == ((1, None), (0, parse_card("B3")))
    assert hidden.view(1).draws == ((1, parse_card("D3")), (0, None))
    play_hand(game)
    assert len(log.tricks) == 20 and len(log.draws) == 20 and game.stock == ()
    assert sum(p - m for p, m in zip(game.hand_points, log.meld_points)) == 11


# -- errors, copies, text, records ------------------------------------------------------------

def test_an_illegal_move_names_the_legal_ones_and_changes_nothing():
    game = scripted_game()
    game.apply(lowest(game))  # seat 0 leads DA; seat 1 holds Denari and must follow
    before = game.clone()
    legal = game.legal_moves()
    assert legal and all(m // 10 == 0 for m in legal)
    for bad in (parse_card("B4"), CLAIM, 41, -1, 1.0, True, "D4", np.array([1])):
        with pytest.raises(ValueError, match=r"illegal move .*(legal: |valid ids)"):
            game.apply(bad)
        assert game == before
    with pytest.raises(ValueError, match=f"legal: {move_text(legal[0])} \\({legal[0]}\\)"):
        game.apply(CLAIM)
    game.apply(np.int64(legal[0]))  # numpy integers are welcome
    assert game.history[-1] == (1, legal[0])
    with pytest.raises(ValueError, match="not a Tressette move: 'D9'"):
        game.apply_text("D9")
    game.apply_text(move_text(game.legal_moves()[0]).lower())  # the move's text, any case
    assert len(game.history) == 3 and game.history[-1][0] == 2


def test_the_deal_refuses_bad_packs_and_untimely_deals():
    game = TressetteGame()
    with pytest.raises(ValueError, match="illegal move .*needs a pack first"):
        game.apply(0)
    with pytest.raises(ValueError, match="bad pack.*repeated: D4"):
        game.deal([0] * 40)
    assert game.needs_pack and game.log == []
    game.deal(list(range(40)))
    with pytest.raises(ValueError, match="no pack is needed now: hand 1 is in play"):
        game.deal(list(range(40)))
    for bad in (4, -1, True, 1.5):
        with pytest.raises(ValueError, match="bad dealer"):
            TressetteGame(dealer=bad)
    with pytest.raises(ValueError, match="bad dealer 3; valid: 0, 1, 2"):
        TressetteGame(FORMS["tressette3"], dealer=3)
    with pytest.raises(ValueError, match="bad seat 4"):
        game.view(4)


def test_clone_json_pickle_and_records_of_a_game_in_progress():
    game = scripted_game(claim=True)
    play_hand(game)
    game.deal(build_pack(4, 0, HAND_2))
    for _ in range(6):
        game.apply(lowest(game))
    clone = game.clone()
    assert clone == game
    clone.apply(lowest(clone))
    assert clone != game and len(game.history) == 46 and game.trick != clone.trick
    data = game.to_json()
    assert TressetteGame.from_json(data) == game == TressetteGame.from_json(json.dumps(data))
    assert pickle.loads(pickle.dumps(game)) == game == copy.deepcopy(game)
    game.apply(CLAIM)  # seat 0, in the second trick of hand 2, claims with side 0 at 36
    record = json.loads(json.dumps(game.record(players=["a", "b", "c", "d"])))
    assert record["result"]["outcome"] == [1, -1, 1, -1] and record["meta"]["players"][0] == "a"
    assert TressetteGame.replay(record) == game


def test_a_tampered_record_is_refused_with_the_reason():
    game = scripted_game()
    play_hand(game)
    game.deal(build_pack(4, 0, HAND_2))
    play_trick(game)
    record = game.record()
    bad = copy.deepcopy(record)
    bad["result"]["totals"] = [31, 0]
    with pytest.raises(ValueError, match="result differs at 'totals'"):
        TressetteGame.replay(bad)
    bad = copy.deepcopy(record)
    bad["moves"][0]["seat"] = 1
    with pytest.raises(ValueError, match="move 0 .* recorded for seat 1, but seat 0 is to move"):
        TressetteGame.replay(bad)
    bad = copy.deepcopy(record)
    bad["packs"] = bad["packs"][:1]
    with pytest.raises(ValueError, match="hand 2 needs a pack, but only 1 are given"):
        TressetteGame.replay(bad)
    bad = copy.deepcopy(record)
    bad["packs"].append(bad["packs"][0])
    with pytest.raises(ValueError, match="3 packs given, but the moves use 2"):
        TressetteGame.replay(bad)
    with pytest.raises(ValueError, match="not a Tressette record"):
        TressetteGame.replay({"format": "mediatore-record"})


def test_trick_winner_counts_seats_round_a_smaller_table():
    from mediatore_env.core.tricks import trick_winner
    # Seat 2 leads at three players; seat 0, then seat 1 follow (seat 0 is two places on).
    assert trick_winner(2, cards("D4 D5 D7"), players=3) == 1
    assert trick_winner(2, cards("D4 D5 DR"), players=3) == 1
    assert trick_winner(2, cards("D4 DR D5"), players=3) == 0
    assert trick_winner(1, cards("D4 C3"), players=2) == 1
