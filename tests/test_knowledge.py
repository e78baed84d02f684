"""What a seat deduces from its view (mediatore_env.mediatore.knowledge), worked out by hand on
built deals, and the consumers that build on it (the world sampler, the greedy agent).

Dealer 3, so il mano is seat 0. SIGNAL_HANDS: seat 0 declares Arcisolissimo and leads from
D3 DA D7 C2 CF SR B3 B2 BA; seats 1 and 3 hold no Denari, seat 2 no Spade. SEGREGATED: seat s
holds nine cards of suit s, the monte is the four 4s.
"""

import random

import pytest
from packs import SEGREGATED, SEGREGATED_MONTE, make_deal, mask, play

from agents.mediatore.greedy import Situation
from mediatore_env.core.cards import LOW_MASKS, SUIT_MASKS, parse_card
from mediatore_env.mediatore.nine_tricks import deal_hands
from mediatore_env.mediatore.knowledge import deduce
from mediatore_env.mediatore.rules import ARCISOLISSIMO, CHIAMO, MEDIATORE, SOLISSIMO
from mediatore_env.mediatore.worlds import Dealt, World, WorldSampler, undo_exchange

SIGNAL_HANDS = (
    "D3 DA D7 C2 CF SR B3 B2 BA",
    "C3 CA S3 S2 SA SC SF S7 S6",
    "D2 DR DC DF D6 D5 D4 CR CC",
    "C7 C6 C5 C4 S5 S4 BR BC BF",
)
SIGNAL_MONTE = "B7 B6 B5 B4"
DENARI, COPPE, SPADE = SUIT_MASKS[0], SUIT_MASKS[1], SUIT_MASKS[2]
FOURS = mask(SEGREGATED_MONTE)


def card(text):
    return parse_card(text)


def arcisolissimo(signals):
    """Seat 0 declares Arcisolissimo (no monte, no call) and is to lead."""
    deal = make_deal(SIGNAL_HANDS, SIGNAL_MONTE, signals=signals)
    return play(deal, "bid arcisolissimo", "pass", "pass", "pass")


def real_world(deal):
    return World(tuple(deal.hands), deal.monte, deal.partner if deal.contract == CHIAMO else None)


def never(cards, k):
    raise AssertionError("nothing is left to chance here")


def test_before_any_play_a_seat_knows_its_hand_and_the_sizes():
    deal = arcisolissimo("standard")
    k = deduce(deal.view(2))
    assert k.seat == 2 and k.hand == mask(SIGNAL_HANDS[2])
    assert k.sizes == (9, 9, 9, 9) and k.played == 0 and k.played_by == (0, 0, 0, 0)
    assert k.voids == (0, 0, 0, 0) and k.held == () and k.holds_one_of == ()
    assert (k.contract, k.declarer, k.called, k.giver) == (ARCISOLISSIMO, 0, None, None)
    assert not k.taken and not k.gave and k.given_back is None
    assert k.monte_seen == 0 and k.monte is None  # no one looks at the Arcisolissimo monte
    assert k.pool_only == 0 and k.back_pool == 0


def test_a_failure_to_follow_and_a_volo_show_voids():
    # Seat 0 leads its only Spade with volo; seat 1 follows, seat 2 (no Spade) throws CR,
    # seat 3 follows.
    deal = play(arcisolissimo("standard"), "play SR volo", "play S3", "play CR", "play S5")
    k = deduce(deal.view(3))
    assert k.played == mask("SR S3 CR S5")
    assert k.played_by == (mask("SR"), mask("S3"), mask("CR"), mask("S5"))
    assert k.voids == (SPADE, 0, SPADE, 0)  # seat 0 by volo, seat 2 by not following
    assert k.held == () and k.holds_one_of == ()
    assert k.sizes == (8, 8, 8, 8)
    # the leader's own volo is its own hand: the same void, as every seat sees the same play
    assert deduce(deal.view(0)).voids == (SPADE, 0, SPADE, 0)


def test_volo_means_nothing_without_the_standard_codes():
    # Under signals "off" SR cannot carry volo; played plain, it shows no void of the leader.
    deal = play(arcisolissimo("off"), "play SR", "play S3", "play CR", "play S5")
    assert deduce(deal.view(3)).voids == (0, 0, SPADE, 0)


