"""Leak test: an observation depends on what its seat knows, and on nothing else.

What a seat knows is written out here from docs/rules.md (sections 3-6 and the monte switches of
section 8), from the whole Deal, without the engine's SeatView:

- the rules, the dealer, its own hand as dealt;
- every decision in order with who made it; the declarer's discards only to the declarer (as a
  set: their order tells nothing), the card passed back in Mediatore only to the declarer and
  the giver (to the others such a move is just "a discard", "a give");
- the seat that gave the called card in Mediatore (it is given openly);
- the original monte, if this seat saw it: in Chiamo the declarer who takes it (everyone when
  the monte is always shown), in Mediatore and Solo everyone (the declarer only when the
  monte is never shown), in Solissimo the declarer (no one without Arcisolissimo), in
  Arcisolissimo no one; seen once the call (or the auction) is over;
- at the end of a played deal, the final monte, turned over.

Pairs of states come from a random deal by swapping two cards of the pack, or two cards in the
declarer's discards and later plays, then replaying the same decisions (pairs whose replay is
illegal are dropped). When the two states give a seat the same knowledge, its observation
vectors must be equal; when not, they must differ. Every seat and every phase is covered.

The vectors are those of the plain writer (mediatore_env/mediatore/reference.py), which reads nothing but the
seat's view; the Encoder is held equal to it by tests/test_encoding.py.
"""

import random
from collections import Counter

import numpy as np

from mediatore_env.mediatore.reference import write_observation
from mediatore_env.core.cards import NUM_CARDS, suit_of
from mediatore_env.mediatore.game import Deal
from mediatore_env.mediatore.nine_tricks import deal_hands
from mediatore_env.mediatore.moves import (AUCTION, DISCARD_BASE, END, GIVE_BASE, PASS, PHASE_NAMES,
                                           PLAY_BASE, discard_move, play_move)
from mediatore_env.mediatore.rules import (ARCISOLISSIMO, CHIAMO, MEDIATORE, PRESETS, SOLISSIMO,
                                           SOLO, Rules)

PRESET_NAMES = list(PRESETS)


def saw_monte(deal: Deal, seat: int) -> bool:
    """Whether ``seat`` has seen the original monte (docs/rules.md 5 and 8.1-8.3, 8.5)."""
    contract, rules = deal.contract, deal.rules
    if contract is None or (contract in (CHIAMO, MEDIATORE) and deal.called_card is None):
        return False
    declarer = seat == deal.declarer
    if contract == CHIAMO:
        if not rules.chiamo_monte:
            return False
        return declarer or rules.monte_shown == "always"
    if contract in (MEDIATORE, SOLO):
        return declarer or rules.monte_shown != "never"
    if contract == SOLISSIMO:
        return declarer and rules.arcisolissimo
    assert contract == ARCISOLISSIMO
    return False


def knowledge(deal: Deal, seat: int):
    """Everything ``seat`` knows about ``deal``, as a comparable value."""
    moves = []
    for who, move in deal.history:
        if DISCARD_BASE <= move < GIVE_BASE and seat != deal.declarer:
            move = "a discard"
        elif GIVE_BASE <= move < PLAY_BASE and seat not in (deal.declarer, deal.giver):
            move = "a give"
        moves.append((who, move))
    # The order of the four discards tells nothing (the observation keeps the set of them).
    first = next((i for i, (_, m) in enumerate(moves) if m == "a discard" or
                  isinstance(m, int) and DISCARD_BASE <= m < GIVE_BASE), None)
    if first is not None:
        moves[first:first + 4] = sorted(moves[first:first + 4], key=str)
    played_out = deal.phase == END and deal.contract is not None
    return (deal.rules, deal.dealer, seat, deal_hands(deal.pack, deal.dealer)[0][seat],
            tuple(moves), deal.giver,
            deal.original_monte if saw_monte(deal, seat) else None,
            deal.monte if played_out else None)


def random_game(rng: random.Random, rules: Rules):
    """A random pack and dealer, random legal decisions to the end, and the phase before each."""
    pack = list(range(40))
    rng.shuffle(pack)
    dealer = rng.randrange(4)
    deal = Deal(rules, dealer, pack)
    bid_rate = rng.choice((0.0, 0.3, 0.5))
    phases = []  # the phase before each move
    while not deal.is_over:
        phases.append(deal.phase)
        moves = deal.legal_moves()
        if deal.phase == AUCTION and len(moves) > 1:
            move = PASS if rng.random() >= bid_rate else moves[1 if rng.random() < 0.7 else -1]
        else:
            move = rng.choice(moves)
        deal.apply(move)
    return dealer, pack, [m for _, m in deal.history], phases


def replayed(rules, dealer, pack, moves):
    """The deal after ``moves``, or None if one of them is illegal there."""
    deal = Deal(rules, dealer, pack)
    for move in moves:
        if not deal.is_legal(move):
            return None
        deal.apply(move)
    return deal


