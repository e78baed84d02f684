"""Packs chosen by hand for scenario tests: the deal of docs/rules.md section 3, inverted.

docs/rules.md section 3: the dealer deals batches of three, starting with il mano
(seat ``(dealer + 1) % 4``) and going in playing order, three rounds, so every seat gets 9
cards; the last 4 cards of the pack are the monte. :func:`build_pack` turns the hands we want
back into the pack order that deals them, so a test can say "seat 2 holds these nine cards"
and hand the resulting pack to ``Deal``.

This module computes the inverse on its own (it does not call the engine's ``deal_hands``), so
a test comparing the two checks the engine's deal against docs/rules.md.
"""

from __future__ import annotations

import random

from mediatore_env.core.cards import NUM_CARDS, parse_card, parse_cards, to_mask
from mediatore_env.core.game import CHANCE
from mediatore_env.mediatore.game import Deal
from mediatore_env.mediatore.moves import parse_move
from mediatore_env.mediatore.rules import Rules


def _cards(cards) -> list[int]:
    if isinstance(cards, str):
        return parse_cards(cards)
    return [parse_card(c) if isinstance(c, str) else c for c in cards]


def mask(cards) -> int:
    """Bitset of cards given as text ``"D3 SA"`` or a list of ids/texts."""
    return to_mask(_cards(cards))


def build_pack(hands, monte, dealer: int = 0) -> list[int]:
    """Pack order (40 card ids) that deals ``hands[seat]`` to each seat and ``monte`` last.

    ``hands`` is indexed by seat; each hand is 9 cards (text or ids), dealt in the order given:
    the first three in the first round, and so on.
    """
    hands = [_cards(h) for h in hands]
    monte = _cards(monte)
    assert len(hands) == 4 and all(len(h) == 9 for h in hands), "four hands of nine cards"
    assert len(monte) == 4, "a monte of four cards"
    pack = []
    for rnd in range(3):
        for k in range(4):  # il mano first, then in playing order
            seat = (dealer + 1 + k) % 4
            pack.extend(hands[seat][3 * rnd:3 * rnd + 3])
    pack.extend(monte)
    assert sorted(pack) == list(range(40)), "the hands and the monte must be the 40 cards"
    return pack


def make_deal(hands, monte, dealer: int = 3, rules: Rules | None = None, **switches) -> Deal:
    """A Deal of the hands chosen by hand. Dealer 3 by default, so il mano is seat 0."""
    if rules is None:
        rules = Rules(**switches)
    elif switches:
        rules = rules.replace(**switches)
    return Deal(rules, dealer, build_pack(hands, monte, dealer))


def play(deal: Deal, *moves: str) -> Deal:
    """Apply moves given as text ("bid solo", "pass", "play D3 busso"), in order."""
    for text in moves:
        deal.apply(parse_move(text))
    return deal


def play_tricks(deal: Deal, *tricks: str) -> Deal:
    """Play whole tricks given as "D3 C7 S7 B7" (cards in playing order from the leader)."""
    for trick in tricks:
        for card in trick.split():
            deal.apply(parse_move("play " + card))
    return deal


def play_out(deal, rng: random.Random | None = None):
    """Finish the deal (or any game), each seat making its first legal move (used where any
    play gives the same result, e.g. a seat leading a suit no one else holds); a game that
    waits for a pack (a Tressette game's next hand, club's next deal) gets one shuffled by
    ``rng``."""
    while not deal.is_over:
        if deal.to_move == CHANCE:
            pack = list(range(NUM_CARDS))
            rng.shuffle(pack)
            deal.deal(pack)
        else:
            deal.apply(deal.legal_moves()[0])
    return deal


# -- hands used by many tests (dealer 3, so il mano is seat 0) ---------------------------------

# "Segregated" hands: each seat holds nine cards of one suit, the four 4s are the monte. Whoever
# leads wins the trick (no one else can follow), so the first leader wins all nine tricks.
SEGREGATED = (
    "D3 D2 DA DR DC DF D7 D6 D5",
    "C3 C2 CA CR CC CF C7 C6 C5",
    "S3 S2 SA SR SC SF S7 S6 S5",
    "B3 B2 BA BR BC BF B7 B6 B5",
)
SEGREGATED_MONTE = "D4 C4 S4 B4"

# Seat 0 holds the six Denari honours and the 4 of each other suit; the low Denari are in the
# monte. Seat 0 can win six Denari tricks, then loses the lead by leading a 4.
SIX_DENARI = (
    "D3 D2 DA DR DC DF C4 S4 B4",
    "C3 C2 CA CR CC CF C7 C6 C5",
    "S3 S2 SA SR SC SF S7 S6 S5",
    "B3 B2 BA BR BC BF B7 B6 B5",
)
SIX_DENARI_MONTE = "D7 D6 D5 D4"