def test_a_striscio_is_an_open_fact_until_a_low_card_is_played():
    # D3 led with striscio: seat 0 says it keeps a low Denari (Re or lower; it holds D7).
    # Seats 1 and 3 have no Denari; seat 2 follows with D4. D3 wins.
    deal = play(arcisolissimo("standard"), "play D3 striscio", "play CA", "play D4", "play C4")
    low = LOW_MASKS[0] & ~mask("D3 D4")  # D5 D6 D7 DF DC DR: D4 is played
    assert low == mask("D5 D6 D7 DF DC DR")
    k = deduce(deal.view(1))
    assert k.holds_one_of == ((0, low),)
    assert k.voids == (0, DENARI, 0, DENARI) and k.held == ()
    assert deduce(deal.view(0)).holds_one_of == ()  # the leader knows its own hand
    # The worlds seat 1 imagines all give seat 0 a low Denari.
    sampler = WorldSampler(deal.view(1))
    rng = random.Random(1)
    assert all(sampler.sample(rng).hands[0] & low for _ in range(50))
    # Seat 0 leads D7, a low Denari: the fact is answered and says no more.
    play(deal, "play D7", "play S6", "play D5", "play C5")
    assert deduce(deal.view(1)).holds_one_of == ()


def test_an_alternative_busso_places_a_card_until_it_is_played():
    # DA led with busso (alternative code): the highest Denari not yet played, DA aside, is
    # D3, and seat 0 says it holds it. D2 (seat 2) wins the trick.
    deal = play(arcisolissimo("alternative"), "play DA busso", "play CA", "play D2", "play C4")
    k = deduce(deal.view(2))
    assert k.held == ((0, card("D3")),)
    assert k.voids == (0, DENARI, 0, DENARI) and k.holds_one_of == ()
    assert deduce(deal.view(0)).held == ()
    # Both consumers put D3 in seat 0's hand.
    sampler = WorldSampler(deal.view(2))
    rng = random.Random(2)
    assert all(sampler.sample(rng).hands[0] >> card("D3") & 1 for _ in range(50))
    sit = Situation(deal.view(2))
    assert sit.possible[0] >> card("D3") & 1
    assert not (sit.possible[1] | sit.possible[3]) >> card("D3") & 1
    # Seat 2 leads DR; seat 0 plays D3: no card is placed any more.
    play(deal, "play DR", "play C5", "play D3", "play S6")
    assert deduce(deal.view(2)).held == ()


def test_an_alternative_ribusso_places_the_second_card():
    # D3 led with ribusso: the Denari not played are D2 (the highest) and DA; seat 0 holds DA.
    deal = play(arcisolissimo("alternative"), "play D3 ribusso", "play CA", "play D4", "play C4")
    assert deduce(deal.view(1)).held == ((0, card("DA")),)
    # la meglio is a request: it places nothing
    deal = play(arcisolissimo("alternative"), "play DA meglio", "play CA", "play D2", "play C4")
    assert deduce(deal.view(2)).held == ()


def solissimo():
    deal = make_deal(SEGREGATED, SEGREGATED_MONTE)
    return play(deal, "bid solissimo", "pass", "pass", "pass")


def test_the_solissimo_declarer_saw_the_monte_where_it_lies():
    deal = solissimo()
    k = deduce(deal.view(0))
    assert k.contract == SOLISSIMO and not k.taken
    assert k.monte_seen == FOURS and k.monte == FOURS  # looked at and put back
    assert k.pool_only == 0
    other = deduce(deal.view(1))
    assert other.monte_seen == 0 and other.monte is None and other.pool_only == 0


def chiamo():
    """Seat 0 declares Chiamo, calls C3 (seat 1's), takes the monte D4 C4 S4 B4 and discards
    D5 D6 D7 S4."""
    deal = play(make_deal(SEGREGATED, SEGREGATED_MONTE), "bid chiamo", "pass", "pass", "pass",
                "call C3")
    for text in ("D5", "D6", "D7", "S4"):
        play(deal, "discard " + text)
    return deal


def test_the_chiamo_monte_is_seen_by_the_declarer_alone():
    deal = chiamo()
    k = deduce(deal.view(0))
    assert k.taken and k.called == card("C3")
    assert k.monte_seen == FOURS and k.monte == mask("D5 D6 D7 S4")  # its discards
    assert k.pool_only == 0 and k.held == ()
    for seat in (1, 2, 3):  # the partner included: it did not see the monte either
        k = deduce(deal.view(seat))
        assert k.monte_seen == 0 and k.monte is None and k.pool_only == 0 and k.held == ()