def variants(rng, rules, dealer, pack, moves):
    """Deals that differ from (pack, moves) by a swap of two cards of the pack, of two cards in
    the moves (a discard kept instead of another card), or of both."""
    for _ in range(12):
        i, j = rng.sample(range(40), 2)
        other = pack[:]
        other[i], other[j] = other[j], other[i]
        deal = replayed(rules, dealer, other, moves)
        if deal is not None:
            yield deal
    discards = [m - DISCARD_BASE for m in moves if DISCARD_BASE <= m < GIVE_BASE]
    for _ in range(4 if discards else 0):
        x, y = rng.choice(discards), rng.randrange(40)
        swap = {x: y, y: x}

        def moved(m):
            if DISCARD_BASE <= m < GIVE_BASE:
                card = m - DISCARD_BASE
                return discard_move(swap.get(card, card))
            if m >= PLAY_BASE:
                signal, card = divmod(m - PLAY_BASE, NUM_CARDS)
                return play_move(swap.get(card, card), signal)
            return m
        deal = replayed(rules, dealer, pack, [moved(m) for m in moves])
        if deal is not None:
            yield deal


def test_observations_depend_on_knowledge_only():
    rng = random.Random(2024)
    same, different = Counter(), Counter()
    for g in range(160):
        rules = Rules.preset(PRESET_NAMES[g % len(PRESET_NAMES)])
        dealer, pack, moves, phases = random_game(rng, rules)
        # A cut point in every phase the game went through, a few more, and the end.
        by_phase = {}
        for k, phase in enumerate(phases):
            by_phase.setdefault(phase, []).append(k)
        cuts = {rng.choice(ks) for ks in by_phase.values()} | {len(moves)}
        cuts |= set(rng.sample(range(len(moves) + 1), min(3, len(moves) + 1)))
        for k in sorted(cuts):
            base = replayed(rules, dealer, pack, moves[:k])
            for other in variants(rng, rules, dealer, pack, moves[:k]):
                for seat in range(4):
                    a = write_observation(base.view(seat))
                    b = write_observation(other.view(seat))
                    key = (seat, PHASE_NAMES[base.phase])
                    if knowledge(base, seat) == knowledge(other, seat):
                        assert np.array_equal(a, b), f"leak: seat {seat} in {key[1]} after {k} moves"
                        same[key] += 1
                    else:
                        assert not np.array_equal(a, b), \
                            f"seat {seat} in {key[1]} cannot tell apart states it knows to differ"
                        different[key] += 1
    everything = {(s, p) for s in range(4) for p in PHASE_NAMES}
    assert set(same) == everything, f"no indistinguishable pair for {everything - set(same)}"
    assert set(different) - {(s, "end") for s in range(4)} == everything - {(s, "end") for s in range(4)}


def test_secret_partner_stays_secret_until_the_called_card_is_played():
    """The called card moved between two other hands: a third seat sees no difference until the
    card is played, and the partner's own observation changes at once."""
    rng = random.Random(7)
    checked = 0
    for _ in range(400):
        dealer, pack, moves, _ = random_game(rng, Rules())
        deal = replayed(Rules(), dealer, pack, moves)
        if deal.contract != CHIAMO or deal.partner is None:
            continue
        called, partner, declarer = deal.called_card, deal.partner, deal.declarer
        others = [s for s in range(4) if s not in (declarer, partner)]
        hands = deal_hands(pack, dealer)[0]
        # Swap the called card with a same-suit card of another opponent, so the plays stay legal.
        for target in others:
            same_suit = [c for c in range(40) if hands[target] >> c & 1 and suit_of(c) == suit_of(called)]
            if not same_suit:
                continue
            i, j = pack.index(called), pack.index(same_suit[0])
            other = pack[:]
            other[i], other[j] = other[j], other[i]
            played_at = next(k for k, (_, m) in enumerate(deal.history)
                             if m >= PLAY_BASE and (m - PLAY_BASE) % NUM_CARDS == called)
            swapped = replayed(Rules(), dealer, other, moves[:played_at])
            if swapped is None:
                continue
            assert swapped.partner == target and replayed(Rules(), dealer, pack, moves[:played_at]).partner == partner
            base = replayed(Rules(), dealer, pack, moves[:played_at])
            third = next(s for s in range(4) if s not in (declarer, partner, target))
            for seat in (declarer, third):  # neither knows where the called card is
                assert np.array_equal(write_observation(base.view(seat)),
                                      write_observation(swapped.view(seat)))
            for seat in (partner, target):  # they hold (or not) the called card
                assert not np.array_equal(write_observation(base.view(seat)),
                                          write_observation(swapped.view(seat)))
            checked += 1
    assert checked >= 5
