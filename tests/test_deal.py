"""The deal (docs/rules.md sections 2 and 3): batches of three from il mano, the monte is the last
four cards; bad packs and dealers are refused."""

import re

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from packs import SEGREGATED, SEGREGATED_MONTE, build_pack, make_deal, mask

from mediatore_env.core.cards import CARD_NAMES, parse_cards, to_mask
from mediatore_env.core.game import CHANCE
from mediatore_env.mediatore.game import Deal
from mediatore_env.mediatore.moves import AUCTION
from mediatore_env.mediatore.rules import Rules


def test_deal_in_batches_of_three_from_mano():
    # Pack 0..39 with dealer 1: il mano is seat 2. By docs/rules.md 3, cards 0-2 go to seat 2,
    # 3-5 to seat 3, 6-8 to seat 0, 9-11 to seat 1, then again from seat 2 (12-14) ...;
    # cards 36-39 are the monte.
    deal = Deal(Rules(), dealer=1, pack=list(range(40)))
    assert deal.mano == 2 and deal.to_move == 2 and deal.phase == AUCTION
    expected = {2: [0, 1, 2, 12, 13, 14, 24, 25, 26],
                3: [3, 4, 5, 15, 16, 17, 27, 28, 29],
                0: [6, 7, 8, 18, 19, 20, 30, 31, 32],
                1: [9, 10, 11, 21, 22, 23, 33, 34, 35]}
    for seat, cards in expected.items():
        assert deal.hands[seat] == to_mask(cards)
        assert deal.view(seat).hand == to_mask(cards)
    assert deal.monte == to_mask([36, 37, 38, 39]) == deal.original_monte


def test_pack_as_text():
    pack = [CARD_NAMES[c] for c in range(40)]
    by_list = Deal(Rules(), 0, pack)
    by_str = Deal(Rules(), 0, " ".join(pack))
    by_ids = Deal(Rules(), 0, list(range(40)))
    assert by_list == by_str == by_ids


@pytest.mark.parametrize("dealer", range(4))
def test_build_pack_inverts_the_deal(dealer):
    deal = make_deal(SEGREGATED, SEGREGATED_MONTE, dealer=dealer)
    for seat in range(4):
        assert deal.hands[seat] == mask(SEGREGATED[seat])
    assert deal.monte == mask(SEGREGATED_MONTE)
    assert deal.mano == (dealer + 1) % 4 == deal.to_move


def test_same_pack_same_deal():
    pack = np.random.default_rng(7).permutation(40).tolist()
    a, b = Deal(Rules(), 2, pack), Deal(Rules(), 2, pack)
    assert a == b and a.hands == b.hands and a.monte == b.monte


def test_rng_shuffle_reproducible():
    a = Deal(Rules(), 0, rng=np.random.default_rng(3))
    b = Deal(Rules(), 0, rng=np.random.default_rng(3))
    c = Deal(Rules(), 0, rng=np.random.default_rng(4))
    assert a.pack == b.pack and a.pack != c.pack
    assert Deal().pack is None and Deal().to_move == CHANCE and Deal().legal_moves() == []


@given(st.permutations(range(40)), st.integers(0, 3))
def test_any_pack_deals_nine_each_and_four_to_monte(pack, dealer):
    deal = Deal(Rules(), dealer, pack)
    assert [h.bit_count() for h in deal.hands] == [9, 9, 9, 9]
    assert deal.monte == to_mask(pack[36:])
    for i in range(36):  # card i of the pack goes to the seat of batch i // 3
        seat = (dealer + 1 + i // 3) % 4
        assert deal.hands[seat] >> pack[i] & 1
    assert deal.hands[0] | deal.hands[1] | deal.hands[2] | deal.hands[3] | deal.monte == (1 << 40) - 1
    assert build_pack([[c for c in pack[:36] if deal.hands[s] >> c & 1] for s in range(4)],
                      pack[36:], dealer) == list(pack)


GOOD = list(range(40))


@pytest.mark.parametrize("pack,words", [
    (GOOD[:39], ["39 cards", "missing: B3"]),
    (GOOD + [0], ["41 cards", "repeated: D4"]),
    (GOOD[:39] + [0], ["repeated: D4", "missing: B3"]),
    (GOOD[:39] + [40], ["0..39", "40"]),
    (GOOD[:39] + [-1], ["0..39", "-1"]),
    (GOOD[:39] + ["ZZ"], ["not a card", "'ZZ'"]),
    (GOOD[:39] + [None], ["bad pack"]),
    ([CARD_NAMES[c] for c in GOOD[:39]] + ["D4"], ["repeated: D4", "missing: B3"]),
    (" ".join(CARD_NAMES[c] for c in GOOD[:39]), ["39 cards", "missing: B3"]),
    ([], ["0 cards"]),
    (5, ["bad pack"]),
])
def test_bad_pack(pack, words):
    with pytest.raises(ValueError) as e:
        Deal(Rules(), 0, pack)
    for word in words:
        assert word in str(e.value)


def test_non_integer_card_ids_refused():
    # 1.5 is not a card id; it must not be read as card 1 (truncated).
    pack = [0, 1.5] + list(range(2, 40))
    with pytest.raises(ValueError, match="bad pack"):
        Deal(Rules(), 0, pack)
    # The message names the card and what a card is (not "'float' object cannot be
    # interpreted as an integer"): a float array is an easy mistake with numpy.
    for bad, shown in ((1.5, "1.5"), (np.float64(1.0), "np.float64(1.0)"), (None, "None")):
        with pytest.raises(ValueError, match=rf"bad pack: {re.escape(shown)} is not a card: a "
                                             r"card is an id 0\.\.39 .* or a text such as 'D3'"):
            Deal(Rules(), 0, [0, bad] + list(range(2, 40)))


@pytest.mark.parametrize("dealer", [-1, 4, 1.0, "1", None, True])
def test_bad_dealer(dealer):
    with pytest.raises(ValueError) as e:
        Deal(Rules(), dealer, GOOD)
    assert "dealer" in str(e.value) and "0, 1, 2, 3" in str(e.value)


def test_numpy_dealer_and_pack_accepted():
    pack = np.arange(40)
    deal = Deal(Rules(), np.int64(2), pack)
    assert deal.dealer == 2 and deal.mano == 3 and deal.pack == tuple(range(40))


def test_rules_must_be_rules():
    with pytest.raises(ValueError, match="Rules"):
        Deal({"signals": "off"}, 0, GOOD)


def test_text_helpers():
    assert parse_cards("D3 SA") == [9, 27]