def mediatore():
    """Seat 1 declares Mediatore and calls D3: seat 0 gives it openly. Seat 1 takes the monte
    (shown to all), discards C5 C6 C7 CF and passes S4 back to seat 0."""
    deal = play(make_deal(SEGREGATED, SEGREGATED_MONTE), "pass", "bid mediatore", "pass", "pass",
                "pass", "call D3")
    for text in ("C5", "C6", "C7", "CF"):
        play(deal, "discard " + text)
    return play(deal, "give S4")


def test_mediatore_the_pool_and_the_card_passed_back_seen_from_each_seat():
    deal = mediatore()
    pool = FOURS | mask("D3")  # the monte shown and the card given: the declarer's pool
    # The declarer knows everything about the exchange.
    k = deduce(deal.view(1))
    assert (k.contract, k.declarer, k.called, k.giver) == (MEDIATORE, 1, card("D3"), 0)
    assert k.taken and k.gave and k.given_back == card("S4")
    assert k.held == ((0, card("S4")),)  # the card it passed back, in the giver's hand
    assert k.monte_seen == FOURS and k.monte == mask("C5 C6 C7 CF")
    assert k.pool_only == 0 and k.back_pool == 0
    # The giver knows the card it got back (in its own hand), not the discards.
    k = deduce(deal.view(0))
    assert k.given_back == card("S4") and k.held == () and k.monte is None
    assert k.pool_only == pool and k.back_pool == 0
    # A third seat: any one card of the pool may be back with the giver.
    k = deduce(deal.view(2))
    assert k.given_back is None and k.held == () and k.monte is None
    assert k.pool_only == pool and k.back_pool == pool
    # The giver leads S4, a card of the pool: it was the card passed back, so no other is.
    play(deal, "play S4", "play B4", "play S5", "play B5")
    k = deduce(deal.view(2))
    assert k.back_pool == 0 and k.voids == (0, SPADE, 0, SPADE)


@pytest.mark.parametrize("seat", range(4))
def test_undo_exchange_gives_the_deal_as_dealt(seat):
    deal = mediatore()
    dealt_hands, monte = deal_hands(deal.pack, deal.dealer)
    k = deduce(deal.view(seat))
    # every seat can tell here: the giver holds one card of the pool, and the monte was shown
    got = undo_exchange(k, real_world(deal), never)
    assert got == Dealt(dealt_hands, monte, mask("C5 C6 C7 CF"), card("S4"))


def test_undo_exchange_draws_what_the_seat_cannot_tell():
    # Chiamo, seen by seat 2: the monte was the declarer's alone to see, so 4 of the
    # declarer's 13 cards are drawn as the monte, by the caller's ``choose``.
    deal = chiamo()
    asked = []

    def choose(cards, k):
        asked.append((cards, k))
        return FOURS

    got = undo_exchange(deduce(deal.view(2)), real_world(deal), choose)
    assert asked == [(mask(SEGREGATED[0]) | FOURS, 4)]
    assert got.hands == deal_hands(deal.pack, deal.dealer)[0] and got.monte == FOURS
    assert got.discards == mask("D5 D6 D7 S4") and got.given_back is None


def test_a_pool_card_placed_by_a_signal_was_the_card_passed_back():
    """Mediatore, alternative code: the declarer passes S3 (from the monte) back to the giver,
    whose busso then says it holds S3. A third seat knows the card passed back: the giver holds
    no other card of the pool, and every world it draws can be dealt."""
    hands = ("D3 D2 DA DR DC DF D7 D6 S5", "C3 C2 CA CR CC CF C7 C6 C5",
             "S2 SA SR SC SF S7 S6 S4 D5", "B3 B2 BA BR BC BF B7 B6 B5")
    deal = make_deal(hands, "S3 D4 C4 B4", signals="alternative")
    play(deal, "pass", "bid mediatore", "pass", "pass", "pass", "call D3")
    for text in ("C4", "C5", "C6", "C7"):
        play(deal, "discard " + text)
    play(deal, "give S3", "play S5 busso")  # S3 is the highest Spade out: seat 0 holds it
    pool = mask("S3 D4 C4 B4 D3")
    k = deduce(deal.view(2))
    assert k.held == ((0, card("S3")),) and k.pool_only == pool and k.back_pool == 0
    sampler = WorldSampler(deal.view(2))
    rng = random.Random(4)
    for _ in range(30):
        world = sampler.sample(rng)
        assert world.hands[0] & pool == mask("S3")
        sampler.deal(world, rng)  # replays the history: the world is a possible deal
